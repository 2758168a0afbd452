/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Streams whose frame is given as bytes rather than described by headers
 * (a TRex client's packet, pvpkit-gen --trex). The template is the frame
 * as given, with the signature written after the L4 header when there is
 * room (at the end of an IP packet without one), every IPv4/UDP/TCP checksum made valid, and the variables placed
 * by byte offset: the same structures as a profile stream, so the sender
 * cannot tell the two apart.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkt_private.h"

/* Bytes of a frame without FCS that a template may hold. */
#define RAW_MIN_LEN (PVP_PKT_MIN_SIZE - PVP_FCS_LEN)

/* Whether @p v writes into [off, off + len). */
static bool
raw_vars_touch_one(const struct pvp_var *v, uint32_t off, uint32_t len)
{
	return v->offset < off + len && off < (uint32_t)v->offset + v->len;
}

/* Whether any variable of @p s writes into [off, off + len). */
static bool
raw_vars_touch(const struct pvp_stream *s, uint32_t off, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < s->n_vars; i++)
		if (raw_vars_touch_one(&s->vars[i], off, len))
			return true;
	return false;
}

/*
 * Drop the variables of @p s that write only into [off, off + len) (the
 * bytes there are the signature's); false, nothing dropped, when one
 * writes both inside and outside.
 */
static bool
raw_vars_drop(struct pvp_stream *s, uint32_t off, uint32_t len)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->n_vars; i++) {
		const struct pvp_var *v = &s->vars[i];

		if (raw_vars_touch_one(v, off, len) &&
		    (v->offset < off || v->offset + v->len > off + len))
			return false;
	}
	for (i = 0; i < s->n_vars; i++)
		if (!raw_vars_touch_one(&s->vars[i], off, len))
			s->vars[n++] = s->vars[i];
	s->n_vars = n;
	return true;
}

/*
 * Place the signature after the last L4 header when the IP payload has
 * room, or at the end of an IP packet without UDP/TCP (pkt_sig_tail_off()).
 * When a var writes right after the L4 header (a tunnel header the field
 * engine varies), or s->sig_tail asks (a PTP message there), it goes in
 * the payload's last bytes instead, where TRex puts its own latency
 * payload; pvp_sig_find_buf() looks there too. Written over the inner IP
 * header of a VXLAN packet (TRex's latency payload goes there too, over
 * what the field engine wrote: the vars wholly under it are dropped), that
 * header is no longer one: @p lay forgets it, so that no checksum is
 * computed into the signature and the outer UDP checksum covers it all.
 */
static void
raw_sign(struct pvp_stream *s, struct pvp_tmpl *t, struct pvp_pkt_layout *lay)
{
	uint32_t end = lay->in_l3_off != 0 ? lay->in_l3_end : lay->l3_end;
	uint32_t off = lay->payload_off != 0 ? lay->payload_off : pkt_sig_tail_off(lay);
	uint32_t hdr_end;

	if (off == 0 || off + PVP_SIG_LEN > end)
		return;
	hdr_end =
		lay->in_l3_off + (lay->in_ip_ver == 4 ? lay->in_ihl : sizeof(struct rte_ipv6_hdr));
	if (lay->in_l3_off != 0 && off < hdr_end && !raw_vars_drop(s, off, PVP_SIG_LEN))
		return;
	if (s->sig_tail || raw_vars_touch(s, off, PVP_SIG_LEN)) {
		off = end - PVP_SIG_LEN;
		if (lay->payload_off == 0 || raw_vars_touch(s, off, PVP_SIG_LEN))
			return;
	}
	pkt_sig_put(s, t, off);
	if (lay->in_l3_off != 0 && off < hdr_end) {
		lay->in_l3_off = 0;
		lay->in_l4_off = 0;
		lay->in_ip_ver = 0;
		lay->in_l3_end = 0;
	}
}

