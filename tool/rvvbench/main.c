// SPDX-License-Identifier: GPL-2.0
/*
 * rvvbench: a serving benchmark for llama-server. A cell is hog duty x
 * concurrency (or the --rate open loop) x arm; each trial runs every cell,
 * the arms rotated, with the CPU hog started before a cell's window and
 * stopped after it. Each run is summarized and printed (or kept for the
 * JSON), then the cells across trials: CSV, table or Markdown, plots.
 * Each window is bracketed by marks (window.h): what vector state cost
 * and how the scheduler treated the server while the arm held.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "../lib/cli.h"
#include "../lib/device.h"
#include "../lib/format.h"
#include "../lib/http.h"
#include "../lib/rows.h"
#include "../lib/version.h"
#include "interrupt.h"
#include "launch.h"
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

/* What every run of the sweep shares. */
struct sweep {
	const struct bench_options *o;
	struct bench_config cfg;
	struct bench_observer ob;
	int dev;		/* /dev/rvvstat for the arms; -1 with "none" alone */
	FILE *jsonl;
	struct json_object *cells;
	char server_build[128];		/* /props build_info; "" if it does not say */
	char server_cmdline[1024];	/* /proc/PID/cmdline, made printable; "" unknown */
	char client_policy[96];		/* rvvbench's own, as chrt gave it; "" unknown */
	struct progress prog;		/* cfg.progress_ctx: the sweep's, not a frame's */
};

/* The module's word for thread @tid's hint, from the window's closing mark. */
static const char *hint_word(void *ctx, int tid)
{
	const struct bench_mark *m = ctx;

	for (size_t i = 0; i < m->n_rows; i++)
		if (m->rows[i].tid == (uint32_t)tid)
			return rvv_format_task_hint(m->rows[i].hint);
	return "none";
}

static struct json_object *threads_json(const struct bench_arm_state *st)
{
	struct json_object *all = json_object_new_array();

	for (size_t i = 0; i < st->n; i++) {
		const struct bench_thread_state *t = &st->threads[i];
		struct json_object *o = json_object_new_object();
		char comm[64];

		rvv_format_untrusted(t->comm, RVV_UNTRUSTED_JSON, comm, sizeof(comm));
		json_object_object_add(o, "tid", json_object_new_int(t->tid));
		json_object_object_add(o, "comm", json_object_new_string(comm));
		json_object_object_add(o, "policy", json_object_new_string(t->policy));
		json_object_object_add(o, "cpus", json_object_new_string(t->cpus));
		json_object_object_add(o, "hint", json_object_new_string(t->hint));
		json_object_object_add(o, "tier", t->tier ? json_object_new_string(t->tier) : NULL);
		json_object_object_add(o, "matches", json_object_new_boolean(t->matches));
		json_object_array_add(all, o);
	}
	return all;
}

static void add_cell_json(const struct sweep *x, const struct step *at, const struct bench_run *run,
			  const struct bench_result *res, const struct bench_arm_state *st)
{
	const struct bench_cell *cell = &x->o->cells[at->cell];
	struct json_object *c = bench_cell_json(cell, run, &res->s), *h;

	json_object_object_add(c, "arm", json_object_new_string(x->o->arms[at->arm].name));
	json_object_object_add(c, "hog_duty", json_object_new_int(x->o->duties[at->duty]));
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
	json_object_object_add(c, "window", bench_window_json(&res->w));
	json_object_object_add(c, "threads", x->ob.pid ? threads_json(st) : NULL);
	json_object_array_add(x->cells, c);
}

/*
 * The measured part of a run, between two marks, under the hog: the arm
 * is already set. The threads are read back before the hog stops, while
 * the window's state still holds.
 */
static int measure(const struct sweep *x, const struct step *at, const struct bench_arm_held *held,
		   struct bench_run *run, struct bench_result *res, struct bench_arm_state *st,
		   struct rvv_error *err)
{
	const struct bench_arm *arm = &x->o->arms[at->arm];
	struct bench_mark start, end;
	struct bench_hog hog;
	int rc;

