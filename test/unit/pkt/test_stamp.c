/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The guest stamp (pvp_sig.h) without the EAL: pvp_sig_guest_stamp() on
 * pvpkit-gen's own frames writes the 4 bytes after the signature and
 * keeps the L4 checksum valid, leaves frames without room (a VLAN tag in
 * 64 B) or with the signature at the payload's end as they came, and on
 * arbitrary bytes never writes anywhere else; pvp_clock_same()'s verdicts
 * on hand-made samples.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "pvp_pkt.h"
#include "pvp_sig.h"
#include "../unit_check.h"

static uint8_t mem[4096];

/* An mbuf laid over mem[128..] holding @p len bytes of @p d. */
static void
mbuf_over(struct rte_mbuf *m, const uint8_t *d, uint32_t len)
{
	memset(m, 0, sizeof(*m));
	m->buf_addr = mem;
	m->data_off = 128;
	m->buf_len = sizeof(mem);
	memmove(mem + 128, d, len);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	m->nb_segs = 1;
}

/* 0 when the frame's L4 checksum verifies. */
static int
l4_verify(const uint8_t *f, uint32_t l3, bool v6, uint32_t l4)
{
	if (v6)
		return rte_ipv6_udptcp_cksum_verify((const struct rte_ipv6_hdr *)(f + l3), f + l4);
	return rte_ipv4_udptcp_cksum_verify((const struct rte_ipv4_hdr *)(f + l3), f + l4);
}

/*
 * Stream @p json (one stream) stamped with @p tsc: @p want 1 (stamped,
 * the checksum still verifies, the stamp reads back) or 0 (unchanged).
 */
