/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * pkt_dump PROFILE [OUT.pcap [PACKETS]]
 *
 * Loads a profile and prints one summary line per stream (or the error
 * line, exit 2). With OUT.pcap, writes PACKETS packets per stream as the
 * generator would send them (template order, flow = n % flows, signature
 * stamped with seq = n) so tshark can check every checksum independently.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "pvp_pkt.h"

int
main(int argc, char **argv)
{
	char err[PVP_PKT_ERR_LEN] = "";
	struct pvp_profile *p;
	uint64_t npkt = 1000, n;
	pcap_dumper_t *dump = NULL;
	pcap_t *pc = NULL;
	uint8_t *buf;
	uint32_t i;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: %s PROFILE [OUT.pcap [PACKETS]]\n", argv[0]);
		return 2;
	}
	p = pvp_profile_load(argv[1], err, sizeof(err));
	if (p == NULL) {
		printf("%s\n", err);
		return 2;
	}
	for (i = 0; i < p->n_streams; i++) {
		char line[512];

		pvp_stream_summary(&p->streams[i], line, sizeof(line));
		printf("%s\n", line);
	}
	if (argc < 3) {
		pvp_profile_free(p);
		return 0;
	}
	if (argc == 4)
		npkt = strtoull(argv[3], NULL, 0);
	pc = pcap_open_dead(DLT_EN10MB, PVP_PKT_MAX_SIZE);
	dump = pc != NULL ? pcap_dump_open(pc, argv[2]) : NULL;
	buf = malloc(PVP_PKT_MAX_SIZE);
	if (dump == NULL || buf == NULL) {
		fprintf(stderr, "%s: cannot write\n", argv[2]);
		return 1;
	}
	for (i = 0; i < p->n_streams; i++) {
		const struct pvp_stream *s = &p->streams[i];

		for (n = 0; n < npkt; n++) {
			const struct pvp_tmpl *t = pvp_stream_tmpl(s, n);
			struct pcap_pkthdr h = {.caplen = t->len, .len = t->len};

			if (s->replay) {
				memcpy(buf, t->data, t->len);
			} else {
				pvp_flow_build(s, t, n % s->flows, buf);
				pvp_sig_stamp(t, buf, (uint32_t)n, (uint32_t)(n * 1000));
			}
			h.ts.tv_sec = 1;
			h.ts.tv_usec = (suseconds_t)(n % 1000000);
			pcap_dump((u_char *)dump, &h, buf);
		}
	}
	pcap_dump_close(dump);
	pcap_close(pc);
	free(buf);
	pvp_profile_free(p);
	return 0;
}
