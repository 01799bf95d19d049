// SPDX-License-Identifier: GPL-2.0
/*
 * Latency histograms and the switch-time source. A switch is timed from the
 * end of our sched_switch handler to the finish hook at the entry of
 * finish_task_switch() (finish.c), the first thing the next task runs after
 * switch_to(); both run on one CPU with IRQs off. Switches that saved vector
 * state minus those that did not estimates the save cost, with nothing
 * probed inside the save.
 *
 * The hook costs a call or a trap on every switch while armed, and arming
 * it patches kernel text, so by default it is armed only in sampling
 * windows (windows.c) of RVV_WINDOW_SAMPLES timed switches per CPU, for at
 * most 1 in switch_sample switches; switch_sample=1 keeps it armed
 * throughout.
 */
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sched/clock.h>
#include <linux/string.h>

#include "core/accounting-switch.h"
#include "timing/finish.h"
#include "timing/latency.h"
#include "timing/windows.h"
#include "rvvstat/hist.h"

#define RVV_WINDOW_SAMPLES	2048	/* per CPU and window */

struct rvv_latency_cpu {
	struct rvv_hist hist[RVVSTAT_NR_LATENCIES];
};

/* A switch begun on this CPU and not yet finished. */
struct rvv_switch_start {
	u64 t0;				/* 0: none pending */
	struct rvv_task_hot *prev;	/* prev's row, NULL: none */
	enum rvvstat_latency kind;
};

static struct rvv_latency_cpu __percpu *rvv_latency_cpu;
static DEFINE_PER_CPU(struct rvv_switch_start, rvv_switch_start);
static struct rvv_latency_method rvv_methods[RVVSTAT_NR_LATENCIES];
static unsigned int rvv_switch_sample;
bool rvv_switch_window_open __read_mostly;
static struct rvv_window_source rvv_switch_source;

static const enum rvvstat_latency rvv_switch_kinds[] = {
	RVVSTAT_LAT_SWITCH_SAVED, RVVSTAT_LAT_SWITCH_RESTORE,
	RVVSTAT_LAT_SWITCH_PLAIN,
};

int rvv_latency_init(unsigned int switch_sample)
{
	rvv_latency_cpu = alloc_percpu(struct rvv_latency_cpu);
	if (!rvv_latency_cpu)
		return -ENOMEM;
	rvv_switch_sample = switch_sample;
	return 0;
}

void rvv_latency_exit(void)
{
	free_percpu(rvv_latency_cpu);
	rvv_latency_cpu = NULL;
}

struct rvv_latency_method *rvv_latency_method(enum rvvstat_latency kind)
{
	return &rvv_methods[kind];
}

void rvv_latency_record(enum rvvstat_latency kind, u64 ns)
{
	struct rvv_hist *h = &this_cpu_ptr(rvv_latency_cpu)->hist[kind];

	if (!h->count || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->count++;
	h->sum += ns;
	h->buckets[rvvstat_hist_bucket(ns, RVVSTAT_CPU_HIST_SUB_BITS,
				       RVVSTAT_CPU_HIST_BUCKETS)]++;
}

void rvv_latency_switch_begin(struct rvv_task_hot *prev_row,
			      const struct rvv_switch_vstate *vs)
{
	struct rvv_switch_start *s = this_cpu_ptr(&rvv_switch_start);

	if (!rvv_window_take(&rvv_switch_source))
		return;
	if (vs->save_user || vs->save_kernel)
		s->kind = RVVSTAT_LAT_SWITCH_SAVED;
	else if (vs->restore_user || vs->restore_kernel)
		s->kind = RVVSTAT_LAT_SWITCH_RESTORE;
	else
		s->kind = RVVSTAT_LAT_SWITCH_PLAIN;
	s->prev = prev_row;
	s->t0 = local_clock();	/* last, so our own work is not timed */
}

static void rvv_on_finish_switch(void)
{
	u64 now = local_clock();
	struct rvv_switch_start *s = this_cpu_ptr(&rvv_switch_start);
	u64 ns;

	if (!s->t0)
		return;
	ns = now - s->t0;
	s->t0 = 0;
	rvv_latency_record(s->kind, ns);
	if (s->kind == RVVSTAT_LAT_SWITCH_SAVED && s->prev)
		rvv_account_task_latency(s->prev, ns);
}

static void rvv_switch_methods(const struct rvv_hook *hook)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rvv_switch_kinds); i++) {
		struct rvv_latency_method *m = &rvv_methods[rvv_switch_kinds[i]];

		m->hook = *hook;
		m->sample_every = rvv_switch_sample;
		m->ops_per_sample = 1;
	}
}

u64 rvv_latency_count(enum rvvstat_latency kind)
{
	u64 count = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		count += READ_ONCE(per_cpu_ptr(rvv_latency_cpu, cpu)->hist[kind].count);
	return count;
}

u64 rvv_latency_count_kinds(const enum rvvstat_latency *kinds, int nr)
{
	u64 count = 0;
	int i;

	for (i = 0; i < nr; i++)
		count += rvv_latency_count(kinds[i]);
	return count;
}

static void rvv_switch_counts(u64 *timed, u64 *events)
{
	struct rvv_totals t;

	*timed = rvv_latency_count_kinds(rvv_switch_kinds,
					 ARRAY_SIZE(rvv_switch_kinds));
	rvv_snapshot_totals(&t);
	*events = t.all.c[RVVSTAT_SWITCHES];
}

