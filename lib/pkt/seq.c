/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "pvp_sig.h"

#define WMASK (PVP_SEQ_WINDOW - 1)

static inline bool
seq_bit(const struct pvp_seq *s, uint32_t seq)
{
	uint32_t i = seq & WMASK;

	return (s->window[i >> 6] >> (i & 63)) & 1;
}

static inline void
seq_set(struct pvp_seq *s, uint32_t seq)
{
	uint32_t i = seq & WMASK;

	s->window[i >> 6] |= UINT64_C(1) << (i & 63);
}

static inline void
seq_clear(struct pvp_seq *s, uint32_t seq)
{
	uint32_t i = seq & WMASK;

	s->window[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

void
pvp_seq_init(struct pvp_seq *s)
{
	memset(s, 0, sizeof(*s));
}

void
pvp_seq_update(struct pvp_seq *s, uint32_t seq)
{
	int32_t diff;

	s->rx++;
	if (s->started == 0) {
		/* The first packet is the baseline: a tracker reset in the
		 * middle of a stream (stats.clear) must not count the
		 * sequence numbers before it as lost. */
		s->started = 1;
		s->next = seq + 1;
		memset(s->window, 0, sizeof(s->window));
		seq_set(s, seq);
		return;
	}
	/* Serial number arithmetic (RFC 1982): correct across 2^32 wraps. */
	diff = (int32_t)(seq - s->next);
	if (diff >= 0) {
		uint32_t skipped = (uint32_t)diff;

		s->gaps += skipped;
		if (skipped != 0)
			s->jumps++;
		if (skipped + 1 >= PVP_SEQ_WINDOW) {
			memset(s->window, 0, sizeof(s->window));
		} else {
			uint32_t q;

			/* Forget what the window held for these positions
			 * PVP_SEQ_WINDOW numbers ago. */
			for (q = s->next; q != seq + 1; q++)
				seq_clear(s, q);
		}
		seq_set(s, seq);
		s->next = seq + 1;
		return;
	}
	/* Arrived after a higher number. */
	if ((uint32_t)(s->next - seq) <= PVP_SEQ_WINDOW) {
		if (seq_bit(s, seq)) {
			s->dup++;
			return;
		}
		seq_set(s, seq);
	}
	/* Late: counted out of order; it fills a gap counted before.
	 * Older than the window it may also be a duplicate, which cannot
	 * be told apart any more. */
	s->ooo++;
	if (s->gaps > 0)
		s->gaps--;
}
