/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * lib/pkt without the EAL: rates, latency histogram, sequence tracker,
 * IMIX, templates (header bytes and checksums recomputed with DPDK's own
 * functions), the field engine (exact flow counts, repeatable random,
 * tuple, incremental checksums) and the signature.
 */

#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

#include "pvp_pkt.h"
#include "../unit_check.h"

static inline uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ---- rates ---- */

static void
test_rate(void)
{
	static const struct {
		const char *s;
		int rc;
		enum pvp_rate_unit unit;
		double value;
	} cases[] = {
		{"1000", 0, PVP_RATE_PPS, 1000},
		{"1.5M", 0, PVP_RATE_PPS, 1.5e6},
		{"500kpps", 0, PVP_RATE_PPS, 5e5},
		{"1Mpps", 0, PVP_RATE_PPS, 1e6},
		{"14.88MPPS", 0, PVP_RATE_PPS, 14.88e6},
		{"10Gbps", 0, PVP_RATE_BPS_L1, 1e10},
		{"10gbps-l1", 0, PVP_RATE_BPS_L1, 1e10},
		{"9.5Gbps-l2", 0, PVP_RATE_BPS_L2, 9.5e9},
		{"100Mbps", 0, PVP_RATE_BPS_L1, 1e8},
		{"50%", 0, PVP_RATE_PERCENT, 50},
		{"100%", 0, PVP_RATE_PERCENT, 100},
		{"max", 0, PVP_RATE_MAX, 0},
		{"MAX", 0, PVP_RATE_MAX, 0},
		{"", -EINVAL, 0, 0},
		{"fast", -EINVAL, 0, 0},
		{"10 Gbps", -EINVAL, 0, 0},
		{"Mpps", -EINVAL, 0, 0},
		{"10Gbpsx", -EINVAL, 0, 0},
		{"0", -ERANGE, 0, 0},
		{"-5kpps", -ERANGE, 0, 0},
		{"101%", -ERANGE, 0, 0},
		{"nan", -ERANGE, 0, 0},
		{"inf", -ERANGE, 0, 0},
	};
	struct pvp_rate r;
	char err[128], buf[64];
	unsigned int i;
	double pps;

	for (i = 0; i < RTE_DIM(cases); i++) {
		int rc;

		err[0] = '\0';
		rc = pvp_rate_parse(cases[i].s, &r, err, sizeof(err));
		CHECK(rc == cases[i].rc, "\"%s\": rc %d, want %d (%s)", cases[i].s, rc, cases[i].rc,
		      err);
		if (rc == 0 && cases[i].rc == 0) {
			CHECK(r.unit == cases[i].unit, "\"%s\": unit %d", cases[i].s, r.unit);
			CHECK(fabs(r.value - cases[i].value) < 1e-6 * (cases[i].value + 1),
			      "\"%s\": value %g", cases[i].s, r.value);
		}
		if (rc != 0)
			CHECK(err[0] != '\0', "\"%s\": no message", cases[i].s);
	}
	/* Format round trip. */
	pvp_rate_parse("1.5Mpps", &r, NULL, 0);
	pvp_rate_format(&r, buf, sizeof(buf));
	CHECK(strcmp(buf, "1.5Mpps") == 0, "%s", buf);
	pvp_rate_parse("9.5Gbps-l2", &r, NULL, 0);
	pvp_rate_format(&r, buf, sizeof(buf));
	CHECK(strcmp(buf, "9.5Gbps-l2") == 0, "%s", buf);
	pvp_rate_parse("10Gbps", &r, NULL, 0);
	pvp_rate_format(&r, buf, sizeof(buf));
	CHECK(strcmp(buf, "10Gbps") == 0, "%s", buf);

	/* 10G line rate at 64 B (FCS included): 14880952.38 pps. */
	CHECK(pvp_rate_to_pps(&r, 64, 0, &pps) == 0 && fabs(pps - 14880952.38) < 0.01, "%f", pps);
	pvp_rate_parse("100%", &r, NULL, 0);
	CHECK(pvp_rate_to_pps(&r, 64, 10000000000ULL, &pps) == 0 && fabs(pps - 14880952.38) < 0.01,
	      "%f", pps);
	CHECK(pvp_rate_to_pps(&r, 64, 0, &pps) == -EINVAL, "%% without a link speed");
	pvp_rate_parse("50%", &r, NULL, 0);
	CHECK(pvp_rate_to_pps(&r, 1518, 10000000000ULL, &pps) == 0 && fabs(pps - 406371.91) < 0.01,
	      "%f", pps);
	pvp_rate_parse("10Gbps-l2", &r, NULL, 0);
	CHECK(pvp_rate_to_pps(&r, 64, 0, &pps) == 0 && fabs(pps - 19531250) < 0.01, "%f", pps);
	pvp_rate_parse("max", &r, NULL, 0);
	CHECK(pvp_rate_to_pps(&r, 64, 0, &pps) == 0 && isinf(pps), "%f", pps);
	CHECK(pvp_rate_to_pps(&r, 64, 40000000000ULL, &pps) == 0 && fabs(pps - 59523809.52) < 0.01,
	      "%f", pps);
	CHECK(fabs(pvp_rate_l1_bps(14880952.380952, 64) - 1e10) < 1, "l1");
	CHECK(fabs(pvp_rate_l2_bps(1, 64) - 512) < 1e-9, "l2");
}

/* ---- latency ---- */

