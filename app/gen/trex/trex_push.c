/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's push_remote (what a client's push_remote() sends): a pcap file
 * the server can read, replayed on a port by pvpkit-gen's push (push.h)
 * with TRex's parameters: ipg_usec (-1: the file's gaps), speedup,
 * min_ipg_usec, count (passes, 0: until stopped; bits 31 and 30 keep the
 * file's source and destination MACs, the client's src_mac_pcap and
 * dst_mac_pcap), duration and is_dual. The port is in TRex's PCAP_TX
 * state until the last pass is sent, the duration is up or
 * stop_traffic; it ends as a run of streams ends (trex_run.c). Unlike
 * TRex, the file is read when the request comes, so a missing file, one
 * that is no pcap, a cut one or a frame over the MTU is refused by the
 * request itself, by name, and the port stays as it was.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>

#include "push.h"
#include "trex.h"

/* TRex's flags in the high bits of "count". */
#define TREX_PUSH_SRC_PCAP 0x80000000u
#define TREX_PUSH_DST_PCAP 0x40000000u
#define TREX_PUSH_COUNT	   0x3fffffffu

/* The push of each port, NULL: none. */
static struct gen_push *trex_push[GEN_MAX_PORTS];

bool
trex_push_active(uint16_t port)
{
	return trex_push[port] != NULL;
}

int
trex_state_refuse(const char *cmd, const char *state, char *err, size_t err_len)
{
	return pvp_fail(err, err_len, -EBUSY,
			"command '%s' cannot be executed on current state: '%s'", cmd, state);
}

void
trex_push_end(uint16_t port)
{
	if (trex_push[port] == NULL)
		return;
	if (gen_push_end(trex_push[port]) != 0) {
		GEN_LOG(WARNING, "push of port %u: its TX lcore did not stop, kept", port);
		return;
	}
	trex_push[port] = NULL;
}

/* is_dual: the adjacent port must be owned by the caller (slave_handler), as in TRex. */
static int
trex_push_dual(uint16_t port, const char *slave_handler, char *err, size_t err_len)
{
	uint16_t slave = port ^ 1;

	if (slave >= trex.g->nb_ports)
		return pvp_fail(err, err_len, -EPERM, "dual mode: port %u has no adjacent port %u",
				port, slave);
	if (!trex.port[slave].owned || strcmp(trex.port[slave].handler, slave_handler) != 0)
		return pvp_fail(err, err_len, -EPERM, "incorrect or missing slave port handler");
	if (trex_port_active(slave))
		return pvp_fail(err, err_len, -EBUSY,
				"command 'push_remote' cannot be executed on current state of port "
				"%u: '%s'",
				slave, trex_push_active(slave) ? "PCAP_TX" : "TX");
	return 0;
}

int
trex_m_push_remote(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct gen_ctx *g = trex.g;
	struct gen_push_conf c = {.port = port};
	struct trex_port *tp;
	struct gen_push *push;
	const char *slave_handler;
	char msg[512] = "";
	uint64_t count;
	double duration;
	bool dual;
	int ret;

	c.file = trex_param_str(p, "pcap_filename", NULL, err, err_len);
	if (c.file == NULL ||
	    trex_param_double(p, "ipg_usec", false, 0, &c.ipg_us, err, err_len) != 0 ||
	    trex_param_double(p, "min_ipg_usec", true, 0, &c.min_ipg_us, err, err_len) != 0 ||
	    trex_param_double(p, "speedup", false, 0, &c.speedup, err, err_len) != 0 ||
	    trex_param_uint(p, "count", UINT32_MAX, -1, &count, err, err_len) != 0 ||
	    trex_param_double(p, "duration", false, 0, &duration, err, err_len) != 0 ||
	    trex_param_bool(p, "is_dual", 0, &dual, err, err_len) != 0 ||
	    (slave_handler = trex_param_str(p, "slave_handler", "", err, err_len)) == NULL)
		return -EINVAL;
	if (!(c.speedup > 0))
		return pvp_fail(err, err_len, -EINVAL, "'speedup' must be positive, got %g",
				c.speedup);
	if (!(c.min_ipg_us >= 0))
		return pvp_fail(err, err_len, -EINVAL,
				"'min_ipg_usec' must not be negative, got %g", c.min_ipg_us);
	/* TRex's -1 (any value up to 0) is "until the passes are sent". */
	if (duration > 0 && !(duration >= GEN_MIN_DURATION_S && duration <= GEN_MAX_DURATION_S))
		return pvp_fail(err, err_len, -EINVAL,
				"'duration' %g must be -1 (none) or %g..%g seconds", duration,
				GEN_MIN_DURATION_S, GEN_MAX_DURATION_S);
	tp = &trex.port[port];
	if (trex_port_active(port))
		return pvp_fail(err, err_len, -EBUSY,
				"command 'push_remote' cannot be executed on current state: '%s'",
				trex_push_active(port) ? "PCAP_TX" : trex_state_name(tp->state));
	if (dual) {
		ret = trex_push_dual(port, slave_handler, err, err_len);
		if (ret != 0)
			return ret;
	}
	c.passes = count & TREX_PUSH_COUNT;
	c.src_from_pcap = (count & TREX_PUSH_SRC_PCAP) != 0;
	c.dst_from_pcap = (count & TREX_PUSH_DST_PCAP) != 0;
	/* The port's layer_cfg as get_port_status reports it. */
	trex_service_macs(port, &c.src, &c.dst);
	push = gen_push_load(g, &c, msg, sizeof(msg));
	if (push == NULL)
		return pvp_fail(err, err_len, -EPERM, "%s", msg);
	tp->duration = duration;
	tp->start_tsc = rte_rdtsc();
	tp->due_tsc = duration > 0 ? tp->start_tsc + (uint64_t)(duration * (double)g->hz) : 0;
	tp->end_tsc = tp->due_tsc;
	tp->state = TREX_PORT_TX;
	trex_push[port] = push;
	gen_push_start(g, push, tp->end_tsc);
	GEN_LOG(INFO, "port %u: pushing %u frames of %s", port, gen_push_frames(push), c.file);
	trex_event_port(TREX_EV_PORT_STARTED, TREX_EV_PROFILE_STARTED, port);
	return trex_ok(res);
}
