/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Hop driver "trex", its session with the server: calls and their
 * errors, the api_sync_v2 handshake, per-port calls, acquire/release,
 * reset and the ports' description.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "pvp_util.h"

#include "flows.h"
#include "trex_driver.h"
#include "trex_private.h"

/* ---- calls ---- */

/*
 * Turn a transport result into the contract's error line and code:
 * unreachable as the core expects it, refusals and bad answers with the
 * method named.
 */
int
trex_err(struct coord_hop *hop, const char *method, int ret, const char *e, char *err,
	 size_t err_len)
{
	struct trex_hop *h = hop->priv;

	switch (ret) {
	case 0:
		return 0;
	case -ENOTCONN:
	case -ETIMEDOUT:
		/* A server that went away may come back another: handshake again. */
		h->api_h[0] = '\0';
		return pvp_fail(err, err_len, ret, "hop %s unreachable: %s", hop->name, e);
	case -EREMOTEIO:
		return pvp_fail(err, err_len, -EPROTO, "hop %s: TRex refused %s: %s", hop->name,
				method, e);
	case -EBADMSG:
		return pvp_fail(err, err_len, -EPROTO, "hop %s: bad answer from TRex at %s: %s",
				hop->name, trex_rpc_endpoint(h->rpc), e);
	default:
		return pvp_fail(err, err_len, ret, "hop %s: %s: %s", hop->name, method, e);
	}
}

/*
 * One call with api_h; @p params is stolen (NULL: {}). On a refusal
 * (-EREMOTEIO) the server's own words are in @p why, so that a caller
 * can word it itself; every other error is worded in @p err the common
 * way (trex_err()).
 */
static int
trex_call_why(struct coord_hop *hop, const char *method, json_t *params, json_t **res, char *why,
	      size_t why_len, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	int ret;

	*res = NULL;
	if (h->api_h[0] == '\0') {
		ret = trex_handshake(hop, err, err_len);
		if (ret < 0) {
			json_decref(params);
			return ret;
		}
	}
	if (params == NULL)
		params = json_object();
	if (params == NULL || json_object_set_new(params, "api_h", json_string(h->api_h)) < 0) {
		json_decref(params);
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	}
	ret = trex_rpc_call(h->rpc, method, params, res, why, why_len);
	json_decref(params);
	if (ret == -EREMOTEIO)
		return ret;
	return trex_err(hop, method, ret, why, err, err_len);
}

int
trex_call(struct coord_hop *hop, const char *method, json_t *params, json_t **res, char *err,
	  size_t err_len)
{
	char why[512] = "";
	int ret;

	ret = trex_call_why(hop, method, params, res, why, sizeof(why), err, err_len);
	if (ret == -EREMOTEIO)
		return trex_err(hop, method, ret, why, err, err_len);
	return ret;
}

/* A call whose result does not matter. */
int
trex_do(struct coord_hop *hop, const char *method, json_t *params, char *err, size_t err_len)
{
	json_t *res = NULL;
	int ret = trex_call(hop, method, params, &res, err, err_len);

	json_decref(res);
	return ret;
}

/*
 * The same method for every topology port in one batch (TRex's client
 * batches per-port calls the same way); @p extra (stolen, may be NULL)
 * is merged into each port's params, "handler" added when @p owned.
 * @p res gets the array of results; an error of any port fails the call.
 */
int
trex_per_port(struct coord_hop *hop, const char *method, json_t *extra, bool owned, json_t **res,
	      char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *batch = json_array(), *out = NULL, *x;
	char e[512] = "";
	unsigned int k;
	size_t i;
	int ret;

	if (h->api_h[0] == '\0') {
		ret = trex_handshake(hop, err, err_len);
		if (ret < 0)
			goto out;
	}
	for (k = 0; batch != NULL && k < hop->nb_ports; k++) {
		json_t *p = json_pack("{s:I,s:s}", "port_id", (json_int_t)h->c.port_id[k], "api_h",
				      h->api_h);

		if (p != NULL && owned)
			json_object_set_new(p, "handler", json_string(h->handler[k]));
		if (p != NULL && extra != NULL)
			json_object_update(p, extra);
		if (p == NULL || json_array_append_new(batch, json_pack("{s:s,s:o}", "method",
									method, "params", p)) < 0) {
			json_decref(batch);
			batch = NULL;
		}
	}
	if (batch == NULL) {
		ret = pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
		goto out;
	}
	ret = trex_rpc_batch(h->rpc, batch, &out, e, sizeof(e));
	ret = trex_err(hop, method, ret, e, err, err_len);
	if (ret < 0)
		goto out;
	json_array_foreach(out, i, x) {
		const json_t *er = json_object_get(x, "error");

		if (er != NULL && json_object_get(x, "jsonrpc") != NULL) {
			const char *m = json_string_value(json_object_get(er, "specific_err"));

			if (m == NULL)
				m = json_string_value(json_object_get(er, "message"));
			ret = pvp_fail(err, err_len, -EPROTO,
				       "hop %s: TRex refused %s on port %u: %s", hop->name, method,
				       h->c.port_id[i], m != NULL ? m : "no message");
			goto out;
		}
	}
	*res = out;
	out = NULL;
out:
	json_decref(out);
	json_decref(batch);
	json_decref(extra);
	return ret;
}

