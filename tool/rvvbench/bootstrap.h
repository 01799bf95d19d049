/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A percentile's ratio between two samples, as "TTFT p95 vs none", with a
 * 95 % percentile-bootstrap interval: each sample is resampled with
 * replacement, independently, BENCH_BOOTSTRAP_ROUNDS times, and the 2.5th
 * and 97.5th percentiles of the resampled ratios bound it. A p95 has no
 * sampling formula a t interval could use; the bootstrap needs none. The
 * generator is seeded, so one seed gives one interval.
 */
#ifndef RVVBENCH_BOOTSTRAP_H
#define RVVBENCH_BOOTSTRAP_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define BENCH_BOOTSTRAP_ROUNDS 2000

struct bench_ratio {
	double ratio, low, high;	/* q(a) / q(b) and its 95 % interval */
};

/*
 * The ratio of the @p-th percentiles (by @how) of @a (@na values) and @b
 * (@nb), with its interval, resampling from @seed. 0, or -EINVAL when
 * either sample has fewer than 2 values or b's percentile is not above 0,
 * -ENOMEM.
 */
int bench_percentile_ratio(const double *a, size_t na, const double *b, size_t nb, double p,
			   enum bench_pct how, uint64_t seed, struct bench_ratio *out);

#endif /* RVVBENCH_BOOTSTRAP_H */
