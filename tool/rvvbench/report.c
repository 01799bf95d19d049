// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "../lib/format.h"
#include "report.h"

static struct json_object *ms(double v)
{
	char text[32];

	if (isnan(v))	/* no value: null, never 0 */
		return NULL;
	/* Whole microseconds: the clock is finer, the figures are not. */
	snprintf(text, sizeof(text), "%.3f", v);
	return json_object_new_double_s(round(v * 1000) / 1000, text);
}

static void cell_fields(struct json_object *o, const struct bench_cell *cell)
{
	json_object_object_add(o, "concurrency", json_object_new_int(cell->concurrency));
	if (cell->rate > 0)
		json_object_object_add(o, "rate", json_object_new_double(cell->rate));
}

static void add_ns_ms(struct json_object *o, const char *key, int64_t t)
{
	json_object_object_add(o, key, t ? ms((double)t / 1e6) : NULL);
}

static void add_known(struct json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, v >= 0 ? ms(v) : NULL);
}

/* The other requests of @run in flight when @r was sent: @r counts itself unless it ended then. */
static size_t in_flight_at_send(const struct bench_run *run, const struct bench_record *r)
{
	return bench_in_flight_at(run->recs, run->n, r->send_ns) - (r->send_ns < r->end_ns);
}

int bench_write_jsonl(FILE *f, const struct bench_cell *cell, const struct bench_run *run,
		      const char *arm, int hog_duty, size_t trial)
{
	for (size_t i = 0; i < run->n; i++) {
		const struct bench_record *r = &run->recs[i];
		struct json_object *o = json_object_new_object(), *gaps = json_object_new_array();

		cell_fields(o, cell);
		json_object_object_add(o, "arm", json_object_new_string(arm));
		json_object_object_add(o, "hog_duty", json_object_new_int(hog_duty));
		json_object_object_add(o, "trial", json_object_new_int64((int64_t)trial));
		json_object_object_add(o, "index", json_object_new_int64(r->index));
		json_object_object_add(o, "warmup", json_object_new_boolean(r->warmup));
		json_object_object_add(o, "status", json_object_new_string(bench_status_name(r->status)));
		json_object_object_add(o, "http_status", json_object_new_int64(r->http_status));
		json_object_object_add(o, "scheduled_ms", ms((double)r->sched_ns / 1e6));
		add_known(o, "queue_ms", r->send_ns ? (double)(r->send_ns - r->sched_ns) / 1e6 : -1);
		add_ns_ms(o, "sent_ms", r->send_ns);
		/* The same instant on the machine's clock, to line up with other records. */
		json_object_object_add(o, "sent_monotonic_ns", r->send_ns ?
				       json_object_new_int64(run->t0_ns + r->send_ns) : NULL);
		json_object_object_add(o, "in_flight_at_send", r->send_ns ?
				       json_object_new_int64((int64_t)in_flight_at_send(run, r)) : NULL);
		add_ns_ms(o, "headers_ms", r->headers_ns);
		add_ns_ms(o, "first_token_ms", r->first_ns);
		add_ns_ms(o, "last_token_ms", r->last_ns);
		add_ns_ms(o, "end_ms", r->end_ns);
		add_known(o, "ttft_ms", bench_ttft_ms(r));
		add_known(o, "e2e_ms", bench_e2e_ms(r));
		add_known(o, "tpot_ms", bench_tpot_ms(r));
		json_object_object_add(o, "output_tokens",
				       r->output_tokens >= 0 ? json_object_new_int64(r->output_tokens) : NULL);
		json_object_object_add(o, "prompt_tokens",
				       r->prompt_tokens >= 0 ? json_object_new_int64(r->prompt_tokens) : NULL);
		add_known(o, "prompt_ms", r->prompt_ms);
		add_known(o, "predicted_ms", r->predicted_ms);
		json_object_object_add(o, "slot", r->slot >= 0 ? json_object_new_int64(r->slot) : NULL);
		json_object_object_add(o, "token_events", json_object_new_int64(r->token_events));
		json_object_object_add(o, "keepalives", json_object_new_int64(r->keepalives));
		for (size_t g = 0; g < r->n_gaps; g++)
			json_object_array_add(gaps, ms(r->gaps_ms[g]));
		json_object_object_add(o, "itl_ms", gaps);
		if (r->error[0]) {
			/* The server's text, cut to fit: maybe inside a character. */
			char error[3 * sizeof(r->error) + 1];

			rvv_format_untrusted(r->error, RVV_UNTRUSTED_JSON, error, sizeof(error));
			json_object_object_add(o, "error", json_object_new_string(error));
		}
		fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	}
	return ferror(f) ? -EIO : 0;
}

