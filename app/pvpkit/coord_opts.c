/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The table of the options trial, search, run and soak share
 * (coord_opts.h), and the man page rows written from it. Parsing is in
 * coord_cli.c with the other option readers; this file needs nothing
 * but the table, so pvpkit-opts-doc links it alone.
 */

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "coord_opts.h"

#define OFF_CONF(m) (offsetof(struct coord_opts, conf) + offsetof(struct coord_trial_conf, m))
#define CMD_ALL	    (COORD_OPT_TRIAL | COORD_OPT_SEARCH | COORD_OPT_RUN | COORD_OPT_SOAK)
#define CMD_TRIALS  (COORD_OPT_TRIAL | COORD_OPT_SEARCH | COORD_OPT_RUN)

/*
 * Ranges: a trial lasts at most a day, as the generator's --duration; a
 * warm-up, of one trial or of a search, at most an hour. search and run
 * read --size and --flows as lists (coord_search_args.c) in these rows'
 * ranges; soak's --duration is the soak's own length (up to 7 days) and
 * its --rate a packet rate, since its records give pps.
 */
const struct coord_opt_desc coord_opts[COORD_OPT_NB] = {
	[COORD_OPT_TOPOLOGY] = {"topology", "FILE", COORD_OPTK_PATH, 0, 0,
				offsetof(struct coord_opts, topology), CMD_ALL,
				"Topology JSON (default: the local testbed's,\n"
				"$PVP_TESTBED_RUNDIR/topology.json)."},
	[COORD_OPT_SIZE] = {"size", "BYTES", COORD_OPTK_COUNT, 64, 9216, OFF_CONF(traffic.size),
			    COORD_OPT_TRIAL | COORD_OPT_SOAK,
			    "Frame size with FCS (default 64); search takes one, run a list\n"
			    "(\\-\\-sizes)."},
	[COORD_OPT_FLOWS] = {"flows", "N", COORD_OPTK_COUNT, 1, 16777216, OFF_CONF(traffic.flows),
			     COORD_OPT_TRIAL | COORD_OPT_SOAK,
			     "Flows (default 1); search takes one count, run a list."},
	[COORD_OPT_PROFILE] = {"profile", "FILE", COORD_OPTK_PATH, 0, 0, OFF_CONF(traffic.profile),
			       COORD_OPT_TRIAL | COORD_OPT_SEARCH | COORD_OPT_RUN,
			       "A generator stream profile to send instead of the frame sizes and\n"
			       "flow counts."},
	[COORD_OPT_FLOW_TYPE] =
		{"flow-type", "TYPE", COORD_OPTK_FTYPE, 0, 0, OFF_CONF(traffic.flow_type), CMD_ALL,
		 "Have the vswitch install\n"
		 ".I TYPE\n"
		 "rules (normal, l2, l3, l4) for the flows and check them, and send\n"
		 "traffic that matches them."},
	[COORD_OPT_RATE] =
		{"rate", "RATE", COORD_OPTK_RATE, 0, 0, OFF_CONF(traffic.rate),
		 COORD_OPT_TRIAL | COORD_OPT_SOAK,
		 "Rate per TX port: pps (\\fB100000\\fR, \\fB500kpps\\fR, \\fB1Mpps\\fR,"
		 " 1..1e11),\n"
		 "\\fB5Gbps\\fR (L1), \\fB5Gbps\\-l2\\fR (1e3..1e14 bit/s), \\fB10%\\fR of"
		 " the line\n"
		 "rate or \\fBmax\\fR (trial, default 100kpps); soak: a packet rate."},
	[COORD_OPT_DURATION] =
		{"duration", "S", COORD_OPTK_SECONDS, 0.001, 86400, OFF_CONF(traffic.duration_s),
		 COORD_OPT_TRIAL,
		 "Traffic time in seconds, with an optional unit \\fBms\\fR, \\fBs\\fR,\n"
		 "\\fBm\\fR or \\fBh\\fR (default 10)."},
	[COORD_OPT_WARMUP] =
		{"warmup", "S", COORD_OPTK_SECONDS, 0, 3600, OFF_CONF(warmup_s), CMD_TRIALS,
		 "Warm\\-up traffic before the measured trial (search and run: a\n"
		 "warm\\-up trial at \\-\\-max\\-rate first, ignored; default 0, and 0\n"
		 "turns a preset's off)."},
	[COORD_OPT_QUIET_TIMEOUT] = {"quiet-timeout", "S", COORD_OPTK_SECONDS, 0.1, 600,
				     OFF_CONF(quiet_timeout_s), CMD_TRIALS,
				     "Wait at most\n"
				     ".I S\n"
				     "seconds for the counters to stop (default 5)."},
	[COORD_OPT_RESULTS] =
		{"results", "FILE", COORD_OPTK_PATH, 0, 0, offsetof(struct coord_opts, results),
		 CMD_ALL,
		 "Append each record as one JSON line, flushed to disk (trial: none;\n"
		 "search: results.jsonl; run: OUT/results.jsonl; soak: OUT/soak.jsonl)."},
};

