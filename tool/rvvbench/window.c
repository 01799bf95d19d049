// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/http.h"
#include "../lib/rows.h"
#include "window.h"

const char *const bench_class_names[BENCH_NR_CLASSES] = {
	"server_vector", "server_other", "rest",
};

int bench_mark_take(const struct bench_observer *ob, struct bench_mark *m, struct rvv_error *err)
{
	struct rvv_http_reply reply = { 0 };
	struct rvv_error ignored;

	memset(m, 0, sizeof(*m));
	/* The module and /metrics may each be absent: their figures are then left out. */
	if (ob->client && !rvv_client_get_summary(ob->client, &m->sum, &ignored))
		m->module = !ob->pid ||
			    !rvv_collect_tasks(ob->client, (uint32_t)ob->pid, &m->rows, &m->n_rows,
					       &ignored);
	if (ob->pid && bench_proc_threads(ob->pid, &m->threads, &m->n_threads, &ignored) == -ENOMEM)
		return rvv_fail(err, -ENOMEM, "out of memory reading the server's threads");
	if (ob->url && !rvv_http_get(ob->url, "/metrics", ob->timeout_ms, NULL, &reply, &ignored) &&
	    reply.status == 200 && reply.body)
		m->metrics = !rvv_llama_parse_metrics(reply.body, &m->m, &ignored);
	rvv_http_free(&reply);
	return 0;
}

void bench_mark_free(struct bench_mark *m)
{
	free(m->rows);
	free(m->threads);
	memset(m, 0, sizeof(*m));
}

static const struct rvv_task_row *row_of(const struct bench_mark *m, uint32_t tid)
{
	for (size_t i = 0; i < m->n_rows; i++)
		if (m->rows[i].tid == tid)
			return &m->rows[i];
	return NULL;
}

static const struct bench_thread_sched *sched_of(const struct bench_mark *m, int tid)
{
	for (size_t i = 0; i < m->n_threads; i++)
		if (m->threads[i].tid == tid)
			return &m->threads[i];
	return NULL;
}

static uint64_t grew(uint64_t before, uint64_t after)
{
	return after > before ? after - before : 0;
}

/* The thread's counts in the window; a thread new in it counts whole. */
static bool row_delta(const struct rvv_task_row *was, const struct rvv_task_row *now,
		      uint64_t *d)
{
	for (int i = 0; i < RVVSTAT_NR_COUNTERS; i++)
		d[i] = grew(was ? was->counters[i] : 0, now->counters[i]);
	return rvv_saves(d) || d[RVVSTAT_FIRST_USE] || d[RVVSTAT_RESTORES_SCHEDULED] ||
	       d[RVVSTAT_KERNEL_V];
}

static void add_sched(struct bench_class_cost *c, const struct bench_thread_sched *was,
		      const struct bench_thread_sched *now)
{
	c->voluntary += grew(was ? was->voluntary : 0, now->voluntary);
	c->involuntary += grew(was ? was->involuntary : 0, now->involuntary);
	c->wait_ns += grew(was ? was->wait_ns : 0, now->wait_ns);
	/* Without schedstat the wait is unknown, not 0. */
	c->wait_unknown |= !now->has_schedstat || (was && !was->has_schedstat);
	if (now->migrations < 0 || (was && was->migrations < 0))
		c->migrations = -1;
	else if (c->migrations >= 0)
		c->migrations += now->migrations - (was ? was->migrations : 0);
}

int bench_window_of(const struct bench_mark *start, const struct bench_mark *end,
		    const struct bench_run *run, struct bench_window *w, struct rvv_error *err)
{
	struct bench_class_cost *rest = &w->cls[BENCH_REST];
	const struct rvv_latency *calib;
	int rc;

	memset(w, 0, sizeof(*w));
	w->save_ns = NAN;
	w->n_cpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	for (size_t i = 0; i < run->n; i++)
		w->tokens += run->recs[i].output_tokens > 0 ? run->recs[i].output_tokens : 0;
	w->module = start->module && end->module;
	if (w->module) {
		struct rvv_error why;

		rc = rvv_delta(&start->sum, &end->sum, &w->all, &why);
		if (rc)
			return rvv_fail(err, rc, "the module's counts in the window: %s", why.message);
		calib = &end->sum.latency[RVVSTAT_LAT_CALIB_SAVE];
		if (calib->count)
			w->save_ns = (double)calib->sum_ns / (double)calib->count;
		memcpy(rest->counters, w->all.counters, sizeof(rest->counters));
	}
	w->sched = start->n_threads && end->n_threads;
	for (size_t i = 0; i < end->n_threads; i++) {
		const struct bench_thread_sched *t = &end->threads[i];
		const struct rvv_task_row *now = w->module ? row_of(end, (uint32_t)t->tid) : NULL;
		uint64_t d[RVVSTAT_NR_COUNTERS] = { 0 };
		enum bench_class k = BENCH_SERVER_OTHER;

		if (now && row_delta(row_of(start, (uint32_t)t->tid), now, d))
			k = BENCH_SERVER_VECTOR;
		w->cls[k].threads++;
		add_sched(&w->cls[k], sched_of(start, t->tid), t);
		for (int c = 0; c < RVVSTAT_NR_COUNTERS; c++) {
			w->cls[k].counters[c] += d[c];
			rest->counters[c] -= d[c] < rest->counters[c] ? d[c] : rest->counters[c];
		}
	}
	/*
	 * The module frees an exited thread's row and adds its counts to the
	 * system's exited total: they cannot be told from the rest's, so say
	 * how many of the server's threads went.
	 */
	for (size_t i = 0; w->sched && i < start->n_threads; i++)
		w->server_exited += !sched_of(end, start->threads[i].tid);
	for (int i = 0; i < RVV_LLAMA_NR_SERIES && start->metrics && end->metrics; i++)
		if (start->m.present & end->m.present & (1u << i)) {
			w->metrics[i] = end->m.value[i] - start->m.value[i];
			w->metrics_present |= 1u << i;
		}
	return 0;
}

