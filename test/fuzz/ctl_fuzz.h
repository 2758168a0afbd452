/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/* Shared by the libFuzzer target and the replay test. */

#ifndef CTL_FUZZ_H
#define CTL_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/** The token the fuzz servers with auth expect (the corpus uses it). */
#define CTL_FUZZ_TOKEN "fuzz-token-0123456789"

/** Feed @p data to fresh connections of every fuzz server config. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** Free the fuzz servers (so leak checkers see a clean exit). */
void ctl_fuzz_cleanup(void);

#endif /* CTL_FUZZ_H */