int
pvp_stream_build_raw(struct pvp_stream *s, const uint8_t *frame, uint32_t len, bool sign, char *msg,
		     size_t msglen)
{
	struct pvp_pkt_layout lay;
	struct pvp_tmpl *t;
	uint32_t i;
	int rc;

	if (len < RTE_ETHER_HDR_LEN || len > PVP_PKT_RAW_MAX_LEN) {
		snprintf(msg, msglen, "frame of %u bytes: expected %u..%u (FCS not included)", len,
			 RTE_ETHER_HDR_LEN, PVP_PKT_RAW_MAX_LEN);
		return -EINVAL;
	}
	if (s->n_vars > PVP_PKT_MAX_VARS) {
		snprintf(msg, msglen, "%u vars: at most %d", s->n_vars, PVP_PKT_MAX_VARS);
		return -E2BIG;
	}
	for (i = 0; i < s->n_vars; i++) {
		const struct pvp_var *v = &s->vars[i];

		if (v->field[0] != '\0' || (v->len != 1 && v->len != 2 && v->len != 4) ||
		    v->max < v->min || v->step == 0 || v->div == 0 ||
		    (v->op == PVP_VAR_TABLE && (v->table == NULL || v->period == 0))) {
			snprintf(msg, msglen,
				 "vars[%u]: expected a raw offset, len 1, 2 or 4, "
				 "min <= max, step and div >= 1, a table of period >= 1",
				 i);
			return -EINVAL;
		}
	}
	t = calloc(1, sizeof(*t));
	s->order = calloc(1, sizeof(*s->order));
	if (t == NULL || s->order == NULL) {
		free(t);
		return -ENOMEM;
	}
	s->tmpl = t;
	s->n_tmpl = 1;
	s->n_order = 1;
	/* Short frames are padded with zeros to the 60 B minimum, as a NIC would. */
	t->len = (uint16_t)RTE_MAX(len, (uint32_t)RAW_MIN_LEN);
	t->size = t->len + PVP_FCS_LEN;
	t->data = calloc(1, t->len);
	if (t->data == NULL)
		return -ENOMEM;
	memcpy(t->data, frame, len);
	s->size = t->size;
	s->avg_size = t->size;

	if (s->keep_csum || pvp_pkt_parse(t->data, t->len, &lay) != 0) {
		/*
		 * Not IP, or bytes as given: no checksum to keep, no signature;
		 * the vars are plain bytes.
		 */
		for (i = 0; i < s->n_vars; i++) {
			const struct pvp_var *v = &s->vars[i];

			if ((uint32_t)v->offset + v->len > t->len) {
				snprintf(msg, msglen,
					 "vars[%u]: offset %u + %u bytes is past the end of the "
					 "%u B frame",
					 i, v->offset, v->len, t->len);
				return -EINVAL;
			}
			t->slot[i].off = v->offset;
			t->slot[i].len = v->len;
		}
	} else {
		/* What the frame holds, for pvp_stream_summary(). */
		s->outer.ip_ver = lay.ip_ver;
		s->outer.l4_proto = lay.l4_proto;
		s->outer.n_vlan = (uint8_t)RTE_MIN((lay.l3_off - RTE_ETHER_HDR_LEN) / 4, 2);
		if (sign)
			raw_sign(s, t, &lay);
		pkt_csum_full(t->data, &lay);
		if (t->sig_off != 0)
			pkt_csum_cover(t->data, &lay, t->sig_off, PVP_SIG_LEN, &t->sig_csum);
		for (i = 0; i < s->n_vars; i++) {
			char vmsg[PVP_PKT_ERR_LEN - 16];

			rc = pkt_slot_resolve(s, i, t, &lay, vmsg, sizeof(vmsg));
			if (rc != 0) {
				snprintf(msg, msglen, "vars[%u]: %s", i, vmsg);
				return rc;
			}
		}
	}
	pvp_flow_apply(s, t, 0, t->data);
	return 0;
}
