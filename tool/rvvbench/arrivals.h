/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The open loop's arrivals, as vLLM's bench makes them: gaps drawn from a
 * gamma distribution of shape B (--burstiness) and mean 1/R. B = 1 is a
 * Poisson process (exponential gaps); below 1 arrivals come in bursts,
 * above 1 more evenly (the gaps' coefficient of variation is 1/sqrt(B)).
 * When the count is known in advance the due times are scaled so that
 * their mean gap is exactly 1/R, as vLLM scales its total delay to N/R:
 * the seed then changes the pattern, not the offered rate.
 */
#ifndef RVVBENCH_ARRIVALS_H
#define RVVBENCH_ARRIVALS_H

#include <stddef.h>
#include <stdint.h>

#include "prompt.h"

/* One gap in seconds: gamma of shape @burstiness, mean 1/@rate. */
double bench_arrival_gap(struct bench_rng *rng, double rate, double burstiness);

/*
 * @n due times in ns from the first, which is 0, their mean gap exactly
 * 1/@rate (n >= 2).
 */
void bench_arrival_plan(struct bench_rng *rng, double rate, double burstiness, size_t n,
			int64_t *due_ns);

#endif /* RVVBENCH_ARRIVALS_H */