	rc = bench_hog_start(&hog, x->o->hog_cpus, x->o->n_hog_cpus, x->o->duties[at->duty],
			     x->o->hog_period_ms, err);
	if (rc)
		return rc;
	rc = bench_mark_take(&x->ob, &start, err);
	if (!rc)
		rc = bench_run_cell(&x->cfg, &x->o->cells[at->cell], run, err);
	if (!rc)
		rc = bench_mark_take(&x->ob, &end, err);
	if (!rc && x->ob.pid)
		rc = bench_arm_check(x->dev, arm, x->ob.pid, held, hint_word, &end, st, err);
	bench_hog_stop(&hog, &res->hog);
	if (!rc)
		rc = bench_window_of(&start, &end, run, &res->w, err);
	bench_mark_free(&start);
	bench_mark_free(&end);
	return rc;
}

/* A run none of whose measured requests succeeded: said at once, with why; the exit is 1. */
static void no_success(const struct step *at, const char *arm, int duty, int concurrency,
		       const struct bench_run *run, const struct bench_summary *s)
{
	char why[4 * sizeof(run->recs[0].error) + 1] = "";

	for (size_t i = 0; i < run->n; i++)
		if (!run->recs[i].warmup && run->recs[i].status != BENCH_OK) {
			rvv_format_untrusted(run->recs[i].error, RVV_UNTRUSTED_TEXT, why, sizeof(why));
			break;
		}
	fprintf(stderr, "rvvbench: trial %zu, arm %s, hog duty %d %%, concurrency %d: none of %zu measured requests succeeded (%s); its figures are left out\n",
		at->trial + 1, arm, duty, concurrency, s->requests, why);
}

/* One run: the arm set, the measured window, the arm cleared; its summary in @res. */
static int run_one(const struct sweep *x, const struct step *at, struct bench_result *res,
		   struct rvv_error *err)
{
	const struct bench_options *o = x->o;
	const struct bench_arm *arm = &o->arms[at->arm];
	struct bench_arm_state st = { 0 };
	struct bench_arm_held held;
	struct bench_run run = { 0 };
	struct rvv_error clear_err;
	int rc, cleared;

	rc = bench_arm_apply(x->dev, arm, x->ob.pid, &held, err);
	if (rc)
		return rc;
	rc = measure(x, at, &held, &run, res, &st, err);
	/* Cleared whatever happened: the server must not keep an arm's policy. */
	cleared = bench_arm_clear(x->dev, arm, x->ob.pid, &held, &clear_err);
	if (!rc && cleared)
		rc = rvv_fail(err, cleared, "%s", clear_err.message);
	/* Flushed per run: a run killed outright still leaves the ones before it. */
	if (!rc && x->jsonl && (bench_write_jsonl(x->jsonl, &o->cells[at->cell], &run, arm->name,
						  o->duties[at->duty], at->trial + 1) ||
				fflush(x->jsonl)))
		rc = rvv_fail(err, -EIO, "--jsonl %s: cannot write: %s", o->jsonl, strerror(errno));
	if (!rc)
		rc = bench_summarize(run.recs, run.n, &o->slo, o->pct, &res->s, err);
	if (!rc)
		rc = bench_ttfts(run.recs, run.n, &res->ttft_ms, &res->n_ttft, err);
	if (!rc) {
		res->done = true;
		res->elapsed_s = run.elapsed_s;
		if (res->s.requests && !res->s.status[BENCH_OK])
			no_success(at, arm->name, o->duties[at->duty], o->cells[at->cell].concurrency,
				   &run, &res->s);
		if (o->json)
			add_cell_json(x, at, &run, res, &st);
		else if (!o->md) {
			printf("trial %zu, arm %s, hog duty %d %%:\n", at->trial + 1, arm->name,
			       o->duties[at->duty]);
			bench_table_cell(stdout, &o->cells[at->cell], &res->s);
		}
	}
	bench_arm_state_free(&st);
	bench_run_free(&run);
	return rc;
}

