// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
#include "plot.h"
#include "report.h"
#include "sweep.h"
#include "trials.h"

/* The build column: the tools' git commit, from the Makefile. */
#ifndef RVVBENCH_BUILD
#define RVVBENCH_BUILD "unknown"
#endif

size_t bench_results_n(const struct bench_options *o)
{
	return (size_t)o->trials * o->n_duties * o->n_cells * o->n_arms;
}

size_t bench_result_index(const struct bench_options *o, size_t arm, size_t duty, size_t cell,
			  size_t trial)
{
	return ((trial * o->n_duties + duty) * o->n_cells + cell) * o->n_arms + arm;
}

void bench_results_free(const struct bench_options *o, struct bench_result *r)
{
	for (size_t i = 0; i < bench_results_n(o); i++)
		free(r[i].ttft_ms);
	free(r);
}

double bench_hog_kept(const struct bench_hog_result *h, int duty, double period_ms)
{
	(void)period_ms;
	if (!duty || !h->n_cpus || !(h->wall_s > 0))
		return NAN;
	return h->cpu_s / ((double)duty / 100 * h->wall_s * (double)h->n_cpus);
}

double bench_hog_busy(const struct bench_hog_result *h)
{
	return h->n_cpus && h->wall_s > 0 ? h->cpu_s / h->wall_s / (double)h->n_cpus : 0;
}

/* The figures compared across trials, one per run. */
struct metric {
	const char *key;	/* CSV column and JSON key */
	const char *title;	/* table column */
	double (*of)(const struct bench_options *o, int duty, const struct bench_result *r);
};

/* A run none of whose measured requests succeeded has no throughput to compare, not 0. */
static double tok_s(const struct bench_options *o, int duty, const struct bench_result *r)
{
	(void)o, (void)duty;
	return r->s.status[BENCH_OK] ? r->s.tok_per_s : NAN;
}

static double sending_tok_s(const struct bench_options *o, int duty, const struct bench_result *r)
{
	(void)o, (void)duty;
	return r->s.status[BENCH_OK] ? r->s.sending_tok_per_s : NAN;
}

static double req_s(const struct bench_options *o, int duty, const struct bench_result *r)
{
	(void)o, (void)duty;
	return r->s.status[BENCH_OK] ? r->s.req_per_s : NAN;
}

static double ttft50(const struct bench_options *o, int duty, const struct bench_result *r)
{
	(void)o, (void)duty;
	return r->s.ttft.p50;
}

static double ttft95(const struct bench_options *o, int duty, const struct bench_result *r)
{
	(void)o, (void)duty;
	return r->s.ttft.p95;
}

static double tpot50(const struct bench_options *o, int duty, const struct bench_result *r)
{
	(void)o, (void)duty;
	return r->s.tpot.p50;
}

static double hog_kept(const struct bench_options *o, int duty, const struct bench_result *r)
{
	return bench_hog_kept(&r->hog, duty, o->hog_period_ms);
}

static double saves_per_ktok(const struct bench_options *o, int duty, const struct bench_result *r)
{
	(void)o, (void)duty;
	return bench_window_saves_per_ktok(&r->w);
}

static double saves_per_decode(const struct bench_options *o, int duty,
			       const struct bench_result *r)
{
	(void)o, (void)duty;
	return bench_window_saves_per_decode(&r->w);
}

static double save_share(const struct bench_options *o, int duty, const struct bench_result *r)
{
	(void)o, (void)duty;
	return bench_window_save_share(&r->w);
}

static const struct metric metrics[] = {
	{ "output_tok_per_s", "tok/s", tok_s },
	{ "request_throughput", "req/s", req_s },
	{ "ttft_p50_ms", "TTFT p50 ms", ttft50 },
	{ "ttft_p95_ms", "TTFT p95 ms", ttft95 },
	{ "tpot_p50_ms", "TPOT p50 ms", tpot50 },
	{ "hog_kept", "hog kept", hog_kept },
	{ "v_saves_per_ktok", "V saves/ktok", saves_per_ktok },
	{ "v_saves_per_decode", "V saves/decode", saves_per_decode },
	{ "v_save_share", "V save share", save_share },
	{ "sending_tok_per_s", "tok/s sending", sending_tok_s },
};
#define N_METRICS (sizeof(metrics) / sizeof(metrics[0]))

