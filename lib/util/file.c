/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Files a user or a remote peer names, and the results files a run
 * appends to. A name is only a name: it may be a FIFO nobody writes
 * (open() and read() would block for good), a device that never ends
 * (/dev/zero), a huge file, or a secret of someone else's (/etc/shadow).
 * So the kind and size are checked before a byte is read, and messages
 * say what was wrong, never what the file holds.
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "pvp_util.h"
#include "util_private.h"

const char *
pvp_file_kind(unsigned int mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

/* "64 MiB", "1.5 GiB", "700 bytes". */
static const char *
fmt_bytes(uint64_t v, char *buf, size_t len)
{
	static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
	double d = (double)v;
	unsigned int i;

	if (v < 1024) {
		snprintf(buf, len, "%u bytes", (unsigned int)v);
		return buf;
	}
	for (i = 0, d /= 1024; d >= 1024 && i + 1 < sizeof(units) / sizeof(units[0]); i++)
		d /= 1024;
	snprintf(buf, len, d == (double)(uint64_t)d ? "%.0f %s" : "%.1f %s", d, units[i]);
	return buf;
}

/*
 * Open @p path for reading only if it is a regular file: stat() first,
 * so a device is never even opened (opening some has effects), then
 * open non-blocking and check it is still the same file.
 */
static int
open_regular(const char *path, struct stat *st, char *err, size_t errlen)
{
	struct stat st2;
	int fd;

	if (path == NULL || path[0] == '\0')
		return util_seterr(err, errlen, -EINVAL, "empty file name");
	if (stat(path, st) < 0)
		return util_seterr(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st->st_mode))
		return util_seterr(err, errlen, -EINVAL, "%s: not a regular file (%s)", path,
				   pvp_file_kind(st->st_mode));
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return util_seterr(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st2) < 0 || !S_ISREG(st2.st_mode) || st2.st_ino != st->st_ino ||
	    st2.st_dev != st->st_dev) {
		util_seterr(err, errlen, -EAGAIN, "%s: changed while being opened", path);
		close(fd);
		return -EAGAIN;
	}
	*st = st2;
	return fd;
}

/* Read up to @p max bytes of @p path; -EFBIG when there are more. */
static int
read_bounded(int fd, const char *path, char *buf, size_t max, size_t *len, char *err, size_t errlen)
{
	size_t off = 0;
	ssize_t n;

	for (;;) {
		/* One byte more than allowed tells a file that grew. */
		n = read(fd, buf + off, max + 1 - off);
		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			return util_seterr(err, errlen, -e, "%s: %s", path, strerror(e));
		}
		if (n == 0)
			break;
		off += (size_t)n;
		if (off > max)
			return util_seterr(err, errlen, -EFBIG, "%s: grew while being read", path);
	}
	*len = off;
	return 0;
}

int
pvp_file_open(const char *path, size_t max_bytes, uint64_t *size, char *err, size_t errlen)
{
	char a[32], b[32];
	struct stat st;
	int fd, flags;

	fd = open_regular(path, &st, err, errlen);
	if (fd < 0)
		return fd;
	if ((uint64_t)st.st_size > max_bytes) {
		util_seterr(err, errlen, -EFBIG, "%s: %s is over the %s limit", path,
			    fmt_bytes((uint64_t)st.st_size, a, sizeof(a)),
			    fmt_bytes(max_bytes, b, sizeof(b)));
		close(fd);
		return -EFBIG;
	}
	/* A regular file never blocks: the reader (libpcap's stdio) needs
	 * no EAGAIN handling either way, but gets a plain descriptor. */
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (size != NULL)
		*size = (uint64_t)st.st_size;
	return fd;
}

