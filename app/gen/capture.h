/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Captures of pvpkit-gen (capture.c: lcores and writer, capture_ctl.c:
 * control and option): --capture, the capture.* control methods and
 * TRex's "capture" method share them. The RX and TX lcores
 * test each frame against a capture's ports and BPF filter and copy the
 * ones that match into a ring; a writer thread (no lcore) empties the
 * ring into a pcap file or a buffer a client fetches from. With no
 * capture running the lcores pay one load per burst. Never installed.
 */

#ifndef GEN_CAPTURE_H
#define GEN_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>

#include "pvp_gen_answer.h"

#define GEN_CAP_MAX	  10		 /* captures at once (as TRex) */
#define GEN_CAP_MEM_BYTES (256ull << 20) /* most bytes kept for fetching, all captures */

/* Frames and frame bytes a capture keeps at most, bytes when not told. */
#define GEN_CAP_MAX_COUNT PVP_GEN_CAP_MAX_COUNT
#define GEN_CAP_MAX_BYTES ((unsigned long long)PVP_GEN_CAP_MAX_BYTES)
#define GEN_CAP_DEF_BYTES ((unsigned long long)PVP_GEN_CAP_DEF_BYTES)

/* Which side of a port a frame was seen on. */
enum gen_cap_dir {
	GEN_CAP_RX = 0, /* received */
	GEN_CAP_TX = 1, /* offered to the port for sending */
};

/* What a capture takes, and where it goes. */
struct gen_cap_conf {
	const char *filter; /* BPF (pcap-filter(7)), NULL or "": every frame */
	uint64_t ports[2];  /* per enum gen_cap_dir: generator port bit mask */
	uint64_t count;	    /* frames kept at most, 0: no limit (file only) */
	uint64_t bytes;	    /* frame bytes kept at most, 0: no limit (file only) */
	bool cyclic;	    /* buffer full: drop the oldest, not the newest */
	const char *file;   /* pcap file written as frames come, NULL: a
			     * buffer of @count frames for gen_cap_fetch() */
	bool file_excl;	    /* refuse a file that exists (a client's name) */
};

/* A capture as gen_cap_status() reports it. */
struct gen_cap_info {
	uint32_t id;
	bool active;	    /* still taking frames */
	bool to_file;	    /* writes a pcap file */
	bool cyclic;	    /* conf.cyclic */
	uint64_t ports[2];  /* conf.ports */
	char filter[256];   /* conf.filter, "" for none */
	uint64_t limit;	    /* conf.count */
	uint64_t matched;   /* frames that passed the ports and the filter */
	uint64_t captured;  /* frames written or buffered */
	uint64_t bytes;	    /* their bytes */
	uint64_t over;	    /* matched past a limit (fixed), not kept */
	uint64_t dropped;   /* matched, not kept: ring or copies full */
	uint64_t fetched;   /* buffer: frames handed to clients */
	uint64_t pending;   /* buffer: frames waiting to be fetched */
	uint64_t buf_bytes; /* buffer: their bytes */
	double start_ts;    /* CLOCK_REALTIME s of the start */
};

/* One buffered frame, as gen_cap_fetch() hands it out. */
struct gen_cap_pkt {
	double ts;	/* CLOCK_REALTIME s it was seen */
	uint64_t index; /* 1, 2, ... in the order of matching */
	uint16_t port;	/* generator port */
	uint8_t dir;	/* enum gen_cap_dir */
	uint32_t len;	/* bytes of data (the whole frame, without FCS) */
	uint8_t data[];
};

/* Nonzero while a capture takes frames: read on every burst. */
extern volatile uint32_t gen_cap_on;

void gen_cap_burst_slow(uint16_t port, enum gen_cap_dir dir, struct rte_mbuf **pkts,
			unsigned int n);

/*
 * Offer @p n frames seen on generator port @p port to the running
 * captures. The frames are copied, never taken: they stay in their
 * burst and in their counters.
 */
static __rte_always_inline void
gen_cap_burst(uint16_t port, enum gen_cap_dir dir, struct rte_mbuf **pkts, unsigned int n)
{
	if (unlikely(__atomic_load_n(&gen_cap_on, __ATOMIC_RELAXED) != 0))
		gen_cap_burst_slow(port, dir, pkts, n);
}

/*
 * Whether @p filter compiles (libpcap, Ethernet link type); -EINVAL
 * with libpcap's reason alone in @p err when not (callers say what).
 */
int gen_cap_filter_check(const char *filter, char *err, size_t errlen);

/*
 * Start a capture: its id in @p id, its start time in @p start_ts.
 * Returns 0, -EINVAL (filter, limits), -ENOSPC (GEN_CAP_MAX running),
 * -ENOMEM, or -errno of the file, with a line in @p err.
 */
int gen_cap_start(const struct gen_cap_conf *c, uint32_t *id, double *start_ts, char *err,
		  size_t errlen);
/*
 * Stop capture @p id taking frames and wait for the writer to store
 * what it took (a file is complete on return); -ENOENT if none.
 */
int gen_cap_stop(uint32_t id, struct gen_cap_info *info, char *err, size_t errlen);
/* Stop (if running) and forget capture @p id with its buffer; -ENOENT if none. */
int gen_cap_remove(uint32_t id, char *err, size_t errlen);
/*
 * Capture @p id's BPF filter becomes @p filter ("" or NULL: every frame)
 * while it runs; a frame is tested against the old or the new one, whole.
 * Returns 0, -EINVAL (does not compile), -ENOENT or -ENOMEM with @p err.
 */
int gen_cap_set_filter(uint32_t id, const char *filter, char *err, size_t errlen);
/* Captures in id order into @p out (at most @p max); returns how many there are. */
unsigned int gen_cap_status(struct gen_cap_info *out, unsigned int max);
/*
 * Hand up to @p max buffered frames of capture @p id, oldest first, to
 * @p cb and forget them; @p pending gets the frames left. -ENOENT if no
 * such capture, -EINVAL if it writes a file.
 */
int gen_cap_fetch(uint32_t id, uint32_t max, void (*cb)(void *arg, const struct gen_cap_pkt *p),
		  void *arg, uint64_t *pending, double *start_ts, char *err, size_t errlen);
/*
 * Parse --capture's FILE[,filter=BPF][,count=N][,bytes=N][,port=P]
 * [,dir=rx|tx] into @p c, whose strings then point into @p buf (a copy
 * of @p arg); the filter is compiled to check it. 0 or -EINVAL.
 */
int gen_cap_parse(const char *arg, struct gen_cap_conf *c, char *buf, size_t buflen, char *err,
		  size_t errlen);
/*
 * Counts (matched, captured, bytes, over, dropped) summed over every
 * capture since the start into @p t; false when none was ever started.
 */
bool gen_cap_totals(struct gen_cap_info *t);
/* Stop every capture (gen_cap_stop() for each): at the end of a run. */
void gen_cap_stop_all(void);
/* Stop and remove every capture and end the writer (at exit). */
void gen_cap_fini(void);

#endif /* GEN_CAPTURE_H */
