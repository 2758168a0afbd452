/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Files, output files, programs and sockets: safe reading of files a user
 * or a peer names, safe writing of output files, JSON-lines append that
 * survives a full disk, running a program with a deadline, socket
 * clients with a deadline.
 *
 * Part of lib/util (pvp_util.h includes it); errors as pvp_util.h says.
 */

#ifndef PVP_FILE_H
#define PVP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- files ---- */

/**
 * Read a whole file a user or a remote peer names. The file is opened
 * with O_NONBLOCK, so a FIFO without a writer cannot block the caller;
 * anything that is not a regular file (FIFO, device, directory, socket)
 * is refused, and so is a file larger than @p max_bytes, before any of
 * it is read. Messages name the path and the reason, never the content.
 *
 * @param path
 *   The file.
 * @param max_bytes
 *   Largest size accepted.
 * @param buf
 *   On success, a malloc'd buffer with the content and a NUL after it
 *   (the caller frees it).
 * @param len
 *   On success, the number of bytes read (the NUL not counted). May be
 *   NULL.
 * @param err
 *   E.g. "/tmp/f: not a regular file (a FIFO)", "big.json: 2 GiB is
 *   over the 64 MiB limit".
 * @return
 *   0, -errno of open() or read(), -EINVAL (not a regular file), -EFBIG
 *   (too large) or -ENOMEM.
 */
int pvp_file_read(const char *path, size_t max_bytes, char **buf, size_t *len, char *err,
		  size_t errlen);

/**
 * Open a file a user or a remote peer names for a reader that needs a
 * descriptor (libpcap): the checks of pvp_file_read() (regular file
 * only, never blocking on a FIFO, at most @p max_bytes), without reading.
 *
 * @param size
 *   The file's size on success; may be NULL.
 * @return
 *   The descriptor (the caller closes it), or -errno as pvp_file_read().
 */
int pvp_file_open(const char *path, size_t max_bytes, uint64_t *size, char *err, size_t errlen);

/**
 * Read the whole of a file pvp_file_open() opened: the one bounded read
 * loop of pvp_file_read() and of lib/ctl's files a client names, which
 * add their own checks between the open and the read.
 *
 * @param fd
 *   The descriptor (left open: the caller closes it).
 * @param path
 *   The file's name, for messages.
 * @param size
 *   The size pvp_file_open() gave: a file that has more bytes by now
 *   (it grew, or it is a /proc file whose size says nothing) is refused.
 * @param buf
 *   On success, a malloc'd buffer with the content and a NUL after it.
 * @param len
 *   On success, the number of bytes read; may be NULL.
 * @return
 *   0, -errno of read(), -EFBIG ("PATH: grew while being read") or
 *   -ENOMEM.
 */
int pvp_file_read_fd(int fd, const char *path, uint64_t size, char **buf, size_t *len, char *err,
		     size_t errlen);

/**
 * What a file that is not a regular one is, for messages: "a FIFO", "a
 * character device", "a block device", "a directory", "a socket".
 *
 * @param mode
 *   st_mode from stat().
 */
const char *pvp_file_kind(unsigned int mode);

/** Largest token file pvp_secret_read() accepts, in bytes. */
#define PVP_SECRET_MAX 4096
/** Shortest token accepted, in characters. */
#define PVP_SECRET_MIN_LEN 16
/** Longest token accepted, in characters (without the NUL). */
#define PVP_SECRET_MAX_LEN 256
/** Room for any token and its NUL. */
#define PVP_SECRET_SIZE (PVP_SECRET_MAX_LEN + 1)

/**
 * Read a token (the shared secret of a control channel) from a token
 * file: the one reader for the server that checks the token (lib/ctl)
 * and the client that sends it (the coordinator's hop drivers), so both
 * accept the same files.
 *
 * Refused before anything is read: a file that is not a regular one
 * (FIFO, device, directory: never opened), one owned by another user
 * than the caller or root, one the group or other users may read or
 * write (like ssh does for keys; -EACCES), one over PVP_SECRET_MAX bytes
 * (-EFBIG). Refused after reading: a first line without the token, more
 * than one line (blanks around the token and empty lines after it are
 * allowed), blanks or other characters than printable ASCII inside it,
 * fewer than PVP_SECRET_MIN_LEN characters (-EINVAL), more than
 * PVP_SECRET_MAX_LEN or than @p out holds (-ENAMETOOLONG). Messages
 * start with "token file PATH" and never show any of the content.
 *
 * @param out
 *   The token, NUL-terminated; "" on failure.
 * @param outlen
 *   Size of @p out (PVP_SECRET_SIZE takes every token).
 * @return
 *   0, -errno of stat(), open() or read(), -EACCES, -EINVAL, -EFBIG or
 *   -ENAMETOOLONG.
 */