/*
 * Metric @m of cell (@arm, @duty, @cell) in every trial into @v, at the
 * trial's index (NAN where a trial has none, so two arms' values pair by
 * trial); how many are known.
 */
static size_t by_trial(const struct bench_options *o, const struct bench_result *r, size_t m,
		       size_t arm, size_t duty, size_t cell, double *v)
{
	size_t n = 0;

	for (size_t t = 0; t < (size_t)o->trials; t++) {
		const struct bench_result *x = &r[bench_result_index(o, arm, duty, cell, t)];

		v[t] = x->done ? metrics[m].of(o, o->duties[duty], x) : NAN;
		n += !isnan(v[t]);
	}
	return n;
}

/* The same, the known values only, packed at the front of @v; how many. */
static size_t across_trials(const struct bench_options *o, const struct bench_result *r,
			    size_t m, size_t arm, size_t duty, size_t cell, double *v)
{
	size_t n = 0;

	by_trial(o, r, m, arm, duty, cell, v);
	for (size_t t = 0; t < (size_t)o->trials; t++)
		if (!isnan(v[t]))
			v[n++] = v[t];
	return n;
}

/* How many TTFTs cell (@arm, @duty, @cell) has over every trial. */
static size_t pooled_n(const struct bench_options *o, const struct bench_result *r, size_t arm,
		       size_t duty, size_t cell)
{
	size_t n = 0;

	for (size_t t = 0; t < (size_t)o->trials; t++)
		n += r[bench_result_index(o, arm, duty, cell, t)].n_ttft;
	return n;
}

/*
 * The TTFTs of cell (@arm, @duty, @cell) in every trial, pooled, in a new
 * array (@n of them); NULL when out of memory, a figure then left out.
 */
static double *pooled_ttfts(const struct bench_options *o, const struct bench_result *r,
			    size_t arm, size_t duty, size_t cell, size_t *n)
{
	size_t k = 0;
	double *all;

	*n = pooled_n(o, r, arm, duty, cell);
	all = malloc(sizeof(double) * (*n + 1));
	if (!all) {
		*n = 0;
		return NULL;
	}
	for (size_t t = 0; t < (size_t)o->trials; t++) {
		const struct bench_result *x = &r[bench_result_index(o, arm, duty, cell, t)];

		memcpy(all + k, x->ttft_ms, sizeof(double) * x->n_ttft);
		k += x->n_ttft;
	}
	return all;
}

/* Their distribution. */
static void pooled_ttft(const struct bench_options *o, const struct bench_result *r, size_t arm,
			size_t duty, size_t cell, struct bench_dist *d)
{
	size_t n;
	double *all = pooled_ttfts(o, r, arm, duty, cell, &n);

	bench_dist_of(all, n, o->pct, d);
	free(all);
}

/*
 * The pooled TTFT p95 of @arm over arm 0's ("none"), with its bootstrap
 * interval; 0, or -EINVAL (arm 0 itself, too few requests) or -ENOMEM.
 */
static int ttft_p95_vs_none(const struct bench_options *o, const struct bench_result *r,
			    size_t arm, size_t duty, size_t cell, struct bench_ratio *ratio)
{
	size_t na, nb;
	double *a, *b;
	int rc = -EINVAL;

	if (!arm)
		return rc;
	a = pooled_ttfts(o, r, arm, duty, cell, &na);
	b = pooled_ttfts(o, r, 0, duty, cell, &nb);
	if (a && b)
		rc = bench_percentile_ratio(a, na, b, nb, 95, o->pct, o->cfg.seed, ratio);
	else
		rc = -ENOMEM;
	free(a);
	free(b);
	return rc;
}

