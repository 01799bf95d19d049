/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep's results, one per run (arm x hog duty x concurrency x trial),
 * and the outputs across trials: the long CSV, the per-cell summary table
 * (text or Markdown) and the summary JSON's aggregates. A run's figures are
 * compared across trials as mean +- sd; latency percentiles are also taken
 * over the requests of every trial pooled, with their n, as one trial of 4
 * requests has no p95 worth averaging.
 */
#ifndef RVVBENCH_SWEEP_H
#define RVVBENCH_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "hog.h"
#include "options.h"
#include "stats.h"
#include "window.h"

struct bench_result {
	bool done;
	struct bench_summary s;
	double elapsed_s;
	struct bench_hog_result hog;
	struct bench_window w;		/* vector state and the scheduler in the window */
	double *ttft_ms;		/* the measured TTFTs, pooled across trials */
	size_t n_ttft;
};

/* The result of (@arm, @duty, @cell, @trial) in the array of all of them. */
size_t bench_result_index(const struct bench_options *o, size_t arm, size_t duty, size_t cell,
			  size_t trial);
size_t bench_results_n(const struct bench_options *o);
void bench_results_free(const struct bench_options *o, struct bench_result *r);
/* The hog's CPU time as a share of what its duty asked for (NAN at duty 0). */
double bench_hog_kept(const struct bench_hog_result *h, int duty, double period_ms);
/* The hog's CPU time per CPU as a share of its wall time. */
double bench_hog_busy(const struct bench_hog_result *h);

/* The server as rvvbench found it: its build (/props) and its command line (/proc); "" unknown. */
struct bench_server {
	const char *build, *cmdline;
};

int bench_csv_write(FILE *f, const struct bench_options *o, const struct bench_server *srv,
		    const struct bench_result *r);
void bench_summary_table(FILE *f, const struct bench_options *o, const struct bench_result *r,
			 bool md);
/*
 * For each concurrency, duty and arm but "none": "serve-ratio ARM DUTY CONC
 * TOKS_RATIO TOKS_LO TOKS_HI TTFT95_RATIO TTFT95_LO TTFT95_HI N", ratios to
 * "none" of the same cell with their 95 % intervals (tok/s: paired across
 * trials, trials.h; TTFT p95: bootstrap, bootstrap.h; "nan" where there is
 * none), N the arm's measured requests. 0, or -EIO if @f failed.
 */
int bench_ratios_write(FILE *f, const struct bench_options *o, const struct bench_result *r);
/*
 * Under @dir, for each concurrency: tok/s, TTFT p95 and V saves per 1000
 * tokens (when the module counted) against hog duty, a line per arm, mean
 * +- sd across trials (plot.h). 0 or -errno with @err: -ENOPKG without
 * gnuplot, when every plot's data and script are written all the same.
 */
int bench_plots_write(const char *dir, const struct bench_options *o,
		      const struct bench_result *r, struct rvv_error *err);
struct json_object *bench_aggregates_json(const struct bench_options *o,
					  const struct bench_result *r);

#endif /* RVVBENCH_SWEEP_H */
