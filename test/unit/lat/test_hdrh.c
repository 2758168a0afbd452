/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 The pvpkit authors
 */

/*
 * lib/lat's HdrHistogram encoding: the reference libraries' own encoded
 * histograms decode to what their tests say they hold; the encoder writes
 * what HdrHistogram_c's hdr_log_encode() writes, byte for byte; pvpkit's
 * histograms come back from the decoder with the same counts, and with
 * percentiles equal to pvpkit's own (within the bucket width where
 * pvpkit clamps to min or max); bad encodings are refused with a reason.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <zlib.h>

#include "pvp_util.h"

#include "pvp_lat.h"

#include "../unit_check.h"

/*
 * Encoded histograms from the reference implementations' test suites,
 * with what those tests assert about them.
 */
struct ref_vector {
	const char *what;
	const char *b64;
	int64_t lowest, highest;
	int digits;
	int64_t total;
	int64_t value, count; /* one count they hold (0: none checked) */
};

/* HdrHistogramJS's and hdrhistogram-go's "big" histogram: 10000 samples. */
static const char big_b64[] =
	"HISTFAAACGB42j1WQY4cuRGks7KzWWwOh1NTGo1GEmzBWCx0EAxjsdiTsdiTD4ZPfoa/4R/4o/7BOiKSrWnNVBWL"
	"zIyMiMzWp//897mUA7/62db1D/n3999//V8umBW74POTPds7+4In2/xq722zv9huj/bRbvZH+2oPdrV3vtu//AOe"
	"P9if8Ra7H7DlhlcPePyo+w1xrrh+84uZFzd7QkyEL/ZXJPgN295jC5bsii0FN084/BXXDQH+jqPMlhn5eYf1D/"
	"beb9h7BdSfseMJGG5C94h3BRFveibyZ9x9wR1KeaebR0P8J/vVfsCbHevv7DOxPxt2/1MrLOQz3j8BH2DjhOHp"
	"A/ZfEILRWaD9bZHyb7z60X6xRxByMzxsQEJsCPlNoP/BFI849WQP/iy+cHJHqG+4veIAWcf+DQ9Y51MRBRueHl"
	"RqEbOPXqQR74Ec28Dab9pseLpqI7na/bPCPuBz0xskIIAvUqVIpQdTcr7/Afje68RHpPwsBrXnUYE3UVy0AYub"
	"ljZTggshU+gdlTHej6iyJEfXuOb+B51wcXdbzD/yaFkQNn+fXnHBY7In5Sgi4wb34IYciy83hbxSG/pJFipa+V"
	"nByeJXFMPD0pQMoUTc+i3BExV+bgKa98WYHqk2GnaH+bPg3Xl8X9AEZpcI4qCsDx/9kpfMWJyG3Xz3PQGWDI88"
	"N2myqfh1c9H10XQT4qoI1E19uC87cKMLtS2byDWs3u6Qnlyet7gqYvHtTnWaKXndXBZ6oo2IGJTnywxyuT/tst"
	"x+p2ZTBQKQql6F67ogJCWXxO4cIrhcJfwui1ouMTInwc1vi8RLtSUuJarJNYtGjgcpuPuDcHBgMMQqyiwZUF0C"
	"4ImHhRehVqurp7w0npbmm2yllFTJXEJv3wNJL/LEQlYxFw9bei3hmY9oWJO70goSLxpr3q+22EhF434Sa/i58M"
	"+yTSKGdHYJW6aETlouZMIyrSbqCgd6N6DyBJ3q4TUmLlNuUcJZoTasfmAtSLBpLssdC96+ig9Cu3PKZ0/RNZsy"
	"ENkDXiZOrusmWXYcjs2yjbDX9ljQfV3ijoMPvEbiJvOeTIGRO0OXO5ll1U6W2bqhAsDelenq9/Zy+dnVAQv5fu"
	"dVfUcAG15gGFRGvvrVy3cmNqa+eIlkZbkT7ighNrZEcwmtMaQno241JTed3URhOuOSE6wsDRapRVnFhpJdkxZf"
	"v3GLrJqu5LZLLi+XpOfFaRISd19d6BkMlmBcNOxW0zmF5odgllbO/lCxPEKDkP9lVjKULpF/WEXdeA1lYo3A3o"
	"SYXIa4KLWwQZitlaixpfXYzniV6nPbQDaPKIIu/SuTBk7JuVhWJJcXeSi80hQMmbTLh7Ws0qsoRIoadRNFZBY5"
	"NtoxP3jp6kjiR8BNdTFbLNRllIj8ErLOgcDV7qsXbKu0SFSK4FU80l7Yhr2DrHNjIAvh8FUGcxqDYlovqiPVCi"
	"XfKhfUcNnAcpHUjNWGjZi5iUiT3bpVYKucA0TM7S5QVWR6PkjCFBx7OuGRIzFcazgUwraS/sk6inedzENVRZnc"
	"0XL0izNrOKxQauPm3tgfqC2p1SqtxgQkpLgaTtR7qIPYghHihqe6NAhbLROaYT2/yJxKcJAJag67xn/6b6UgBt"
	"NHzcmH9Y7LgFTf86nRYCCqKiOrmODpyFlrpsKjKX3AayLK6OKarcUnrJckOKk3fW14fgWsdg0NsEySspJnygVI"
	"ta7h17Nn2cClVc+5Fzp5SW9KQBJZt/Wl4voGoys13gsNjinMmu8y0lhdfLC1kgA1cLBdOoEnj9Sb2hVrfcIPEC"
	"O8NfwB791rZ19RZ+yLjmrxjH9QrEPo5r0Ovnd2HQ4OvBit19oqtanRkL2hyOqNkwgP2BzHydZG5CYhu0yGfYFz"
	"zkFSOzB1Grnxq9GzE7ypsfxAFmIYDdfRG9gEUCTD+8ZJAHlG57CAnEgCCqczdMhvAFVUGRAP49xoqBr4bVLNNg"
	"2BmiplOoQFPsZ2nOnYxWZrfQBhVIwG1FZZFT5HdxWrTgweZm/JiCgV25kMEQfrl68rVUECyhTE3CIdELwJze0u"
	"0jgrrHfOCrgaK9hdR0eGMch+JXGpTggNzkKIThVqBVCUNBobodN+YAqFkUGUCUt0Dg5ALNNGdjwq5ixpnXVoev"
	"AAqGM0mgtniDlG5Zxx6HcGItlI7G1SyANyAQDVBFZYhFTiyhkMX1XBBY+9I2/OMucIxhYaAh+EmVg2+ik/eGO0"
	"Jzgg1Zw++iJBgEpWcGl10sUqFw6hd+vp+S0xOHIqC5fGrRIRq0IxTUZtloyDI9aP8kagP6fmk/us9HEos4YEzr"
	"EOCk1BWBtkYk6OXKObwHgMfN81sVnpdliHDPKLDnoWGRJGiK4xPzhjKruu9UYpQYh6ASv0lbe0DOdX6ayAmNEk"
	"yFoLv7JoQH6o/+CDoS3xt5wqjSpJhHjtjZr1OCA+Ys5ZDzYx/DL6iI4eG8dr6bOPA7hnbccc53gbPNJHqzgx5z"
	"E6/ImJQKMN3OFYe5mQ9qxv/RyvzY854QpIM/AX2/w8xoluoETnnONtvowxZjuPjiLbS61vwydCAu4x2tlfz47U"
	"3A75zonNmEHgZbzM3pAIaNuJQYbFMY8GaMjjAyv1PNtLf208c87XPlBEsLVeZ5/HGfWIAwyjodoJwmYMR6HH2S"
	"fcVnGnsYbTfPiENP316K8Dr8+K4hpIgdlHBUdgox3jBSk6K0YP9qMBzZzRX0CQgwTYPXBw1IHCQDLeI1kDG/0E"
	"0nqOA5+O8EA+XhFytKO1E5MJlZ4dvNY5zzpeHFkhH9K8sS/npFjIZZ8aM4e/NGjUx/BjvCHA0QnkBTHwFqGO2Y"
	"+jw24T0rNF/oT3/Zx06P8BChhtKw==";

