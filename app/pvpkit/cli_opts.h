/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The options trial, search, run and soak share, described once
 * (cli_opts.c): name, value, range, which commands take it and where
 * it lands in struct cli_opts, which holds the struct coord_trial_conf
 * every trial of the command starts from. getopt's table, the parsing,
 * the checks and the man page's COMMON OPTIONS (pvpkit-opts-doc, test
 * opts-doc) and the commands' --help rows all come from that one
 * table, so no command accepts what another refuses.
 */

#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "coord.h"

struct option;

/* The shared options, in the order of the man page. */
enum cli_opt {
	CLI_OPT_TOPOLOGY,
	CLI_OPT_SIZE,
	CLI_OPT_FLOWS,
	CLI_OPT_PROFILE,
	CLI_OPT_FLOW_TYPE,
	CLI_OPT_RATE,
	CLI_OPT_DURATION,
	CLI_OPT_WARMUP,
	CLI_OPT_QUIET_TIMEOUT,
	CLI_OPT_RESULTS,
	CLI_OPT_NB,
};

/* getopt_long()'s value of shared option ID: CLI_OPT_VAL + ID. */
#define CLI_OPT_VAL 2000

/* The commands that take shared options (a row's mask). */
enum cli_opt_cmd {
	CLI_OPT_TRIAL = 1u << 0,
	CLI_OPT_SEARCH = 1u << 1,
	CLI_OPT_RUN = 1u << 2,
	CLI_OPT_SOAK = 1u << 3,
};

/* What a shared option's value is. */
enum cli_opt_kind {
	CLI_OPTK_PATH,	  /* a file name, kept as given */
	CLI_OPTK_COUNT,	  /* a whole number in [min, max] */
	CLI_OPTK_SECONDS, /* a duration in [min, max] seconds, units ms s m h */
	CLI_OPTK_RATE,	  /* a rate (pvp_rate_parse()): the text and its pps */
	CLI_OPTK_FTYPE,	  /* a flow type (coord_flow_type_parse()) */
};

/* One shared option. */
struct cli_opt_desc {
	const char *name;	/* without the leading "--" */
	const char *metavar;	/* its value in the usage: "FILE", "N" */
	enum cli_opt_kind kind; /* how the value is read */
	double min, max;	/* COUNT and SECONDS: the range */
	size_t off;		/* where the value lands in struct cli_opts */
	unsigned int cmds;	/* enum cli_opt_cmd bits: the commands that take it */
	const char *help;	/* the man page's text (roff, one paragraph) */
};

/* The table, indexed by enum cli_opt. */
extern const struct cli_opt_desc cli_opts[CLI_OPT_NB];

/* What the shared options of a command line gave. */
struct cli_opts {
	struct coord_trial_conf conf; /* what every trial of the command starts from */
	const char *topology;	      /* --topology, NULL: the testbed's */
	const char *results;	      /* --results, NULL: the command's default */
	unsigned int given;	      /* bit 1 << ID for each shared option seen */
	bool pps_only;		      /* --rate: packet rates only (soak) */
};

/* Set @p o to the defaults every command shares (64 B, 1 flow). */
void cli_opts_init(struct cli_opts *o);

/*
 * Fill @p out with @p own (its @p nb_own rows, no terminator), then the
 * shared options command @p cmd takes, then the terminating row.
 * @p out must hold nb_own + CLI_OPT_NB + 1 rows.
 */
void cli_opts_longopts(unsigned int cmd, const struct option *own, size_t nb_own,
		       struct option *out);

/*
 * If @p val is a shared option's getopt value, read @p arg into @p o;
 * usage errors point to @p see.
 * @return 1 stored, 0 not a shared option, 2 after a one-line message.
 */
int cli_opts_parse(struct cli_opts *o, int val, const char *arg, const char *see);

/* The width of a --help line. */
#define CLI_OPTS_WIDTH 80

/*
 * The --help rows of the shared options command @p cmd takes: the man
 * page's text, plain, its description from column @p col on.
 */
void cli_opts_usage(FILE *f, unsigned int cmd, int col);

/* The man page's COMMON OPTIONS rows (roff), as pvpkit-opts-doc prints them. */
void cli_opts_doc(FILE *f);

#endif /* CLI_OPTS_H */
