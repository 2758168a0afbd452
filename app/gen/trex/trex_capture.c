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
trex_cap_ports(json_t *p, const char *name, uint64_t *mask, struct trex_err *e)
{
	json_t *a = trex_param_array(p, name, e), *x;
	char list[64];
	size_t i;
	int n = 0;
	uint16_t k;

	*mask = 0;
	if (a == NULL)
		return -EINVAL;
	json_array_foreach(a, i, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) > 0xff) {
			trex_fail(e, TREX_E_PARAMS, "'%s' must be a list of bytes", name);
			return -EINVAL;
		}
		if (json_integer_value(x) >= trex.g->nb_ports) {
			for (k = 0; k < trex.g->nb_ports && n < (int)sizeof(list) - 4; k++)
				n += snprintf(list + n, sizeof(list) - n, " %u", k);
			trex_fail(e, TREX_E_EXEC, "invalid port id - should be:%s", list);
			return -EINVAL;
		}
		*mask |= 1ull << json_integer_value(x);
	}
	return 0;
}

static json_t *
trex_cap_start(json_t *p, struct trex_err *e)
{
	struct gen_cap_conf c;
	const char *mode, *endpoint;
	uint64_t limit, snaplen;
	char msg[400] = "";
	double start_ts;
	uint32_t id;
	int ret;

	memset(&c, 0, sizeof(c));
	if (trex_param_uint(p, "limit", UINT32_MAX, -1, &limit, e) != 0 ||
	    trex_param_uint(p, "snaplen", UINT16_MAX, 0, &snaplen, e) != 0)
		return NULL;
	mode = trex_param_str(p, "mode", NULL, e);
	endpoint = trex_param_str(p, "endpoint", "", e);
	c.filter = trex_param_str(p, "filter", "", e);
	if (mode == NULL || endpoint == NULL || c.filter == NULL ||
	    trex_cap_ports(p, "tx", &c.ports[GEN_CAP_TX], e) != 0 ||
	    trex_cap_ports(p, "rx", &c.ports[GEN_CAP_RX], e) != 0)
		return NULL;
	if (strcmp(mode, "fixed") != 0 && strcmp(mode, "cyclic") != 0)
		return trex_fail(e, TREX_E_PARAMS,
				 "field 'mode' can only be one of [fixed, cyclic]");
	if (gen_cap_filter_check(c.filter, msg, sizeof(msg)) != 0)
		return trex_fail(e, TREX_E_PARAMS,
				 "BPF filter: '%.200s' is not a valid pattern: %s", c.filter, msg);
	if (endpoint[0] != '\0')
		return trex_fail(e, TREX_E_EXEC,
				 "capture endpoint '%.100s' is not supported by pvpkit-gen: fetch "
				 "the packets instead",
				 endpoint);
	c.count = limit;
	c.cyclic = mode[0] == 'c';
	ret = gen_cap_start(&c, &id, &start_ts, msg, sizeof(msg));
	if (ret != 0)
		return trex_fail(e, TREX_E_EXEC, "%s", msg);
	return json_pack("{s:I,s:f}", "capture_id", (json_int_t)id, "start_ts", start_ts);
}

/*
 * Whether capture @p i is pvpkit-gen's own: the only ones that write a
 * file are its command line's --capture (a client's endpoint is refused),
 * which a client neither sees nor stops, so that its reset(), which
 * removes every capture the status lists, leaves the file whole.
 */
static bool
trex_cap_hidden(const struct gen_cap_info *i)
{
	return i->to_file;
}

/* A "capture_id" parameter: one of the clients' captures. */
static int
trex_cap_id(json_t *p, uint32_t *id, struct trex_err *e)
{
	struct gen_cap_info info[GEN_CAP_MAX];
	unsigned int n, k;
	uint64_t v;

	if (trex_param_uint(p, "capture_id", UINT32_MAX, -1, &v, e) != 0)
		return -EINVAL;
	*id = (uint32_t)v;
	n = gen_cap_status(info, RTE_DIM(info));
	for (k = 0; k < n && k < RTE_DIM(info); k++)
		if (info[k].id == *id && trex_cap_hidden(&info[k])) {
			trex_fail(e, TREX_E_EXEC, "capture ID not found");
			return -ENOENT;
		}
	return 0;
}