static const struct ref_vector ref_vectors[] = {
	/* HdrHistogram Java's encoder (deflate level 9), in HdrHistogramJS's
	 * and hdrhistogram-go's tests: one sample of 42. */
	{"java 42", "HISTFAAAAB542pNpmSzMwMDAxAABzFCaEUoz2X+AMIKZAEARAtM=", 1, 2, 3, 1, 42, 1},
	/* HdrHistogramJS's own encoder (it writes a normalizing index offset
	 * of 1), in its and hdrhistogram-go's tests: one sample of 42. */
	{"js 42", "HISTFAAAAB94nJNpmSzMwMDABMSMQMzMAAGMUJoJxg9mAgA1TQGm", 1, 2, 3, 1, 42, 1},
	/* hdrhistogram-go's empty histogram of 20..1000, 3 digits. */
	{"go empty", "HISTFAAAABl4nJNpmSzMgADMUFoEyn1h/wHCAgBDogN4", 20, 1000, 3, 0, 0, 0},
	/* hdr-decode's (HdrHistogramJS) example: 5 samples, counts at indexes
	 * 699 (1), 762 (3) and 1067 (1), min 2992, max 22015. */
	{"hdr-decode", "HISTFAAAACh4nJNpmSzMwMDAwQABTFCaEURcm7yEwf4DROArF1M1230WJgCDWQb1", 1,
	 3600000000, 2, 5, 4000, 3},
	{"big", big_b64, 1, INT64_C(0), 3, 10000, 0, 0},
};