int
trex_handshake(struct coord_hop *hop, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *params, *res = NULL;
	const char *api_h;
	char e[512] = "";
	int ret;

	params = json_pack("{s:s,s:i,s:i}", "name", TREX_API_CLASS, "major", TREX_API_MAJOR,
			   "minor", TREX_API_MINOR);
	if (params == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "hop %s: out of memory", hop->name);
	ret = trex_rpc_call(h->rpc, "api_sync_v2", params, &res, e, sizeof(e));
	json_decref(params);
	if (ret == -EREMOTEIO)
		return pvp_fail(err, err_len, -EPROTO,
				"hop %s: TRex refused the API handshake (%s %d.%d): %s", hop->name,
				TREX_API_CLASS, TREX_API_MAJOR, TREX_API_MINOR, e);
	ret = trex_err(hop, "api_sync_v2", ret, e, err, err_len);
	if (ret < 0)
		return ret;
	api_h = json_string_value(json_object_get(res, "api_h"));
	if (api_h == NULL || api_h[0] == '\0' || strlen(api_h) >= sizeof(h->api_h)) {
		json_decref(res);
		return pvp_fail(err, err_len, -EPROTO,
				"hop %s: bad answer from TRex at %s: api_sync_v2 gave no api_h",
				hop->name, trex_rpc_endpoint(h->rpc));
	}
	snprintf(h->api_h, sizeof(h->api_h), "%s", api_h);
	json_decref(res);
	return 0;
}

/*
 * A counter of a get_port_stats result; missing, negative or past 2^63 - 1
 * (what the results and the coordinator's signed counts hold) is a bad
 * answer: a lying 1e308 once read as -2^63 packets sent and 0 loss.
 */
int
trex_counter(struct coord_hop *hop, const json_t *st, const char *name, unsigned int port,
	     uint64_t *v, char *err, size_t err_len)
{
	const json_t *x = json_object_get(st, name);

	if (!json_is_number(x))
		return pvp_fail(
			err, err_len, -EPROTO,
			"hop %s: bad answer from TRex: get_port_stats of port %u has no \"%s\"",
			hop->name, port, name);
	if (!(json_number_value(x) >= 0 && json_number_value(x) < 0x1p63))
		return pvp_fail(
			err, err_len, -EPROTO,
			"hop %s: bad answer from TRex: get_port_stats of port %u has \"%s\" %.17g, "
			"not a counter in 0..2^63-1",
			hop->name, port, name, json_number_value(x));
	*v = json_is_integer(x) ? (uint64_t)json_integer_value(x) : (uint64_t)json_real_value(x);
	return 0;
}

void
trex_release_all(struct coord_hop *hop)
{
	/* The last, release, takes no profile. */
	static const char *const calls[] = {"stop_traffic", "remove_all_streams", "release"};
	struct trex_hop *h = hop->priv;
	char e[512] = "";
	unsigned int k, i;

	/* Leave the ports as a user finds them after TRex's client: idle, free. */
	for (k = 0; k < hop->nb_ports; k++) {
		if (!h->owned[k])
			continue;
		for (i = 0; i < 3; i++)
			trex_do(hop, calls[i],
				json_pack("{s:I,s:s,s:s*}", "port_id", (json_int_t)h->c.port_id[k],
					  "handler", h->handler[k], "profile_id",
					  i < 2 ? "_" : NULL),
				e, sizeof(e));
		h->owned[k] = false;
	}
}

