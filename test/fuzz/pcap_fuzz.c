/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Fuzz target: pcap files (pvpkit-gen --pcap, or "pcap" in a profile).
 * The input is the file: it is put in an in-memory file (memfd) and
 * loaded by lib/pkt through libpcap three ways: replayed as captured,
 * signed (the signature written into each frame that has room and the
 * checksums recomputed), and signed with vars on UDP ports and a raw
 * offset. Loaded streams must keep pvp_pkt.h's promises (fuzz_pkt.c);
 * refused files must say why in one line.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pvp_pkt.h"

#include "fuzz.h"
#include "fuzz_pkt.h"

/* libpcap reads the whole file; bigger inputs add nothing but time. */
#define FUZZ_PCAP_MAX (1u << 20)

static int memfd = -1;
static char profiles[3][512];

static void
load(const char *text)
{
	char err[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p;
	uint32_t i;

	memset(err, 0x5a, sizeof(err));
	p = pvp_profile_load_str(text, "<pcap-fuzz>", err, sizeof(err));
	if (p == NULL) {
		fuzz_check_message(err, sizeof(err));
		return;
	}
	FUZZ_CHECK(p->n_streams == 1, "%u streams", p->n_streams);
	FUZZ_CHECK(p->streams[0].n_tmpl >= 1 && p->streams[0].n_order == p->streams[0].n_tmpl,
		   "%u templates, %u in order", p->streams[0].n_tmpl, p->streams[0].n_order);
	for (i = 0; i < p->streams[0].n_tmpl && i < 16; i++)
		fuzz_check_tmpl(&p->streams[0], &p->streams[0].tmpl[i]);
	pvp_profile_free(p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int i;

	if (memfd < 0)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size > FUZZ_PCAP_MAX)
		return 0;
	if (ftruncate(memfd, 0) != 0 || pwrite(memfd, data, size, 0) != (ssize_t)size)
		abort();
	for (i = 0; i < 3; i++)
		load(profiles[i]);
	return 0;
}

void
fuzz_cleanup(void)
{
	if (memfd >= 0)
		close(memfd);
	memfd = -1;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	memfd = memfd_create("pcap-fuzz", MFD_CLOEXEC);
	if (memfd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(profiles[0], sizeof(profiles[0]),
		 "{\"streams\": [{\"pcap\": \"/proc/self/fd/%d\", \"replay\": true, \"loop\": 2}]}",
		 memfd);
	snprintf(profiles[1], sizeof(profiles[1]),
		 "{\"streams\": [{\"pcap\": \"/proc/self/fd/%d\"}]}", memfd);
	snprintf(profiles[2], sizeof(profiles[2]),
		 "{\"streams\": [{\"pcap\": \"/proc/self/fd/%d\", \"vars\": ["
		 "{\"field\": \"udp.sport\", \"min\": 1000, \"max\": 1999, \"op\": \"random\"},"
		 "{\"field\": \"ipv4.dst\", \"min\": \"10.0.0.1\", \"max\": \"10.0.3.255\"},"
		 "{\"field\": {\"offset\": 0, \"len\": 4}, \"min\": 0, \"max\": 7, \"op\": \"dec\"}"
		 "], \"flows\": 1000}]}",
		 memfd);
	atexit(fuzz_cleanup);
	return 0;
}
