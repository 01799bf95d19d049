// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/http.h"
#include "../lib/rows.h"
#include "sample.h"

#define LLAMA_TIMEOUT_MS	800

static int by_tid(const void *a, const void *b)
{
	uint32_t x = ((const struct rvv_task_row *)a)->tid;
	uint32_t y = ((const struct rvv_task_row *)b)->tid;

	return x < y ? -1 : x > y;
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

/* One endpoint's body if it answered 200, else NULL (with the reason). */
static char *llama_get(const char *url, const char *path, long *status,
		       struct llama_reading *l)
{
	struct rvv_http_reply reply;
	struct rvv_error err = { 0 };

	if (rvv_http_get(url, path, LLAMA_TIMEOUT_MS, &reply, &err)) {
		snprintf(l->why, sizeof(l->why), "%s", err.message);
		*status = 0;
		return NULL;
	}
	*status = reply.status;
	if (reply.status == 200)
		return reply.body;
	rvv_http_free(&reply);
	return NULL;
}

static int take_llama(struct llama_reading *l, const char *url)
{
	long status;
	char *body;

	body = llama_get(url, "/health", &status, l);
	l->state = rvv_llama_health_of(status, body) == RVV_LLAMA_UP ? LLAMA_UP :
		   status == 503 ? LLAMA_LOADING : LLAMA_DOWN;
	free(body);
	if (l->state != LLAMA_UP)
		return 0;
	body = llama_get(url, "/metrics", &status, l);
	l->has_metrics = body && !rvv_llama_parse_metrics(body, &l->metrics);
	if (!l->has_metrics && status != 200)
		l->state = LLAMA_NO_METRICS;	/* 501 without --metrics */
	free(body);
	body = llama_get(url, "/slots", &status, l);
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
		const char *llama_url)
{
	int status;

	memset(s, 0, sizeof(*s));
	status = take_module(s, client, tgid);
	if (!status && llama_url) {
		s->has_llama = true;
		status = take_llama(&s->llama, llama_url);
	}
	return status;
}

void sample_free(struct sample *s)
{
	free(s->cpus);
	free(s->tasks);
	free(s->llama.slots);
	memset(s, 0, sizeof(*s));
}
