/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The histogram math on the layout uapi/linux/rvvstat.h defines, shared by
 * the module and the tools: which bucket a value lands in, a bucket's
 * bounds, and the nearest-rank percentile. Code, so not in the uapi
 * header, which holds only layout.
 */
#ifndef _RVVSTAT_HIST_H
#define _RVVSTAT_HIST_H

#include <linux/types.h>

static inline unsigned int rvvstat_hist_bucket(__u64 ns, unsigned int sub_bits,
					       unsigned int nr_buckets)
{
	unsigned int msb, bucket;

	if (ns < (1ULL << sub_bits)) {
		bucket = (unsigned int)ns;
	} else {
		msb = 63 - __builtin_clzll(ns);
		bucket = ((msb - sub_bits + 1) << sub_bits) +
			 (unsigned int)((ns >> (msb - sub_bits)) &
					((1U << sub_bits) - 1));
	}
	return bucket < nr_buckets ? bucket : nr_buckets - 1;
}

/* The smallest value that lands in @bucket. */
static inline __u64 rvvstat_hist_lower(unsigned int bucket,
				       unsigned int sub_bits)
{
	unsigned int octave = bucket >> sub_bits;
	__u64 sub = bucket & ((1U << sub_bits) - 1);

	if (!octave)
		return bucket;
	return ((1ULL << sub_bits) + sub) << (octave - 1);
}

/* The largest value that lands in @bucket (the last one has no bound). */
static inline __u64 rvvstat_hist_upper(unsigned int bucket,
				       unsigned int sub_bits,
				       unsigned int nr_buckets)
{
	if (bucket + 1 >= nr_buckets)
		return ~0ULL;
	return rvvstat_hist_lower(bucket + 1, sub_bits) - 1;
}

/*
 * The bucket holding the sample of rank ceil(n * permille / 1000) (nearest
 * rank, at least 1) among the n samples counted; nr_buckets if n is 0.
 */
static inline unsigned int rvvstat_hist_percentile(const __u64 *counts,
						   unsigned int nr_buckets,
						   unsigned int permille)
{
	__u64 total = 0, seen = 0, rank;
	unsigned int i;

	for (i = 0; i < nr_buckets; i++)
		total += counts[i];
	if (!total)
		return nr_buckets;
	rank = (total * permille + 999) / 1000;
	if (!rank)
		rank = 1;
	for (i = 0; i < nr_buckets; i++) {
		seen += counts[i];
		if (seen >= rank)
			return i;
	}
	return nr_buckets - 1;
}

/*
 * The @permille percentile of @counts as the upper bound of its bucket:
 * ~0ULL if it is the last (which has no bound), 0 if @counts is empty.
 * The module bounds it by the largest value it saw, the tools by the last
 * bucket's lower bound.
 */
static inline __u64 rvvstat_hist_percentile_upper(const __u64 *counts,
						  unsigned int nr_buckets,
						  unsigned int sub_bits,
						  unsigned int permille)
{
	unsigned int b = rvvstat_hist_percentile(counts, nr_buckets, permille);

	if (b == nr_buckets)
		return 0;
	return rvvstat_hist_upper(b, sub_bits, nr_buckets);
}

#endif /* _RVVSTAT_HIST_H */
