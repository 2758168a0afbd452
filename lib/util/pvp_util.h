/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * What the coordinator and the data-plane apps both need, done once:
 * strict number, duration and rate parsing, the error-buffer helper,
 * the monotonic clock, safe reading of files a user or a peer names,
 * safe writing of output files, running a program with a deadline,
 * JSON-lines append that survives a full disk, the position of a JSON
 * value as file:line:col, and socket clients with a deadline.
 *
 * No DPDK: only libc, libm and jansson, so the coordinator links it on a
 * machine without DPDK and the apps link it next to their EAL.
 *
 * Errors: functions return 0 or -errno and, where they take an
 * (@c err, @c errlen) pair, write one line into it that names what was
 * wrong (never the content of a file). @c err may be NULL.
 */

#ifndef PVP_UTIL_H
#define PVP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <sys/socket.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- error buffer ---- */

/**
 * Write a formatted one-line message into @p err unless it already holds
 * one: the first error wins, as with jansson's json_error_t, so a deep
 * failure is not overwritten by its callers' more general words. Clear
 * it (err[0] = '\0') before a sequence of steps.
 *
 * @param err
 *   The buffer, or NULL (then nothing is written).
 * @param len
 *   Size of @p err; the message is cut to fit.
 */
void pvp_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- numbers ---- */

/**
 * Parse an unsigned decimal integer in [@p min, @p max].
 *
 * Only digits are accepted: base 10 always ("010" is 10, never 8), no
 * sign, no "0x", no exponent, no blanks, nothing after the digits.
 *
 * @param what
 *   Name for the message, e.g. "--flows" (may be NULL).
 * @param s
 *   The string.
 * @param min
 *   Smallest value accepted.
 * @param max
 *   Largest value accepted.
 * @param out
 *   The value on success, untouched otherwise.
 * @param err
 *   On failure, e.g. `--flows: "0x10" must be a whole number in 1..16777216`.
 * @param errlen
 *   Size of @p err.
 * @return
 *   0, -EINVAL (not a whole number) or -ERANGE (outside [min, max], or
 *   beyond 64 bits).
 */
int pvp_parse_u64(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		  char *err, size_t errlen);

/** pvp_parse_u64() into a uint32_t; @p max is at most UINT32_MAX. */
int pvp_parse_u32(const char *what, const char *s, uint32_t min, uint32_t max, uint32_t *out,
		  char *err, size_t errlen);

/**
 * Parse a comma-separated list of pvp_parse_u32() numbers ("64,128,1518").
 *
 * @param out
 *   Filled with the values, in order.
 * @param cap
 *   Room in @p out; a longer list is an error.
 * @param n
 *   Number of values on success (at least 1).
 * @return
 *   0, -EINVAL (empty list or item, not a number, too many items) or
 *   -ERANGE (an item out of range). The message names the bad item.
 */
int pvp_parse_u32_list(const char *what, const char *s, uint32_t min, uint32_t max, uint32_t *out,
		       unsigned int cap, unsigned int *n, char *err, size_t errlen);

/**
 * Parse a decimal number in [@p min, @p max].
 *
 * Accepted: an optional '-', digits with an optional '.' fraction and an
 * optional exponent ("1.5", "-2", "1e3", ".5"). Refused: "nan", "inf",
 * hex floats ("0x1p3"), a leading '+' or blank, trailing text, values
 * beyond the range of a double and non-zero values too small to be a
 * normal double (1e-320): those are typing mistakes, never a setting.
 *
 * @return
 *   0, -EINVAL (not a number) or -ERANGE (out of [min, max]); the message
 *   reads `--duration: "nan" must be a number in 0.001..31536000`.
 */
int pvp_parse_double(const char *what, const char *s, double min, double max, double *out,
		     char *err, size_t errlen);

/**
 * Parse a duration into seconds: a pvp_parse_double() number with an
 * optional unit, "ms", "s", "m" or "h" ("10", "2.5s", "500ms", "1h").
 * The range is checked in seconds after the unit is applied.
 *
 * @return 0, -EINVAL or -ERANGE.
 */
int pvp_parse_duration(const char *what, const char *s, double min_s, double max_s, double *out_s,
		       char *err, size_t errlen);

/**
 * Parse a count with an optional decimal multiplier: "1000", "10k",
 * "1.5M", "2G" (k = 1e3, M = 1e6, G = 1e9; the result must be whole).
 *
 * @return 0, -EINVAL or -ERANGE.
 */
