// SPDX-License-Identifier: GPL-2.0
/*
 * rvvbench: a serving benchmark for llama-server. This slice measures: each
 * cell of the --concurrency sweep (or the --rate open loop) runs, is
 * summarized and printed; policies, the CPU hog and rvvstat's counts come
 * later as further axes of the cell.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "options.h"
#include "report.h"

struct progress {
	size_t cell, cells;
};

static void show_progress(void *ctx, size_t done, size_t total, double elapsed, bool last)
{
	const struct progress *p = ctx;

	/* Redrawn in place on a terminal; only the closing line elsewhere (a log). */
	if (!last && !isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\rrvvbench: cell %zu of %zu: %zu of %zu requests, %.1f s  ", p->cell,
		p->cells, done, total, elapsed);
	if (last)
		fputc('\n', stderr);
}

static int run_cells(const struct bench_options *o, FILE *jsonl, struct json_object *cells,
		     struct rvv_error *err)
{
	struct progress prog = { .cells = o->n_cells };
	struct bench_config cfg = o->cfg;
	struct bench_summary s;
	struct bench_run run;
	int rc = 0;

	cfg.progress = show_progress;
	cfg.progress_ctx = &prog;
	if (!o->json)
		bench_table_head(stdout);
	for (size_t i = 0; i < o->n_cells && !rc; i++) {
		prog.cell = i + 1;
		rc = bench_run_cell(&cfg, &o->cells[i], &run, err);
		if (!rc && jsonl && bench_write_jsonl(jsonl, &o->cells[i], &run))
			rc = rvv_fail(err, -EIO, "--jsonl %s: cannot write: %s", o->jsonl, strerror(errno));
		if (!rc)
			rc = bench_summarize(run.recs, run.n, &o->slo, &s, err);
		if (!rc && o->json)
			json_object_array_add(cells, bench_cell_json(&o->cells[i], &run, &s));
		else if (!rc)
			bench_table_cell(stdout, &o->cells[i], &s);
		bench_run_free(&run);
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct rvv_error err = { 0 };
	struct bench_options o;
	struct json_object *top, *cells;
	FILE *jsonl = NULL;
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
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		fprintf(stderr, "rvvbench: libcurl would not initialize\n");
		return 1;
	}
	top = json_object_new_object();
	cells = json_object_new_array();
	rc = run_cells(&o, jsonl, cells, &err);
	if (jsonl && fclose(jsonl) && !rc)
		rc = rvv_fail(&err, -EIO, "--jsonl %s: %s", o.jsonl, strerror(errno));
	if (!rc && o.json) {
		json_object_object_add(top, "version", json_object_new_int(BENCH_REPORT_VERSION));
		json_object_object_add(top, "url", json_object_new_string(o.cfg.url));
		json_object_object_add(top, "endpoint", json_object_new_string(o.cfg.endpoint->name));
		json_object_object_add(top, "seed", json_object_new_int64((int64_t)o.cfg.seed));
		json_object_object_add(top, "n_predict", json_object_new_int64(o.cfg.n_predict));
		json_object_object_add(top, "percentiles", json_object_new_string("nearest-rank"));
		json_object_object_add(top, "cells", json_object_get(cells));
		printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY));
	}
	json_object_put(cells);
	json_object_put(top);
	curl_global_cleanup();
	if (rc) {
		fprintf(stderr, "rvvbench: %s\n", err.message);
		return 1;
	}
	return 0;
}