static json_t *
trex_cap_stop(json_t *p, struct trex_err *e)
{
	struct gen_cap_info i;
	char msg[256] = "";
	uint32_t id;

	if (trex_cap_id(p, &id, e) != 0)
		return NULL;
	if (gen_cap_stop(id, &i, msg, sizeof(msg)) != 0)
		return trex_fail(e, TREX_E_EXEC, "%s", msg);
	return json_pack("{s:I,s:s}", "pkt_count", (json_int_t)i.captured, "endpoint", "");
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

static json_t *
trex_cap_fetch(json_t *p, struct trex_err *e)
{
	struct trex_cap_fetch f = {.pkts = NULL};
	uint64_t limit, pending;
	char msg[256] = "";
	double start_ts;
	uint32_t id;

	if (trex_cap_id(p, &id, e) != 0 ||
	    trex_param_uint(p, "pkt_limit", UINT32_MAX, -1, &limit, e) != 0 ||
	    trex_param_uint(p, "snaplen", UINT16_MAX, 0, &f.snaplen, e) != 0)
		return NULL;
	f.pkts = json_array();
	if (gen_cap_fetch(id, (uint32_t)limit, trex_cap_pkt, &f, &pending, &start_ts, msg,
			  sizeof(msg)) != 0) {
		json_decref(f.pkts);
		return trex_fail(e, TREX_E_EXEC, "%s", msg);
	}
	return json_pack("{s:I,s:f,s:o}", "pending", (json_int_t)pending, "start_ts", start_ts,
			 "pkts", f.pkts);
}

static json_t *
trex_cap_status(void)
{
	struct gen_cap_info info[GEN_CAP_MAX];
	json_t *res = json_array();
	unsigned int n, k;

	n = gen_cap_status(info, RTE_DIM(info));
	for (k = 0; k < n && k < RTE_DIM(info); k++) {
		const struct gen_cap_info *i = &info[k];

		if (trex_cap_hidden(i))
			continue;
		json_array_append_new(
			res,
			json_pack("{s:I,s:I,s:I,s:{s:I,s:I,s:s},s:s,s:I,s:I,s:I,s:s}", "id",
				  (json_int_t)i->id, "matched", (json_int_t)i->matched, "fetched",
				  (json_int_t)i->fetched, "filter", "tx",
				  (json_int_t)i->ports[GEN_CAP_TX], "rx",
				  (json_int_t)i->ports[GEN_CAP_RX], "bpf", i->filter, "state",
				  i->active ? "ACTIVE" : "STOPPED", "count", (json_int_t)i->pending,
				  "bytes", (json_int_t)i->buf_bytes, "limit", (json_int_t)i->limit,
				  "mode", i->cyclic ? "cyclic" : "fixed"));
	}
	return res;
}

static json_t *
trex_cap_remove(json_t *p, struct trex_err *e)
{
	char msg[256] = "";
	uint32_t id;

	if (trex_cap_id(p, &id, e) != 0)
		return NULL;
	if (gen_cap_remove(id, msg, sizeof(msg)) != 0)
		return trex_fail(e, TREX_E_EXEC, "%s", msg);
	return json_object();
}

json_t *
trex_m_capture(json_t *p, struct trex_err *e)
{
	const char *cmd = trex_param_str(p, "command", NULL, e);

	if (cmd == NULL)
		return NULL;
	if (strcmp(cmd, "start") == 0)
		return trex_cap_start(p, e);
	if (strcmp(cmd, "stop") == 0)
		return trex_cap_stop(p, e);
	if (strcmp(cmd, "fetch") == 0)
		return trex_cap_fetch(p, e);
	if (strcmp(cmd, "status") == 0)
		return trex_cap_status();
	if (strcmp(cmd, "remove") == 0)
		return trex_cap_remove(p, e);
	return trex_fail(e, TREX_E_PARAMS,
			 "field 'command' can only be one of [start, stop, fetch, status, remove]");
}
