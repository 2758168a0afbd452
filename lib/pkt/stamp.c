/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The guest's receive stamp after the payload signature (pvp_sig.h,
 * "The guest stamp") and the clock sample two processes compare to know
 * whether their TSCs are one clock (doc/gen.rst, "One-way latency").
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_net.h>
#include <rte_tcp.h>
#include <rte_vxlan.h>

#include "pvp_sig.h"
#include "pvp_util.h"

/* Sum of the complements of the 16-bit words at @p p, @p n (even) bytes. */
static uint32_t
stamp_sum_not(const uint8_t *p, uint32_t n)
{
	uint32_t s = 0, i;

	for (i = 0; i < n; i += 2)
		s += (uint16_t) ~((p[i] << 8) | p[i + 1]);
	return s;
}

/* Sum of the 16-bit words at @p p, @p n (even) bytes. */
static uint32_t
stamp_sum(const uint8_t *p, uint32_t n)
{
	uint32_t s = 0, i;

	for (i = 0; i < n; i += 2)
		s += (uint32_t)((p[i] << 8) | p[i + 1]);
	return s;
}

/*
 * Write @p tsc (never 0: 0 reads as "not stamped") at @p slot and update
 * the L4 checksum at @p csum_p by RFC 1624. The slot starts an even number
 * of bytes into the L4 header (8, or 4 x data offset, plus 14), so its
 * words are the checksum's words. A UDP checksum of 0 is "none".
 */
static void
stamp_write(uint8_t *slot, uint8_t *csum_p, bool udp, uint32_t tsc)
{
	uint16_t csum = (uint16_t)((csum_p[0] << 8) | csum_p[1]);
	uint32_t s;

	if (tsc == 0)
		tsc = 1;
	s = (uint16_t)~csum + stamp_sum_not(slot, PVP_SIG_STAMP_LEN);
	memcpy(slot, &tsc, PVP_SIG_STAMP_LEN);
	if (udp && csum == 0)
		return;
	s += stamp_sum(slot, PVP_SIG_STAMP_LEN);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	csum = (uint16_t)~s;
	if (udp && csum == 0)
		csum = 0xffff;
	csum_p[0] = (uint8_t)(csum >> 8);
	csum_p[1] = (uint8_t)csum;
}

int
pvp_sig_guest_stamp(struct rte_mbuf *m, uint32_t tsc)
{
	const uint32_t l4_fast = RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr);
	const uint32_t sig_fast = l4_fast + sizeof(struct rte_udp_hdr);
	struct rte_net_hdr_lens hl;
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	const uint32_t len = rte_pktmbuf_data_len(m);
	uint32_t ptype, off, end, l4;
	uint16_t csum_off;

	/*
	 * pvpkit-gen's commonest frame without the parser (it doubles the
	 * cost of a stamp): untagged IPv4 without options, not a fragment,
	 * UDP but not VXLAN, the signature right after the UDP header.
	 */
	if (len >= sig_fast + PVP_SIG_LEN + PVP_SIG_STAMP_LEN &&
	    ((const struct rte_ether_hdr *)p)->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		const struct rte_ipv4_hdr *ip =
			(const struct rte_ipv4_hdr *)(p + RTE_ETHER_HDR_LEN);
		const struct rte_udp_hdr *udp = (const struct rte_udp_hdr *)(p + l4_fast);

		if (ip->version_ihl == 0x45 && ip->next_proto_id == IPPROTO_UDP &&
		    (ip->fragment_offset &
		     RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK | RTE_IPV4_HDR_MF_FLAG)) == 0 &&
		    udp->dst_port != RTE_BE16(RTE_VXLAN_DEFAULT_PORT)) {
			end = RTE_ETHER_HDR_LEN + rte_be_to_cpu_16(ip->total_length);
			if (end > len || sig_fast + PVP_SIG_LEN + PVP_SIG_STAMP_LEN > end ||
			    ((const struct pvp_sig *)(p + sig_fast))->magic !=
				    RTE_BE32(PVP_SIG_MAGIC))
				return 0;
			stamp_write(p + sig_fast + PVP_SIG_LEN,
				    p + l4_fast + offsetof(struct rte_udp_hdr, dgram_cksum), true,
				    tsc);
			return 1;
		}
	}
	ptype = rte_net_get_ptype(m, &hl,
				  RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK | RTE_PTYPE_L4_MASK |
					  RTE_PTYPE_TUNNEL_MASK);
	if ((ptype & RTE_PTYPE_TUNNEL_MASK) != 0)
		return 0;
	if ((ptype & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_UDP)
		csum_off = offsetof(struct rte_udp_hdr, dgram_cksum);
	else if ((ptype & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_TCP)
		csum_off = offsetof(struct rte_tcp_hdr, cksum);
	else
		return 0;
	/* The L3 packet's end: Ethernet padding after it is no payload. */
	if (RTE_ETH_IS_IPV4_HDR(ptype) && len >= hl.l2_len + sizeof(struct rte_ipv4_hdr))
		end = hl.l2_len +
		      rte_be_to_cpu_16(((struct rte_ipv4_hdr *)(p + hl.l2_len))->total_length);
	else if (RTE_ETH_IS_IPV6_HDR(ptype) && len >= hl.l2_len + sizeof(struct rte_ipv6_hdr))
		end = hl.l2_len + sizeof(struct rte_ipv6_hdr) +
		      rte_be_to_cpu_16(((struct rte_ipv6_hdr *)(p + hl.l2_len))->payload_len);
	else
		return 0;
	l4 = hl.l2_len + hl.l3_len;
	off = l4 + hl.l4_len;
	if (end > len || off + PVP_SIG_LEN + PVP_SIG_STAMP_LEN > end)
		return 0;
	if (((const struct pvp_sig *)(p + off))->magic != RTE_BE32(PVP_SIG_MAGIC))
		return 0;
	stamp_write(p + off + PVP_SIG_LEN, p + l4 + csum_off,
		    csum_off == offsetof(struct rte_udp_hdr, dgram_cksum), tsc);
	return 1;
}

void
pvp_clock_sample_take(struct pvp_clock_sample *c)
{
	ssize_t n = -1;
	int fd;

	memset(c, 0, sizeof(*c));
	/*
	 * The kernel's boot id names this boot of this host (or guest). A
	 * /proc file reports no size, so pvp_file_read() cannot read it.
	 */
	fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, c->boot_id, sizeof(c->boot_id) - 1);
		close(fd);
	}
	while (n > 0 && (c->boot_id[n - 1] == '\n' || c->boot_id[n - 1] == ' '))
		n--;
	c->boot_id[n > 0 ? n : 0] = '\0';
	c->hz = rte_get_tsc_hz();
	/* TSC read on both sides of the clock: their middle is the pair. */
	c->tsc = rte_rdtsc();
	c->mono_ns = pvp_now_ns();
	c->tsc += (rte_rdtsc() - c->tsc) / 2;
}

