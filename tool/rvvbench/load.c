// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "load.h"
#include "prompt.h"

/* One request in flight. */
struct transfer {
	CURL *easy;
	struct curl_slist *headers;
	char *body;
	struct sse_parser sse;
	struct bench_run *run;
	const struct bench_endpoint *endpoint;
	size_t rec;		/* index into run->recs: they move when it grows */
	bool ended;		/* the endpoint's last event came */
	char reply[160];	/* the start of a non-200 body */
	size_t reply_len;
	struct rvv_error err;	/* why a stream went wrong */
	struct transfer *prev, *next;	/* in flight */
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t rel_ns(const struct bench_run *run)
{
	return now_ns() - run->t0_ns;
}

static int add_gap(struct bench_record *r, double gap, struct rvv_error *err)
{
	double *g;

	if (r->n_gaps == r->gaps_cap) {
		r->gaps_cap = r->gaps_cap ? 2 * r->gaps_cap : 64;
		g = realloc(r->gaps_ms, r->gaps_cap * sizeof(*g));
		if (!g)
			return rvv_fail(err, -ENOMEM, "token gaps: out of memory");
		r->gaps_ms = g;
	}
	r->gaps_ms[r->n_gaps++] = gap;
	return 0;
}

static int on_event(void *ctx, enum sse_field field, const char *data, size_t length,
		    struct rvv_error *err)
{
	struct transfer *t = ctx;
	struct bench_record *r = &t->run->recs[t->rec];
	struct bench_event ev;
	int64_t now = rel_ns(t->run);
	int rc = t->endpoint->classify(field, data, length, &ev, err);

	if (rc)
		return rc;
	if (ev.error)
		return rvv_fail(err, -EPROTO, "error event after %ld token events: %s",
				r->token_events, ev.message);
	if (ev.token) {
		if (r->first_ns) {
			rc = add_gap(r, (double)(now - r->last_ns) / 1e6, err);
			if (rc)
				return rc;
		} else {
			r->first_ns = now;
		}
		r->last_ns = now;
		r->token_events++;
	}
	if (ev.output_tokens >= 0)
		r->output_tokens = ev.output_tokens;
	if (ev.prompt_tokens >= 0)
		r->prompt_tokens = ev.prompt_tokens;
	if (ev.prompt_ms >= 0)
		r->prompt_ms = ev.prompt_ms;
	if (ev.predicted_ms >= 0)
		r->predicted_ms = ev.predicted_ms;
	if (ev.slot >= 0)
		r->slot = ev.slot;
	t->ended |= ev.end;
	return 0;
}

static size_t on_write(char *ptr, size_t size, size_t nmemb, void *ctx)
{
	struct transfer *t = ctx;
	size_t n = size * nmemb, keep;
	long code = 0;

	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &code);
	if (code != 200) {
		keep = sizeof(t->reply) - 1 - t->reply_len;
		keep = n < keep ? n : keep;
		memcpy(t->reply + t->reply_len, ptr, keep);
		t->reply_len += keep;
		t->reply[t->reply_len] = '\0';
		return n;
	}
	/* A short count makes libcurl stop this transfer with CURLE_WRITE_ERROR. */
	return sse_feed(&t->sse, ptr, n, on_event, t, &t->err) ? 0 : n;
}

static void transfer_free(struct transfer *t)
{
	if (!t)
		return;
	curl_easy_cleanup(t->easy);
	curl_slist_free_all(t->headers);
	free(t->body);
	sse_free(&t->sse);
	free(t);
}

static int new_record(struct bench_run *run, int64_t sched, bool warmup, struct rvv_error *err)
{
	struct bench_record *r;

	if (run->n == run->cap) {
		run->cap = run->cap ? 2 * run->cap : 64;
		r = realloc(run->recs, run->cap * sizeof(*r));
		if (!r)
			return rvv_fail(err, -ENOMEM, "%zu request records: out of memory", run->cap);
		run->recs = r;
	}
	r = &run->recs[run->n];
	memset(r, 0, sizeof(*r));
	r->index = (long)run->n;
	r->warmup = warmup;
	r->sched_ns = sched;
	r->output_tokens = r->prompt_tokens = -1;
	r->prompt_ms = r->predicted_ms = -1;
	r->slot = -1;
	run->n++;
	return 0;
}