int
pvp_file_read_fd(int fd, const char *path, uint64_t size, char **buf, size_t *len, char *err,
		 size_t errlen)
{
	size_t n = 0;
	char *data;
	int ret;

	*buf = NULL;
	/* What fstat says, one byte to see the file grow, and the NUL. */
	data = malloc((size_t)size + 2);
	if (data == NULL)
		return util_seterr(err, errlen, -ENOMEM, "%s: out of memory", path);
	ret = read_bounded(fd, path, data, (size_t)size, &n, err, errlen);
	if (ret < 0) {
		free(data);
		return ret;
	}
	data[n] = '\0';
	*buf = data;
	if (len != NULL)
		*len = n;
	return 0;
}

int
pvp_file_read(const char *path, size_t max_bytes, char **buf, size_t *len, char *err, size_t errlen)
{
	uint64_t size = 0;
	int fd, ret;

	*buf = NULL;
	fd = pvp_file_open(path, max_bytes, &size, err, errlen);
	if (fd < 0)
		return fd;
	ret = pvp_file_read_fd(fd, path, size, buf, len, err, errlen);
	close(fd);
	return ret;
}

/*
 * The kind, owner, mode and size of a token file, judged on what stat()
 * says before it is opened and again on what was opened: a token is a
 * secret of the user who runs us, like an ssh key.
 */
static int
secret_stat_ok(const char *path, const struct stat *st, char *err, size_t errlen)
{
	uid_t me = geteuid();

	if (!S_ISREG(st->st_mode))
		return util_seterr(err, errlen, -EINVAL, "token file %s: %s, not read", path,
				   pvp_file_kind(st->st_mode));
	if (st->st_uid != me && st->st_uid != 0)
		return util_seterr(err, errlen, -EACCES,
				   "token file %s is owned by uid %u, not by you (uid %u) or root",
				   path, (unsigned int)st->st_uid, (unsigned int)me);
	if ((st->st_mode & 077) != 0)
		return util_seterr(err, errlen, -EACCES,
				   "token file %s is accessible by %s (mode %03o); chmod 600 it",
				   path, (st->st_mode & 007) != 0 ? "other users" : "its group",
				   (unsigned int)(st->st_mode & 0777));
	if (st->st_size > PVP_SECRET_MAX)
		return util_seterr(
			err, errlen, -EFBIG,
			"token file %s: %lld bytes; a token file is one line of at most %d "
			"characters",
			path, (long long)st->st_size, PVP_SECRET_MAX_LEN);
	return 0;
}

/* The token in the @p n bytes of @p data, by the rules of pvp_secret_read(). */
static int
secret_parse(const char *path, const char *data, size_t n, char *out, size_t outlen, char *err,
	     size_t errlen)
{
	size_t start, end, i, max;

	/* The token is on the first line; blanks around it are allowed. */
	for (start = 0; start < n && data[start] != '\n' && isspace((unsigned char)data[start]);
	     start++)
		;
	for (end = start; end < n && data[end] != '\n' && data[end] != '\r'; end++)
		;
	while (end > start && isspace((unsigned char)data[end - 1]))
		end--;
	if (start == end)
		return util_seterr(err, errlen, -EINVAL,
				   "token file %s: the first line holds no token", path);
	for (i = end; i < n; i++) {
		if (!isspace((unsigned char)data[i]))
			return util_seterr(
				err, errlen, -EINVAL,
				"token file %s holds more than one line; a token file is the "
				"token alone",
				path);
	}
	for (i = start; i < end; i++) {
		if ((unsigned char)data[i] <= ' ' || (unsigned char)data[i] >= 0x7f)
			return util_seterr(
				err, errlen, -EINVAL,
				"token file %s: the token must be printable ASCII without blanks",
				path);
	}
	if (end - start < PVP_SECRET_MIN_LEN)
		return util_seterr(err, errlen, -EINVAL,
				   "token file %s: the token must be at least %d characters", path,
				   PVP_SECRET_MIN_LEN);
	max = outlen > 0 && outlen - 1 < PVP_SECRET_MAX_LEN ? outlen - 1 : PVP_SECRET_MAX_LEN;
	if (end - start > max)
		return util_seterr(err, errlen, -ENAMETOOLONG,
				   "token file %s: the token is longer than %zu characters", path,
				   max);
	memcpy(out, data + start, end - start);
	out[end - start] = '\0';
	return 0;
}

