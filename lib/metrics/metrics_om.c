/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The text exposition writer. One set of calls writes OpenMetrics 1.0.0
 * or Prometheus text 0.0.4: Prometheus asks for the first, while
 * promtool's linter (Debian 12's 2.42) reads only the second, where a
 * counter's family carries the "_total" its samples have.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"

#include "pvp_metrics.h"

void
pvp_om_init(struct pvp_om *om, enum pvp_om_format fmt)
{
	*om = (struct pvp_om){.fmt = fmt};
}

void
pvp_om_free(struct pvp_om *om)
{
	if (om == NULL)
		return;
	free(om->buf);
	om->buf = NULL;
	om->len = om->cap = 0;
}

/* Record -EINVAL, unless an error came first, when @p bad; returns @p bad. */
static bool
om_bad(struct pvp_om *om, bool bad)
{
	if (bad && om->err == 0)
		om->err = -EINVAL;
	return bad;
}

static void
om_reserve(struct pvp_om *om, size_t n)
{
	if (om->err == 0 && pvp_buf_reserve(&om->buf, &om->cap, om->len + n + 1) < 0)
		om->err = -ENOMEM;
}

static void __attribute__((format(printf, 2, 3))) om_printf(struct pvp_om *om, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (om_bad(om, n < 0))
		return;
	om_reserve(om, (size_t)n);
	if (om->err != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(om->buf + om->len, om->cap - om->len, fmt, ap);
	va_end(ap);
	om->len += (size_t)n;
}

/* Label values and HELP text: \ " and newline escaped (" only in values). */
static void
om_escaped(struct pvp_om *om, const char *s, bool quote)
{
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			om_printf(om, "\\\\");
		else if (*s == '\n')
			om_printf(om, "\\n");
		else if (*s == '"' && quote)
			om_printf(om, "\\\"");
		else
			om_printf(om, "%c", *s);
	}
}

static bool
om_name_ok(const char *s)
{
	size_t i;

	if (s == NULL || s[0] == '\0' || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

void
pvp_om_family(struct pvp_om *om, const char *name, enum pvp_om_type type, const char *unit,
	      const char *help)
{
	static const char *const tname[] = {"counter", "gauge", "histogram"};
	const char *total = type == PVP_OM_COUNTER && om->fmt == PVP_OM_PROMETHEUS ? "_total" : "";

	/* OpenMetrics readers refuse a unit that does not end the name. */
	size_t nl = name != NULL ? strlen(name) : 0, ul = unit != NULL ? strlen(unit) : 0;

	if (om_bad(om, !om_name_ok(name) || nl + 7 > sizeof(om->family) ||
			       (unit != NULL && (ul + 1 > nl || name[nl - ul - 1] != '_' ||
						 strcmp(name + nl - ul, unit) != 0))))
		return;
	snprintf(om->family, sizeof(om->family), "%s", name);
	om->type = type;
	om_printf(om, "# TYPE %s%s %s\n", name, total, tname[type]);
	if (unit != NULL && om->fmt == PVP_OM_OPENMETRICS)
		om_printf(om, "# UNIT %s %s\n", name, unit);
	om_printf(om, "# HELP %s%s ", name, total);
	om_escaped(om, help, false);
	om_printf(om, "\n");
}

/* NAME{labels[,le="..."]} with the current family's NAME and @p suffix. */
static void
om_series(struct pvp_om *om, const char *suffix, const struct pvp_om_label *labels, unsigned int nb,
	  const char *le)
{
	unsigned int i;

	if (om_bad(om, nb > PVP_OM_MAX_LABELS || om->family[0] == '\0'))
		return;
	om_printf(om, "%s%s", om->family, suffix);
	if (nb == 0 && le == NULL)
		return;
	om_printf(om, "{");
	for (i = 0; i < nb; i++) {
		if (om_bad(om, !om_name_ok(labels[i].name) || strcmp(labels[i].name, "le") == 0))
			return;
		om_printf(om, "%s%s=\"", i > 0 ? "," : "", labels[i].name);
		om_escaped(om, labels[i].value != NULL ? labels[i].value : "", true);
		om_printf(om, "\"");
	}
	if (le != NULL)
		om_printf(om, "%sle=\"%s\"", nb > 0 ? "," : "", le);
	om_printf(om, "}");
}

/*
 * The shortest of %.15g and %.17g that reads back as @p v: 1.28e-07, not
 * 1.2800000000000001e-07. NaN and the infinities by name.
 */
static void
om_fmt_double(char *b, size_t len, double v)
{
	if (isnan(v))
		snprintf(b, len, "NaN");
	else if (isinf(v))
		snprintf(b, len, v > 0 ? "+Inf" : "-Inf");
	else if (snprintf(b, len, "%.15g", v) > 0 && strtod(b, NULL) != v)
		snprintf(b, len, "%.17g", v);
}

/* A sample's value @p v and the end of its line. */
static void
om_number(struct pvp_om *om, double v)
{
	char b[32];

	om_fmt_double(b, sizeof(b), v);
	om_printf(om, " %s\n", b);
}

void
pvp_om_value(struct pvp_om *om, const struct pvp_om_label *labels, unsigned int nb_labels,
	     double value)
{
	if (om_bad(om, om->type == PVP_OM_HISTOGRAM))
		return;
	om_series(om, om->type == PVP_OM_COUNTER ? "_total" : "", labels, nb_labels, NULL);
	om_number(om, value);
}

void
pvp_om_uint(struct pvp_om *om, const struct pvp_om_label *labels, unsigned int nb_labels,
	    uint64_t value)
{
	if (om_bad(om, om->type == PVP_OM_HISTOGRAM))
		return;
	om_series(om, om->type == PVP_OM_COUNTER ? "_total" : "", labels, nb_labels, NULL);
	om_printf(om, " %" PRIu64 "\n", value);
}

void
pvp_om_histogram(struct pvp_om *om, const struct pvp_om_label *labels, unsigned int nb_labels,
		 const double *le, const uint64_t *cum, unsigned int nb, double sum, uint64_t count)
{
	char b[32];
	unsigned int i;

	if (om_bad(om, om->type != PVP_OM_HISTOGRAM))
		return;
	for (i = 0; i < nb; i++) {
		om_fmt_double(b, sizeof(b), le[i]);
		om_series(om, "_bucket", labels, nb_labels, b);
		om_printf(om, " %" PRIu64 "\n", cum[i]);
	}
	om_series(om, "_bucket", labels, nb_labels, "+Inf");
	om_printf(om, " %" PRIu64 "\n", count);
	om_series(om, "_sum", labels, nb_labels, NULL);
	om_number(om, sum);
	om_series(om, "_count", labels, nb_labels, NULL);
	om_printf(om, " %" PRIu64 "\n", count);
}

int
pvp_om_finish(struct pvp_om *om)
{
	if (om->fmt == PVP_OM_OPENMETRICS)
		om_printf(om, "# EOF\n");
	else
		om_reserve(om, 0);
	return om->err;
}
