/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The table of the options trial, search, run and soak share
 * (cli_opts.h), and the man page rows written from it. Parsing is in
 * cli.c with the other option readers; this file needs nothing
 * but the table, so pvpkit-opts-doc links it alone.
 */

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli_opts.h"

#define OFF_CONF(m) (offsetof(struct cli_opts, conf) + offsetof(struct coord_trial_conf, m))
#define CMD_ALL	    (CLI_OPT_TRIAL | CLI_OPT_SEARCH | CLI_OPT_RUN | CLI_OPT_SOAK)
#define CMD_TRIALS  (CLI_OPT_TRIAL | CLI_OPT_SEARCH | CLI_OPT_RUN)

/*
 * Ranges: a trial lasts at most a day, as the generator's --duration; a
 * warm-up, of one trial or of a search, at most an hour. search and run
 * read --size and --flows as lists (cmd_search_args.c) in these rows'
 * ranges; soak's --duration is the soak's own length (up to 7 days) and
 * its --rate a packet rate, since its records give pps.
 */
const struct cli_opt_desc cli_opts[CLI_OPT_NB] = {
	[CLI_OPT_TOPOLOGY] = {"topology", "FILE", CLI_OPTK_PATH, 0, 0,
			      offsetof(struct cli_opts, topology), CMD_ALL,
			      "Topology JSON (default: the local testbed's,\n"
			      "$PVP_TESTBED_RUNDIR/topology.json)."},
	[CLI_OPT_SIZE] = {"size", "BYTES", CLI_OPTK_COUNT, 64, 9216, OFF_CONF(traffic.size),
			  CLI_OPT_TRIAL | CLI_OPT_SOAK,
			  "Frame size with FCS (default 64); search takes one, run a list\n"
			  "(\\-\\-sizes)."},
	[CLI_OPT_FLOWS] = {"flows", "N", CLI_OPTK_COUNT, 1, 16777216, OFF_CONF(traffic.flows),
			   CLI_OPT_TRIAL | CLI_OPT_SOAK,
			   "Flows (default 1); search takes one count, run a list."},
	[CLI_OPT_PROFILE] = {"profile", "FILE", CLI_OPTK_PATH, 0, 0, OFF_CONF(traffic.profile),
			     CLI_OPT_TRIAL | CLI_OPT_SEARCH | CLI_OPT_RUN,
			     "A generator stream profile to send instead of the frame sizes and\n"
			     "flow counts."},
	[CLI_OPT_FLOW_TYPE] = {"flow-type", "TYPE", CLI_OPTK_FTYPE, 0, 0,
			       OFF_CONF(traffic.flow_type), CMD_ALL,
			       "Have the vswitch install\n"
			       ".I TYPE\n"
			       "rules (normal, l2, l3, l4) for the flows and check them, and send\n"
			       "traffic that matches them."},
	[CLI_OPT_RATE] = {"rate", "RATE", CLI_OPTK_RATE, 0, 0, OFF_CONF(traffic.rate),
			  CLI_OPT_TRIAL | CLI_OPT_SOAK,
			  "Rate per TX port: pps (\\fB100000\\fR, \\fB500kpps\\fR, \\fB1Mpps\\fR,"
			  " 1..1e11),\n"
			  "\\fB5Gbps\\fR (L1), \\fB5Gbps\\-l2\\fR (1e3..1e14 bit/s), \\fB10%\\fR of"
			  " the line\n"
			  "rate or \\fBmax\\fR (trial, default 100kpps); soak: a packet rate."},
	[CLI_OPT_DURATION] =
		{"duration", "S", CLI_OPTK_SECONDS, 0.001, 86400, OFF_CONF(traffic.duration_s),
		 CLI_OPT_TRIAL,
		 "Traffic time in seconds, with an optional unit \\fBms\\fR, \\fBs\\fR,\n"
		 "\\fBm\\fR or \\fBh\\fR (default 10)."},
	[CLI_OPT_WARMUP] = {"warmup", "S", CLI_OPTK_SECONDS, 0, 3600, OFF_CONF(warmup_s),
			    CMD_TRIALS,
			    "Warm\\-up traffic before the measured trial (search and run: a\n"
			    "warm\\-up trial at \\-\\-max\\-rate first, ignored; default 0, and 0\n"
			    "turns a preset's off)."},
	[CLI_OPT_QUIET_TIMEOUT] = {"quiet-timeout", "S", CLI_OPTK_SECONDS, 0.1, 600,
				   OFF_CONF(quiet_timeout_s), CMD_TRIALS,
				   "Wait at most\n"
				   ".I S\n"
				   "seconds for the counters to stop (default 5)."},
	[CLI_OPT_RESULTS] =
		{"results", "FILE", CLI_OPTK_PATH, 0, 0, offsetof(struct cli_opts, results),
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
opts_range(const struct cli_opt_desc *d, char *buf, size_t len)
{
	if (d->kind != CLI_OPTK_COUNT && d->kind != CLI_OPTK_SECONDS)
		return "";
	snprintf(buf, len, "Range %.10g..%.10g%s.", d->min, d->max,
		 d->kind == CLI_OPTK_SECONDS ? " s" : "");
	return buf;
}

void
cli_opts_doc(FILE *f)
{
	static const char *const cmds[] = {"trial", "search", "run", "soak"};
	unsigned int i, c;
	const char *sep;
	char range[64];

	for (i = 0; i < CLI_OPT_NB; i++) {
		fputs(".TP\n.BI ", f);
		opts_roff_name(f, cli_opts[i].name);
		fprintf(f, " \" %s\"\n%s\n", cli_opts[i].metavar, cli_opts[i].help);
		if (*opts_range(&cli_opts[i], range, sizeof(range)) != '\0')
			fprintf(f, "%s\n", range);
		fputs("Commands:", f);
		sep = " ";
		for (c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
			if ((cli_opts[i].cmds & (1u << c)) == 0)
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

/* @p text's words from column @p col on, lines of at most CLI_OPTS_WIDTH. */
static void
opts_wrap(FILE *f, char *text, int col)
{
	int at = col;
	char *w, *save;

	for (w = strtok_r(text, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save)) {
		if (at > col && at + 1 + (int)strlen(w) > CLI_OPTS_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		}
		at += fprintf(f, "%s%s", at > col ? " " : "", w);
	}
	fputc('\n', f);
}

void
cli_opts_usage(FILE *f, unsigned int cmd, int col)
{
	char text[1024], range[64];
	unsigned int i;
	int n;

	for (i = 0; i < CLI_OPT_NB; i++) {
		if ((cli_opts[i].cmds & cmd) == 0)
			continue;
		n = fprintf(f, "  --%s %s", cli_opts[i].name, cli_opts[i].metavar);
		if (n >= col)
			fprintf(f, "\n%*s", col, "");
		else
			fprintf(f, "%*s", col - n, "");
		opts_plain(cli_opts[i].help, text, sizeof(text));
		n = (int)strlen(text);
		snprintf(text + n, sizeof(text) - (size_t)n, " %s",
			 opts_range(&cli_opts[i], range, sizeof(range)));
		opts_wrap(f, text, col);
	}
}
