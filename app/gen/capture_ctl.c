/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Captures (capture.h): the control side, which starts, stops, reports,
 * fetches and removes them, and the --capture option. Stopping waits for
 * the lcores and then the writer (capture.c) as that file describes.
 */

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include <pcap/pcap.h>

#include "pvp_util.h"

#include "capture.h"
#include "capture_private.h"
#include "gen.h"

#define GEN_CAP_RING 1024 /* records on their way to the writer */
/* How long stop waits for the writer to store what the lcores took. */
#define GEN_CAP_DRAIN_S 2

static pthread_mutex_t gen_cap_mtx = PTHREAD_MUTEX_INITIALIZER; /* control side */
static pthread_t gen_cap_thr;
static bool gen_cap_thr_started;
static uint32_t gen_cap_next_id = 1;
/* Counts of removed captures, for the report's totals. */
static struct gen_cap_info gen_cap_gone;

int
gen_cap_filter_check(const char *filter, char *err, size_t errlen)
{
	struct bpf_program prog;
	pcap_t *p;
	int ret = 0;

	if (filter == NULL || filter[0] == '\0')
		return 0;
	p = pcap_open_dead(DLT_EN10MB, GEN_CAP_SNAP);
	if (p == NULL)
		return pvp_fail(err, errlen, -ENOMEM, "out of memory");
	if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) != 0)
		ret = pvp_fail(err, errlen, -EINVAL, "%s", pcap_geterr(p));
	else
		pcap_freecode(&prog);
	pcap_close(p);
	return ret;
}

/* @p filter compiled (checked before), malloc'd; NULL when out of memory. */
static struct bpf_program *
gen_cap_compile(const char *filter)
{
	struct bpf_program *prog = malloc(sizeof(*prog));
	pcap_t *p = pcap_open_dead(DLT_EN10MB, GEN_CAP_SNAP);

	if (prog == NULL || p == NULL ||
	    pcap_compile(p, prog, filter, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		free(prog);
		prog = NULL;
	}
	if (p != NULL)
		pcap_close(p);
	return prog;
}

static void
gen_cap_prog_free(struct bpf_program *prog)
{
	if (prog == NULL)
		return;
	pcap_freecode(prog);
	free(prog);
}

/* ---- control side (gen_cap_mtx held) ---- */

/* The pool, the ring and the writer, made by the first capture. */
static int
gen_cap_engine(char *err, size_t errlen)
{
	if (gen_cap_ring != NULL)
		return 0;
	gen_cap_mp = rte_mempool_create("gen_cap", GEN_CAP_RING - 1,
					sizeof(struct gen_cap_rec) + GEN_CAP_SNAP, 32, 0, NULL,
					NULL, NULL, NULL, SOCKET_ID_ANY, 0);
	gen_cap_ring = rte_ring_create("gen_cap", GEN_CAP_RING, SOCKET_ID_ANY, RING_F_SC_DEQ);
	gen_cap_thr_stop = false;
	if (gen_cap_mp == NULL || gen_cap_ring == NULL ||
	    rte_ctrl_thread_create(&gen_cap_thr, "pvp-capture", NULL, gen_cap_writer, NULL) != 0) {
		pvp_err(err, errlen, "capture: no memory for its ring and copies (%zu kB)",
			(size_t)GEN_CAP_RING * (sizeof(struct gen_cap_rec) + GEN_CAP_SNAP) / 1024);
		rte_ring_free(gen_cap_ring);
		rte_mempool_free(gen_cap_mp);
		gen_cap_ring = NULL;
		gen_cap_mp = NULL;
		return -ENOMEM;
	}
	gen_cap_thr_started = true;
	return 0;
}

/* Wait until no lcore reads the captures as they were before the caller's change. */
static void
gen_cap_grace(void)
{
	unsigned int lc;

	for (lc = 0; lc <= RTE_MAX_LCORE; lc++) {
		uint64_t s = __atomic_load_n(&gen_cap_lcs[lc].seq, __ATOMIC_SEQ_CST);

		if ((s & 1) == 0)
			continue;
		while (__atomic_load_n(&gen_cap_lcs[lc].seq, __ATOMIC_ACQUIRE) == s)
			rte_pause();
	}
}

/* Wait until the writer has stored every record enqueued so far. */
static void
gen_cap_drain(void)
{
	uint64_t enq = __atomic_load_n(&gen_cap_enq, __ATOMIC_ACQUIRE);
	uint64_t deadline = rte_rdtsc() + GEN_CAP_DRAIN_S * rte_get_tsc_hz();

	while (gen_cap_ring != NULL && __atomic_load_n(&gen_cap_done, __ATOMIC_ACQUIRE) < enq &&
	       rte_rdtsc() < deadline)
		usleep(100);
}

static struct gen_cap *
gen_cap_find(uint32_t id)
{
	unsigned int s;

	for (s = 0; s < GEN_CAP_MAX; s++)
		if (gen_cap_slots[s].state != GEN_CAP_FREE && gen_cap_slots[s].id == id)
			return &gen_cap_slots[s];
	return NULL;
}

static void
gen_cap_refresh_on(void)
{
	uint32_t on = 0;
	unsigned int s;

	for (s = 0; s < GEN_CAP_MAX; s++)
		on += gen_cap_slots[s].state == GEN_CAP_ACTIVE;
	__atomic_store_n(&gen_cap_on, on, __ATOMIC_SEQ_CST);
}

/* Open @p c's pcap file: a new file when @p excl. On failure the caller releases @p c. */
static int
gen_cap_open_file(struct gen_cap *c, const char *file, bool excl, char *err, size_t errlen)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC | (excl ? O_EXCL : O_TRUNC), 0644);
	FILE *f;

	if (fd < 0)
		return pvp_fail(err, errlen, -errno, "capture: cannot create %.200s: %s", file,
				strerror(errno));
	f = fdopen(fd, "w");
	c->dead = pcap_open_dead(DLT_EN10MB, GEN_CAP_SNAP);
	c->dump = f != NULL && c->dead != NULL ? pcap_dump_fopen(c->dead, f) : NULL;
	if (c->dump == NULL) {
		pvp_err(err, errlen, "capture: cannot write %.200s: %s", file,
			c->dead != NULL ? pcap_geterr(c->dead) : "out of memory");
		if (f != NULL)
			fclose(f);
		else
			close(fd);
		return -EIO;
	}
	return 0;
}

