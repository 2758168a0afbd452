/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * ovs-ofctl and ovs-appctl for the ovs hop, run by ovs_cmd.c (here, or
 * over ssh with "ssh" in the topology).
 */

#include <errno.h>
#include <stdlib.h>

#include "ovs_private.h"

/* Run an OVS tool; a non-zero exit becomes an error with its stderr. */
int
ovs_tool(struct ovs_hop *h, const char *const argv[], const char *in, size_t in_len,
	 unsigned int timeout_ms, struct ovs_out *out, char *err, size_t err_len)
{
	int rc;

	rc = ovs_cmd_run(&h->ssh, argv, in, in_len, timeout_ms, out, err, err_len);
	if (rc < 0)
		return rc;
	if (out->status != 0) {
		rc = pvp_fail(err, err_len, -EIO, "ovs: %s %s failed (exit %d)%s%s", argv[0],
			      argv[1], out->status, out->err[0] != '\0' ? ": " : "", out->err);
		free(out->out);
		out->out = NULL;
	}
	return rc;
}

/* ovs-appctl [-t TARGET] CMD: argv with the optional target. */
int
ovs_appctl(struct ovs_hop *h, const char *cmd, struct ovs_out *out, char *err, size_t err_len)
{
	const char *argv[6];
	unsigned int n = 0;

	argv[n++] = "ovs-appctl";
	if (h->appctl_target[0] != '\0') {
		argv[n++] = "-t";
		argv[n++] = h->appctl_target;
	}
	argv[n++] = cmd;
	argv[n] = NULL;
	return ovs_tool(h, argv, NULL, 0, h->timeout_ms, out, err, err_len);
}