static int start(const struct bench_config *cfg, CURLM *multi, struct bench_run *run,
		 size_t rec, const char *url, struct transfer **flight, struct rvv_error *err)
{
	struct transfer *t = calloc(1, sizeof(*t));
	struct bench_request_spec spec = { .n_predict = cfg->n_predict, .ignore_eos = cfg->ignore_eos };
	char prompt[BENCH_PROMPT_SIZE];

	if (!t)
		return rvv_fail(err, -ENOMEM, "a request: out of memory");
	if (cfg->prompts) {
		const struct bench_prompt_entry *e = &cfg->prompts->entries[rec % cfg->prompts->n];

		spec.prompt = e->prompt;
		if (e->output_len > 0)
			spec.n_predict = e->output_len;
	} else {
		bench_prompt(cfg->seed, (long)rec, cfg->prompt_words, prompt, sizeof(prompt));
		spec.prompt = prompt;
	}
	t->run = run;
	t->rec = rec;
	t->endpoint = cfg->endpoint;
	sse_init(&t->sse);
	t->body = cfg->endpoint->body(&spec, err);
	t->easy = curl_easy_init();
	/* No "Expect: 100-continue": it would hold a larger body back for a second. */
	t->headers = curl_slist_append(NULL, "Content-Type: application/json");
	t->headers = t->headers ? curl_slist_append(t->headers, "Expect:") : NULL;
	if (!t->body || !t->easy || !t->headers) {
		transfer_free(t);
		return err && err->code ? err->code : rvv_fail(err, -ENOMEM, "a request: out of memory");
	}
	curl_easy_setopt(t->easy, CURLOPT_URL, url);
	curl_easy_setopt(t->easy, CURLOPT_HTTPHEADER, t->headers);
	curl_easy_setopt(t->easy, CURLOPT_POSTFIELDS, t->body);
	curl_easy_setopt(t->easy, CURLOPT_WRITEFUNCTION, on_write);
	curl_easy_setopt(t->easy, CURLOPT_WRITEDATA, t);
	curl_easy_setopt(t->easy, CURLOPT_PRIVATE, t);
	curl_easy_setopt(t->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(t->easy, CURLOPT_TIMEOUT_MS, cfg->timeout_ms);
	curl_easy_setopt(t->easy, CURLOPT_CONNECTTIMEOUT_MS, cfg->timeout_ms);
	run->recs[rec].send_ns = rel_ns(run);
	if (curl_multi_add_handle(multi, t->easy) != CURLM_OK) {
		transfer_free(t);
		return rvv_fail(err, -EIO, "libcurl would not take request %zu", rec);
	}
	t->next = *flight;
	if (*flight)
		(*flight)->prev = t;
	*flight = t;
	return 0;
}

/* What a finished transfer was. */
static void finish(struct transfer *t, CURLcode result)
{
	struct bench_record *r = &t->run->recs[t->rec];
	curl_off_t first_byte_us = 0;

	r->end_ns = rel_ns(t->run);
	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &r->http_status);
	/* From the transfer's start, which libcurl takes as it is added. */
	if (!curl_easy_getinfo(t->easy, CURLINFO_STARTTRANSFER_TIME_T, &first_byte_us) &&
	    first_byte_us > 0)
		r->headers_ns = r->send_ns + (int64_t)first_byte_us * 1000;
	r->keepalives = t->sse.comments;
	if (t->err.code) {
		r->status = BENCH_STREAM_ERROR;
		snprintf(r->error, sizeof(r->error), "%s", t->err.message);
	} else if (result == CURLE_OPERATION_TIMEDOUT) {
		r->status = BENCH_TIMEOUT;
		snprintf(r->error, sizeof(r->error), "no end after %ld token events: %s",
			 r->token_events, curl_easy_strerror(result));
	} else if (result == CURLE_COULDNT_CONNECT || result == CURLE_COULDNT_RESOLVE_HOST) {
		r->status = BENCH_CONNECT_ERROR;
		snprintf(r->error, sizeof(r->error), "%s", curl_easy_strerror(result));
	} else if (r->http_status && r->http_status != 200) {
		r->status = BENCH_HTTP_ERROR;
		snprintf(r->error, sizeof(r->error), "HTTP %ld: %s", r->http_status, t->reply);
	} else if (!t->ended) {
		r->status = BENCH_TRUNCATED;
		snprintf(r->error, sizeof(r->error), "closed after %ld token events without a last event (%s)",
			 r->token_events, curl_easy_strerror(result));
	} else if (r->output_tokens < 0) {
		r->status = BENCH_STREAM_ERROR;
		snprintf(r->error, sizeof(r->error), "the stream ended without the server's token count");
	} else {
		r->status = BENCH_OK;
	}
}

