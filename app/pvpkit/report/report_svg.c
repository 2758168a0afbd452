/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The SVG plots the report draws itself, without gnuplot: the frame and
 * grid every plot of report.html shares, bars with their range as error
 * bars (a goal per point, a point's goal over the runs of the history),
 * and the same bars as a standalone .svg file.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_private.h"

void
report_html_text(FILE *f, const char *s)
{
	static const char *const ent[] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;",
	};
	unsigned char c;

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c < sizeof(ent) / sizeof(ent[0]) && ent[c] != NULL)
			fputs(ent[c], f);
		else
			fputc(*s, f);
	}
}

double
report_svg_axis_max(double v)
{
	double p;

	if (!(v > 0))
		return 1;
	p = pow(10, floor(log10(v)));
	return ceil(v / p * 1.1) * p;
}

void
report_svg_open(FILE *f, const char *id, const char *title, const char *ylabel, double ymax)
{
	const double ph = REPORT_SVG_H - REPORT_SVG_T - REPORT_SVG_B;
	unsigned int i;
	double y;

	fprintf(f,
		"<svg id=\"%s\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>",
		id, REPORT_SVG_W, REPORT_SVG_H, REPORT_SVG_W, REPORT_SVG_H);
	report_html_text(f, title);
	fputs("</title>\n", f);
	for (i = 0; i <= REPORT_SVG_YTICKS; i++) {
		y = REPORT_SVG_T + ph - ph * i / REPORT_SVG_YTICKS;
		fprintf(f,
			"<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
			"text-anchor=\"end\">%.4g</text>\n",
			REPORT_SVG_L, REPORT_SVG_W - REPORT_SVG_R, y, y, REPORT_SVG_L - 6, y + 4,
			ymax * i / REPORT_SVG_YTICKS);
	}
	fprintf(f,
		"<text x=\"14\" y=\"%d\" font-size=\"12\" transform=\"rotate(-90 14 %d)\" "
		"text-anchor=\"middle\">",
		REPORT_SVG_H / 2, REPORT_SVG_H / 2);
	report_html_text(f, ylabel);
	fputs("</text>\n", f);
}

void
report_svg_bars(FILE *f, const char *id, const char *title, const struct report_bar *bars, size_t n)
{
	const double pw = REPORT_SVG_W - REPORT_SVG_L - REPORT_SVG_R;
	const double ph = REPORT_SVG_H - REPORT_SVG_T - REPORT_SVG_B;
	const double y0 = REPORT_SVG_T + ph;
	double ymax = 0, slot, x, v, lo, hi;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isnan(bars[i].value))
			ymax = fmax(ymax, bars[i].value);
		if (!isnan(bars[i].hi))
			ymax = fmax(ymax, bars[i].hi);
	}
	ymax = report_svg_axis_max(ymax / 1e6);
	report_svg_open(f, id, title, "Mpps", ymax);
	slot = pw / (double)(n > 0 ? n : 1);
	for (i = 0; i < n; i++) {
		x = REPORT_SVG_L + slot * ((double)i + 0.5);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">",
			x, y0 + 16);
		report_html_text(f, bars[i].label);
		fputs("</text>\n", f);
		v = bars[i].value / 1e6;
		if (isnan(v))
			continue;
		fprintf(f,
			"<rect class=\"bar%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\"><title>%.0f pps</title></rect>\n",
			bars[i].marked ? " marked" : "", x - slot * 0.3, y0 - ph * v / ymax,
			slot * 0.6, ph * v / ymax, bars[i].marked ? "#c0392b" : "#4a7ebb", v * 1e6);
		lo = bars[i].lo / 1e6;
		hi = bars[i].hi / 1e6;
		if (isnan(lo) || isnan(hi))
			continue;
		fprintf(f,
			"<path class=\"range\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
			"stroke=\"#222\" fill=\"none\"/>\n",
			x, y0 - ph * lo / ymax, y0 - ph * hi / ymax, x - 6, y0 - ph * lo / ymax,
			x + 6, x - 6, y0 - ph * hi / ymax, x + 6);
	}
	fputs("</svg>\n", f);
}

int
report_bars_svg(const char *path, const char *title, const struct report_bar *bars, size_t n,
		char *err, size_t err_len)
{
	struct pvp_out o;
	int ret;

	ret = pvp_out_open(&o, path, err, err_len);
	if (ret < 0)
		return ret;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", o.f);
	report_svg_bars(o.f, "trend", title, bars, n);
	return pvp_out_commit(&o, err, err_len);
}
