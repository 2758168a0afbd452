/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The parameter checks every control method of pvpkit-gen makes before
 * anything changes (ctl.c): unknown members, numbers in their range,
 * integers, rates in the one rate grammar. A refusal is -32602 naming
 * the method, the parameter and what it must be.
 */

#include <errno.h>
#include <math.h>
#include <string.h>

#include "pvp_ctl.h"
#include "pvp_util.h"

#include "ctl_params.h"

/* Refuse members not in @p allowed (NULL-terminated): a typo is not ignored. */
int
gen_ctl_keys(const char *method, json_t *params, const char *const *allowed, char *err,
	     size_t err_len)
{
	const char *key;
	json_t *v;
	size_t i;

	if (params != NULL && !json_is_object(params) &&
	    !(json_is_array(params) && json_array_size(params) == 0)) {
		pvp_err(err, err_len, "%s: params must be an object", method);
		return -EINVAL;
	}
	if (!json_is_object(params))
		return 0;
	json_object_foreach(params, key, v) {
		for (i = 0; allowed[i] != NULL; i++)
			if (strcmp(key, allowed[i]) == 0)
				break;
		if (allowed[i] == NULL) {
			pvp_err(err, err_len, "%s: unknown parameter \"%.64s\"", method, key);
			return -EINVAL;
		}
	}
	return 0;
}

/* A JSON number, finite, in [min, max]. */
int
gen_ctl_number(const char *method, const char *name, const json_t *v, double min, double max,
	       const char *unit, double *out, char *err, size_t err_len)
{
	double x = json_number_value(v);

	if (!json_is_number(v) || !isfinite(x) || x < min || x > max) {
		pvp_err(err, err_len, "%s: \"%s\" must be a number in %g..%g%s", method, name, min,
			max, unit);
		return -EINVAL;
	}
	*out = x;
	return 0;
}

/* A JSON integer (no fraction, no exponent) in [min, max]. */
int
gen_ctl_integer(const char *method, const char *name, const json_t *v, json_int_t min,
		json_int_t max, json_int_t *out, char *err, size_t err_len)
{
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
		pvp_err(err, err_len, "%s: \"%s\" must be an integer in %lld..%lld", method, name,
			(long long)min, (long long)max);
		return -EINVAL;
	}
	*out = json_integer_value(v);
	return 0;
}

/* Read a rate from a JSON number (pps) or string, bounded as --rate is. */
int
gen_json_rate(const char *method, const json_t *v, struct pvp_rate *r, char *err, size_t err_len)
{
	char msg[256];

	if (json_is_number(v)) {
		r->unit = PVP_RATE_PPS;
		return gen_ctl_number(method, "rate", v, PVP_RATE_MIN_PPS, PVP_RATE_MAX_PPS,
				      " (pps)", &r->value, err, err_len);
	}
	if (!json_is_string(v)) {
		pvp_err(err, err_len, "%s: \"rate\" must be a number (pps) or a string", method);
		return -EINVAL;
	}
	/* The one rate grammar: "1e-300", "nan" and "0x10" are refused here
	 * as on the command line, never turned into a run that ends at once. */
	if (pvp_rate_parse(json_string_value(v), r, msg, sizeof(msg)) != 0) {
		pvp_err(err, err_len, "%s: \"rate\": %s", method, msg);
		return -EINVAL;
	}
	return 0;
}

/* A method that takes no params: {} or [] or none. */
int
gen_ctl_no_params(const char *method, json_t *params, char *err, size_t err_len)
{
	static const char *const none[] = {NULL};

	return gen_ctl_keys(method, params, none, err, err_len);
}