static int run_cells(struct sweep *x, struct bench_result *results, struct rvv_error *err)
{
	const struct bench_options *o = x->o;
	struct progress *prog = &x->prog;
	struct step at;
	int rc = 0;

	*prog = (struct progress){ .cells = bench_results_n(o), .start_s = mono_s() };
	x->cfg.progress = show_progress;
	x->cfg.progress_ctx = prog;
	if (!o->json && !o->md)
		bench_table_head(stdout);
	/* Trial, duty, concurrency, then the arms in this trial's rotated order. */
	for (at.trial = 0; at.trial < (size_t)o->trials && !rc; at.trial++)
		for (at.duty = 0; at.duty < o->n_duties && !rc; at.duty++)
			for (at.cell = 0; at.cell < o->n_cells && !rc; at.cell++)
				for (size_t k = 0; k < o->n_arms && !rc; k++) {
					at.arm = bench_arm_order(at.trial, k, o->n_arms);
					prog->cell++;
					if (bench_interrupted()) {	/* between runs: no arm set */
						rc = rvv_fail(err, -EINTR, "stopped by signal %d (%s)",
							      bench_interrupted(),
							      strsignal(bench_interrupted()));
						break;
					}
					rc = run_one(x, &at, &results[bench_result_index(o, at.arm,
							at.duty, at.cell, at.trial)], err);
				}
	return rc;
}

/* The port the URL names (its scheme's default if it names none); 0 if it cannot tell. */
static unsigned int url_port(const char *url)
{
	CURLU *u = curl_url();
	char *port = NULL;
	unsigned int n = 0;

	if (u && !curl_url_set(u, CURLUPART_URL, url, 0) &&
	    !curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT))
		n = (unsigned int)atoi(port);
	curl_free(port);
	curl_url_cleanup(u);
	return n;
}

/* A hint the module still holds on the server's threads before any window: -EBUSY. */
static int stale_hint(const struct sweep *x, struct rvv_error *err)
{
	struct rvv_task_row *rows = NULL;
	size_t n = 0;
	int rc = rvv_collect_tasks(x->ob.client, (uint32_t)x->ob.pid, &rows, &n, err);

	if (!rc)
		rc = bench_arm_stale(rows, n, x->ob.pid, err);
	free(rows);
	return rc;
}

/*
 * Whom the windows watch: the module if it is loaded, the server's process
 * (by --server-pid or its port), /dev/rvvstat when an arm sets hints.
 * Without the module or the process their figures are left out, with a
 * note; an arm without them cannot run: 2 with the reason. A server that
 * cannot be reached at all ends it first: 1, saying what to do.
 */
static int observe(const struct bench_options *o, struct sweep *x)
{
	struct rvv_error err, module_err, pid_err;
	unsigned int port;
	int rc, module_rc;

	x->ob.url = o->cfg.url;
	x->ob.timeout_ms = 5000;
	x->dev = -1;
	module_rc = rvv_client_open(&x->ob.client, &module_err);
	if (module_rc)
		x->ob.client = NULL;
	x->ob.pid = o->server_pid;
	port = url_port(o->cfg.url);
	if (!x->ob.pid && !port)
		rc = rvv_fail(&pid_err, -EINVAL, "cannot tell the port of %s; give --server-pid", o->cfg.url);
	else if (!x->ob.pid)
		rc = bench_proc_listener(port, &x->ob.pid, &pid_err);
	else
		rc = kill(x->ob.pid, 0) && errno == ESRCH ?
		     rvv_fail(&pid_err, -ESRCH, "--server-pid %d: no such process", x->ob.pid) : 0;
	if (rc && o->n_arms > 1) {
		fprintf(stderr, "rvvbench: the arms need the server's process: %s\n", pid_err.message);
		return 2;
	}
	if (o->n_arms > 1 && rvv_device_open(&x->dev, &err)) {
		fprintf(stderr, "rvvbench: the arms need %s: %s\n", RVV_DEVICE_PATH, err.message);
		return 2;
	}
	if (rvv_http_connect(o->cfg.url, x->ob.timeout_ms, &err)) {
		fprintf(stderr, "rvvbench: %s (start llama-server or give --url)\n", err.message);
		return 1;
	}
	if (!module_rc && !rc && stale_hint(x, &err)) {
		fprintf(stderr, "rvvbench: %s\n", err.message);
		return 1;
	}
	if (module_rc)
		fprintf(stderr, "rvvbench: no vector-state figures: %s\n", module_err.message);
	if (rc) {
		x->ob.pid = 0;
		fprintf(stderr, "rvvbench: no per-thread figures: %s\n", pid_err.message);
	}
	return 0;
}