/* The paired interval of @arm against arm 0 ("none") on metric @m; 0 or -EINVAL. */
static int vs_none(const struct bench_options *o, const struct bench_result *r, size_t m,
		   size_t arm, size_t duty, size_t cell, struct bench_interval *ci)
{
	double v[o->trials], base[o->trials];

	if (!arm)
		return -EINVAL;
	by_trial(o, r, m, arm, duty, cell, v);
	by_trial(o, r, m, 0, duty, cell, base);
	return bench_paired_interval(v, base, (size_t)o->trials, ci);
}

static void csv_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(",", f);
	else
		fprintf(f, ",%.6g", v);
}

static void csv_count(FILE *f, bool known, uint64_t v)
{
	if (known)
		fprintf(f, ",%llu", (unsigned long long)v);
	else
		fputc(',', f);
}

/* The window's columns: empty where the module, /metrics or /proc did not say. */
static void csv_window(FILE *f, const struct bench_window *w)
{
	const struct bench_class_cost *vec = &w->cls[BENCH_SERVER_VECTOR];
	const struct bench_class_cost *other = &w->cls[BENCH_SERVER_OTHER];
	bool server = w->module && w->sched;

	csv_num(f, w->metrics_present & (1u << RVV_LLAMA_PREDICTED_TOKENS) ?
		w->metrics[RVV_LLAMA_PREDICTED_TOKENS] : NAN);
	csv_num(f, w->metrics_present & (1u << RVV_LLAMA_DECODE_CALLS) ?
		w->metrics[RVV_LLAMA_DECODE_CALLS] : NAN);
	csv_count(f, server, vec->threads);
	csv_count(f, server, rvv_saves(vec->counters));
	csv_count(f, server, rvv_saves(other->counters));
	csv_count(f, w->module, rvv_saves(w->cls[BENCH_REST].counters));
	csv_count(f, w->sched, vec->involuntary + other->involuntary);
	csv_count(f, w->sched, vec->voluntary + other->voluntary);
	csv_num(f, w->sched && !vec->wait_unknown && !other->wait_unknown ?
		   (double)(vec->wait_ns + other->wait_ns) / 1e6 : NAN);
}

int bench_csv_write(FILE *f, const struct bench_options *o, const struct bench_server *srv,
		    const struct bench_result *r)
{
	static const char *const head[] = {
		"build", "url", "endpoint", "n_predict", "seed", "arm", "server_build",
		"server_cmdline", "hog_duty", "hog_cpus",
		"hog_period_ms", "concurrency", "rate", "trial", "requests", "ok", "output_tokens",
		"window_s", "tpot_mean_ms", "e2e_p50_ms", "hog_iterations", "hog_cpu_s", "hog_wall_s",
		"hog_slept_s", "hog_wait_s", "hog_busy", "metrics_tokens", "metrics_decode",
		"server_vector_threads", "server_vector_saves", "server_other_saves", "rest_saves",
		"server_involuntary", "server_voluntary", "server_wait_ms",
	};
	char n_predict[24], seed[24];

	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		fprintf(f, "%s%s", i ? "," : "", head[i]);
	for (size_t m = 0; m < N_METRICS; m++)
		fprintf(f, ",%s", metrics[m].key);
	fputs("\r\n", f);
	snprintf(n_predict, sizeof(n_predict), "%ld", o->cfg.n_predict);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)o->cfg.seed);
	for (size_t t = 0; t < (size_t)o->trials; t++)
		for (size_t d = 0; d < o->n_duties; d++)
			for (size_t c = 0; c < o->n_cells; c++)
				for (size_t a = 0; a < o->n_arms; a++) {
					const struct bench_result *x = &r[bench_result_index(o, a, d, c, t)];
					const char *lead[] = { "rvvbench " RVVBENCH_BUILD, o->cfg.url,
							       o->cfg.endpoint->name, n_predict, seed,
							       o->arms[a].name, srv->build, srv->cmdline };

					if (!x->done)
						continue;
					for (size_t i = 0; i < sizeof(lead) / sizeof(lead[0]); i++) {
						if (i)
							fputc(',', f);
						bench_csv_field(f, lead[i]);
					}
					fprintf(f, ",%d,%zu,%g,%d,%g,%zu,%zu,%zu,%ld", o->duties[d],
						x->hog.n_cpus, o->hog_period_ms, o->cells[c].concurrency,
						o->cells[c].rate, t + 1, x->s.requests,
						x->s.status[BENCH_OK], x->s.output_tokens);
					csv_num(f, x->s.window_s);
					csv_num(f, x->s.tpot.mean);
					csv_num(f, x->s.e2e.p50);
					fprintf(f, ",%llu", (unsigned long long)x->hog.iterations);
					csv_num(f, x->hog.cpu_s);
					csv_num(f, x->hog.wall_s);
					csv_num(f, x->hog.slept_s);
					csv_num(f, x->hog.wait_s);
					csv_num(f, bench_hog_busy(&x->hog));
					csv_window(f, &x->w);
					for (size_t m = 0; m < N_METRICS; m++)
						csv_num(f, metrics[m].of(o, o->duties[d], x));
					fputs("\r\n", f);
				}
	return ferror(f) ? -EIO : 0;
}