static void
test_reference_vectors(void)
{
	size_t k;

	for (k = 0; k < sizeof(ref_vectors) / sizeof(ref_vectors[0]); k++) {
		const struct ref_vector *r = &ref_vectors[k];
		struct pvp_hdrh h, back;
		char err[256] = "";
		char *again;
		int64_t sum = 0;
		int32_t i;

		CHECK(pvp_hdrh_decode(r->b64, strlen(r->b64), &h, err, sizeof(err)) == 0, "%s: %s",
		      r->what, err);
		CHECK(h.total == r->total && h.lowest == r->lowest && h.digits == r->digits &&
			      (r->highest == 0 || h.highest == r->highest),
		      "%s: total %" PRId64 " lowest %" PRId64 " highest %" PRId64 " digits %d",
		      r->what, h.total, h.lowest, h.highest, h.digits);
		for (i = 0; i < h.nb_counts; i++)
			sum += h.counts[i];
		CHECK(sum == h.total, "%s: counts add up to %" PRId64, r->what, sum);
		if (r->count != 0) {
			i = pvp_hdrh_index(&h, r->value);
			CHECK(i < h.nb_counts && h.counts[i] == r->count, "%s: count at %" PRId64,
			      r->what, r->value);
		}
		/* What we write of it reads back the same. */
		again = pvp_hdrh_encode(&h);
		CHECK(again != NULL, "%s: encode", r->what);
		if (again != NULL) {
			err[0] = '\0';
			CHECK(pvp_hdrh_decode(again, strlen(again), &back, err, sizeof(err)) == 0 &&
				      back.total == h.total && back.highest == h.highest,
			      "%s: re-encoded: %s", r->what, err);
			for (i = 0; i < h.nb_counts; i++)
				if (h.counts[i] != 0 &&
				    (i >= back.nb_counts || back.counts[i] != h.counts[i]))
					break;
			CHECK(i == h.nb_counts, "%s: count %d differs after a round trip", r->what,
			      i);
			pvp_hdrh_free(&back);
			free(again);
		}
		pvp_hdrh_free(&h);
	}
}

static void
test_reference_percentiles(void)
{
	const struct ref_vector *r = &ref_vectors[3];
	struct pvp_hdrh h;

	/* hdr-decode's example: min 2992, 3 x 4000, max 22015. */
	CHECK(pvp_hdrh_decode(r->b64, strlen(r->b64), &h, NULL, 0) == 0, "hdr-decode");
	CHECK(pvp_hdrh_percentile(&h, 0) == pvp_hdrh_highest_equivalent(&h, 2992) &&
		      pvp_hdrh_percentile(&h, 50) == pvp_hdrh_highest_equivalent(&h, 4000) &&
		      pvp_hdrh_percentile(&h, 100) == 22015,
	      "p0 %" PRId64 " p50 %" PRId64 " p100 %" PRId64, pvp_hdrh_percentile(&h, 0),
	      pvp_hdrh_percentile(&h, 50), pvp_hdrh_percentile(&h, 100));
	pvp_hdrh_free(&h);
}