int pvp_parse_count(const char *what, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		    char *err, size_t errlen);

/* ---- command lines ---- */

struct option;

/**
 * The message for what getopt_long() (with opterr = 0) returned '?' for:
 * "--rate needs a value", "unknown option '-x'", "unknown option
 * '--bogus'". The same words in every binary.
 *
 * @param longopts
 *   The table given to getopt_long().
 * @param optopt_
 *   getopt's optopt after the '?'.
 * @param word
 *   The command-line word it stopped at (argv[optind - 1]).
 */
void pvp_opt_error(const struct option *longopts, int optopt_, const char *word, char *err,
		   size_t errlen);

/** A whole-number option: its range and the field it is stored in. */
struct pvp_num_opt {
	int id;	      /**< the option's val in the getopt_long() table */
	uint64_t min; /**< smallest value accepted */
	uint64_t max; /**< largest value accepted */
	size_t off;   /**< offset of the field in the options struct */
	uint8_t size; /**< size of that field: 1, 2, 4 or 8 */
};

/** A pvp_num_opt for @p field of struct @p type. */
#define PVP_NUM_OPT(type, id, field, lo, hi)                                                       \
	{                                                                                          \
		(id), (lo), (hi), offsetof(type, field), sizeof(((type *)0)->field)                \
	}

/**
 * If @p id is in @p table, parse @p arg with pvp_parse_u64() in its
 * range and store it in its field of @p conf.
 *
 * @param longopts
 *   The getopt_long() table, for the option's name in messages
 *   (`--rxd: "1" must be a whole number in 64..32768`).
 * @return
 *   1 stored, 0 not a whole-number option, or -EINVAL / -ERANGE with
 *   @p err set.
 */
int pvp_num_opt_parse(const struct pvp_num_opt *table, size_t n, const struct option *longopts,
		      int id, const char *arg, void *conf, char *err, size_t errlen);

/**
 * Split "prog [EAL options] -- [app options]": the app's options are
 * parsed first, so --help and a bad option answer without hugepages.
 *
 * @param app_argv
 *   A new array: argv[0], then what follows "--" (the caller frees it).
 * @param help
 *   Set when argv[1] is "--help" (then nothing else is filled).
 * @return
 *   The number of arguments for the EAL (argv[0] up to "--"), or
 *   -ENOMEM.
 */
int pvp_args_split(int argc, char **argv, int *app_argc, char ***app_argv, bool *help);

/* ---- rates ---- */

/** Bytes of FCS included in every pvpkit frame size. */
#define PVP_FCS_LEN 4
/** Bytes of preamble + SFD + inter-frame gap per frame on the wire. */
#define PVP_L1_OVERHEAD 20

/** Smallest packet rate accepted, in packets per second. */
#define PVP_RATE_MIN_PPS 1.0
/** Largest packet rate accepted (a 1.6 Tbit/s link of 64 B frames is 2.4e9). */
#define PVP_RATE_MAX_PPS 1e11
/** Smallest bit rate accepted (1 kbit/s is ~1.5 pps of 64 B frames). */
#define PVP_RATE_MIN_BPS 1e3
/** Largest bit rate accepted. */
#define PVP_RATE_MAX_BPS 1e14
/** Smallest percentage of the line rate accepted. */
#define PVP_RATE_MIN_PERCENT 1e-6

/** Unit of a parsed rate. */
enum pvp_rate_unit {
	PVP_RATE_PPS = 0, /**< packets per second */
	PVP_RATE_BPS_L1,  /**< L1 bits per second (frame + FCS + 20 B) */
	PVP_RATE_BPS_L2,  /**< L2 bits per second (frame + FCS) */
	PVP_RATE_PERCENT, /**< percent of the line rate */
	PVP_RATE_MAX,	  /**< as fast as possible; value unused */
};

/** A rate as the user wrote it. */
struct pvp_rate {
	enum pvp_rate_unit unit; /**< what value counts */
	double value;		 /**< in the unit; > 0 (unused for MAX) */
};