int
pvp_secret_read(const char *path, char *out, size_t outlen, char *err, size_t errlen)
{
	char data[PVP_SECRET_MAX + 1];
	struct stat st;
	size_t n = 0;
	int fd, ret;

	if (out == NULL || outlen == 0)
		return util_seterr(err, errlen, -EINVAL, "token file: no room for the token");
	out[0] = '\0';
	if (path == NULL || path[0] == '\0')
		return util_seterr(err, errlen, -EINVAL, "token file: empty file name");
	/* Judged before it is opened: opening a FIFO or a device may block or act. */
	if (stat(path, &st) < 0)
		return util_seterr(err, errlen, -errno, "token file %s: %s", path, strerror(errno));
	ret = secret_stat_ok(path, &st, err, errlen);
	if (ret < 0)
		return ret;
	fd = open_regular(path, &st, err, errlen);
	if (fd < 0)
		return fd;
	ret = secret_stat_ok(path, &st, err, errlen);
	if (ret == 0)
		ret = read_bounded(fd, path, data, (size_t)st.st_size, &n, err, errlen);
	close(fd);
	if (ret == 0)
		ret = secret_parse(path, data, n, out, outlen, err, errlen);
	/* What was read stays on the stack no longer than needed. */
	explicit_bzero(data, sizeof(data));
	return ret;
}

int
pvp_mkdir_p(const char *path, unsigned int mode)
{
	char buf[4096], *p;
	struct stat st;

	if (path == NULL || path[0] == '\0')
		return -EINVAL;
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) < 0) {
		if (errno != EEXIST)
			return -errno;
		if (stat(buf, &st) < 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	return 0;
}

/* -ENOSPC when the file system of @p fd has no block left for us. */
static int
check_space(int fd)
{
	struct statvfs vfs;

	if (fstatvfs(fd, &vfs) < 0)
		return 0; /* nothing known: the write will tell */
	if (vfs.f_bavail == 0 && (geteuid() != 0 || vfs.f_bfree == 0))
		return -ENOSPC;
	return 0;
}

int
pvp_path_check_writable(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, ret;
	bool created = false;

	if (path == NULL || path[0] == '\0')
		return util_seterr(err, errlen, -EINVAL, "empty file name");
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return util_seterr(err, errlen, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL,
					   "%s: not a regular file (%s)", path,
					   pvp_file_kind(st.st_mode));
		fd = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	} else if (errno == ENOENT) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0644);
		created = fd >= 0;
	} else {
		fd = -1;
	}
	if (fd < 0)
		return util_seterr(err, errlen, -errno, "%s: %s", path, strerror(errno));
	ret = check_space(fd);
	if (ret < 0)
		util_seterr(err, errlen, ret, "%s: %s", path, strerror(-ret));
	close(fd);
	if (created)
		unlink(path);
	return ret;
}

static int
write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int
pvp_jsonl_append(const char *path, const json_t *rec)
{
	struct stat st;
	char *text, *line = NULL, last;
	size_t len, off = 0;
	int fd, ret;

	if (path == NULL || !(json_is_object(rec) || json_is_array(rec)))
		return -EINVAL;
	text = json_dumps(rec, JSON_COMPACT);
	if (text == NULL)
		return -ENOMEM;
	len = strlen(text);
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		goto close;
	}
	/* One buffer, one write: a line cut by a crash gets its own end. */
	line = malloc(len + 2);
	if (line == NULL) {
		ret = -ENOMEM;
		goto close;
	}
	if (st.st_size > 0 && pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n')
		line[off++] = '\n';
	memcpy(line + off, text, len);
	off += len;
	line[off++] = '\n';
	ret = write_all(fd, line, off);
	if (ret == 0 && fsync(fd) < 0)
		ret = -errno;
	/* Not all of it is on disk: take the part that is away again. */
	if (ret < 0 && ftruncate(fd, st.st_size) == 0)
		fsync(fd);
close:
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
out:
	free(line);
	free(text);
	return ret;
}