/*
 * llama-server's own build ("b1234-abcdef0"), from /props, and how it was
 * launched, from /proc (its threads, parallel, poll, prio, ctx options):
 * kept with every output. "" where they cannot be read.
 */
static void server_identity(struct sweep *x)
{
	struct rvv_http_reply reply = { 0 };
	struct json_object *props, *build = NULL;
	struct rvv_error ignored;
	char raw[sizeof(x->server_cmdline)];

	x->server_build[0] = x->server_cmdline[0] = '\0';
	if (!rvv_http_get(x->o->cfg.url, "/props", 5000, NULL, &reply, &ignored) &&
	    reply.status == 200 && reply.body && (props = json_tokener_parse(reply.body))) {
		if (json_object_object_get_ex(props, "build_info", &build) &&
		    json_object_is_type(build, json_type_string))
			rvv_format_untrusted(json_object_get_string(build), RVV_UNTRUSTED_TEXT,
					     x->server_build, sizeof(x->server_build));
		json_object_put(props);
	}
	rvv_http_free(&reply);
	if (x->ob.pid && !bench_proc_cmdline(x->ob.pid, raw, sizeof(raw)))
		rvv_format_untrusted(raw, RVV_UNTRUSTED_TEXT, x->server_cmdline,
				     sizeof(x->server_cmdline));
}

/*
 * rvvbench's own policy. A SCHED_OTHER client runs only when an arm's
 * real-time server threads leave it a CPU: its sends and reads wait behind
 * them, and TTFT grows by its own wait. Said once, when an arm does that.
 */
static void client_identity(struct sweep *x)
{
	struct rvv_policy p;

	if (bench_thread_policy(0, &p) ||
	    rvv_format_policy(&p, x->client_policy, sizeof(x->client_policy)) < 0) {
		x->client_policy[0] = '\0';
		return;
	}
	if (bench_policy_real_time(&p))
		return;
	for (size_t a = 0; a < x->o->n_arms; a++) {
		if (!bench_arm_real_time(&x->o->arms[a]))
			continue;
		fprintf(stderr, "rvvbench: arm %s makes the server's threads real-time while rvvbench runs at %s: its requests and reads wait behind them and their TTFT with them; run it as \"chrt -f 50 rvvbench ...\" to measure the server alone (the hog stays SCHED_OTHER)\n",
			x->o->arms[a].name, x->client_policy);
		return;
	}
}

static struct json_object *string_or_null(const char *s)
{
	return *s ? json_object_new_string(s) : NULL;
}

