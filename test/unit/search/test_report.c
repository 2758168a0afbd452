/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * report without gnuplot: the JSON-lines file (append, reload,
 * a truncated last line, a fragment in the middle), the summary values,
 * the CSV layout byte for byte, the search record, reconciliation, and
 * compare's verdicts on throughput and latency from synthetic records,
 * and one-way latency in the summary and report.html.
 */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "pvp_util.h"

#include "coord_record.h"
#include "report.h"
#include "pvp_lat.h"
#include "pvp_search.h"
#include "report_fixture.h"
#include "../unit_check.h"

static char tmpdir[] = "/tmp/pvp-test-report-XXXXXX";

static char *
read_file(const char *path)
{
	char *buf;
	long len;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)len + 1);
	if (buf != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void
append_raw(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);

	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text), "raw append");
	if (fd >= 0)
		close(fd);
}

static void
test_jsonl(void)
{
	struct report_load_info li;
	char path[256];
	json_t *rec, *arr;
	int i;

	snprintf(path, sizeof(path), "%s/results.jsonl", tmpdir);
	for (i = 0; i < 3; i++) {
		rec = json_pack("{s:s,s:i,s:s}", "type", "trial", "n", i, "note",
				"a \"quoted\"\nline");
		CHECK(pvp_jsonl_append(path, rec) == 0, "append %d", i);
		json_decref(rec);
	}
	CHECK(pvp_jsonl_append(path, NULL) == -EINVAL, "append NULL");
	arr = report_load(path, &li);
	CHECK(arr != NULL && json_array_size(arr) == 3 && li.records == 3, "reload 3");
	CHECK(li.bad_lines == 0 && !li.truncated_tail && li.warning[0] == '\0', "no warning");
	CHECK(json_integer_value(json_object_get(json_array_get(arr, 2), "n")) == 2, "order");
	CHECK(strcmp(json_string_value(json_object_get(json_array_get(arr, 0), "note")),
		     "a \"quoted\"\nline") == 0,
	      "string round trip");
	json_decref(arr);

	/* A crash in the middle of a write: the last line is cut short. */
	append_raw(path, "{\"type\":\"trial\",\"n\":3,\"tx_pa");
	arr = report_load(path, &li);
	CHECK(arr != NULL && json_array_size(arr) == 3, "truncated tail: %zu records",
	      json_array_size(arr));
	CHECK(li.truncated_tail && li.bad_lines == 1 && li.first_bad == 4, "truncated_tail");
	CHECK(strstr(li.warning, "results.jsonl:4: last line is cut short") != NULL, "warning '%s'",
	      li.warning);
	printf("truncated tail warning: %s\n", li.warning);
	json_decref(arr);

	/* The next run appends: the fragment must not swallow the record. */
	rec = json_pack("{s:s,s:i}", "type", "trial", "n", 4);
	CHECK(pvp_jsonl_append(path, rec) == 0, "append after fragment");
	json_decref(rec);
	append_raw(path, "\n   \n[1,2]\n");
	arr = report_load(path, &li);
	CHECK(arr != NULL && json_array_size(arr) == 4, "after fragment: %zu records",
	      json_array_size(arr));
	CHECK(!li.truncated_tail && li.bad_lines == 2 && li.first_bad == 4, "bad lines %u first %u",
	      li.bad_lines, li.first_bad);
	CHECK(json_integer_value(json_object_get(json_array_get(arr, 3), "n")) == 4, "record 4");
	json_decref(arr);

	CHECK(report_load("/nonexistent/x.jsonl", &li) == NULL && errno == ENOENT, "missing file");
}

/*
 * A trial or search record whose member has the wrong type or range is
 * read through the records' tables: skipped with the line and the member
 * named, the other records kept; records of no readable line at all are
 * the error.
 */
static void
test_load_misshapen(void)
{
	struct report_load_info li;
	char path[256], want[512];
	json_t *arr;

	snprintf(path, sizeof(path), "%s/misshapen.jsonl", tmpdir);
	unlink(path);
	append_raw(path, "{\"type\":\"trial\",\"size\":64,\"flows\":10,\"duration_s\":1}\n"
			 "{\"type\":\"trial\",\"size\":64,\"flows\":10,\"duration_s\":\"1\"}\n"
			 "{\"type\":\"search\",\"goals\":[{\"name\":\"ndr\",\"lower_pps\":-5}]}\n"
			 "{\"type\":\"soak_interval\",\"duration_s\":\"any\"}\n");
	arr = report_load(path, &li);
	CHECK(arr != NULL && li.records == 2 && li.bad_lines == 2 && li.first_bad == 2,
	      "records %u bad %u first %u", li.records, li.bad_lines, li.first_bad);
	snprintf(want, sizeof(want),
		 "%s:2: trial record: duration_s: must be a number in 0..1e18,"
		 " line skipped",
		 path);
	CHECK(strcmp(li.warning, want) == 0, "misshapen warning '%s'", li.warning);
	json_decref(arr);

	unlink(path);
	append_raw(path, "{\"type\":\"search\",\"goals\":[{\"name\":\"ndr\",\"lower_pps\":-5}]}\n");
	CHECK(report_load(path, &li) == NULL && errno == EINVAL, "no readable record");
	snprintf(want, sizeof(want),
		 "%s:1: search record: goals[0].lower_pps: must be a number in "
		 "0..1e18, line skipped",
		 path);
	CHECK(strcmp(li.warning, want) == 0, "misshapen only '%s'", li.warning);
	unlink(path);
}

/*
 * A soak's totals and a run's metadata in the summary, read through the
 * soak and run tables: what the records say, members and types as the
 * tables give them; a run record without "schema" (made by hand) gets no
 * "dut" it did not say.
 */