/*
 * What HdrHistogram_c's hdr_log_encode() (trex-core's copy, which TRex's
 * --hdrh uses) wrote for these histograms, run once for these tests: the
 * encoder must write the same bytes. The hdr-decode example above, made
 * with zlib's default level too, is a third.
 */
static void
test_encode_as_hdrhistogram_c(void)
{
	/* Not static: the last case's string is another table's member. */
	const struct {
		int64_t lowest, highest;
		int digits;
		int64_t vc[6];
		const char *b64;
	} cases[] = {
		{1, 10000000, 3, {0}, "HISTFAAAAB54nJNpmSzMwMDAyAABzFAawp8xrcH+A1QAAE9IBCo="},
		{1,
		 10000000,
		 3,
		 {12, 5, 15, 7, 300, 1},
		 "HISTFAAAACZ4nJNpmSzMwMDAzgABzFCaEUzOmNZg/wEiIM7FzLedhQkAbIAFHg=="},
		{1, 3600000000, 2, {2992, 1, 4000, 3, 21888, 1}, ref_vectors[3].b64},
	};
	size_t k, i;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct pvp_hdrh h;
		char *s;

		CHECK(pvp_hdrh_init(&h, cases[k].lowest, cases[k].highest, cases[k].digits, NULL,
				    0) == 0,
		      "init %zu", k);
		for (i = 0; i < 6; i += 2)
			if (cases[k].vc[i + 1] != 0)
				CHECK(pvp_hdrh_record(&h, cases[k].vc[i], cases[k].vc[i + 1]) == 0,
				      "record %zu", k);
		s = pvp_hdrh_encode(&h);
		CHECK(s != NULL && strcmp(s, cases[k].b64) == 0, "case %zu: %s, want %s", k,
		      s != NULL ? s : "NULL", cases[k].b64);
		free(s);
		pvp_hdrh_free(&h);
	}
}

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Decode @p b64, failing the test when it does not. */
static int
decode_ok(const char *b64, struct pvp_hdrh *h, const char *what)
{
	char err[256] = "";
	int rc = b64 != NULL ? pvp_hdrh_decode(b64, strlen(b64), h, err, sizeof(err)) : -ENOMEM;

	CHECK(rc == 0, "%s: %s", what, err);
	return rc;
}

/*
 * pvpkit's histograms through the encoder and the decoder: every bucket's
 * count at its value, the total, and the percentiles that pvpkit reports.
 */
