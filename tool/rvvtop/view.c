// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/* Counter growth; false if it went back (a reset or a reload). */
static bool grew(uint64_t before, uint64_t after, uint64_t *delta)
{
	*delta = after - before;
	return after >= before;
}

/* Rates from two counter arrays and bytes; false if anything went back. */
static bool rates_of(const uint64_t *a, const uint64_t *b, uint64_t bytes_a,
		     uint64_t bytes_b, double seconds, struct rates *r)
{
	uint64_t user, kernel, invol, restores, bytes;

	if (!grew(a[RVVSTAT_SAVES_USER], b[RVVSTAT_SAVES_USER], &user) ||
	    !grew(a[RVVSTAT_SAVES_KERNEL], b[RVVSTAT_SAVES_KERNEL], &kernel) ||
	    !grew(a[RVVSTAT_SAVES_INVOLUNTARY], b[RVVSTAT_SAVES_INVOLUNTARY], &invol) ||
	    !grew(a[RVVSTAT_RESTORES_PERFORMED], b[RVVSTAT_RESTORES_PERFORMED], &restores) ||
	    !grew(bytes_a, bytes_b, &bytes))
		return false;
	r->saved = user + kernel;
	r->involuntary = invol;
	r->saves = (double)(user + kernel) / seconds;
	r->restores = (double)restores / seconds;
	r->bytes = (double)bytes / seconds;
	r->involuntary_pct = user + kernel ? 100.0 * (double)invol / (double)(user + kernel) : 0;
	return true;
}

