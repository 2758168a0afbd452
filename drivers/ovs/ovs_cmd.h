/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Running OVS tools (ovs-appctl, ovs-ofctl) for the ovs hop driver, on
 * this host or over ssh. Commands are argv vectors, never shell strings;
 * over ssh each remote word is quoted for the remote shell, so no value
 * from a topology file is ever interpreted by a shell. Private to
 * drivers/ovs.
 */

#ifndef OVS_CMD_H
#define OVS_CMD_H

#include <stddef.h>

/** Where commands run: locally, or on a host reached with ssh keys. */
struct ovs_ssh {
	char host[256];	   /**< remote host; empty = run locally */
	char user[64];	   /**< remote user, or empty for ssh's default */
	char key[512];	   /**< private key file (-i), or empty */
	unsigned int port; /**< ssh port, 0 = default */
};

/** What a command produced. */
struct ovs_out {
	char *out;     /**< stdout, NUL-terminated (malloc'd; free it) */
	size_t len;    /**< bytes in out */
	char err[256]; /**< first line of stderr, or "" */
	int status;    /**< exit status, or -1 when killed */
};

/**
 * Run @p argv (NULL-terminated; argv[0] looked up in PATH) locally or
 * through @p ssh, feeding @p in (may be NULL) on stdin, for at most
 * @p timeout_ms. @return 0 when it ran (check out->status), or -errno
 * (-ETIMEDOUT: killed) with @p err set.
 */
int ovs_cmd_run(const struct ovs_ssh *ssh, const char *const argv[], const char *in, size_t in_len,
		unsigned int timeout_ms, struct ovs_out *out, char *err, size_t err_len);

/**
 * Build the argv that ovs_cmd_run() executes for @p argv (for tests
 * and error messages). @return a NULL-terminated vector to free with
 * ovs_argv_free(), or NULL.
 */
char **ovs_cmd_argv(const struct ovs_ssh *ssh, const char *const argv[]);

/** Free what ovs_cmd_argv() returned. NULL is a no-op. */
void ovs_argv_free(char **argv);

#endif /* OVS_CMD_H */
