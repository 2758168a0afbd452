/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/* The network and file sandbox of the hop harnesses (fuzz_sandbox.c). */

#ifndef FUZZ_SANDBOX_H
#define FUZZ_SANDBOX_H

/**
 * The folder whose unix sockets the code under test may connect to
 * (the harness's fake servers); "" refuses every connect().
 */
extern char fuzz_sandbox_dir[128];

/**
 * Connections the code under test made to the unix socket @p path so far
 * (connect() succeeded or is in progress), so a fake server can tell when
 * it has served them all.
 */
unsigned long fuzz_sandbox_connects(const char *path);

#endif /* FUZZ_SANDBOX_H */