static void unlink_transfer(CURLM *multi, struct transfer *t, struct transfer **flight)
{
	curl_multi_remove_handle(multi, t->easy);
	if (t->prev)
		t->prev->next = t->next;
	else
		*flight = t->next;
	if (t->next)
		t->next->prev = t->prev;
	transfer_free(t);
}

/* Takes every finished transfer off @multi; returns how many. */
static int reap(CURLM *multi, struct transfer **flight)
{
	struct transfer *t;
	CURLMsg *msg;
	int left, done = 0;

	while ((msg = curl_multi_info_read(multi, &left))) {
		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&t);
		finish(t, msg->data.result);
		unlink_transfer(multi, t, flight);
		done++;
	}
	return done;
}

/* Whether a request due at @due (relative ns) is still part of the cell. */
static bool wanted(const struct bench_config *cfg, const struct bench_run *run, int64_t due)
{
	if (cfg->requests > 0)
		return run->n < (size_t)cfg->requests;
	return due < (int64_t)(cfg->duration_s * 1e9);
}

struct loop {
	struct transfer *flight;	/* the transfers in flight */
	size_t started, done;
	int in_flight;
	int64_t next_due;	/* the open loop's next arrival */
	int64_t *plan;		/* its due times, when --requests counts them; else NULL */
	struct bench_rng rng;
};

/* The due time of the open loop's next request: planned, or one gap on. */
static int64_t next_arrival(const struct bench_config *cfg, const struct bench_cell *cell,
			    const struct bench_run *run, struct loop *l)
{
	if (l->plan)
		return run->n < (size_t)cfg->requests ? l->plan[run->n] : INT64_MAX;
	return l->next_due + (int64_t)(bench_arrival_gap(&l->rng, cell->rate, cfg->burstiness) * 1e9);
}

/* Schedules what is due and starts what may start; -errno if it cannot. */
static int admit(const struct bench_config *cfg, const struct bench_cell *cell, CURLM *multi,
		 struct bench_run *run, struct loop *l, const char *url, struct rvv_error *err)
{
	int64_t now = rel_ns(run);
	size_t warm = cell->rate > 0 ? 1 : (size_t)cell->concurrency;
	int rc;

	if (cell->rate > 0) {
		while (l->next_due <= now && wanted(cfg, run, l->next_due)) {
			rc = new_record(run, l->next_due, run->n < warm, err);
			if (rc)
				return rc;
			l->next_due = next_arrival(cfg, cell, run, l);
		}
	}
	while (l->in_flight < cell->concurrency) {
		if (l->started == run->n) {
			if (cell->rate > 0 || !wanted(cfg, run, now))
				break;
			rc = new_record(run, now, run->n < warm, err);
			if (rc)
				return rc;
		}
		rc = start(cfg, multi, run, l->started, url, &l->flight, err);
		if (rc)
			return rc;
		l->started++;
		l->in_flight++;
	}
	return 0;
}

static size_t planned(const struct bench_config *cfg, const struct bench_run *run)
{
	return cfg->requests > 0 ? (size_t)cfg->requests : run->n;
}

