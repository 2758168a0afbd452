/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Traffic per port, as TRex clients drive it: start with a multiplier
 * and a duration, stop, pause, resume, update, and the per-stream
 * pause/resume/update. pvpkit-gen's own runs (run.c) start every port at
 * once; here each port's TX lcores are started and stopped on their own,
 * through the same controls (state, run_gen, stopped) and the same wire
 * stream fields, so the TX path is the one native profiles take.
 *
 * The streams of all ports are loaded together (trex_profile_load()):
 * a port starting while none sends reloads them if any changed; a port
 * starting while another sends uses what is loaded, so changing a
 * port's streams while another port sends takes a stop of that port.
 *
 * A port that finishes by itself (bursts sent, duration over) is seen by
 * trex_run_tick() on the server thread, which sends TRex's "finished"
 * events: that is what makes a client's wait_on_traffic() return.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "trex.h"

/* How long a stop may wait for a TX lcore to leave its burst. */
#define TREX_HALT_MS 500

int
trex_mul_parse(json_t *p, struct trex_mul *m, char *err, size_t err_len)
{
	static const char *const types[] = {"raw", "bps", "bpsl1", "pps", "percentage"};
	static const char *const ops[] = {"abs", "add", "sub"};
	json_t *o = trex_param_obj(p, "mul", err, err_len);
	const char *t, *op;
	unsigned int i;

	if (o == NULL || (t = trex_param_str(o, "type", NULL, err, err_len)) == NULL ||
	    (op = trex_param_str(o, "op", "abs", err, err_len)) == NULL ||
	    trex_param_double(o, "value", false, 0, &m->value, err, err_len) != 0)
		return -EINVAL;
	for (i = 0; i < RTE_DIM(types) && strcmp(types[i], t) != 0; i++)
		;
	if (i == RTE_DIM(types))
		return pvp_fail(err, err_len, -EINVAL,
				"'type' must be raw, bps, bpsl1, pps or percentage");
	m->type = i;
	for (i = 0; i < RTE_DIM(ops) && strcmp(ops[i], op) != 0; i++)
		;
	if (i == RTE_DIM(ops))
		return pvp_fail(err, err_len, -EINVAL, "'op' must be abs, add or sub");
	m->op = i;
	if (!(m->value > 0))
		return pvp_fail(err, err_len, -EINVAL, "multiplier can't be zero");
	return 0;
}

double
trex_mul_factor(const struct trex_mul *m, double cur, double pps, double l2, double l1,
		double speed)
{
	/* What a value of each type but a percentage is a multiple of, in m->type's order. */
	const double unit[] = {1, l2, l1, pps};
	double f = m->type == MUL_PCT ? m->value / 100.0 * speed / l1 : m->value / unit[m->type];

	return m->op == MUL_ADD ? cur + f : m->op == MUL_SUB ? cur - f : f;
}

bool
trex_port_active(uint16_t port)
{
	return trex.port[port].state == TREX_PORT_TX || trex.port[port].state == TREX_PORT_PAUSE;
}

struct trex_stream *
trex_ws_stream(const struct gen_wstream *w)
{
	uint16_t id = w->st->ps->id;

	return id < trex.nb_loaded ? trex.loaded[id] : NULL;
}

/*
 * The pps of a port's enabled self_start streams, each at its own factor
 * (@p own) or at 1, and their L2 and L1 bps in *l2 and *l1.
 */
static double
trex_port_sum(const struct trex_port *tp, bool own, double *l2, double *l1)
{
	double pps = 0;
	uint32_t i;

	*l2 = *l1 = 0;
	for (i = 0; i < tp->nb_streams; i++) {
		const struct trex_stream *s = tp->streams[i];
		double size = RTE_MAX(s->rate_len, 60.0) + PVP_FCS_LEN;
		double sp = s->pps * (own ? s->factor : 1);

		if (!s->enabled || !s->self_start)
			continue;
		pps += sp;
		*l2 += sp * size * 8;
		*l1 += sp * (size + PVP_L1_OVERHEAD) * 8;
	}
	return pps;
}