/* Close the file, free the buffer and the program: the slot is free. */
static void
gen_cap_release(struct gen_cap *c)
{
	if (c->dump != NULL)
		pcap_dump_close(c->dump);
	if (c->dead != NULL)
		pcap_close(c->dead);
	c->dump = NULL;
	c->dead = NULL;
	while (c->nb != 0)
		free(gen_cap_buf_pop(c));
	free(c->buf);
	c->buf = NULL;
	gen_cap_prog_free(c->prog);
	c->prog = NULL;
}

int
gen_cap_start(const struct gen_cap_conf *conf, uint32_t *id, double *start_ts, char *err,
	      size_t errlen)
{
	struct gen_cap *c = NULL;
	char msg[256] = "";
	unsigned int s;
	int ret;

	if (conf->file == NULL && (conf->count == 0 || conf->count > GEN_CAP_MAX_COUNT))
		return pvp_fail(err, errlen, -EINVAL,
				"capture: limit %" PRIu64 " must be in 1..%u frames", conf->count,
				GEN_CAP_MAX_COUNT);
	if (conf->count > GEN_CAP_MAX_COUNT || conf->bytes > GEN_CAP_MAX_BYTES)
		return pvp_fail(err, errlen, -EINVAL,
				"capture: count must be at most %u and bytes at most %llu",
				GEN_CAP_MAX_COUNT, GEN_CAP_MAX_BYTES);
	if (conf->file != NULL && conf->cyclic)
		return pvp_fail(err, errlen, -EINVAL, "capture: a file capture cannot be cyclic");
	ret = gen_cap_filter_check(conf->filter, msg, sizeof(msg));
	if (ret != 0)
		return pvp_fail(err, errlen, ret,
				"capture: BPF filter '%.200s' does not compile: %s", conf->filter,
				msg);
	pthread_mutex_lock(&gen_cap_mtx);
	for (s = 0; s < GEN_CAP_MAX && c == NULL; s++)
		if (gen_cap_slots[s].state == GEN_CAP_FREE)
			c = &gen_cap_slots[s];
	if (c == NULL) {
		ret = pvp_fail(err, errlen, -ENOSPC,
			       "capture: %u captures exist already (remove one)", GEN_CAP_MAX);
		goto out;
	}
	ret = gen_cap_engine(err, errlen);
	if (ret != 0)
		goto out;
	pthread_mutex_lock(&c->lock);
	memcpy(c->ports, conf->ports, sizeof(c->ports));
	c->to_file = conf->file != NULL;
	c->cyclic = conf->cyclic;
	c->count = c->to_file ? conf->count : 0;
	c->bytes_lim = c->to_file ? conf->bytes : 0;
	c->limit = c->to_file ? 0 : conf->count;
	c->full = 0;
	c->matched = c->res_bytes = c->over = c->dropped = 0;
	c->captured = c->cap_bytes = c->fetched = 0;
	c->head = c->nb = c->buf_bytes = 0;
	snprintf(c->filter, sizeof(c->filter), "%s", conf->filter != NULL ? conf->filter : "");
	if (c->filter[0] != '\0') {
		/* Compiled before, so only memory can fail here. */
		c->prog = gen_cap_compile(c->filter);
		if (c->prog == NULL)
			ret = -ENOMEM;
	}
	if (ret == 0 && !c->to_file) {
		c->buf = calloc(c->limit, sizeof(*c->buf));
		if (c->buf == NULL)
			ret = -ENOMEM;
	}
	if (ret != 0)
		pvp_err(err, errlen, "capture: out of memory");
	if (ret == 0 && c->to_file)
		ret = gen_cap_open_file(c, conf->file, conf->file_excl, err, errlen);
	if (ret != 0) {
		gen_cap_release(c);
		pthread_mutex_unlock(&c->lock);
		goto out;
	}
	c->gen++;
	c->id = gen_cap_next_id++;
	c->start_ts = pvp_realtime_s();
	*id = c->id;
	if (start_ts != NULL)
		*start_ts = c->start_ts;
	pthread_mutex_unlock(&c->lock);
	__atomic_store_n(&c->state, GEN_CAP_ACTIVE, __ATOMIC_SEQ_CST);
	gen_cap_refresh_on();
out:
	pthread_mutex_unlock(&gen_cap_mtx);
	return ret;
}