int bench_run_cell(const struct bench_config *cfg, const struct bench_cell *cell,
		   struct bench_run *run, struct rvv_error *err)
{
	struct loop l = { 0 };
	int64_t last_progress = 0;
	CURLM *multi;
	char *url;
	int rc = 0, running, n;

	memset(run, 0, sizeof(*run));
	if (asprintf(&url, "%s%s", cfg->url, cfg->endpoint->path) < 0)
		return rvv_fail(err, -ENOMEM, "URL: out of memory");
	multi = curl_multi_init();
	if (!multi) {
		free(url);
		return rvv_fail(err, -ENOMEM, "libcurl: no multi handle");
	}
	bench_rng_seed(&l.rng, cfg->seed);
	if (cell->rate > 0 && cfg->requests > 0) {
		l.plan = malloc(sizeof(*l.plan) * (size_t)cfg->requests);
		if (!l.plan) {
			curl_multi_cleanup(multi);
			free(url);
			return rvv_fail(err, -ENOMEM, "%ld arrivals: out of memory", cfg->requests);
		}
		bench_arrival_plan(&l.rng, cell->rate, cfg->burstiness, &cfg->ramp,
				   (size_t)cfg->requests, l.plan);
	}
	run->t0_ns = now_ns();
	l.next_due = cell->rate > 0 ? 0 : INT64_MAX;
	for (;;) {
		if (cfg->interrupted && cfg->interrupted()) {
			rc = rvv_fail(err, -EINTR, "stopped by signal %d (%s)", cfg->interrupted(),
				      strsignal(cfg->interrupted()));
			break;
		}
		rc = admit(cfg, cell, multi, run, &l, url, err);
		if (rc)
			break;
		if (l.in_flight == 0 && l.started == run->n &&
		    !(cell->rate > 0 && wanted(cfg, run, l.next_due)))
			break;
		if (curl_multi_perform(multi, &running) != CURLM_OK) {
			rc = rvv_fail(err, -EIO, "libcurl's multi interface failed");
			break;
		}
		n = reap(multi, &l.flight);
		l.in_flight -= n;
		l.done += (size_t)n;
		if (cfg->progress && (n || rel_ns(run) - last_progress > 500000000)) {
			last_progress = rel_ns(run);
			cfg->progress(cfg->progress_ctx, l.done, planned(cfg, run),
				      (double)last_progress / 1e9, false);
		}
		if (n)
			continue;
		/*
		 * Sleep until a socket stirs, the next arrival, or 100 ms. Once every
		 * arrival exists the next due time is past and no arrival: waiting on
		 * it would spin, taking a CPU from the server.
		 */
		int wait_ms = 100;
		if (cell->rate > 0 && l.next_due != INT64_MAX && wanted(cfg, run, l.next_due)) {
			int64_t until = (l.next_due - rel_ns(run)) / 1000000;
			wait_ms = until < 0 ? 0 : until < wait_ms ? (int)until : wait_ms;
		}
		if (curl_multi_poll(multi, NULL, 0, wait_ms, NULL) != CURLM_OK) {
			rc = rvv_fail(err, -EIO, "libcurl's multi interface failed to wait");
			break;
		}
	}
	run->elapsed_s = (double)rel_ns(run) / 1e9;
	/* Only after an error can transfers be left: end them, as records. */
	while (l.flight) {
		finish(l.flight, CURLE_ABORTED_BY_CALLBACK);
		snprintf(run->recs[l.flight->rec].error, sizeof(run->recs[0].error),
			 "the run stopped: %.290s", err ? err->message : "");
		unlink_transfer(multi, l.flight, &l.flight);
	}
	curl_multi_cleanup(multi);
	free(l.plan);
	free(url);
	if (cfg->progress && !rc)
		cfg->progress(cfg->progress_ctx, l.done, planned(cfg, run), run->elapsed_s, true);
	return rc;
}

void bench_run_free(struct bench_run *run)
{
	for (size_t i = 0; i < run->n; i++)
		free(run->recs[i].gaps_ms);
	free(run->recs);
	memset(run, 0, sizeof(*run));
}