static void
test_lat(void)
{
	static struct pvp_lat l, l2;
	struct pvp_lat_summary s;
	uint64_t v;
	unsigned int i;

	/* Buckets: contiguous, monotonic, exact below 32. */
	for (v = 0; v < 32; v++)
		CHECK(pvp_lat_bucket(v) == v && pvp_lat_bucket_low(v) == v, "%" PRIu64, v);
	for (v = 1; v < (UINT64_C(1) << 40); v = v * 3 / 2 + 1) {
		unsigned int b = pvp_lat_bucket(v);

		CHECK(pvp_lat_bucket_low(b) <= v && v < pvp_lat_bucket_low(b + 1), "v %" PRIu64, v);
		/* Width within 1/32 of the value. */
		CHECK(pvp_lat_bucket_low(b + 1) - pvp_lat_bucket_low(b) <= v / 32 + 1,
		      "width at %" PRIu64, v);
	}
	CHECK(pvp_lat_bucket(UINT64_MAX) == PVP_LAT_NB_BUCKETS - 1, "last");

	pvp_lat_init(&l);
	pvp_lat_read(&l, &s);
	CHECK(s.count == 0 && s.min == 0 && s.p99 == 0, "empty");
	/* 1..10000 ns once each. */
	for (v = 1; v <= 10000; v++)
		pvp_lat_update(&l, v);
	pvp_lat_read(&l, &s);
	CHECK(s.count == 10000 && s.min == 1 && s.max == 10000 && s.avg == 5000, "basic %" PRIu64,
	      s.avg);
	CHECK(llabs((long long)s.p50 - 5000) <= 5000 / 32, "p50 %" PRIu64, s.p50);
	CHECK(llabs((long long)s.p90 - 9000) <= 9000 / 32, "p90 %" PRIu64, s.p90);
	CHECK(llabs((long long)s.p99 - 9900) <= 9900 / 32, "p99 %" PRIu64, s.p99);
	CHECK(llabs((long long)s.p99_9 - 9990) <= 9990 / 32, "p99.9 %" PRIu64, s.p99_9);
	CHECK(pvp_lat_percentile(&l, 100) == 10000, "p100");

	/* Small values are exact: 99 x 10 ns and 1 x 20 ns. */
	pvp_lat_init(&l);
	for (i = 0; i < 99; i++)
		pvp_lat_update(&l, 10);
	pvp_lat_update(&l, 20);
	pvp_lat_read(&l, &s);
	CHECK(s.p50 == 10 && s.p99 == 10 && s.p99_9 == 20 && s.max == 20,
	      "exact %" PRIu64 " %" PRIu64, s.p99, s.p99_9);
	/* RFC 3550 jitter of a constant latency is 0. */
	CHECK(s.jitter == 0 || s.jitter <= 1, "jitter %" PRIu64, s.jitter);

	/* Alternating 1000/2000: |D| = 1000 always, J converges to 1000. */
	pvp_lat_init(&l);
	for (i = 0; i < 2000; i++)
		pvp_lat_update(&l, i & 1 ? 2000 : 1000);
	pvp_lat_read(&l, &s);
	CHECK(s.jitter >= 990 && s.jitter <= 1000, "jitter %" PRIu64, s.jitter);

	/* Merge. */
	pvp_lat_init(&l);
	pvp_lat_init(&l2);
	for (v = 1; v <= 100; v++)
		pvp_lat_update(v <= 50 ? &l : &l2, v * 1000);
	pvp_lat_merge(&l, &l2);
	pvp_lat_read(&l, &s);
	CHECK(s.count == 100 && s.min == 1000 && s.max == 100000 && s.avg == 50500, "merge");
	CHECK(llabs((long long)s.p50 - 50000) <= 50000 / 32, "merge p50 %" PRIu64, s.p50);
}

/* ---- sequence tracker ---- */

static void
test_seq(void)
{
	static struct pvp_seq s;
	uint32_t base, i;

	/* 0..99 with 10 and 20 dropped, 30 duplicated, 40/41 swapped. */
	pvp_seq_init(&s);
	for (i = 0; i < 100; i++) {
		if (i == 10 || i == 20)
			continue;
		if (i == 40) {
			pvp_seq_update(&s, 41);
			pvp_seq_update(&s, 40);
			i++;
			continue;
		}
		pvp_seq_update(&s, i);
		if (i == 30)
			pvp_seq_update(&s, 30);
	}
	/* Three arrivals skipped numbers: 11, 21 and 41 (TRex's seq_too_high). */
	CHECK(s.rx == 99 && s.dup == 1 && s.ooo == 1 && s.gaps == 2 && s.jumps == 3,
	      "rx %" PRIu64 " dup %" PRIu64 " ooo %" PRIu64 " gaps %" PRIu64 " jumps %" PRIu64,
	      s.rx, s.dup, s.ooo, s.gaps, s.jumps);
	CHECK(pvp_seq_lost(&s, 100) == 2, "lost %" PRIu64, pvp_seq_lost(&s, 100));

	/* Across the 2^32 wrap, with one loss right at it. */
	pvp_seq_init(&s);
	base = UINT32_MAX - 49;
	for (i = 0; i < 100; i++)
		if (base + i != 0)
			pvp_seq_update(&s, base + i);
	CHECK(s.rx == 99 && s.dup == 0 && s.ooo == 0 && s.gaps == 1, "wrap gaps %" PRIu64, s.gaps);
	/* A late packet from before the wrap, and the lost one arriving late. */
	pvp_seq_update(&s, UINT32_MAX - 3);
	pvp_seq_update(&s, 0);
	CHECK(s.dup == 1 && s.ooo == 1 && s.gaps == 0, "wrap late dup %" PRIu64 " ooo %" PRIu64,
	      s.dup, s.ooo);
	CHECK(pvp_seq_lost(&s, 100) == 0, "wrap lost");

	/* Big jump (more than the window) then continuing: exact gaps. */
	pvp_seq_init(&s);
	pvp_seq_update(&s, 5);
	pvp_seq_update(&s, 5 + 100000);
	pvp_seq_update(&s, 5 + 100001);
	CHECK(s.gaps == 99999 && s.dup == 0 && s.ooo == 0, "jump %" PRIu64, s.gaps);
	/* Duplicate of a number far older than the window: counted late. */
	pvp_seq_update(&s, 5);
	CHECK(s.ooo == 1 && s.dup == 0, "old");

	/* Pseudo-random reference: each of 200000 packets dropped with p=1/100,
	 * duplicated with 1/200 and delayed by up to 100 positions with 1/50. */
	{
		enum { N = 200000 };
		static uint32_t out[2 * N];
		uint64_t x = 42, dropped = 0, dups = 0;
		uint32_t n = 0, k;

		pvp_seq_init(&s);
		for (i = 0; i < N; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			k = (uint32_t)(x >> 33);
			if (k % 100 == 0 && i != 0) {
				dropped++;
				continue;
			}
			out[n++] = i;
			if (k % 200 == 1) {
				out[n++] = i;
				dups++;
			}
		}
		/* Delay some packets: move out[j] later by d positions. */
		x = 7;
		for (k = 0; k + 101 < n; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			if ((x >> 33) % 50 == 0) {
				uint32_t d = 1 + (uint32_t)((x >> 40) % 100), t = out[k], j;

				for (j = k; j < k + d; j++)
					out[j] = out[j + 1];
				out[k + d] = t;
				k += d;
			}
		}
		for (k = 0; k < n; k++)
			pvp_seq_update(&s, out[k] + 0xfffff000u); /* crosses the wrap */
		CHECK(s.rx == n && s.dup == dups, "ref dup %" PRIu64 " want %" PRIu64, s.dup, dups);
		CHECK(pvp_seq_lost(&s, N) == dropped, "ref lost %" PRIu64 " want %" PRIu64,
		      pvp_seq_lost(&s, N), dropped);
		CHECK(s.gaps == dropped, "ref gaps %" PRIu64 " want %" PRIu64, s.gaps, dropped);
		CHECK(s.ooo > 0, "ref ooo");
	}
}

/* ---- IMIX ---- */

