/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The load generator: one cell's requests over libcurl's multi interface,
 * all in this thread, closed loop (a fixed number in flight) or open loop
 * (arrivals at a rate, Poisson or gamma (arrivals.h), each request's due
 * time kept, so a server that stalls cannot hide the wait: no coordinated
 * omission).
 */
#ifndef RVVBENCH_LOAD_H
#define RVVBENCH_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/error.h"
#include "arrivals.h"
#include "dataset.h"
#include "endpoint.h"
#include "record.h"

/* What every cell of a run shares. */
struct bench_config {
	const char *url;		/* the server, without the endpoint's path */
	const struct bench_endpoint *endpoint;
	uint64_t seed;
	long n_predict;			/* -1: the server's default */
	bool ignore_eos;
	int prompt_words;
	const struct bench_dataset *prompts;	/* --prompts; NULL: generated ones */
	long timeout_ms;		/* per request, from its send */
	long requests;			/* per cell; 0 with duration_s */
	double burstiness;		/* the open loop's gamma shape: 1 Poisson (arrivals.h) */
	struct bench_ramp ramp;		/* its ramp-up, with requests; how NONE: a steady rate */
	double duration_s;		/* no new request after it; 0 with requests */
	/* Called now and then, and with @last at the end; NULL for none. */
	void (*progress)(void *ctx, size_t done, size_t total, double elapsed_s, bool last);
	void *progress_ctx;
	/* The signal that should end the run, or 0 (interrupt.h); NULL: none is looked at. */
	int (*interrupted)(void);
};

/* One point of the sweep. */
struct bench_cell {
	int concurrency;	/* closed loop: in flight; open loop: the cap */
	double rate;		/* requests/s for an open loop; 0 for a closed one */
};

struct bench_run {
	struct bench_record *recs;
	size_t n, cap;
	int64_t t0_ns;		/* CLOCK_MONOTONIC at the start: record times count from it */
	double elapsed_s;
};

/*
 * Runs one cell into @run (which it initializes). The first wave (the
 * first @cell->concurrency requests; the first request in an open loop)
 * is tagged warm-up. Request failures are records, not errors: -errno
 * only when the run itself could not go on (libcurl, memory).
 */
int bench_run_cell(const struct bench_config *cfg, const struct bench_cell *cell,
		   struct bench_run *run, struct rvv_error *err);
void bench_run_free(struct bench_run *run);

#endif /* RVVBENCH_LOAD_H */