/**
 * Parse a rate string. Frame sizes everywhere in pvpkit INCLUDE the 4 B
 * FCS (64..1518, jumbo up to 9216); on the wire every frame also takes
 * 20 B of preamble, SFD and inter-frame gap. Accepted (units are
 * case-insensitive; k = 1e3, M = 1e6, G = 1e9, decimal as link speeds
 * are):
 *
 *   "1000", "1.5M", "2k"      packets per second (plain number = pps)
 *   "500kpps", "1Mpps"        packets per second
 *   "10Gbps", "10Gbps-l1"     L1 bits per second (the default for bps)
 *   "9.5Gbps-l2"              L2 bits per second (frames with FCS)
 *   "50%"                     percent of the line rate (L1), 0 < p <= 100
 *   "max"                     as fast as the sender can
 *
 * Numbers follow pvp_parse_double() (no nan, inf or hex). Bounds:
 * PVP_RATE_MIN_PPS..PVP_RATE_MAX_PPS, PVP_RATE_MIN_BPS..PVP_RATE_MAX_BPS,
 * PVP_RATE_MIN_PERCENT..100.
 *
 * @param s
 *   The string, e.g. "10Gbps", "1.5Mpps", "50%", "max", "14880952".
 * @param r
 *   Filled on success.
 * @param err
 *   Optional buffer for a one-line message on failure (may be NULL).
 * @param errlen
 *   Size of @p err.
 * @return
 *   0, or -EINVAL for a malformed string, -ERANGE for a value that is
 *   zero, negative or outside the bounds.
 */
int pvp_rate_parse(const char *s, struct pvp_rate *r, char *err, size_t errlen);

/**
 * The bounds pvp_rate_parse() holds a value of @p unit to (pps, bit/s or
 * percent), for rates that arrive as numbers (a TRex stream's).
 * @p lo and @p hi are 0 for PVP_RATE_MAX.
 */
void pvp_rate_bounds(enum pvp_rate_unit unit, double *lo, double *hi);

/**
 * Format a rate back into the canonical string ("1.5Mpps", "10Gbps",
 * "9.5Gbps-l2", "50%", "max").
 *
 * @return the number of characters written (snprintf semantics).
 */
int pvp_rate_format(const struct pvp_rate *r, char *buf, size_t len);

/**
 * Convert a rate to packets per second.
 *
 * @param r
 *   The rate.
 * @param avg_size
 *   Average frame size in bytes, FCS included (for IMIX: the mean over
 *   one cycle).
 * @param link_bps
 *   Link speed in bit/s, 0 when unknown.
 * @param pps
 *   Result. For PVP_RATE_MAX: the line rate when @p link_bps is known,
 *   else INFINITY (the caller treats it as "unpaced").
 * @return
 *   0, or -EINVAL when @p avg_size is not positive, or for a
 *   percentage when @p link_bps is 0 (unknown link speed).
 */
int pvp_rate_to_pps(const struct pvp_rate *r, double avg_size, uint64_t link_bps, double *pps);

/** Line rate in packets per second for @p avg_size byte frames (FCS included). */
static inline double
pvp_rate_line_pps(uint64_t link_bps, double avg_size)
{
	return (double)link_bps / ((avg_size + PVP_L1_OVERHEAD) * 8.0);
}

/** L1 bits per second of @p pps frames of @p avg_size bytes (FCS included). */
static inline double
pvp_rate_l1_bps(double pps, double avg_size)
{
	return pps * (avg_size + PVP_L1_OVERHEAD) * 8.0;
}

/** L2 bits per second of @p pps frames of @p avg_size bytes (FCS included). */
static inline double
pvp_rate_l2_bps(double pps, double avg_size)
{
	return pps * avg_size * 8.0;
}

/** True when @p r is "max". */
static inline bool
pvp_rate_is_max(const struct pvp_rate *r)
{
	return r->unit == PVP_RATE_MAX;
}

/* ---- clock, arithmetic, formatting ---- */

/**
 * CLOCK_MONOTONIC in nanoseconds: for intervals, never for dates. Its
 * origin is this host's boot, so a duration read from another host (a
 * port's age, an uptime) may exceed it: compare such durations with
 * differences of two readings, never subtract them from one
 * (doc/design.rst, "Clocks").
 */
static inline uint64_t
pvp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/** CLOCK_MONOTONIC in milliseconds. */
static inline uint64_t
pvp_now_ms(void)
{
	return pvp_now_ns() / 1000000ull;
}

/** CLOCK_MONOTONIC in seconds, fractional. */
static inline double
pvp_now_s(void)
{
	return (double)pvp_now_ns() / 1e9;
}