static void
test_imix(void)
{
	uint32_t order[64], cnt[3] = {0}, n, i, run = 0, maxrun = 0;
	struct pvp_imix custom[2] = {{.size = 64, .weight = 3}, {.size = 1518, .weight = 1}};

	CHECK(pvp_imix_cycle_len(pvp_imix_trex, 3) == 12, "cycle");
	n = pvp_imix_expand(pvp_imix_trex, 3, order);
	CHECK(n == 12, "n %u", n);
	for (i = 0; i < n; i++) {
		cnt[order[i]]++;
		run = (i > 0 && order[i] == order[i - 1]) ? run + 1 : 1;
		if (run > maxrun)
			maxrun = run;
	}
	CHECK(cnt[0] == 7 && cnt[1] == 4 && cnt[2] == 1, "%u %u %u", cnt[0], cnt[1], cnt[2]);
	CHECK(maxrun <= 2, "clustered: run of %u", maxrun);
	n = pvp_imix_expand(custom, 2, order);
	CHECK(n == 4 && order[0] + order[1] + order[2] + order[3] == 1, "custom");
	/* Weights whose sum passes 2^32 saturate rather than wrap (to 1 here). */
	custom[0].weight = UINT32_MAX;
	custom[1].weight = 2;
	CHECK(pvp_imix_cycle_len(custom, 2) == UINT32_MAX, "cycle %u",
	      pvp_imix_cycle_len(custom, 2));
}

/* ---- templates and the field engine ---- */

/* Every IPv4 header and L4 checksum of a frame is valid (DPDK's own
 * functions); a zero UDP checksum is allowed only as the outer one of
 * VXLAN over IPv4. */
static int
frame_ok(const uint8_t *d, uint32_t len, char *why, size_t whylen)
{
	struct pvp_pkt_layout lay;

	if (pvp_pkt_parse(d, len, &lay) != 0 || lay.l4_off == 0) {
		snprintf(why, whylen, "does not parse");
		return 0;
	}
	for (int lvl = 0; lvl < 2; lvl++) {
		uint16_t l3 = lvl ? lay.in_l3_off : lay.l3_off;
		uint16_t l4 = lvl ? lay.in_l4_off : lay.l4_off;
		uint8_t ver = lvl ? lay.in_ip_ver : lay.ip_ver;
		uint8_t proto = lvl ? lay.in_l4_proto : lay.l4_proto;

		if (l3 == 0)
			continue;
		if (ver == 4 && rte_raw_cksum(d + l3, (d[l3] & 0xf) * 4) != 0xffff) {
			snprintf(why, whylen, "bad IPv4 checksum (level %d)", lvl);
			return 0;
		}
		if (proto == IPPROTO_UDP && rd16(d + l4 + 6) == 0) {
			if (ver == 4 && lvl == 0 && lay.in_l3_off != 0)
				continue;
			snprintf(why, whylen, "zero UDP checksum (level %d)", lvl);
			return 0;
		}
		if ((ver == 4 &&
		     rte_ipv4_udptcp_cksum_verify((const void *)(d + l3), d + l4) != 0) ||
		    (ver == 6 &&
		     rte_ipv6_udptcp_cksum_verify((const void *)(d + l3), d + l4) != 0)) {
			snprintf(why, whylen, "bad L4 checksum (level %d)", lvl);
			return 0;
		}
	}
	return 1;
}

