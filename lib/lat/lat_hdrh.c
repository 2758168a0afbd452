/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * HdrHistogram's compressed V2 encoding, both ways, so that HdrHistogram's
 * tools (CSIT's and NFVbench's hdrh decoders, HistogramLogAnalyzer, ...)
 * read pvpkit's latency, and so that the tests can read the reference
 * libraries' encoded histograms. Written from the format's description:
 * every integer is big-endian; the V2 encoding is a 40 B header (cookie,
 * payload length, normalizing index offset, significant digits, lowest,
 * highest, the conversion ratio's IEEE 754 bits) and the counts as ZigZag
 * LEB128 numbers (at most 9 bytes, the 9th carrying 8 bits), a run of
 * zeros written as its negated length; the compressed form is a cookie,
 * the deflated length and zlib's deflate of the V2 encoding; logs and
 * JSON carry that in base64.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <zlib.h>

#include "pvp_util.h"

#include "pvp_lat.h"

/* The cookies' 0x10 says the counts are ZigZag LEB128 (V2). Readers of
 * every version mask the word-size nibble 0xf0 off; only V2 is read here,
 * so a cookie must be one of these whole. */
#define HDRH_V2_COOKIE	    0x1c849313u
#define HDRH_V2_COMPRESSED  0x1c849314u
#define HDRH_HEADER_LEN	    40
#define HDRH_COMPRESSED_HDR 8
#define HDRH_LEB128_MAX	    9
/* A decoded payload larger than this is refused rather than allocated:
 * 5 digits up to INT64_MAX is 6.2 M counts, at most 9 B each. */
#define HDRH_PAYLOAD_MAX (64u << 20)

int
pvp_hdrh_init(struct pvp_hdrh *h, int64_t lowest, int64_t highest, int digits, char *err,
	      size_t err_len)
{
	int64_t single = 2, untrackable;
	int32_t sub_mag = 0, buckets = 1;
	int i;

	memset(h, 0, sizeof(*h));
	if (lowest < 1 || digits < 1 || digits > 5 || highest < 2 * lowest)
		return pvp_fail(
			err, err_len, -EINVAL,
			"HDR layout lowest %lld, highest %lld, %d digits: lowest must be >= 1, "
			"highest >= 2 x lowest, digits 1..5",
			(long long)lowest, (long long)highest, digits);
	/* Values up to 2 x 10^digits have a count each (unit resolution). */
	for (i = 0; i < digits; i++)
		single *= 10;
	while ((INT64_C(1) << sub_mag) < single)
		sub_mag++;
	h->lowest = lowest;
	h->highest = highest;
	h->digits = digits;
	h->ratio = 1.0;
	h->unit_magnitude = 63 - __builtin_clzll((uint64_t)lowest);
	h->sub_half_mag = (sub_mag > 1 ? sub_mag : 1) - 1;
	if (h->unit_magnitude + h->sub_half_mag > 61)
		return pvp_fail(err, err_len, -EINVAL,
				"HDR layout lowest %lld with %d digits overflows 64 bits",
				(long long)lowest, digits);
	/* One bucket per power of two until the highest value fits. */
	untrackable = (INT64_C(1) << (h->sub_half_mag + 1)) << h->unit_magnitude;
	while (untrackable <= highest) {
		if (untrackable > INT64_MAX / 2) {
			buckets++;
			break;
		}
		untrackable <<= 1;
		buckets++;
	}
	h->counts_len = (buckets + 1) << h->sub_half_mag;
	return 0;
}

void
pvp_hdrh_free(struct pvp_hdrh *h)
{
	if (h == NULL)
		return;
	free(h->counts);
	h->counts = NULL;
	h->nb_counts = 0;
	h->total = 0;
}

int32_t
pvp_hdrh_index(const struct pvp_hdrh *h, int64_t value)
{
	uint64_t mask = ((UINT64_C(2) << h->sub_half_mag) - 1) << h->unit_magnitude;
	int32_t bucket = 64 - __builtin_clzll((uint64_t)value | mask) - h->unit_magnitude -
			 (h->sub_half_mag + 1);
	int32_t sub = (int32_t)(value >> (bucket + h->unit_magnitude));

	return ((bucket + 1) << h->sub_half_mag) + sub - (1 << h->sub_half_mag);
}

/* The lowest value of counts index @p i. */
static int64_t
hdrh_value_at_index(const struct pvp_hdrh *h, int32_t i)
{
	int32_t half = 1 << h->sub_half_mag;
	int32_t bucket = (i >> h->sub_half_mag) - 1;
	int32_t sub = (i & (half - 1)) + half;

	if (bucket < 0) {
		sub -= half;
		bucket = 0;
	}
	return (int64_t)sub << (bucket + h->unit_magnitude);
}

int64_t
pvp_hdrh_highest_equivalent(const struct pvp_hdrh *h, int64_t value)
{
	int32_t i = pvp_hdrh_index(h, value);
	int32_t bucket = (i >> h->sub_half_mag) - 1;

	/* The first two halves share the first bucket's unit width. */
	if (bucket < 0)
		bucket = 0;
	return hdrh_value_at_index(h, i) + (INT64_C(1) << (bucket + h->unit_magnitude)) - 1;
}

/* Make room for counts index @p i. */
static int
hdrh_reserve(struct pvp_hdrh *h, int32_t i)
{
	int32_t n = h->nb_counts > 0 ? h->nb_counts : 64;
	int64_t *c;

	if (i < h->nb_counts)
		return 0;
	while (n <= i)
		n *= 2;
	if (n > h->counts_len)
		n = h->counts_len;
	c = realloc(h->counts, (size_t)n * sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	memset(c + h->nb_counts, 0, (size_t)(n - h->nb_counts) * sizeof(*c));
	h->counts = c;
	h->nb_counts = n;
	return 0;
}

int
pvp_hdrh_record(struct pvp_hdrh *h, int64_t value, int64_t count)
{
	int32_t i;

	if (value < 0 || count < 0)
		return -ERANGE;
	i = pvp_hdrh_index(h, value);
	if (i < 0 || i >= h->counts_len)
		return -ERANGE;
	if (hdrh_reserve(h, i) < 0)
		return -ENOMEM;
	h->counts[i] += count;
	h->total += count;
	return 0;
}

int64_t
pvp_hdrh_percentile(const struct pvp_hdrh *h, double pct)
{
	int64_t want, seen = 0;
	int32_t i;

	if (h->total == 0)
		return 0;
	if (pct > 100)
		pct = 100;
	want = (int64_t)(pct / 100.0 * (double)h->total + 0.5);
	if (want < 1)
		want = 1;
	for (i = 0; i < h->nb_counts; i++) {
		seen += h->counts[i];
		if (seen >= want)
			return pvp_hdrh_highest_equivalent(h, hdrh_value_at_index(h, i));
	}
	return 0;
}

/* One count as ZigZag LEB128; the bytes written. */
static size_t
zz_put(uint8_t *p, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	size_t n = 0;

	while (n < HDRH_LEB128_MAX - 1 && z >= 0x80) {
		p[n++] = (uint8_t)(z | 0x80);
		z >>= 7;
	}
	p[n++] = (uint8_t)z;
	return n;
}

/* One ZigZag LEB128 count from [*pos, end); -1 when cut short. */
static int
zz_get(const uint8_t *p, size_t end, size_t *pos, int64_t *v)
{
	uint64_t z = 0;
	int k;

	for (k = 0; k < HDRH_LEB128_MAX; k++) {
		uint8_t b;

		if (*pos >= end)
			return -1;
		b = p[(*pos)++];
		if (k == HDRH_LEB128_MAX - 1) {
			z |= (uint64_t)b << 56;
			break;
		}
		z |= (uint64_t)(b & 0x7f) << (7 * k);
		if ((b & 0x80) == 0)
			break;
	}
	*v = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
	return 0;
}

char *
pvp_hdrh_encode(const struct pvp_hdrh *h)
{
	int32_t limit = 1, i;
	uLongf zlen;
	int rc;
	size_t n;
	uint8_t *raw, *z;
	uint64_t ratio_bits;
	char *out;

	/* Up to the last non-zero count; an empty histogram writes one zero. */
	for (i = 0; i < h->nb_counts; i++)
		if (h->counts[i] != 0)
			limit = i + 1;
	raw = malloc(HDRH_HEADER_LEN + (size_t)limit * HDRH_LEB128_MAX);
	if (raw == NULL)
		return NULL;
	n = HDRH_HEADER_LEN;
	for (i = 0; i < limit;) {
		int64_t c = i < h->nb_counts ? h->counts[i] : 0;
		int64_t zeros = 0;

		if (c != 0) {
			n += zz_put(raw + n, c);
			i++;
			continue;
		}
		while (i < limit && (i >= h->nb_counts || h->counts[i] == 0)) {
			zeros++;
			i++;
		}
		n += zz_put(raw + n, -zeros);
	}
	memcpy(&ratio_bits, &h->ratio, sizeof(ratio_bits));
	pvp_put_be32(raw, HDRH_V2_COOKIE);
	pvp_put_be32(raw + 4, (uint32_t)(n - HDRH_HEADER_LEN));
	pvp_put_be32(raw + 8, 0);
	pvp_put_be32(raw + 12, (uint32_t)h->digits);
	pvp_put_be64(raw + 16, (uint64_t)h->lowest);
	pvp_put_be64(raw + 24, (uint64_t)h->highest);
	pvp_put_be64(raw + 32, ratio_bits);

	zlen = compressBound((uLong)n);
	z = malloc(HDRH_COMPRESSED_HDR + zlen);
	rc = z != NULL ? compress(z + HDRH_COMPRESSED_HDR, &zlen, raw, (uLong)n) : Z_MEM_ERROR;
	free(raw);
	if (rc != Z_OK) {
		free(z);
		errno = ENOMEM;
		return NULL;
	}
	pvp_put_be32(z, HDRH_V2_COMPRESSED);
	pvp_put_be32(z + 4, (uint32_t)zlen);
	out = pvp_b64_encode(z, HDRH_COMPRESSED_HDR + zlen);
	free(z);
	return out;
}

/*
 * Inflate @p zlen bytes into @p want bytes at @p out: the whole stream
 * and nothing more when @p whole, else only its first @p want bytes.
 */
static int
hdrh_inflate(const uint8_t *zin, size_t zlen, uint8_t *out, size_t want, bool whole)
{
	z_stream s;
	int rc;

	memset(&s, 0, sizeof(s));
	if (inflateInit(&s) != Z_OK)
		return -ENOMEM;
	s.next_in = (Bytef *)(uintptr_t)zin;
	s.avail_in = (uInt)zlen;
	s.next_out = out;
	s.avail_out = (uInt)want;
	rc = inflate(&s, whole ? Z_FINISH : Z_SYNC_FLUSH);
	inflateEnd(&s);
	if (s.avail_out != 0)
		return -EINVAL;
	return rc == Z_STREAM_END || (!whole && rc == Z_OK) ? 0 : -EINVAL;
}

/* Everything but the layout check and the counts. */
static int
hdrh_decode_raw(const char *b64, size_t len, uint8_t **raw, size_t *raw_len, char *err,
		size_t err_len)
{
	uint8_t *bin, head[HDRH_HEADER_LEN];
	size_t bin_len;
	uint32_t cookie, zlen, plen;
	int rc;

	bin = pvp_b64_decode(b64, len, &bin_len);
	if (bin == NULL)
		return pvp_fail(err, err_len, -errno, "HDR histogram: not base64");
	cookie = bin_len >= HDRH_COMPRESSED_HDR ? pvp_get_be32(bin) : 0;
	zlen = bin_len >= HDRH_COMPRESSED_HDR ? pvp_get_be32(bin + 4) : 0;
	if (cookie != HDRH_V2_COMPRESSED) {
		free(bin);
		return pvp_fail(err, err_len, -EINVAL,
				"HDR histogram: cookie 0x%08x is not HdrHistogram's compressed V2 "
				"(0x%08x)",
				cookie, HDRH_V2_COMPRESSED);
	}
	if (zlen > bin_len - HDRH_COMPRESSED_HDR) {
		free(bin);
		return pvp_fail(err, err_len, -EINVAL,
				"HDR histogram: %u B of deflated data, %zu B there", zlen,
				bin_len - HDRH_COMPRESSED_HDR);
	}
	/* The header first, to learn the payload's length. */
	if (hdrh_inflate(bin + HDRH_COMPRESSED_HDR, zlen, head, sizeof(head), false) < 0) {
		free(bin);
		return pvp_fail(err, err_len, -EINVAL,
				"HDR histogram: the deflated data is not zlib's");
	}
	cookie = pvp_get_be32(head);
	plen = pvp_get_be32(head + 4);
	if (cookie != HDRH_V2_COOKIE) {
		free(bin);
		return pvp_fail(err, err_len, -EINVAL,
				"HDR histogram: encoding cookie 0x%08x is not V2 (0x%08x)", cookie,
				HDRH_V2_COOKIE);
	}
	if (plen > HDRH_PAYLOAD_MAX) {
		free(bin);
		return pvp_fail(err, err_len, -EINVAL,
				"HDR histogram: payload of %u B (at most %u)", plen,
				HDRH_PAYLOAD_MAX);
	}
	*raw_len = HDRH_HEADER_LEN + (size_t)plen;
	*raw = malloc(*raw_len);
	if (*raw == NULL) {
		free(bin);
		return -ENOMEM;
	}
	rc = hdrh_inflate(bin + HDRH_COMPRESSED_HDR, zlen, *raw, *raw_len, true);
	free(bin);
	if (rc < 0) {
		pvp_err(err, err_len, "HDR histogram: the deflated data does not hold %zu B",
			*raw_len);
		free(*raw);
		*raw = NULL;
		return rc;
	}
	return 0;
}

int
pvp_hdrh_decode(const char *b64, size_t len, struct pvp_hdrh *h, char *err, size_t err_len)
{
	uint8_t *raw = NULL;
	size_t raw_len, pos = HDRH_HEADER_LEN;
	uint64_t ratio_bits;
	int32_t i = 0;
	int rc;

	memset(h, 0, sizeof(*h));
	rc = hdrh_decode_raw(b64, len, &raw, &raw_len, err, err_len);
	if (rc < 0)
		return rc;
	/* The normalizing index offset (raw + 8) only says how the writer
	 * stored its counts: the payload holds them by logical index. */
	rc = pvp_hdrh_init(h, (int64_t)pvp_get_be64(raw + 16), (int64_t)pvp_get_be64(raw + 24),
			   (int32_t)pvp_get_be32(raw + 12), err, err_len);
	if (rc < 0)
		goto out;
	ratio_bits = pvp_get_be64(raw + 32);
	memcpy(&h->ratio, &ratio_bits, sizeof(h->ratio));
	while (pos < raw_len) {
		int64_t v;

		if (zz_get(raw, raw_len, &pos, &v) < 0) {
			rc = pvp_fail(err, err_len, -EINVAL, "HDR histogram: a count is cut short");
			goto out;
		}
		if (v < 0 && v >= INT64_C(-1) - INT32_MAX) {
			/* A run of -v zeros. */
			if (-v > h->counts_len - i) {
				rc = pvp_fail(err, err_len, -EINVAL,
					      "HDR histogram: counts beyond the %d it has",
					      h->counts_len);
				goto out;
			}
			i += (int32_t)-v;
			continue;
		}
		if (v < 0 || i >= h->counts_len || h->total > INT64_MAX - v) {
			rc = pvp_fail(err, err_len, -EINVAL,
				      "HDR histogram: count %lld at index %d is out of range",
				      (long long)v, i);
			goto out;
		}
		if (v != 0) {
			rc = hdrh_reserve(h, i);
			if (rc < 0)
				goto out;
			h->counts[i] = v;
			h->total += v;
		}
		i++;
	}
	rc = 0;
out:
	free(raw);
	if (rc < 0)
		pvp_hdrh_free(h);
	return rc;
}

char *
pvp_lat_hdrh(const struct pvp_lat *l, uint64_t unit_ns, int64_t highest, int digits)
{
	struct pvp_hdrh h;
	unsigned int b;
	char *out;

	if (unit_ns == 0 || pvp_hdrh_init(&h, 1, highest, digits, NULL, 0) < 0) {
		errno = EINVAL;
		return NULL;
	}
	for (b = 0; b < PVP_LAT_NB_BUCKETS; b++) {
		uint64_t v;

		if (l->bucket[b] == 0)
			continue;
		v = pvp_lat_bucket_value(l, b) / unit_ns;
		if (v > (uint64_t)highest)
			v = (uint64_t)highest;
		if (pvp_hdrh_record(&h, (int64_t)v, (int64_t)l->bucket[b]) < 0) {
			pvp_hdrh_free(&h);
			errno = ENOMEM;
			return NULL;
		}
	}
	out = pvp_hdrh_encode(&h);
	pvp_hdrh_free(&h);
	return out;
}

json_t *
pvp_lat_to_json_hdrh(const struct pvp_lat *l)
{
	char *hdrh = pvp_lat_hdrh(l, 1, PVP_LAT_HDRH_HIGHEST_NS, PVP_LAT_HDRH_DIGITS);
	json_t *j = hdrh != NULL ? pvp_lat_to_json(l) : NULL;

	if (j != NULL && json_object_set_new(j, "hdrh", json_string(hdrh)) < 0) {
		json_decref(j);
		j = NULL;
	}
	free(hdrh);
	return j;
}