/* Base rates of a port's streams (factor 1) and their sums. */
static int
trex_port_rates(uint16_t port, char *err, size_t err_len)
{
	struct trex_port *tp = &trex.port[port];
	uint32_t i;

	for (i = 0; i < tp->nb_streams; i++) {
		int ret = trex_stream_pps(tp->streams[i], port, &tp->streams[i]->pps, err, err_len);

		if (ret != 0)
			return ret;
	}
	tp->max_pps = trex_port_sum(tp, false, &tp->max_bps_l2, &tp->max_bps_l1);
	return 0;
}

int
trex_port_fits(uint16_t port, double f, bool fresh, bool force, double *l1_unit, char *err,
	       size_t err_len)
{
	double speed = (double)trex.g->port[port].link_bps, l2, l1;
	double pps = trex_port_sum(&trex.port[port], !fresh, &l2, &l1);

	/* The bounds of a native rate: counts and TSC gaps from them fit 64 bits. */
	if (!(f * pps <= PVP_RATE_MAX_PPS && f * l1 <= PVP_RATE_MAX_BPS))
		return pvp_fail(
			err, err_len, -ERANGE,
			"port %u would send %g pps (%g Gbps L1): pvpkit-gen sends at most %g pps "
			"and %g Gbps",
			port, f * pps, f * l1 / 1e9, PVP_RATE_MAX_PPS, PVP_RATE_MAX_BPS / 1e9);
	if (speed > 0 && !force && f * l1 / speed > 1.0001)
		return pvp_fail(err, err_len, -ERANGE,
				"Expected L1 B/W: '%g Gbps' exceeds port line rate: '%g Gbps'",
				f * l1 / 1e9, speed / 1e9);
	*l1_unit = l1;
	return 0;
}

/*
 * TRex's effective factor: @p m against the port's base rates, capped at
 * line rate; @p fresh for a start (every stream's own factor back to 1).
 */
static int
trex_factor(uint16_t port, const struct trex_mul *m, bool force, bool fresh, double cur,
	    double *factor, char *err, size_t err_len)
{
	const struct trex_port *tp = &trex.port[port];
	double speed = (double)trex.g->port[port].link_bps, f, l1;
	int ret;

	if (m->type == MUL_PCT && m->op == MUL_ABS && speed <= 0)
		return pvp_fail(err, err_len, -EPERM,
				"a percentage needs the port's speed, and port %u reports none: "
				"start pvpkit-gen with --speed MBPS",
				port);
	/* A percentage to add or take is of the factor in force, not of the line. */
	if (m->type != MUL_PCT || m->op == MUL_ABS)
		f = trex_mul_factor(m, cur, tp->max_pps, tp->max_bps_l2, tp->max_bps_l1, speed);
	else
		f = m->op == MUL_ADD ? cur + cur * m->value / 100.0 : cur - cur * m->value / 100.0;
	if (!(f > 0) || !isfinite(f))
		return pvp_fail(err, err_len, -EPERM,
				m->op == MUL_SUB ? "Update request will lower traffic to "
						   "less than zero"
						 : "Factor must be positive, got: %g",
				f);
	ret = trex_port_fits(port, f, fresh, force, &l1, err, err_len);
	if (ret != 0)
		return ret;
	if (speed > 0 && !force)
		f = RTE_MIN(f, speed / l1);
	*factor = f;
	return 0;
}

/* The wire stream of @p s on TX queue @p queue, NULL when it has none. */
static struct gen_wstream *
trex_stream_ws(const struct trex_stream *s, uint16_t queue)
{
	struct gen_ctx *g = trex.g;
	uint16_t i;

	for (i = 0; s != NULL && i < g->nb_ws; i++)
		if (g->ws[i]->queue == queue && trex_ws_stream(g->ws[i]) == s)
			return g->ws[i];
	return NULL;
}