struct json_object *bench_dist_json(const struct bench_dist *d)
{
	const struct { const char *key; double v; } f[] = {
		{ "mean", d->mean }, { "sd", d->sd }, { "p50", d->p50 }, { "p90", d->p90 },
		{ "p95", d->p95 }, { "p99", d->p99 }, { "max", d->max },
	};
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "n", json_object_new_int64((int64_t)d->n));
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		json_object_object_add(o, f[i].key, ms(f[i].v));
	return o;
}

struct json_object *bench_cell_json(const struct bench_cell *cell, const struct bench_run *run,
				    const struct bench_summary *s)
{
	struct json_object *o = json_object_new_object(), *st = json_object_new_object();

	cell_fields(o, cell);
	json_object_object_add(o, "requests", json_object_new_int64((int64_t)s->requests));
	json_object_object_add(o, "warmup", json_object_new_int64((int64_t)s->warmup));
	for (int i = 0; i < BENCH_STATUS_N; i++)
		json_object_object_add(st, bench_status_name(i), json_object_new_int64((int64_t)s->status[i]));
	json_object_object_add(o, "status", st);
	json_object_object_add(o, "elapsed_s", ms(run->elapsed_s));
	json_object_object_add(o, "window_s", ms(s->window_s));
	json_object_object_add(o, "output_tokens", json_object_new_int64(s->output_tokens));
	json_object_object_add(o, "request_throughput", ms(s->req_per_s));
	json_object_object_add(o, "output_tok_per_s", ms(s->tok_per_s));
	json_object_object_add(o, "sending_tok_per_s", ms(s->sending_tok_per_s));
	json_object_object_add(o, "concurrency_mean", s->window_s > 0 ? ms(s->concurrency_mean) : NULL);
	json_object_object_add(o, "concurrency_peak", s->window_s > 0 ?
			       json_object_new_int64((int64_t)s->concurrency_peak) : NULL);
	json_object_object_add(o, "ttft_ms", bench_dist_json(&s->ttft));
	json_object_object_add(o, "tpot_ms", bench_dist_json(&s->tpot));
	json_object_object_add(o, "itl_ms", bench_dist_json(&s->itl));
	json_object_object_add(o, "e2e_ms", bench_dist_json(&s->e2e));
	json_object_object_add(o, "queue_ms", bench_dist_json(&s->queue));
	json_object_object_add(o, "queue_share_ms", bench_dist_json(&s->queue_share));
	if (s->has_slo) {
		json_object_object_add(o, "slo_met", json_object_new_int64((int64_t)s->slo_met));
		json_object_object_add(o, "goodput", ms(s->goodput));
		json_object_object_add(o, "slo_attainment", ms(s->attainment));
	}
	return o;
}

void bench_table_head(FILE *f)
{
	fprintf(f, "%5s %6s %4s %5s %8s %8s  %-6s %5s %8s %8s %8s %8s %8s %8s %8s\n", "conc", "rate",
		"n", "ok", "req/s", "tok/s", "ms", "n", "mean", "sd", "p50", "p90", "p95", "p99", "max");
}

static void dist_row(FILE *f, const char *name, const struct bench_dist *d)
{
	if (!d->n) {	/* no request had this figure: dashes, not zeros */
		fprintf(f, "%43s  %-6s %5zu %8s %8s %8s %8s %8s %8s %8s\n", "", name, d->n, "-", "-",
			"-", "-", "-", "-", "-");
		return;
	}
	fprintf(f, "%43s  %-6s %5zu %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n", "", name, d->n,
		d->mean, d->sd, d->p50, d->p90, d->p95, d->p99, d->max);
}

void bench_table_cell(FILE *f, const struct bench_cell *cell, const struct bench_summary *s)
{
	char rate[16] = "closed";

	if (cell->rate > 0)
		snprintf(rate, sizeof(rate), "%.2f", cell->rate);
	fprintf(f, "%5d %6s %4zu %5zu %8.2f %8.1f\n", cell->concurrency, rate, s->requests,
		s->status[BENCH_OK], s->req_per_s, s->tok_per_s);
	dist_row(f, "TTFT", &s->ttft);
	dist_row(f, "TPOT", &s->tpot);
	dist_row(f, "ITL", &s->itl);
	dist_row(f, "E2E", &s->e2e);
	for (int i = 1; i < BENCH_STATUS_N; i++)
		if (s->status[i])
			fprintf(f, "%43s  %s: %zu\n", "", bench_status_name(i), s->status[i]);
	if (s->window_s > 0)
		fprintf(f, "%43s  in flight: %.2f mean, %zu at most\n", "", s->concurrency_mean,
			s->concurrency_peak);
	if (s->has_slo)
		fprintf(f, "%43s  SLO met by %zu of %zu (%.1f %%), goodput %.2f req/s\n", "",
			s->slo_met, s->requests, 100 * s->attainment, s->goodput);
}
