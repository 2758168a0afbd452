/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/**
 * @file
 * Prometheus / OpenMetrics for pvpkit (doc/metrics.rst), without DPDK:
 *
 * - a writer of the OpenMetrics 1.0.0 text format and of Prometheus'
 *   text format 0.0.4 from the same calls (the two differ only in how
 *   a counter's family is named, in "# UNIT" and in "# EOF");
 * - the metrics of a stats.get answer (lib/stats' snapshot JSON with
 *   pvpkit-gen's or pvpkit-fwd's streams): per port, per queue, per
 *   lcore, per stream, latency histograms;
 * - a small HTTP server that answers GET /metrics from a thread of its
 *   own, with bounded request parsing;
 * - an HTTP client that PUTs or POSTs a text body (a Pushgateway).
 *
 * Errors: 0 or -errno, one line in (err, err_len), the first kept.
 */

#ifndef PVP_METRICS_H
#define PVP_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Which text format a writer produces. */
enum pvp_om_format {
	PVP_OM_OPENMETRICS, /**< OpenMetrics 1.0.0: "# UNIT", counters as FAMILY_total, "# EOF" */
	PVP_OM_PROMETHEUS,  /**< Prometheus text 0.0.4: the family of a counter is FAMILY_total */
};

/** Content-Type of each format. */
#define PVP_OM_CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define PVP_OM_CT_PROMETHEUS  "text/plain; version=0.0.4; charset=utf-8"

/** Kinds of metric family. */
enum pvp_om_type {
	PVP_OM_COUNTER,	  /**< only goes up (until the process restarts or is cleared) */
	PVP_OM_GAUGE,	  /**< any value */
	PVP_OM_HISTOGRAM, /**< cumulative buckets, _sum and _count */
};

/** Most labels of one sample (le of a histogram comes on top). */
#define PVP_OM_MAX_LABELS 6

/** One label of a sample; its value is escaped when written. */
struct pvp_om_label {
	const char *name;  /**< [a-zA-Z_][a-zA-Z0-9_]*, never "le" */
	const char *value; /**< any UTF-8 text */
};

/** A text exposition being written (pvp_om_init() to pvp_om_free()). */
struct pvp_om {
	char *buf;		/**< the text, NUL-terminated */
	size_t len;		/**< bytes in buf */
	size_t cap;		/**< room in buf */
	enum pvp_om_format fmt; /**< what is written */
	enum pvp_om_type type;	/**< of the current family */
	char family[128];	/**< the current family's name */
	int err;		/**< first error (-ENOMEM, -EINVAL), 0 while fine */
};

/** Start an empty exposition in format @p fmt. */
void pvp_om_init(struct pvp_om *om, enum pvp_om_format fmt);

/** Free its text. NULL is a no-op. */
void pvp_om_free(struct pvp_om *om);

/**
 * Begin a metric family: "# TYPE", "# UNIT" (OpenMetrics, when @p unit is
 * not NULL: the name must then end in "_UNIT") and "# HELP". Samples of
 * it follow with pvp_om_value() or pvp_om_histogram(); a family must be
 * begun once per exposition.
 * @param name
 *   The family without "_total" (e.g. "pvpkit_port_packets").
 */
void pvp_om_family(struct pvp_om *om, const char *name, enum pvp_om_type type, const char *unit,
		   const char *help);

/** One sample of the current counter or gauge family. */
void pvp_om_value(struct pvp_om *om, const struct pvp_om_label *labels, unsigned int nb_labels,
		  double value);

/** One sample of the current counter or gauge family, a whole number. */
void pvp_om_uint(struct pvp_om *om, const struct pvp_om_label *labels, unsigned int nb_labels,
		 uint64_t value);

/**
 * One histogram of the current histogram family.
 * @param le
 *   Upper bounds, ascending, in the family's unit (+Inf comes on top).
 * @param cum
 *   Observations <= each bound (cumulative, non-decreasing).
 * @param nb
 *   Entries of @p le and @p cum.
 * @param sum
 *   Sum of the observations.
 * @param count
 *   Number of observations (the +Inf bucket).
 */
void pvp_om_histogram(struct pvp_om *om, const struct pvp_om_label *labels, unsigned int nb_labels,
		      const double *le, const uint64_t *cum, unsigned int nb, double sum,
		      uint64_t count);

/**
 * End the exposition ("# EOF" in OpenMetrics).
 * @return 0, or the first error of the writer (-ENOMEM, -EINVAL).
 */
int pvp_om_finish(struct pvp_om *om);

/* ---- the metrics of pvpkit-gen and pvpkit-fwd ---- */

/**
 * Latency histograms' bucket bounds: powers of two nanoseconds, from
 * 2^PVP_METRICS_LAT_LOW_BITS to 2^PVP_METRICS_LAT_HIGH_BITS. Each is a
 * bucket bound of lib/lat too, so the cumulative counts are exact.
 */
