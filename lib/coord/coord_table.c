/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * The per-hop table in the layout of ovs_perf ("Packets sent by tester
 * : N", then every point with [Lost, Drop]), the loss summary that must
 * add up, and the same content as JSON.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord.h"
#include "coord_record.h"

double
coord_trial_loss_ratio(const struct coord_trial_result *r)
{
	if (coord_trial_tx_packets(r) == 0)
		return 0;
	return ((double)coord_trial_tx_packets(r) - (double)coord_trial_rx_packets(r)) /
	       (double)coord_trial_tx_packets(r);
}

static double
table_requested_pps(const struct coord_trial_result *r)
{
	if (r->traffic.requested_pps > 0)
		return r->traffic.requested_pps;
	return r->conf.traffic.rate_pps;
}

/* "  !negative loss" and the like after a point whose checks failed. */
static void
table_point_flags(FILE *f, unsigned int flags)
{
	if (flags & (1u << COORD_CHECK_NEGATIVE))
		fprintf(f, "  !negative loss");
	if (flags & (1u << COORD_CHECK_BACKWARDS))
		fprintf(f, "  !counter went backwards");
}

/* Did check @p c fail? */
static bool
table_failed(const struct coord_trial_result *r, enum coord_check c)
{
	unsigned int i;

	for (i = 0; i < r->nb_findings; i++)
		if (r->findings[i].check == c)
			return true;
	return false;
}

/* "ok", "failed" or "unchecked" for the JSON. */
static const char *
table_check_state(const struct coord_trial_result *r, enum coord_check c)
{
	if (c == COORD_CHECK_SIGNATURE && !r->sig_checked)
		return "unchecked";
	if (c == COORD_CHECK_BURST && (!r->traffic.has_max_burst || r->conf.max_burst == 0))
		return r->traffic.has_max_burst ? "recorded" : "unchecked";
	return table_failed(r, c) ? "failed" : "ok";
}

/*
 * The line that says what was checked and how it went, and the loss no
 * drop counter of its hop explains; then one line per failed check.
 */
static void
table_checks(FILE *f, const struct coord_topology *t, const struct coord_trial_result *r)
{
	char a[32], b[32], c[32], d[32];
	unsigned int i, n = 0;

	fprintf(f, "  Checks: signature %s",
		!r->sig_checked				 ? "not checked"
		: table_failed(r, COORD_CHECK_SIGNATURE) ? "FAILED"
							 : "ok");
	if (r->sig_checked)
		fprintf(f, " (lost %s, dup %s, unsigned %s, unknown stream %s)",
			pvp_fmt_count((int64_t)r->traffic.sig_lost, a, sizeof(a)),
			pvp_fmt_count((int64_t)r->traffic.sig_dup, b, sizeof(b)),
			pvp_fmt_count((int64_t)r->traffic.unsigned_rx, c, sizeof(c)),
			pvp_fmt_count((int64_t)r->traffic.unknown_stream_rx, d, sizeof(d)));
	if (r->sig_checked && r->traffic.neigh_rx != 0)
		fprintf(f, " (ARP/ND %s)",
			pvp_fmt_count((int64_t)r->traffic.neigh_rx, a, sizeof(a)));
	fprintf(f, ", drop counters %s", table_failed(r, COORD_CHECK_DROPS) ? "FAILED" : "ok");
	for (i = 0; i < t->nb_hops; i++) {
		if (r->hop_lost[i] <= r->hop_drops[i])
			continue;
		fprintf(f, "%s%s %s on none", n++ == 0 ? " (" : ", ", t->hops[i].hop.name,
			pvp_fmt_count(r->hop_lost[i] - r->hop_drops[i], a, sizeof(a)));
	}
	if (n > 0)
		fputc(')', f);
	fprintf(f, ", %s, %s",
		table_failed(r, COORD_CHECK_NEGATIVE) ? "NEGATIVE LOSS" : "no negative loss",
		table_failed(r, COORD_CHECK_BACKWARDS) ? "COUNTERS WENT BACKWARDS"
						       : "counters monotonic");
	if (r->traffic.has_max_burst)
		fprintf(f, ", largest burst %s%s",
			pvp_fmt_count((int64_t)r->traffic.max_burst, a, sizeof(a)),
			table_failed(r, COORD_CHECK_BURST) ? " OVER --max-burst" : "");
	fputc('\n', f);
	for (i = 0; i < r->nb_findings; i++)
		fprintf(f, "%s: %s\n", r->findings[i].invalid ? "INVALID" : "CHECK FAILED",
			r->findings[i].text);
	if (r->nb_lost_findings > 0)
		fprintf(f, "CHECK FAILED: %u more findings not shown\n", r->nb_lost_findings);
	if (coord_trial_invalid(r))
		fprintf(f, "INVALID: this trial is not a measurement of the DUT\n");
}

static void
table_point(FILE *f, const struct coord_topology *t, const struct coord_point *pt,
	    const struct coord_point_result *pr, bool first, int width)
{
	char a[32], b[32], c[32];
	unsigned int i;

	fprintf(f, "  Packets %-*s: %14s", width, pt->label,
		pvp_fmt_count((int64_t)pr->packets, a, sizeof(a)));
	if (first) {
		if (pr->refused > 0)
			fprintf(f, "  [Refused by the next hop %s]",
				pvp_fmt_count((int64_t)pr->refused, a, sizeof(a)));
		else if (pr->drop > 0)
			fprintf(f, "  [Not sent %s]",
				pvp_fmt_count((int64_t)pr->drop, a, sizeof(a)));
		fputc('\n', f);
		return;
	}
	fprintf(f, "  [Lost %s", pvp_fmt_count(pr->lost, a, sizeof(a)));
	if (pr->attributed != 0 && pr->unattributed == 0)
		fprintf(f, " (%s)", t->hops[pr->owner].hop.name);
	else if (pr->attributed != 0)
		fprintf(f, " (%s %s, unattributed %s)", t->hops[pr->owner].hop.name,
			pvp_fmt_count(pr->attributed, b, sizeof(b)),
			pvp_fmt_count(pr->unattributed, c, sizeof(c)));
	else if (pr->unattributed != 0)
		fprintf(f, " (unattributed)");
	if (pr->added != 0)
		fprintf(f, ", Added %s on purpose",
			pvp_fmt_count((int64_t)pr->added, a, sizeof(a)));
	fprintf(f, ", Drop %s", pvp_fmt_count((int64_t)pr->drop, a, sizeof(a)));
	for (i = 0; i < pr->nb_reasons; i++)
		fprintf(f, "%s%s %s", i == 0 ? ": " : ", ", coord_reason_name(pr->reasons[i].id),
			pvp_fmt_count((int64_t)pr->reasons[i].value, a, sizeof(a)));
	fprintf(f, "]");
	table_point_flags(f, pr->flags);
	fputc('\n', f);
}

void
coord_trial_hop_why(const struct coord_topology *t, const struct coord_trial_result *r,
		    unsigned int hop, char *buf, size_t len)
{
	struct coord_reason sum[COORD_MAX_REASONS];
	unsigned int c, k, i, j, n = 0;
	size_t off = 0;
	char a[32];

	for (c = 0; c < t->nb_chains; c++)
		for (k = 0; k < t->chains[c].nb_points; k++) {
			const struct coord_point_result *pr = &r->chain[c].pt[k];

			if (pr->owner != (int)hop || pr->attributed <= 0)
				continue;
			for (i = 0; i < pr->nb_reasons; i++) {
				for (j = 0; j < n && sum[j].id != pr->reasons[i].id; j++)
					;
				if (j == n && n == COORD_MAX_REASONS)
					continue;
				if (j == n)
					sum[n++] = (struct coord_reason){.id = pr->reasons[i].id};
				sum[j].value += pr->reasons[i].value;
			}
		}
	buf[0] = '\0';
	for (j = 0; j < n && off < len; j++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s", j == 0 ? "" : ", ",
					coord_reason_name(sum[j].id),
					pvp_fmt_count((int64_t)sum[j].value, a, sizeof(a)));
}

/* A chain's own loss: its first point (tester TX) minus its last (RX). */
static void
table_chain_total(FILE *f, const struct coord_trial_result *r, unsigned int ch)
{
	uint64_t tx = r->chain[ch].tx, rx = r->chain[ch].rx;
	char a[32], b[32], c[32];

	fprintf(f, "  Chain %u lost %s = TX %s - RX %s (%.4f %%)\n", ch + 1,
		pvp_fmt_count((int64_t)tx - (int64_t)rx, a, sizeof(a)),
		pvp_fmt_count((int64_t)tx, b, sizeof(b)), pvp_fmt_count((int64_t)rx, c, sizeof(c)),
		tx > 0 ? 100.0 * ((double)tx - (double)rx) / (double)tx : 0.0);
}

/* Is the guest of @p t a QEMU VM without KVM (testbed up --vm on TCG)? */
static bool
table_vm_tcg(const struct coord_topology *t)
{
	const char *vm =
		json_string_value(json_object_get(json_object_get(t->root, "testbed"), "vm"));

	return vm != NULL && strcmp(vm, "vm-tcg") == 0;
}

void
coord_table_print(FILE *f, const struct coord_topology *t, const struct coord_trial_result *r)
{
	char a[32], b[32], c[32], rate[64], why[160];
	unsigned int ch, k, i, n;
	int width = 0;

	for (ch = 0; ch < t->nb_chains; ch++)
		for (k = 0; k < t->chains[ch].nb_points; k++)
			if ((int)strlen(t->chains[ch].points[k].label) > width)
				width = (int)strlen(t->chains[ch].points[k].label);

	fprintf(f, "Trial on %s: ", t->name);
	if (r->conf.traffic.profile != NULL)
		fprintf(f, "profile %s", r->conf.traffic.profile);
	else
		fprintf(f, "%u B, %s flows", r->conf.traffic.size,
			pvp_fmt_count(r->conf.traffic.flows, a, sizeof(a)));
	if (r->conf.traffic.rate != NULL)
		snprintf(rate, sizeof(rate), "%s", r->conf.traffic.rate);
	else if (r->conf.traffic.rate_pps > 0)
		snprintf(rate, sizeof(rate), "%.0f pps", r->conf.traffic.rate_pps);
	else
		snprintf(rate, sizeof(rate), "max");
	fprintf(f, ", %.1f s at %s (requested %s pps, achieved %s pps)\n",
		r->conf.traffic.duration_s, rate,
		pvp_fmt_count((int64_t)(table_requested_pps(r) + 0.5), b, sizeof(b)),
		pvp_fmt_count((int64_t)(r->traffic.achieved_pps + 0.5), c, sizeof(c)));
	for (ch = 0; ch < t->nb_chains; ch++) {
		if (t->nb_chains > 1)
			fprintf(f, " Chain %u:\n", ch + 1);
		for (k = 0; k < t->chains[ch].nb_points; k++)
			table_point(f, t, &t->chains[ch].points[k], &r->chain[ch].pt[k], k == 0,
				    width);
		/* Several chains (directions, parallel chains): each its own total. */
		if (t->nb_chains > 1)
			table_chain_total(f, r, ch);
	}

	fprintf(f, "  Lost by hop:");
	for (i = 0, n = 0; i < t->nb_hops; i++) {
		if (!coord_driver_has(t->hops[i].hop.driver, COORD_ROLE_COUNTERS))
			continue;
		fprintf(f, "%s %s %s", n++ == 0 ? "" : ",", t->hops[i].hop.name,
			pvp_fmt_count(r->hop_lost[i], a, sizeof(a)));
		/* What the hop's own counters say of it (a routed DUT's
		 * "no_neighbour"). */
		coord_trial_hop_why(t, r, i, why, sizeof(why));
		if (why[0] != '\0')
			fprintf(f, " (%s)", why);
	}
	fprintf(f, "; unattributed %s\n", pvp_fmt_count(r->unattributed, a, sizeof(a)));
	/* A hop's loss above is net of the copies it made on purpose. */
	for (i = 0, n = 0; i < t->nb_hops; i++)
		if (r->hop_added[i] != 0)
			fprintf(f, "%s %s %s", n++ == 0 ? "  Added on purpose:" : ",",
				t->hops[i].hop.name, pvp_fmt_count(r->hop_added[i], a, sizeof(a)));
	if (n != 0)
		fputc('\n', f);
	fprintf(f, "  Total lost %s = tester TX %s - RX %s (%.4f %%)\n",
		pvp_fmt_count((int64_t)coord_trial_tx_packets(r) -
				      (int64_t)coord_trial_rx_packets(r),
			      a, sizeof(a)),
		pvp_fmt_count((int64_t)coord_trial_tx_packets(r), b, sizeof(b)),
		pvp_fmt_count((int64_t)coord_trial_rx_packets(r), c, sizeof(c)),
		100 * coord_trial_loss_ratio(r));
	fprintf(f, "  Snapshot of all hops in %.1f ms; counters quiet after %.2f s\n",
		r->snapshot_ms, r->quiet_s);
	if (r->nb_sources > 1 && r->has_start_skew)
		fprintf(f, "  %u sources started %.3f ms apart (first packets; start lead %u ms)\n",
			r->nb_sources, r->start_skew_ms, t->start_lead_ms);
	else if (r->nb_sources > 1)
		fprintf(f,
			"  %u sources; how far apart they started is not known (a source does"
			" not report its first packet)\n",
			r->nb_sources);
	coord_oneway_print(f, r);
	table_checks(f, t, r);
	if (r->traffic.generator_limited)
		fprintf(f,
			"WARNING: generator-limited: the generator sent %s pps of the %s asked;"
			" this is not a DUT result\n",
			pvp_fmt_count((int64_t)(r->traffic.achieved_pps + 0.5), a, sizeof(a)),
			pvp_fmt_count((int64_t)(table_requested_pps(r) + 0.5), b, sizeof(b)));
	if (table_vm_tcg(t))
		fprintf(f, "WARNING: functional only: the guest is a QEMU VM without KVM (vm-tcg);"
			   " these are not performance figures\n");
	if (!r->quiet)
		fprintf(f,
			"WARNING: counters still moving after %.2f s: packets in flight may"
			" show as lost\n",
			r->quiet_s);
	if (r->warnings != NULL) {
		size_t w;
		json_t *v;

		json_array_foreach(r->warnings, w, v)
			fprintf(f, "WARNING: %s\n", json_string_value(v));
	}
}

/* The names of the checks that failed at a point. */
static json_t *
table_flags_json(unsigned int flags)
{
	json_t *a = json_array();
	unsigned int c;

	for (c = 0; c < COORD_CHECK_MAX; c++)
		if (flags & (1u << c))
			json_array_append_new(a, json_string(coord_check_name(c)));
	return a;
}

static json_t *
table_point_json(const struct coord_topology *t, const struct coord_point *pt,
		 const struct coord_point_result *pr)
{
	json_t *reasons = json_object();
	unsigned int i;

	for (i = 0; i < pr->nb_reasons; i++)
		json_object_set_new(reasons, coord_reason_name(pr->reasons[i].id),
				    json_integer((json_int_t)pr->reasons[i].value));
	/* "refused" and "added" only where the point has them. */
	return json_pack("{s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:o,s:I,s:I,s:o*,s:o*,s:o,s:o}", "label",
			 pt->label, "hop", t->hops[pt->hop].hop.name, "port",
			 t->hops[pt->hop].hop.ports[pt->port], "dir", pt->tx ? "tx" : "rx",
			 "packets", (json_int_t)pr->packets, "lost", (json_int_t)pr->lost, "drop",
			 (json_int_t)pr->drop, "drop_reasons", reasons, "attributed",
			 (json_int_t)pr->attributed, "unattributed", (json_int_t)pr->unattributed,
			 "refused", pr->refused != 0 ? json_integer((json_int_t)pr->refused) : NULL,
			 "added", pr->added != 0 ? json_integer((json_int_t)pr->added) : NULL,
			 "owner",
			 pr->owner >= 0 ? json_string(t->hops[pr->owner].hop.name) : json_null(),
			 "flags", table_flags_json(pr->flags));
}

/* "checks", "findings", "signature", "max_burst" and "hop_drops" into @p rec. */
static void
table_checks_record(struct coord_trial_record *rec, const struct coord_topology *t,
		    const struct coord_trial_result *r)
{
	unsigned int c, i;

	rec->checks = json_object();
	rec->findings = json_array();
	rec->hop_drops = json_object();
	for (c = 0; c < COORD_CHECK_MAX; c++)
		json_object_set_new(rec->checks, coord_check_name(c),
				    json_string(table_check_state(r, c)));
	for (i = 0; i < r->nb_findings; i++) {
		const struct coord_finding *fd = &r->findings[i];

		json_array_append_new(
			rec->findings,
			json_pack("{s:s,s:o,s:b,s:s}", "check", coord_check_name(fd->check), "hop",
				  fd->hop >= 0 ? json_string(t->hops[fd->hop].hop.name)
					       : json_null(),
				  "invalid", fd->invalid, "message", fd->text));
	}
	for (i = 0; i < t->nb_hops; i++)
		if (coord_driver_has(t->hops[i].hop.driver, COORD_ROLE_COUNTERS))
			json_object_set_new(rec->hop_drops, t->hops[i].hop.name,
					    json_integer((json_int_t)r->hop_drops[i]));
	rec->invalid = coord_trial_invalid(r);
	rec->has_signature = r->traffic.has_sig;
	rec->signature = (struct coord_record_signature){
		.offered = r->traffic.sig_offered,
		.rx = r->traffic.sig_rx,
		.lost = r->traffic.sig_lost,
		.dup = r->traffic.sig_dup,
		.unsigned_rx = r->traffic.unsigned_rx,
		.unknown_stream_rx = r->traffic.unknown_stream_rx,
		.neigh_rx = r->traffic.neigh_rx,
	};
	rec->has_max_burst = r->traffic.has_max_burst;
	rec->max_burst = r->traffic.max_burst;
	rec->has_max_burst_limit = r->conf.max_burst != 0;
	rec->max_burst_limit = r->conf.max_burst;
}

/*
 * Several sources: the time they were given, when each sent its first
 * packet, and how far apart those were (doc/design.rst, "Several
 * sources").
 */
static json_t *
table_start_json(const struct coord_topology *t, const struct coord_trial_result *r)
{
	json_t *first = json_object();
	unsigned int i;

	for (i = 0; i < t->nb_hops; i++)
		if (t->hops[i].opened && coord_driver_has(t->hops[i].hop.driver, COORD_ROLE_SOURCE))
			json_object_set_new(first, t->hops[i].hop.name,
					    r->has_first_tx[i] ? json_real(r->first_tx_s[i])
							       : json_null());
	return json_pack("{s:I,s:o,s:I,s:o,s:o}", "sources", (json_int_t)r->nb_sources, "start_at",
			 r->start_at > 0 ? json_real(r->start_at) : json_null(), "lead_ms",
			 (json_int_t)t->start_lead_ms, "first_tx_s", first, "skew_ms",
			 r->has_start_skew ? json_real(r->start_skew_ms) : json_null());
}

/* The values coord_trial_to_json() made for @p rec, released once encoded. */
static void
table_record_free(struct coord_trial_record *rec)
{
	json_t **made[] = {&rec->hop_lost,  &rec->chains, &rec->chain_totals,
			   &rec->rate,	    &rec->checks, &rec->findings,
			   &rec->hop_drops, &rec->start,  &rec->hop_added};
	size_t i;

	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++)
		json_decref(*made[i]);
}