/*
 * Set the wire streams of @p port for a new run starting at @p start_tsc,
 * or (0) for a new rate only: pps from the factor, and for a new run the
 * counts (bursts, a duration's exact count), each stream's own start (isg)
 * and chain, and which streams take part (TRex's self_start). A new rate
 * goes to the running lcores at once.
 */
void
trex_port_program(uint16_t port, uint64_t start_tsc)
{
	struct gen_ctx *g = trex.g;
	struct trex_port *tp = &trex.port[port];
	bool fresh = start_tsc != 0;
	uint16_t nq = g->opt.tx_cores, i;

	tp->exact = false;
	for (i = 0; i < g->nb_ws; i++) {
		struct gen_wstream *w = g->ws[i];
		struct trex_stream *s = trex_ws_stream(w);
		struct gen_ws_plan pl;
		double pps;

		if (w->port != port)
			continue;
		if (s == NULL) {
			w->done = true;
			continue;
		}
		if (fresh)
			s->factor = 1;
		pps = s->pps * tp->factor * s->factor / nq;
		if (!fresh) {
			/* A new rate: a duration's exact count no longer holds. */
			w->limit = 0;
			*(volatile double *)&w->pps = pps;
			continue;
		}
		pl = (struct gen_ws_plan){
			.pps = pps,
			.isg_ns = (uint64_t)llround(s->isg_us * 1000),
			.duration_s = tp->duration,
			.start_tsc = start_tsc,
		};
		if (s->mode != PVP_MODE_CONTINUOUS) {
			pl.total = s->burst_pkts;
			pl.nb_bursts = s->mode == PVP_MODE_MULTI_BURST ? s->burst_count : 1;
			pl.gap_ns = (uint64_t)llround(s->ibg_us * 1000);
		}
		gen_ws_program(g, w, &pl);
		if (w->limit != 0)
			tp->exact = true;
		s->paused = s->start_paused;
		if (s->next >= 0) {
			w->next = trex_stream_ws(trex_stream_find(port, (uint32_t)s->next, NULL),
						 w->queue);
			w->loops = s->action_count;
		}
		w->done = w->done || !s->enabled || !s->self_start || s->paused;
	}
	/* Without exact counts the due time is the end again. */
	if (!fresh) {
		tp->end_tsc = tp->due_tsc;
		trex_lcores_retake(port);
	}
}

/*
 * Set the TX lcores of @p port going (again): each takes the new settings
 * in, and stops by itself at the run's end: the server thread may be
 * busy with a request then.
 */
void
trex_lcores_go(uint16_t port)
{
	struct gen_ctx *g = trex.g;
	uint16_t t;

	/* Each stream waits for its own isg: the lcores start at once. */
	for (t = 0; t < g->nb_tx; t++)
		if (g->tx[t]->port == port)
			gen_tx_lcore_go(g->tx[t], 0, trex.port[port].end_tsc);
}

/* New rates, and the end in force, for the lcores of @p port without stopping them. */
void
trex_lcores_retake(uint16_t port)
{
	struct gen_ctx *g = trex.g;
	uint16_t t;

	for (t = 0; t < g->nb_tx; t++)
		if (g->tx[t]->port == port) {
			g->tx[t]->stop_tsc = trex.port[port].end_tsc;
			__atomic_add_fetch(&g->tx[t]->run_gen, 1, __ATOMIC_RELEASE);
		}
}

/* Whether every TX lcore of @p port is idle and has said so. */
bool
trex_lcores_idle(uint16_t port)
{
	struct gen_ctx *g = trex.g;
	uint16_t t;

	for (t = 0; t < g->nb_tx; t++)
		if (g->tx[t]->port == port && !gen_tx_lcore_idle(g->tx[t]))
			return false;
	return true;
}

