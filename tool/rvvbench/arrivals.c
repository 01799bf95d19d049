// SPDX-License-Identifier: GPL-2.0
#include <math.h>

#include "arrivals.h"

/* A standard normal deviate (Box-Muller; the second of the pair is dropped). */
static double normal(struct bench_rng *rng)
{
	double r = sqrt(-2 * log(bench_rng_uniform(rng)));

	return r * cos(2 * M_PI * bench_rng_uniform(rng));
}

/* Gamma of @shape and scale 1: Marsaglia and Tsang (2000), boosted below 1. */
static double gamma_unit(struct bench_rng *rng, double shape)
{
	double d, c;

	if (shape < 1)
		return gamma_unit(rng, shape + 1) * pow(bench_rng_uniform(rng), 1 / shape);
	d = shape - 1.0 / 3;
	c = 1 / sqrt(9 * d);
	for (;;) {
		double x = normal(rng), v = 1 + c * x, u;

		if (v <= 0)
			continue;
		v = v * v * v;
		u = bench_rng_uniform(rng);
		if (u < 1 - 0.0331 * x * x * x * x || log(u) < x * x / 2 + d * (1 - v + log(v)))
			return d * v;
	}
}

double bench_arrival_gap(struct bench_rng *rng, double rate, double burstiness)
{
	/* Poisson as before: the same seed gives the same arrivals. */
	if (burstiness == 1)
		return bench_rng_exp(rng, rate);
	return gamma_unit(rng, burstiness) / (rate * burstiness);
}

const char *bench_ramp_name(enum bench_ramp_how how)
{
	static const char *const names[] = {
		[BENCH_RAMP_NONE] = "none",
		[BENCH_RAMP_LINEAR] = "linear",
		[BENCH_RAMP_EXPONENTIAL] = "exponential",
	};

	return names[how];
}

double bench_ramp_rate(const struct bench_ramp *ramp, size_t i, size_t n)
{
	double progress = n > 1 ? (double)i / (double)(n - 1) : 0;

	if (ramp->how == BENCH_RAMP_EXPONENTIAL)
		return ramp->start * pow(ramp->end / ramp->start, progress);
	return ramp->start + (ramp->end - ramp->start) * progress;
}

/* Along a ramp: each gap at the rate reached by the request it leads to. */
static void ramp_plan(struct bench_rng *rng, double burstiness, const struct bench_ramp *ramp,
		      size_t n, int64_t *due_ns)
{
	double at = 0;

	due_ns[0] = 0;
	for (size_t i = 1; i < n; i++) {
		at += bench_arrival_gap(rng, bench_ramp_rate(ramp, i, n), burstiness);
		due_ns[i] = (int64_t)llround(at * 1e9);
	}
}

void bench_arrival_plan(struct bench_rng *rng, double rate, double burstiness,
			const struct bench_ramp *ramp, size_t n, int64_t *due_ns)
{
	struct bench_rng replay = *rng;
	double total = 0, at = 0, scale;

	if (ramp && ramp->how != BENCH_RAMP_NONE) {
		ramp_plan(rng, burstiness, ramp, n, due_ns);
		return;
	}
	/* The same gaps twice, from one state: first their sum, then the times. */
	for (size_t i = 1; i < n; i++)
		total += bench_arrival_gap(&replay, rate, burstiness);
	scale = total > 0 ? (double)(n - 1) / rate / total : 1;
	due_ns[0] = 0;
	for (size_t i = 1; i < n; i++) {
		at += bench_arrival_gap(rng, rate, burstiness);
		due_ns[i] = (int64_t)llround(at * scale * 1e9);
	}
}
