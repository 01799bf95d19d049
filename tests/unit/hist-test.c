// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side unit test of the histogram math in include/rvvstat/hist.h.
 *
 * Every expectation comes from the layout's definition or is worked out by
 * hand, never from the functions under test. Prints `ok - hist: WHAT` or
 * `not ok - hist: WHAT # DETAIL` per check group and exits 1 if any failed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/rvvstat.h>
#include <rvvstat/hist.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_BUCKETS	256
#define EXHAUSTIVE	(1U << 20)	/* values checked one by one */
#define MAX_SAMPLES	2000		/* per side of a merge */

struct value_case {
	__u64 value;
	unsigned int bucket;
};

struct bounds_case {
	unsigned int bucket;
	__u64 lower, upper;
};

struct pct_case {
	unsigned int permille, bucket;
};

struct layout {
	const char *name;
	unsigned int sub_bits, max_shift;
	unsigned int nr;	/* bucket count worked out by hand */
	unsigned int macro_nr;	/* the header's count */
	unsigned int macro_sub_bits;
	const struct value_case *values;
	size_t nr_values;
	const struct bounds_case *bounds;
	size_t nr_bounds;
	const struct pct_case *pct_powers;	/* samples 2^S .. 2^(S+9) */
	size_t nr_pct_powers;
	const struct pct_case *pct_seq;		/* samples 1 .. 1000 */
	size_t nr_pct_seq;
	/* Reference intervals, built from the definition by build_layout(). */
	unsigned int ref_nr;
	__u64 lo[MAX_BUCKETS], hi[MAX_BUCKETS];
};

/*
 * Per-CPU, S = 3, up to 2^34: 8 buckets for 0..7, then 8 for each of the
 * 31 octaves [2^3, 2^4) .. [2^33, 2^34): 8 + 31 * 8 = 256. Octave k >= 3
 * starts at bucket (k - 2) * 8 and its buckets are 2^(k-3) wide.
 */
static const struct value_case cpu_values[] = {
	{ 0, 0 }, { 1, 1 }, { 7, 7 }, { 8, 8 }, { 9, 9 }, { 15, 15 },
	{ 16, 16 }, { 17, 16 }, { 18, 17 }, { 31, 23 }, { 32, 24 },
	{ 35, 24 }, { 36, 25 }, { 63, 31 }, { 64, 32 }, { 127, 39 },
	{ 128, 40 }, { 1000, 63 }, { 1023, 63 }, { 1024, 64 },
	{ (1ULL << 20) - 1, 143 }, { 1ULL << 20, 144 },
	{ (1ULL << 20) + (1ULL << 17) - 1, 144 },
	{ (1ULL << 20) + (1ULL << 17), 145 },
	{ (1ULL << 30) - 1, 223 }, { 1ULL << 30, 224 },
	{ (1ULL << 33) - 1, 247 }, { 1ULL << 33, 248 },
	{ (15ULL << 30) - 1, 254 }, { 15ULL << 30, 255 },
	{ (1ULL << 34) - 1, 255 },
};

static const struct bounds_case cpu_bounds[] = {
	{ 0, 0, 0 }, { 7, 7, 7 }, { 8, 8, 8 }, { 15, 15, 15 },
	{ 16, 16, 17 }, { 17, 18, 19 }, { 23, 30, 31 }, { 24, 32, 35 },
	{ 63, 960, 1023 }, { 64, 1024, 1151 },
	{ 144, 1ULL << 20, (1ULL << 20) + (1ULL << 17) - 1 },
	{ 254, 14ULL << 30, (15ULL << 30) - 1 },
	{ 255, 15ULL << 30, UINT64_MAX },
};

/* 10 samples: rank ceil(p / 100), the rank-r sample 2^(r+2) in bucket 8r. */
static const struct pct_case cpu_pct_powers[] = {
	{ 0, 8 }, { 100, 8 }, { 101, 16 }, { 500, 40 }, { 501, 48 },
	{ 900, 72 }, { 901, 80 }, { 950, 80 }, { 990, 80 }, { 999, 80 },
	{ 1000, 80 },
};

