/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The check of the hop-driver contract (coord_driver.h, "Roles"): a
 * driver's callbacks must match what its roles promise, so the core can
 * act on roles alone and a driver that would be silently skipped (a
 * source without traffic_stop, counters without snapshot) is refused
 * when a topology names it.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "coord_driver.h"

static int __attribute__((format(printf, 3, 4)))
driver_fail(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int
coord_driver_check(const struct coord_driver *d, char *err, size_t err_len)
{
	const bool source = coord_driver_has(d, COORD_ROLE_SOURCE);
	const bool vswitch = coord_driver_has(d, COORD_ROLE_VSWITCH);
	const bool counters = coord_driver_has(d, COORD_ROLE_COUNTERS);
	const bool passive = coord_driver_has(d, COORD_ROLE_PASSIVE);
	const char *n = d->name != NULL ? d->name : "(unnamed)";

	if (d->name == NULL || d->name[0] == '\0')
		return driver_fail(err, err_len, "driver without a name");
	if ((d->roles & ~(unsigned int)(COORD_ROLE_SOURCE | COORD_ROLE_VSWITCH |
					COORD_ROLE_COUNTERS | COORD_ROLE_PASSIVE)) != 0)
		return driver_fail(err, err_len, "driver %s: unknown role bits 0x%x", n, d->roles);
	if (counters != (d->snapshot != NULL))
		return driver_fail(err, err_len, "driver %s: %s", n,
				   counters ? "has counters but no snapshot()"
					    : "has snapshot() but not the counters role");
	if (source && (d->traffic_start == NULL || d->traffic_stop == NULL))
		return driver_fail(err, err_len,
				   "driver %s: a traffic source needs traffic_start() and "
				   "traffic_stop()",
				   n);
	if (!source &&
	    (d->traffic_start != NULL || d->traffic_stop != NULL || d->traffic_result != NULL))
		return driver_fail(err, err_len,
				   "driver %s: has traffic callbacks but is not a traffic source",
				   n);
	if (vswitch && d->install_flows == NULL)
		return driver_fail(err, err_len, "driver %s: a vswitch needs install_flows()", n);
	if (!vswitch && !source && d->install_flows != NULL)
		return driver_fail(err, err_len,
				   "driver %s: has install_flows() but is neither a vswitch nor a "
				   "traffic source",
				   n);
	if (passive && (source || vswitch || d->clear != NULL))
		return driver_fail(err, err_len,
				   "driver %s: a passive hop is never cleared, configured or sent "
				   "through",
				   n);
	return 0;
}