int pvp_secret_read(const char *path, char *out, size_t outlen, char *err, size_t errlen);

/**
 * Create a directory and its missing parents, like mkdir -p.
 *
 * @param mode
 *   Mode of the directories created (e.g. 0755), before the umask.
 * @return 0 (also when it exists already), or -errno (-ENOTDIR when a
 *   part of the path is a file, -ENAMETOOLONG).
 */
int pvp_mkdir_p(const char *path, unsigned int mode);

/**
 * Check before a run that an output file can be written: an existing
 * one must be a regular file opened for appending; a new one is
 * created and removed again. A file system with no free block is
 * refused too, so a long run does not end with nowhere to put its
 * results.
 *
 * @param err
 *   E.g. "out/results.jsonl: Permission denied",
 *   "out: No such file or directory", "/dev/zero: not a regular file
 *   (a character device)".
 * @return 0 or -errno (-EINVAL for a file that is not a regular one,
 *   -ENOSPC for a full file system).
 */
int pvp_path_check_writable(const char *path, char *err, size_t errlen);

/**
 * Append @p rec as one JSON line (compact, then '\n') to @p path,
 * created 0644 if missing, and fsync it, so a crash or kill at any later
 * point keeps it. If a crash left the file without a final newline, the
 * record starts on a line of its own.
 *
 * When the line cannot be written whole (disk full, file size limit,
 * I/O error), the file is truncated back to the length it had, so it
 * stays valid JSON lines, and the error is returned: the caller still
 * holds the record and can print it. One writer per file: the
 * truncation assumes no one else appends meanwhile.
 *
 * @return 0, -EINVAL (not a JSON object or array, or not a regular
 *   file), -ENOMEM, or -errno of open/write/fsync (-ENOSPC, -EFBIG …).
 */
int pvp_jsonl_append(const char *path, const json_t *rec);

/**
 * Write @p doc (indented, keys sorted, then '\n') to @p path, created
 * 0644 or truncated, refusing anything but a regular file.
 *
 * @param doc
 *   The document; NULL (a failed allocation) gives -ENOMEM.
 * @return 0 or -errno with "PATH: reason" in @p err.
 */
int pvp_json_file_write(const char *path, const json_t *doc, char *err, size_t errlen);

/* ---- output files ---- */

/**
 * Check a directory before files are written into it: it must be owned
 * by the caller (effective uid) and not writable by others, so nobody
 * else can plant a name (a symlink to a file of the caller's) that a
 * writer, or a program it runs, would then use.
 * @param err
 *   E.g. "out: owned by uid 1000, not by this user (uid 0): not writing
 *   there", "out: writable by others (mode 1777): not writing there".
 * @return 0, -errno of stat(), -ENOTDIR or -EPERM.
 */
int pvp_out_dir_check(const char *dir, char *err, size_t errlen);

/** An output file being written (pvp_out_open() to pvp_out_commit()). */
struct pvp_out {
	FILE *f;	     /**< where to write; NULL once committed or aborted */
	char path[4096];     /**< the final name */
	char tmp[4096 + 12]; /**< the name it is written under until then */
};

/**
 * Start writing @p path: the content goes to a new file beside it
 * (created exclusively, mode 0644, never through a symlink), which
 * pvp_out_commit() renames over @p path. Whatever @p path is meanwhile
 * (missing, a file, a planted symlink) is replaced, never written
 * through. Every report file is written this way.
 * @return 0 with @p o->f open, or -errno with "PATH: reason" in @p err.
 */
int pvp_out_open(struct pvp_out *o, const char *path, char *err, size_t errlen);