static struct pvp_profile *
load(const char *json)
{
	char err[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p = pvp_profile_load_str(json, "<test>", err, sizeof(err));

	CHECK(p != NULL, "load failed: %s", err);
	return p;
}

static void
test_templates(void)
{
	struct pvp_profile *p;
	const struct pvp_tmpl *t;
	const struct pvp_sig *sig;
	char err[PVP_PKT_ERR_LEN] = "";
	char why[64];
	const uint8_t *d;

	/* Plain IPv4/UDP, 64 B: 60 bytes, TRex-like defaults. */
	p = load("{\"streams\": [{\"size\": 64}]}");
	if (p == NULL)
		return;
	t = &p->streams[0].tmpl[0];
	d = t->data;
	CHECK(t->len == 60 && t->size == 64, "len %u", t->len);
	CHECK(rd16(d + 12) == 0x0800 && d[14] == 0x45 && rd16(d + 16) == 46, "ipv4 total");
	CHECK(rd32(d + 26) == 0x10000001 && rd32(d + 30) == 0x30000001, "ips");
	CHECK(d[23] == IPPROTO_UDP && d[22] == 64, "proto/ttl");
	CHECK(rd16(d + 34) == 1025 && rd16(d + 36) == 12 && rd16(d + 38) == 26, "udp");
	CHECK(t->sig_off == 42 && rd32(d + 42) == PVP_SIG_MAGIC, "sig");
	CHECK(frame_ok(d, t->len, why, sizeof(why)), "%s", why);
	sig = pvp_sig_find_buf(d, t->len);
	CHECK(sig != NULL && (const uint8_t *)sig == d + 42, "find");
	CHECK(pvp_stream_min_size(&p->streams[0]) == 64, "min");
	pvp_profile_free(p);

	/* QinQ, IPv6, TCP, 128 B, header values from the profile. */
	p = load("{\"streams\": [{\"size\": 128, \"headers\": {"
		 "\"eth\": {\"src\": \"00:11:22:33:44:55\", \"dst\": \"66:77:88:99:aa:bb\"},"
		 "\"vlan\": [100, 200], \"ipv6\": {\"src\": \"2001:db8::10\", \"dst\": \"fd00::1\","
		 "\"ttl\": 9, \"tos\": 32}, \"tcp\": {\"sport\": 80, \"dport\": 8080}}}]}");
	if (p == NULL)
		return;
	t = &p->streams[0].tmpl[0];
	d = t->data;
	CHECK(t->len == 124, "len");
	CHECK(d[0] == 0x66 && d[5] == 0xbb && d[6] == 0x00 && d[11] == 0x55, "macs");
	CHECK(rd16(d + 12) == 0x88a8 && rd16(d + 14) == 100 && rd16(d + 16) == 0x8100 &&
		      rd16(d + 18) == 200 && rd16(d + 20) == 0x86dd,
	      "qinq");
	CHECK(d[22] == 0x62 && d[29] == 9 && d[28] == IPPROTO_TCP, "ipv6 hdr");
	CHECK(rd16(d + 26) == 124 - 22 - 40, "payload len");
	CHECK(d[45] == 0x10 && d[61] == 0x01, "addrs");
	CHECK(rd16(d + 62) == 80 && rd16(d + 64) == 8080 && d[62 + 12] == 0x50, "tcp");
	CHECK(t->sig_off == 82, "sig off %u", t->sig_off);
	CHECK(frame_ok(d, t->len, why, sizeof(why)), "%s", why);
	CHECK(pvp_stream_min_size(&p->streams[0]) == 100, "min %u",
	      pvp_stream_min_size(&p->streams[0]));
	pvp_profile_free(p);

	/* Too small for QinQ + IPv6 + TCP + signature. */
	p = pvp_profile_load_str("{\"streams\": [{\"size\": 99, \"headers\": {\"vlan\": [1, 2],"
				 " \"ipv6\": {}, \"tcp\": {}}}]}",
				 "<test>", err, sizeof(err));
	CHECK(p == NULL && strstr(err, "minimum 100") != NULL, "%s", err);

	/* VXLAN over IPv4 (outer UDP checksum 0) and over IPv6 (valid). */
	p = load("{\"streams\": [{\"size\": 128, \"headers\": {\"vxlan\": {\"vni\": 4242,"
		 "\"inner\": {\"ipv4\": {\"src\": \"192.168.0.1\"}, \"tcp\": {}}}}},"
		 "{\"size\": 200, \"headers\": {\"ipv6\": {}, \"vxlan\": {\"vni\": 7,"
		 "\"inner\": {\"vlan\": 5, \"ipv6\": {}, \"udp\": {\"dport\": 53}}}}}]}");
	if (p == NULL)
		return;
	t = &p->streams[0].tmpl[0];
	d = t->data;
	CHECK(rd16(d + 36) == PVP_PKT_VXLAN_PORT && rd16(d + 40) == 0 && d[42] == 0x08 &&
		      rd32(d + 46) >> 8 == 4242,
	      "vxlan hdr");
	CHECK(rd32(d + 26) == 0x0a000001 && rd32(d + 50 + 26) == 0xc0a80001, "outer/inner ip");
	CHECK(frame_ok(d, t->len, why, sizeof(why)), "%s", why);
	sig = pvp_sig_find_buf(d, t->len);
	CHECK(sig != NULL && (const uint8_t *)sig == d + t->sig_off &&
		      t->sig_off == 50 + 14 + 20 + 20,
	      "vxlan sig %u", t->sig_off);
	t = &p->streams[1].tmpl[0];
	d = t->data;
	CHECK(rd16(d + 14 + 40 + 6) != 0, "outer v6 udp csum");
	CHECK(frame_ok(d, t->len, why, sizeof(why)), "%s", why);
	sig = pvp_sig_find_buf(d, t->len);
	CHECK(sig != NULL && rte_be_to_cpu_16(sig->stream) == 1, "stream id");
	pvp_profile_free(p);
}

/* Key of a frame's varying fields: the (inner) 5-tuple and MACs. */
static void
flow_key(const uint8_t *d, uint32_t len, uint8_t key[64])
{
	struct pvp_pkt_layout lay;
	uint16_t l3, l4;

	memset(key, 0, 64);
	pvp_pkt_parse(d, len, &lay);
	l3 = lay.in_l3_off ? lay.in_l3_off : lay.l3_off;
	l4 = lay.in_l4_off ? lay.in_l4_off : lay.l4_off;
	if ((lay.in_l3_off ? lay.in_ip_ver : lay.ip_ver) == 4)
		memcpy(key, d + l3 + 12, 8);
	else
		memcpy(key, d + l3 + 8, 32);
	memcpy(key + 32, d + l4, 4);
	memcpy(key + 36, d, 12);
}

static int
cmp_key(const void *a, const void *b)
{
	return memcmp(a, b, 64);
}

static uint64_t
count_distinct(const struct pvp_stream *s, uint64_t n)
{
	const struct pvp_tmpl *t = &s->tmpl[0];
	uint8_t(*keys)[64] = malloc(n * 64), *buf = malloc(t->len);
	uint64_t i, d = 0;

	for (i = 0; i < n; i++) {
		/* The sender counts flows modulo s->flows. */
		pvp_flow_build(s, t, i % s->flows, buf);
		flow_key(buf, t->len, keys[i]);
	}
	qsort(keys, n, 64, cmp_key);
	for (i = 0; i < n; i++)
		if (i == 0 || memcmp(keys[i], keys[i - 1], 64) != 0)
			d++;
	free(keys);
	free(buf);
	return d;
}

/* Every flow's image, built or applied over another flow's image and
 * stamped, has valid checksums and the same bytes either way. */
static void
check_engine(const struct pvp_stream *s, uint64_t nflows, const char *what)
{
	uint32_t ti;

	for (ti = 0; ti < s->n_tmpl; ti++) {
		const struct pvp_tmpl *t = &s->tmpl[ti];
		uint8_t *a = malloc(t->len), *b = malloc(t->len);
		uint64_t f, bad = 0, diff = 0;
		char why[64] = "";

		memcpy(b, t->data, t->len);
		for (f = 0; f < nflows; f++) {
			uint64_t flow = (f * 7919) % s->flows;
			uint32_t seq = (uint32_t)(f * 2654435761u),
				 ts = (uint32_t)(f * 40503u + 17);

			pvp_flow_build(s, t, flow, a);
			pvp_sig_stamp(t, a, seq, ts);
			/* b holds the previous flow, already stamped. */
			pvp_flow_apply(s, t, flow, b);
			pvp_sig_stamp(t, b, seq, ts);
			/* Renumbering the stream and back keeps everything valid. */
			pvp_sig_set_stream(t, b, (uint16_t)(f * 31));
			if (!frame_ok(b, t->len, why, sizeof(why)))
				bad++;
			pvp_sig_set_stream(t, b, s->id);
			if (!frame_ok(a, t->len, why, sizeof(why)) ||
			    !frame_ok(b, t->len, why, sizeof(why)))
				bad++;
			if (memcmp(a, b, t->len) != 0) {
				/* A UDP checksum may be 0xffff one way and the
				 * same value computed differently: compare
				 * everything but valid checksums. */
				diff++;
			}
			if (t->sig_off != 0) {
				const struct pvp_sig *sig = pvp_sig_find_buf(a, t->len);

				if (sig == NULL || rte_be_to_cpu_32(sig->seq) != seq ||
				    sig->tx_ts != ts || rte_be_to_cpu_16(sig->stream) != s->id)
					bad++;
			}
		}
		CHECK(bad == 0, "%s tmpl %u: %" PRIu64 " bad frames (%s)", what, ti, bad, why);
		CHECK(diff == 0, "%s tmpl %u: %" PRIu64 " frames differ built vs applied", what, ti,
		      diff);
		free(a);
		free(b);
	}
}

static void
test_engine(void)
{
	struct pvp_profile *p, *q;
	char err[PVP_PKT_ERR_LEN] = "";
	const struct pvp_stream *s;
	uint16_t ports[2] = {0, 1};
	uint64_t i;
	int same = 1, differ = 0;

	/* flows=N on an inc var: exactly N distinct tuples, period N. */
	p = load("{\"streams\": [{\"flows\": 1000, \"vars\": [{\"field\": \"ipv4.src\","
		 "\"min\": \"10.0.0.1\", \"max\": \"10.0.255.255\"}, {\"field\": \"udp.sport\","
		 "\"min\": 1000, \"max\": 1999, \"op\": \"dec\"}]}]}");
	if (p == NULL)
		return;
	s = &p->streams[0];
	CHECK(s->flows == 1000 && s->n_vars == 2, "flows %" PRIu64, s->flows);
	CHECK(count_distinct(s, 1000) == 1000, "distinct");
	CHECK(pvp_var_value(&s->vars[0], 0) == 0x0a000001 &&
		      pvp_var_value(&s->vars[0], 5) == 0x0a000006,
	      "inc");
	CHECK(pvp_var_value(&s->vars[1], 0) == 1999 && pvp_var_value(&s->vars[1], 1) == 1998 &&
		      pvp_var_value(&s->vars[1], 1000) == 1999,
	      "dec");
	check_engine(s, 3000, "inc/dec");
	pvp_profile_free(p);

	/* Random: repeatable with a seed, a permutation of the range. */
	p = load("{\"streams\": [{\"vars\": [{\"field\": \"udp.dport\", \"op\": \"random\","
		 "\"min\": 100, \"max\": 5099, \"seed\": 7}]}]}");
	q = load("{\"streams\": [{\"vars\": [{\"field\": \"udp.dport\", \"op\": \"random\","
		 "\"min\": 100, \"max\": 5099, \"seed\": 7}]}, {\"vars\": [{\"field\": "
		 "\"udp.dport\","
		 "\"op\": \"random\", \"min\": 100, \"max\": 5099, \"seed\": 8}]}]}");
	if (p == NULL || q == NULL)
		return;
	s = &p->streams[0];
	CHECK(s->flows == 5000, "random flows %" PRIu64, s->flows);
	for (i = 0; i < 5000; i++) {
		uint32_t v = pvp_var_value(&s->vars[0], i);

		same &= v == pvp_var_value(&q->streams[0].vars[0], i);
		differ += v != pvp_var_value(&q->streams[1].vars[0], i);
		CHECK(v >= 100 && v <= 5099, "range %u", v);
	}
	CHECK(same, "seeded random not repeatable");
	CHECK(differ > 4000, "another seed gives another order (%d)", differ);
	CHECK(count_distinct(s, 5000) == 5000, "random distinct");
	/* Not just increments: few consecutive values are adjacent. */
	{
		int adj = 0;

		for (i = 1; i < 5000; i++)
			adj += pvp_var_value(&s->vars[0], i) ==
			       pvp_var_value(&s->vars[0], i - 1) + 1;
		CHECK(adj < 50, "random looks sequential (%d)", adj);
	}
	check_engine(s, 5000, "random");
	pvp_profile_free(p);
	pvp_profile_free(q);

	/* Tuple: 10 source IPs x 5 source ports = 50 flows, IP fastest. */
	p = load("{\"streams\": [{\"headers\": {\"tcp\": {}}, \"tuple\": {\"src_ip\":"
		 "[\"16.0.0.1\", \"16.0.0.10\"], \"sport\": [1025, 1029]}}]}");
	if (p == NULL)
		return;
	s = &p->streams[0];
	CHECK(s->flows == 50 && s->n_vars == 2, "tuple flows %" PRIu64, s->flows);
	CHECK(count_distinct(s, 50) == 50 && count_distinct(s, 100) == 50, "tuple distinct");
	CHECK(pvp_var_value(&s->vars[0], 11) == 0x10000002 &&
		      pvp_var_value(&s->vars[1], 11) == 1026,
	      "tuple nesting");
	check_engine(s, 200, "tuple");
	pvp_profile_free(p);
	p = pvp_profile_load_str("{\"streams\": [{\"flows\": 51, \"tuple\": {\"src_ip\":"
				 "[\"16.0.0.1\", \"16.0.0.10\"], \"sport\": [1025, 1029]}}]}",
				 "<t>", err, sizeof(err));
	CHECK(p == NULL && strstr(err, "only 50 distinct") != NULL, "%s", err);

	/* Bare flows on every header kind, including VXLAN over IPv6 where
	 * the outer UDP checksum covers the inner checksums too. */
	{
		static const char *const kinds[] = {
			"{\"streams\": [{\"flows\": 300, \"size\": 1518}]}",
			"{\"streams\": [{\"flows\": 300, \"headers\": {\"vlan\": 7, \"ipv6\": {}, "
			"\"tcp\": {}},"
			" \"size\": 100}]}",
			"{\"streams\": [{\"flows\": 300, \"imix\": [{\"size\": 128, \"weight\": "
			"3}, {\"size\": 1518, \"weight\": 1}], \"headers\": {\"vxlan\": {\"vni\": "
			"1,"
			" \"inner\": {\"tcp\": {}}}}}]}",
			"{\"streams\": [{\"flows\": 300, \"size\": 256, \"headers\": {\"ipv6\": "
			"{}, \"vxlan\":"
			" {\"inner\": {\"ipv6\": {}, \"udp\": {}}}}, \"vars\": [{\"field\": "
			"\"inner.udp.sport\","
			" \"min\": 1, \"max\": 65535, \"op\": \"random\", \"seed\": 3}, {\"field\":"
			" \"inner.ipv6.src\", \"min\": \"2001:db8::1:0\", \"max\": "
			"\"2001:db8::1:ffff\"},"
			" {\"field\": \"eth.src\", \"min\": 0, \"max\": 9}, {\"field\": "
			"{\"offset\": 120,"
			" \"len\": 1}, \"min\": 0, \"max\": 255, \"op\": \"dec\", \"step\": 3}]}]}",
			"{\"streams\": [{\"size\": 300, \"headers\": {\"vlan\": [1, 2]}, \"vars\": "
			"[{\"field\":"
			" \"vlan2.id\", \"min\": 1, \"max\": 4094}, {\"field\": \"ipv4.dst\", "
			"\"min\": 1,"
			" \"max\": 4294967295, \"op\": \"random\"}, {\"field\": {\"offset\": 81, "
			"\"len\": 4},"
			" \"min\": 0, \"max\": 4294967295, \"op\": \"random\", \"seed\": 99}]}]}",
		};
		unsigned int k;

		for (k = 0; k < RTE_DIM(kinds); k++) {
			char what[16];

			p = load(kinds[k]);
			if (p == NULL)
				continue;
			snprintf(what, sizeof(what), "kind %u", k);
			check_engine(&p->streams[0], 2000, what);
			if (k < 3)
				CHECK(p->streams[0].flows == 300 &&
					      count_distinct(&p->streams[0], 300) == 300,
				      "%s distinct", what);
			pvp_profile_free(p);
		}
	}

	/* The command-line shortcut. */
	p = pvp_profile_quick(64, 1000, ports, 2, err, sizeof(err));
	CHECK(p != NULL && p->n_streams == 2 && p->streams[1].port == 1 && p->streams[1].id == 1 &&
		      p->streams[0].flows == 1000,
	      "quick %s", err);
	if (p != NULL)
		CHECK(count_distinct(&p->streams[0], 1000) == 1000, "quick distinct");
	pvp_profile_free(p);
	CHECK(pvp_profile_quick(50, 1, ports, 1, err, sizeof(err)) == NULL &&
		      strcmp(err, "size 50 is out of range 64..9216 (frame size with FCS)") == 0,
	      "%s", err);
	CHECK(pvp_profile_quick(64, 5000000000ULL, ports, 1, err, sizeof(err)) == NULL &&
		      strstr(err, "command line: streams[0].flows: ") == err,
	      "%s", err);
	/* The message is optional: no buffer, or one of no room, is left alone. */
	CHECK(pvp_profile_quick(50, 1, ports, 1, NULL, 0) == NULL && errno == EINVAL,
	      "quick without a message");
	snprintf(err, sizeof(err), "untouched");
	CHECK(pvp_profile_load_str("{\"streams\": 1}", "<t>", err, 0) == NULL && errno == EINVAL &&
		      strcmp(err, "untouched") == 0,
	      "a buffer of size 0 written: %s", err);
	p = pvp_profile_quick(0, 1, ports, 1, err, sizeof(err));
	CHECK(p != NULL && p->streams[0].n_tmpl == 3 && p->streams[0].n_order == 12 &&
		      fabs(p->streams[0].avg_size - (64.0 * 7 + 594 * 4 + 1518) / 12) < 1e-9,
	      "quick imix");
	if (p != NULL) {
		uint32_t cnt[3] = {0};

		for (i = 0; i < 12 * 4; i++)
			cnt[pvp_stream_tmpl(&p->streams[0], i) - p->streams[0].tmpl]++;
		CHECK(cnt[0] == 28 && cnt[1] == 16 && cnt[2] == 4, "imix 28:16:4");
	}
	pvp_profile_free(p);
}

/*
 * A TABLE var (values computed elsewhere, e.g. TRex's engine) on a raw
 * frame: flow f writes table[f % period], the IPv4 and UDP checksums
 * follow, and a var without its table is refused.
 */
static void
test_table(void)
{
	static uint32_t tab[3] = {0x0a000009, 0x0a000001, 0x0a000005};
	uint8_t frame[60] = {0}, buf[60];
	struct pvp_stream s;
	char msg[PVP_PKT_ERR_LEN];
	uint64_t f;

	/* Ethernet / IPv4 (total length 46) / UDP 1025 -> 12. */
	frame[12] = 0x08;
	frame[14] = 0x45;
	frame[17] = 46;
	frame[22] = 64;
	frame[23] = 17;
	frame[26] = 10;
	frame[30] = 48;
	frame[34] = 0x04;
	frame[35] = 0x01;
	frame[37] = 12;
	frame[39] = 26;
	memset(&s, 0, sizeof(s));
	s.n_vars = 1;
	s.vars[0] = (struct pvp_var){.offset = 26,
				     .len = 4,
				     .op = PVP_VAR_TABLE,
				     .min = 0x0a000001,
				     .max = 0x0a000009,
				     .step = 1,
				     .div = 1,
				     .period = 3,
				     .table = tab};
	s.flows = 3;
	CHECK(pvp_stream_build_raw(&s, frame, sizeof(frame), true, msg, sizeof(msg)) == 0, "%s",
	      msg);
	for (f = 0; s.tmpl != NULL && f < 7; f++) {
		struct pvp_pkt_layout lay;

		pvp_flow_build(&s, &s.tmpl[0], f, buf);
		CHECK(pvp_var_value(&s.vars[0], f) == tab[f % 3] && buf[29] == (tab[f % 3] & 0xff),
		      "table flow %" PRIu64, f);
		CHECK(pvp_pkt_parse(buf, sizeof(buf), &lay) == 0 &&
			      rte_raw_cksum(buf + 14, 20) == 0xffff,
		      "table flow %" PRIu64 ": IPv4 checksum", f);
	}
	free(s.tmpl != NULL ? s.tmpl[0].data : NULL);
	free(s.tmpl);
	free(s.order);
	/* keep_csum: the frame's (zero) checksums stay, only the var's bytes move. */
	s.keep_csum = true;
	CHECK(pvp_stream_build_raw(&s, frame, sizeof(frame), true, msg, sizeof(msg)) == 0 &&
		      s.tmpl[0].sig_off == 0,
	      "%s", msg);
	for (f = 0; s.tmpl != NULL && f < 4; f++) {
		pvp_flow_build(&s, &s.tmpl[0], f, buf);
		CHECK(buf[29] == (tab[f % 3] & 0xff) && buf[24] == 0 && buf[25] == 0 &&
			      buf[40] == 0 && buf[41] == 0,
		      "keep_csum flow %" PRIu64, f);
	}
	free(s.tmpl != NULL ? s.tmpl[0].data : NULL);
	free(s.tmpl);
	free(s.order);
	s.keep_csum = false;
	s.tmpl = NULL;
	s.order = NULL;
	s.vars[0].table = NULL;
	CHECK(pvp_stream_build_raw(&s, frame, sizeof(frame), true, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "a table of period >= 1") != NULL,
	      "%s", msg);
	free(s.tmpl);
	free(s.order);
}

/* pvp_sig_find() on an mbuf laid over a plain buffer (no EAL). */
static void
test_sig_mbuf(void)
{
	static uint8_t mem[2048];
	struct rte_mbuf m;
	struct pvp_profile *p = load("{\"streams\": [{\"size\": 64}, {\"size\": 64}]}");
	const struct pvp_tmpl *t;
	const struct pvp_sig *sig;

	if (p == NULL)
		return;
	t = &p->streams[1].tmpl[0];
	memset(&m, 0, sizeof(m));
	m.buf_addr = mem;
	m.data_off = 128;
	m.buf_len = sizeof(mem);
	memcpy(mem + 128, t->data, t->len);
	m.data_len = t->len;
	m.pkt_len = t->len;
	m.nb_segs = 1;
	pvp_sig_stamp(t, mem + 128, 123456, 99);
	sig = pvp_sig_find(&m);
	CHECK(sig != NULL && rte_be_to_cpu_16(sig->stream) == 1 &&
		      rte_be_to_cpu_32(sig->seq) == 123456 && sig->tx_ts == 99,
	      "mbuf sig");
	/* Wrong magic, truncated frame. */
	mem[128 + t->sig_off] ^= 1;
	CHECK(pvp_sig_find(&m) == NULL, "magic");
	mem[128 + t->sig_off] ^= 1;
	m.data_len = t->sig_off + 10;
	mem[128 + 17] = 0x20; /* IP total length no longer fits */
	CHECK(pvp_sig_find(&m) == NULL, "short");
	pvp_profile_free(p);
}

/*
 * IP packets without a UDP/TCP header (CSIT's Ether/IP(proto 61) latency
 * streams): the signature goes at the packet's end, where TRex puts its
 * own, and the receiver finds it there; an IP payload shorter than the
 * signature gets none. @ver 4 or 6, @payload bytes after the IP header.
 */
static void
sig_tail(uint8_t ver, uint16_t payload, bool want)
{
	uint8_t f[128] = {0};
	uint16_t l3 = RTE_ETHER_HDR_LEN, hl = ver == 4 ? 20 : 40, len = l3 + hl + payload;
	char msg[PVP_PKT_ERR_LEN] = "";
	struct pvp_stream s;
	const struct pvp_sig *sig;
	uint8_t d[128];
	uint32_t i;

	memset(&s, 0, sizeof(s));
	s.id = 7;
	f[12] = ver == 4 ? 0x08 : 0x86;
	f[13] = ver == 4 ? 0x00 : 0xdd;
	if (ver == 4) {
		f[l3] = 0x45;
		f[l3 + 3] = (uint8_t)(hl + payload);
		f[l3 + 8] = 64;
		f[l3 + 9] = 61;
	} else {
		f[l3] = 0x60;
		f[l3 + 5] = (uint8_t)payload;
		f[l3 + 6] = 61;
		f[l3 + 7] = 64;
	}
	CHECK(pvp_stream_build_raw(&s, f, len, true, msg, sizeof(msg)) == 0, "raw IPv%u: %s", ver,
	      msg);
	if (s.tmpl == NULL)
		return;
	CHECK(s.tmpl->sig_off == (want ? len - PVP_SIG_LEN : 0),
	      "IPv%u proto 61, %u B payload: signature at %u", ver, payload, s.tmpl->sig_off);
	memcpy(d, s.tmpl->data, s.tmpl->len);
	if (want) {
		pvp_sig_stamp(s.tmpl, d, 4242, 17);
		sig = pvp_sig_find_buf(d, s.tmpl->len);
		CHECK(sig != NULL && rte_be_to_cpu_16(sig->stream) == 7 &&
			      rte_be_to_cpu_32(sig->seq) == 4242,
		      "IPv%u proto 61: signature found at the end", ver);
		/* The IPv4 header and its checksum are untouched by it. */
		CHECK(memcmp(d + l3, s.tmpl->data + l3, hl) == 0, "IPv%u header kept", ver);
	} else {
		CHECK(pvp_sig_find_buf(d, s.tmpl->len) == NULL, "IPv%u: no signature", ver);
	}
	for (i = 0; i < s.n_tmpl; i++)
		free(s.tmpl[i].data);
	free(s.tmpl);
	free(s.order);
}

static void
test_sig_tail(void)
{
	sig_tail(4, 26, true);
	sig_tail(6, 14, true);
	sig_tail(4, 13, false);
}

/*
 * pvp_sig_find_inline() on a copy of @p d in a one-segment mbuf; the
 * pointer, if any, is into a static buffer.
 */
static const struct pvp_sig *
sig_find_inline(const uint8_t *d, uint16_t len)
{
	static uint8_t mem[2048];
	struct rte_mbuf m;

	memset(&m, 0, sizeof(m));
	m.buf_addr = mem;
	m.data_off = 128;
	m.buf_len = sizeof(mem);
	memcpy(mem + 128, d, len);
	m.data_len = len;
	m.pkt_len = len;
	m.nb_segs = 1;
	return pvp_sig_find_inline(&m);
}

/*
 * A TRex field engine that writes right after the UDP header (CSIT's
 * Geneve profiles vary the VNI there): the signature goes in the UDP
 * payload's last 14 bytes, where TRex puts its latency payload, the UDP
 * checksum stays valid, and both receivers (pvp_sig_find_buf() and the
 * packet path's pvp_sig_find_inline()) find it there. A var over both
 * places leaves no room.
 */
static void
test_sig_after_var(void)
{
	static uint32_t tab[2] = {0x00012300, 0x00045600};
	uint8_t frame[90] = {0}, d[90];
	char msg[PVP_PKT_ERR_LEN] = "";
	const struct pvp_sig *sig;
	struct pvp_stream s;

	/* Ethernet / IPv4 (total length 76) / UDP 1025 -> 6081 / 48 B. */
	frame[12] = 0x08;
	frame[14] = 0x45;
	frame[17] = 76;
	frame[22] = 64;
	frame[23] = 17;
	frame[26] = 10;
	frame[30] = 48;
	frame[34] = 0x04;
	frame[35] = 0x01;
	frame[36] = 0x17;
	frame[37] = 0xc1;
	frame[39] = 56;
	frame[40] = 1; /* a checksum to keep (zero means none over IPv4) */
	memset(&s, 0, sizeof(s));
	s.id = 3;
	s.n_vars = 1;
	s.vars[0] = (struct pvp_var){.offset = 46,
				     .len = 4,
				     .op = PVP_VAR_TABLE,
				     .min = tab[0],
				     .max = tab[1],
				     .step = 1,
				     .div = 1,
				     .period = 2,
				     .table = tab};
	s.flows = 2;
	CHECK(pvp_stream_build_raw(&s, frame, sizeof(frame), true, msg, sizeof(msg)) == 0, "%s",
	      msg);
	if (s.tmpl == NULL)
		return;
	CHECK(s.tmpl[0].sig_off == sizeof(frame) - PVP_SIG_LEN,
	      "var after UDP: signature at %u, not at the UDP payload's end", s.tmpl[0].sig_off);
	pvp_flow_build(&s, &s.tmpl[0], 1, d);
	pvp_sig_stamp(&s.tmpl[0], d, 777, 5);
	sig = pvp_sig_find_buf(d, sizeof(d));
	CHECK(sig != NULL && (const uint8_t *)sig == d + sizeof(d) - PVP_SIG_LEN &&
		      rte_be_to_cpu_16(sig->stream) == 3 && rte_be_to_cpu_32(sig->seq) == 777,
	      "signature found at the UDP payload's end");
	CHECK(d[47] == 0x04 && d[48] == 0x56 &&
		      rte_ipv4_udptcp_cksum_verify((const struct rte_ipv4_hdr *)(d + 14), d + 34) ==
			      0,
	      "var written, UDP checksum valid with the signature");
	sig = sig_find_inline(d, sizeof(d));
	CHECK(sig != NULL && rte_be_to_cpu_32(sig->seq) == 777, "packet path finds it too");
	free(s.tmpl[0].data);
	free(s.tmpl);
	free(s.order);
	/* A var over the end as well: no signature. */
	s.tmpl = NULL;
	s.order = NULL;
	s.n_vars = 2;
	s.vars[1] = s.vars[0];
	s.vars[1].offset = 84;
	CHECK(pvp_stream_build_raw(&s, frame, sizeof(frame), true, msg, sizeof(msg)) == 0 &&
		      s.tmpl != NULL && s.tmpl[0].sig_off == 0,
	      "vars at both places: no signature (%s)", msg);
	if (s.tmpl != NULL)
		free(s.tmpl[0].data);
	free(s.tmpl);
	free(s.order);
}

/*
 * CSIT's VXLAN latency packet at 64 B: Ether/Dot1Q/IPv4/UDP 4789/VXLAN/
 * Ether/IPv4 (proto 61), 88 B, nothing after the inner IPv4 header. TRex
 * writes its latency payload over the packet's last bytes, the inner
 * header's; the signature goes there too (its last 14 bytes), the outer
 * checksums stay valid, the bytes before it are the client's, and both
 * receivers find it. The same frame without the magic is not ours.
 */
static void
test_sig_vxlan_tail(void)
{
	uint8_t frame[88] = {0}, d[88];
	char msg[PVP_PKT_ERR_LEN] = "";
	const struct pvp_sig *sig;
	struct pvp_stream s;
	uint32_t i;

	frame[12] = 0x81; /* Dot1Q, VLAN 100 */
	frame[15] = 100;
	frame[16] = 0x08;
	frame[18] = 0x45; /* IPv4, total length 70, UDP */
	frame[21] = 70;
	frame[26] = 64;
	frame[27] = 17;
	frame[30] = 172;
	frame[34] = 172;
	frame[38] = 0x04; /* UDP 1024 -> 4789, length 50 */
	frame[40] = 0x12;
	frame[41] = 0xb5;
	frame[43] = 50;
	frame[44] = 1;	  /* a checksum to keep (zero means none over IPv4) */
	frame[46] = 0x08; /* VXLAN, VNI 0 */
	frame[66] = 0x08; /* inner Ethernet, IPv4 */
	frame[68] = 0x45; /* inner IPv4, total length 20, proto 61 */
	frame[71] = 20;
	frame[72] = 0x12; /* identification: before the signature, kept */
	frame[73] = 0x34;
	frame[76] = 64;
	frame[77] = 61;
	frame[80] = 10;
	frame[84] = 10;
	memset(&s, 0, sizeof(s));
	s.id = 5;
	CHECK(pvp_stream_build_raw(&s, frame, sizeof(frame), true, msg, sizeof(msg)) == 0, "%s",
	      msg);
	if (s.tmpl == NULL)
		return;
	CHECK(s.tmpl[0].sig_off == sizeof(frame) - PVP_SIG_LEN,
	      "VXLAN without inner L4: signature at %u, not at the packet's end",
	      s.tmpl[0].sig_off);
	memcpy(d, s.tmpl[0].data, sizeof(d));
	pvp_sig_stamp(&s.tmpl[0], d, 4321, 9);
	sig = pvp_sig_find_buf(d, sizeof(d));
	CHECK(sig != NULL && (const uint8_t *)sig == d + sizeof(d) - PVP_SIG_LEN &&
		      rte_be_to_cpu_16(sig->stream) == 5 && rte_be_to_cpu_32(sig->seq) == 4321,
	      "signature found over the inner IPv4 header");
	CHECK(memcmp(d + 46, frame + 46, 74 - 46) == 0,
	      "VXLAN header, inner Ethernet and inner IPv4 bytes 0..5 are the client's");
	CHECK(rte_ipv4_cksum((const struct rte_ipv4_hdr *)(d + 18)) == 0xffff ||
		      rte_ipv4_cksum((const struct rte_ipv4_hdr *)(d + 18)) == 0,
	      "outer IPv4 checksum valid");
	CHECK(rte_ipv4_udptcp_cksum_verify((const struct rte_ipv4_hdr *)(d + 18), d + 38) == 0,
	      "outer UDP checksum valid over the signature");
	sig = sig_find_inline(d, sizeof(d));
	CHECK(sig != NULL && rte_be_to_cpu_32(sig->seq) == 4321, "packet path finds it too");
	CHECK(pvp_sig_find_buf(frame, sizeof(frame)) == NULL, "the client's frame is not ours");
	free(s.tmpl[0].data);
	free(s.tmpl);
	free(s.order);
	/*
	 * CSIT's dot1qip4vxlan engine writes into the inner addresses: TRex's
	 * payload overwrites that, so a var wholly under the signature goes;
	 * one across its edge leaves no room.
	 */
	for (i = 0; i < 2; i++) {
		memset(&s, 0, sizeof(s));
		s.id = 5;
		s.n_vars = 1;
		s.vars[0] = (struct pvp_var){.offset = i == 0 ? 82 : 72,
					     .len = i == 0 ? 1 : 4,
					     .op = PVP_VAR_INC,
					     .min = 0,
					     .max = 9,
					     .step = 1,
					     .div = 1};
		s.flows = 10;
		CHECK(pvp_stream_build_raw(&s, frame, sizeof(frame), true, msg, sizeof(msg)) == 0,
		      "%s", msg);
		if (s.tmpl == NULL)
			return;
		CHECK(i == 0 ? s.tmpl[0].sig_off == sizeof(frame) - PVP_SIG_LEN && s.n_vars == 0
			     : s.tmpl[0].sig_off == 0 && s.n_vars == 1,
		      "var at %u: signature at %u, %u vars left", s.vars[0].offset,
		      s.tmpl[0].sig_off, s.n_vars);
		free(s.tmpl[0].data);
		free(s.tmpl);
		free(s.order);
	}
}

/* Load @path as a profile; true when refused with a message holding @want. */
static bool
refused(const char *path, const char *want)
{
	char err[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p = pvp_profile_load(path, err, sizeof(err));

	pvp_profile_free(p);
	if (p == NULL && strstr(err, want) != NULL)
		return true;
	fprintf(stderr, "%s: %s\n", path, p != NULL ? "loaded" : err);
	return false;
}

/*
 * Files a user or a control client names: a FIFO without a writer once
 * blocked open() for good (SIGTERM ignored); devices, directories and
 * files over the limit are refused before anything is read. alarm()
 * turns a hang back into a failure.
 */
static void
test_files(void)
{
	char dir[] = "/tmp/pvp-test-files.XXXXXX", fifo[64], big[64], prof[64];
	FILE *f;
	int fd;

	if (mkdtemp(dir) == NULL) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(big, sizeof(big), "%s/big.json", dir);
	snprintf(prof, sizeof(prof), "%s/p.json", dir);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
	alarm(10);
	CHECK(refused(fifo, "fifo: not a regular file (a FIFO)"), "FIFO profile");
	CHECK(refused("/dev/zero", "/dev/zero: not a regular file (a character device)"), "device");
	CHECK(refused(dir, "not a regular file (a directory)"), "directory");
	fd = open(big, O_CREAT | O_WRONLY, 0600);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)PVP_PKT_MAX_FILE + 1) == 0, "big file");
	if (fd >= 0)
		close(fd);
	CHECK(refused(big, "big.json: 64.0 MiB is over the 64 MiB limit"), "big");
	/* A pcap named by a profile goes the same way. */
	f = fopen(prof, "w");
	if (f != NULL) {
		fprintf(f, "{\"streams\": [{\"pcap\": \"fifo\"}]}\n");
		fclose(f);
	}
	CHECK(refused(prof, "streams[0].pcap: ") &&
		      refused(prof, "fifo: not a regular file (a FIFO)"),
	      "FIFO pcap");
	alarm(0);
	unlink(prof);
	unlink(big);
	unlink(fifo);
	rmdir(dir);
}

int
main(void)
{
	test_rate();
	test_lat();
	test_seq();
	test_imix();
	test_templates();
	test_engine();
	test_table();
	test_sig_mbuf();
	test_sig_tail();
	test_sig_after_var();
	test_sig_vxlan_tail();
	test_files();
	printf("%d checks, %d failures\n", unit_check_count, unit_check_failures);
	return unit_check_failures == 0 ? 0 : 1;
}