/* 1000 samples 1..1000: rank p (1 for p = 0) is the sample p. */
static const struct pct_case cpu_pct_seq[] = {
	{ 0, 1 }, { 1, 1 }, { 7, 7 }, { 8, 8 }, { 255, 47 }, { 256, 48 },
	{ 500, 55 }, { 800, 60 }, { 950, 62 }, { 990, 63 }, { 999, 63 },
	{ 1000, 63 },
};

/*
 * Per-task, S = 0, up to 2^24: a bucket for 0, then one for each of the 24
 * octaves [2^0, 2^1) .. [2^23, 2^24): 1 + 24 = 25. Octave k is bucket k + 1.
 */
static const struct value_case task_values[] = {
	{ 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 2 }, { 4, 3 }, { 7, 3 }, { 8, 4 },
	{ 1023, 10 }, { 1024, 11 }, { (1ULL << 23) - 1, 23 },
	{ 1ULL << 23, 24 }, { (1ULL << 24) - 1, 24 },
};

static const struct bounds_case task_bounds[] = {
	{ 0, 0, 0 }, { 1, 1, 1 }, { 2, 2, 3 }, { 3, 4, 7 },
	{ 11, 1024, 2047 }, { 23, 1ULL << 22, (1ULL << 23) - 1 },
	{ 24, 1ULL << 23, UINT64_MAX },
};

/* 10 samples: rank ceil(p / 100), the rank-r sample 2^(r-1) in bucket r. */
static const struct pct_case task_pct_powers[] = {
	{ 0, 1 }, { 100, 1 }, { 101, 2 }, { 500, 5 }, { 501, 6 },
	{ 900, 9 }, { 901, 10 }, { 950, 10 }, { 990, 10 }, { 999, 10 },
	{ 1000, 10 },
};

/* The samples 1..1000 again. */
static const struct pct_case task_pct_seq[] = {
	{ 0, 1 }, { 1, 1 }, { 2, 2 }, { 3, 2 }, { 4, 3 }, { 500, 9 },
	{ 511, 9 }, { 512, 10 }, { 950, 10 }, { 999, 10 }, { 1000, 10 },
};

static struct layout layouts[] = {
	{
		.name = "cpu", .sub_bits = 3, .max_shift = 34, .nr = 256,
		.macro_nr = RVVSTAT_CPU_HIST_BUCKETS,
		.macro_sub_bits = RVVSTAT_CPU_HIST_SUB_BITS,
		.values = cpu_values, .nr_values = ARRAY_SIZE(cpu_values),
		.bounds = cpu_bounds, .nr_bounds = ARRAY_SIZE(cpu_bounds),
		.pct_powers = cpu_pct_powers,
		.nr_pct_powers = ARRAY_SIZE(cpu_pct_powers),
		.pct_seq = cpu_pct_seq,
		.nr_pct_seq = ARRAY_SIZE(cpu_pct_seq),
	}, {
		.name = "task", .sub_bits = 0, .max_shift = 24, .nr = 25,
		.macro_nr = RVVSTAT_TASK_HIST_BUCKETS,
		.macro_sub_bits = RVVSTAT_TASK_HIST_SUB_BITS,
		.values = task_values, .nr_values = ARRAY_SIZE(task_values),
		.bounds = task_bounds, .nr_bounds = ARRAY_SIZE(task_bounds),
		.pct_powers = task_pct_powers,
		.nr_pct_powers = ARRAY_SIZE(task_pct_powers),
		.pct_seq = task_pct_seq,
		.nr_pct_seq = ARRAY_SIZE(task_pct_seq),
	},
};

static unsigned int nr_failed;
static unsigned long mismatches;	/* in the current check group */
static char detail[160];		/* its first mismatch */

static __attribute__((format(printf, 2, 3)))
bool expect(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return true;
	if (!mismatches++) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	}
	return false;
}