#define PVP_METRICS_LAT_LOW_BITS  7
#define PVP_METRICS_LAT_HIGH_BITS 33
/** Number of those bounds. */
#define PVP_METRICS_LAT_NB_LE (PVP_METRICS_LAT_HIGH_BITS - PVP_METRICS_LAT_LOW_BITS + 1)

/**
 * Write the metrics of a stats.get answer (doc/metrics.rst lists them):
 * lib/stats' ports and queues, and what the app adds ("streams" with
 * their latency histograms, "traffic", "unsigned_rx" ...). Members
 * missing from @p stats give no family.
 *
 * @param app
 *   "pvpkit-gen" or "pvpkit-fwd": the "app" label of pvpkit_info.
 * @param lcores
 *   NULL, or an array of {"lcore", "port", "queue", "direction" ("rx" or
 *   "tx")}: which lcore polls each queue; those queues get an "lcore"
 *   label and the lcore families are written.
 * @return 0, -EINVAL (@p stats is not a stats.get answer) or -ENOMEM.
 */
int pvp_metrics_from_stats(struct pvp_om *om, const char *app, const json_t *stats,
			   const json_t *lcores);

/* ---- HTTP: the /metrics server ---- */

/** Longest request head (request line and headers) read, in bytes. */
#define PVP_METRICS_MAX_REQUEST 8192
/** Most clients served at once; more wait in the listen backlog. */
#define PVP_METRICS_MAX_CLIENTS 16
/** A request must arrive whole this soon after its connection, and its answer leave. */
#define PVP_METRICS_IO_TIMEOUT_MS 5000

/** A parsed request head. */
struct pvp_metrics_req {
	int status;		/**< 200, or the error to answer: 400, 404, 405, 431, 505 */
	bool head;		/**< HEAD: headers only */
	enum pvp_om_format fmt; /**< what the Accept header allows */
};

/**
 * Parse an HTTP/1.x request head (pure: the server's parser, fuzzed and
 * unit-tested alone). GET and HEAD of "/metrics" (a query string is
 * allowed and ignored) are 200; any other path 404, any other method
 * 405, a malformed line 400, another version than 1.0/1.1 505, a head
 * longer than PVP_METRICS_MAX_REQUEST 431. OpenMetrics is chosen when
 * the Accept header names application/openmetrics-text, as Prometheus
 * does; else Prometheus text 0.0.4, as client_golang answers.
 *
 * @return 1 when @p len bytes hold a whole head (or enough to refuse
 *   it), 0 when more bytes are needed; @p req is filled when 1.
 */
int pvp_metrics_http_parse(const char *buf, size_t len, struct pvp_metrics_req *req);

/**
 * Fill @p om (already initialised in the chosen format) with the
 * current metrics. Runs on the server's thread.
 * @return 0, or -errno: the client then gets 500.
 */
typedef int (*pvp_metrics_collect_cb)(struct pvp_om *om, void *arg);

/** Opaque server. */
struct pvp_metrics_server;

/**
 * Parse a --metrics address: "PORT", "HOST:PORT" or "[V6ADDR]:PORT";
 * HOST numeric or "localhost", 127.0.0.1 when left out; PORT 0..65535
 * (0: any free port).
 * @return 0, or -EINVAL with e.g. `--metrics "x:1": HOST must be an IP
 *   address or localhost` in @p err.
 */
int pvp_metrics_addr_parse(const char *addr, char *host, size_t host_len, uint16_t *port, char *err,
			   size_t err_len);

/**
 * Bind @p addr (pvp_metrics_addr_parse()) and serve GET /metrics from a
 * new thread, calling @p collect per request.
 * @return the server, or NULL with errno set and the reason in @p err
 *   (`--metrics 127.0.0.1:9464: Address already in use`).
 */
struct pvp_metrics_server *pvp_metrics_server_start(const char *addr,
						    pvp_metrics_collect_cb collect, void *arg,
						    char *err, size_t err_len);

/** The URL it serves, e.g. "http://127.0.0.1:41234/metrics". */
const char *pvp_metrics_server_url(const struct pvp_metrics_server *srv);

/** Stop the thread, close every connection, free. NULL is a no-op. */
void pvp_metrics_server_stop(struct pvp_metrics_server *srv);

/* ---- HTTP: sending a body (Pushgateway) ---- */

/**
 * Check an http:// URL ("http://HOST[:PORT]/PATH", HOST a name or an
 * address, [V6] in brackets): what pvp_metrics_http_send() accepts.
 * @return 0, or -EINVAL with the reason ("https is not supported").
 */
int pvp_metrics_url_check(const char *url, char *err, size_t err_len);

/**
 * Send @p body with @p method ("PUT" or "POST") to @p url and read the
 * status, within @p timeout_ms.
 * @return 0 on a 2xx answer; -EPROTO with "HTTP 400: first line of the
 *   body" on another; -ETIMEDOUT, -ECONNREFUSED ... when it could not.
 */
int pvp_metrics_http_send(const char *url, const char *method, const char *content_type,
			  const char *body, size_t len, unsigned int timeout_ms, char *err,
			  size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* PVP_METRICS_H */
