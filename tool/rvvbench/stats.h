/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of one cell's records. Percentiles are numpy's default
 * (linear interpolation between the values at ranks floor and ceil of
 * p/100 * (n - 1), 0-based), as vLLM's, SGLang's and AIPerf's reports use,
 * so figures compare with theirs; nearest-rank on request: the value at rank
 * ceil(p/100 * n) (1-based), a latency some request really had.
 */
#ifndef RVVBENCH_STATS_H
#define RVVBENCH_STATS_H

#include <stddef.h>

#include "../lib/error.h"
#include "record.h"

enum bench_pct { BENCH_PCT_LINEAR, BENCH_PCT_NEAREST };

struct bench_dist {
	size_t n;
	double mean, sd, p50, p90, p95, p99, max;	/* NAN when n is 0; sd with n - 1, 0 for n 1 */
};

/* Service-level objectives in ms; 0 leaves one out. */
struct bench_slo {
	double ttft_ms, tpot_ms, e2e_ms;
};

struct bench_summary {
	size_t requests;	/* measured: warm-up excluded */
	size_t warmup;
	size_t status[BENCH_STATUS_N];	/* of the measured ones */
	long output_tokens;
	double window_s;	/* first measured schedule to last measured end */
	double req_per_s, tok_per_s;
	double sending_tok_per_s;	/* to the last measured send: no drain tail; NAN for one */
	double concurrency_mean;	/* requests in flight over the window, time-weighted */
	size_t concurrency_peak;	/* the most at once in it */
	struct bench_dist ttft, tpot, itl, e2e, queue, queue_share;	/* ms */
	int has_slo;
	size_t slo_met;
	double goodput, attainment;	/* requests/s meeting every SLO; their share */
};

/* The @p-th percentile (0 < p <= 100) of @n sorted values by @how; NAN if n is 0. */
double bench_percentile(const double *sorted, size_t n, double p, enum bench_pct how);
/* Its name in reports: "linear", "nearest-rank". */
const char *bench_pct_name(enum bench_pct how);
/* Sorts @n values in place, ascending. */
void bench_sort(double *values, size_t n);
/* Sorts @values in place and describes them. */
void bench_dist_of(double *values, size_t n, enum bench_pct how, struct bench_dist *d);
/* Per-request derived times in ms, -1 where undefined. */
double bench_ttft_ms(const struct bench_record *r);
double bench_e2e_ms(const struct bench_record *r);
double bench_tpot_ms(const struct bench_record *r);
/* How many of @n records were sent at or before @t and had not ended by then. */
size_t bench_in_flight_at(const struct bench_record *recs, size_t n, int64_t t);
/* The TTFTs of the measured requests, in a new array in @ttft_ms; 0 or -ENOMEM with @err. */
int bench_ttfts(const struct bench_record *recs, size_t n, double **ttft_ms, size_t *n_ttft,
		struct rvv_error *err);
/* Summarizes @n records; 0 or -ENOMEM with @err. */
int bench_summarize(const struct bench_record *recs, size_t n, const struct bench_slo *slo,
		    enum bench_pct how, struct bench_summary *s, struct rvv_error *err);

#endif /* RVVBENCH_STATS_H */
