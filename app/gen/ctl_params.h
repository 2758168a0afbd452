/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Parameter checks of pvpkit-gen's control methods (ctl_params.c). Each
 * returns 0, or -EINVAL (answered -32602) with a message in @p err
 * that starts with @p method.
 */

#ifndef GEN_CTL_PARAMS_H
#define GEN_CTL_PARAMS_H

#include <jansson.h>

#include "pvp_ctl.h"
#include "pvp_util.h"

/* Refuse members of @p params not in @p allowed (NULL-terminated). */
int gen_ctl_keys(const char *method, json_t *params, const char *const *allowed, char *err,
		 size_t err_len);

/* @p v as a finite JSON number in [min, max] into @p out; @p unit ends the message. */
int gen_ctl_number(const char *method, const char *name, const json_t *v, double min, double max,
		   const char *unit, double *out, char *err, size_t err_len);

/* @p v as a JSON integer in [min, max] into @p out. */
int gen_ctl_integer(const char *method, const char *name, const json_t *v, json_int_t min,
		    json_int_t max, json_int_t *out, char *err, size_t err_len);

/* @p v as a rate: a JSON number (pps) or a string, bounded as --rate is. */
int gen_json_rate(const char *method, const json_t *v, struct pvp_rate *r, char *err,
		  size_t err_len);

/* Refuse any params: {} or [] or none are what a method without them takes. */
int gen_ctl_no_params(const char *method, json_t *params, char *err, size_t err_len);

#endif /* GEN_CTL_PARAMS_H */