static void
test_lat_round_trip(void)
{
	static const double pct[] = {50, 90, 99, 99.9, 99.99};
	static struct pvp_lat l;
	uint64_t seed = 7;
	struct pvp_hdrh h;
	unsigned int b;
	char *s;
	size_t i;

	/* 200000 samples (every percentile above a whole rank): a few below
	 * 32 ns, the rest log-uniform from 2 us to 2 ms. */
	pvp_lat_init(&l);
	for (i = 0; i < 200000; i++) {
		double u = (double)(rnd(&seed) >> 11) / 9007199254740992.0;

		pvp_lat_update(&l, i < 100 ? i % 20 + 3 : (uint64_t)(2000 * pow(1000, u)));
	}
	s = pvp_lat_hdrh(&l, 1, PVP_LAT_HDRH_HIGHEST_NS, PVP_LAT_HDRH_DIGITS);
	if (decode_ok(s, &h, "ns") == 0) {
		CHECK(h.total == (int64_t)l.count && h.lowest == 1 &&
			      h.highest == PVP_LAT_HDRH_HIGHEST_NS &&
			      h.digits == PVP_LAT_HDRH_DIGITS,
		      "total %" PRId64 " of %" PRIu64, h.total, l.count);
		for (b = 0; b < PVP_LAT_NB_BUCKETS; b++) {
			int32_t k;

			if (l.bucket[b] == 0)
				continue;
			k = pvp_hdrh_index(&h, (int64_t)pvp_lat_bucket_value(&l, b));
			CHECK(k < h.nb_counts && h.counts[k] == (int64_t)l.bucket[b],
			      "bucket %u: count %" PRIu64, b, l.bucket[b]);
		}
		for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
			uint64_t mine = pvp_lat_percentile(&l, pct[i]);
			uint64_t width = pvp_lat_bucket_low(pvp_lat_bucket(mine) + 1) -
					 pvp_lat_bucket_low(pvp_lat_bucket(mine));
			int64_t hdr = pvp_hdrh_percentile(&h, pct[i]);

			/* Equal, but where pvpkit clamps to min or max. */
			CHECK(mine == l.min_ns || mine == l.max_ns
				      ? llabs(hdr - (int64_t)mine) < (int64_t)width
				      : hdr == (int64_t)mine,
			      "p%g: hdr %" PRId64 " pvpkit %" PRIu64, pct[i], hdr, mine);
		}
		CHECK(pvp_hdrh_percentile(&h, 100) - (int64_t)l.max_ns >= 0 &&
			      pvp_hdrh_percentile(&h, 100) - (int64_t)l.max_ns <
				      (int64_t)(l.max_ns >> 7),
		      "max %" PRIu64 " reads %" PRId64, l.max_ns, pvp_hdrh_percentile(&h, 100));
		pvp_hdrh_free(&h);
	}
	free(s);

	/* TRex's form: usec, 1..10 s, 3 digits (one per usec below 2 ms). */
	s = pvp_lat_hdrh(&l, 1000, 10000000, 3);
	if (decode_ok(s, &h, "usec") == 0) {
		CHECK(h.total == (int64_t)l.count && h.highest == 10000000 && h.digits == 3,
		      "usec total %" PRId64, h.total);
		for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
			CHECK(pvp_hdrh_percentile(&h, pct[i]) ==
				      (int64_t)(pvp_lat_percentile(&l, pct[i]) / 1000),
			      "usec p%g: %" PRId64, pct[i], pvp_hdrh_percentile(&h, pct[i]));
		pvp_hdrh_free(&h);
	}
	free(s);

	/* Beyond the highest value: counted there, none lost. */
	pvp_lat_update(&l, UINT64_C(20000000000));
	s = pvp_lat_hdrh(&l, 1000, 10000000, 3);
	if (decode_ok(s, &h, "beyond") == 0) {
		CHECK(h.total == (int64_t)l.count &&
			      pvp_hdrh_percentile(&h, 100) ==
				      pvp_hdrh_highest_equivalent(&h, 10000000),
		      "beyond: total %" PRId64 " max %" PRId64, h.total,
		      pvp_hdrh_percentile(&h, 100));
		pvp_hdrh_free(&h);
	}
	free(s);

	/* Empty: decodes to an empty histogram. */
	pvp_lat_init(&l);
	s = pvp_lat_hdrh(&l, 1, PVP_LAT_HDRH_HIGHEST_NS, PVP_LAT_HDRH_DIGITS);
	if (decode_ok(s, &h, "empty") == 0) {
		CHECK(h.total == 0 && pvp_hdrh_percentile(&h, 99) == 0, "empty");
		pvp_hdrh_free(&h);
	}
	free(s);
}

/* pvp_lat_to_json_hdrh() carries the same histogram as "hdrh". */
static void
test_json_member(void)
{
	static struct pvp_lat l;
	struct pvp_hdrh h;
	const char *s;
	json_t *j;

	pvp_lat_init(&l);
	pvp_lat_update(&l, 10200);
	pvp_lat_update(&l, 10200);
	pvp_lat_update(&l, 102000);
	j = pvp_lat_to_json_hdrh(&l);
	s = json_string_value(json_object_get(j, "hdrh"));
	CHECK(s != NULL, "no hdrh member");
	if (s != NULL && decode_ok(s, &h, "json") == 0) {
		/* The first bucket's value is clamped to the min, 10200; the
		 * last one's is its middle, 101375, as pvpkit's p99 says. */
		CHECK(h.total == 3 &&
			      pvp_hdrh_percentile(&h, 50) ==
				      pvp_hdrh_highest_equivalent(&h, 10200) &&
			      pvp_lat_percentile(&l, 99) == 101375 &&
			      pvp_hdrh_percentile(&h, 100) ==
				      pvp_hdrh_highest_equivalent(&h, 101375),
		      "json: total %" PRId64 " p50 %" PRId64, h.total, pvp_hdrh_percentile(&h, 50));
		pvp_hdrh_free(&h);
	}
	json_decref(j);
}