static void
test_soak_run_summary(void)
{
	static const char *const lines[] = {
		"{\"type\":\"run\",\"schema\":1,\"command\":\"search\",\"pvpkit_version\":\"0.1."
		"0\","
		"\"started\":\"2026-01-01T00:00:00Z\",\"topology\":\"pvp\",\"dut\":null,"
		"\"host\":{\"cpu_model\":\"cpu\",\"cpus\":2,\"kernel\":\"6.1\",\"machine\":\"x86_"
		"64\"},"
		"\"hops\":{\"ovs\":{\"driver\":\"ovs\",\"context\":{\"vswitch\":{\"v\":\"3.1\"}}}},"
		"\"goals\":[{\"name\":\"ndr\",\"loss_ratio\":0}],\"flow_type\":\"l3\"}",
		"{\"type\":\"soak_interval\",\"n\":1,\"t_s\":1.0,\"interval_s\":1.0,\"rate_pps\":"
		"1000.0,"
		"\"tx_packets\":1000,\"rx_packets\":990,\"lost\":10,\"loss_ratio\":0.01}",
		"{\"type\":\"soak\",\"n\":1,\"t_s\":1.0,\"rate_pps\":1000.0,\"tx_packets\":1000,"
		"\"rx_packets\":990,\"loss_ratio\":0.01,\"hop_lost\":{\"ovs\":10},\"planned_s\":2."
		"0,"
		"\"interrupted\":true,\"latency_ns\":{\"count\":9,\"p50\":1500,\"clock\":\"tsc\"}}",
	};
	json_t *recs = json_array(), *sum;
	char *soak, *meta;
	unsigned int i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		json_array_append_new(recs, json_loads(lines[i], 0, NULL));
	sum = report_summary(recs, NULL);
	soak = json_dumps(json_object_get(sum, "soak"), JSON_COMPACT);
	meta = json_dumps(json_object_get(sum, "metadata"), JSON_COMPACT);
	CHECK(soak != NULL &&
		      strcmp(soak, "{\"intervals\":1,\"worst_interval_loss_ratio\":0.01,"
				   "\"rate_pps\":1000.0,\"duration_s\":1.0,\"planned_s\":2.0,"
				   "\"interrupted\":true,\"tx_packets\":1000,\"rx_packets\":990,"
				   "\"loss_ratio\":0.01,\"hop_lost\":{\"ovs\":10},\"latency_ns\":{"
				   "\"count\":9,\"min\":0,\"avg\":0,\"p50\":1500,\"p99\":0,"
				   "\"p99_9\":0,\"p99_99\":0,\"max\":0,\"clock\":\"tsc\"}}") == 0,
	      "soak summary %s", soak);
	CHECK(meta != NULL &&
		      strcmp(meta,
			     "{\"pvpkit_version\":\"0.1.0\",\"started\":"
			     "\"2026-01-01T00:00:00Z\",\"topology\":\"pvp\",\"dut\":null,"
			     "\"host\":{\"cpu_model\":\"cpu\",\"cpus\":2,\"kernel\":\"6.1\","
			     "\"machine\":\"x86_64\"},\"vswitch\":{\"ovs\":{\"v\":\"3.1\"}}}") == 0,
	      "run metadata %s", meta);
	CHECK(strcmp(json_string_value(json_object_get(sum, "flow_type")), "l3") == 0,
	      "flow type from the run record");
	free(soak);
	free(meta);
	json_decref(sum);

	/* Made by hand: no schema, no dut, no host. */
	json_array_set_new(recs, 0,
			   json_loads("{\"type\":\"run\",\"title\":\"lab\","
				      "\"line_rate_bps\":25000000000}",
				      0, NULL));
	sum = report_summary(recs, NULL);
	meta = json_dumps(json_object_get(sum, "metadata"), JSON_COMPACT);
	CHECK(meta != NULL && strcmp(meta, "{\"vswitch\":{}}") == 0 &&
		      strcmp(json_string_value(json_object_get(sum, "title")), "lab") == 0 &&
		      json_real_value(json_object_get(sum, "line_rate_bps")) == 25e9,
	      "hand-made run record: metadata %s", meta);
	free(meta);
	json_decref(sum);
	json_decref(recs);
}

/* Every string of a record's table fits its field, so a record that checks decodes. */
static void
record_strings_fit(const struct pvp_schema_member *m, const char *what)
{
	for (; m != NULL && m->name != NULL; m++) {
		if (m->type == PVP_SCHEMA_STRING && m->size > 0)
			CHECK(m->max == (int64_t)m->size - 1, "%s.%s: max %lld, field %zu", what,
			      m->name, (long long)m->max, m->size);
		if (m->type == PVP_SCHEMA_OBJECT)
			record_strings_fit(m->members, m->name);
		if (m->type == PVP_SCHEMA_ARRAY && m->members->type == PVP_SCHEMA_OBJECT)
			record_strings_fit(m->members->members, m->name);
	}
}

/*
 * Files that are not results are refused, not read: a FIFO nobody writes
 * (an alarm turns a hang into a failure), a device that never ends, a
 * file with no record at all, whose words never reach the message.
 */
static void
test_load_refused(void)
{
	struct report_load_info li;
	char path[256], want[320];
	json_t *arr;

	alarm(30);
	snprintf(path, sizeof(path), "%s/fifo", tmpdir);
	CHECK(mkfifo(path, 0600) == 0, "mkfifo");
	CHECK(report_load(path, &li) == NULL && errno == EINVAL, "FIFO refused");
	snprintf(want, sizeof(want), "%s: not a regular file (a FIFO)", path);
	CHECK(strcmp(li.warning, want) == 0, "FIFO warning '%s'", li.warning);
	unlink(path);

	CHECK(report_load("/dev/zero", &li) == NULL && errno == EINVAL, "/dev/zero refused");
	CHECK(strcmp(li.warning, "/dev/zero: not a regular file (a character device)") == 0,
	      "/dev/zero warning '%s'", li.warning);

	snprintf(path, sizeof(path), "%s/shadow", tmpdir);
	unlink(path);
	append_raw(path, "root:$y$j9T$hash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n");
	CHECK(report_load(path, &li) == NULL && errno == EINVAL, "not a results file");
	snprintf(want, sizeof(want),
		 "%s: not a results file (none of its 2 lines is a JSON record)", path);
	CHECK(strcmp(li.warning, want) == 0, "not results '%s'", li.warning);

	/* One bad line among records: skipped, and its words stay out. */
	unlink(path);
	append_raw(path, "{\"type\":\"trial\"}\nroot:secret\n");
	arr = report_load(path, &li);
	CHECK(arr != NULL && li.records == 1 && li.bad_lines == 1, "one record, one bad line");
	snprintf(want, sizeof(want), "%s:2:4: '[' or '{' expected, line skipped", path);
	CHECK(strcmp(li.warning, want) == 0, "bad line warning '%s'", li.warning);
	CHECK(strstr(li.warning, "secret") == NULL && strstr(li.warning, "root") == NULL,
	      "no content in '%s'", li.warning);
	json_decref(arr);
	unlink(path);

	/* An empty file is a run that measured nothing yet, not an error. */
	append_raw(path, "");
	arr = report_load(path, &li);
	CHECK(arr != NULL && json_array_size(arr) == 0 && li.warning[0] == '\0', "empty file");
	json_decref(arr);
	unlink(path);
	alarm(0);
}

