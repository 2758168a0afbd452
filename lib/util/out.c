/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Output files a report writes into a directory: a name there may
 * already be a symlink someone planted, pointing anywhere. Each file is
 * written under a new name that only this process can have made
 * (mkostemp: O_CREAT | O_EXCL, never through a link) and renamed over
 * the final name when complete, which replaces a link rather than
 * following it and never leaves a half-written file. The directory
 * itself must be the caller's and not writable by others, or a name
 * could be planted between the writes.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pvp_util.h"

int
pvp_out_dir_check(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return pvp_fail(err, errlen, -errno, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pvp_fail(err, errlen, -ENOTDIR, "%s: not a directory", dir);
	if (st.st_uid != geteuid())
		return pvp_fail(err, errlen, -EPERM,
				"%s: owned by uid %u, not by this user (uid %u): not writing there",
				dir, (unsigned int)st.st_uid, (unsigned int)geteuid());
	/*
	 * Others: anyone. A group-writable directory is the usual one under
	 * a umask of 002 (a group of one user), so it is left to the owner.
	 */
	if (st.st_mode & S_IWOTH)
		return pvp_fail(err, errlen, -EPERM,
				"%s: writable by others (mode %04o): not writing there", dir,
				(unsigned int)(st.st_mode & 07777));
	return 0;
}

int
pvp_out_open(struct pvp_out *o, const char *path, char *err, size_t errlen)
{
	int fd, ret;

	o->f = NULL;
	if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path) ||
	    snprintf(o->tmp, sizeof(o->tmp), "%s.tmp-XXXXXX", path) >= (int)sizeof(o->tmp))
		return pvp_fail(err, errlen, -ENAMETOOLONG, "%s: %s", path, strerror(ENAMETOOLONG));
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0)
		return pvp_fail(err, errlen, -errno, "%s: %s", path, strerror(errno));
	/* mkostemp makes it 0600; a report is for reading. */
	if (fchmod(fd, 0644) < 0 || (o->f = fdopen(fd, "w")) == NULL) {
		ret = -errno;
		close(fd);
		unlink(o->tmp);
		return pvp_fail(err, errlen, ret, "%s: %s", path, strerror(-ret));
	}
	return 0;
}

int
pvp_out_commit(struct pvp_out *o, char *err, size_t errlen)
{
	int ret = 0;

	if (fflush(o->f) != 0 || ferror(o->f))
		ret = errno != 0 ? -errno : -EIO;
	if (fclose(o->f) != 0 && ret == 0)
		ret = -errno;
	o->f = NULL;
	if (ret == 0 && rename(o->tmp, o->path) < 0)
		ret = -errno;
	if (ret < 0) {
		unlink(o->tmp);
		pvp_err(err, errlen, "%s: cannot write: %s", o->path, strerror(-ret));
	}
	return ret;
}

void
pvp_out_abort(struct pvp_out *o)
{
	if (o->f == NULL)
		return;
	fclose(o->f);
	o->f = NULL;
	unlink(o->tmp);
}
