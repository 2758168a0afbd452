/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Hop driver "telemetry" (alias "testpmd"): DPDK telemetry v2 client.
 * The socket is SOCK_SEQPACKET, so each reply is one message: no framing to do, but the
 * receive buffer must hold the largest reply the server may send (it says
 * how large in its greeting, "max_output_len").
 *
 * Or "tcp:HOST:PORT": a relay to the socket of an app on another machine
 * (the testbed's VM guests: socat in the guest, behind QEMU's forwarded
 * port). A stream keeps no message boundaries, so a reply is what has
 * arrived once it parses as one JSON value: the protocol is one request,
 * one reply, so nothing follows it.
 */

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <jansson.h>

#include "pvp_util.h"

#include "telemetry_driver.h"

/* Largest reply accepted, whatever the greeting says. */
#define TP_MAX_BUF (1u << 20)

/* One telemetry hop (hop->priv); its topology members (tp_conf) are
 * decoded into it. */
struct tp_hop {
	char path[108];			       /* "telemetry": the socket */
	bool stream;			       /* path is tcp:HOST:PORT */
	char file_prefix[65];		       /* "file_prefix", or "" */
	int fd;				       /* connection, -1 when closed */
	unsigned int timeout_ms;	       /* per reply */
	size_t max_len;			       /* from the greeting */
	char *buf;			       /* receive buffer of max_len + 1 */
	unsigned int port_id[COORD_MAX_PORTS]; /* ethdev port ids of the hop's ports */
	json_t *greeting;		       /* the server's greeting */
};

/* The hop's topology members, decoded into struct tp_hop. */
static const struct pvp_schema_member tp_conf[] = {
	{PVP_SCHEMA_NAMED("telemetry", struct tp_hop, path, PVP_SCHEMA_STRING, 1, 107,
			  "the app's dpdk_telemetry.v2 socket, or tcp:HOST:PORT of a relay to it")},
	{PVP_SCHEMA_MEMBER(struct tp_hop, file_prefix, PVP_SCHEMA_STRING, 1, 64,
			   "or the app's --file-prefix: DPDK's run dir gives the socket")},
	COORD_HOP_PORTS_MEMBER(1, "ethdev port ids, \"0\" or \"p0\""),
	COORD_HOP_TIMEOUT_MEMBER(struct tp_hop, timeout_ms),
	{.name = NULL},
};

static void
tp_disconnect(struct tp_hop *h)
{
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
}

/*
 * Receive one reply on a stream: read until what has arrived parses as
 * one JSON value, within the timeout. @return its length or -errno.
 */