static void print_json(const struct sweep *x, const struct bench_result *results)
{
	const struct bench_options *o = x->o;
	struct json_object *top = json_object_new_object(), *arms, *hog, *cpus, *server;
	struct bench_launch launch;

	json_object_object_add(top, "version", json_object_new_int(BENCH_REPORT_VERSION));
	json_object_object_add(top, "url", json_object_new_string(o->cfg.url));
	json_object_object_add(top, "endpoint", json_object_new_string(o->cfg.endpoint->name));
	json_object_object_add(top, "seed", json_object_new_int64((int64_t)o->cfg.seed));
	json_object_object_add(top, "n_predict", json_object_new_int64(o->cfg.n_predict));
	json_object_object_add(top, "percentiles", json_object_new_string(bench_pct_name(o->pct)));
	json_object_object_add(top, "burstiness", o->cells[0].rate > 0 ?
			       json_object_new_double(o->cfg.burstiness) : NULL);
	if (o->cfg.ramp.how != BENCH_RAMP_NONE) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "strategy", json_object_new_string(bench_ramp_name(o->cfg.ramp.how)));
		json_object_object_add(r, "start_rps", json_object_new_double(o->cfg.ramp.start));
		json_object_object_add(r, "end_rps", json_object_new_double(o->cfg.ramp.end));
		json_object_object_add(top, "ramp_up", r);
	} else {
		json_object_object_add(top, "ramp_up", NULL);
	}
	if (o->prompts_path) {
		struct json_object *p = json_object_new_object();

		json_object_object_add(p, "file", json_object_new_string(o->prompts_path));
		json_object_object_add(p, "entries", json_object_new_int64((int64_t)o->prompts.n));
		json_object_object_add(top, "prompts", p);
	} else {
		json_object_object_add(top, "prompts", NULL);
	}
	json_object_object_add(top, "trials", json_object_new_int64(o->trials));
	server = json_object_new_object();
	json_object_object_add(server, "pid", x->ob.pid ? json_object_new_int(x->ob.pid) : NULL);
	json_object_object_add(server, "build_info", string_or_null(x->server_build));
	json_object_object_add(server, "cmdline", string_or_null(x->server_cmdline));
	bench_launch_parse(x->server_cmdline, &launch);
	json_object_object_add(server, "launch", *x->server_cmdline ? bench_launch_json(&launch) :
			       NULL);
	json_object_object_add(top, "server", server);
	json_object_object_add(top, "client_policy", string_or_null(x->client_policy));
	arms = json_object_new_array();
	for (size_t a = 0; a < o->n_arms; a++)
		json_object_array_add(arms, json_object_new_string(o->arms[a].name));
	json_object_object_add(top, "arms", arms);
	hog = json_object_new_object();
	cpus = json_object_new_array();
	json_object_object_add(hog, "period_ms", json_object_new_double(o->hog_period_ms));
	for (size_t i = 0; i < o->n_hog_cpus; i++)
		json_object_array_add(cpus, json_object_new_int(o->hog_cpus[i]));
	json_object_object_add(hog, "cpus", cpus);
	json_object_object_add(top, "hog", hog);
	json_object_object_add(top, "aggregates", bench_aggregates_json(o, results));
	json_object_object_add(top, "cells", json_object_get(x->cells));
	printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY));
	json_object_put(top);
}

/* Everything after the sweep: CSV, ratios, the summary on stdout, then the plots. */
static int write_outputs(const struct sweep *x, FILE *csv, FILE *ratios,
			 const struct bench_result *results, struct rvv_error *err)
{
	const struct bench_options *o = x->o;
	int rc = 0;

	if (csv && bench_csv_write(csv, o, &(struct bench_server){ x->server_build,
								     x->server_cmdline }, results))
		rc = rvv_fail(err, -EIO, "--csv %s: cannot write: %s", o->csv, strerror(errno));
	if (csv && fclose(csv) && !rc)
		rc = rvv_fail(err, -EIO, "--csv %s: %s", o->csv, strerror(errno));
	if (ratios) {
		int wrc = bench_ratios_write(ratios, o, results);

		if ((fclose(ratios) || wrc) && !rc)
			rc = rvv_fail(err, -EIO, "--ratios %s: cannot write: %s", o->ratios,
				      strerror(errno));
	}
	if (o->json) {
		print_json(x, results);
	} else {
		if (!o->md)
			printf("\nacross trials (mean ± sd; hog kept: its CPU time over what its duty asked):\n");
		bench_summary_table(stdout, o, results, o->md);
	}
	if (!rc && o->plot_dir)
		rc = bench_plots_write(o->plot_dir, o, results, err);
	if (rc == -ENOPKG) {	/* a board without gnuplot: the plots are drawn elsewhere */
		fprintf(stderr, "rvvbench: --plot: %s; its data and scripts are in %s: \"gnuplot STEM.gp\" there draws each\n",
			err->message, o->plot_dir);
		rc = 0;
	}
	return rc;
}

/* @path opened for --@option's output; NULL after saying why. */
static FILE *open_output(const char *option, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "rvvbench: --%s %s: %s; give a file in a writable directory\n",
			option, path, strerror(errno));
	return f;
}

