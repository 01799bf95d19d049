// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "prompt.h"

/* The @p-th percentile of @n values drawn with replacement from @from, in @scratch. */
static double resampled(const double *from, size_t n, double *scratch, double p,
			enum bench_pct how, struct bench_rng *rng)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = from[bench_rng_next(rng) % n];
	bench_sort(scratch, n);
	return bench_percentile(scratch, n, p, how);
}

/* The @p-th percentile of @n values, sorted in @scratch. */
static double percentile_of(const double *v, size_t n, double *scratch, double p,
			    enum bench_pct how)
{
	memcpy(scratch, v, sizeof(double) * n);
	bench_sort(scratch, n);
	return bench_percentile(scratch, n, p, how);
}

int bench_percentile_ratio(const double *a, size_t na, const double *b, size_t nb, double p,
			   enum bench_pct how, uint64_t seed, struct bench_ratio *out)
{
	double *scratch, *ratios, qa, qb;
	struct bench_rng rng;
	size_t kept = 0;
	int rc = 0;

	if (na < 2 || nb < 2)
		return -EINVAL;
	scratch = malloc(sizeof(double) * (na > nb ? na : nb));
	ratios = malloc(sizeof(double) * BENCH_BOOTSTRAP_ROUNDS);
	if (!scratch || !ratios) {
		rc = -ENOMEM;
		goto out;
	}
	qa = percentile_of(a, na, scratch, p, how);
	qb = percentile_of(b, nb, scratch, p, how);
	if (!(qb > 0)) {
		rc = -EINVAL;
		goto out;
	}
	bench_rng_seed(&rng, seed);
	for (size_t r = 0; r < BENCH_BOOTSTRAP_ROUNDS; r++) {
		double ra = resampled(a, na, scratch, p, how, &rng);
		double rb = resampled(b, nb, scratch, p, how, &rng);

		/* A resample of b whose percentile is 0 has no ratio: left out. */
		if (rb > 0)
			ratios[kept++] = ra / rb;
	}
	if (kept < 2) {
		rc = -EINVAL;
		goto out;
	}
	bench_sort(ratios, kept);
	*out = (struct bench_ratio){
		.ratio = qa / qb,
		.low = bench_percentile(ratios, kept, 2.5, BENCH_PCT_LINEAR),
		.high = bench_percentile(ratios, kept, 97.5, BENCH_PCT_LINEAR),
	};
out:
	free(ratios);
	free(scratch);
	return rc;
}
