// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/http.h"
#include "../lib/rows.h"
#include "sample.h"
#include "view.h"

static int by_tid(const void *a, const void *b)
{
	uint32_t x = ((const struct rvv_task_row *)a)->tid;
	uint32_t y = ((const struct rvv_task_row *)b)->tid;

	return x < y ? -1 : x > y;
}

/* Each CPU's saving-switch p99 since reset: one GET_HIST per CPU. */
static int take_cpu_p99(struct sample *s, struct rvv_client *client,
			struct rvv_error *err)
{
	struct rvv_latency *hist;
	int i, status = 0;

	s->cpu_p99_ns = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*s->cpu_p99_ns));
	hist = malloc(sizeof(*hist));
	if (!s->cpu_p99_ns || !hist)
		status = -ENOMEM;
	for (i = 0; i < s->nr_cpus && !status; i++) {
		status = rvv_client_get_hist(client, RVVSTAT_LAT_SWITCH_SAVED,
					     (int)s->cpus[i].cpu, hist, err);
		s->cpu_p99_ns[i] = hist->count ? hist->p99_ns : 0;
	}
	free(hist);
	return status;
}

static int take_module(struct sample *s, struct rvv_client **client,
		       uint32_t tgid)
{
	struct rvv_error err = { 0 };
	size_t nr_cpus = 0;
	int status = 0;

	if (!*client)
		status = rvv_client_open(client, &err);
	if (!status)
		status = rvv_client_get_info(*client, &s->info, &err);
	if (!status)
		status = rvv_client_get_summary(*client, &s->summary, &err);
	if (!status)
		status = rvv_collect_cpus(*client, &s->cpus, &nr_cpus, &err);
	s->nr_cpus = (int)nr_cpus;
	if (!status)
		status = take_cpu_p99(s, *client, &err);
	if (!status)
		status = rvv_collect_tasks(*client, tgid, &s->tasks, &s->nr_tasks, &err);
	/* In tid order, so that two samples join in one pass. */
	if (!status)
		qsort(s->tasks, s->nr_tasks, sizeof(*s->tasks), by_tid);
	if (status == -ENOMEM)
		return status;
	s->has_module = !status;
	if (status) {
		snprintf(s->module_why, sizeof(s->module_why), "%s", err.message);
		/* Reconnect next time: the module may come back as a new one. */
		rvv_client_close(*client);
		*client = NULL;
	}
	return 0;
}

/*
 * One endpoint's body if it answered 200, else NULL with the reason in @why
 * (@size bytes): the transport's error, or the status it answered.
 */
static char *llama_get(const struct llama_source *src, const char *path, long *status,
		       char *why, size_t size)
{
	struct rvv_http_reply reply;
	struct rvv_error err = { 0 };

	if (rvv_http_get(src->url, path, src->timeout_ms, src->api_key, &reply, &err)) {
		snprintf(why, size, "%s", err.message);
		*status = 0;
		return NULL;
	}
	*status = reply.status;
	if (reply.status == 200)
		return reply.body;
	snprintf(why, size, "%s%s answered HTTP %ld%s", src->url, path, reply.status,
		 reply.status != 401 ? "" : src->api_key ? ": not the server's API key" :
		 ": give its API key (LLAMA_API_KEY=... or --llama-key)");
	rvv_http_free(&reply);
	return NULL;
}

static int take_llama(struct llama_reading *l, const struct llama_source *src)
{
	struct rvv_error err = { 0 };
	char slots_why[sizeof(l->why)];
	long status;
	char *body;

	body = llama_get(src, "/health", &status, l->why, sizeof(l->why));
	l->state = rvv_llama_health_of(status, body) == RVV_LLAMA_UP ? LLAMA_UP :
		   status == 503 ? LLAMA_LOADING : LLAMA_DOWN;
	free(body);
	if (l->state != LLAMA_UP)
		return 0;
	l->why[0] = '\0';
	body = llama_get(src, "/metrics", &status, l->why, sizeof(l->why));
	if (body && rvv_llama_parse_metrics(body, &l->metrics, &err))
		snprintf(l->why, sizeof(l->why), "%s", err.message);
	l->has_metrics = !l->why[0];
	if (status == 501)	/* llama-server without --metrics */
		l->why[0] = '\0';
	if (!l->has_metrics)
		l->state = status == 501 ? LLAMA_NO_METRICS : LLAMA_METRICS_FAILED;
	free(body);
	/* No /slots is a way to run it (--no-slots): the panel says so. */
	body = llama_get(src, "/slots", &status, slots_why, sizeof(slots_why));
	if (status == 401 && !l->why[0])	/* the key: worth saying */
		snprintf(l->why, sizeof(l->why), "%s", slots_why);
	if (body) {
		l->slots = malloc(sizeof(*l->slots));
		if (!l->slots) {
			free(body);
			return -ENOMEM;
		}
		l->has_slots = !rvv_llama_parse_slots(body, l->slots);
	}
	free(body);
	return 0;
}

int sample_take(struct sample *s, struct rvv_client **client, uint32_t tgid,
		const struct llama_source *llama)
{
	int status;

	memset(s, 0, sizeof(*s));
	status = take_module(s, client, tgid);
	if (!status && llama->url) {
		s->has_llama = true;
		status = take_llama(&s->llama, llama);
	}
	return status;
}

void sample_free(struct sample *s)
{
	free(s->cpus);
	free(s->cpu_p99_ns);
	free(s->tasks);
	free(s->llama.slots);
	memset(s, 0, sizeof(*s));
}

double monotonic_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int sampler_start(struct sampler *sr, uint32_t tgid, const struct llama_source *llama)
{
	memset(sr, 0, sizeof(*sr));
	sr->tgid = tgid;
	sr->llama = *llama;
	sr->n = 1;
	sr->taken[0] = monotonic_s();
	return sample_take(&sr->samples[0], &sr->client, tgid, llama);
}

int sampler_next(struct sampler *sr, struct view *v)
{
	struct sample *prev = &sr->samples[(sr->n + 1) % 2];
	struct sample *cur = &sr->samples[sr->n % 2];
	int status;

	sample_free(cur);
	status = sample_take(cur, &sr->client, sr->tgid, &sr->llama);
	sr->taken[sr->n % 2] = monotonic_s();
	if (!status)
		status = view_build(prev, cur, sr->taken[sr->n % 2] - sr->taken[(sr->n + 1) % 2], v);
	sr->n++;
	return status;
}

const struct sample *sampler_newest(const struct sampler *sr)
{
	return &sr->samples[(sr->n + 1) % 2];
}

struct rvv_client *sampler_client(const struct sampler *sr)
{
	return sampler_newest(sr)->has_module ? sr->client : NULL;
}

void sampler_stop(struct sampler *sr)
{
	sample_free(&sr->samples[0]);
	sample_free(&sr->samples[1]);
	rvv_client_close(sr->client);
	memset(sr, 0, sizeof(*sr));
}