json_t *
pvp_clock_sample_json(const struct pvp_clock_sample *c)
{
	return json_pack("{s:I,s:I,s:I,s:s}", "tsc_hz", (json_int_t)c->hz, "tsc",
			 (json_int_t)(c->tsc & INT64_MAX), "mono_ns", (json_int_t)c->mono_ns,
			 "boot_id", c->boot_id);
}

int
pvp_clock_sample_from_json(const json_t *j, struct pvp_clock_sample *c, char *err, size_t err_len)
{
	const json_t *hz = json_object_get(j, "tsc_hz"), *tsc = json_object_get(j, "tsc");
	const json_t *mono = json_object_get(j, "mono_ns"), *boot = json_object_get(j, "boot_id");

	memset(c, 0, sizeof(*c));
	if (!json_is_object(j) || !json_is_integer(hz) || json_integer_value(hz) <= 0 ||
	    !json_is_integer(tsc) || json_integer_value(tsc) < 0 || !json_is_integer(mono) ||
	    json_integer_value(mono) < 0 || !json_is_string(boot) ||
	    json_string_length(boot) >= sizeof(c->boot_id))
		return pvp_fail(err, err_len, -EINVAL,
				"a clock sample is an object of tsc_hz (> 0), tsc and mono_ns "
				"(integers >= 0) and boot_id (a string of at most %zu characters)",
				sizeof(c->boot_id) - 1);
	c->hz = (uint64_t)json_integer_value(hz);
	c->tsc = (uint64_t)json_integer_value(tsc);
	c->mono_ns = (uint64_t)json_integer_value(mono);
	snprintf(c->boot_id, sizeof(c->boot_id), "%s", json_string_value(boot));
	return 0;
}

bool
pvp_clock_same(const struct pvp_clock_sample *own, const struct pvp_clock_sample *base,
	       const struct pvp_clock_sample *peer, double *offset_ns, char *why, size_t why_len)
{
	double dt_ns, off, per_ns = (double)own->hz / 1e9;

	*offset_ns = 0;
	if (own->boot_id[0] == '\0' || strcmp(own->boot_id, peer->boot_id) != 0) {
		pvp_err(why, why_len,
			"another host or guest (boot ids differ): its TSC cannot be "
			"compared through CLOCK_MONOTONIC");
		return false;
	}
	if (own->hz == 0 || peer->hz == 0 ||
	    (double)(own->hz > peer->hz ? own->hz - peer->hz : peer->hz - own->hz) >
		    PVP_CLOCK_MAX_HZ_DIFF * (double)own->hz) {
		pvp_err(why, why_len, "TSC frequencies differ: %" PRIu64 " Hz and %" PRIu64 " Hz",
			own->hz, peer->hz);
		return false;
	}
	/*
	 * The TSC's rate against CLOCK_MONOTONIC, measured since @p base:
	 * the EAL's rte_get_tsc_hz() may be an estimate 0.1 % off, which
	 * over the milliseconds between the samples is microseconds.
	 */
	if (base != NULL && own->mono_ns > base->mono_ns + 100000000 && own->tsc > base->tsc)
		per_ns = (double)(own->tsc - base->tsc) / (double)(own->mono_ns - base->mono_ns);
	/*
	 * Where the peer's TSC would be now if it were ours: its reading
	 * carried forward by the monotonic time between the two samples.
	 * Differences first: a clock up for decades has no ns left in a double.
	 */
	dt_ns = (double)(int64_t)(own->mono_ns - peer->mono_ns);
	off = ((double)(int64_t)((own->tsc & INT64_MAX) - (peer->tsc & INT64_MAX)) -
	       dt_ns * per_ns) /
	      per_ns;
	*offset_ns = off;
	if (off > PVP_CLOCK_MAX_OFFSET_NS || off < -PVP_CLOCK_MAX_OFFSET_NS) {
		pvp_err(why, why_len, "TSCs %.0f ns apart (more than %d ns)", off,
			PVP_CLOCK_MAX_OFFSET_NS);
		return false;
	}
	return true;
}