static void
gen_cap_info_of(struct gen_cap *c, struct gen_cap_info *i)
{
	memset(i, 0, sizeof(*i));
	i->id = c->id;
	i->active = c->state == GEN_CAP_ACTIVE;
	i->to_file = c->to_file;
	i->cyclic = c->cyclic;
	memcpy(i->ports, c->ports, sizeof(i->ports));
	snprintf(i->filter, sizeof(i->filter), "%s", c->filter);
	i->limit = c->to_file ? c->count : c->limit;
	i->matched = __atomic_load_n(&c->matched, __ATOMIC_RELAXED);
	i->over = __atomic_load_n(&c->over, __ATOMIC_RELAXED);
	i->dropped = __atomic_load_n(&c->dropped, __ATOMIC_RELAXED);
	i->captured = c->captured;
	i->bytes = c->cap_bytes;
	i->fetched = c->fetched;
	i->pending = c->nb;
	i->buf_bytes = c->buf_bytes;
	i->start_ts = c->start_ts;
}

/* Stop @p c taking frames and let the writer store what was taken. */
static void
gen_cap_halt(struct gen_cap *c)
{
	if (c->state != GEN_CAP_ACTIVE)
		return;
	__atomic_store_n(&c->state, GEN_CAP_STOPPED, __ATOMIC_SEQ_CST);
	gen_cap_refresh_on();
	gen_cap_grace();
	gen_cap_drain();
	pthread_mutex_lock(&c->lock);
	if (c->dump != NULL)
		pcap_dump_flush(c->dump);
	pthread_mutex_unlock(&c->lock);
}

/* Stop capture @p id, its counts in @p info; @p forget: remove it too. */
static int
gen_cap_end(uint32_t id, struct gen_cap_info *info, bool forget, char *err, size_t errlen)
{
	struct gen_cap_info i;
	struct gen_cap *c;

	pthread_mutex_lock(&gen_cap_mtx);
	c = gen_cap_find(id);
	if (c == NULL) {
		pthread_mutex_unlock(&gen_cap_mtx);
		return pvp_fail(err, errlen, -ENOENT, "capture ID not found");
	}
	gen_cap_halt(c);
	pthread_mutex_lock(&c->lock);
	gen_cap_info_of(c, &i);
	if (forget) {
		gen_cap_gone.matched += i.matched;
		gen_cap_gone.captured += i.captured;
		gen_cap_gone.bytes += i.bytes;
		gen_cap_gone.over += i.over;
		gen_cap_gone.dropped += i.dropped;
		gen_cap_release(c);
		c->state = GEN_CAP_FREE;
	}
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_unlock(&gen_cap_mtx);
	if (info != NULL)
		*info = i;
	return 0;
}

