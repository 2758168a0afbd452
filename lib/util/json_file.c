/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * A JSON document written to a file a user names (pvpkit-gen and
 * pvpkit-fwd --json FILE; pvp_path_check_writable() checks it before the
 * run), written so that a FIFO or a device named by mistake is refused,
 * never blocked on.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "pvp_util.h"
#include "util_private.h"

/*
 * Open @p path for writing (created or truncated) without blocking (a
 * FIFO without a reader fails at once) and refuse anything but a regular
 * file. Returns an fd or -errno.
 */
static int
json_file_open(const char *path)
{
	struct stat st;
	int fd, e;

	/* Opening a FIFO without a reader fails with ENXIO: say what it is. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return -EINVAL;
	fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	e = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
	if (e != 0) {
		close(fd);
		return -e;
	}
	return fd;
}

int
pvp_json_file_write(const char *path, const json_t *doc, char *err, size_t errlen)
{
	int fd, ret = 0;

	if (doc == NULL)
		return util_seterr(err, errlen, -ENOMEM, "%s: out of memory", path);
	fd = json_file_open(path);
	if (fd < 0)
		return util_seterr(err, errlen, fd, "%s: %s", path,
				   fd == -EINVAL ? "not a regular file" : strerror(-fd));
	if (json_dumpfd(doc, fd, JSON_INDENT(2) | JSON_SORT_KEYS) != 0 || write(fd, "\n", 1) != 1)
		ret = -EIO;
	if (close(fd) != 0 && ret == 0)
		ret = -errno;
	if (ret != 0)
		util_seterr(err, errlen, ret, "%s: cannot write: %s", path, strerror(-ret));
	return ret;
}
