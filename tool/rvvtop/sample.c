// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/rows.h"
#include "clock.h"
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
 * The module's numbers, then the poller's latest reading and, into
 * @llama_before unless it is NULL, the one before. 0, or -ENOMEM.
 */
static int sample_take(struct sampler *sr, struct sample *s,
		       struct llama_reading *llama_before)
{
	int status;

	memset(s, 0, sizeof(*s));
	status = take_module(s, &sr->client, sr->tgid);
	s->taken = monotonic_s();
	s->wall = wall_s();
	if (!status && sr->poller) {
		s->has_llama = true;
		status = llama_poller_latest(sr->poller, &s->llama, llama_before);
	}
	return status;
}

void sample_free(struct sample *s)
{
	free(s->cpus);
	free(s->cpu_p99_ns);
	free(s->tasks);
	llama_reading_free(&s->llama);
	memset(s, 0, sizeof(*s));
}

/* Twice per refresh: most intervals then hold a reading taken within it. */
static double llama_period_s(double delay_s)
{
	return delay_s / 2;
}

int sampler_start(struct sampler *sr, uint32_t tgid, const struct llama_source *llama,
		  double delay_s, struct rvv_error *err)
{
	int status;

	memset(sr, 0, sizeof(*sr));
	sr->tgid = tgid;
	if (llama->url) {
		status = llama_poller_start(&sr->poller, llama, llama_period_s(delay_s), err);
		if (status)
			return status;
	}
	sr->n = 1;
	status = sample_take(sr, &sr->samples[0], NULL);
	return status ? rvv_fail(err, status, "no memory for a sample") : 0;
}

void sampler_set_delay(struct sampler *sr, double delay_s)
{
	if (sr->poller)
		llama_poller_set_period(sr->poller, llama_period_s(delay_s));
}

int sampler_next(struct sampler *sr, struct view *v)
{
	struct sample *prev = &sr->samples[(sr->n + 1) % 2];
	struct sample *cur = &sr->samples[sr->n % 2];
	struct llama_reading before = { 0 };
	int status;

	sample_free(cur);
	/*
	 * llama-server's rates run from the reading of the sample before to
	 * this one's, so that the intervals add up; or, while that sample had
	 * none yet, from the reading before this one's.
	 */
	status = sample_take(sr, cur, prev->llama.seq ? NULL : &before);
	if (!status && cur->llama.seq != prev->llama.seq) {
		llama_reading_free(&sr->llama_before);
		sr->llama_before = prev->llama.seq ? prev->llama : before;
		if (prev->llama.seq)
			prev->llama.slots = NULL;
		else
			before.slots = NULL;
	}
	llama_reading_free(&before);
	/* No new reading: from it to itself, so that the counts add up. */
	if (!status)
		status = view_build(prev, cur, cur->taken - prev->taken,
				    cur->llama.seq == prev->llama.seq ? &cur->llama : &sr->llama_before,
				    v);
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
	llama_reading_free(&sr->llama_before);
	llama_poller_stop(sr->poller);
	rvv_client_close(sr->client);
	memset(sr, 0, sizeof(*sr));
}
