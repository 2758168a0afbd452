/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * One-way latency in the report (doc/reports.rst, "One-way latency"):
 * per point, the last trial whose record has "oneway", its streams'
 * to_guest and from_guest halves, or why they were not measured. Read
 * through the record's tables (coord_record_oneway_members), so a
 * record the writer could not have written says so instead of showing
 * zeros.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "coord_record.h"
#include "report_private.h"

/* A half's figures in us, as the summary keeps them. */
static json_t *
oneway_half_json(const struct coord_record_oneway_half *h)
{
	return json_pack("{s:I,s:f,s:f,s:f}", "count", (json_int_t)h->count, "p50_us",
			 (double)h->p50 / 1e3, "p99_us", (double)h->p99 / 1e3, "max_us",
			 (double)h->max / 1e3);
}

/*
 * The streams' halves of trial @p tr into @p streams; 0, or -EINVAL with
 * the stream that the table refuses in @p err.
 */
static int
oneway_streams(const struct coord_trial_record *tr, json_t *streams, char *err, size_t err_len)
{
	struct coord_record_stream st;
	char why[256] = "";
	const json_t *s;
	size_t i;

	json_array_foreach(tr->streams, i, s) {
		if (pvp_schema_read(coord_record_stream_members, s, &st, why, sizeof(why)) < 0) {
			pvp_err(err, err_len, "streams[%zu]: %s", i, why);
			return -EINVAL;
		}
		/* A stream the source did not split (no oneway_ns) has no row. */
		if (!st.has_ns)
			continue;
		json_array_append_new(streams,
				      json_pack("{s:I,s:I,s:o,s:o,s:I}", "stream",
						(json_int_t)st.stream, "port", (json_int_t)st.port,
						"to_guest", oneway_half_json(&st.ns.to_guest),
						"from_guest", oneway_half_json(&st.ns.from_guest),
						"unstamped", (json_int_t)st.ns.unstamped));
	}
	return 0;
}

json_t *
report_oneway_point(const json_t *recs)
{
	const json_t *rec, *last = NULL;
	struct coord_record_oneway ow;
	struct coord_trial_record tr;
	json_t *j = NULL, *streams = NULL;
	char why[512] = "", err[256] = "";
	size_t i;

	/* The last trial that has it: a search's final phase, or the trial itself. */
	json_array_foreach(recs, i, rec)
		if (report_trial(rec, &tr) && tr.oneway != NULL)
			last = rec;
	if (last == NULL || !report_trial(last, &tr))
		return NULL;
	memset(&ow, 0, sizeof(ow));
	if (pvp_schema_read(coord_record_oneway_members, tr.oneway, &ow, err, sizeof(err)) < 0)
		snprintf(why, sizeof(why), "the record's oneway: %s", err);
	else if (ow.clock != 0)
		snprintf(why, sizeof(why), "%s's clock is not %s's: %s", ow.guest, ow.source,
			 ow.reason[0] != '\0' ? ow.reason : "no reason given");
	else if ((streams = json_array()) == NULL ||
		 oneway_streams(&tr, streams, err, sizeof(err)) < 0)
		snprintf(why, sizeof(why), "the record's %s", err);
	else if (json_array_size(streams) == 0)
		snprintf(why, sizeof(why), "no stream of %s has oneway_ns", ow.source);
	/* Why it was not measured, or the streams' halves. */
	j = json_pack("{s:f,s:s,s:s,s:b,s:s*,s:O*}", "rate_pps",
		      tr.has_requested ? tr.requested_pps : tr.achieved_pps, "guest", ow.guest,
		      "source", ow.source, "measured", why[0] == '\0', "reason",
		      why[0] != '\0' ? why : NULL, "streams", why[0] == '\0' ? streams : NULL);
	json_decref(streams);
	return j;
}

/* One half's cells: p50, p99 and max in us. */
static void
oneway_html_half(FILE *f, const json_t *h)
{
	fprintf(f, "<td>%.1f</td><td>%.1f</td><td>%.1f</td>", report_num(h, "p50_us", 0),
		report_num(h, "p99_us", 0), report_num(h, "max_us", 0));
}

void
report_html_oneway(FILE *f, const json_t *summary)
{
	const json_t *pt, *ow, *st;
	unsigned int rows = 0;
	size_t i, k;

	fputs("<h2>One-way latency</h2>\n<table id=\"oneway\">\n"
	      "<tr><th>size (B)</th><th>flows</th><th>trial (pps)</th><th>stream</th>"
	      "<th>port</th><th>to_guest p50 (us)</th><th>p99</th><th>max</th>"
	      "<th>from_guest p50 (us)</th><th>p99</th><th>max</th></tr>\n",
	      f);
	json_array_foreach(json_object_get(summary, "points"), i, pt) {
		ow = json_object_get(pt, "oneway");
		if (ow == NULL)
			continue;
		if (!json_is_true(json_object_get(ow, "measured"))) {
			fprintf(f,
				"<tr><td>%.0f</td><td>%.0f</td><td>%.0f</td>"
				"<td class=\"l\" colspan=\"8\">not measured (",
				report_num(pt, "size", 0), report_num(pt, "flows", 0),
				report_num(ow, "rate_pps", 0));
			report_html_text(f, report_str(ow, "reason", ""));
			fputs(")</td></tr>\n", f);
			rows++;
			continue;
		}
		json_array_foreach(json_object_get(ow, "streams"), k, st) {
			fprintf(f,
				"<tr><td>%.0f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td>"
				"<td>%.0f</td>",
				report_num(pt, "size", 0), report_num(pt, "flows", 0),
				report_num(ow, "rate_pps", 0), report_num(st, "stream", 0),
				report_num(st, "port", 0));
			oneway_html_half(f, json_object_get(st, "to_guest"));
			oneway_html_half(f, json_object_get(st, "from_guest"));
			fputs("</tr>\n", f);
			rows++;
		}
	}
	if (rows == 0)
		fputs("<tr><td class=\"l\" colspan=\"11\">no trial measured it (no guest "
		      "stamps: pvpkit-fwd --stamp)</td></tr>\n",
		      f);
	fputs("</table>\n", f);
}