/**
 * CLOCK_REALTIME in seconds, fractional: for times agreed between hosts
 * (a start at a given time), never for intervals.
 */
static inline double
pvp_realtime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/** Greatest common divisor; pvp_gcd64(0, b) is b, pvp_gcd64(0, 0) is 0. */
uint64_t pvp_gcd64(uint64_t a, uint64_t b);

/** Length of "xx:xx:xx:xx:xx:xx" plus its NUL. */
#define PVP_MAC_STRLEN 18

/**
 * Format the 48-bit MAC address in the low bits of @p mac (first octet
 * in bits 47..40) as "xx:xx:xx:xx:xx:xx".
 *
 * @return @p buf.
 */
const char *pvp_mac_format(uint64_t mac, char *buf, size_t len);

/**
 * Parse "xx:xx:xx:xx:xx:xx" (hex digits, either case, nothing else) into
 * the low 48 bits of @p mac, first octet in bits 47..40.
 * @return 0, or -EINVAL (nothing written).
 */
int pvp_parse_mac(const char *s, uint64_t *mac);

/** Length of "255.255.255.255" plus its NUL. */
#define PVP_IPV4_STRLEN 16

/**
 * Parse a dotted IPv4 address ("10.0.0.1", as inet_pton() reads it: four
 * decimal octets, nothing else) into @p ip in host order.
 * @return 0, or -EINVAL (nothing written).
 */
int pvp_parse_ipv4(const char *s, uint32_t *ip);

/** Format @p ip (host order) as "a.b.c.d". @return @p buf. */
const char *pvp_ipv4_format(uint32_t ip, char *buf, size_t len);

/**
 * Format @p v with thousands separators: 14880952 as "14,880,952",
 * -1234 as "-1,234". Cut to fit @p len.
 *
 * @return @p buf.
 */
const char *pvp_fmt_count(int64_t v, char *buf, size_t len);

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
 * Check, before anything runs, that a JSON document can be written to
 * @p path later (--json FILE): a regular file (created and removed again
 * when missing), opened without blocking, so a FIFO or device is refused
 * at once.
 *
 * @return 0 or -errno (-EINVAL: not a regular file) with "PATH: reason"
 *   in @p err.
 */
int pvp_json_file_check(const char *path, char *err, size_t errlen);

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

/* ---- base64 ---- */

/**
 * base64 (RFC 4648, standard alphabet, with padding) of @p len bytes.
 * @return a malloc'd NUL-terminated string, or NULL (errno ENOMEM).
 */
char *pvp_b64_encode(const void *in, size_t len);

/**
 * Decode @p n characters of base64 (RFC 4648, standard alphabet, padded
 * to a multiple of 4, '=' only at the end).
 * @param len
 *   Set to the number of bytes decoded.
 * @return a malloc'd buffer, or NULL with errno EINVAL (not base64) or
 *   ENOMEM.
 */
uint8_t *pvp_b64_decode(const char *in, size_t n, size_t *len);

/* ---- positions in JSON text ---- */

/**
 * Line and column (both from 1) of the value at @p path in the JSON
 * @p text, for messages like "profile.json:12:7: ...".
 *
 * @param path
 *   Members and indexes as "streams[1].headers.ipv4"; "" is the root.
 *   A member that is not there gives the position of the deepest
 *   container found on the way.
 * @param line
 *   Line of the value.
 * @param column
 *   Column of the value (bytes).
 */
void pvp_json_locate(const char *text, const char *path, int *line, int *column);

/**
 * One-line message for a jansson load error: "source:line:col: text".
 * jansson quotes the token it stopped at ("near 'root'"), which would
 * print part of a file that may not be JSON at all (a secret); that part
 * is left out. Keeps an earlier error, as pvp_err() does.
 */
void pvp_json_load_err(char *err, size_t len, const char *source, const json_error_t *jerr);

/**
 * pvp_err() with the position of @p path in @p text:
 * "source:line:col: path: message", or "source: path: message" when
 * @p text is NULL (the JSON was built in memory) and "source:line:col:
 * message" when @p path is "".
 */
