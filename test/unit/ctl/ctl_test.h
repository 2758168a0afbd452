/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * What the lib/ctl test programs share: the check macro, raw client
 * sockets (a client that does not use the library, or a hostile one),
 * servers in a child process whose memory can be measured, and files.
 */

#ifndef CTL_TEST_H
#define CTL_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#include "pvp_ctl.h"
#include "pvp_util.h"
#include "../unit_check.h"

/*
 * AddressSanitizer keeps freed memory in quarantine (256 MiB by default)
 * and adds redzones: memory bounds measured by RSS do not hold under it.
 */
#if defined(__SANITIZE_ADDRESS__)
#define CT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CT_ASAN 1
#endif
#endif
#ifndef CT_ASAN
#define CT_ASAN 0
#endif

/** Generous bound for one call: 2 shared CPUs, many test programs at once. */
#define CT_CALL_MS 20000

/** CLOCK_MONOTONIC in milliseconds. */
uint64_t ct_now_ms(void);

/** VmRSS of @p pid in KiB (0: this process), or -1. */
long ct_rss_kb(pid_t pid);

/**
 * A raw blocking connection to "unix:PATH", "PATH" or "tcp:HOST:PORT",
 * with receive and send timeouts of @p timeout_ms. Returns the fd or -1.
 */
int ct_connect(const char *address, int timeout_ms);

/** Send all of @p data. Returns 0 or -1. */
int ct_send(int fd, const void *data, size_t len);

/** Send a NUL-terminated string. */
int ct_send_str(int fd, const char *s);

/**
 * Read one line (malloc'd, no newline) of at most @p max bytes; NULL on
 * end of file, error, timeout or a longer line. Reads nothing past the
 * newline, so no state is kept between calls.
 */
char *ct_line(int fd, size_t max);

/** One line parsed as JSON, or NULL. */
json_t *ct_answer(int fd);

/** Error code of an answer object, 0 for a result, 1 for anything else. */
int ct_code(const json_t *a);

/**
 * True when the server closed @p fd within @p ms (end of file or reset;
 * what it sends meanwhile is read and dropped).
 */
bool ct_closed_within(int fd, int ms);

/** Connect with the library and ping; 0, or the error code. */
int ct_ping(const char *address, const char *token, int timeout_ms);

/** Write @p text to @p path with @p mode. */
void ct_write_file(const char *path, const char *text, mode_t mode);

/** Registers a child server's methods before it starts. */
typedef void (*ct_setup_cb)(struct pvp_ctl_server *srv);

/**
 * Run a server in a child process (so its memory can be measured alone).
 * @p address receives the bound address. Returns the child's pid or -1.
 */
pid_t ct_spawn(const struct pvp_ctl_server_conf *conf, ct_setup_cb setup, char *address,
	       size_t len);

/** SIGTERM the child and reap it. */
void ct_stop(pid_t pid);

#endif /* CTL_TEST_H */