static void report(const struct layout *l, const char *what)
{
	if (!mismatches) {
		printf("ok - hist: %s %s\n", l->name, what);
		return;
	}
	nr_failed++;
	printf("not ok - hist: %s %s # %s", l->name, what, detail);
	if (mismatches > 1)
		printf(" (and %lu more)", mismatches - 1);
	printf("\n");
	mismatches = 0;
}

/* xorshift64 with a fixed seed: every run checks the same values. */
static __u64 rng_state = 0x9e3779b97f4a7c15ULL;

static __u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Spread over all magnitudes, not just the top octaves. */
static __u64 rnd_value(void)
{
	return rnd() >> (rnd() % 64);
}

/* A uniform pick in [lo, hi], hi - lo + 1 not overflowing. */
static __u64 rnd_between(__u64 lo, __u64 hi)
{
	return lo + rnd() % (hi - lo + 1);
}

/* The intervals straight from the layout's definition. */
static void build_layout(struct layout *l)
{
	unsigned int s = l->sub_bits, b = 0, j, k;
	__u64 width;

	for (; b < 1U << s; b++) {
		l->lo[b] = b;
		l->hi[b] = b;
	}
	for (k = s; k < l->max_shift; k++) {
		width = 1ULL << (k - s);
		for (j = 0; j < 1U << s; j++, b++) {
			l->lo[b] = (1ULL << k) + j * width;
			l->hi[b] = l->lo[b] + width - 1;
		}
	}
	l->hi[b - 1] = UINT64_MAX;
	l->ref_nr = b;
}

