/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * What the coordinator and the data-plane apps both need, done once:
 * strict number, duration and rate parsing, the error-buffer helper,
 * command-line option tables, the monotonic clock, MAC and IPv4
 * addresses, base64. With it come pvp_file.h (safe reading of files a
 * user or a peer names, safe output files, JSON-lines append that
 * survives a full disk, running a program with a deadline, socket
 * clients with a deadline) and pvp_schema.h (JSON positions as
 * file:line:col, and the schema tables).
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

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "pvp_file.h"
#include "pvp_schema.h"

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

/** pvp_err() with a va_list, for helpers that add their own step (a return value). */
void pvp_verr(char *err, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/**
 * pvp_err(), then return @p code, so that a function fails in one
 * statement: return pvp_fail(err, err_len, -EPROTO, "hop %s: ...", ...).
 */
int pvp_fail(char *err, size_t len, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

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
 * Parse a latency into nanoseconds: a pvp_parse_double() number with a
 * unit, "us" or "ms" ("100us", "2.5ms"). The range is checked in ns after
 * the unit is applied.
 *
 * @return 0, -EINVAL or -ERANGE.
 */
int pvp_parse_latency(const char *what, const char *s, double min_ns, double max_ns, double *out_ns,
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

/**
 * getopt_long() with no short options that takes a long option only by
 * its whole name: an abbreviation ("--dur" for "--duration") returns '?'
 * with optopt 0 and argv[optind - 1] the word, for pvp_opt_error()
 * ("unknown option '--dur' (options are not abbreviated: --duration?)").
 */
int pvp_getopt(int argc, char **argv, const struct option *longopts, int *longindex);

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

/** Now, UTC, in ISO 8601 ("2026-12-05T11:04:00Z") into @p buf: a record's "started". */
static inline void
pvp_utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/** The big-endian 16-bit number at @p p (any alignment): wire and file formats. */
static inline uint16_t
pvp_get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/** The big-endian 32-bit number at @p p. */
static inline uint32_t
pvp_get_be32(const uint8_t *p)
{
	return (uint32_t)pvp_get_be16(p) << 16 | pvp_get_be16(p + 2);
}

/** The big-endian 64-bit number at @p p. */
static inline uint64_t
pvp_get_be64(const uint8_t *p)
{
	return (uint64_t)pvp_get_be32(p) << 32 | pvp_get_be32(p + 4);
}

/** Write @p v big-endian at @p p (any alignment). */
static inline void
pvp_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/** Write @p v big-endian at @p p. */
static inline void
pvp_put_be32(uint8_t *p, uint32_t v)
{
	pvp_put_be16(p, (uint16_t)(v >> 16));
	pvp_put_be16(p + 2, (uint16_t)v);
}

/** Write @p v big-endian at @p p. */
static inline void
pvp_put_be64(uint8_t *p, uint64_t v)
{
	pvp_put_be32(p, (uint32_t)(v >> 32));
	pvp_put_be32(p + 4, (uint32_t)v);
}

/** Greatest common divisor; pvp_gcd64(0, b) is b, pvp_gcd64(0, 0) is 0. */
uint64_t pvp_gcd64(uint64_t a, uint64_t b);

/**
 * Grow the buffer *@p buf of *@p cap bytes to hold @p need bytes, doubling
 * from 4096; unchanged on failure. @return 0 or -ENOMEM.
 */
int pvp_buf_reserve(char **buf, size_t *cap, size_t need);

/** Length of "xx:xx:xx:xx:xx:xx" plus its NUL. */
#define PVP_MAC_STRLEN 18

/**
 * Format the 48-bit MAC address in the low bits of @p mac (first octet
 * in bits 47..40) as "xx:xx:xx:xx:xx:xx".
 *
 * @return @p buf.
 */
const char *pvp_mac_format(uint64_t mac, char *buf, size_t len);

/** The host's CPU model, /proc/cpuinfo's first "model name", into @p buf; "" if none. */
void pvp_cpu_model(char *buf, size_t len);

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
 * Parse an IPv6 address in any of the spellings inet_pton() reads
 * ("2001:db8::1", "::ffff:10.0.0.1"; nothing around it) into @p ip,
 * network order.
 * @return 0, or -EINVAL (nothing written).
 */
int pvp_parse_ipv6(const char *s, uint8_t ip[16]);

/**
 * Format @p v with thousands separators: 14880952 as "14,880,952",
 * -1234 as "-1,234". Cut to fit @p len.
 *
 * @return @p buf.
 */
const char *pvp_fmt_count(int64_t v, char *buf, size_t len);

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

#ifdef __cplusplus
}
#endif

#endif /* PVP_UTIL_H */