static ssize_t
tp_recv_stream(struct tp_hop *h, char *err, size_t err_len, const char *what)
{
	uint64_t deadline = pvp_now_ms() + h->timeout_ms;
	json_error_t jerr;
	json_t *v;
	size_t len = 0;
	ssize_t n;
	int rc;

	for (;;) {
		rc = pvp_sock_wait(h->fd, POLLIN, deadline);
		if (rc == -ETIMEDOUT)
			return pvp_fail(err, err_len, -ETIMEDOUT,
					"telemetry: %s: no%s reply to %s within %u ms", h->path,
					len > 0 ? " whole" : "", what, h->timeout_ms);
		if (rc < 0)
			return pvp_fail(err, err_len, coord_err_connect(rc),
					"hop unreachable: %s: %s", h->path, strerror(-rc));
		n = recv(h->fd, h->buf + len, h->max_len - len, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return pvp_fail(err, err_len, coord_err_connect(-errno),
					"hop unreachable: %s: %s", h->path, strerror(errno));
		if (n == 0)
			return pvp_fail(err, err_len, -ECONNRESET,
					"hop unreachable: %s: the relay closed the connection%s",
					h->path, len > 0 ? " within a reply" : "");
		len += (size_t)n;
		v = json_loadb(h->buf, len, 0, &jerr);
		if (v != NULL) {
			json_decref(v);
			h->buf[len] = '\0';
			return (ssize_t)len;
		}
		/* Anything but a value cut short is the caller's "malformed". */
		if (json_error_code(&jerr) != json_error_premature_end_of_input) {
			h->buf[len] = '\0';
			return (ssize_t)len;
		}
		if (len == h->max_len)
			return pvp_fail(err, err_len, -EMSGSIZE,
					"telemetry: %s: reply to %s over %zu bytes (truncated)",
					h->path, what, h->max_len);
	}
}

/* Receive one message within the timeout. @return its length or -errno. */
static ssize_t
tp_recv(struct tp_hop *h, char *err, size_t err_len, const char *what)
{
	ssize_t n;
	int rc;

	if (h->stream)
		return tp_recv_stream(h, err, err_len, what);
	rc = pvp_sock_wait(h->fd, POLLIN, pvp_now_ms() + h->timeout_ms);
	if (rc == -ETIMEDOUT)
		return pvp_fail(err, err_len, -ETIMEDOUT,
				"telemetry: %s: no reply to %s within %u ms", h->path, what,
				h->timeout_ms);
	if (rc < 0)
		return pvp_fail(err, err_len, coord_err_connect(rc), "hop unreachable: %s: %s",
				h->path, strerror(-rc));
	do {
		n = recv(h->fd, h->buf, h->max_len, MSG_TRUNC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return pvp_fail(err, err_len, coord_err_connect(-errno), "hop unreachable: %s: %s",
				h->path, strerror(errno));
	if (n == 0)
		return pvp_fail(err, err_len, -ECONNRESET,
				"hop unreachable: %s: the application closed the socket", h->path);
	if ((size_t)n > h->max_len)
		return pvp_fail(err, err_len, -EMSGSIZE,
				"telemetry: %s: reply to %s over %zu bytes (truncated)", h->path,
				what, h->max_len);
	h->buf[n] = '\0';
	return n;
}

static int
tp_connect(struct tp_hop *h, char *err, size_t err_len)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	json_error_t jerr;
	const json_t *mol;
	ssize_t n;

	if (h->stream) {
		char why[256] = "";
		int fd = pvp_sock_connect_tcp(h->path, pvp_now_ms() + h->timeout_ms, why,
					      sizeof(why));

		if (fd < 0)
			return pvp_fail(err, err_len, fd == -EINVAL ? fd : coord_err_connect(fd),
					"%s%s",
					fd == -EINVAL ? "telemetry: " : "hop unreachable: ", why);
		h->fd = fd;
		goto greeting;
	}
	h->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (h->fd < 0)
		return pvp_fail(err, err_len, -errno, "telemetry: socket: %s", strerror(errno));
	memcpy(sun.sun_path, h->path, strlen(h->path) + 1);
	if (connect(h->fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		int rc = -errno;

		tp_disconnect(h);
		return pvp_fail(err, err_len, coord_err_connect(rc), "hop unreachable: %s: %s",
				h->path, strerror(-rc));
	}
greeting:
	/* The greeting: {"version": ..., "pid": ..., "max_output_len": N}. */
	h->max_len = 16384;
	n = tp_recv(h, err, err_len, "connect (greeting)");
	if (n < 0) {
		tp_disconnect(h);
		return (int)n;
	}
	json_decref(h->greeting);
	h->greeting = json_loadb(h->buf, (size_t)n, 0, &jerr);
	mol = json_object_get(h->greeting, "max_output_len");
	if (!json_is_object(h->greeting) || !json_is_integer(mol) || json_integer_value(mol) <= 0) {
		tp_disconnect(h);
		return pvp_fail(err, err_len, -EPROTO,
				"telemetry: %s: not a DPDK telemetry v2 greeting%s%s", h->path,
				h->greeting == NULL ? ": " : "",
				h->greeting == NULL ? jerr.text : "");
	}
	h->max_len = (size_t)json_integer_value(mol);
	if (h->max_len > TP_MAX_BUF)
		h->max_len = TP_MAX_BUF;
	return 0;
}

/*
 * Send @p cmd and return the value under the reply's @p cmd key (a new
 * reference; JSON null when the app answered null, e.g. no such port).
 */
static int
tp_query(struct tp_hop *h, const char *cmd, json_t **val, char *err, size_t err_len)
{
	char key[64];
	json_error_t jerr;
	json_t *reply;
	ssize_t n;
	int rc, attempt;

	*val = NULL;
	for (attempt = 0; attempt < 2; attempt++) {
		bool fresh = h->fd < 0;

		if (h->fd < 0) {
			rc = tp_connect(h, err, err_len);
			if (rc < 0)
				return rc;
		}
		if (send(h->fd, cmd, strlen(cmd), MSG_NOSIGNAL) < 0) {
			rc = pvp_fail(err, err_len, coord_err_connect(-errno),
				      "hop unreachable: %s: %s", h->path, strerror(errno));
			tp_disconnect(h);
			if (fresh)
				return rc;
			continue; /* the app restarted: one retry on a new connection */
		}
		n = tp_recv(h, err, err_len, cmd);
		if (n < 0) {
			tp_disconnect(h);
			if (fresh || n != -ECONNRESET)
				return (int)n;
			continue;
		}
		break;
	}
	if (attempt == 2)
		return -ECONNRESET;
	reply = json_loadb(h->buf, (size_t)n, 0, &jerr);
	if (reply == NULL) {
		tp_disconnect(h);
		return pvp_fail(err, err_len, -EPROTO, "telemetry: %s: malformed reply to %s: %s",
				h->path, cmd, jerr.text);
	}
	snprintf(key, sizeof(key), "%.*s", (int)strcspn(cmd, ","), cmd);
	if (!json_is_object(reply) || json_object_get(reply, key) == NULL) {
		json_decref(reply);
		return pvp_fail(err, err_len, -EPROTO, "telemetry: %s: reply to %s has no \"%s\"",
				h->path, cmd, key);
	}
	*val = json_incref(json_object_get(reply, key));
	json_decref(reply);
	return 0;
}

/*
 * The side of a drop xstat: DPDK names every xstat of a port's receive
 * path "rx_..." and of its send path "tx_..." (rte_ethdev's own names and
 * the PMDs' follow this); anything else is shown on both sides.
 */
static enum coord_side
tp_xstat_side(const char *name)
{
	if (strncmp(name, "rx_", 3) == 0)
		return COORD_SIDE_RX;
	if (strncmp(name, "tx_", 3) == 0)
		return COORD_SIDE_TX;
	return COORD_SIDE_BOTH;
}

/* xstats that count dropped packets, beyond what ethdev stats have. */
static bool
tp_xstat_is_drop(const char *name)
{
	/* These repeat imissed, rx_nombuf, ierrors and oerrors. */
	if (strcmp(name, "rx_missed_errors") == 0 ||
	    strcmp(name, "rx_mbuf_allocation_errors") == 0 || strcmp(name, "rx_errors") == 0 ||
	    strcmp(name, "tx_errors") == 0)
		return false;
	/* Per-queue copies ("rx_q0_...") would crowd out the port totals. */
	if (strncmp(name, "rx_q", 4) == 0 || strncmp(name, "tx_q", 4) == 0)
		return false;
	return strstr(name, "drop") != NULL || strstr(name, "discard") != NULL ||
	       strstr(name, "missed") != NULL;
}

static int
tp_read_port(const struct coord_hop *hop, unsigned int i, struct coord_port *p, char *err,
	     size_t err_len)
{
	struct tp_hop *h = hop->priv;
	json_int_t ipk, opk, ib, ob, imissed, nombuf, ierr, oerr;
	char cmd[64];
	json_t *st, *xs;
	const char *k;
	json_t *v;
	int rc;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", hop->ports[i]);
	snprintf(cmd, sizeof(cmd), "/ethdev/stats,%u", h->port_id[i]);
	rc = tp_query(h, cmd, &st, err, err_len);
	if (rc < 0)
		return rc;
	if (json_is_null(st)) {
		json_decref(st);
		return pvp_fail(err, err_len, -ENODEV, "telemetry: %s: no ethdev port %u", h->path,
				h->port_id[i]);
	}
	/* Every counter an integer, none negative (or'ed, a sign bit shows). */
	if (json_unpack(st, "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "ipackets", &ipk, "opackets", &opk,
			"ibytes", &ib, "obytes", &ob, "imissed", &imissed, "rx_nombuf", &nombuf,
			"ierrors", &ierr, "oerrors", &oerr) < 0 ||
	    (ipk | opk | ib | ob | imissed | nombuf | ierr | oerr) < 0) {
		json_decref(st);
		return pvp_fail(err, err_len, -EPROTO,
				"telemetry: %s: malformed %s reply (missing or bad counters)",
				h->path, cmd);
	}
	json_decref(st);
	p->c[PVP_STATS_rx_packets] = ipk;
	p->c[PVP_STATS_rx_bytes] = ib;
	p->c[PVP_STATS_tx_packets] = opk;
	p->c[PVP_STATS_tx_bytes] = ob;
	p->c[PVP_STATS_rx_dropped] = (uint64_t)imissed + (uint64_t)nombuf;
	p->c[PVP_STATS_rx_errors] = ierr;
	p->c[PVP_STATS_tx_errors] = oerr;
	coord_port_add_reason(p, COORD_REASON_rx_missed, imissed);
	coord_port_add_reason(p, COORD_REASON_rx_nombuf, nombuf);

	snprintf(cmd, sizeof(cmd), "/ethdev/xstats,%u", h->port_id[i]);
	rc = tp_query(h, cmd, &xs, err, err_len);
	if (rc < 0)
		return rc;
	if (!json_is_object(xs)) {
		json_decref(xs);
		return pvp_fail(err, err_len, -EPROTO, "telemetry: %s: malformed %s reply", h->path,
				cmd);
	}
	json_object_foreach(xs, k, v) {
		if (json_is_integer(v) && json_integer_value(v) >= 0 && tp_xstat_is_drop(k))
			coord_port_add_named_reason(p, k, tp_xstat_side(k),
						    (uint64_t)json_integer_value(v));
	}
	json_decref(xs);
	return 0;
}

static int
tp_snapshot(struct coord_hop *hop, struct coord_snap *snap, char *err, size_t err_len)
{
	unsigned int i;
	int rc;

	for (i = 0; i < hop->nb_ports; i++) {
		rc = tp_read_port(hop, i, &snap->port[i], err, err_len);
		if (rc < 0)
			return rc;
	}
	snap->t_ns = pvp_now_ns();
	snap->nb_ports = hop->nb_ports;
	return 0;
}

static void
tp_close(struct coord_hop *hop)
{
	struct tp_hop *h = hop->priv;

	if (h == NULL)
		return;
	tp_disconnect(h);
	json_decref(h->greeting);
	free(h->buf);
	free(h);
	hop->priv = NULL;
}

/* What the table cannot say: the socket's path, the ethdev port ids. */
static int
tp_open_conf(const struct coord_hop *hop, struct tp_hop *h, char *err, size_t err_len)
{
	unsigned int i;
	uint32_t id;

	if (h->path[0] == '\0' && h->file_prefix[0] != '\0') {
		const char *xdg = getenv("XDG_RUNTIME_DIR");
		int n;

		if (strchr(h->file_prefix, '/') != NULL)
			return pvp_fail(err, err_len, -EINVAL,
					"telemetry: \"file_prefix\": bad prefix");
		/* Where DPDK 22.11 puts it (eal_get_runtime_dir). */
		if (getuid() == 0 || xdg == NULL)
			n = snprintf(h->path, sizeof(h->path), "/var/run/dpdk/%s/dpdk_telemetry.v2",
				     h->file_prefix);
		else
			n = snprintf(h->path, sizeof(h->path), "%s/dpdk/%s/dpdk_telemetry.v2", xdg,
				     h->file_prefix);
		if (n < 0 || (size_t)n >= sizeof(h->path))
			return pvp_fail(err, err_len, -EINVAL,
					"telemetry: \"file_prefix\": too long");
	} else if (h->path[0] == '\0') {
		return pvp_fail(
			err, err_len, -EINVAL,
			"telemetry: \"telemetry\" (socket path) or \"file_prefix\" is required");
	}
	h->stream = strncmp(h->path, "tcp:", 4) == 0;
	/* Port ids as "0" or "p0"; base 10. */
	for (i = 0; i < hop->nb_ports; i++) {
		const char *s = hop->ports[i];

		if (pvp_parse_u32(NULL, s[0] == 'p' ? s + 1 : s, 0, 65535, &id, NULL, 0) < 0)
			return pvp_fail(
				err, err_len, -EINVAL,
				"telemetry: ports[%u]: an ethdev port id (\"0\", \"1\", ...)", i);
		h->port_id[i] = id;
	}
	return 0;
}

static int
tp_open(struct coord_hop *hop, const json_t *conf, char *err, size_t err_len)
{
	struct tp_hop *h = calloc(1, sizeof(*h));
	int rc;

	if (h == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "telemetry: out of memory");
	h->fd = -1;
	hop->priv = h;
	h->buf = malloc(TP_MAX_BUF + 1);
	if (h->buf == NULL) {
		rc = pvp_fail(err, err_len, -ENOMEM, "telemetry: out of memory");
		goto fail;
	}
	rc = coord_hop_conf(hop, tp_conf, conf, h, err, err_len);
	if (rc == 0)
		rc = tp_open_conf(hop, h, err, err_len);
	if (rc < 0)
		goto fail;
	/* Connect now so a wrong path shows up before any trial. */
	rc = tp_connect(h, err, err_len);
	if (rc < 0)
		goto fail;
	return 0;
fail:
	tp_close(hop);
	return rc;
}

static json_t *
tp_context(struct coord_hop *hop)
{
	struct tp_hop *h = hop->priv;

	return json_pack("{s:s, s:O?}", "telemetry", h->path, "greeting", h->greeting);
}

const struct coord_driver hop_driver_telemetry = {
	.name = "telemetry",
	.roles = COORD_ROLE_COUNTERS | COORD_ROLE_PASSIVE,
	.conf = tp_conf,
	.open = tp_open,
	.close = tp_close,
	.snapshot = tp_snapshot,
	.context = tp_context,
};
