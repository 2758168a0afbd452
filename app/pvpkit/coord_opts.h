/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The options trial, search, run and soak share, described once
 * (coord_opts.c): name, value, range, which commands take it and where
 * it lands in struct coord_opts, which holds the struct coord_trial_conf
 * every trial of the command starts from. getopt's table, the parsing,
 * the checks and the man page's COMMON OPTIONS (pvpkit-opts-doc, test
 * opts-doc) and the commands' --help rows all come from that one
 * table, so no command accepts what another refuses.
 */

#ifndef COORD_OPTS_H
#define COORD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "coord.h"

struct option;

/* The shared options, in the order of the man page. */
enum coord_opt {
	COORD_OPT_TOPOLOGY,
	COORD_OPT_SIZE,
	COORD_OPT_FLOWS,
	COORD_OPT_PROFILE,
	COORD_OPT_FLOW_TYPE,
	COORD_OPT_RATE,
	COORD_OPT_DURATION,
	COORD_OPT_WARMUP,
	COORD_OPT_QUIET_TIMEOUT,
	COORD_OPT_RESULTS,
	COORD_OPT_NB,
};

/* getopt_long()'s value of shared option ID: COORD_OPT_VAL + ID. */
#define COORD_OPT_VAL 2000

/* The commands that take shared options (a row's mask). */
enum coord_opt_cmd {
	COORD_OPT_TRIAL = 1u << 0,
	COORD_OPT_SEARCH = 1u << 1,
	COORD_OPT_RUN = 1u << 2,
	COORD_OPT_SOAK = 1u << 3,
};

/* What a shared option's value is. */
enum coord_opt_kind {
	COORD_OPTK_PATH,    /* a file name, kept as given */
	COORD_OPTK_COUNT,   /* a whole number in [min, max] */
	COORD_OPTK_SECONDS, /* a duration in [min, max] seconds, units ms s m h */
	COORD_OPTK_RATE,    /* a rate (pvp_rate_parse()): the text and its pps */
	COORD_OPTK_FTYPE,   /* a flow type (coord_flow_type_parse()) */
};

/* One shared option. */
struct coord_opt_desc {
	const char *name;	  /* without the leading "--" */
	const char *metavar;	  /* its value in the usage: "FILE", "N" */
	enum coord_opt_kind kind; /* how the value is read */
	double min, max;	  /* COUNT and SECONDS: the range */
	size_t off;		  /* where the value lands in struct coord_opts */
	unsigned int cmds;	  /* enum coord_opt_cmd bits: the commands that take it */
	const char *help;	  /* the man page's text (roff, one paragraph) */
};

/* The table, indexed by enum coord_opt. */
extern const struct coord_opt_desc coord_opts[COORD_OPT_NB];

/* What the shared options of a command line gave. */
struct coord_opts {
	struct coord_trial_conf conf; /* what every trial of the command starts from */
	const char *topology;	      /* --topology, NULL: the testbed's */
	const char *results;	      /* --results, NULL: the command's default */
	unsigned int given;	      /* bit 1 << ID for each shared option seen */
	bool pps_only;		      /* --rate: packet rates only (soak) */
};

/* Set @p o to the defaults every command shares (64 B, 1 flow). */
void coord_opts_init(struct coord_opts *o);

/*
 * Fill @p out with @p own (its @p nb_own rows, no terminator), then the
 * shared options command @p cmd takes, then the terminating row.
 * @p out must hold nb_own + COORD_OPT_NB + 1 rows.
 */
void coord_opts_longopts(unsigned int cmd, const struct option *own, size_t nb_own,
			 struct option *out);

/*
 * If @p val is a shared option's getopt value, read @p arg into @p o;
 * usage errors point to @p see.
 * @return 1 stored, 0 not a shared option, 2 after a one-line message.
 */
int coord_opts_parse(struct coord_opts *o, int val, const char *arg, const char *see);

/* The width of a --help line. */
#define COORD_OPTS_WIDTH 80

/*
 * The --help rows of the shared options command @p cmd takes: the man
 * page's text, plain, its description from column @p col on.
 */
void coord_opts_usage(FILE *f, unsigned int cmd, int col);

/* The man page's COMMON OPTIONS rows (roff), as pvpkit-opts-doc prints them. */
void coord_opts_doc(FILE *f);

#endif /* COORD_OPTS_H */
