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

#include "coord_report.h"
#include "report_private.h"

int
report_write_soak(const json_t *records, const char *outdir, const char *png, bool svg,
		  const char *title, struct coord_report_info *info, bool plots,
		  const struct report_gp *gp)
{
	const json_t *rec, *lat;
	struct pvp_out out;
	char path[4096];
	unsigned int n = 0;
	bool any_lat = false;
	size_t i;
	FILE *f, *d;
	int ret = 0;

	json_array_foreach(records, i, rec) {
		if (report_is_type(rec, "soak_interval")) {
			n++;
			any_lat |= json_object_get(rec, "latency_ns") != NULL;
		}
	}
	if (n == 0)
		return 0;
	/* The CSV on the first call (plots false), the plot on the second. */
	snprintf(path, sizeof(path), "%s/%s", outdir, plots ? "soak.dat" : "soak.csv");
	ret = pvp_out_open(&out, path, NULL, 0);
	if (ret < 0)
		return ret;
	f = plots ? NULL : out.f;
	d = plots ? out.f : NULL;
	if (f != NULL)
		fprintf(f,
			"t_s,interval_s,tx_packets,rx_packets,lost,loss_pct,tx_pps,rx_pps,p50_us,"
			"p99_us,max_us\n");
	if (d != NULL)
		fprintf(d, "# pvpkit soak: t_s loss_pct p50_us p99_us max_us\n");
	json_array_foreach(records, i, rec) {
		if (!report_is_type(rec, "soak_interval"))
			continue;
		lat = json_object_get(rec, "latency_ns");
		if (f != NULL) {
			fprintf(f, "%.3f,%.3f,%.0f,%.0f,%.0f,%.6f,%.0f,%.0f,",
				report_num(rec, "t_s", 0), report_num(rec, "interval_s", 0),
				report_num(rec, "tx_packets", 0), report_num(rec, "rx_packets", 0),
				report_num(rec, "lost", 0), 100 * report_num(rec, "loss_ratio", 0),
				report_num(rec, "tx_pps", 0), report_num(rec, "rx_pps", 0));
			if (lat != NULL)
				fprintf(f, "%.3f,%.3f,%.3f\n", report_num(lat, "p50", 0) / 1e3,
					report_num(lat, "p99", 0) / 1e3,
					report_num(lat, "max", 0) / 1e3);
			else
				fprintf(f, ",,\n");
		}
		if (d != NULL) {
			fprintf(d, "%.3f %.6f", report_num(rec, "t_s", 0),
				100 * report_num(rec, "loss_ratio", 0));
			if (lat != NULL)
				fprintf(d, " %.3f %.3f %.3f\n", report_num(lat, "p50", 0) / 1e3,
					report_num(lat, "p99", 0) / 1e3,
					report_num(lat, "max", 0) / 1e3);
			else
				fprintf(d, " ? ? ?\n");
		}
	}
	if (f != NULL) {
		ret = pvp_out_commit(&out, NULL, 0);
		if (ret < 0)
			return ret;
		report_add_file(info, "soak.csv");
		return 0;
	}
	f = report_plot_script(&out, outdir, "soak");
	if (f == NULL)
		return -errno;
	fprintf(f, "set datafile missing \"?\"\n");
	fprintf(f, "set title \"%s: soak, loss and latency per interval (tsc clock)\" noenhanced\n",
		title);
	fprintf(f, "set xlabel \"Time (s)\"\nset ylabel \"Lost (%% of tester TX)\"\n");
	if (any_lat)
		fprintf(f, "set y2label \"Latency (us)\"\nset y2tics\nset ytics nomirror\nset "
			   "logscale y2\n");
	fprintf(f, "set yrange [0:*]\nset grid\nset key outside right top\n");
	/* Without latency the y2 lines would have no point and gnuplot fails. */
	report_plot_finish(
		f, "soak", png, svg,
		any_lat ? "plot \"soak.dat\" using 1:2 with impulses lw 2 lc rgb \"red\" title "
			  "\"lost %\", \\\n  \"\" using 1:3 axes x1y2 with lines lw 2 title "
			  "\"p50\", \\\n  \"\" using 1:4 axes x1y2 with lines lw 2 title \"p99\", "
			  "\\\n  \"\" using 1:5 axes x1y2 with lines lw 1 title \"max\""
			: "plot \"soak.dat\" using 1:2 with impulses lw 2 lc rgb \"red\" title "
			  "\"lost %\"");
	if (report_plot_close(&out) != 0)
		return -errno;
	return report_plot_run(gp, outdir, "soak", png, svg, info);
}

json_t *
report_soak_summary(const json_t *records)
{
	const json_t *rec, *last = NULL;
	double worst = 0;
	unsigned int n = 0;
	json_t *o;
	size_t i;

	json_array_foreach(records, i, rec) {
		if (report_is_type(rec, "soak_interval")) {
			n++;
			if (report_num(rec, "loss_ratio", 0) > worst)
				worst = report_num(rec, "loss_ratio", 0);
		} else if (report_is_type(rec, "soak")) {
			last = rec;
		}
	}
	if (n == 0 && last == NULL)
		return NULL;
	o = json_pack("{s:I,s:f,s:f}", "intervals", (json_int_t)n, "worst_interval_loss_ratio",
		      worst, "rate_pps", report_num(last, "rate_pps", 0));
	if (o == NULL || last == NULL)
		return o;
	/* The totals from the first reading to the last, when the soak ended. */
	json_object_set(o, "duration_s", json_object_get(last, "t_s"));
	json_object_set(o, "planned_s", json_object_get(last, "planned_s"));
	json_object_set(o, "interrupted", json_object_get(last, "interrupted"));
	json_object_set(o, "tx_packets", json_object_get(last, "tx_packets"));
	json_object_set(o, "rx_packets", json_object_get(last, "rx_packets"));
	json_object_set(o, "loss_ratio", json_object_get(last, "loss_ratio"));
	json_object_set(o, "hop_lost", json_object_get(last, "hop_lost"));
	if (json_object_get(last, "latency_ns") != NULL)
		json_object_set(o, "latency_ns", json_object_get(last, "latency_ns"));
	return o;
}