/* "\-\-flow\-type": a name as roff writes it. */
static void
opts_roff_name(FILE *f, const char *name)
{
	fputs("\\-\\-", f);
	for (; *name != '\0'; name++) {
		if (*name == '-')
			fputc('\\', f);
		fputc(*name, f);
	}
}

/*
 * Row @p d's range as a sentence ("Range 64..9216."), or "" when it has
 * none: the range is the table's, never a copy in the text.
 */
static const char *
opts_range(const struct coord_opt_desc *d, char *buf, size_t len)
{
	if (d->kind != COORD_OPTK_COUNT && d->kind != COORD_OPTK_SECONDS)
		return "";
	snprintf(buf, len, "Range %.10g..%.10g%s.", d->min, d->max,
		 d->kind == COORD_OPTK_SECONDS ? " s" : "");
	return buf;
}

void
coord_opts_doc(FILE *f)
{
	static const char *const cmds[] = {"trial", "search", "run", "soak"};
	unsigned int i, c;
	const char *sep;
	char range[64];

	for (i = 0; i < COORD_OPT_NB; i++) {
		fputs(".TP\n.BI ", f);
		opts_roff_name(f, coord_opts[i].name);
		fprintf(f, " \" %s\"\n%s\n", coord_opts[i].metavar, coord_opts[i].help);
		if (*opts_range(&coord_opts[i], range, sizeof(range)) != '\0')
			fprintf(f, "%s\n", range);
		fputs("Commands:", f);
		sep = " ";
		for (c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
			if ((coord_opts[i].cmds & (1u << c)) == 0)
				continue;
			fprintf(f, "%s%s", sep, cmds[c]);
			sep = ", ";
		}
		fputs(".\n", f);
	}
}

/*
 * The man text @p roff as plain words for a terminal: the escapes this
 * table uses (\-, \fB, \fI, \fR) undone, ".I WORD" lines and line
 * breaks turned into spaces.
 */
static void
opts_plain(const char *roff, char *out, size_t len)
{
	size_t n = 0;

	for (; *roff != '\0' && n + 1 < len; roff++) {
		if (roff[0] == '\\' && roff[1] == 'f' && roff[2] != '\0') {
			roff += 2;
			continue;
		}
		if (roff[0] == '\\' && roff[1] != '\0')
			roff++;
		else if (roff[0] == '.' && (n == 0 || out[n - 1] == ' ') &&
			 strncmp(roff, ".I ", 3) == 0)
			roff += 2;
		out[n++] = *roff == '\n' ? ' ' : *roff;
	}
	out[n] = '\0';
}

/* @p text's words from column @p col on, lines of at most COORD_OPTS_WIDTH. */
static void
opts_wrap(FILE *f, char *text, int col)
{
	int at = col;
	char *w, *save;

	for (w = strtok_r(text, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save)) {
		if (at > col && at + 1 + (int)strlen(w) > COORD_OPTS_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		}
		at += fprintf(f, "%s%s", at > col ? " " : "", w);
	}
	fputc('\n', f);
}

void
coord_opts_usage(FILE *f, unsigned int cmd, int col)
{
	char text[1024], range[64];
	unsigned int i;
	int n;

	for (i = 0; i < COORD_OPT_NB; i++) {
		if ((coord_opts[i].cmds & cmd) == 0)
			continue;
		n = fprintf(f, "  --%s %s", coord_opts[i].name, coord_opts[i].metavar);
		if (n >= col)
			fprintf(f, "\n%*s", col, "");
		else
			fprintf(f, "%*s", col - n, "");
		opts_plain(coord_opts[i].help, text, sizeof(text));
		n = (int)strlen(text);
		snprintf(text + n, sizeof(text) - (size_t)n, " %s",
			 opts_range(&coord_opts[i], range, sizeof(range)));
		opts_wrap(f, text, col);
	}
}