json_t *
coord_trial_to_json(const struct coord_topology *t, const struct coord_trial_result *r)
{
	struct coord_trial_record *rec = calloc(1, sizeof(*rec));
	const json_t *testbed = json_object_get(t->root, "testbed");
	json_t *pts, *shared, *vm, *j;
	unsigned int c, k, i;

	if (rec == NULL)
		return NULL;
	rec->schema = COORD_RECORD_SCHEMA;
	rec->has_schema = true;
	snprintf(rec->started, sizeof(rec->started), "%s", r->started);
	snprintf(rec->topology, sizeof(rec->topology), "%s", t->name);
	rec->duration_s = r->conf.traffic.duration_s;
	rec->warmup_s = r->conf.warmup_s;
	rec->requested_pps = table_requested_pps(r);
	rec->has_requested = true;
	rec->achieved_pps = r->traffic.achieved_pps;
	rec->generator_limited = r->traffic.generator_limited;
	rec->dut_result = coord_trial_dut_result(r);
	rec->tx_packets = coord_trial_tx_packets(r);
	rec->rx_packets = coord_trial_rx_packets(r);
	rec->lost = (int64_t)coord_trial_tx_packets(r) - (int64_t)coord_trial_rx_packets(r);
	rec->loss_ratio = coord_trial_loss_ratio(r);
	rec->hop_lost = json_object();
	for (i = 0; i < t->nb_hops; i++)
		if (coord_driver_has(t->hops[i].hop.driver, COORD_ROLE_COUNTERS))
			json_object_set_new(rec->hop_lost, t->hops[i].hop.name,
					    json_integer((json_int_t)r->hop_lost[i]));
	for (i = 0; i < t->nb_hops; i++)
		if (r->hop_added[i] != 0) {
			if (rec->hop_added == NULL)
				rec->hop_added = json_object();
			json_object_set_new(rec->hop_added, t->hops[i].hop.name,
					    json_integer((json_int_t)r->hop_added[i]));
		}
	rec->unattributed = r->unattributed;
	rec->reconciled = coord_trial_reconciled(r);
	rec->quiet = r->quiet;
	rec->quiet_s = r->quiet_s;
	rec->snapshot_ms = r->snapshot_ms;
	rec->chains = json_array();
	rec->chain_totals = json_array();
	for (c = 0; c < t->nb_chains; c++) {
		json_array_append_new(
			rec->chain_totals,
			json_pack("{s:I,s:I,s:I}", "tx_packets", (json_int_t)r->chain[c].tx,
				  "rx_packets", (json_int_t)r->chain[c].rx, "lost",
				  (json_int_t)r->chain[c].tx - (json_int_t)r->chain[c].rx));
		pts = json_array();
		for (k = 0; k < t->chains[c].nb_points; k++)
			json_array_append_new(pts, table_point_json(t, &t->chains[c].points[k],
								    &r->chain[c].pt[k]));
		json_array_append_new(rec->chains, pts);
	}
	if (r->conf.traffic.profile != NULL) {
		snprintf(rec->profile, sizeof(rec->profile), "%s", r->conf.traffic.profile);
	} else {
		rec->size = r->conf.traffic.size;
		rec->has_size = true;
		rec->flows = r->conf.traffic.flows;
		rec->has_flows = true;
	}
	if (r->conf.traffic.rate != NULL)
		rec->rate = json_string(r->conf.traffic.rate);
	else if (r->conf.traffic.rate_pps > 0)
		rec->rate = json_real(r->conf.traffic.rate_pps);
	else
		rec->rate = json_string("max");
	table_checks_record(rec, t, r);
	rec->streams = r->traffic.streams;
	rec->context = r->context;
	rec->warnings = r->warnings;
	rec->oneway = r->oneway;
	if (r->nb_sources > 1)
		rec->start = table_start_json(t, r);
	/*
	 * A topology whose pollers share cores (the local testbed on a small
	 * box says so) marks every trial, so that its figures are never read
	 * as dedicated-core results.
	 */
	shared = json_object_get(testbed, "shared_cores");
	rec->has_shared_cores = json_is_boolean(shared);
	rec->shared_cores = json_is_true(shared);
	/* A guest emulated by QEMU without KVM forwards at a fraction of
	 * what the vswitch can: its figures are functional only. */
	vm = json_object_get(testbed, "vm");
	if (json_is_string(vm)) {
		rec->vm = vm;
		rec->has_functional_only = rec->functional_only = table_vm_tcg(t);
	}
	j = pvp_schema_encode(coord_trial_record_members, rec);
	table_record_free(rec);
	free(rec);
	return j;
}