/* A compressed V2 histogram around @p payload, header from the arguments. */
static char *
craft(uint32_t cookie, uint32_t plen, int32_t digits, int64_t lowest, int64_t highest,
      const uint8_t *payload, size_t n, size_t cut)
{
	uint8_t raw[256], z[300];
	uLongf zlen = sizeof(z) - 8;
	size_t i;

	memset(raw, 0, 40);
	for (i = 0; i < 4; i++) {
		raw[i] = (uint8_t)(cookie >> (24 - 8 * i));
		raw[4 + i] = (uint8_t)(plen >> (24 - 8 * i));
		raw[12 + i] = (uint8_t)((uint32_t)digits >> (24 - 8 * i));
	}
	for (i = 0; i < 8; i++) {
		raw[16 + i] = (uint8_t)((uint64_t)lowest >> (56 - 8 * i));
		raw[24 + i] = (uint8_t)((uint64_t)highest >> (56 - 8 * i));
	}
	raw[32] = 0x3f;
	raw[33] = 0xf0;
	memcpy(raw + 40, payload, n);
	if (compress(z + 8, &zlen, raw, (uLong)(40 + n)) != Z_OK)
		return NULL;
	zlen -= cut;
	z[0] = 0x1c;
	z[1] = 0x84;
	z[2] = 0x93;
	z[3] = 0x14;
	z[4] = 0;
	z[5] = 0;
	z[6] = (uint8_t)(zlen >> 8);
	z[7] = (uint8_t)zlen;
	return pvp_b64_encode(z, 8 + zlen);
}

static void
test_bad(void)
{
	static const uint8_t one[] = {0x02}, far[] = {0xcf, 0x0f, 0x02}, cut[] = {0x02, 0x80},
			     neg_huge[] = {0xff, 0xff, 0xff, 0xff, 0x7f};
	struct {
		const char *what;
		char *b64;
		const char *want;
	} cases[] = {
		{"not base64", strdup("HISTFAAAAB54nJNp!"), "not base64"},
		/* hdrhistogram-go's V1 encoding, which it refuses too. */
		{"V1",
		 strdup("HISTIgAAAFd42pNpmazIwMAYxgABTBDKT4GBgdnNYMcCBvsPUBkeBkYGZqA8MwMbAzsDC5"
			"DFBCTZgJCDQY1BjkGLQZRBlUEPCB8zWDCYMxgDZZkZhgJgHDibAY8JB/A="),
		 "is not HdrHistogram's compressed V2"},
		{"short", strdup("HIST"), "cookie"},
		{"inner cookie", craft(0x1c849301, 1, 3, 1, 1000, one, 1, 0), "not V2"},
		{"digits 6", craft(0x1c849313, 1, 6, 1, 1000, one, 1, 0), "digits 1..5"},
		{"lowest 0", craft(0x1c849313, 1, 3, 0, 1000, one, 1, 0), "lowest must be >= 1"},
		/* 1000 zeros where the layout has 64 counts. */
		{"zeros past the end", craft(0x1c849313, 3, 1, 1, 100, far, 3, 0), "beyond"},
		{"count cut short", craft(0x1c849313, 2, 3, 1, 1000, cut, 2, 0), "cut short"},
		{"payload longer than said", craft(0x1c849313, 2, 3, 1, 1000, one, 1, 0),
		 "does not hold"},
		{"deflate cut", craft(0x1c849313, 1, 3, 1, 1000, one, 1, 4), "does not hold"},
		{"huge run", craft(0x1c849313, 5, 3, 1, 1000, neg_huge, 5, 0), "out of range"},
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct pvp_hdrh h;
		char err[256] = "";
		int rc = -1;

		if (cases[k].b64 != NULL)
			rc = pvp_hdrh_decode(cases[k].b64, strlen(cases[k].b64), &h, err,
					     sizeof(err));
		CHECK(rc == -EINVAL && strstr(err, cases[k].want) != NULL && h.counts == NULL,
		      "%s: rc %d, \"%s\"", cases[k].what, rc, err);
		free(cases[k].b64);
	}
}

int
main(void)
{
	test_reference_vectors();
	test_reference_percentiles();
	test_encode_as_hdrhistogram_c();
	test_lat_round_trip();
	test_json_member();
	test_bad();
	return unit_check_end("hdrh");
}