/* Stop the TX lcores of @p port, waiting (bounded) for them to leave their burst. */
void
trex_port_halt(uint16_t port)
{
	struct gen_ctx *g = trex.g;
	uint64_t deadline;
	uint16_t t;

	for (t = 0; t < g->nb_tx; t++)
		if (g->tx[t]->port == port)
			__atomic_store_n(&g->tx[t]->state, GEN_TX_IDLE, __ATOMIC_RELEASE);
	deadline = rte_rdtsc() + g->hz * TREX_HALT_MS / 1000;
	while (!trex_lcores_idle(port) && rte_rdtsc() < deadline)
		usleep(100);
	if (!trex_lcores_idle(port))
		GEN_LOG(WARNING, "TX lcore of port %u did not stop within %d ms", port,
			TREX_HALT_MS);
}

static bool
trex_port_paused_streams(uint16_t port)
{
	const struct trex_port *tp = &trex.port[port];
	uint32_t i;

	for (i = 0; i < tp->nb_streams; i++)
		if (tp->streams[i]->paused && tp->streams[i]->ps >= 0)
			return true;
	return false;
}

/* End of a run: by the client (stop) or by itself (finished). */
static void
trex_port_end(uint16_t port, bool finished)
{
	struct trex_port *tp = &trex.port[port];

	trex_port_halt(port);
	trex_push_end(port);
	tp->state = tp->nb_streams != 0 ? TREX_PORT_STREAMS : TREX_PORT_IDLE;
	tp->due_tsc = 0;
	tp->end_tsc = 0;
	if (finished)
		trex_event_port(TREX_EV_PORT_FINISHED_TX, TREX_EV_PROFILE_FINISHED_TX, port);
	else
		trex_event_port(TREX_EV_PORT_STOPPED, TREX_EV_PROFILE_STOPPED, port);
}

/*
 * The chains of a port's streams as TRex's compiler checks them at start
 * (trex_stl_streams_compiler.cpp): every next exists and is enabled, and
 * every enabled stream is a self_start one or reached from one.
 */
static int
trex_port_chains(uint16_t port, char *err, size_t err_len)
{
	const struct trex_port *tp = &trex.port[port];
	bool reached[TREX_MAX_PORT_STREAMS] = {false};
	uint32_t i, j;

	for (i = 0; i < tp->nb_streams; i++) {
		const struct trex_stream *s = tp->streams[i], *n;

		if (!s->enabled || s->next < 0)
			continue;
		n = trex_stream_find(port, (uint32_t)s->next, NULL);
		if (n == NULL || !n->enabled)
			return pvp_fail(err, err_len, -ENOENT,
					"stream %u is pointing to %s stream %" PRId64, s->id,
					n == NULL ? "a non-existent" : "disabled", s->next);
	}
	for (i = 0; i < tp->nb_streams; i++) {
		const struct trex_stream *s = tp->streams[i];

		if (!s->enabled || !s->self_start)
			continue;
		/* Follow the chain until it ends or meets a stream already reached. */
		for (j = i; !reached[j];) {
			reached[j] = true;
			s = tp->streams[j];
			if (s->next < 0)
				break;
			trex_stream_find(port, (uint32_t)s->next, &j);
		}
	}
	for (i = 0; i < tp->nb_streams; i++)
		if (tp->streams[i]->enabled && !reached[i])
			return pvp_fail(err, err_len, -EPERM,
					"stream %u is unreachable from any other stream",
					tp->streams[i]->id);
	return 0;
}