/* The reference interval holding @v, by binary search over the bounds. */
static unsigned int ref_bucket(const struct layout *l, __u64 v)
{
	unsigned int lo = 0, hi = l->nr - 1, mid;

	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (l->lo[mid] <= v)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static unsigned int bucket(const struct layout *l, __u64 v)
{
	return rvvstat_hist_bucket(v, l->sub_bits, l->nr);
}

static __u64 lower(const struct layout *l, unsigned int b)
{
	return rvvstat_hist_lower(b, l->sub_bits);
}

static __u64 upper(const struct layout *l, unsigned int b)
{
	return rvvstat_hist_upper(b, l->sub_bits, l->nr);
}

static void expect_bucket(const struct layout *l, __u64 v, unsigned int want)
{
	unsigned int got = bucket(l, v);

	expect(got == want, "bucket(%llu) = %u, expected %u",
	       (unsigned long long)v, got, want);
}

static void expect_bounds(const struct layout *l, unsigned int b,
			  __u64 want_lo, __u64 want_hi)
{
	__u64 got_lo = lower(l, b), got_hi = upper(l, b);

	expect(got_lo == want_lo, "lower(%u) = %llu, expected %llu", b,
	       (unsigned long long)got_lo, (unsigned long long)want_lo);
	expect(got_hi == want_hi, "upper(%u) = %llu, expected %llu", b,
	       (unsigned long long)got_hi, (unsigned long long)want_hi);
}

static void test_layout(struct layout *l)
{
	unsigned int b, i;

	build_layout(l);
	expect(l->macro_nr == l->nr, "header count %u, expected %u",
	       l->macro_nr, l->nr);
	expect(l->macro_sub_bits == l->sub_bits, "header S %u, expected %u",
	       l->macro_sub_bits, l->sub_bits);
	expect(l->ref_nr == l->nr, "definition gives %u buckets, expected %u",
	       l->ref_nr, l->nr);
	report(l, "bucket count and sub-bucket bits");

	for (b = 0; b < l->nr; b++)
		expect_bounds(l, b, l->lo[b], l->hi[b]);
	report(l, "lower/upper match the layout definition");

	for (i = 0; i < l->nr_bounds; i++)
		expect_bounds(l, l->bounds[i].bucket, l->bounds[i].lower,
			      l->bounds[i].upper);
	report(l, "lower/upper of hand-worked buckets");

	for (i = 0; i < l->nr_values; i++)
		expect_bucket(l, l->values[i].value, l->values[i].bucket);
	report(l, "buckets of hand-worked values");

	expect_bucket(l, 1ULL << l->max_shift, l->nr - 1);
	expect_bucket(l, (1ULL << l->max_shift) + 1, l->nr - 1);
	expect_bucket(l, 1ULL << (l->max_shift + 1), l->nr - 1);
	expect_bucket(l, 1ULL << 63, l->nr - 1);
	expect_bucket(l, UINT64_MAX, l->nr - 1);
	report(l, "values beyond the range land in the last bucket");

	expect(lower(l, 0) == 0, "lower(0) = %llu, expected 0",
	       (unsigned long long)lower(l, 0));
	for (b = 0; b + 1 < l->nr; b++)
		expect(lower(l, b + 1) == upper(l, b) + 1,
		       "lower(%u) = %llu, upper(%u) = %llu", b + 1,
		       (unsigned long long)lower(l, b + 1), b,
		       (unsigned long long)upper(l, b));
	expect(upper(l, l->nr - 1) == UINT64_MAX,
	       "upper(%u) = %llu, expected UINT64_MAX", l->nr - 1,
	       (unsigned long long)upper(l, l->nr - 1));
	report(l, "buckets are contiguous from 0 to UINT64_MAX");
}

static void test_mapping(const struct layout *l)
{
	unsigned int b = 0, got, i;
	__u64 v, lo, hi, width, bound;

	/* Walks the reference intervals alongside the values. */
	for (v = 0; v < EXHAUSTIVE; v++) {
		if (v > l->hi[b])
			b++;
		expect_bucket(l, v, b);
		got = bucket(l, v);
		expect(lower(l, got) <= v && v <= upper(l, got),
		       "%llu outside [lower, upper] of its bucket %u",
		       (unsigned long long)v, got);
	}
	report(l, "every value below 2^20 maps to its bucket");

	for (b = 0; b < l->nr; b++) {
		lo = l->lo[b];
		hi = l->hi[b];
		expect_bucket(l, lo, b);
		expect_bucket(l, hi, b);
		if (b)
			expect_bucket(l, lo - 1, b - 1);
		if (b + 1 < l->nr)
			expect_bucket(l, hi + 1, b + 1);
		for (i = 0; i < 16; i++)
			expect_bucket(l, rnd_between(lo, hi), b);
	}
	for (i = 0; i < 1000000; i++) {
		v = rnd_value();
		expect_bucket(l, v, ref_bucket(l, v));
	}
	report(l, "bucket bounds and random values map to their bucket");

	/* The last bucket is unbounded, so has no width to hold to. */
	for (b = 0; b + 1 < l->nr; b++) {
		width = upper(l, b) - lower(l, b) + 1;
		bound = lower(l, b) >> l->sub_bits;
		if (bound < 1)
			bound = 1;
		expect(width <= bound, "bucket %u is %llu wide, over %llu", b,
		       (unsigned long long)width, (unsigned long long)bound);
	}
	report(l, "bucket width at most max(1, lower >> S)");
}

/* Counts @v where the header puts it, if that is a bucket at all. */
static void add_sample(const struct layout *l, __u64 *counts, __u64 v)
{
	unsigned int b = bucket(l, v);

	if (expect(b < l->nr, "bucket(%llu) = %u, out of range",
		   (unsigned long long)v, b))
		counts[b]++;
}

static void expect_pct(const struct layout *l, const __u64 *counts,
		       unsigned int permille, unsigned int want)
{
	unsigned int got = rvvstat_hist_percentile(counts, l->nr, permille);

	expect(got == want, "percentile(%u) = %u, expected %u", permille, got,
	       want);
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return (x > y) - (x < y);
}

/*
 * Two random sample lists, histogrammed and summed, against the nearest-rank
 * percentile of the sorted concatenation for every permille.
 */
static void test_merge(const struct layout *l)
{
	static __u64 samples[2 * MAX_SAMPLES];
	__u64 counts[2][MAX_BUCKETS], sum[MAX_BUCKETS];
	unsigned int n[2], total, rank, round, side, i, b, p, want, got;
	__u64 *side_samples;

	for (round = 0; round < 200; round++) {
		/* First every pair of sizes 0..4, where the rounding shows. */
		for (side = 0; side < 2; side++)
			n[side] = round < 25 ? (side ? round / 5 : round % 5) :
				  (unsigned int)(rnd() % (MAX_SAMPLES + 1));
		total = n[0] + n[1];
		for (i = 0; i < total; i++) {
			/* Half narrow, for ties inside a bucket. */
			samples[i] = rnd_value();
			if (round % 2)
				samples[i] %= 1000;
		}
		for (side = 0; side < 2; side++) {
			side_samples = samples + side * n[0];
			for (b = 0; b < l->nr; b++)
				counts[side][b] = 0;
			for (i = 0; i < n[side]; i++)
				add_sample(l, counts[side], side_samples[i]);
		}
		for (b = 0; b < l->nr; b++)
			sum[b] = counts[0][b] + counts[1][b];
		qsort(samples, total, sizeof(*samples), cmp_u64);
		for (p = 0; p <= 1000; p++) {
			if (!total) {
				want = l->nr;
			} else {
				/* ceil(total * p / 1000), at least 1 */
				rank = total * p / 1000;
				if (total * p % 1000 || !rank)
					rank++;
				want = ref_bucket(l, samples[rank - 1]);
			}
			got = rvvstat_hist_percentile(sum, l->nr, p);
			expect(got == want,
			       "round %u (%u + %u samples): percentile(%u) = %u, expected %u",
			       round, n[0], n[1], p, got, want);
		}
	}
	report(l, "percentiles of merged histograms match the sorted samples");
}

static void test_percentile(const struct layout *l)
{
	static const unsigned int permilles[] = { 0, 1, 500, 950, 990, 999,
						  1000 };
	static const __u64 sizes[] = { 1, 1000003, 1ULL << 40 };
	__u64 counts[MAX_BUCKETS] = { 0 };
	unsigned int b, i, j, p;
	__u64 v;

	for (i = 0; i < ARRAY_SIZE(permilles); i++)
		expect_pct(l, counts, permilles[i], l->nr);
	report(l, "percentile of an empty histogram is nr_buckets");

	for (b = 0; b < l->nr; b++) {
		for (j = 0; j < ARRAY_SIZE(sizes); j++) {
			counts[b] = sizes[j];
			for (i = 0; i < ARRAY_SIZE(permilles); i++)
				expect_pct(l, counts, permilles[i], b);
		}
		counts[b] = 0;
	}
	report(l, "percentile of one sample, or of many in one bucket");

	for (i = 0; i < 10; i++)
		add_sample(l, counts, 1ULL << (l->sub_bits + i));
	for (i = 0; i < l->nr_pct_powers; i++)
		expect_pct(l, counts, l->pct_powers[i].permille,
			   l->pct_powers[i].bucket);
	report(l, "percentile edges of 10 hand-worked samples");

	for (b = 0; b < l->nr; b++)
		counts[b] = 0;
	for (v = 1; v <= 1000; v++)
		add_sample(l, counts, v);
	for (i = 0; i < l->nr_pct_seq; i++)
		expect_pct(l, counts, l->pct_seq[i].permille,
			   l->pct_seq[i].bucket);
	report(l, "percentile edges of the samples 1..1000");

	for (b = 0; b < l->nr; b++)
		counts[b] = 0;
	add_sample(l, counts, l->lo[l->nr - 1]);
	add_sample(l, counts, 1ULL << l->max_shift);
	add_sample(l, counts, 1ULL << 63);
	add_sample(l, counts, UINT64_MAX);
	for (p = 0; p <= 1000; p++)
		expect_pct(l, counts, p, l->nr - 1);
	report(l, "percentile with every sample in the last bucket");

	test_merge(l);
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(layouts); i++) {
		test_layout(&layouts[i]);
		test_mapping(&layouts[i]);
		test_percentile(&layouts[i]);
	}
	return nr_failed ? 1 : 0;
}