static json_t *
fixture_records(const char *path)
{
	struct report_load_info li;
	json_t *rec;
	size_t i;

	unlink(path);
	for (i = 0; i < FIXTURE_NB_LINES; i++) {
		rec = json_loads(fixture_lines[i], 0, NULL);
		CHECK(rec != NULL, "fixture line %zu parses", i);
		CHECK(pvp_jsonl_append(path, rec) == 0, "append fixture");
		json_decref(rec);
	}
	return report_load(path, &li);
}

static const json_t *
point(const json_t *sum, int size, int flows)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(sum, "points"), i, p)
		if (json_integer_value(json_object_get(p, "size")) == size &&
		    json_integer_value(json_object_get(p, "flows")) == flows)
			return p;
	return NULL;
}

static double
goal_num(const json_t *p, const char *goal, const char *key)
{
	const json_t *v = json_object_get(json_object_get(json_object_get(p, "goals"), goal), key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static bool
near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(1, fabs(b));
}

static void
test_summary_csv(void)
{
	static const char ndr_csv[] = "\"PVP test, L3 flows, NDR (pps)\"\n"
				      ",Packet size\n"
				      "Number of flows,64,1518\n"
				      "10,1500000,812744\n"
				      "1000,1000000,600000\n";
	static const char pdr_csv[] = "\"PVP test, L3 flows, PDR (pps)\"\n"
				      ",Packet size\n"
				      "Number of flows,64,1518\n"
				      "10,1501000,812744\n"
				      "1000,1002000,600000\n";
	char path[256], *text;
	const json_t *p;
	json_t *recs, *sum;
	size_t i;

	snprintf(path, sizeof(path), "%s/fixture.jsonl", tmpdir);
	recs = fixture_records(path);
	CHECK(recs != NULL && json_array_size(recs) == FIXTURE_NB_LINES, "fixture loads");

	sum = report_summary(recs, NULL);
	CHECK(sum != NULL, "summary");
	CHECK(json_number_value(json_object_get(sum, "line_rate_bps")) == 10e9, "line rate");
	CHECK(json_integer_value(json_object_get(sum, "l1_overhead_bytes")) == 20, "overhead");
	CHECK(json_integer_value(json_object_get(sum, "trials")) == FIXTURE_NB_TRIALS, "trials");
	CHECK(json_integer_value(json_object_get(sum, "searches")) == 3, "searches");
	CHECK(json_array_size(json_object_get(sum, "points")) == 4, "4 points");

	p = point(sum, 64, 10);
	CHECK(p != NULL, "point 64/10");
	CHECK(near(goal_num(p, "ndr", "pps"), 1.5e6), "ndr pps %f", goal_num(p, "ndr", "pps"));
	CHECK(near(goal_num(p, "ndr", "mpps"), 1.5), "mpps");
	/* L1: 1.5 Mpps * (64 + 20) B * 8 = 1.008 Gbit/s = 10.08 % of 10G. */
	CHECK(near(goal_num(p, "ndr", "l1_gbps"), 1.008), "l1 %f", goal_num(p, "ndr", "l1_gbps"));
	CHECK(near(goal_num(p, "ndr", "line_rate_pct"), 10.08), "pct %f",
	      goal_num(p, "ndr", "line_rate_pct"));
	CHECK(near(goal_num(p, "ndr", "upper_pps"), 1507000), "upper");
	CHECK(near(goal_num(p, "pdr", "pps"), 1501000), "pdr");
	CHECK(json_integer_value(json_object_get(p, "trials")) == 2, "point trials");
	CHECK(near(json_number_value(json_object_get(p, "theoretical_max_pps")), 10e9 / 672),
	      "theoretical max");

	p = point(sum, 1518, 10);
	CHECK(near(goal_num(p, "ndr", "line_rate_pct"), 100), "1518 at line rate: %f",
	      goal_num(p, "ndr", "line_rate_pct"));
	CHECK(json_is_null(json_object_get(json_object_get(json_object_get(p, "goals"), "ndr"),
					   "upper_pps")),
	      "no upper bound at max");

	p = point(sum, 64, 1000);
	CHECK(json_is_true(json_object_get(p, "generator_limited")), "gen-limited point flagged");

	/* Trials only: bounds the way the search makes them. */
	p = point(sum, 1518, 1000);
	CHECK(near(goal_num(p, "ndr", "pps"), 600000), "from trials ndr %f",
	      goal_num(p, "ndr", "pps"));
	CHECK(near(goal_num(p, "ndr", "upper_pps"), 700000), "from trials upper");
	CHECK(near(goal_num(p, "pdr", "pps"), 600000), "from trials pdr");
	CHECK(isnan(goal_num(p, "pdr", "upper_pps")), "pdr never failed");
	CHECK(strcmp(json_string_value(json_object_get(
			     json_object_get(json_object_get(p, "goals"), "ndr"), "source")),
		     "trials") == 0,
	      "source trials");

	snprintf(path, sizeof(path), "%s/ndr.csv", tmpdir);
	CHECK(report_write_csv(sum, "ndr", path) == 0, "ndr csv");
	text = read_file(path);
	CHECK(text != NULL && strcmp(text, ndr_csv) == 0, "ndr.csv is\n%s", text);
	printf("ndr.csv:\n%s", text);
	free(text);
	snprintf(path, sizeof(path), "%s/pdr.csv", tmpdir);
	CHECK(report_write_csv(sum, "pdr", path) == 0, "pdr csv");
	text = read_file(path);
	CHECK(text != NULL && strcmp(text, pdr_csv) == 0, "pdr.csv is\n%s", text);
	free(text);
	CHECK(report_write_csv(sum, "nope", path) == -ENOENT, "unknown goal");

	/* Every fixture trial reconciles; a tampered one does not. */
	for (i = 0; i < json_array_size(recs); i++) {
		json_t *r = json_array_get(recs, i);

		if (strcmp(json_string_value(json_object_get(r, "type")), "trial") == 0)
			CHECK(report_trial_reconciles(r), "trial %zu reconciles", i);
	}
	{
		json_t *bad = json_deep_copy(json_array_get(recs, 1));

		json_object_set_new(bad, "unattributed", json_integer(0));
		CHECK(!report_trial_reconciles(bad), "tampered trial reconciles");
		json_decref(bad);
	}
	json_decref(sum);
	json_decref(recs);
}

static int
fake_measure(double rate, double duration, void *arg, struct pvp_search_measurement *m)
{
	double cap = *(double *)arg;

	m->tx = (uint64_t)llround(rate * duration);
	m->rx = m->tx - (uint64_t)llround(fmax(0, rate - cap) * duration);
	m->achieved_rate = rate;
	return 0;
}

static void
test_search_record(void)
{
	struct pvp_search_params p;
	struct pvp_search_result r;
	double cap = 500000;
	json_t *rec, *g;
	char name[32];

	pvp_search_params_init(&p);
	p.max_rate = 1e6;
	p.nb_goals = 3;
	p.loss_ratio[1] = 0.001;
	p.loss_ratio[2] = 0.005;
	CHECK(pvp_search_run(&p, fake_measure, &cap, &r) == 0, "search");
	rec = report_search_record(&p, &r, 64, 1000);
	CHECK(rec != NULL, "record");
	CHECK(strcmp(json_string_value(json_object_get(rec, "type")), "search") == 0, "type");
	CHECK(strcmp(json_string_value(json_object_get(rec, "algo")), "mlr") == 0, "algo");
	CHECK(json_integer_value(json_object_get(rec, "size")) == 64, "size");
	CHECK(json_integer_value(json_object_get(rec, "trials")) == r.nb_trials, "trials");
	g = json_array_get(json_object_get(rec, "goals"), 0);
	CHECK(strcmp(json_string_value(json_object_get(g, "name")), "ndr") == 0, "ndr name");
	CHECK(json_number_value(json_object_get(g, "lower_pps")) == r.goal[0].lower_bound, "lower");
	CHECK(strcmp(json_string_value(json_object_get(g, "status")), "ok") == 0, "status");
	g = json_array_get(json_object_get(rec, "goals"), 1);
	CHECK(strcmp(json_string_value(json_object_get(g, "name")), "pdr") == 0, "pdr name");
	g = json_array_get(json_object_get(rec, "goals"), 2);
	CHECK(strcmp(json_string_value(json_object_get(g, "name")), "pdr0.5%") == 0,
	      "pdr0.5%% name");
	CHECK(strcmp(report_goal_name(0, 3, name, sizeof(name)), "ndr") == 0, "goal name");
	json_decref(rec);
}

/* A search record with one NDR goal, as the coordinator writes it. */
static json_t *
rep_search(const char *group, int index, double lower, double upper, double cond)
{
	json_t *rec =
		json_pack("{s:s,s:i,s:i,s:[{s:s,s:f,s:s,s:f,s:f,s:f,s:b,s:b}],s:i,s:i}", "type",
			  "search", "size", 64, "flows", 10, "goals", "name", "ndr", "loss_ratio",
			  0.0, "status", "ok", "lower_pps", lower, "upper_pps", upper,
			  "conditional_pps", cond, "reached_max_rate", 0, "generator_limited", 0,
			  "generator_remeasured", 1, "generator_recovered", index % 2);

	if (group != NULL)
		json_object_set_new(
			rec, "repeat",
			json_pack("{s:s,s:i,s:i}", "group", group, "index", index, "of", 4));
	return rec;
}

/*
 * Repeated searches of one point: the summary gives the median of the
 * last repeat group (an older lone search of the point is left out),
 * min, max, the relative range, the delivered rate, and the repeats CSV.
 */
static void
test_repeats(void)
{
	static const char want_csv[] =
		"size,flows,repeats,median_pps,min_pps,max_pps,spread_pct,conditional_pps,"
		"searches_pps\n"
		"64,10,4,115000,100000,178000,67.83,114000,110000 178000 100000 120000\n";
	struct report_stats st;
	static const double even[] = {4, 1, 3, 2}, odd[] = {5, 1, 3};
	json_t *recs = json_array(), *sum;
	const json_t *p;
	char path[256], *text;

	report_stats(even, 4, &st);
	CHECK(st.n == 4 && st.median == 2.5 && st.min == 1 && st.max == 4 && st.has_spread &&
		      near(st.spread, 3 / 2.5),
	      "even: median %g spread %g", st.median, st.spread);
	report_stats(odd, 2, &st);
	CHECK(st.median == 3 && !st.has_spread, "two values: median %g, spread %d", st.median,
	      st.has_spread);
	report_stats(odd, 3, &st);
	CHECK(st.median == 3 && near(st.spread, 4.0 / 3), "odd: median %g", st.median);
	report_stats(odd, 0, &st);
	CHECK(st.n == 0 && st.median == 0 && !st.has_spread, "empty");

	json_array_append_new(recs, rep_search(NULL, 0, 50000, 51000, 50000));
	json_array_append_new(recs, rep_search("g1", 1, 110000, 112000, 109000));
	json_array_append_new(recs, rep_search("g1", 2, 178000, 180000, 177000));
	json_array_append_new(recs, rep_search("g1", 3, 100000, 101000, 99000));
	json_array_append_new(recs, rep_search("g1", 4, 120000, 122000, 119000));
	sum = report_summary(recs, NULL);
	p = point(sum, 64, 10);
	CHECK(p != NULL, "point");
	CHECK(goal_num(p, "ndr", "repeats") == 4, "repeats %g", goal_num(p, "ndr", "repeats"));
	CHECK(goal_num(p, "ndr", "pps") == 115000 && goal_num(p, "ndr", "lower_pps") == 115000,
	      "median %g", goal_num(p, "ndr", "pps"));
	CHECK(goal_num(p, "ndr", "upper_pps") == 117000, "upper median %g",
	      goal_num(p, "ndr", "upper_pps"));
	CHECK(goal_num(p, "ndr", "min_pps") == 100000 && goal_num(p, "ndr", "max_pps") == 178000,
	      "min %g max %g", goal_num(p, "ndr", "min_pps"), goal_num(p, "ndr", "max_pps"));
	CHECK(near(goal_num(p, "ndr", "spread"), 78000.0 / 115000), "spread %g",
	      goal_num(p, "ndr", "spread"));
	CHECK(goal_num(p, "ndr", "conditional_pps") == 114000, "conditional %g",
	      goal_num(p, "ndr", "conditional_pps"));
	CHECK(json_integer_value(json_object_get(sum, "generator_remeasured")) == 5 &&
		      json_integer_value(json_object_get(sum, "generator_recovered")) == 2,
	      "re-measure counts");
	snprintf(path, sizeof(path), "%s/ndr_repeats.csv", tmpdir);
	CHECK(report_write_repeats_csv(sum, "ndr", path) == 0, "repeats csv");
	text = read_file(path);
	CHECK(text != NULL && strcmp(text, want_csv) == 0, "repeats csv:\n%s", text);
	free(text);
	unlink(path);
	json_decref(sum);

	/* A single search (no repeat group) is its own figure, no spread. */
	json_array_clear(recs);
	json_array_append_new(recs, rep_search(NULL, 0, 50000, 51000, 49000));
	sum = report_summary(recs, NULL);
	p = point(sum, 64, 10);
	CHECK(goal_num(p, "ndr", "repeats") == 1 && goal_num(p, "ndr", "pps") == 50000 &&
		      isnan(goal_num(p, "ndr", "spread")) &&
		      goal_num(p, "ndr", "upper_pps") == 51000,
	      "single search");
	json_decref(sum);
	json_decref(recs);
}

/* A summary of one point (64 B, 10 flows) with an "ndr" goal as given. */
static json_t *
cmp_summary(double pps, double lo, double hi, double lower, double upper, int repeats)
{
	json_t *g = json_pack("{s:f,s:f,s:f,s:i}", "pps", pps, "lower_pps", lower, "upper_pps",
			      upper, "repeats", repeats);

	if (repeats > 1) {
		json_object_set_new(g, "min_pps", json_real(lo));
		json_object_set_new(g, "max_pps", json_real(hi));
	}
	return json_pack("{s:[{s:i,s:i,s:{s:o}}]}", "points", "size", 64, "flows", 10, "goals",
			 "ndr", g);
}

/* One comparison's verdict; *change receives its relative change. */
static const char *
cmp_verdict(json_t *old, json_t *new, unsigned int *regr, unsigned int *progr, double *change)
{
	static char v[32];
	json_t *c = report_compare(old, new, regr, progr);
	const json_t *row = json_array_get(json_object_get(c, "rows"), 0);

	snprintf(v, sizeof(v), "%s", json_string_value(json_object_get(row, "verdict")));
	*change = json_number_value(json_object_get(row, "change"));
	json_decref(c);
	json_decref(old);
	json_decref(new);
	return v;
}

/*
 * The regression flag follows both runs' measured noise: repeated
 * searches give a range (min..max), widened by the search width; only
 * ranges that do not overlap differ.
 */
static void
test_compare(void)
{
	unsigned int r, p;
	double ch;
	const char *v;
	json_t *c;

	/* Old 100k..120k over 5 searches; new 90k..99k, width 0.5 %: below. */
	v = cmp_verdict(cmp_summary(110000, 100000, 120000, 110000, 110550, 5),
			cmp_summary(95000, 90000, 99000, 95000, 95477, 5), &r, &p, &ch);
	CHECK(strcmp(v, "regression") == 0 && r == 1 && p == 0 && near(ch, -15000.0 / 110000),
	      "clear drop: %s %u %g", v, r, ch);
	/* The same medians with the new max at 99.8k: 99.8k / 0.995 reaches 100.3k. */
	v = cmp_verdict(cmp_summary(110000, 100000, 120000, 110000, 110550, 5),
			cmp_summary(95000, 90000, 99800, 95000, 95477, 5), &r, &p, &ch);
	CHECK(strcmp(v, "within-noise") == 0 && r == 0, "overlap by the width: %s", v);
	/* A wide old run hides a 10 % drop: noise, not a regression. */
	v = cmp_verdict(cmp_summary(110000, 60000, 180000, 110000, 110550, 5),
			cmp_summary(99000, 95000, 103000, 99000, 99500, 5), &r, &p, &ch);
	CHECK(strcmp(v, "within-noise") == 0 && r == 0, "noisy old: %s", v);
	/* Up, beyond the old max widened by its width. */
	v = cmp_verdict(cmp_summary(110000, 100000, 120000, 110000, 110550, 5),
			cmp_summary(130000, 121000, 140000, 130000, 130650, 5), &r, &p, &ch);
	CHECK(strcmp(v, "progression") == 0 && p == 1 && r == 0, "rise: %s", v);
	/* One search each: the bounds are the range. 100k..105k vs 98k..99k. */
	v = cmp_verdict(cmp_summary(100000, 0, 0, 100000, 105000, 1),
			cmp_summary(98000, 0, 0, 98000, 99000, 1), &r, &p, &ch);
	CHECK(strcmp(v, "regression") == 0, "single searches, below: %s", v);
	v = cmp_verdict(cmp_summary(100000, 0, 0, 100000, 105000, 1),
			cmp_summary(99500, 0, 0, 99500, 100600, 1), &r, &p, &ch);
	CHECK(strcmp(v, "within-noise") == 0, "single searches, within the width: %s", v);
	/* No rate on one side; a point only one run has is left out. */
	c = cmp_summary(100000, 0, 0, 100000, 105000, 1);
	json_object_set_new(
		json_object_get(
			json_object_get(json_array_get(json_object_get(c, "points"), 0), "goals"),
			"ndr"),
		"pps", json_null());
	v = cmp_verdict(cmp_summary(100000, 0, 0, 100000, 105000, 1), c, &r, &p, &ch);
	CHECK(strcmp(v, "not-comparable") == 0 && r == 0, "no rate: %s", v);
	{
		json_t *o = cmp_summary(100000, 0, 0, 100000, 105000, 1);
		json_t *n = cmp_summary(100000, 0, 0, 100000, 105000, 1);
		json_t *x;

		json_object_set_new(json_array_get(json_object_get(n, "points"), 0), "flows",
				    json_integer(11));
		x = report_compare(o, n, &r, &p);
		CHECK(json_array_size(json_object_get(x, "rows")) == 0, "unmatched point compared");
		json_decref(x);
		json_decref(o);
		json_decref(n);
	}
}

/*
 * A latency trial record at (64 B, 10 flows) as the latency step writes
 * it: round @p round of set @p set at @p load % (set NULL: no set, as
 * before rounds), one stream whose @p n samples are @p base_ns plus
 * 0..@p step_ns * 99 in even steps (i % 100), and @p tail samples at ten
 * times the base.
 */
static json_t *
lat_trial(double load, const char *set, int round, int rounds, uint64_t base_ns, uint64_t step_ns,
	  unsigned int n, unsigned int tail)
{
	struct pvp_lat *h = malloc(sizeof(*h));
	json_t *t, *lm;
	unsigned int i;

	pvp_lat_init(h);
	for (i = 0; i < n; i++)
		pvp_lat_update(h, base_ns + step_ns * (i % 100));
	for (i = 0; i < tail; i++)
		pvp_lat_update(h, 10 * base_ns);
	lm = json_pack("{s:f,s:s,s:f}", "load_pct", load, "reference", "pdr", "reference_pps",
		       100000.0);
	if (set != NULL) {
		json_object_set_new(lm, "set", json_string(set));
		json_object_set_new(lm, "round", json_integer(round));
		json_object_set_new(lm, "rounds", json_integer(rounds));
	}
	t = json_pack("{s:s,s:i,s:i,s:f,s:f,s:I,s:I,s:o,s:[{s:i,s:{s:o,s:s}}]}", "type", "trial",
		      "size", 64, "flows", 10, "requested_pps", load * 1000, "duration_s", 1.0,
		      "tx_packets", (json_int_t)(n + tail), "rx_packets", (json_int_t)(n + tail),
		      "latency", lm, "streams", "stream", 0, "latency_ns", "histogram",
		      pvp_lat_to_json(h), "clock", "tsc");
	free(h);
	return t;
}

/* A summary of latency trials: @p rounds rounds at 50 %, round r's base @p base[r]. */
static json_t *
lat_summary(const char *set, int rounds, const uint64_t *base, uint64_t step)
{
	json_t *recs = json_array(), *sum;
	int r;

	for (r = 0; r < rounds; r++)
		json_array_append_new(recs,
				      lat_trial(50, set, r + 1, rounds, base[r], step, 10000, 2));
	sum = report_summary(recs, NULL);
	json_decref(recs);
	return sum;
}

/* The latency row of @p figure at 50 % in @p cmp, or NULL. */
static const json_t *
lat_row(const json_t *cmp, const char *figure)
{
	const json_t *row;
	size_t i;

	json_array_foreach(json_object_get(cmp, "latency_rows"), i, row)
		if (strcmp(json_string_value(json_object_get(row, "figure")), figure) == 0 &&
		    json_number_value(json_object_get(row, "load_pct")) == 50)
			return row;
	return NULL;
}

static const char *
lat_verdict(const json_t *cmp, const char *figure)
{
	const json_t *row = lat_row(cmp, figure);

	return row != NULL ? json_string_value(json_object_get(row, "verdict")) : "(no row)";
}

/*
 * Latency ranges and verdicts: each round's confidence interval of a
 * percentile from its histogram (here checked to the bucket), over the
 * rounds; a regression when the new range lies above the old one.
 */
static void
test_compare_latency(void)
{
	static const uint64_t b10[] = {10000, 10000, 10000}, b14[] = {14000, 14000, 14000},
			      wide[] = {9000, 12000, 10500}, mid[] = {10200, 10400, 10300};
	json_t *recs, *sum, *o, *n, *c;
	const json_t *e, *r, *row;
	unsigned int regr, progr;

	/* One round of 100 samples 1000..1990 ns: the median's ranks are
	 * 50 -/+ 1.96 * 5, i.e. 40 (1390 ns, bucket 1376..1407) and 60 (1590
	 * ns, bucket 1568..1599); the maximum has no range of its own. */
	recs = json_array();
	json_array_append_new(recs, lat_trial(50, NULL, 0, 0, 1000, 10, 100, 0));
	sum = report_summary(recs, NULL);
	e = json_array_get(json_object_get(point(sum, 64, 10), "latency"), 0);
	r = json_object_get(json_object_get(e, "range_ns"), "p50");
	CHECK(json_number_value(json_array_get(r, 0)) == 1376 &&
		      json_number_value(json_array_get(r, 1)) == 1599,
	      "p50 range %g..%g", json_number_value(json_array_get(r, 0)),
	      json_number_value(json_array_get(r, 1)));
	CHECK(json_number_value(json_object_get(e, "trials")) == 1 &&
		      json_object_get(json_object_get(e, "range_ns"), "max") == NULL,
	      "one round: no max range");
	json_decref(sum);

	/* Three rounds of one set are one entry; a later set replaces them. */
	json_array_clear(recs);
	json_array_append_new(recs, lat_trial(50, "s1", 1, 2, 50000, 10, 1000, 0));
	json_array_append_new(recs, lat_trial(50, "s1", 2, 2, 50000, 10, 1000, 0));
	json_array_append_new(recs, lat_trial(50, "s2", 1, 3, 10000, 10, 1000, 0));
	json_array_append_new(recs, lat_trial(50, "s2", 2, 3, 12000, 10, 1000, 0));
	json_array_append_new(recs, lat_trial(50, "s2", 3, 3, 11000, 10, 1000, 1));
	sum = report_summary(recs, NULL);
	e = json_array_get(json_object_get(point(sum, 64, 10), "latency"), 0);
	r = json_object_get(json_object_get(e, "range_ns"), "max");
	CHECK(json_array_size(json_object_get(point(sum, 64, 10), "latency")) == 1 &&
		      json_number_value(json_object_get(e, "trials")) == 3 &&
		      json_number_value(json_object_get(e, "count")) == 3001,
	      "set s2's three rounds, merged: trials %g count %g",
	      json_number_value(json_object_get(e, "trials")),
	      json_number_value(json_object_get(e, "count")));
	/* Maxima 10990, 12990 and 110000 (the tail sample). */
	CHECK(json_number_value(json_array_get(r, 0)) == 10990 &&
		      json_number_value(json_array_get(r, 1)) == 110000,
	      "max range over rounds %g..%g", json_number_value(json_array_get(r, 0)),
	      json_number_value(json_array_get(r, 1)));
	json_decref(sum);
	json_decref(recs);

	/*
	 * 10 us -> 14 us in three rounds each: p50, p99 and the maxima up
	 * beyond both runs' noise, exit-worthy. p99.99 of 10,002 samples has
	 * two above it: its interval reaches from the body to the tail, and
	 * a change there is not shown to be more than noise.
	 */
	o = lat_summary("a", 3, b10, 20);
	n = lat_summary("b", 3, b14, 20);
	c = report_compare(o, n, &regr, &progr);
	CHECK(strcmp(lat_verdict(c, "p50"), "regression") == 0 &&
		      strcmp(lat_verdict(c, "p99"), "regression") == 0 &&
		      strcmp(lat_verdict(c, "p99_99"), "within-noise") == 0 &&
		      strcmp(lat_verdict(c, "max"), "regression") == 0,
	      "10 -> 14 us: %s %s %s %s", lat_verdict(c, "p50"), lat_verdict(c, "p99"),
	      lat_verdict(c, "p99_99"), lat_verdict(c, "max"));
	CHECK(json_integer_value(json_object_get(c, "latency_regressions")) == 3 && regr >= 3 &&
		      json_array_size(json_object_get(c, "latency_rows")) == 4,
	      "latency regressions %u", regr);
	row = lat_row(c, "p50");
	CHECK(near(json_number_value(json_object_get(row, "change")),
		   (json_number_value(json_object_get(json_object_get(row, "new"), "ns")) -
		    json_number_value(json_object_get(json_object_get(row, "old"), "ns"))) /
			   json_number_value(json_object_get(json_object_get(row, "old"), "ns"))) &&
		      json_number_value(json_object_get(row, "change")) > 0.35,
	      "p50 change %g", json_number_value(json_object_get(row, "change")));
	json_decref(c);
	/* The other way round: progressions, no regression. */
	c = report_compare(n, o, &regr, &progr);
	CHECK(strcmp(lat_verdict(c, "p50"), "progression") == 0 &&
		      json_integer_value(json_object_get(c, "latency_regressions")) == 0 &&
		      json_integer_value(json_object_get(c, "latency_progressions")) == 3,
	      "14 -> 10 us: %s", lat_verdict(c, "p50"));
	json_decref(c);
	json_decref(n);

	/* Old rounds at 9, 12 and 10.5 us: a new 10.2..10.4 us lies inside
	 * that noise although its median is 2 % off. */
	n = lat_summary("b", 3, mid, 20);
	json_decref(o);
	o = lat_summary("a", 3, wide, 20);
	c = report_compare(o, n, &regr, &progr);
	CHECK(strcmp(lat_verdict(c, "p50"), "within-noise") == 0 &&
		      strcmp(lat_verdict(c, "p99"), "within-noise") == 0 &&
		      strcmp(lat_verdict(c, "max"), "within-noise") == 0 &&
		      json_integer_value(json_object_get(c, "latency_regressions")) == 0,
	      "within the old rounds' spread: %s %s %s", lat_verdict(c, "p50"),
	      lat_verdict(c, "p99"), lat_verdict(c, "max"));
	json_decref(c);
	json_decref(n);
	json_decref(o);

	/* One round each: the histograms' intervals judge the percentiles,
	 * the maximum (one sample) is not judged. */
	o = lat_summary("a", 1, b10, 20);
	n = lat_summary("b", 1, b14, 20);
	c = report_compare(o, n, &regr, &progr);
	CHECK(strcmp(lat_verdict(c, "p50"), "regression") == 0 &&
		      strcmp(lat_verdict(c, "max"), "not-judged") == 0 &&
		      json_integer_value(json_object_get(c, "latency_regressions")) == 2,
	      "one round each: p50 %s, max %s", lat_verdict(c, "p50"), lat_verdict(c, "max"));
	json_decref(c);

	/* A run without latency data on one side: shown, never a verdict. */
	json_decref(o);
	o = cmp_summary(100000, 0, 0, 100000, 105000, 1);
	json_object_set_new(json_array_get(json_object_get(n, "points"), 0), "goals",
			    json_object());
	c = report_compare(o, n, &regr, &progr);
	row = lat_row(c, "p99");
	CHECK(row != NULL && strcmp(lat_verdict(c, "p99"), "not-comparable") == 0 &&
		      json_is_null(json_object_get(row, "old")) &&
		      json_is_object(json_object_get(row, "new")) && regr == 0 && progr == 0,
	      "latency on one side only: %s, %u regressions", lat_verdict(c, "p99"), regr);
	json_decref(c);
	c = report_compare(n, o, &regr, &progr);
	CHECK(strcmp(lat_verdict(c, "p50"), "not-comparable") == 0 && regr == 0,
	      "latency only in the old run: %s", lat_verdict(c, "p50"));
	json_decref(c);
	json_decref(o);
	json_decref(n);
}

/* A trial record of @p size B at 1 kpps with @p extra members ("" for none). */
static json_t *
ow_trial(unsigned int size, const char *extra)
{
	char text[2048];
	json_t *j;

	snprintf(text, sizeof(text),
		 "{\"type\":\"trial\",\"size\":%u,\"flows\":1,\"duration_s\":10,"
		 "\"requested_pps\":1000,\"achieved_pps\":1000,\"tx_packets\":10000,"
		 "\"rx_packets\":10000%s}",
		 size, extra);
	j = json_loads(text, 0, NULL);
	CHECK(j != NULL, "oneway fixture of %u B parses", size);
	return j;
}

#define OW_SHARED                                                                                  \
	"\"oneway\":{\"guest\":\"vm\",\"source\":\"gen\",\"clock\":\"shared\","                    \
	"\"offset_ns\":100.2}"
/* to_guest p50 87 us, p99 4390.9 us, max 11866.4 us; from_guest 113.7, 4096, 8962.9. */
#define OW_STREAMS                                                                                 \
	"\"streams\":[{\"stream\":0,\"port\":0,\"rx_packets\":10000,\"oneway_ns\":{"               \
	"\"to_guest\":{\"count\":10000,\"min\":9000,\"p50\":87000,\"p90\":90000,"                  \
	"\"p99\":4390900,\"max\":11866400,\"histogram\":{\"unit_ns\":1}},"                         \
	"\"from_guest\":{\"count\":10000,\"p50\":113700,\"p99\":4096000,\"max\":8962900},"         \
	"\"unstamped\":3}},{\"stream\":1,\"port\":1,\"rx_packets\":10000}]"

/* The value of one-way member @p key of @p pt's stream @p i, half @p half. */
static double
ow_num(const json_t *pt, size_t i, const char *half, const char *key)
{
	const json_t *st =
		json_array_get(json_object_get(json_object_get(pt, "oneway"), "streams"), i);
	const json_t *v = json_object_get(json_object_get(st, half), key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Remove what report_write_all() wrote in @p dir, and @p dir. */
static void
ow_report_remove(const char *dir, const struct report_info *info)
{
	char path[400];
	unsigned int i;

	for (i = 0; i < info->nb_files; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, info->files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * One-way latency in summary.json and report.html: the halves per
 * stream of the last trial with "oneway", "not measured (reason)" where
 * the clocks differ, nothing where no guest stamps, and a record the
 * table refuses named, never read as zeros.
 */
static void
test_oneway(void)
{
	struct report_info info;
	struct report_opts o;
	char dir[300], path[400], *html;
	const json_t *pt, *ow;
	json_t *recs, *sum;

	recs = json_array();
	/* 64 B: an older trial with other figures, then the one the summary shows. */
	json_array_append_new(recs,
			      ow_trial(64, "," OW_SHARED ",\"streams\":[{\"stream\":0,"
					   "\"port\":0,\"oneway_ns\":{\"to_guest\":{\"p50\":1},"
					   "\"from_guest\":{\"p50\":1}}}]"));
	json_array_append_new(recs, ow_trial(64, "," OW_SHARED "," OW_STREAMS));
	json_array_append_new(
		recs,
		ow_trial(128, ",\"oneway\":{\"guest\":\"vm\",\"source\":\"gen\","
			      "\"clock\":\"differs\",\"reason\":\"boot ids differ\"}," OW_STREAMS));
	json_array_append_new(recs, ow_trial(256, "," OW_STREAMS));
	json_array_append_new(recs, ow_trial(512, ",\"oneway\":{\"guest\":\"vm\",\"clock\":"
						  "\"sideways\"}"));
	json_array_append_new(recs,
			      ow_trial(1024, "," OW_SHARED ",\"streams\":[{\"stream\":0,"
					     "\"oneway_ns\":{\"to_guest\":{\"p99\":\"lots\"}}}]"));
	json_array_append_new(recs, ow_trial(1518, "," OW_SHARED ",\"streams\":[{\"stream\":0}]"));

	sum = report_summary(recs, NULL);
	CHECK(sum != NULL, "oneway summary");
	pt = point(sum, 64, 1);
	ow = json_object_get(pt, "oneway");
	CHECK(json_is_true(json_object_get(ow, "measured")), "64 B: measured");
	CHECK(json_array_size(json_object_get(ow, "streams")) == 1,
	      "64 B: the stream without oneway_ns has no row");
	CHECK(near(ow_num(pt, 0, "to_guest", "p50_us"), 87.0) &&
		      near(ow_num(pt, 0, "to_guest", "p99_us"), 4390.9) &&
		      near(ow_num(pt, 0, "to_guest", "max_us"), 11866.4),
	      "64 B to_guest of the last trial: %f %f %f", ow_num(pt, 0, "to_guest", "p50_us"),
	      ow_num(pt, 0, "to_guest", "p99_us"), ow_num(pt, 0, "to_guest", "max_us"));
	CHECK(near(ow_num(pt, 0, "from_guest", "p50_us"), 113.7) &&
		      near(ow_num(pt, 0, "from_guest", "p99_us"), 4096.0) &&
		      near(ow_num(pt, 0, "from_guest", "max_us"), 8962.9),
	      "64 B from_guest");
	CHECK(near(ow_num(pt, 0, "to_guest", "count"), 10000), "64 B count");
	CHECK(strcmp(json_string_value(json_object_get(ow, "guest")) ?: "", "vm") == 0 &&
		      strcmp(json_string_value(json_object_get(ow, "source")) ?: "", "gen") == 0,
	      "64 B guest and source");

	ow = json_object_get(point(sum, 128, 1), "oneway");
	CHECK(json_is_false(json_object_get(ow, "measured")) &&
		      json_object_get(ow, "streams") == NULL,
	      "128 B: clocks differ, not measured");
	CHECK(strcmp(json_string_value(json_object_get(ow, "reason")) ?: "",
		     "vm's clock is not gen's: boot ids differ") == 0,
	      "128 B reason: %s", json_string_value(json_object_get(ow, "reason")));
	CHECK(point(sum, 256, 1) != NULL && json_object_get(point(sum, 256, 1), "oneway") == NULL,
	      "256 B: no guest stamps, no oneway");
	ow = json_object_get(point(sum, 512, 1), "oneway");
	CHECK(json_is_false(json_object_get(ow, "measured")) &&
		      strstr(json_string_value(json_object_get(ow, "reason")) ?: "",
			     "the record's oneway: clock") != NULL,
	      "512 B: a clock no writer writes: %s",
	      json_string_value(json_object_get(ow, "reason")));
	ow = json_object_get(point(sum, 1024, 1), "oneway");
	CHECK(json_is_false(json_object_get(ow, "measured")) &&
		      strstr(json_string_value(json_object_get(ow, "reason")) ?: "",
			     "the record's streams[0]: oneway_ns.to_guest.p99") != NULL,
	      "1024 B: a figure that is no number: %s",
	      json_string_value(json_object_get(ow, "reason")));
	ow = json_object_get(point(sum, 1518, 1), "oneway");
	CHECK(json_is_false(json_object_get(ow, "measured")) &&
		      strcmp(json_string_value(json_object_get(ow, "reason")) ?: "",
			     "no stream of gen has oneway_ns") == 0,
	      "1518 B: shared clock, no halves: %s",
	      json_string_value(json_object_get(ow, "reason")));

	snprintf(dir, sizeof(dir), "%s/oneway", tmpdir);
	report_opts_init(&o);
	o.plots = false;
	o.html = true;
	CHECK(report_write_all(recs, dir, &o, &info) == 0, "oneway report.html");
	snprintf(path, sizeof(path), "%s/report.html", dir);
	html = read_file(path);
	CHECK(html != NULL && strstr(html, "<h2>One-way latency</h2>") != NULL, "html section");
	CHECK(html != NULL &&
		      strstr(html, "<tr><td>64</td><td>1</td><td>1000</td><td>0</td><td>0</td>"
				   "<td>87.0</td><td>4390.9</td><td>11866.4</td>"
				   "<td>113.7</td><td>4096.0</td><td>8962.9</td></tr>") != NULL,
	      "html 64 B row");
	CHECK(html != NULL &&
		      strstr(html, "not measured (vm&#39;s clock is not gen&#39;s: boot ids "
				   "differ)") != NULL,
	      "html 128 B not measured");
	free(html);
	ow_report_remove(dir, &info);

	/* No trial measured it: the table says so. */
	json_array_clear(recs);
	json_array_append_new(recs, ow_trial(64, ""));
	CHECK(report_write_all(recs, dir, &o, &info) == 0, "report.html without oneway");
	snprintf(path, sizeof(path), "%s/report.html", dir);
	html = read_file(path);
	CHECK(html != NULL && strstr(html, "no trial measured it") != NULL, "html: none measured");
	free(html);
	ow_report_remove(dir, &info);
	json_decref(sum);
	json_decref(recs);
}

int
main(void)
{
	char cmd[300];

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_jsonl();
	test_load_refused();
	test_load_misshapen();
	record_strings_fit(coord_trial_record_members, "trial");
	record_strings_fit(coord_search_record_members, "search");
	record_strings_fit(coord_record_oneway_members, "oneway");
	record_strings_fit(coord_record_stream_members, "streams[]");
	record_strings_fit(coord_run_record_members, "run");
	record_strings_fit(coord_soak_record_members, "soak");
	test_soak_run_summary();
	test_summary_csv();
	test_search_record();
	test_repeats();
	test_compare();
	test_compare_latency();
	test_oneway();
	if (unit_check_failures == 0) {
		/* Only our own temporary directory, built above. */
		snprintf(cmd, sizeof(cmd), "%s/results.jsonl", tmpdir);
		unlink(cmd);
		snprintf(cmd, sizeof(cmd), "%s/fixture.jsonl", tmpdir);
		unlink(cmd);
		snprintf(cmd, sizeof(cmd), "%s/ndr.csv", tmpdir);
		unlink(cmd);
		snprintf(cmd, sizeof(cmd), "%s/pdr.csv", tmpdir);
		unlink(cmd);
		rmdir(tmpdir);
		printf("all report checks passed\n");
		return 0;
	}
	printf("%d check(s) failed; files kept in %s\n", unit_check_failures, tmpdir);
	return 1;
}