int
gen_cap_stop(uint32_t id, struct gen_cap_info *info, char *err, size_t errlen)
{
	return gen_cap_end(id, info, false, err, errlen);
}

int
gen_cap_remove(uint32_t id, char *err, size_t errlen)
{
	return gen_cap_end(id, NULL, true, err, errlen);
}

int
gen_cap_set_filter(uint32_t id, const char *filter, char *err, size_t errlen)
{
	struct bpf_program *prog = NULL, *old;
	char msg[256] = "";
	struct gen_cap *c;
	int ret;

	if (filter == NULL)
		filter = "";
	ret = gen_cap_filter_check(filter, msg, sizeof(msg));
	if (ret != 0)
		return pvp_fail(err, errlen, ret,
				"capture: BPF filter '%.200s' does not compile: %s", filter, msg);
	if (filter[0] != '\0' && (prog = gen_cap_compile(filter)) == NULL)
		return pvp_fail(err, errlen, -ENOMEM, "capture: out of memory");
	pthread_mutex_lock(&gen_cap_mtx);
	c = gen_cap_find(id);
	if (c == NULL) {
		pthread_mutex_unlock(&gen_cap_mtx);
		gen_cap_prog_free(prog);
		return pvp_fail(err, errlen, -ENOENT, "capture ID not found");
	}
	pthread_mutex_lock(&c->lock);
	snprintf(c->filter, sizeof(c->filter), "%s", filter);
	pthread_mutex_unlock(&c->lock);
	/* Frames from now on meet the new program; the old one goes once no lcore runs it. */
	old = __atomic_exchange_n(&c->prog, prog, __ATOMIC_SEQ_CST);
	gen_cap_grace();
	gen_cap_prog_free(old);
	pthread_mutex_unlock(&gen_cap_mtx);
	return 0;
}

unsigned int
gen_cap_status(struct gen_cap_info *out, unsigned int max)
{
	unsigned int s, n = 0, k;

	pthread_mutex_lock(&gen_cap_mtx);
	for (s = 0; s < GEN_CAP_MAX; s++) {
		struct gen_cap *c = &gen_cap_slots[s];
		struct gen_cap_info i;

		if (c->state == GEN_CAP_FREE)
			continue;
		pthread_mutex_lock(&c->lock);
		gen_cap_info_of(c, &i);
		pthread_mutex_unlock(&c->lock);
		/* Slots are reused: sort by id, as the captures were started. */
		for (k = RTE_MIN(n, max); k > 0 && out[k - 1].id > i.id; k--)
			if (k < max)
				out[k] = out[k - 1];
		if (k < max)
			out[k] = i;
		n++;
	}
	pthread_mutex_unlock(&gen_cap_mtx);
	return n;
}

int
gen_cap_fetch(uint32_t id, uint32_t max, void (*cb)(void *arg, const struct gen_cap_pkt *p),
	      void *arg, uint64_t *pending, double *start_ts, char *err, size_t errlen)
{
	struct gen_cap *c;
	uint32_t k;
	int ret = 0;

	pthread_mutex_lock(&gen_cap_mtx);
	c = gen_cap_find(id);
	if (c == NULL || c->to_file) {
		ret = pvp_fail(err, errlen, c == NULL ? -ENOENT : -EINVAL, "%s",
			       c == NULL ? "capture ID not found"
					 : "capture writes a file: nothing to fetch");
		goto out;
	}
	pthread_mutex_lock(&c->lock);
	for (k = 0; k < max && c->nb != 0; k++) {
		struct gen_cap_pkt *p = gen_cap_buf_pop(c);

		cb(arg, p);
		free(p);
		c->fetched++;
	}
	if (k != 0)
		__atomic_store_n(&c->full, 0, __ATOMIC_RELAXED);
	*pending = c->nb;
	*start_ts = c->start_ts;
	pthread_mutex_unlock(&c->lock);
out:
	pthread_mutex_unlock(&gen_cap_mtx);
	return ret;
}

