// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "trials.h"

const char *bench_status_name(enum bench_status s)
{
	static const char *const names[BENCH_STATUS_N] = {
		"ok", "http_error", "stream_error", "truncated", "timeout", "connect_error",
	};

	return (unsigned)s < BENCH_STATUS_N ? names[s] : "?";
}

const char *bench_pct_name(enum bench_pct how)
{
	return how == BENCH_PCT_NEAREST ? "nearest-rank" : "linear";
}

static double nearest_rank(const double *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static double linear(const double *sorted, size_t n, double p)
{
	double h = p / 100.0 * (double)(n - 1);
	size_t lo = (size_t)floor(h);

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

double bench_percentile(const double *sorted, size_t n, double p, enum bench_pct how)
{
	if (n == 0)
		return NAN;
	if (how == BENCH_PCT_NEAREST)
		return nearest_rank(sorted, n, p);
	return linear(sorted, n, p);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void bench_sort(double *values, size_t n)
{
	qsort(values, n, sizeof(*values), cmp_double);
}

void bench_dist_of(double *values, size_t n, enum bench_pct how, struct bench_dist *d)
{
	struct bench_mean_sd m;

	memset(d, 0, sizeof(*d));
	d->n = n;
	/* No value, no figure: a cell whose requests all failed has no latency, not 0 ms. */
	d->mean = d->sd = d->p50 = d->p90 = d->p95 = d->p99 = d->max = NAN;
	if (n == 0)
		return;
	bench_sort(values, n);
	bench_mean_sd_of(values, n, &m);
	d->mean = m.mean;
	d->sd = m.sd;
	d->p50 = bench_percentile(values, n, 50, how);
	d->p90 = bench_percentile(values, n, 90, how);
	d->p95 = bench_percentile(values, n, 95, how);
	d->p99 = bench_percentile(values, n, 99, how);
	d->max = values[n - 1];
}

/* TTFT and E2E run from the scheduled time: an open loop's client-side queue counts. */
double bench_ttft_ms(const struct bench_record *r)
{
	return r->first_ns ? (double)(r->first_ns - r->sched_ns) / 1e6 : -1;
}

double bench_e2e_ms(const struct bench_record *r)
{
	return r->last_ns ? (double)(r->last_ns - r->sched_ns) / 1e6 : -1;
}

double bench_tpot_ms(const struct bench_record *r)
{
	if (!r->first_ns || r->output_tokens < 2)
		return -1;
	return (bench_e2e_ms(r) - bench_ttft_ms(r)) / (double)(r->output_tokens - 1);
}

/* A measured request that streamed a first token: its TTFT is in the statistics. */
static bool has_ttft(const struct bench_record *r)
{
	return !r->warmup && r->status == BENCH_OK && r->first_ns;
}

int bench_ttfts(const struct bench_record *recs, size_t n, double **ttft_ms, size_t *n_ttft,
		struct rvv_error *err)
{
	size_t k = 0;

	*ttft_ms = malloc(sizeof(double) * (n + 1));
	if (!*ttft_ms)
		return rvv_fail(err, -ENOMEM, "TTFTs of %zu requests: out of memory", n);
	for (size_t i = 0; i < n; i++)
		if (has_ttft(&recs[i]))
			(*ttft_ms)[k++] = bench_ttft_ms(&recs[i]);
	*n_ttft = k;
	return 0;
}

static bool meets(const struct bench_record *r, const struct bench_slo *slo)
{
	double tpot = bench_tpot_ms(r);

	if (r->status != BENCH_OK)
		return false;
	if (slo->ttft_ms > 0 && bench_ttft_ms(r) > slo->ttft_ms)
		return false;
	if (slo->tpot_ms > 0 && tpot > slo->tpot_ms)
		return false;
	return !(slo->e2e_ms > 0 && bench_e2e_ms(r) > slo->e2e_ms);
}

/* The output tokens of measured request @r whose events came by @until. */
static double tokens_by(const struct bench_record *r, int64_t until)
{
	double per = (double)r->output_tokens / (double)r->token_events, tokens = 0;
	double at_ms = (double)r->first_ns / 1e6;

	if (r->first_ns > until)
		return 0;
	tokens += per;
	for (size_t g = 0; g < r->n_gaps; g++) {
		at_ms += r->gaps_ms[g];
		if (at_ms * 1e6 > (double)until)
			break;
		tokens += per;
	}
	return tokens;
}

/*
 * Output tokens per second from the first measured schedule @t0 to the last
 * measured send: after it no request enters and those in flight drain at
 * falling concurrency, a tail whose share of the window differs by arm. An
 * event carries its request's tokens spread evenly over its events.
 */
static double sending_tok_per_s(const struct bench_record *recs, size_t n, int64_t t0)
{
	int64_t t1 = 0;
	double tokens = 0;

	for (size_t i = 0; i < n; i++)
		if (!recs[i].warmup && recs[i].send_ns > t1)
			t1 = recs[i].send_ns;
	if (t1 <= t0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (has_ttft(&recs[i]) && recs[i].token_events > 0 && recs[i].output_tokens > 0)
			tokens += tokens_by(&recs[i], t1);
	return tokens / ((double)(t1 - t0) / 1e9);
}

size_t bench_in_flight_at(const struct bench_record *recs, size_t n, int64_t t)
{
	size_t at = 0;

	/* Unsent records have no end (0), so they never count. */
	for (size_t j = 0; j < n; j++)
		at += recs[j].send_ns <= t && t < recs[j].end_ns;
	return at;
}

/*
 * The requests in flight (sent to ended, warm-up included) over the window
 * [@t0, @t1]: their time-weighted mean and their most at once, which is
 * reached at some send.
 */
static void achieved_concurrency(const struct bench_record *recs, size_t n, int64_t t0,
				 int64_t t1, struct bench_summary *s)
{
	double busy_ns = 0;

	for (size_t i = 0; i < n; i++) {
		const struct bench_record *r = &recs[i];
		int64_t from = r->send_ns > t0 ? r->send_ns : t0;
		int64_t to = r->end_ns < t1 ? r->end_ns : t1;
		size_t at_once;

		/* Never sent (the run stopped first): no end either. */
		if (r->end_ns <= r->send_ns)
			continue;
		if (to > from)
			busy_ns += (double)(to - from);
		at_once = bench_in_flight_at(recs, n, r->send_ns);
		if (r->send_ns >= t0 && r->send_ns < t1 && at_once > s->concurrency_peak)
			s->concurrency_peak = at_once;
	}
	s->concurrency_mean = busy_ns / (double)(t1 - t0);
}

/* Scratch arrays for the distributions, one allocation. */
enum { V_TTFT, V_TPOT, V_E2E, V_QUEUE, V_SHARE, V_N };

int bench_summarize(const struct bench_record *recs, size_t n, const struct bench_slo *slo,
		    enum bench_pct how, struct bench_summary *s, struct rvv_error *err)
{
	size_t len[V_N] = { 0 }, n_itl = 0, k = 0;
	int64_t t0 = INT64_MAX, t1 = 0;
	double *v[V_N], *itl, *buf;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++)
		n_itl += recs[i].warmup ? 0 : recs[i].n_gaps;
	buf = malloc(sizeof(double) * (n * V_N + n_itl + 1));
	if (!buf)
		return rvv_fail(err, -ENOMEM, "statistics of %zu requests: out of memory", n);
	for (int j = 0; j < V_N; j++)
		v[j] = buf + (size_t)j * n;
	itl = buf + n * V_N;
	s->has_slo = slo && (slo->ttft_ms > 0 || slo->tpot_ms > 0 || slo->e2e_ms > 0);
	for (size_t i = 0; i < n; i++) {
		const struct bench_record *r = &recs[i];

		if (r->warmup) {
			s->warmup++;
			continue;
		}
		s->requests++;
		s->status[r->status]++;
		t0 = r->sched_ns < t0 ? r->sched_ns : t0;
		t1 = r->end_ns > t1 ? r->end_ns : t1;
		if (s->has_slo && meets(r, slo))
			s->slo_met++;
		if (r->status != BENCH_OK)
			continue;
		s->output_tokens += r->output_tokens;
		v[V_QUEUE][len[V_QUEUE]++] = (double)(r->send_ns - r->sched_ns) / 1e6;
		if (has_ttft(r)) {
			v[V_TTFT][len[V_TTFT]++] = bench_ttft_ms(r);
			v[V_E2E][len[V_E2E]++] = bench_e2e_ms(r);
		}
		if (bench_tpot_ms(r) >= 0)
			v[V_TPOT][len[V_TPOT]++] = bench_tpot_ms(r);
		if (r->first_ns && r->prompt_ms >= 0)
			v[V_SHARE][len[V_SHARE]++] = bench_ttft_ms(r) - r->prompt_ms;
		for (size_t g = 0; g < r->n_gaps; g++)
			itl[k++] = r->gaps_ms[g];
	}
	bench_dist_of(v[V_TTFT], len[V_TTFT], how, &s->ttft);
	bench_dist_of(v[V_TPOT], len[V_TPOT], how, &s->tpot);
	bench_dist_of(v[V_E2E], len[V_E2E], how, &s->e2e);
	bench_dist_of(v[V_QUEUE], len[V_QUEUE], how, &s->queue);
	bench_dist_of(v[V_SHARE], len[V_SHARE], how, &s->queue_share);
	bench_dist_of(itl, k, how, &s->itl);
	free(buf);
	s->sending_tok_per_s = s->requests ? sending_tok_per_s(recs, n, t0) : NAN;
	if (s->requests && t1 > t0) {
		s->window_s = (double)(t1 - t0) / 1e9;
		s->req_per_s = (double)s->status[BENCH_OK] / s->window_s;
		s->tok_per_s = (double)s->output_tokens / s->window_s;
		s->goodput = (double)s->slo_met / s->window_s;
		achieved_concurrency(recs, n, t0, t1, s);
	}
	if (s->has_slo && s->requests)
		s->attainment = (double)s->slo_met / (double)s->requests;
	return 0;
}
