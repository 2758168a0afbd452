/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Opening the files a user or a control client names (profiles, pcap
 * files): never blocking, regular files only, bounded in size, and
 * messages that name the path and the reason, never the content.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pkt_private.h"

static void __attribute__((format(printf, 3, 4)))
file_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const char *
file_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a plain file";
}

int
pkt_file_open(const char *path, uint64_t max_bytes, uint64_t *size, char *err, size_t errlen)
{
	struct stat st;
	int fd, flags, e;

	/* O_NONBLOCK: opening a FIFO without a writer returns at once. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		file_err(err, errlen, "%s: cannot open: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) != 0) {
		e = errno;
		close(fd);
		file_err(err, errlen, "%s: cannot open: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		file_err(err, errlen, "%s: not a regular file (%s)", path, file_kind(st.st_mode));
		return -EINVAL;
	}
	if ((uint64_t)st.st_size > max_bytes) {
		close(fd);
		file_err(err, errlen, "%s: %llu bytes is over the %llu MiB limit", path,
			 (unsigned long long)st.st_size, (unsigned long long)(max_bytes >> 20));
		return -EFBIG;
	}
	/* A regular file never blocks; later reads need no EAGAIN handling. */
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		e = errno;
		close(fd);
		file_err(err, errlen, "%s: cannot open: %s", path, strerror(e));
		return -e;
	}
	if (size != NULL)
		*size = (uint64_t)st.st_size;
	return fd;
}

int
pkt_file_read(const char *path, uint64_t max_bytes, char **buf, size_t *len, char *err,
	      size_t errlen)
{
	uint64_t size;
	size_t n = 0;
	char *b;
	int fd;

	fd = pkt_file_open(path, max_bytes, &size, err, errlen);
	if (fd < 0)
		return fd;
	/* One byte more than fstat said: a file that grew is refused below. */
	b = malloc(size + 2);
	if (b == NULL) {
		close(fd);
		file_err(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r = read(fd, b + n, size + 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			close(fd);
			file_err(err, errlen, "%s: cannot read: %s", path, strerror(e));
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > size) {
			free(b);
			close(fd);
			file_err(err, errlen, "%s: changed while being read", path);
			return -EIO;
		}
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	if (len != NULL)
		*len = n;
	return 0;
}