/*
 * The table shows tok/s, the hog's share and V saves/ktok across trials, and
 * TTFT p95 over the pooled requests: keep it readable.
 */
static const size_t table_metrics[] = { 0, 5, 6 };
#define N_TABLE (sizeof(table_metrics) / sizeof(table_metrics[0]))

static void mean_sd_text(char *buf, size_t size, const struct bench_mean_sd *m)
{
	if (!m->n)
		snprintf(buf, size, "-");
	else if (m->n == 1)
		snprintf(buf, size, "%.2f", m->mean);
	else
		snprintf(buf, size, "%.2f ± %.2f", m->mean, m->sd);
}

void bench_summary_table(FILE *f, const struct bench_options *o, const struct bench_result *r,
			 bool md)
{
	const char *sep = md ? " | " : "  ";
	double v[o->trials];
	int aw = 6;	/* the arm column: its longest name */
	char text[64];

	for (size_t a = 0; a < o->n_arms; a++)
		aw = strlen(o->arms[a].name) > (size_t)aw ? (int)strlen(o->arms[a].name) : aw;
	fprintf(f, "%s%-*s%s%4s%s%4s%s%6s", md ? "| " : "", aw, "arm", sep, "duty", sep, "conc",
		sep, "trials");
	for (size_t i = 0; i < N_TABLE; i++)
		fprintf(f, "%s%18s", sep, metrics[table_metrics[i]].title);
	fprintf(f, "%s%20s", sep, "TTFT p95 ms (n)");
	if (o->n_arms > 1)
		fprintf(f, "%s%26s%s%23s", sep, "tok/s vs none (95 %)", sep, "TTFT p95 vs none (95 %)");
	fputs(md ? " |\n" : "\n", f);
	if (md) {
		fprintf(f, "| %.*s | ---: | ---: | -----: |", aw,
			"--------------------------------------------------------------------");
		for (size_t i = 0; i < N_TABLE; i++)
			fputs(" -----------------: |", f);
		fputs(" -------------------: |", f);
		fputs(o->n_arms > 1 ? " -------------------------: | ----------------------: |\n" :
		      "\n", f);
	}
	for (size_t d = 0; d < o->n_duties; d++)
		for (size_t c = 0; c < o->n_cells; c++)
			for (size_t a = 0; a < o->n_arms; a++) {
				struct bench_mean_sd m;
				struct bench_dist ttft;
				size_t n = across_trials(o, r, 0, a, d, c, v);

				fprintf(f, "%s%-*s%s%4d%s%4d%s%6zu", md ? "| " : "", aw, o->arms[a].name,
					sep, o->duties[d], sep, o->cells[c].concurrency, sep, n);
				for (size_t i = 0; i < N_TABLE; i++) {
					bench_mean_sd_of(v, across_trials(o, r, table_metrics[i], a, d, c, v), &m);
					mean_sd_text(text, sizeof(text), &m);
					/* "±" is two bytes and one column. */
					fprintf(f, "%s%*s", sep, m.n > 1 ? 19 : 18, text);
				}
				pooled_ttft(o, r, a, d, c, &ttft);
				if (ttft.n)
					snprintf(text, sizeof(text), "%.1f (%zu)", ttft.p95, ttft.n);
				else
					snprintf(text, sizeof(text), "-");
				fprintf(f, "%s%20s", sep, text);
				if (o->n_arms > 1) {
					struct bench_interval ci;

					struct bench_ratio ratio;

					if (!vs_none(o, r, 0, a, d, c, &ci))
						snprintf(text, sizeof(text), "%+.2f [%+.2f, %+.2f]", ci.mean,
							 ci.low, ci.high);
					else
						snprintf(text, sizeof(text), "-");
					fprintf(f, "%s%26s", sep, text);
					if (!ttft_p95_vs_none(o, r, a, d, c, &ratio))
						snprintf(text, sizeof(text), "%.2f [%.2f, %.2f]", ratio.ratio,
							 ratio.low, ratio.high);
					else
						snprintf(text, sizeof(text), "-");
					fprintf(f, "%s%23s", sep, text);
				}
				fputs(md ? " |\n" : "\n", f);
			}
}

