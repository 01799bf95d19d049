/*
 * rvvbench: a serving benchmark for llama-server. A cell is hog duty x
 * concurrency (or the --rate open loop) x arm; each trial runs every cell,
 * the arms rotated, with the CPU hog started before a cell's window and
 * stopped after it. Each run is summarized and printed (or kept for the
 * JSON), then the cells across trials: CSV, table or Markdown. Policies
 * beyond "none" and rvvstat's counts come later.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "options.h"
#include "report.h"
#include "sweep.h"
#include "trials.h"

struct progress {
	size_t cell, cells;
	double start_s;		/* of the whole sweep */
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void show_progress(void *ctx, size_t done, size_t total, double elapsed, bool last)
{
	const struct progress *p = ctx;
	double all = mono_s() - p->start_s, part = total ? (double)done / (double)total : 0;
	double frac = ((double)(p->cell - 1) + part) / (double)p->cells;

	/* Redrawn in place on a terminal; only the closing line elsewhere (a log). */
	if (!last && !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\rrvvbench: cell %zu of %zu: %zu of %zu requests, %.1f s; elapsed %.0f s",
		p->cell, p->cells, done, total, elapsed, all);
	if (frac > 0 && !(last && p->cell == p->cells))
		fprintf(stderr, ", ETA %.0f s  ", all / frac - all);
	else
		fputs("  ", stderr);
	if (last)
		fputc('\n', stderr);
}

struct step {
	size_t trial, duty, cell, arm;
};

/* One run: the hog up, the cell's window, the hog down; its summary in @res. */
static int run_one(const struct bench_options *o, const struct bench_config *cfg,
		   const struct step *at, FILE *jsonl, struct json_object *cells,
		   struct bench_result *res, struct rvv_error *err)
{
	const struct bench_cell *cell = &o->cells[at->cell];
	struct bench_hog hog;
	struct bench_run run;
	int duty = o->duties[at->duty], rc;

	rc = bench_hog_start(&hog, o->hog_cpus, o->n_hog_cpus, duty, o->hog_period_ms, err);
	if (rc)
		return rc;
	rc = bench_run_cell(cfg, cell, &run, err);
	bench_hog_stop(&hog, &res->hog);
	if (rc)
		return rc;
	if (jsonl && bench_write_jsonl(jsonl, cell, &run))
		rc = rvv_fail(err, -EIO, "--jsonl %s: cannot write: %s", o->jsonl, strerror(errno));
	if (!rc)
		rc = bench_summarize(run.recs, run.n, &o->slo, &res->s, err);
	if (!rc) {
		res->done = true;
		res->elapsed_s = run.elapsed_s;
	}
	if (!rc && o->json) {
		struct json_object *c = bench_cell_json(cell, &run, &res->s), *h;

		json_object_object_add(c, "arm", json_object_new_string(bench_arms[at->arm].name));
		json_object_object_add(c, "hog_duty", json_object_new_int(duty));
		json_object_object_add(c, "trial", json_object_new_int64((int64_t)at->trial + 1));
		h = json_object_new_object();
		json_object_object_add(h, "cpus", json_object_new_int64((int64_t)res->hog.n_cpus));
		json_object_object_add(h, "iterations", json_object_new_uint64(res->hog.iterations));
		json_object_object_add(h, "cpu_s", json_object_new_double(res->hog.cpu_s));
		json_object_object_add(h, "wall_s", json_object_new_double(res->hog.wall_s));
		json_object_object_add(h, "slept_s", json_object_new_double(res->hog.slept_s));
		json_object_object_add(h, "wait_s", isnan(res->hog.wait_s) ? NULL :
				       json_object_new_double(res->hog.wait_s));
		json_object_object_add(h, "busy", json_object_new_double(bench_hog_busy(&res->hog)));
		json_object_object_add(c, "hog", h);
		json_object_array_add(cells, c);
	} else if (!rc && !o->md) {
		printf("trial %zu, arm %s, hog duty %d %%:\n", at->trial + 1,
		       bench_arms[at->arm].name, duty);
		bench_table_cell(stdout, cell, &res->s);
	}
	bench_run_free(&run);
	return rc;
}

static int run_cells(const struct bench_options *o, FILE *jsonl, struct json_object *cells,
		     struct bench_result *results, struct rvv_error *err)
{
	struct progress prog = { .cells = bench_results_n(o), .start_s = mono_s() };
	struct bench_config cfg = o->cfg;
	struct step at;
	int rc = 0;