static uint64_t server_saves(const struct bench_window *w)
{
	return rvv_saves(w->cls[BENCH_SERVER_VECTOR].counters) +
	       rvv_saves(w->cls[BENCH_SERVER_OTHER].counters);
}

double bench_window_saves_per_ktok(const struct bench_window *w)
{
	return w->module && w->sched && w->tokens ?
	       (double)server_saves(w) * 1000 / (double)w->tokens : NAN;
}

double bench_window_saves_per_decode(const struct bench_window *w)
{
	double calls = w->metrics[RVV_LLAMA_DECODE_CALLS];

	return w->module && w->sched && (w->metrics_present & (1u << RVV_LLAMA_DECODE_CALLS)) &&
	       calls > 0 ? (double)server_saves(w) / calls : NAN;
}

double bench_window_save_share(const struct bench_window *w)
{
	return w->module && !isnan(w->save_ns) && w->all.seconds > 0 && w->n_cpus ?
	       (double)rvv_saves(w->all.counters) * w->save_ns /
	       (w->all.seconds * 1e9 * w->n_cpus) : NAN;
}

static struct json_object *number(double v)
{
	return isnan(v) ? NULL : json_object_new_double(round(v * 1e6) / 1e6);
}

static struct json_object *counters_json(const uint64_t *c)
{
	static const char *const names[] = RVVSTAT_COUNTER_NAMES;
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "saves", json_object_new_uint64(rvv_saves(c)));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		json_object_object_add(o, names[i], json_object_new_uint64(c[i]));
	return o;
}

static struct json_object *class_json(const struct bench_window *w, enum bench_class k)
{
	const struct bench_class_cost *c = &w->cls[k];
	struct json_object *o = json_object_new_object();

	if (k != BENCH_REST)
		json_object_object_add(o, "threads", json_object_new_uint64(c->threads));
	json_object_object_add(o, "v", w->module ? counters_json(c->counters) : NULL);
	if (k != BENCH_REST && w->sched) {
		json_object_object_add(o, "voluntary_switches", json_object_new_uint64(c->voluntary));
		json_object_object_add(o, "involuntary_switches",
				       json_object_new_uint64(c->involuntary));
		json_object_object_add(o, "runqueue_wait_ms",
				       number(c->wait_unknown ? NAN : (double)c->wait_ns / 1e6));
		json_object_object_add(o, "migrations", c->migrations < 0 ? NULL :
				       json_object_new_int64(c->migrations));
	}
	return o;
}

struct json_object *bench_window_json(const struct bench_window *w)
{
	/* The counters only: a gauge's difference says nothing of the window. */
	static const char *const series[RVV_LLAMA_NR_SERIES] = {
		[RVV_LLAMA_PROMPT_TOKENS] = "prompt_tokens",
		[RVV_LLAMA_PREDICTED_TOKENS] = "tokens_predicted",
		[RVV_LLAMA_DECODE_CALLS] = "n_decode",
	};
	struct json_object *o = json_object_new_object(), *classes, *metrics = NULL;

	json_object_object_add(o, "module", json_object_new_boolean(w->module));
	json_object_object_add(o, "output_tokens", json_object_new_int64(w->tokens));
	json_object_object_add(o, "server_threads_exited",
			       w->sched ? json_object_new_uint64(w->server_exited) : NULL);
	json_object_object_add(o, "v_all", w->module ? counters_json(w->all.counters) : NULL);
	json_object_object_add(o, "saves_per_ktok", number(bench_window_saves_per_ktok(w)));
	json_object_object_add(o, "saves_per_decode", number(bench_window_saves_per_decode(w)));
	json_object_object_add(o, "save_ns", number(w->save_ns));
	json_object_object_add(o, "save_share", number(bench_window_save_share(w)));
	classes = json_object_new_object();
	for (int k = 0; k < BENCH_NR_CLASSES; k++)
		json_object_object_add(classes, bench_class_names[k],
				       k == BENCH_REST || w->sched ? class_json(w, k) : NULL);
	json_object_object_add(o, "classes", classes);
	if (w->metrics_present) {
		metrics = json_object_new_object();
		for (int i = 0; i < RVV_LLAMA_NR_SERIES; i++)
			if (series[i])
				json_object_object_add(metrics, series[i],
						       w->metrics_present & (1u << i) ?
						       number(w->metrics[i]) : NULL);
	}
	json_object_object_add(o, "metrics_delta", metrics);
	return o;
}
