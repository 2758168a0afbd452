/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Files a client names in a request (a profile, a pcap): where they may
 * be, and reading them without letting a FIFO, a device or a huge file
 * block or swell the control thread.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ctl_private.h"

/* True when the canonical @p p is @p dir or lies under it. */
static bool
ctl_path_under(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(p, dir, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/*
 * Apply the policy to @p path and resolve it into @p out (canonical,
 * PATH_MAX bytes). Returns 0 or -errno with @p err filled.
 */
static int
ctl_file_resolve(const char *path, const char *rel_dir, char *out, const char **files_dir,
		 char *err, size_t err_len)
{
	struct pvp_ctl_server *srv;
	struct ctl_conn *c;
	char full[PATH_MAX];
	const char *base;
	int n;

	ctl_current(&srv, &c);
	if (srv == NULL || c == NULL) {
		pvp_err(err, err_len, "a file can be read only for a request being served");
		return -EINVAL;
	}
	*files_dir = srv->files_dir;
	if (path == NULL || path[0] == '\0')
		return pvp_fail(err, err_len, -EINVAL, "empty file name");
	/*
	 * Without a files directory, only clients the socket's file mode
	 * let in may have the server open files for them: over TCP, even
	 * loopback, any local user could.
	 */
	if (srv->files_dir == NULL && !c->is_unix)
		return pvp_fail(err, err_len, -EPERM,
				"\"%.200s\": files are read only for unix-socket clients "
				"(this server has no files directory)",
				path);
	base = path[0] == '/' ? NULL : rel_dir != NULL ? rel_dir : srv->files_dir;
	n = base != NULL ? snprintf(full, sizeof(full), "%s/%s", base, path)
			 : snprintf(full, sizeof(full), "%s", path);
	if (n < 0 || (size_t)n >= sizeof(full))
		return pvp_fail(err, err_len, -ENAMETOOLONG, "\"%.200s\": name too long", path);
	/* realpath() only looks up names: a FIFO is not opened here. */
	if (realpath(full, out) == NULL) {
		n = -errno;
		pvp_err(err, err_len, "\"%.200s\": %s", path, strerror(-n));
		return n;
	}
	if (srv->files_dir != NULL && !ctl_path_under(out, srv->files_dir))
		return pvp_fail(err, err_len, -EPERM,
				"\"%.200s\" is outside the files directory %s", path,
				srv->files_dir);
	return 0;
}

/*
 * Resolve @p path as ctl_file_resolve() does and check that it names a
 * regular file of at most @p max bytes, refused before open() in the
 * client's words: opening a device may do something.
 */
static int
ctl_file_stat(const char *path, const char *rel_dir, size_t max, char *real, const char **files_dir,
	      struct stat *st, char *err, size_t err_len)
{
	int ret;

	ret = ctl_file_resolve(path, rel_dir, real, files_dir, err, err_len);
	if (ret < 0)
		return ret;
	if (stat(real, st) < 0)
		return pvp_fail(err, err_len, -errno, "\"%.200s\": %s", path, strerror(errno));
	if (!S_ISREG(st->st_mode))
		return pvp_fail(err, err_len, -EINVAL, "\"%.200s\": %s, not read", path,
				pvp_file_kind(st->st_mode));
	if ((unsigned long long)st->st_size > (unsigned long long)max)
		return pvp_fail(err, err_len, -EFBIG,
				"\"%.200s\": %lld bytes, over the limit of %zu", path,
				(long long)st->st_size, max);
	return 0;
}

int
pvp_ctl_file_check(const char *path, const char *rel_dir, size_t max_bytes, char *resolved,
		   size_t rlen, char *err, size_t err_len)
{
	char real[PATH_MAX];
	const char *dir;
	struct stat st;
	int ret;

	ret = ctl_file_stat(path, rel_dir, max_bytes, real, &dir, &st, err, err_len);
	if (ret == 0 && resolved != NULL && snprintf(resolved, rlen, "%s", real) >= (int)rlen) {
		ret = pvp_fail(err, err_len, -ENAMETOOLONG, "\"%.200s\": name too long", path);
	}
	return ret;
}

int
pvp_ctl_file_read(const char *path, const char *rel_dir, size_t max_bytes, char **buf, size_t *len,
		  char *resolved, size_t rlen, char *err, size_t err_len)
{
	char real[PATH_MAX], link[64], now_at[PATH_MAX], msg[256];
	struct stat st, fst;
	const char *dir;
	uint64_t size;
	ssize_t n;
	int fd, ret;

	*buf = NULL;
	ret = ctl_file_stat(path, rel_dir, max_bytes, real, &dir, &st, err, err_len);
	if (ret < 0)
		return ret;
	/*
	 * The name may have been replaced since it was checked: lib/util
	 * opens it without waiting (a FIFO opens at once) and only as a
	 * regular file within the limit; what it opened must be the file
	 * checked above, and still inside the files directory.
	 */
	fd = pvp_file_open(real, max_bytes, &size, msg, sizeof(msg));
	if (fd < 0 && fd != -EINVAL && fd != -EFBIG && fd != -EAGAIN)
		return pvp_fail(err, err_len, fd, "\"%.200s\": %s", path, strerror(-fd));
	ret = fd < 0 || fstat(fd, &fst) < 0 || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino
		      ? -EAGAIN
		      : 0;
	if (ret == 0 && dir != NULL) {
		/* A directory on the way swapped for a link out of the files directory. */
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, now_at, sizeof(now_at) - 1);
		if (n < 0 || (now_at[n] = '\0', !ctl_path_under(now_at, dir)))
			ret = -EAGAIN;
	}
	if (ret == 0)
		ret = pvp_file_read_fd(fd, real, size, buf, len, msg, sizeof(msg));
	if (fd >= 0)
		close(fd);
	if (ret == -EAGAIN)
		pvp_err(err, err_len, "\"%.200s\" changed while being opened; not read", path);
	else if (ret == -EFBIG)
		pvp_err(err, err_len, "\"%.200s\" grew while being read; not read", path);
	else if (ret == -ENOMEM)
		pvp_err(err, err_len, "out of memory");
	else if (ret < 0)
		pvp_err(err, err_len, "\"%.200s\": %s", path, strerror(-ret));
	if (ret < 0)
		return ret;
	if (resolved != NULL)
		snprintf(resolved, rlen, "%s", real);
	return 0;
}