bool
gen_cap_totals(struct gen_cap_info *t)
{
	struct gen_cap_info i[GEN_CAP_MAX];
	unsigned int n, k;
	bool any;

	pthread_mutex_lock(&gen_cap_mtx);
	*t = gen_cap_gone;
	any = gen_cap_next_id != 1;
	pthread_mutex_unlock(&gen_cap_mtx);
	n = gen_cap_status(i, RTE_DIM(i));
	for (k = 0; k < n; k++) {
		t->matched += i[k].matched;
		t->captured += i[k].captured;
		t->bytes += i[k].bytes;
		t->over += i[k].over;
		t->dropped += i[k].dropped;
	}
	return any;
}

void
gen_cap_stop_all(void)
{
	unsigned int s;

	pthread_mutex_lock(&gen_cap_mtx);
	for (s = 0; s < GEN_CAP_MAX; s++)
		gen_cap_halt(&gen_cap_slots[s]);
	pthread_mutex_unlock(&gen_cap_mtx);
}

void
gen_cap_fini(void)
{
	unsigned int s;

	for (s = 0; s < GEN_CAP_MAX; s++)
		if (gen_cap_slots[s].state != GEN_CAP_FREE)
			gen_cap_remove(gen_cap_slots[s].id, NULL, 0);
	pthread_mutex_lock(&gen_cap_mtx);
	if (gen_cap_thr_started) {
		gen_cap_thr_stop = true;
		pthread_join(gen_cap_thr, NULL);
		gen_cap_thr_started = false;
	}
	rte_ring_free(gen_cap_ring);
	rte_mempool_free(gen_cap_mp);
	gen_cap_ring = NULL;
	gen_cap_mp = NULL;
	pthread_mutex_unlock(&gen_cap_mtx);
}

int
gen_cap_parse(const char *arg, struct gen_cap_conf *c, char *buf, size_t buflen, char *err,
	      size_t errlen)
{
	uint64_t port = UINT64_MAX;
	char *save = NULL, *tok, *v, msg[400] = "";
	bool rx = true, tx = true;
	int ret;

	memset(c, 0, sizeof(*c));
	c->bytes = GEN_CAP_DEF_BYTES;
	if ((size_t)snprintf(buf, buflen, "%s", arg) >= buflen)
		return pvp_fail(err, errlen, -EINVAL, "--capture: argument too long");
	c->file = strtok_r(buf, ",", &save);
	if (c->file == NULL || strchr(c->file, '=') != NULL)
		return pvp_fail(err, errlen, -EINVAL,
				"--capture: FILE[,filter=BPF][,count=N][,bytes=N][,port=P]"
				"[,dir=rx|tx] must start with the file");
	while ((tok = strtok_r(NULL, ",", &save)) != NULL) {
		v = strchr(tok, '=');
		if (v == NULL)
			return pvp_fail(err, errlen, -EINVAL, "--capture: '%.40s' is not key=value",
					tok);
		*v++ = '\0';
		ret = 0;
		if (strcmp(tok, "filter") == 0)
			c->filter = v;
		else if (strcmp(tok, "count") == 0)
			ret = pvp_parse_count("--capture count", v, 1, GEN_CAP_MAX_COUNT, &c->count,
					      err, errlen);
		else if (strcmp(tok, "bytes") == 0)
			ret = pvp_parse_count("--capture bytes", v, 1, GEN_CAP_MAX_BYTES, &c->bytes,
					      err, errlen);
		else if (strcmp(tok, "port") == 0)
			ret = pvp_parse_u64("--capture port", v, 0, GEN_MAX_PORTS - 1, &port, err,
					    errlen);
		else if (strcmp(tok, "dir") == 0 && strcmp(v, "rx") == 0)
			tx = false;
		else if (strcmp(tok, "dir") == 0 && strcmp(v, "tx") == 0)
			rx = false;
		else
			ret = -EINVAL;
		if (ret == -EINVAL && err != NULL && err[0] == '\0')
			pvp_err(err, errlen,
				"--capture: '%.40s=%.40s' is not one of filter=BPF, "
				"count=N, bytes=N, port=P, dir=rx|tx",
				tok, v);
		if (ret != 0)
			return ret;
	}
	c->ports[GEN_CAP_RX] = rx ? (port == UINT64_MAX ? UINT64_MAX : 1ull << port) : 0;
	c->ports[GEN_CAP_TX] = tx ? (port == UINT64_MAX ? UINT64_MAX : 1ull << port) : 0;
	if (gen_cap_filter_check(c->filter, msg, sizeof(msg)) != 0)
		return pvp_fail(err, errlen, -EINVAL,
				"--capture: BPF filter '%.200s' does not compile: %s", c->filter,
				msg);
	return 0;
}