/* A ratio and its interval as three fields: "nan nan nan" where there is none. */
static void ratio_fields(FILE *f, bool known, double ratio, double low, double high)
{
	if (known)
		fprintf(f, " %.4f %.4f %.4f", ratio, low, high);
	else
		fputs(" nan nan nan", f);
}

int bench_ratios_write(FILE *f, const struct bench_options *o, const struct bench_result *r)
{
	double v[o->trials], base[o->trials];

	for (size_t c = 0; c < o->n_cells; c++)
		for (size_t d = 0; d < o->n_duties; d++) {
			by_trial(o, r, 0, 0, d, c, base);
			for (size_t a = 1; a < o->n_arms; a++) {
				struct bench_interval toks;
				struct bench_ratio ttft;
				bool known;

				by_trial(o, r, 0, a, d, c, v);
				fprintf(f, "serve-ratio %s %d %d", o->arms[a].name, o->duties[d],
					o->cells[c].concurrency);
				known = !bench_paired_ratio(v, base, (size_t)o->trials, &toks);
				ratio_fields(f, known, toks.mean, toks.low, toks.high);
				known = !ttft_p95_vs_none(o, r, a, d, c, &ttft);
				ratio_fields(f, known, ttft.ratio, ttft.low, ttft.high);
				fprintf(f, " %zu\n", pooled_n(o, r, a, d, c));
			}
		}
	return ferror(f) ? -EIO : 0;
}

/* The plots: metric index, file stem, axis label. */
static const struct {
	size_t metric;
	const char *stem, *ylabel;
} plotted[] = {
	{ 0, "tok-s", "output tokens/s" },
	{ 3, "ttft-p95", "TTFT p95 (ms)" },
	{ 6, "v-saves-per-ktok", "V saves per 1000 output tokens (server)" },
};

