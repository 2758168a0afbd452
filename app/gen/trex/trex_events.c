/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Sessions and async events: each client's queue of TRex events
 * (port started, stopped, profile finished, server stopping), the
 * "{}" on the PUB socket that tells subscribers to pull them, and the
 * two methods that publish and hand them out.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

#include "trex.h"

/* A session: a client's event queue (TRex's publisher context). */
struct trex_session {
	bool used;
	uint32_t id;	   /* client's session_id */
	uint32_t seq;	   /* next event's seq */
	json_t *queue;	   /* events not yet pulled */
	double last_query; /* when it last pulled, s */
	bool reader;	   /* owns no port: dropped once gone */
};

static struct trex_session trex_sess[TREX_MAX_SESSIONS];

/* ---- sessions and async events ---- */

struct trex_session *
trex_session_add(uint32_t id, bool reader)
{
	struct trex_session *s, *old = &trex_sess[0];
	unsigned int i;

	for (i = 0; i < TREX_MAX_SESSIONS; i++)
		if (trex_sess[i].used && trex_sess[i].id == id) {
			/* A reader's session becomes an owner's on acquire, never back. */
			trex_sess[i].reader = trex_sess[i].reader && reader;
			return &trex_sess[i];
		}
	for (i = 0; i < TREX_MAX_SESSIONS && trex_sess[i].used; i++)
		if (trex_sess[i].last_query < old->last_query)
			old = &trex_sess[i];
	/* Full: the session idle longest makes room (a free one has no queue). */
	s = i < TREX_MAX_SESSIONS ? &trex_sess[i] : old;
	json_decref(s->queue);
	memset(s, 0, sizeof(*s));
	s->used = true;
	s->id = id;
	s->queue = json_array();
	s->last_query = pvp_realtime_s();
	s->reader = reader;
	return s;
}

static void
trex_publish_trigger(void)
{
	if (trex.pub != NULL)
		zmq_send(trex.pub, "{}", 2, ZMQ_DONTWAIT);
}

/*
 * Queue an event for every session and trigger the subscribers. As TRex
 * does, a session that has not pulled for 10 s gets nothing more (a
 * client that went away), and a reader-only one is then forgotten.
 */
void
trex_event(enum trex_event type, json_t *data)
{
	double now = pvp_realtime_s();
	unsigned int i;

	for (i = 0; i < TREX_MAX_SESSIONS; i++) {
		struct trex_session *s = &trex_sess[i];
		json_t *ev;

		if (!s->used)
			continue;
		if (json_array_size(s->queue) != 0 && now - s->last_query >= 10.0) {
			if (s->reader) {
				json_decref(s->queue);
				memset(s, 0, sizeof(*s));
			}
			continue;
		}
		if (json_array_size(s->queue) >= TREX_SESSION_QUEUE)
			continue;
		if (json_array_size(s->queue) == 0)
			s->last_query = now;
		ev = json_pack("{s:s,s:i,s:O,s:I}", "name", "trex-event", "type", (int)type, "data",
			       data, "seq", (json_int_t)s->seq++);
		if (ev != NULL)
			json_array_append_new(s->queue, ev);
	}
	json_decref(data);
	trex_publish_trigger();
}

/* A port event and the matching event of its default profile "_". */
void
trex_event_port(enum trex_event port_ev, enum trex_event profile_ev, uint16_t port)
{
	trex_event(profile_ev, json_pack("{s:i,s:s}", "port_id", port, "profile_id", "_"));
	trex_event(port_ev, json_pack("{s:i}", "port_id", port));
}

int
trex_m_publish_now(json_t *p, json_t **res, char *err, size_t err_len)
{
	uint64_t key;
	bool baseline;

	if (trex_param_uint(p, "key", UINT32_MAX, -1, &key, err, err_len) != 0 ||
	    trex_param_bool(p, "baseline", 0, &baseline, err, err_len) != 0)
		return -EINVAL;
	trex_publish_trigger();
	return trex_ok(res);
}

int
trex_m_get_async_events(json_t *p, json_t **res, char *err, size_t err_len)
{
	struct trex_session *s;
	uint64_t id;
	json_t *data;
	int ret;

	ret = trex_param_uint(p, "session_id", UINT32_MAX, -1, &id, err, err_len);
	if (ret != 0)
		return ret;
	/* A new client reads from now on. */
	s = trex_session_add((uint32_t)id, true);
	data = s->queue;
	s->queue = json_array();
	s->last_query = pvp_realtime_s();
	*res = json_pack("{s:o}", "data", data);
	return 0;
}

void
trex_sessions_free(void)
{
	unsigned int i;

	for (i = 0; i < TREX_MAX_SESSIONS; i++)
		json_decref(trex_sess[i].queue);
	memset(trex_sess, 0, sizeof(trex_sess));
}