int
trex_m_start_traffic(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct gen_ctx *g = trex.g;
	struct trex_port *tp;
	struct trex_mul m;
	double duration, factor;
	uint64_t now;
	bool force;
	uint16_t q;
	int ret;

	if (trex_param_double(p, "duration", true, -1, &duration, err, err_len) != 0 ||
	    trex_param_bool(p, "force", 0, &force, err, err_len) != 0 ||
	    trex_mul_parse(p, &m, err, err_len) != 0)
		return -EINVAL;
	if (m.op != MUL_ABS)
		return pvp_fail(err, err_len, -EINVAL,
				"start message can only specify absolute speed "
				"rate");
	/* TRex's -1 (any value up to 0) is "until stop_traffic"; a time is bounded as natively. */
	if (duration > 0 && !(duration >= GEN_MIN_DURATION_S && duration <= GEN_MAX_DURATION_S))
		return pvp_fail(err, err_len, -EINVAL,
				"'duration' %g must be -1 (until stop_traffic) or %g..%g seconds",
				duration, GEN_MIN_DURATION_S, GEN_MAX_DURATION_S);
	tp = &trex.port[port];
	if (tp->state == TREX_PORT_IDLE)
		return pvp_fail(err, err_len, -ENOENT,
				"unable to start traffic - no streams attached to "
				"port");
	if (trex_port_active(port)) {
		if (!force)
			return pvp_fail(err, err_len, -EBUSY,
					"port %u is active: stop it or start with force", port);
		trex_port_end(port, false);
	}
	ret = trex_port_rates(port, err, err_len);
	if (ret == 0)
		ret = trex_port_chains(port, err, err_len);
	if (ret != 0)
		return ret;
	if (tp->max_pps <= 0)
		return pvp_fail(err, err_len, -EPERM,
				"unable to start traffic - no enabled streams "
				"with self_start on port %u",
				port);
	ret = trex_factor(port, &m, force, true, 1, &factor, err, err_len);
	if (ret != 0)
		return ret;
	if (!trex.loaded_any || trex.loaded_gen != trex.streams_gen) {
		for (q = 0; q < g->nb_ports; q++)
			if (trex_port_active(q))
				return pvp_fail(err, err_len, -EBUSY,
						"port %u is active and streams changed since they "
						"were loaded: pvpkit-gen loads the streams of all "
						"ports together, stop port %u first",
						q, q);
		ret = trex_profile_load(err, err_len);
		if (ret != 0)
			return ret;
	}
	tp->factor = factor;
	tp->duration = duration;
	now = rte_rdtsc();
	trex_port_program(port, now);
	tp->start_tsc = now;
	tp->due_tsc = duration > 0 ? tp->start_tsc + (uint64_t)(duration * (double)g->hz) : 0;
	/* Exact counts may end a little past the due time: a bounded wait (run.c's rule). */
	tp->end_tsc = tp->due_tsc;
	if (tp->due_tsc != 0 && tp->exact) {
		double grace = duration / 4 < 0.5 ? 0.5 : duration / 4 > 5.0 ? 5.0 : duration / 4;

		tp->end_tsc += (uint64_t)(grace * (double)g->hz);
	}
	tp->state = TREX_PORT_TX;
	trex_lcores_go(port);
	trex_event_port(TREX_EV_PORT_STARTED, TREX_EV_PROFILE_STARTED, port);
	*res = json_pack("{s:f,s:f}", "multiplier", factor, "ts", pvp_realtime_s());
	return 0;
}

int
trex_m_stop_traffic(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	if (trex_port_active(port))
		trex_port_end(port, false);
	return trex_ok(res);
}

int
trex_m_pause_traffic(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_port *tp = &trex.port[port];

	if (trex_push_active(port))
		return trex_state_refuse("pause", "PCAP_TX", err, err_len);
	if (tp->state != TREX_PORT_TX)
		return pvp_fail(err, err_len, -EBUSY, "pause is valid only while transmitting");
	trex_port_halt(port);
	tp->pause_tsc = rte_rdtsc();
	tp->state = TREX_PORT_PAUSE;
	trex_event_port(TREX_EV_PORT_PAUSED, TREX_EV_PROFILE_PAUSED, port);
	return trex_ok(res);
}

int
trex_m_resume_traffic(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct gen_ctx *g = trex.g;
	struct trex_port *tp = &trex.port[port];
	uint64_t gap;
	uint16_t i;

	if (tp->state != TREX_PORT_PAUSE)
		return pvp_fail(err, err_len, -EBUSY, "resume is valid only while paused");
	/* The time paused does not count against a duration. */
	gap = rte_rdtsc() - tp->pause_tsc;
	if (tp->due_tsc != 0) {
		tp->due_tsc += gap;
		tp->end_tsc += gap;
	}
	/* Nor against a stream's isg still to come. */
	for (i = 0; i < g->nb_ws; i++)
		if (g->ws[i]->port == port && g->ws[i]->start_tsc > tp->pause_tsc)
			g->ws[i]->start_tsc += gap;
	tp->state = TREX_PORT_TX;
	trex_lcores_go(port);
	trex_event_port(TREX_EV_PORT_RESUMED, TREX_EV_PROFILE_RESUMED, port);
	return trex_ok(res);
}

