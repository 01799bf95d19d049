/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The open loop's arrivals, as vLLM's bench makes them: gaps drawn from a
 * gamma distribution of shape B (--burstiness) and mean 1/R. B = 1 is a
 * Poisson process (exponential gaps); below 1 arrivals come in bursts,
 * above 1 more evenly (the gaps' coefficient of variation is 1/sqrt(B)).
 * When the count is known in advance the due times are scaled so that
 * their mean gap is exactly 1/R, as vLLM scales its total delay to N/R:
 * the seed then changes the pattern, not the offered rate. A ramp-up
 * (vLLM's --ramp-up-strategy) draws the gap before request i at the rate
 * the ramp has reached at i/(n - 1) of the way, unscaled.
 */
#ifndef RVVBENCH_ARRIVALS_H
#define RVVBENCH_ARRIVALS_H

#include <stddef.h>
#include <stdint.h>

#include "prompt.h"

enum bench_ramp_how { BENCH_RAMP_NONE, BENCH_RAMP_LINEAR, BENCH_RAMP_EXPONENTIAL };

struct bench_ramp {
	enum bench_ramp_how how;
	double start, end;	/* requests/s */
};

/* "linear", "exponential": its name for --ramp-up-strategy and the JSON. */
const char *bench_ramp_name(enum bench_ramp_how how);
/* The rate a ramp has reached at request @i of @n: linear, or start (end/start)^(i/(n-1)). */
double bench_ramp_rate(const struct bench_ramp *ramp, size_t i, size_t n);

/* One gap in seconds: gamma of shape @burstiness, mean 1/@rate. */
double bench_arrival_gap(struct bench_rng *rng, double rate, double burstiness);

/*
 * @n due times in ns from the first, which is 0: their mean gap exactly
 * 1/@rate, or along @ramp (NULL or BENCH_RAMP_NONE: none).
 */
void bench_arrival_plan(struct bench_rng *rng, double rate, double burstiness,
			const struct bench_ramp *ramp, size_t n, int64_t *due_ns);

#endif /* RVVBENCH_ARRIVALS_H */