static void
stamp_case(const char *json, uint32_t l3, bool v6, uint32_t l4, uint32_t tsc, int want)
{
	char err[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p = pvp_profile_load_str(json, "<test>", err, sizeof(err));
	const struct pvp_tmpl *t;
	const struct pvp_sig *sig;
	struct rte_mbuf m;
	uint8_t before[2048];
	int got;

	unit_check_case = json;
	CHECK(p != NULL, "%s", err);
	if (p == NULL)
		return;
	t = &p->streams[0].tmpl[0];
	mbuf_over(&m, t->data, t->len);
	pvp_sig_stamp(t, mem + 128, 77, 0x12345678);
	memcpy(before, mem + 128, t->len);
	CHECK(l4_verify(mem + 128, l3, v6, l4) == 0, "the template's checksum");
	got = pvp_sig_guest_stamp(&m, tsc);
	CHECK(got == want, "stamped %d, want %d", got, want);
	sig = pvp_sig_find(&m);
	CHECK(sig != NULL && sig->tx_ts == 0x12345678 && rte_be_to_cpu_32(sig->seq) == 77,
	      "the signature is kept");
	if (want == 1) {
		CHECK(pvp_sig_guest_stamp_read(&m, sig) == (tsc != 0 ? tsc : 1), "read back %#x",
		      sig != NULL ? pvp_sig_guest_stamp_read(&m, sig) : 0);
		CHECK(l4_verify(mem + 128, l3, v6, l4) == 0, "the checksum verifies after");
		/* Nothing but the slot and the checksum changed. */
		CHECK(memcmp(before, mem + 128, t->sig_off + PVP_SIG_LEN) == 0 ||
			      memcmp(before, mem + 128, l4) == 0,
		      "headers kept");
	} else {
		CHECK(memcmp(before, mem + 128, t->len) == 0, "frame unchanged");
		CHECK(sig == NULL || pvp_sig_guest_stamp_read(&m, sig) == 0, "no stamp read");
	}
	pvp_profile_free(p);
	unit_check_case = NULL;
}

static void
test_stamp_frames(void)
{
	const uint32_t e = RTE_ETHER_HDR_LEN;

	stamp_case("{\"streams\": [{\"size\": 64}]}", e, false, e + 20, 0xdeadbeef, 1);
	stamp_case("{\"streams\": [{\"size\": 64}]}", e, false, e + 20, 0, 1);
	stamp_case("{\"streams\": [{\"size\": 512}]}", e, false, e + 20, 0xfffefffe, 1);
	stamp_case("{\"streams\": [{\"size\": 128, \"headers\": {\"tcp\": {}}}]}", e, false, e + 20,
		   0x01020304, 1);
	stamp_case("{\"streams\": [{\"size\": 96, \"headers\": {\"ipv6\": {}}}]}", e, true, e + 40,
		   0xa5a5a5a5, 1);
	stamp_case("{\"streams\": [{\"size\": 68, \"headers\": {\"vlan\": 10}}]}", e + 4, false,
		   e + 24, 0x11111111, 1);
	/* One VLAN tag in 64 B leaves no room after the signature. */
	stamp_case("{\"streams\": [{\"size\": 64, \"headers\": {\"vlan\": 10}}]}", e + 4, false,
		   e + 24, 0x11111111, 0);
}

/* A UDP checksum of 0 ("none") stays 0; one that comes out 0 is 0xffff. */
static void
test_stamp_udp_zero(void)
{
	char err[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p =
		pvp_profile_load_str("{\"streams\": [{\"size\": 64}]}", "<test>", err, sizeof(err));
	const uint32_t l4 = RTE_ETHER_HDR_LEN + 20;
	const struct pvp_tmpl *t;
	struct rte_mbuf m;
	uint32_t tsc;

	CHECK(p != NULL, "%s", err);
	if (p == NULL)
		return;
	t = &p->streams[0].tmpl[0];
	mbuf_over(&m, t->data, t->len);
	mem[128 + l4 + 6] = mem[128 + l4 + 7] = 0;
	CHECK(pvp_sig_guest_stamp(&m, 0x55667788) == 1, "stamped without a checksum");
	CHECK(mem[128 + l4 + 6] == 0 && mem[128 + l4 + 7] == 0, "UDP checksum 0 kept");
	/* Find a stamp whose checksum sums to 0: it must be sent as 0xffff. */
	for (tsc = 1; tsc < 0x20000; tsc++) {
		mbuf_over(&m, t->data, t->len);
		pvp_sig_guest_stamp(&m, tsc);
		if (mem[128 + l4 + 6] == 0xff && mem[128 + l4 + 7] == 0xff)
			break;
		CHECK(mem[128 + l4 + 6] != 0 || mem[128 + l4 + 7] != 0, "checksum 0 for %#x", tsc);
	}
	CHECK(tsc < 0x20000, "a stamp giving 0xffff found");
	CHECK(rte_ipv4_udptcp_cksum_verify((const struct rte_ipv4_hdr *)(mem + 128 + 14),
					   mem + 128 + l4) == 0,
	      "0xffff verifies");
	pvp_profile_free(p);
}

/* Arbitrary bytes, cut anywhere: a stamp writes its slot and the L4 checksum only. */
static void
test_stamp_garbage(void)
{
	char err[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p = pvp_profile_load_str(
		"{\"streams\": [{\"size\": 64}, {\"size\": 96, \"headers\": {\"ipv6\": {}, "
		"\"tcp\": {}}}]}",
		"<test>", err, sizeof(err));
	uint8_t before[256];
	struct rte_mbuf m;
	unsigned int i, k, changed, stamped = 0;

	CHECK(p != NULL, "%s", err);
	if (p == NULL)
		return;
	srand(1);
	for (i = 0; i < 200000; i++) {
		const struct pvp_tmpl *t = &p->streams[i & 1].tmpl[0];
		uint32_t len = t->len - (uint32_t)(rand() % 8 == 0 ? rand() % t->len : 0);

		memcpy(before, t->data, t->len);
		for (k = 0; k < 1 + (unsigned int)(rand() % 3); k++)
			before[rand() % t->len] = (uint8_t)rand();
		mbuf_over(&m, before, len);
		if (pvp_sig_guest_stamp(&m, (uint32_t)rand()) == 1)
			stamped++;
		for (k = 0, changed = 0; k < len; k++)
			changed += mem[128 + k] != before[k];
		CHECK(changed <= PVP_SIG_STAMP_LEN + 2, "case %u: %u bytes changed", i, changed);
	}
	CHECK(stamped > 1000, "%u of the mutated frames stamped", stamped);
	pvp_profile_free(p);
}

static void
sample(struct pvp_clock_sample *c, uint64_t hz, uint64_t tsc, uint64_t mono, const char *boot)
{
	memset(c, 0, sizeof(*c));
	c->hz = hz;
	c->tsc = tsc;
	c->mono_ns = mono;
	snprintf(c->boot_id, sizeof(c->boot_id), "%s", boot);
}

static void
test_clock_same(void)
{
	const char *b = "0f6c5b57-4bd8-4b8b-9b5e-1e1bd4f1f5a1";
	struct pvp_clock_sample own, peer;
	char why[160];
	double off;
	json_t *j;

	/* The peer sampled 1 ms earlier: 2.5 M cycles at 2.5 GHz. */
	sample(&own, 2500000000, 10002500000, 5001000000, b);
	sample(&peer, 2500000000, 10000000000, 5000000000, b);
	CHECK(pvp_clock_same(&own, NULL, &peer, &off, why, sizeof(why)) && off > -1 && off < 1,
	      "one clock: offset %.1f ns", off);
	/* A host up for 30 years (mono about 9.5e17 ns, TSC about 2.4e18): still to the ns. */
	sample(&own, 2500000000, 2365200000002499963, 946080000001000037, b);
	sample(&peer, 2500000000, 2365200000000000123, 946080000000000101, b);
	CHECK(pvp_clock_same(&own, NULL, &peer, &off, why, sizeof(why)) && off > -1 && off < 1,
	      "30 years up: offset %.1f ns", off);
	sample(&own, 2500000000, 10002500000, 5001000000, b);
	/* 5 us apart: another clock. */
	sample(&peer, 2500000000, 10000000000 - 12500, 5000000000, b);
	why[0] = '\0';
	CHECK(!pvp_clock_same(&own, NULL, &peer, &off, why, sizeof(why)) && off > 4999 &&
		      off < 5001 && strstr(why, "5000 ns apart") != NULL,
	      "5 us apart: %s", why);
	sample(&peer, 2400000000, 10000000000, 5000000000, b);
	why[0] = '\0';
	CHECK(!pvp_clock_same(&own, NULL, &peer, &off, why, sizeof(why)) &&
		      strstr(why, "frequencies differ") != NULL,
	      "hz: %s", why);
	sample(&peer, 2500000000, 10000000000, 5000000000, "another-boot");
	why[0] = '\0';
	CHECK(!pvp_clock_same(&own, NULL, &peer, &off, why, sizeof(why)) &&
		      strstr(why, "boot ids differ") != NULL,
	      "boot: %s", why);
	/* The JSON form, and what it refuses. */
	j = pvp_clock_sample_json(&own);
	CHECK(j != NULL && pvp_clock_sample_from_json(j, &peer, why, sizeof(why)) == 0 &&
		      memcmp(&own, &peer, sizeof(own)) == 0,
	      "JSON round trip");
	json_object_set_new(j, "tsc_hz", json_integer(0));
	why[0] = '\0';
	CHECK(pvp_clock_sample_from_json(j, &peer, why, sizeof(why)) == -EINVAL &&
		      strstr(why, "tsc_hz (> 0)") != NULL,
	      "tsc_hz 0: %s", why);
	json_decref(j);
	CHECK(pvp_clock_sample_from_json(NULL, &peer, why, sizeof(why)) == -EINVAL, "NULL");
}

int
main(void)
{
	test_stamp_frames();
	test_stamp_udp_zero();
	test_stamp_garbage();
	test_clock_same();
	printf("%d checks, %d failures\n", unit_check_count, unit_check_failures);
	return unit_check_failures == 0 ? 0 : 1;
}