int
trex_m_update_traffic(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_port *tp;
	struct trex_mul m;
	double factor;
	bool force;
	int ret;

	if (trex_param_bool(p, "force", 0, &force, err, err_len) != 0 ||
	    trex_mul_parse(p, &m, err, err_len) != 0)
		return -EINVAL;
	tp = &trex.port[port];
	if (trex_push_active(port))
		return trex_state_refuse("update", "PCAP_TX", err, err_len);
	if (tp->state != TREX_PORT_TX)
		return pvp_fail(err, err_len, -EBUSY, "port %u is not transmitting", port);
	ret = trex_factor(port, &m, force, false, tp->factor, &factor, err, err_len);
	if (ret != 0)
		return ret;
	tp->factor = factor;
	trex_port_program(port, 0);
	*res = json_pack("{s:f}", "multiplier", factor);
	return 0;
}

int
trex_m_validate(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_port *tp = &trex.port[port];
	double speed, dur = 0;
	uint32_t i;
	int ret;

	if (tp->nb_streams == 0)
		return pvp_fail(err, err_len, -ENOENT, "no streams attached to port");
	ret = trex_port_rates(port, err, err_len);
	if (ret != 0)
		return ret;
	/* Expected duration: the longest burst stream at factor 1; 0 when any is endless. */
	for (i = 0; i < tp->nb_streams; i++) {
		const struct trex_stream *s = tp->streams[i];
		double d;

		if (!s->enabled || !s->self_start)
			continue;
		if (s->mode == PVP_MODE_CONTINUOUS) {
			dur = -1;
			break;
		}
		d = s->isg_us +
		    (double)s->burst_pkts * (s->mode == PVP_MODE_MULTI_BURST ? s->burst_count : 1) /
			    s->pps * 1e6 +
		    (s->mode == PVP_MODE_MULTI_BURST ? s->ibg_us * (s->burst_count - 1) : 0);
		dur = RTE_MAX(dur, d);
	}
	speed = (double)trex.g->port[port].link_bps;
	*res = json_pack("{s:{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f},s:{s:f,s:i,s:[]}}", "rate",
			 "max_bps_l2", tp->max_bps_l2, "max_bps_l1", tp->max_bps_l1, "max_pps",
			 tp->max_pps, "max_line_util",
			 speed > 0 ? tp->max_bps_l1 / speed * 100.01 : 0.0, "min_bps_l2", 0.0,
			 "min_bps_l1", 0.0, "min_pps", 0.0, "min_line_util", 0.0, "graph",
			 "expected_duration", dur, "events_count", 0, "events");
	return 0;
}

void
trex_run_tick(void)
{
	struct gen_ctx *g = trex.g;
	uint64_t now = rte_rdtsc();
	uint16_t port;

	for (port = 0; port < g->nb_ports; port++) {
		struct trex_port *tp = &trex.port[port];

		if (tp->state != TREX_PORT_TX)
			continue;
		if ((trex_lcores_idle(port) && !trex_port_paused_streams(port)) ||
		    (tp->end_tsc != 0 && now >= tp->end_tsc))
			trex_port_end(port, true);
	}
}

/* How long the server thread may wait for a request: short while a port sends. */
int
trex_run_next_ms(void)
{
	struct gen_ctx *g = trex.g;
	uint16_t port;

	/* A run that ends by itself is seen within 2 ms. */
	for (port = 0; port < g->nb_ports; port++)
		if (trex.port[port].state == TREX_PORT_TX)
			return 2;
	return 20;
}