static int plot_one(const char *dir, const struct bench_options *o, const struct bench_result *r,
		    size_t which, size_t cell, struct rvv_error *err)
{
	size_t nd = o->n_duties, m = plotted[which].metric, points = 0;
	double x[nd], y[o->n_arms][nd], sd[o->n_arms][nd], v[o->trials];
	struct bench_plot_series series[BENCH_MAX_ARMS];
	char stem[64], title[160];
	struct bench_plot p = {
		.stem = stem, .title = title, .xlabel = "CPU hog duty (%)",
		.ylabel = plotted[which].ylabel, .n_series = o->n_arms, .series = series,
	};

	for (size_t d = 0; d < nd; d++)
		x[d] = o->duties[d];
	for (size_t a = 0; a < o->n_arms; a++) {
		for (size_t d = 0; d < nd; d++) {
			struct bench_mean_sd s;

			bench_mean_sd_of(v, across_trials(o, r, m, a, d, cell, v), &s);
			y[a][d] = s.n ? s.mean : NAN;
			sd[a][d] = s.n > 1 ? s.sd : NAN;
			points += s.n > 0;
		}
		series[a] = (struct bench_plot_series){
			.name = o->arms[a].name, .n = nd, .x = x, .y = y[a], .sd = sd[a],
		};
	}
	if (!points)	/* V figures without the module: no plot, not an error */
		return 0;
	snprintf(stem, sizeof(stem), "%s-c%d", plotted[which].stem, o->cells[cell].concurrency);
	snprintf(title, sizeof(title), "%s, concurrency %d%s", metrics[m].title,
		 o->cells[cell].concurrency, o->cells[cell].rate > 0 ? " (open loop)" : "");
	return bench_plot_write(dir, &p, err);
}

int bench_plots_write(const char *dir, const struct bench_options *o,
		      const struct bench_result *r, struct rvv_error *err)
{
	int rc, missing = 0;

	for (size_t c = 0; c < o->n_cells; c++)
		for (size_t i = 0; i < sizeof(plotted) / sizeof(plotted[0]); i++) {
			rc = plot_one(dir, o, r, i, c, err);
			/* Without gnuplot the data and scripts are still written, to draw elsewhere. */
			if (rc == -ENOPKG)
				missing = rc;
			else if (rc)
				return rc;
		}
	return missing;
}

static struct json_object *num(double v)
{
	return isnan(v) ? NULL : json_object_new_double(round(v * 1e6) / 1e6);
}

struct json_object *bench_aggregates_json(const struct bench_options *o,
					  const struct bench_result *r)
{
	struct json_object *all = json_object_new_array();
	double v[o->trials];

	for (size_t d = 0; d < o->n_duties; d++)
		for (size_t c = 0; c < o->n_cells; c++)
			for (size_t a = 0; a < o->n_arms; a++) {
				struct json_object *cell = json_object_new_object(), *pooled;
				struct bench_ratio ratio;
				struct bench_dist ttft;

				json_object_object_add(cell, "arm", json_object_new_string(o->arms[a].name));
				json_object_object_add(cell, "hog_duty", json_object_new_int(o->duties[d]));
				json_object_object_add(cell, "concurrency",
						       json_object_new_int(o->cells[c].concurrency));
				pooled_ttft(o, r, a, d, c, &ttft);
				pooled = bench_dist_json(&ttft);
				if (!ttft_p95_vs_none(o, r, a, d, c, &ratio)) {
					struct json_object *p = json_object_new_object();

					json_object_object_add(p, "ratio", num(ratio.ratio));
					json_object_object_add(p, "low95", num(ratio.low));
					json_object_object_add(p, "high95", num(ratio.high));
					json_object_object_add(pooled, "p95_vs_none", p);
				}
				json_object_object_add(cell, "ttft_pooled_ms", pooled);
				for (size_t m = 0; m < N_METRICS; m++) {
					struct json_object *x = json_object_new_object();
					struct bench_mean_sd s;
					struct bench_interval ci;
					size_t n = across_trials(o, r, m, a, d, c, v);

					bench_mean_sd_of(v, n, &s);
					json_object_object_add(x, "n", json_object_new_int64((int64_t)n));
					json_object_object_add(x, "mean", n ? num(s.mean) : NULL);
					json_object_object_add(x, "sd", n > 1 ? num(s.sd) : NULL);
					if (!vs_none(o, r, m, a, d, c, &ci)) {
						struct json_object *p = json_object_new_object();

						json_object_object_add(p, "mean", num(ci.mean));
						json_object_object_add(p, "low95", num(ci.low));
						json_object_object_add(p, "high95", num(ci.high));
						json_object_object_add(x, "vs_none", p);
					}
					json_object_object_add(cell, metrics[m].key, x);
				}
				json_object_array_add(all, cell);
			}
	return all;
}
