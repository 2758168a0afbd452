/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * Files the control channel reads: token files (the server's and the
 * coordinator's, pvp_secret_read of lib/util) and files a client names in a
 * request (pvp_ctl_file_read, pvp_ctl_file_check). A hostile read found
 * "/etc/shadow" accepted as a token file (its first line then sent in
 * clear), group-readable token files accepted, and a FIFO named in a
 * request blocking the control thread for good. Each wait is bounded.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "ctl_test.h"

static char dir[64];

static void
path_in_dir(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static const char good[] = "tok-0123456789abcdefXYZ";

/* pvp_secret_read on @p path; the message must never show @p secret. */
static int
read_token(const char *path, const char *secret, char *msg, size_t len)
{
	char err[PVP_CTL_ERR_LEN] = "";
	char buf[PVP_SECRET_SIZE] = "";
	uint64_t t0 = ct_now_ms();
	int ret;

	ret = pvp_secret_read(path, buf, sizeof(buf), err, sizeof(err));
	CHECK(ct_now_ms() - t0 < 1000, "%s: reading the token took %llu ms", path,
	      (unsigned long long)(ct_now_ms() - t0));
	if (secret != NULL)
		CHECK(strstr(err, secret) == NULL, "the message shows the content: %s", err);
	printf("# token %-40s %4d %s\n", strrchr(path, '/') + 1, ret, ret == 0 ? buf : err);
	snprintf(msg, len, "%s", err);
	return ret;
}

static void
test_token_files(void)
{
	char p[128], q[128], msg[256], big[5000];
	struct pvp_ctl_server_conf conf = {.listen = "tcp:127.0.0.1:0"};
	struct pvp_ctl_server *srv;
	char err[PVP_CTL_ERR_LEN] = "";
	int ret;

	path_in_dir(p, sizeof(p), "token-ok");
	ct_write_file(p, "  tok-0123456789abcdefXYZ \r\n\n", 0600);
	CHECK(read_token(p, NULL, msg, sizeof(msg)) == 0, "good token: %s", msg);
	/* Through a link (a secrets volume): the file it names is judged. */
	path_in_dir(q, sizeof(q), "token-link");
	CHECK(symlink(p, q) == 0, "symlink");
	CHECK(read_token(q, NULL, msg, sizeof(msg)) == 0, "link to a good token: %s", msg);
	unlink(q);

	/* Group-readable: refused like ssh refuses a key (was accepted). */
	path_in_dir(p, sizeof(p), "token-group");
	ct_write_file(p, good, 0640);
	CHECK(read_token(p, good, msg, sizeof(msg)) == -EACCES &&
		      strstr(msg, "its group (mode 640); chmod 600 it") != NULL,
	      "group-readable: %s", msg);
	path_in_dir(p, sizeof(p), "token-gw");
	ct_write_file(p, good, 0620);
	CHECK(read_token(p, good, msg, sizeof(msg)) == -EACCES, "group-writable: %s", msg);
	path_in_dir(p, sizeof(p), "token-other");
	ct_write_file(p, good, 0604);
	CHECK(read_token(p, good, msg, sizeof(msg)) == -EACCES && strstr(msg, "other users"),
	      "other-readable: %s", msg);

	/* Not a token file at all: more lines, blanks, too long, too big. */
	path_in_dir(p, sizeof(p), "token-lines");
	ct_write_file(p, "root:$y$j9T$secrethash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n",
		      0600);
	CHECK(read_token(p, "root", msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "more than one line"),
	      "a shadow-like file: %s", msg);
	path_in_dir(p, sizeof(p), "token-blank");
	ct_write_file(p, "-----BEGIN OPENSSH PRIVATE KEY-----\n", 0600);
	CHECK(read_token(p, "OPENSSH", msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "without blanks"),
	      "blanks inside: %s", msg);
	path_in_dir(p, sizeof(p), "token-ctrl");
	ct_write_file(p,
		      "tok-0123456789\x01"
		      "abcdefXYZ\n",
		      0600);
	CHECK(read_token(p, NULL, msg, sizeof(msg)) == -EINVAL, "control character: %s", msg);
	path_in_dir(p, sizeof(p), "token-long");
	memset(big, 'a', 300);
	big[300] = '\0';
	ct_write_file(p, big, 0600);
	CHECK(read_token(p, NULL, msg, sizeof(msg)) == -ENAMETOOLONG, "300 characters: %s", msg);
	path_in_dir(p, sizeof(p), "token-big");
	memset(big, 'b', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ct_write_file(p, big, 0600);
	CHECK(read_token(p, NULL, msg, sizeof(msg)) == -EFBIG && strstr(msg, "4999 bytes"),
	      "5000 bytes: %s", msg);
	path_in_dir(p, sizeof(p), "token-short");
	ct_write_file(p, "short\n", 0600);
	CHECK(read_token(p, NULL, msg, sizeof(msg)) == -EINVAL && strstr(msg, "at least 16"),
	      "short: %s", msg);

	/* Not a regular file: refused before it is opened (a FIFO would block). */
	path_in_dir(p, sizeof(p), "token-fifo");
	CHECK(mkfifo(p, 0600) == 0, "mkfifo");
	CHECK(read_token(p, NULL, msg, sizeof(msg)) == -EINVAL && strstr(msg, "a FIFO"), "FIFO: %s",
	      msg);
	unlink(p);
	CHECK(read_token("/dev/zero", NULL, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "a character device"),
	      "/dev/zero: %s", msg);
	CHECK(read_token(dir, NULL, msg, sizeof(msg)) == -EINVAL && strstr(msg, "a directory"),
	      "directory: %s", msg);
	CHECK(read_token("/nonexistent/token", NULL, msg, sizeof(msg)) == -ENOENT, "missing: %s",
	      msg);

	/* Owned by someone else (root only can make one). */
	path_in_dir(p, sizeof(p), "token-nobody");
	ct_write_file(p, good, 0600);
	if (geteuid() == 0 && chown(p, 65534, 65534) == 0) {
		CHECK(read_token(p, good, msg, sizeof(msg)) == -EACCES &&
			      strstr(msg, "owned by uid 65534"),
		      "another user's file: %s", msg);
	} else {
		printf("# not root: a file of another user not tested\n");
	}

	/* The finding: a topology's "token_file": "/etc/shadow". */
	if (access("/etc/shadow", F_OK) == 0) {
		ret = read_token("/etc/shadow", "root:", msg, sizeof(msg));
		CHECK(ret < 0, "/etc/shadow accepted as a token file");
	}

	/* The server refuses to start with a group-readable token file. */
	path_in_dir(p, sizeof(p), "token-group");
	conf.token_file = p;
	srv = pvp_ctl_server_create(&conf, err, sizeof(err));
	CHECK(srv == NULL && errno == EACCES && strstr(err, "chmod 600"),
	      "server with a group-readable token: %s", err);
	pvp_ctl_server_destroy(srv);
}

/* A method that reads the file named in its params, as profile.load does. */
static int
m_read(json_t *params, void *arg, json_t **result, char *err, size_t err_len)
{
	const char *path = json_string_value(json_object_get(params, "path"));
	const char *rel = json_string_value(json_object_get(params, "rel"));
	char *buf = NULL, real[PATH_MAX];
	size_t len = 0;
	int ret;

	if (json_is_true(json_object_get(params, "check_only")))
		ret = pvp_ctl_file_check(path, rel, 1 << 20, real, sizeof(real), err, err_len);
	else
		ret = pvp_ctl_file_read(path, rel, 1 << 20, &buf, &len, real, sizeof(real), err,
					err_len);
	free(buf);
	if (ret < 0)
		return -EINVAL;
	*result = json_pack("{s:I, s:s}", "len", (json_int_t)len, "real", real);
	return 0;
}

static void
files_setup(struct pvp_ctl_server *srv)
{
	pvp_ctl_server_register(srv, "read", m_read, NULL);
}

/* Call "read"; returns the error code (0: read) and the message or path. */
static int
read_via(const char *addr, const char *path, const char *rel, bool check_only, char *msg,
	 size_t len)
{
	struct pvp_ctl_client *c;
	char err[PVP_CTL_ERR_LEN] = "";
	json_t *r = NULL, *p;
	uint64_t t0 = ct_now_ms();
	int ret;

	c = pvp_ctl_client_connect(addr, NULL, 5000, err, sizeof(err));
	if (c == NULL) {
		snprintf(msg, len, "connect: %s", err);
		return 1;
	}
	p = json_pack("{s:s, s:s*, s:b}", "path", path, "rel", rel, "check_only", check_only);
	ret = pvp_ctl_call(c, "read", p, &r, 5000, err, sizeof(err));
	json_decref(p);
	/* Nothing a client names may hold the control thread. */
	CHECK(ct_now_ms() - t0 < 2000, "%s took %llu ms", path,
	      (unsigned long long)(ct_now_ms() - t0));
	if (ret == 0)
		snprintf(msg, len, "%s", json_string_value(json_object_get(r, "real")));
	else
		snprintf(msg, len, "%s", err);
	printf("# %-8s %-44s %6d %s\n", strncmp(addr, "tcp:", 4) == 0 ? "tcp" : "unix",
	       strlen(path) > 44 ? path + strlen(path) - 44 : path, ret, msg);
	json_decref(r);
	CHECK(ret == 0 || ct_ping(addr, NULL, 5000) == 0, "no ping after %s", path);
	pvp_ctl_client_close(c);
	return ret;
}

static void
test_request_files(void)
{
	struct pvp_ctl_server_conf conf = {.app_name = "ctl-files"};
	char addr[256], listen[160], files[128], p[PATH_MAX], msg[512], outside[128];
	pid_t pid;
	int fd;

	path_in_dir(files, sizeof(files), "files");
	mkdir(files, 0755);
	snprintf(p, sizeof(p), "%s/profile.json", files);
	ct_write_file(p, "{\"streams\": []}\n", 0644);
	snprintf(p, sizeof(p), "%s/sub", files);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/fifo", files);
	mkfifo(p, 0600);
	snprintf(p, sizeof(p), "%s/huge", files);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && ftruncate(fd, 100ll << 30) == 0, "sparse 100 GiB file");
	close(fd);
	path_in_dir(outside, sizeof(outside), "outside.json");
	ct_write_file(outside, "{\"secret\": 1}\n", 0644);
	snprintf(p, sizeof(p), "%s/escape.json", files);
	CHECK(symlink(outside, p) == 0, "symlink out");
	snprintf(p, sizeof(p), "%s/inside-link.json", files);
	CHECK(symlink("profile.json", p) == 0, "symlink in");

	/* A unix socket without a files directory: its clients may name files. */
	path_in_dir(listen, sizeof(listen), "files.sock");
	conf.listen = listen;
	pid = ct_spawn(&conf, files_setup, addr, sizeof(addr));
	CHECK(pid > 0, "server");
	snprintf(p, sizeof(p), "%s/profile.json", files);
	CHECK(read_via(addr, p, NULL, false, msg, sizeof(msg)) == 0, "regular file: %s", msg);
	snprintf(p, sizeof(p), "%s/fifo", files);
	CHECK(read_via(addr, p, NULL, false, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "a FIFO, not read"),
	      "FIFO: %s", msg);
	CHECK(read_via(addr, p, NULL, true, msg, sizeof(msg)) == -EINVAL, "FIFO checked: %s", msg);
	CHECK(read_via(addr, "/dev/zero", NULL, false, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "a character device"),
	      "/dev/zero: %s", msg);
	snprintf(p, sizeof(p), "%s/sub", files);
	CHECK(read_via(addr, p, NULL, false, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "a directory"),
	      "directory: %s", msg);
	snprintf(p, sizeof(p), "%s/huge", files);
	CHECK(read_via(addr, p, NULL, false, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "107374182400 bytes, over the limit"),
	      "100 GiB sparse file: %s", msg);
	CHECK(read_via(addr, "/proc/self/status", NULL, false, msg, sizeof(msg)) != 0 &&
		      strstr(msg, "grew while being read"),
	      "a file bigger than its size: %s", msg);
	CHECK(read_via(addr, "/nonexistent.json", NULL, false, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "No such file"),
	      "missing: %s", msg);
	CHECK(read_via(addr, "profile.json", files, false, msg, sizeof(msg)) == 0,
	      "relative to a folder: %s", msg);
	ct_stop(pid);

	/* TCP without a files directory, even loopback: refused, nothing opened. */
	conf.listen = "tcp:127.0.0.1:0";
	pid = ct_spawn(&conf, files_setup, addr, sizeof(addr));
	CHECK(pid > 0, "tcp server");
	snprintf(p, sizeof(p), "%s/profile.json", files);
	CHECK(read_via(addr, p, NULL, false, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "only for unix-socket clients"),
	      "tcp without a files directory: %s", msg);
	ct_stop(pid);

	/* A files directory: everything outside it is refused, for every client. */
	conf.files_dir = files;
	pid = ct_spawn(&conf, files_setup, addr, sizeof(addr));
	CHECK(pid > 0, "tcp server with a files directory");
	CHECK(read_via(addr, p, NULL, false, msg, sizeof(msg)) == 0, "inside, absolute: %s", msg);
	CHECK(read_via(addr, "profile.json", NULL, false, msg, sizeof(msg)) == 0 &&
		      strcmp(msg, p) == 0,
	      "inside, relative to the files directory: %s", msg);
	CHECK(read_via(addr, "inside-link.json", NULL, false, msg, sizeof(msg)) == 0,
	      "a link that stays inside: %s", msg);
	CHECK(read_via(addr, "escape.json", NULL, false, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "outside the files directory"),
	      "a link out of it: %s", msg);
	CHECK(read_via(addr, "../outside.json", NULL, false, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "outside the files directory"),
	      "../: %s", msg);
	CHECK(read_via(addr, outside, NULL, false, msg, sizeof(msg)) == -EINVAL,
	      "absolute, outside: %s", msg);
	CHECK(read_via(addr, "/etc/passwd", NULL, true, msg, sizeof(msg)) == -EINVAL,
	      "/etc/passwd checked: %s", msg);
	CHECK(read_via(addr, "fifo", NULL, false, msg, sizeof(msg)) == -EINVAL &&
		      strstr(msg, "a FIFO"),
	      "FIFO inside: %s", msg);
	CHECK(read_via(addr, "huge", NULL, true, msg, sizeof(msg)) == -EINVAL,
	      "huge inside, checked: %s", msg);
	ct_stop(pid);

	/* A files directory that is not one: the server does not start. */
	{
		struct pvp_ctl_server_conf bad = {.listen = "tcp:127.0.0.1:0",
						  .files_dir = outside};
		char err[PVP_CTL_ERR_LEN] = "";
		struct pvp_ctl_server *srv = pvp_ctl_server_create(&bad, err, sizeof(err));

		CHECK(srv == NULL && strstr(err, "Not a directory"), "files dir: %s", err);
		pvp_ctl_server_destroy(srv);
	}
	/* Outside a request: refused, not a crash. */
	{
		char err[PVP_CTL_ERR_LEN] = "";
		char *buf;

		CHECK(pvp_ctl_file_read(p, NULL, 100, &buf, NULL, NULL, 0, err, sizeof(err)) ==
			      -EINVAL,
		      "outside a request");
	}
}

int
main(void)
{
	char cmd[128];

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(dir, sizeof(dir), "/tmp/pvp-ctl-files.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_token_files();
	test_request_files();
	/* Only the files this test made, in its own mkdtemp directory. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	if (unit_check_failures != 0) {
		printf("%d check(s) failed\n", unit_check_failures);
		return 1;
	}
	printf("all ctl file checks passed\n");
	return 0;
}
