/* SPDX-License-Identifier: GPL-2.0 */
/* rvvbench's outputs: per-request JSONL, the summary as JSON or a table. */
#ifndef RVVBENCH_REPORT_H
#define RVVBENCH_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

#include "load.h"
#include "stats.h"

/*
 * 3: arms as policies, per-run window (vector state, scheduler, /metrics), threads, server.
 * 4: linear percentiles by default ("percentiles" names the method), sd in every
 *    distribution, the aggregates' TTFT over the pooled requests of every trial.
 */
#define BENCH_REPORT_VERSION 4

/* Appends one line per record of @run, tagged with @cell, @arm, @hog_duty and @trial (from 1). */
int bench_write_jsonl(FILE *f, const struct bench_cell *cell, const struct bench_run *run,
		      const char *arm, int hog_duty, size_t trial);
/* One cell of the summary JSON (a new object the caller owns). */
struct json_object *bench_cell_json(const struct bench_cell *cell, const struct bench_run *run,
				    const struct bench_summary *s);
/* A distribution as JSON: n, mean, sd, p50, p90, p95, p99, max (null when n is 0). */
struct json_object *bench_dist_json(const struct bench_dist *d);
/* The table's header, and one cell's rows. */
void bench_table_head(FILE *f);
void bench_table_cell(FILE *f, const struct bench_cell *cell, const struct bench_summary *s);

#endif /* RVVBENCH_REPORT_H */
