/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * OVS tools as argv, locally or through ssh: the command line built here,
 * the running (fork/exec, pipes, a deadline) by lib/util's
 * pvp_child_run().
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvp_util.h"

#include "ovs_cmd.h"

/* Output above this is cut (pmd-stats-show of many PMDs is a few KiB). */
#define CMD_MAX_OUT (8u << 20)

/* @p s quoted for a POSIX shell ('...'), malloc'd. */
static char *
ovs_sh_quote(const char *s)
{
	size_t n = 3, i;
	char *q, *p;

	for (i = 0; s[i] != '\0'; i++)
		n += s[i] == '\'' ? 4 : 1;
	q = malloc(n);
	if (q == NULL)
		return NULL;
	p = q;
	*p++ = '\'';
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = s[i];
		}
	}
	*p++ = '\'';
	*p = '\0';
	return q;
}

void
ovs_argv_free(char **argv)
{
	size_t i;

	if (argv == NULL)
		return;
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

char **
ovs_cmd_argv(const struct ovs_ssh *ssh, const char *const argv[])
{
	size_t n = 0, k = 0, i;
	char **v;
	char buf[600];

	while (argv[n] != NULL)
		n++;
	v = calloc(n + 16, sizeof(*v));
	if (v == NULL)
		return NULL;
	if (ssh != NULL && ssh->host[0] != '\0') {
		/* BatchMode: never prompt for a password; keys only. */
		v[k++] = strdup("ssh");
		v[k++] = strdup("-o");
		v[k++] = strdup("BatchMode=yes");
		if (ssh->port != 0) {
			snprintf(buf, sizeof(buf), "%u", ssh->port);
			v[k++] = strdup("-p");
			v[k++] = strdup(buf);
		}
		if (ssh->key[0] != '\0') {
			v[k++] = strdup("-i");
			v[k++] = strdup(ssh->key);
		}
		if (ssh->user[0] != '\0')
			snprintf(buf, sizeof(buf), "%s@%s", ssh->user, ssh->host);
		else
			snprintf(buf, sizeof(buf), "%s", ssh->host);
		v[k++] = strdup(buf);
		v[k++] = strdup("--");
		/* sshd hands the words to the remote user's shell: quote each. */
		for (i = 0; i < n; i++)
			v[k++] = ovs_sh_quote(argv[i]);
	} else {
		for (i = 0; i < n; i++)
			v[k++] = strdup(argv[i]);
	}
	for (i = 0; i < k; i++) {
		if (v[i] == NULL) {
			ovs_argv_free(v);
			return NULL;
		}
	}
	return v;
}

int
ovs_cmd_run(const struct ovs_ssh *ssh, const char *const argv[], const char *in, size_t in_len,
	    unsigned int timeout_ms, struct ovs_out *out, char *err, size_t err_len)
{
	struct pvp_child_out co;
	struct pvp_child c = {
		.in = in,
		.in_len = in_len,
		.out_fd = -1,
		.timeout_ms = timeout_ms,
		.max_out = CMD_MAX_OUT,
	};
	char **v;
	int rc;

	memset(out, 0, sizeof(*out));
	out->status = -1;
	v = ovs_cmd_argv(ssh, argv);
	if (v == NULL)
		return pvp_fail(err, err_len, -ENOMEM, "out of memory");
	c.argv = v;
	if (err_len > 0)
		err[0] = '\0';
	rc = pvp_child_run(&c, &co, err, err_len);
	/* The messages name the tool, not ssh in front of it. */
	if (rc == -ETIMEDOUT)
		snprintf(err, err_len, "%s: no answer within %u ms", argv[0], timeout_ms);
	else if (rc < 0)
		snprintf(err, err_len, "%s: %s", argv[0], strerror(-rc));
	ovs_argv_free(v);
	out->out = co.out;
	out->len = co.len;
	out->status = co.status;
	snprintf(out->err, sizeof(out->err), "%s", co.err);
	return rc;
}
