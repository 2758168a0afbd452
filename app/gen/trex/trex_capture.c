/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * TRex's "capture" method (start, stop, fetch, status, remove) on
 * pvpkit-gen's captures (capture.h): what a client's start_capture(),
 * stop_capture(), fetch_capture_packets(), remove_capture() and its
 * capture monitor send, answered as trex-core's TrexRpcCmdCapture does.
 * Frames are kept in a buffer of "limit" frames ("fixed": the newest are
 * dropped when it is full, "cyclic": the oldest), fetched in order with
 * their time, port and side; file endpoints are refused by name.
 */

#include <errno.h>
#include <string.h>

#include "pvp_util.h"

#include "capture.h"
#include "trex.h"

/* A "tx" or "rx" list of ports as a bit mask. */
static int
trex_cap_ports(json_t *p, const char *name, uint64_t *mask, char *err, size_t err_len)
{
	json_t *a = trex_param_array(p, name, err, err_len), *x;
	size_t i;

	*mask = 0;
	if (a == NULL)
		return -EINVAL;
	json_array_foreach(a, i, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) > 0xff)
			return pvp_fail(err, err_len, -EINVAL, "'%s' must be a list of bytes",
					name);
		if (json_integer_value(x) >= trex.g->nb_ports)
			return trex_bad_port(err, err_len);
		*mask |= 1ull << json_integer_value(x);
	}
	return 0;
}

static int
trex_cap_start(json_t *p, json_t **res, char *err, size_t err_len)
{
	struct gen_cap_conf c = {.filter = NULL};
	const char *mode, *endpoint;
	uint64_t limit, snaplen;
	char msg[400] = "";
	double start_ts;
	uint32_t id;
	int ret;

	if (trex_param_uint(p, "limit", UINT32_MAX, -1, &limit, err, err_len) != 0 ||
	    trex_param_uint(p, "snaplen", UINT16_MAX, 0, &snaplen, err, err_len) != 0 ||
	    (mode = trex_param_str(p, "mode", NULL, err, err_len)) == NULL ||
	    (endpoint = trex_param_str(p, "endpoint", "", err, err_len)) == NULL ||
	    (c.filter = trex_param_str(p, "filter", "", err, err_len)) == NULL)
		return -EINVAL;
	ret = trex_cap_ports(p, "tx", &c.ports[GEN_CAP_TX], err, err_len);
	if (ret == 0)
		ret = trex_cap_ports(p, "rx", &c.ports[GEN_CAP_RX], err, err_len);
	if (ret != 0)
		return ret;
	if (strcmp(mode, "fixed") != 0 && strcmp(mode, "cyclic") != 0)
		return pvp_fail(err, err_len, -EINVAL,
				"field 'mode' can only be one of [fixed, cyclic]");
	if (gen_cap_filter_check(c.filter, msg, sizeof(msg)) != 0)
		return pvp_fail(err, err_len, -EINVAL,
				"BPF filter: '%.200s' is not a valid pattern: %s", c.filter, msg);
	if (endpoint[0] != '\0')
		return pvp_fail(err, err_len, -EOPNOTSUPP,
				"capture endpoint '%.100s' is not supported by pvpkit-gen: fetch "
				"the packets instead",
				endpoint);
	c.count = limit;
	c.cyclic = mode[0] == 'c';
	ret = gen_cap_start(&c, &id, &start_ts, msg, sizeof(msg));
	if (ret != 0)
		return pvp_fail(err, err_len, -EPERM, "%s", msg);
	*res = json_pack("{s:I,s:f}", "capture_id", (json_int_t)id, "start_ts", start_ts);
	return 0;
}

/*
 * Whether capture @p i is pvpkit-gen's own: the only ones that write a
 * file are its command line's --capture (a client's endpoint is refused),
 * which a client neither sees nor stops, so that its reset(), which
 * removes every capture the status lists, leaves the file whole; a
 * capture port's feeds its socket (trex_capport.c), as TRex's is no
 * capture either.
 */
static bool
trex_cap_hidden(const struct gen_cap_info *i)
{
	return i->to_file || trex_capport_owns(i->id);
}

/* A "capture_id" parameter: one of the clients' captures. */
static int
trex_cap_id(json_t *p, uint32_t *id, char *err, size_t err_len)
{
	struct gen_cap_info info[GEN_CAP_MAX];
	unsigned int n, k;
	uint64_t v;

	if (trex_param_uint(p, "capture_id", UINT32_MAX, -1, &v, err, err_len) != 0)
		return -EINVAL;
	*id = (uint32_t)v;
	n = gen_cap_status(info, RTE_DIM(info));
	for (k = 0; k < n && k < RTE_DIM(info); k++)
		if (info[k].id == *id && trex_cap_hidden(&info[k]))
			return pvp_fail(err, err_len, -ENOENT, "capture ID not found");
	return 0;
}