/*
 * The hook is armed before the switch probe starts timing, so a start
 * never waits for a finish that cannot come.
 */
static unsigned int rvv_switch_window_begin(struct rvv_window_source *src)
{
	if (rvv_finish_arm())
		return 0;
	WRITE_ONCE(rvv_switch_window_open, true);
	return 1;
}

/*
 * No start survives a window: the switch probe stops taking starts first,
 * and disarming patches the text under stop_machine() (or with IPIs that
 * wait for every CPU), which cannot complete while a CPU is between
 * sched_switch and finish_task_switch() with IRQs off; so every start
 * already taken has met its finish when rvv_finish_disarm() returns.
 */
static void rvv_switch_window_end(struct rvv_window_source *src)
{
	WRITE_ONCE(rvv_switch_window_open, false);
	rvv_finish_disarm();
}

static struct rvv_window_source rvv_switch_source = {
	.name = "switch",
	.open = rvv_switch_window_begin,
	.close = rvv_switch_window_end,
	.counts = rvv_switch_counts,
	.on_switch = true,
};

void rvv_latency_start(void)
{
	struct rvv_hook hook = { .from = "sched_switch" };
	int err;

	if (!rvv_switch_sample) {
		rvv_hook_off(&hook, "switch_sample");
		rvv_switch_methods(&hook);
		return;
	}
	/* Armed by the windows, or once by them for switch_sample=1. */
	err = rvv_finish_attach(rvv_on_finish_switch, &hook);
	if (!err) {
		rvv_switch_source.duty = rvv_switch_sample;
		rvv_switch_source.samples = RVV_WINDOW_SAMPLES;
		rvv_switch_source.throughout = rvv_switch_sample == 1;
		err = rvv_windows_add(&rvv_switch_source);
		if (err)
			rvv_finish_detach();
	}
	if (err)
		rvv_hook_failed(&hook, "no hook on finish_task_switch", err);
	rvv_switch_methods(&hook);
}

/*
 * The median, not the mean: the first runs of the empty stretch pay for
 * QEMU's code translation and would inflate a mean. Its bucket's lower
 * bound, so that no more than the pair's typical cost is ever subtracted.
 */
int rvv_latency_probe_bias(u64 *bias_ns)
{
	struct rvv_hist *h = kmalloc(sizeof(*h), GFP_KERNEL);
	unsigned int median;
	int err = -ENODATA;

	if (!h)
		return -ENOMEM;
	rvv_latency_snapshot(RVVSTAT_LAT_PROBE_BIAS, -1, h);
	if (h->count) {
		median = rvvstat_hist_percentile(h->buckets,
						 RVVSTAT_CPU_HIST_BUCKETS, 500);
		*bias_ns = rvvstat_hist_lower(median, RVVSTAT_CPU_HIST_SUB_BITS);
		err = 0;
	}
	kfree(h);
	return err;
}

bool rvv_latency_switch_timing(void)
{
	return rvv_finish_attached();
}

/* After rvv_windows_stop(), which disarmed the hook. */
void rvv_latency_stop(void)
{
	rvv_finish_detach();
}

void rvv_latency_snapshot(enum rvvstat_latency kind, int cpu,
			  struct rvv_hist *out)
{
	int c, i;

	memset(out, 0, sizeof(*out));
	for_each_possible_cpu(c) {
		const struct rvv_hist *h;

		if (cpu >= 0 && c != cpu)
			continue;
		h = &per_cpu_ptr(rvv_latency_cpu, c)->hist[kind];
		if (!READ_ONCE(h->count))
			continue;
		if (!out->count || READ_ONCE(h->min) < out->min)
			out->min = READ_ONCE(h->min);
		out->max = max(out->max, READ_ONCE(h->max));
		out->count += READ_ONCE(h->count);
		out->sum += READ_ONCE(h->sum);
		for (i = 0; i < RVVSTAT_CPU_HIST_BUCKETS; i++)
			out->buckets[i] += READ_ONCE(h->buckets[i]);
	}
}

/* The bias and calibration describe the machine, not the period: kept. */
static bool rvv_latency_describes_machine(enum rvvstat_latency kind)
{
	return kind == RVVSTAT_LAT_PROBE_BIAS ||
	       kind == RVVSTAT_LAT_CALIB_SAVE ||
	       kind == RVVSTAT_LAT_CALIB_RESTORE;
}

void rvv_latency_zero_cpu(int cpu)
{
	struct rvv_latency_cpu *l = per_cpu_ptr(rvv_latency_cpu, cpu);
	int kind;

	for (kind = 0; kind < RVVSTAT_NR_LATENCIES; kind++)
		if (!rvv_latency_describes_machine(kind))
			memset(&l->hist[kind], 0, sizeof(l->hist[kind]));
	per_cpu(rvv_switch_start, cpu).t0 = 0;
}

void rvv_latency_zero_kind_this_cpu(enum rvvstat_latency kind)
{
	memset(&this_cpu_ptr(rvv_latency_cpu)->hist[kind], 0,
	       sizeof(struct rvv_hist));
}

u64 rvv_hist_percentile_ns(const struct rvv_hist *h, unsigned int permille)
{
	return min(rvvstat_hist_percentile_upper(h->buckets,
						 RVVSTAT_CPU_HIST_BUCKETS,
						 RVVSTAT_CPU_HIST_SUB_BITS,
						 permille), h->max);
}
