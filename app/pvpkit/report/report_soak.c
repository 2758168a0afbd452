/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Soak runs from the records alone: soak.csv (one row per interval) and a
 * plot of loss and latency over time, so periodic drops, leaks and slowly
 * growing latency are seen at a glance.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "coord_record.h"
#include "report.h"
#include "report_private.h"

/* An interval's latency in us: "p50 p99 max" with @p sep between, @p none for none. */
static void
soak_lat_us(FILE *f, const struct coord_soak_record *sr, const char *sep, const char *none)
{
	const struct coord_record_soak_latency *l = &sr->latency_ns;

	if (sr->has_latency)
		fprintf(f, "%.3f%s%.3f%s%.3f", (double)l->p50 / 1e3, sep, (double)l->p99 / 1e3, sep,
			(double)l->max / 1e3);
	else
		fputs(none, f);
}

/*
 * The --inject calls of @p sr as one line: "HOP METHOD PARAMS" as the
 * soak said them, "; " between, "failed: WHY" after a refused one.
 */
static void
soak_events(const struct coord_soak_record *sr, char *buf, size_t len)
{
	const struct coord_record_soak_inject *c;
	char *params;
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < sr->nb_injected && n < len; i++) {
		c = &sr->injected[i];
		params = c->params != NULL ? json_dumps(c->params, JSON_COMPACT) : NULL;
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s%s%s%s%s", i > 0 ? "; " : "",
				      c->hop, c->method, params != NULL ? " " : "",
				      params != NULL ? params : "",
				      c->ok ? "" : " failed: ", c->ok ? "" : c->error);
		free(params);
	}
}

/* A dashed line at each --inject call's second, named by its method. */
static void
soak_plot_events(FILE *f, const json_t *records)
{
	struct coord_soak_record sr;
	const json_t *rec;
	char name[64];
	unsigned int k;
	size_t i;

	json_array_foreach(records, i, rec) {
		if (!report_soak(rec, &sr) || sr.type != COORD_SOAK_TOTALS)
			continue;
		for (k = 0; k < sr.nb_injected; k++) {
			report_plot_clean(name, sizeof(name), sr.injected[k].method);
			fprintf(f,
				"set arrow from %.3f, graph 0 to %.3f, graph 1 nohead dt 2 lc "
				"rgb \"gray\"\nset label \"%s\" at %.3f, graph 0.95 rotate by 90 "
				"right font \",8\" noenhanced\n",
				sr.injected[k].t_s, sr.injected[k].t_s, name, sr.injected[k].t_s);
		}
	}
}

