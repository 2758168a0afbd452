/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Per-stream control of a running port, as TRex clients drive it:
 * pause_streams, resume_streams and update_streams act on some of a
 * transmitting or paused port's streams, through the same TX lcore
 * controls as the whole port (trex_run.c).
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "trex.h"

/* The listed streams of a transmitting or paused port; NULL-terminated in @p out. */
static int
trex_stream_ids(json_t *p, uint16_t port, struct trex_stream **out, const char *what, char *err,
		size_t err_len)
{
	struct trex_port *tp = &trex.port[port];
	json_t *ids = trex_param_array(p, "stream_ids", err, err_len), *x;
	size_t i, n = 0;

	if (ids == NULL)
		return -EINVAL;
	if (!trex_port_active(port))
		return pvp_fail(err, err_len, -EBUSY,
				"port should be either paused or transmitting");
	if (json_array_size(ids) == 0)
		return pvp_fail(err, err_len, -EINVAL, "please specify streams to %s", what);
	json_array_foreach(ids, i, x) {
		uint32_t k;

		for (k = 0; k < tp->nb_streams; k++)
			if (json_is_integer(x) && tp->streams[k]->id == json_integer_value(x))
				break;
		if (k == tp->nb_streams || tp->streams[k]->ps < 0)
			return pvp_fail(err, err_len, -ENOENT,
					"%s_streams: stream %" JSON_INTEGER_FORMAT
					" does not exists in profile_id(_)",
					what, json_is_integer(x) ? json_integer_value(x) : -1);
		if (n < TREX_MAX_PORT_STREAMS)
			out[n++] = tp->streams[k];
	}
	out[n] = NULL;
	return 0;
}

/* Pause (or resume) the wire streams of @p s. */
static void
trex_stream_hold(struct trex_stream *s, bool hold)
{
	struct gen_ctx *g = trex.g;
	uint16_t i;

	s->paused = hold;
	for (i = 0; i < g->nb_ws; i++)
		if (trex_ws_stream(g->ws[i]) == s)
			g->ws[i]->done = hold || (s->mode != PVP_MODE_CONTINUOUS &&
						  g->ws[i]->burst_pkts == 0);
}

/* pause_streams (@p hold) and resume_streams. */
static int
trex_streams_hold(uint16_t port, json_t *p, json_t **res, bool hold, char *err, size_t err_len)
{
	struct trex_stream *list[TREX_MAX_PORT_STREAMS + 1];
	unsigned int i;
	int ret = trex_stream_ids(p, port, list, hold ? "pause" : "resume", err, err_len);

	if (ret != 0)
		return ret;
	for (i = 0; list[i] != NULL; i++)
		trex_stream_hold(list[i], hold);
	/* An lcore whose streams were all held went idle: set it going again. */
	if (!hold && trex.port[port].state == TREX_PORT_TX) {
		if (trex_lcores_idle(port))
			trex_lcores_go(port);
		else
			trex_lcores_retake(port);
	}
	return trex_ok(res);
}

int
trex_m_pause_streams(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	return trex_streams_hold(port, p, res, true, err, err_len);
}

int
trex_m_resume_streams(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	return trex_streams_hold(port, p, res, false, err, err_len);
}

int
trex_m_update_streams(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_stream *list[TREX_MAX_PORT_STREAMS + 1];
	double was[TREX_MAX_PORT_STREAMS], l1;
	struct trex_port *tp;
	struct trex_mul m;
	bool force;
	unsigned int i;
	int ret;

	if (trex_param_bool(p, "force", 0, &force, err, err_len) != 0 ||
	    trex_mul_parse(p, &m, err, err_len) != 0)
		return -EINVAL;
	ret = trex_stream_ids(p, port, list, "update", err, err_len);
	if (ret != 0)
		return ret;
	tp = &trex.port[port];
	for (i = 0; list[i] != NULL; i++)
		was[i] = list[i]->factor;
	for (i = 0; list[i] != NULL; i++) {
		struct trex_stream *s = list[i];
		double size = RTE_MAX(s->rate_len, 60.0) + PVP_FCS_LEN;
		double sp = s->pps * tp->factor;
		/* The multiplier is against this stream's own rate at the port's factor. */
		double f = trex_mul_factor(&m, s->factor, sp, pvp_rate_l2_bps(sp, size),
					   pvp_rate_l1_bps(sp, size),
					   (double)trex.g->port[port].link_bps);

		if (!(f > 0) || !isfinite(f)) {
			ret = pvp_fail(err, err_len, -ERANGE,
				       "update of stream %u: the rate would be zero or less "
				       "(percentages need --speed)",
				       s->id);
			break;
		}
		s->factor = f;
	}
	/* The port's new rate is checked as update_traffic's: the line unless forced. */
	if (list[i] == NULL)
		ret = trex_port_fits(port, tp->factor, false, force, &l1, err, err_len);
	if (ret != 0) {
		for (i = 0; list[i] != NULL; i++)
			list[i]->factor = was[i];
		return ret;
	}
	trex_port_program(port, 0);
	*res = json_pack("{s:f}", "multiplier", tp->factor);
	return 0;
}