static size_t runs_done(const struct bench_options *o, const struct bench_result *results)
{
	size_t n = 0;

	for (size_t i = 0; i < bench_results_n(o); i++)
		n += results[i].done;
	return n;
}

/* How many runs had no successful measured request: each was said as it ended. */
static size_t failed_runs(const struct bench_options *o, const struct bench_result *results)
{
	size_t n = 0;

	for (size_t i = 0; i < bench_results_n(o); i++)
		n += results[i].done && results[i].s.requests && !results[i].s.status[BENCH_OK];
	if (n)
		fprintf(stderr, "rvvbench: %zu of %zu runs had no successful request: exit 1\n", n,
			bench_results_n(o));
	return n;
}

int main(int argc, char **argv)
{
	struct rvv_error err = { 0 };
	struct bench_options o;
	struct bench_result *results;
	struct sweep x = { .o = &o, .dev = -1 };
	struct rvv_error out_err = { 0 };
	FILE *csv = NULL, *ratios = NULL;
	bool failed;
	int rc, out_rc;

	if (bench_options_parse(argc, argv, &o, &err))
		return rvv_bad_usage("rvvbench", "%s", err.message);
	if (o.help) {
		bench_usage(stdout);
		return 0;
	}
	if (o.version)
		return rvv_print_version(stdout, "rvvbench") ? 1 : 0;
	if ((o.jsonl && !(x.jsonl = open_output("jsonl", o.jsonl))) ||
	    (o.csv && !(csv = open_output("csv", o.csv))) ||
	    (o.ratios && !(ratios = open_output("ratios", o.ratios))))
		return 2;
	if (o.plot_dir && access(o.plot_dir, W_OK)) {
		fprintf(stderr, "rvvbench: --plot %s: %s; give a writable directory\n", o.plot_dir,
			strerror(errno));
		return 2;
	}
	/* Rotation balances the order only over whole turns of the arms. */
	if (o.trials > 1 && o.n_arms > 1 && o.trials % (long)o.n_arms)
		fprintf(stderr, "rvvbench: --trials %ld with %zu arms: each arm is not first equally often (the order rotates by one a trial); give a multiple of %zu to balance it\n",
			o.trials, o.n_arms, o.n_arms);
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
	rc = observe(&o, &x);
	if (rc)
		return rc;
	server_identity(&x);
	client_identity(&x);
	x.cfg = o.cfg;
	x.cfg.interrupted = bench_interrupted;
	x.cells = json_object_new_array();
	if (bench_interrupt_install())
		fprintf(stderr, "rvvbench: cannot catch SIGINT/SIGTERM: %s; do not interrupt a window\n",
			strerror(errno));
	rc = run_cells(&x, results, &err);
	if (x.jsonl && fclose(x.jsonl) && !rc)
		rc = rvv_fail(&err, -EIO, "--jsonl %s: %s", o.jsonl, strerror(errno));
	/* Whatever ended the sweep, what the runs already done measured is written. */
	out_rc = write_outputs(&x, csv, ratios, results, rc ? &out_err : &err);
	if (rc && out_rc)
		fprintf(stderr, "rvvbench: %s\n", out_err.message);
	else if (!rc)
		rc = out_rc;
	if (rc)
		fprintf(stderr, "rvvbench: %zu of %zu runs done and written\n", runs_done(&o, results),
			bench_results_n(&o));
	failed = !rc && failed_runs(&o, results);
	json_object_put(x.cells);
	bench_results_free(&o, results);
	bench_options_free(&o);
	if (x.ob.client)
		rvv_client_close(x.ob.client);
	if (x.dev >= 0)
		close(x.dev);
	curl_global_cleanup();
	if (rc) {
		fprintf(stderr, "rvvbench: %s\n", err.message);
		/* Killed as a shell counts it, once the arm is cleared and the outputs written. */
		return rc == -EINTR && bench_interrupted() ? 128 + bench_interrupted() : 1;
	}
	return failed ? 1 : 0;
}