int
report_write_soak(const json_t *records, const struct report_gp *gp, bool plots)
{
	struct coord_soak_record sr;
	const json_t *rec;
	struct pvp_out out;
	char ev[1024];
	unsigned int n = 0;
	bool any_lat = false;
	size_t i;
	FILE *f;
	int ret = 0;

	json_array_foreach(records, i, rec) {
		if (report_soak(rec, &sr) && sr.type == COORD_SOAK_INTERVAL) {
			n++;
			any_lat |= sr.has_latency;
		}
	}
	if (n == 0)
		return 0;
	/* The CSV on the first call (plots false), the plot on the second. */
	f = report_plot_file(&out, gp->outdir, "soak", plots ? "dat" : "csv");
	if (f == NULL)
		return -errno;
	fputs(plots ? "# pvpkit soak: t_s loss_pct p50_us p99_us max_us\n"
		    : "t_s,interval_s,tx_packets,rx_packets,lost,loss_pct,tx_pps,rx_pps,p50_us,"
		      "p99_us,max_us,events\n",
	      f);
	json_array_foreach(records, i, rec) {
		if (!report_soak(rec, &sr) || sr.type != COORD_SOAK_INTERVAL)
			continue;
		if (plots) {
			fprintf(f, "%.3f %.6f ", sr.t_s, 100 * sr.loss_ratio);
			soak_lat_us(f, &sr, " ", "? ? ?");
		} else {
			fprintf(f, "%.3f,%.3f,%.0f,%.0f,%.0f,%.6f,%.0f,%.0f,", sr.t_s,
				sr.interval_s, (double)sr.tx_packets, (double)sr.rx_packets,
				(double)sr.lost, 100 * sr.loss_ratio, sr.tx_pps, sr.rx_pps);
			soak_lat_us(f, &sr, ",", ",,");
			soak_events(&sr, ev, sizeof(ev));
			fputc(',', f);
			report_csv_field(f, ev);
		}
		fputc('\n', f);
	}
	if (!plots) {
		ret = pvp_out_commit(&out, NULL, 0);
		if (ret == 0)
			report_add_file(gp->info, "soak.csv");
		return ret;
	}
	f = report_plot_script(&out, gp->outdir, "soak");
	if (f == NULL)
		return -errno;
	fprintf(f, "set datafile missing \"?\"\n");
	fprintf(f, "set title \"%s: soak, loss and latency per interval (tsc clock)\" noenhanced\n",
		gp->title);
	fprintf(f, "set xlabel \"Time (s)\"\nset ylabel \"Lost (%% of tester TX)\"\n");
	if (any_lat)
		fprintf(f, "set y2label \"Latency (us)\"\nset y2tics\nset ytics nomirror\nset "
			   "logscale y2\n");
	fprintf(f, "set yrange [0:*]\nset grid\nset key outside right top\n");
	soak_plot_events(f, records);
	/* Without latency the y2 lines would have no point and gnuplot fails. */
	report_plot_begin(f, gp, "soak", 1000);
	fputs(any_lat ? "plot \"soak.dat\" using 1:2 with impulses lw 2 lc rgb \"red\" title "
			"\"lost %\", \\\n  \"\" using 1:3 axes x1y2 with lines lw 2 title "
			"\"p50\", \\\n  \"\" using 1:4 axes x1y2 with lines lw 2 title \"p99\", "
			"\\\n  \"\" using 1:5 axes x1y2 with lines lw 1 title \"max\""
		      : "plot \"soak.dat\" using 1:2 with impulses lw 2 lc rgb \"red\" title "
			"\"lost %\"",
	      f);
	return report_plot_end(&out, gp, "soak", 1000, true);
}

json_t *
report_soak_summary(const json_t *records)
{
	struct coord_soak_record sr, last;
	const json_t *last_rec = NULL;
	double worst = 0;
	unsigned int n = 0;
	const json_t *rec;
	size_t i;

	json_array_foreach(records, i, rec) {
		if (!report_soak(rec, &sr))
			continue;
		if (sr.type == COORD_SOAK_INTERVAL) {
			n++;
			if (sr.loss_ratio > worst)
				worst = sr.loss_ratio;
		} else {
			last = sr;
			last_rec = rec;
		}
	}
	if (n == 0 && last_rec == NULL)
		return NULL;
	if (last_rec == NULL)
		return json_pack("{s:I,s:f,s:f}", "intervals", (json_int_t)n,
				 "worst_interval_loss_ratio", worst, "rate_pps", 0.0);
	/*
	 * The totals from the first reading to the last, when the soak ended,
	 * and the --inject calls as the record keeps them (checked when read).
	 */
	return json_pack("{s:I,s:f,s:f,s:f,s:o*,s:o*,s:I,s:I,s:f,s:O*,s:o*,s:O*}", "intervals",
			 (json_int_t)n, "worst_interval_loss_ratio", worst, "rate_pps",
			 last.rate_pps, "duration_s", last.t_s, "planned_s",
			 last.has_planned ? json_real(last.planned_s) : NULL, "interrupted",
			 last.has_interrupted ? json_boolean(last.interrupted) : NULL, "tx_packets",
			 (json_int_t)last.tx_packets, "rx_packets", (json_int_t)last.rx_packets,
			 "loss_ratio", last.loss_ratio, "hop_lost", last.hop_lost, "latency_ns",
			 last.has_latency ? pvp_schema_encode(coord_record_soak_latency_members,
							      &last.latency_ns)
					  : NULL,
			 "injected",
			 last.nb_injected > 0 ? json_object_get(last_rec, "injected") : NULL);
}