/* "stop" (answering the count of frames kept) and "remove". */
static int
trex_cap_end(json_t *p, json_t **res, bool remove, char *err, size_t err_len)
{
	struct gen_cap_info i;
	char msg[256] = "";
	uint32_t id;
	int ret = trex_cap_id(p, &id, err, err_len);

	if (ret != 0)
		return ret;
	if (remove ? gen_cap_remove(id, msg, sizeof(msg)) != 0
		   : gen_cap_stop(id, &i, msg, sizeof(msg)) != 0)
		return pvp_fail(err, err_len, -EPERM, "%s", msg);
	*res = remove ? json_object()
		      : json_pack("{s:I,s:s}", "pkt_count", (json_int_t)i.captured, "endpoint", "");
	return 0;
}

void
trex_cap_pkt(void *arg, const struct gen_cap_pkt *pkt)
{
	struct trex_cap_fetch *f = arg;
	uint32_t len = f->snaplen != 0 && pkt->len > f->snaplen ? (uint32_t)f->snaplen : pkt->len;
	char *b64 = pvp_b64_encode(pkt->data, len);

	if (b64 == NULL)
		return;
	json_array_append_new(f->pkts, json_pack("{s:f,s:s,s:i,s:I,s:i,s:s}", "ts", pkt->ts,
						 "binary", b64, "port", pkt->port, "index",
						 (json_int_t)pkt->index, "wirelen", pkt->len,
						 "origin", pkt->dir == GEN_CAP_TX ? "TX" : "RX"));
	free(b64);
}

static int
trex_cap_fetch(json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_cap_fetch f = {.pkts = NULL};
	uint64_t limit, pending;
	char msg[256] = "";
	double start_ts;
	uint32_t id;
	int ret;

	ret = trex_cap_id(p, &id, err, err_len);
	if (ret != 0)
		return ret;
	if (trex_param_uint(p, "pkt_limit", UINT32_MAX, -1, &limit, err, err_len) != 0 ||
	    trex_param_uint(p, "snaplen", UINT16_MAX, 0, &f.snaplen, err, err_len) != 0)
		return -EINVAL;
	f.pkts = json_array();
	if (gen_cap_fetch(id, (uint32_t)limit, trex_cap_pkt, &f, &pending, &start_ts, msg,
			  sizeof(msg)) != 0) {
		json_decref(f.pkts);
		return pvp_fail(err, err_len, -EPERM, "%s", msg);
	}
	*res = json_pack("{s:I,s:f,s:o}", "pending", (json_int_t)pending, "start_ts", start_ts,
			 "pkts", f.pkts);
	return 0;
}

static int
trex_cap_status(json_t **res)
{
	struct gen_cap_info info[GEN_CAP_MAX];
	unsigned int n, k;

	*res = json_array();
	n = gen_cap_status(info, RTE_DIM(info));
	for (k = 0; k < n && k < RTE_DIM(info); k++) {
		const struct gen_cap_info *i = &info[k];

		if (trex_cap_hidden(i))
			continue;
		json_array_append_new(
			*res,
			json_pack("{s:I,s:I,s:I,s:{s:I,s:I,s:s},s:s,s:I,s:I,s:I,s:s}", "id",
				  (json_int_t)i->id, "matched", (json_int_t)i->matched, "fetched",
				  (json_int_t)i->fetched, "filter", "tx",
				  (json_int_t)i->ports[GEN_CAP_TX], "rx",
				  (json_int_t)i->ports[GEN_CAP_RX], "bpf", i->filter, "state",
				  i->active ? "ACTIVE" : "STOPPED", "count", (json_int_t)i->pending,
				  "bytes", (json_int_t)i->buf_bytes, "limit", (json_int_t)i->limit,
				  "mode", i->cyclic ? "cyclic" : "fixed"));
	}
	return 0;
}

int
trex_m_capture(json_t *p, json_t **res, char *err, size_t err_len)
{
	const char *cmd = trex_param_str(p, "command", NULL, err, err_len);

	if (cmd == NULL)
		return -EINVAL;
	if (strcmp(cmd, "start") == 0)
		return trex_cap_start(p, res, err, err_len);
	if (strcmp(cmd, "stop") == 0)
		return trex_cap_end(p, res, false, err, err_len);
	if (strcmp(cmd, "fetch") == 0)
		return trex_cap_fetch(p, res, err, err_len);
	if (strcmp(cmd, "status") == 0)
		return trex_cap_status(res);
	if (strcmp(cmd, "remove") == 0)
		return trex_cap_end(p, res, true, err, err_len);
	return pvp_fail(err, err_len, -EINVAL,
			"field 'command' can only be one of [start, stop, fetch, status, remove]");
}