void pvp_json_path_err(char *err, size_t len, const char *source, const char *text,
		       const char *path, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* ---- schemas: one description of a JSON object, every job from it ---- */

/** What a member's value must be, and how it is kept in the C struct. */
enum pvp_schema_type {
	PVP_SCHEMA_STRING, /**< string of min..max bytes (one of values[] if given); char[size] */
	PVP_SCHEMA_UINT,   /**< integer in min..max; unsigned of size 1, 2, 4 or 8 */
	PVP_SCHEMA_INT,	   /**< integer in min..max; signed of size 1, 2, 4 or 8 */
	PVP_SCHEMA_DOUBLE, /**< number in min..max; double */
	PVP_SCHEMA_BOOL,   /**< true or false; bool */
	PVP_SCHEMA_ENUM,   /**< one of values[]; its index as an unsigned int */
	PVP_SCHEMA_MAC,	   /**< "xx:xx:xx:xx:xx:xx"; uint64_t (pvp_parse_mac()) */
	PVP_SCHEMA_IPV4,   /**< "a.b.c.d"; uint32_t in host order (pvp_parse_ipv4()) */
	PVP_SCHEMA_OBJECT, /**< object of the members[] only; a struct their offsets are in */
	PVP_SCHEMA_ARRAY,  /**< list of min..max items, each as members[0]; an array of them */
};

/**
 * One member of a JSON object that crosses a file or process boundary
 * (a topology hop, a driver's config). A table of them, ended by a NULL
 * name, is the one description from which pvp_schema_check() validates
 * (with file:line:col), pvp_schema_decode() fills the C struct (defaults
 * applied), pvp_schema_encode() writes it back and pvp_schema_doc() writes
 * the RST table of doc/. Use PVP_SCHEMA_AT() for offset and size.
 */
struct pvp_schema_member {
	const char *name;			 /**< member name; NULL ends a table */
	enum pvp_schema_type type;		 /**< what the value must be */
	bool required;				 /**< an object without it is refused */
	int64_t min;				 /**< smallest integer, length or item count */
	int64_t max;				 /**< largest integer, length or item count */
	const char *const *values;		 /**< STRING, ENUM: the words, NULL-ended */
	const struct pvp_schema_member *members; /**< OBJECT: its table; ARRAY: the item */
	size_t offset;				 /**< where the value lives in the struct */
	size_t size;				 /**< its size; 0: checked, never decoded */
	size_t count_offset;			 /**< ARRAY: unsigned int item count */
	const char *def;  /**< default as JSON text ("3000", "\"x\""), or NULL */
	const char *help; /**< one line for the doc table, or NULL */
};

/** .offset and .size of member @p field of struct @p type. */
#define PVP_SCHEMA_AT(type, field)                                                                 \
	.offset = offsetof(type, field), .size = sizeof(((type *)0)->field)

/** Where a value being checked came from, for its messages. */
struct pvp_schema_src {
	const char *source;	 /**< file name, or NULL: messages are "path: message" */
	const char *text;	 /**< the file's JSON text for line:col, or NULL */
	const char *const *skip; /**< names of the top object the caller checks, or NULL */
};

/**
 * Check object @p o against @p members: an unknown member, a wrong type,
 * a value out of range or a missing required member is an error
 * "source:line:col: path.member: must be ...". The first error wins.
 * @param path where @p o is in the document ("hops[1]"; "" the root).
 * @param src where it came from; NULL for "path: message" alone.
 * @return 0, or -EINVAL with @p err set.
 */
int pvp_schema_check(const struct pvp_schema_member *members, const json_t *o, const char *path,
		     const struct pvp_schema_src *src, char *err, size_t err_len);

/**
 * pvp_schema_check() @p o (NULL: an empty object), then fill @p obj from
 * it: every member with a size, its default where @p o lacks it (zero
 * where there is no default).
 * @param skip members of @p o that are not the table's (a hop's "name"),
 *   NULL-ended, or NULL.
 * @return 0, or -EINVAL with "path: message" in @p err.
 */
int pvp_schema_decode(const struct pvp_schema_member *members, const json_t *o,
		      const char *const *skip, void *obj, char *err, size_t err_len);

/**
 * The object @p obj holds, as JSON: every member with a size.
 * @return a new reference, or NULL when out of memory.
 */
json_t *pvp_schema_encode(const struct pvp_schema_member *members, const void *obj);

/**
 * Write @p members as an RST table (member, type, default, meaning) to
 * @p out; nested members as "ssh.host", list items as "forward[].in".
 * @return 0, or -EIO.
 */
int pvp_schema_doc(const struct pvp_schema_member *members, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* PVP_UTIL_H */
