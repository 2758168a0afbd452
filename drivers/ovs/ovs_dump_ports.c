/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The text of `ovs-ofctl -O OpenFlow14 --no-names dump-ports`, for hops
 * whose bridge socket is not local (ssh) or not known (no "rundir").
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ovs_private.h"

/*
 * Parse "k=v, k=v, ..." into the rx or tx counters (dir 'r'/'t') or the
 * custom statistics (dir 'c'). "?" is a counter the port does not have.
 * @return 0 or -EPROTO.
 */
static int
ovs_ofp_pairs(char *s, char dir, struct ovs_ofp *o)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(s, ", \t", &save); tok != NULL; tok = strtok_r(NULL, ", \t", &save)) {
		char *eq = strchr(tok, '='), *end;
		uint64_t v = 0;
		size_t i;

		if (eq == NULL)
			return -EPROTO;
		*eq++ = '\0';
		if (strcmp(eq, "?") != 0) {
			errno = 0;
			v = strtoull(eq, &end, 10);
			if (errno != 0 || end == eq || *end != '\0')
				return -EPROTO;
		}
		if (dir == 'c') {
			for (i = 0; i < OVS_NB_REASONS; i++) {
				if (strcmp(tok, ovs_drop_reasons[i]) == 0) {
					o->has_reason[i] = true;
					o->reason[i] = v;
				}
			}
			continue;
		}
		if (strcmp(tok, "pkts") == 0)
			*(dir == 'r' ? &o->p.c[PVP_STATS_rx_packets]
				     : &o->p.c[PVP_STATS_tx_packets]) = v;
		else if (strcmp(tok, "bytes") == 0)
			*(dir == 'r' ? &o->p.c[PVP_STATS_rx_bytes] : &o->p.c[PVP_STATS_tx_bytes]) =
				v;
		else if (strcmp(tok, "drop") == 0)
			*(dir == 'r' ? &o->p.c[PVP_STATS_rx_dropped]
				     : &o->p.c[PVP_STATS_tx_dropped]) = v;
		else if (strcmp(tok, "errs") == 0)
			*(dir == 'r' ? &o->p.c[PVP_STATS_rx_errors]
				     : &o->p.c[PVP_STATS_tx_errors]) = v;
	}
	return 0;
}

/*
 * Parse the text of `ovs-ofctl -O OpenFlow14 --no-names dump-ports`:
 *   port  1: rx pkts=N, bytes=N, drop=N, errs=?, ...
 *            tx pkts=N, bytes=N, drop=N, errs=?, coll=?
 *            duration=...s
 *            rx rfc2819 ... / tx rfc2819 ...
 *            CUSTOM Statistics
 *                       ovs_tx_retries=0, ovs_tx_failure_drops=0, ...
 * @return the number of ports in @p o (at most @p max), or -EPROTO.
 */
int
ovs_parse_dump_ports(char *text, struct ovs_ofp *o, unsigned int max)
{
	char *save = NULL, *line;
	int n = 0;
	char mode = 0; /* 'c' inside CUSTOM Statistics */

	if (strncmp(text, "OFPST_PORT reply", 16) != 0)
		return -EPROTO;
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *l = line + strspn(line, " \t");

		if (strncmp(l, "OFPST_PORT reply", 16) == 0 || l[0] == '\0')
			continue;
		if (strncmp(l, "port ", 5) == 0) {
			char *colon = strchr(l, ':'), *num = l + 5 + strspn(l + 5, " "), *end;

			if (colon == NULL || (unsigned int)n == max)
				return -EPROTO;
			memset(&o[n], 0, sizeof(o[n]));
			if (strncmp(num, "LOCAL", 5) == 0) {
				o[n].ofport = 65534;
			} else {
				o[n].ofport = strtol(num, &end, 10);
				if (end == num || end != colon)
					return -EPROTO;
			}
			n++;
			mode = 0;
			l = colon + 1 + strspn(colon + 1, " ");
		}
		if (n == 0)
			return -EPROTO;
		if (strncmp(l, "rx pkts=", 8) == 0 || strncmp(l, "tx pkts=", 8) == 0) {
			if (ovs_ofp_pairs(l + 3, l[0], &o[n - 1]) < 0)
				return -EPROTO;
		} else if (strncmp(l, "duration=", 9) == 0) {
			char *end;
			double d = strtod(l + 9, &end);

			/* The port's age tells a restarted ovs-vswitchd. */
			if (end != l + 9 && *end == 's' && d >= 0) {
				o[n - 1].has_duration = true;
				o[n - 1].duration_s = d;
			}
		} else if (strncmp(l, "CUSTOM Statistics", 17) == 0) {
			mode = 'c';
		} else if (mode == 'c' && strchr(l, '=') != NULL) {
			if (ovs_ofp_pairs(l, 'c', &o[n - 1]) < 0)
				return -EPROTO;
		}
		/* rx/tx rfc2819 ...: not needed. */
	}
	return n;
}