/**
 * Finish a pvp_out_open() file: flush, close and rename it over its
 * final name. On failure the temporary file is removed and the final
 * name left as it was.
 * @return 0 or -errno (-EIO for a failed write) with "PATH: cannot
 *   write: reason" in @p err.
 */
int pvp_out_commit(struct pvp_out *o, char *err, size_t errlen);

/** Give up a pvp_out_open() file: close and remove it. No-op when closed. */
void pvp_out_abort(struct pvp_out *o);

/* ---- running programs ---- */

/** A program to run with pvp_child_run(). */
struct pvp_child {
	char *const *argv;	 /**< NULL-terminated; argv[0] looked up in PATH */
	const char *dir;	 /**< directory it runs in, or NULL: the caller's */
	const char *in;		 /**< what to write on its stdin, or NULL */
	size_t in_len;		 /**< bytes of @c in */
	int out_fd;		 /**< >= 0: its stdout and stderr go there, not captured */
	bool err_to_out;	 /**< captured stderr goes into out->out with stdout */
	unsigned int timeout_ms; /**< longest it may run; 0: 10 s */
	size_t max_out;		 /**< most stdout bytes kept; 0: 8 MiB */
};

/** What a program run with pvp_child_run() did. */
struct pvp_child_out {
	char *out;     /**< stdout, NUL-terminated (malloc'd; free it) */
	size_t len;    /**< bytes in out */
	char err[256]; /**< first line of stderr, or "" */
	int status;    /**< exit status (127: could not be run), or -1 when killed */
};

/**
 * Run a program by fork/exec with its argv (never through a shell), with
 * stdin from @p c->in and stdout and stderr captured (or sent to
 * @p c->out_fd), for at most @p c->timeout_ms: then it is killed with its
 * whole process group (it leads one of its own).
 * @return 0 when it ran (check @p out->status; @p out->out is set), or
 *   -errno (-ETIMEDOUT: killed) with "argv0: reason" in @p err and
 *   @p out->out NULL.
 */
int pvp_child_run(const struct pvp_child *c, struct pvp_child_out *out, char *err, size_t errlen);

/* ---- sockets ---- */

/**
 * Wait until @p fd is ready for @p events (POLLIN, POLLOUT; an error or
 * hang-up on it counts as ready, the next call says which) or until
 * @p deadline_ms passes. EINTR is retried.
 *
 * @param deadline_ms
 *   A pvp_now_ms() time; 0 waits for as long as it takes.
 * @return 0 ready, -ETIMEDOUT, or -errno of poll().
 */
int pvp_sock_wait(int fd, short events, uint64_t deadline_ms);

/**
 * Send all @p len bytes of @p buf on non-blocking @p fd before
 * @p deadline_ms (SIGPIPE never raised; EINTR retried).
 *
 * @param sent
 *   If not NULL, the bytes sent, also on failure (part of a message may
 *   be on the wire).
 * @return 0, -ETIMEDOUT, or -errno of send() or poll().
 */
int pvp_sock_send_all(int fd, const void *buf, size_t len, uint64_t deadline_ms, size_t *sent);

/**
 * Connect a stream socket to @p sa (AF_UNIX, AF_INET, AF_INET6) before
 * @p deadline_ms: the one client connect of lib/ctl and the coordinator's
 * drivers. A unix listener whose backlog is full is tried again every
 * 5 ms until the deadline.
 *
 * @param deadline_ms
 *   A pvp_now_ms() time; 0: no deadline.
 * @return
 *   The descriptor, non-blocking and close-on-exec (the caller closes
 *   it), or -errno: -ETIMEDOUT when the deadline passed, else the
 *   connect error (-ECONNREFUSED, -ENOENT, ...).
 */
int pvp_sock_connect(const struct sockaddr *sa, socklen_t salen, uint64_t deadline_ms);

/**
 * Connect a stream socket to "tcp:HOST:PORT" ("tcp:[v6addr]:PORT"), each
 * address HOST resolves to in turn, before @p deadline_ms.
 *
 * @return
 *   The descriptor (as pvp_sock_connect()), or -errno with the reason in
 *   @p err: -EINVAL for a malformed @p spec, -EHOSTUNREACH when HOST does
 *   not resolve, else the last connect error.
 */
int pvp_sock_connect_tcp(const char *spec, uint64_t deadline_ms, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* PVP_FILE_H */