	cfg.progress = show_progress;
	cfg.progress_ctx = &prog;
	if (!o->json && !o->md)
		bench_table_head(stdout);
	/* Trial, duty, concurrency, then the arms in this trial's rotated order. */
	for (at.trial = 0; at.trial < (size_t)o->trials && !rc; at.trial++)
		for (at.duty = 0; at.duty < o->n_duties && !rc; at.duty++)
			for (at.cell = 0; at.cell < o->n_cells && !rc; at.cell++)
				for (size_t k = 0; k < bench_n_arms && !rc; k++) {
					at.arm = bench_arm_order(at.trial, k, bench_n_arms);
					prog.cell++;
					rc = run_one(o, &cfg, &at, jsonl, cells,
						     &results[bench_result_index(o, at.arm, at.duty,
										 at.cell, at.trial)],
						     err);
				}
	return rc;
}

int main(int argc, char **argv)
{
	struct rvv_error err = { 0 };
	struct bench_options o;
	struct json_object *top, *cells, *arms, *hog;
	struct bench_result *results;
	FILE *jsonl = NULL, *csv = NULL;
	int rc;

	if (bench_options_parse(argc, argv, &o, &err)) {
		fprintf(stderr, "rvvbench: %s\n", err.message);
		return 2;
	}
	if (o.help) {
		bench_usage(stdout);
		return 0;
	}
	if (o.jsonl && !(jsonl = fopen(o.jsonl, "w"))) {
		fprintf(stderr, "rvvbench: --jsonl %s: %s; give a file in a writable directory\n",
			o.jsonl, strerror(errno));
		return 2;
	}
	if (o.csv && !(csv = fopen(o.csv, "w"))) {
		fprintf(stderr, "rvvbench: --csv %s: %s; give a file in a writable directory\n",
			o.csv, strerror(errno));
		return 2;
	}
	if (!o.n_hog_cpus) {
		fprintf(stderr, "rvvbench: cannot read this process's CPUs; give --hog-cpus\n");
		return 2;
	}
	results = calloc(bench_results_n(&o), sizeof(*results));
	if (!results) {
		fprintf(stderr, "rvvbench: out of memory\n");
		return 1;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		fprintf(stderr, "rvvbench: libcurl would not initialize\n");
		return 1;
	}
	top = json_object_new_object();
	cells = json_object_new_array();
	rc = run_cells(&o, jsonl, cells, results, &err);
	if (jsonl && fclose(jsonl) && !rc)
		rc = rvv_fail(&err, -EIO, "--jsonl %s: %s", o.jsonl, strerror(errno));
	if (csv && !rc && bench_csv_write(csv, &o, results))
		rc = rvv_fail(&err, -EIO, "--csv %s: cannot write: %s", o.csv, strerror(errno));
	if (csv && fclose(csv) && !rc)
		rc = rvv_fail(&err, -EIO, "--csv %s: %s", o.csv, strerror(errno));
	if (!rc && !o.json) {
		if (!o.md)
			printf("\nacross trials (mean ± sd; hog kept: its CPU time over what its duty asked):\n");
		bench_summary_table(stdout, &o, results, o.md);
	}
	if (!rc && o.json) {
		json_object_object_add(top, "version", json_object_new_int(BENCH_REPORT_VERSION));
		json_object_object_add(top, "url", json_object_new_string(o.cfg.url));
		json_object_object_add(top, "endpoint", json_object_new_string(o.cfg.endpoint->name));
		json_object_object_add(top, "seed", json_object_new_int64((int64_t)o.cfg.seed));
		json_object_object_add(top, "n_predict", json_object_new_int64(o.cfg.n_predict));
		json_object_object_add(top, "percentiles", json_object_new_string("nearest-rank"));
		json_object_object_add(top, "trials", json_object_new_int64(o.trials));
		arms = json_object_new_array();
		for (size_t a = 0; a < bench_n_arms; a++)
			json_object_array_add(arms, json_object_new_string(bench_arms[a].name));
		json_object_object_add(top, "arms", arms);
		hog = json_object_new_object();
		json_object_object_add(hog, "period_ms", json_object_new_double(o.hog_period_ms));
		json_object_object_add(hog, "cpus", json_object_new_array());
		for (size_t i = 0; i < o.n_hog_cpus; i++)
			json_object_array_add(json_object_object_get(hog, "cpus"),
					      json_object_new_int(o.hog_cpus[i]));
		json_object_object_add(top, "hog", hog);
		json_object_object_add(top, "aggregates", bench_aggregates_json(&o, results));
		json_object_object_add(top, "cells", json_object_get(cells));
		printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY));
	}
	json_object_put(cells);
	json_object_put(top);
	free(results);
	curl_global_cleanup();
	if (rc) {
		fprintf(stderr, "rvvbench: %s\n", err.message);
		return 1;
	}
	return 0;
}
