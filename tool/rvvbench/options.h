/* SPDX-License-Identifier: GPL-2.0 */
/* rvvbench's command line. */
#ifndef RVVBENCH_OPTIONS_H
#define RVVBENCH_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "../lib/error.h"
#include "arm.h"
#include "hog.h"
#include "load.h"
#include "stats.h"

#define BENCH_MAX_CELLS 32
#define BENCH_MAX_DUTIES 16

struct bench_options {
	struct bench_config cfg;
	struct bench_cell cells[BENCH_MAX_CELLS];	/* the sweep, in order */
	size_t n_cells;
	int duties[BENCH_MAX_DUTIES];	/* --hog-duty, percent */
	size_t n_duties;
	int hog_cpus[BENCH_HOG_MAX_CPUS];
	size_t n_hog_cpus;
	double hog_period_ms;
	double rate;		/* --rate, requests/s; 0: closed loop */
	long trials;
	struct bench_arm arms[BENCH_MAX_ARMS];	/* arms[0] is "none", the baseline */
	size_t n_arms;
	int server_pid;		/* --server-pid; 0: found by the URL's port */
	const char *plot_dir;	/* --plot DIR, or NULL */
	struct bench_slo slo;
	enum bench_pct pct;	/* --percentiles */
	const char *csv;	/* the long CSV, or NULL */
	const char *ratios;	/* --ratios FILE: serve-ratio lines, or NULL */
	bool md;		/* the summary table as Markdown */
	const char *jsonl;	/* per-request records, or NULL */
	const char *prompts_path;	/* --prompts FILE, or NULL */
	struct bench_dataset prompts;	/* its entries, loaded by bench_options_parse() */
	bool json;		/* the summary as JSON */
	bool help, version;
};

/*
 * Fills @o from @argv, loading --prompts; 0, or -EINVAL (or the file's
 * -errno) with @err saying what to do. bench_options_free() frees it.
 */
int bench_options_parse(int argc, char **argv, struct bench_options *o, struct rvv_error *err);
void bench_options_free(struct bench_options *o);
void bench_usage(FILE *f);
/* "500ms", "2s", "1.5" (seconds) into ms; 0 or -EINVAL. */
int bench_parse_ms(const char *text, double *ms);
/* "ttft=500ms,tpot=50ms,e2e=2s" into @slo; 0 or -EINVAL with @err. */
int bench_slo_parse(const char *text, struct bench_slo *slo, struct rvv_error *err);

#endif /* RVVBENCH_OPTIONS_H */