/*
 * Acquire every port; the port's owner is named when TRex refuses. A
 * port held under our own user name is an earlier pvpkit run's that
 * could not release it (killed, server unreachable at its end): taken
 * back without "force", or every later run would need it.
 */
int
trex_acquire(struct coord_hop *hop, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	unsigned int k;
	int ret;

	for (k = 0; k < hop->nb_ports; k++) {
		json_t *res = NULL;
		char why[512] = "";
		const char *hd;

		ret = trex_call_why(hop, "acquire",
				    json_pack("{s:I,s:s,s:I,s:b}", "port_id",
					      (json_int_t)h->c.port_id[k], "user", h->c.user,
					      "session_id", (json_int_t)h->session_id, "force",
					      h->c.force || h->ours[k]),
				    &res, why, sizeof(why), err, err_len);
		if (ret == -EREMOTEIO)
			return pvp_fail(
				err, err_len, -EBUSY,
				"hop %s: TRex port %u cannot be acquired: %s%s", hop->name,
				h->c.port_id[k], why,
				h->c.force
					? ""
					: " (\"force\": true in the hop takes it from its owner)");
		if (ret < 0)
			return ret;
		hd = json_string_value(res);
		if (hd == NULL || hd[0] == '\0' || strlen(hd) >= sizeof(h->handler[k])) {
			json_decref(res);
			return pvp_fail(
				err, err_len, -EPROTO,
				"hop %s: bad answer from TRex: acquire of port %u gave no handler",
				hop->name, h->c.port_id[k]);
		}
		snprintf(h->handler[k], sizeof(h->handler[k]), "%s", hd);
		h->owned[k] = true;
		json_decref(res);
	}
	return 0;
}

/* Stop the ports and drop every stream on them: nothing of another run is left. */
int
trex_reset(struct coord_hop *hop, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *res = NULL;
	int ret;

	ret = trex_per_port(hop, "stop_traffic", json_pack("{s:s}", "profile_id", "_"), true, &res,
			    err, err_len);
	json_decref(res);
	res = NULL;
	if (ret == 0)
		ret = trex_per_port(hop, "remove_all_streams",
				    json_pack("{s:s}", "profile_id", "_"), true, &res, err,
				    err_len);
	json_decref(res);
	h->loaded[0] = '\0';
	h->nb_pgids = 0;
	return ret;
}

/* Port count check and each port's link speed (percentages, line rate). */
int
trex_ports_info(struct coord_hop *hop, char *err, size_t err_len)
{
	struct trex_hop *h = hop->priv;
	json_t *res = NULL, *x;
	json_int_t count;
	unsigned int k;
	size_t i;
	int ret;

	ret = trex_call(hop, "get_system_info", NULL, &res, err, err_len);
	if (ret < 0)
		return ret;
	x = json_object_get(res, "port_count");
	count = json_is_integer(x) ? json_integer_value(x) : -1;
	json_decref(res);
	if (count < 0)
		return pvp_fail(
			err, err_len, -EPROTO,
			"hop %s: bad answer from TRex: get_system_info has no \"port_count\"",
			hop->name);
	for (k = 0; k < hop->nb_ports; k++)
		if ((json_int_t)h->c.port_id[k] >= count)
			return pvp_fail(err, err_len, -ENOENT,
					"hop %s: no TRex port %u (the server has %d ports)",
					hop->name, h->c.port_id[k], (int)count);
	res = NULL;
	ret = trex_per_port(hop, "get_port_status", NULL, false, &res, err, err_len);
	if (ret < 0)
		return ret;
	json_array_foreach(res, i, x) {
		const json_t *sp = json_object_get(json_object_get(x, "attr"), "speed");

		const char *owner = json_string_value(json_object_get(x, "owner"));

		h->ours[i] = owner != NULL && strcmp(owner, h->c.user) == 0;
		/*
		 * TRex reports Gbit/s. One below 10 Mbit/s (Ethernet's slowest)
		 * or above the fastest rate pvpkit takes is unknown: a lying
		 * 5e-324 once made every rate "over the line", sent at 100 %.
		 */
		h->speed_bps[i] = json_is_number(sp) &&
						  json_number_value(sp) >= TREX_SPEED_MIN_GBPS &&
						  json_number_value(sp) * 1e9 <= PVP_RATE_MAX_BPS
					  ? json_number_value(sp) * 1e9
					  : 0;
	}
	json_decref(res);
	return 0;
}
