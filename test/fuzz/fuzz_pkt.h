/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/* What the lib/pkt harnesses (profile, pcap, sig) share. */

#ifndef FUZZ_PKT_H
#define FUZZ_PKT_H

#include <stddef.h>
#include <stdint.h>

#include "pvp_pkt.h"

/**
 * Check the promises of pvp_pkt.h on one template of a loaded stream:
 * sizes, where the signature is, pvp_flow_apply() against
 * pvp_flow_build(), valid checksums after both and after
 * pvp_sig_stamp()/pvp_sig_set_stream(). Aborts when one does not hold.
 */
void fuzz_check_tmpl(const struct pvp_stream *s, const struct pvp_tmpl *t);

/**
 * Write frame @p i (0..fuzz_seed_frames-1) of the hand-made seed frames
 * into @p buf (at least 256 bytes): IPv4/UDP, VLAN/IPv6/TCP, QinQ/IPv4
 * with options, VXLAN over IPv4, a fragment, an ARP frame.
 * @return its length (no FCS).
 */
size_t fuzz_seed_frame(unsigned int i, uint8_t *buf);

/** Number of seed frames. */
extern const unsigned int fuzz_seed_frames;

/**
 * Write a pcap file of @p n frames (lengths @p lens, back to back in
 * @p frames) into @p out (malloc'd). @return its length.
 */
size_t fuzz_pcap_build(const uint8_t *frames, const size_t *lens, unsigned int n, uint8_t **out);

/** Write the seed frames as a pcap file @p dir/@p name; aborts on failure. */
void fuzz_write_seed_pcap(const char *dir, const char *name);

#endif /* FUZZ_PKT_H */