static const struct rvv_cpu_row *cpu_in(const struct sample *s, uint32_t cpu)
{
	int i;

	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

/*
 * The same thread (tid and tgid) in @s, or NULL. Both samples are in tid
 * order and asked in that order: *@from walks @s once per interval.
 */
static const struct rvv_task_row *task_in(const struct sample *s, size_t *from,
					  const struct rvv_task_row *t)
{
	while (*from < s->nr_tasks && s->tasks[*from].tid < t->tid)
		(*from)++;
	if (*from < s->nr_tasks && s->tasks[*from].tid == t->tid &&
	    s->tasks[*from].tgid == t->tgid)
		return &s->tasks[*from];
	return NULL;
}

static const struct {
	const char *name, *advice;
} llama_states[LLAMA_NR_STATES] = {
	[LLAMA_WAITING] = { "waiting", "the first request to llama-server is under way" },
	[LLAMA_UP] = { "up", "" },
	[LLAMA_LOADING] = { "loading", "the model is loading; rates start when it answers" },
	[LLAMA_DOWN] = { "down", "no answer: is llama-server running at this --llama URL?" },
	[LLAMA_NO_METRICS] = { "metrics disabled",
			       "start llama-server with --metrics for completed-token counts" },
	[LLAMA_METRICS_FAILED] = { "metrics unreadable",
				   "/metrics did not give its counts this time; live rates go on" },
};

const char *llama_state_name(enum llama_state state)
{
	return llama_states[state].name;
}

const char *llama_state_advice(enum llama_state state)
{
	return llama_states[state].advice;
}

/*
 * From reading @a (NULL: none yet) to @b, beside the module's @saves over
 * @seconds (< 0: no count for this interval). The readings keep their own
 * times: the poller takes them apart from the module's samples.
 */
static void build_llama(const struct llama_reading *a, const struct llama_reading *b,
			double seconds, int64_t saves, struct llama_view *l)
{
	l->reading_from = a ? a->seq : 0;
	l->reading_to = b->seq;
	l->reading_taken = b->taken;
	l->no_new_reading = a && a->seq == b->seq;
	l->seconds = a ? b->taken - a->taken : 0;
	l->state = b->state;
	l->why = b->why[0] ? b->why : NULL;
	l->slots_why = b->slots_why[0] ? b->slots_why : NULL;
	if (b->has_slots) {
		l->has_slots = true;
		l->slots = b->slots->nr;
		l->busy_slots = rvv_llama_busy_slots(b->slots);
	}
	if (a && a->has_slots && b->has_slots && l->seconds > 0) {
		l->has_live = true;
		l->decoded = rvv_llama_decoded_between(a->slots, b->slots);
		l->tokens_per_s = (double)l->decoded / l->seconds;
	}
	if (b->has_metrics) {
		l->has_gauges = true;
		l->processing = b->metrics.value[RVV_LLAMA_REQUESTS_PROCESSING];
		l->deferred = b->metrics.value[RVV_LLAMA_REQUESTS_DEFERRED];
	}
	if (a && a->has_metrics && b->has_metrics) {
		const double *x = a->metrics.value, *y = b->metrics.value;

		l->restarted = y[RVV_LLAMA_PREDICTED_TOKENS] < x[RVV_LLAMA_PREDICTED_TOKENS] ||
			       y[RVV_LLAMA_PROMPT_TOKENS] < x[RVV_LLAMA_PROMPT_TOKENS];
		l->has_metrics = !l->restarted;
		l->prompt_done = y[RVV_LLAMA_PROMPT_TOKENS] - x[RVV_LLAMA_PROMPT_TOKENS];
		l->predicted_done = y[RVV_LLAMA_PREDICTED_TOKENS] - x[RVV_LLAMA_PREDICTED_TOKENS];
	}
	if (l->has_live && l->decoded && saves >= 0) {
		l->has_join = true;
		l->saves_per_generating_s = (double)saves / seconds;
		l->saves_per_token = l->saves_per_generating_s / l->tokens_per_s;
	}
}

static int build_tasks(const struct sample *prev, const struct sample *cur,
		       double seconds, struct view *v)
{
	size_t i, from = 0;

	v->tasks = calloc(cur->nr_tasks ? cur->nr_tasks : 1, sizeof(*v->tasks));
	if (!v->tasks)
		return -ENOMEM;
	for (i = 0; i < cur->nr_tasks; i++) {
		const struct rvv_task_row *t = &cur->tasks[i];
		const struct rvv_task_row *was = prev ? task_in(prev, &from, t) : NULL;
		struct task_view *tv = &v->tasks[v->nr_tasks];
		static const uint64_t zero[RVVSTAT_MAX_COUNTERS];

		/* A thread new in this interval counts from zero. */
		if (!rates_of(was ? was->counters : zero, t->counters,
			      was ? was->bytes : 0, t->bytes, seconds, &tv->r))
			continue;	/* a reset in between: no rate */
		tv->tid = t->tid;
		tv->tgid = t->tgid;
		memcpy(tv->comm, t->comm, sizeof(tv->comm));
		tv->cpu = t->cpu;
		tv->hint = t->hint;
		tv->switch_saved_p99_ns = t->switch_saved_p99_ns;
		tv->gained_vector = t->counters[RVVSTAT_FIRST_USE] >
				    (was ? was->counters[RVVSTAT_FIRST_USE] : 0);
		v->nr_tasks++;
	}
	return 0;
}

int view_build(const struct sample *prev, const struct sample *cur,
	       double seconds, const struct llama_reading *llama_before, struct view *v)
{
	int64_t saves = -1;
	int i;

	memset(v, 0, sizeof(*v));
	v->seconds = seconds;
	v->has_module = cur->has_module;
	v->module_why = cur->module_why;
	if (cur->has_module && prev && prev->has_module) {
		const struct rvv_summary *a = &prev->summary, *b = &cur->summary;

		v->module_reset = b->elapsed_ns < a->elapsed_ns ||
				  !rates_of(a->counters, b->counters, a->bytes,
					    b->bytes, seconds, &v->total);
		if (!v->module_reset)
			saves = (int64_t)v->total.saved;
	}
	if (cur->has_module && prev && prev->has_module && !v->module_reset) {
		v->cpus = calloc(cur->nr_cpus ? cur->nr_cpus : 1, sizeof(*v->cpus));
		if (!v->cpus)
			return -ENOMEM;
		for (i = 0; i < cur->nr_cpus; i++) {
			const struct rvv_cpu_row *was = cpu_in(prev, cur->cpus[i].cpu);

			struct cpu_view *cv = &v->cpus[v->nr_cpus];

			if (!was || !rates_of(was->counters, cur->cpus[i].counters,
					      was->bytes, cur->cpus[i].bytes, seconds, &cv->r))
				continue;
			cv->cpu = cur->cpus[i].cpu;
			cv->switch_saved_p99_ns = cur->cpu_p99_ns[i];
			v->nr_cpus++;
		}
		if (build_tasks(prev, cur, seconds, v))
			return -ENOMEM;
	}
	v->has_llama = cur->has_llama;
	if (cur->has_llama)
		build_llama(llama_before && llama_before->seq ? llama_before : NULL,
			    &cur->llama, seconds, saves, &v->llama);
	return 0;
}

const char *task_cpu_text(const struct task_view *t, char *buf, size_t size)
{
	if (t->cpu < 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%" PRId32, t->cpu);
	return buf;
}

void view_free(struct view *v)
{
	free(v->cpus);
	free(v->tasks);
	memset(v, 0, sizeof(*v));
}
