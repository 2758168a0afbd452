/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's capture ports: "start_capture_port", "stop_capture_port" and
 * "set_capture_port_bpf", answered as trex-core's TrexRpcCmd* of those
 * names and its RXCapturePort do. The client binds a ZeroMQ PAIR socket
 * and gives its endpoint; the server connects to it, sends every frame
 * the port receives that passes the BPF filter as one message, and sends
 * every message the client writes out of the port as a frame.
 *
 * The RX side is a capture (capture.h) of the port's received frames
 * into a fixed buffer, which the server thread empties into the socket
 * every millisecond: the lcores only copy, so the port's traffic and
 * counters are what they would be without it, and a client that reads
 * too slowly loses frames from the socket (ZeroMQ's high-water mark, as
 * TRex's zmq_send(ZMQ_DONTWAIT)) or the buffer, counted, never from the
 * port. The TX side goes as push_pkts' packets do (trex_service.c): the
 * ring to the TX lcore of the port's queue 0. The capture is the server's
 * own: clients' capture lists do not show it and their reset() leaves it.
 */

#include <errno.h>
#include <string.h>

#include <zmq.h>

#include "capture.h"
#include "trex.h"

/* Frames waiting for the socket; past them the newest are dropped (counted). */
#define TREX_CP_BUF 4096
/* Frames moved each way per turn of the server thread (one a millisecond at least). */
#define TREX_CP_BURST 1024

struct trex_capport {
	bool on;
	void *sock;	     /* PAIR, connected to the client's endpoint */
	char endpoint[256];  /* as given */
	char filter[256];    /* BPF, "" for every frame; kept while off, as TRex */
	uint32_t cap_id;     /* the capture of the port's RX side */
	uint64_t rx_pkts;    /* frames sent to the socket */
	uint64_t rx_dropped; /* refused by the socket (client not reading) */
	uint64_t tx_pkts;    /* frames from the socket handed to the port */
	uint64_t tx_dropped; /* not handed: no buffer or room, or a bad length */
};

static struct trex_capport trex_cp[GEN_MAX_PORTS];

bool
trex_capport_on(uint16_t port)
{
	return trex_cp[port].on;
}

bool
trex_capport_owns(uint32_t id)
{
	uint16_t p;

	for (p = 0; p < GEN_MAX_PORTS; p++)
		if (trex_cp[p].on && trex_cp[p].cap_id == id)
			return true;
	return false;
}

/* A "bpf_filter" parameter ("" when absent) that compiles into @p f; 0 or -EINVAL. */
static int
trex_cp_filter(json_t *p, const char **f, char *err, size_t err_len)
{
	char msg[256] = "";

	*f = trex_param_str(p, "bpf_filter", "", err, err_len);
	if (*f == NULL)
		return -EINVAL;
	if (strlen(*f) >= sizeof(trex_cp[0].filter))
		return pvp_fail(err, err_len, -EINVAL, "BPF filter: longer than %zu characters",
				sizeof(trex_cp[0].filter) - 1);
	if (gen_cap_filter_check(*f, msg, sizeof(msg)) != 0)
		return pvp_fail(err, err_len, -EINVAL,
				"BPF filter: '%.200s' is not a valid pattern: %s", *f, msg);
	return 0;
}

/* Close port @p port's socket and end its capture. */
static void
trex_cp_close(uint16_t port)
{
	struct trex_capport *cp = &trex_cp[port];
	char msg[128] = "";

	if (cp->sock != NULL)
		zmq_close(cp->sock);
	cp->sock = NULL;
	if (cp->on)
		gen_cap_remove(cp->cap_id, msg, sizeof(msg));
	cp->on = false;
}

int
trex_m_start_capture_port(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_capport *cp;
	struct gen_cap_conf c;
	const char *filter, *ep;
	char msg[256] = "";
	int linger = 0, ret;
	double ts;

	ret = trex_cp_filter(p, &filter, err, err_len);
	if (ret != 0)
		return ret;
	ep = trex_param_str(p, "endpoint", NULL, err, err_len);
	if (ep == NULL)
		return -EINVAL;
	if (strlen(ep) < 5 || strlen(ep) >= sizeof(trex_cp[0].endpoint))
		return pvp_fail(err, err_len, -EINVAL, "invalid endpoint '%.300s'", ep);
	cp = &trex_cp[port];
	if (cp->on)
		return pvp_fail(err, err_len, -EBUSY,
				"Could not enable capture port on port %u: Capture port is "
				"already active",
				port);
	/* A failure here is no parameter's fault: TRex's execution error, whatever the cause. */
	ret = -ENOSPC;
	cp->sock = zmq_socket(trex.zctx, ZMQ_PAIR);
	if (cp->sock == NULL) {
		snprintf(msg, sizeof(msg), "Could not create ZMQ socket");
	} else {
		zmq_setsockopt(cp->sock, ZMQ_LINGER, &linger, sizeof(linger));
		c = (struct gen_cap_conf){
			.filter = filter, .ports[GEN_CAP_RX] = 1ull << port, .count = TREX_CP_BUF};
		if (zmq_connect(cp->sock, ep) != 0)
			snprintf(msg, sizeof(msg), "Could not connect to ZMQ socket (%s)",
				 zmq_strerror(zmq_errno()));
		else
			ret = gen_cap_start(&c, &cp->cap_id, &ts, msg, sizeof(msg));
	}
	if (ret != 0) {
		trex_cp_close(port);
		return pvp_fail(err, err_len, -ENOSPC,
				"Could not enable capture port on port %u: %s", port, msg);
	}
	snprintf(cp->endpoint, sizeof(cp->endpoint), "%s", ep);
	snprintf(cp->filter, sizeof(cp->filter), "%s", filter);
	cp->rx_pkts = cp->rx_dropped = cp->tx_pkts = cp->tx_dropped = 0;
	cp->on = true;
	return trex_ok(res);
}

int
trex_m_stop_capture_port(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	/* Stopping a stopped port is no error (TRex allows it: its client's reset does it). */
	if (trex_cp[port].on) {
		/* What is buffered still goes: the client asked for every frame up to now. */
		trex_capport_tick();
		trex_cp_close(port);
	}
	return trex_ok(res);
}

int
trex_m_set_capture_port_bpf(uint16_t port, json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_capport *cp;
	const char *filter;
	char msg[256] = "";
	int ret = trex_cp_filter(p, &filter, err, err_len);

	if (ret != 0)
		return ret;
	cp = &trex_cp[port];
	if (cp->on) {
		ret = gen_cap_set_filter(cp->cap_id, filter, msg, sizeof(msg));
		if (ret != 0)
			return pvp_fail(err, err_len, ret == -EINVAL ? -EINVAL : -ENOSPC, "%s",
					msg);
	}
	snprintf(cp->filter, sizeof(cp->filter), "%s", filter);
	return trex_ok(res);
}

json_t *
trex_capport_json(uint16_t port)
{
	const struct trex_capport *cp = &trex_cp[port];
	struct gen_cap_info info[GEN_CAP_MAX];
	uint64_t lost = 0;
	unsigned int n, k;

	if (!cp->on)
		return json_pack("{s:b}", "is_active", 0);
	/* Frames the buffer could not take are the socket's losses too. */
	n = gen_cap_status(info, RTE_DIM(info));
	for (k = 0; k < n && k < RTE_DIM(info); k++)
		if (info[k].id == cp->cap_id)
			lost = info[k].over + info[k].dropped;
	return json_pack("{s:b,s:s,s:s,s:b,s:I,s:I,s:I,s:I}", "is_active", 1, "bpf_filter",
			 cp->filter, "endpoint", cp->endpoint, "socket_open", cp->sock != NULL,
			 "rx_pkts", (json_int_t)cp->rx_pkts, "rx_dropped",
			 (json_int_t)(cp->rx_dropped + lost), "tx_pkts", (json_int_t)cp->tx_pkts,
			 "tx_dropped", (json_int_t)cp->tx_dropped);
}

/* gen_cap_fetch()'s callback: one received frame to the socket. */
static void
trex_cp_send(void *arg, const struct gen_cap_pkt *pkt)
{
	struct trex_capport *cp = arg;

	if (zmq_send(cp->sock, pkt->data, pkt->len, ZMQ_DONTWAIT) == (int)pkt->len)
		cp->rx_pkts++;
	else
		cp->rx_dropped++;
}

/* The client's frames out of port @p port, TREX_CP_BURST at most. */
static void
trex_cp_tx(uint16_t port)
{
	struct trex_capport *cp = &trex_cp[port];
	unsigned int k;
	zmq_msg_t msg;

	for (k = 0; k < TREX_CP_BURST; k++) {
		zmq_msg_init(&msg);
		if (zmq_msg_recv(&msg, cp->sock, ZMQ_DONTWAIT) < 0) {
			zmq_msg_close(&msg);
			return;
		}
		if (trex_service_send(port, zmq_msg_data(&msg), (uint32_t)zmq_msg_size(&msg)) == 0)
			cp->tx_pkts++;
		else
			cp->tx_dropped++;
		zmq_msg_close(&msg);
	}
}

void
trex_capport_tick(void)
{
	uint64_t pending;
	char msg[128];
	double ts;
	uint16_t p;

	for (p = 0; p < trex.g->nb_ports; p++) {
		struct trex_capport *cp = &trex_cp[p];

		if (!cp->on)
			continue;
		gen_cap_fetch(cp->cap_id, TREX_CP_BURST, trex_cp_send, cp, &pending, &ts, msg,
			      sizeof(msg));
		trex_cp_tx(p);
	}
}

int
trex_capport_next_ms(void)
{
	uint16_t p;

	for (p = 0; p < GEN_MAX_PORTS; p++)
		if (trex_cp[p].on)
			return 1;
	return -1;
}

void
trex_capport_fini(void)
{
	uint16_t p;

	for (p = 0; p < GEN_MAX_PORTS; p++)
		trex_cp_close(p);
}
