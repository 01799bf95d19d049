// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/rvvstat/summary: the one report written for people.
 * All of its prose, ranking and rounding is here; the other debugfs files
 * are tables for programs.
 */
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/utsname.h>

#include "core/accounting.h"
#include "arch/arch.h"
#include "hints/hints.h"
#include "timing/latency.h"
#include "expose/snapshot.h"
#include "expose/summary.h"
#include "timing/windows.h"

#define RVV_TOP_TASKS	10

static const char *const rvv_latency_names[] = RVVSTAT_LATENCY_NAMES;
/* Indexed by the backend the module itself reports: always in the table. */
static const char *const rvv_backend_titles[] = RVVSTAT_BACKEND_TITLES;

/* Everything the summary shows of the counters, read before it is printed. */
struct rvv_summary_data {
	struct rvv_totals t;		/* all: the sum of cpus[] */
	struct rvv_task_snapshot top[RVV_TOP_TASKS];
	int nr_top;
	u64 elapsed;
	u64 hint_events[RVVSTAT_NR_HINT_EVENTS];
	unsigned int hints_live;
	struct rvv_counts cpus[];	/* nr_cpu_ids */
};

static u64 rvv_saves(const struct rvv_counts *c)
{
	return c->c[RVVSTAT_SAVES_USER] + c->c[RVVSTAT_SAVES_KERNEL];
}

/* Prints a count and its rate with one decimal, as the clock allows. */
static void rvv_put_rate_line(struct seq_file *m, const char *label, u64 count,
			      u64 elapsed_ns)
{
	u64 tenths = elapsed_ns ?
		mul_u64_u64_div_u64(count, 10 * NSEC_PER_SEC, elapsed_ns) : 0;

	seq_printf(m, "  %-24s %14llu %12llu.%llu\n", label, count,
		   div_u64(tenths, 10), tenths % 10);
}

static unsigned int rvv_percent(u64 part, u64 whole)
{
	return whole ? div64_u64(part * 100, whole) : 0;
}

static void rvv_summary_totals(struct seq_file *m, const struct rvv_totals *t,
			       const struct rvvstat_info *info, u64 elapsed)
{
	const struct rvv_counts *c = &t->all;
	const u64 *v = c->c;

	seq_printf(m, "\n  %-24s %14s %14s\n", "totals", "count", "per second");
	rvv_put_rate_line(m, "saves", rvv_saves(c), elapsed);
	rvv_put_rate_line(m, "  user state", v[RVVSTAT_SAVES_USER], elapsed);
	rvv_put_rate_line(m, "  kernel preempt-V", v[RVVSTAT_SAVES_KERNEL], elapsed);
	rvv_put_rate_line(m, "  involuntary", v[RVVSTAT_SAVES_INVOLUNTARY], elapsed);
	rvv_put_rate_line(m, "  voluntary",
			  rvv_saves(c) - v[RVVSTAT_SAVES_INVOLUNTARY], elapsed);
	rvv_put_rate_line(m, "  discarded-dirty", v[RVVSTAT_SAVES_DISCARDED], elapsed);
	rvv_put_rate_line(m, "restores scheduled", v[RVVSTAT_RESTORES_SCHEDULED], elapsed);
	rvv_put_rate_line(m, "  performed", v[RVVSTAT_RESTORES_PERFORMED], elapsed);
	if (info->features & RVVSTAT_FEATURE_RESTORE_PROBES)
		rvv_put_rate_line(m, "    that reloaded",
				  t->events[RVVSTAT_CPU_RESTORES_LOADED], elapsed);
	rvv_put_rate_line(m, "  coalesced", v[RVVSTAT_RESTORES_COALESCED], elapsed);
	rvv_put_rate_line(m, "  cancelled by exec", v[RVVSTAT_RESTORES_CANCELLED], elapsed);
	rvv_put_rate_line(m, "kernel preempt-V restores", v[RVVSTAT_RESTORES_KERNEL], elapsed);
	rvv_put_rate_line(m, "first-use traps", v[RVVSTAT_FIRST_USE], elapsed);
	rvv_put_rate_line(m, "kernel-mode V uses", v[RVVSTAT_KERNEL_V], elapsed);
	rvv_put_rate_line(m, "  that saved V state", v[RVVSTAT_KERNEL_V_SAVES], elapsed);
	rvv_put_rate_line(m, "bytes saved", rvv_bytes_of(c->c), elapsed);
	rvv_put_rate_line(m, "context switches", v[RVVSTAT_SWITCHES], elapsed);
}

static void rvv_summary_cpus(struct seq_file *m, const struct rvv_counts *cpus)
{
	int cpu;

	seq_printf(m, "\n  %-4s %12s %12s %12s %14s %7s\n", "cpu", "switches",
		   "saves", "restores", "bytes saved", "invol%");
	for_each_possible_cpu(cpu) {
		const struct rvv_counts *c = &cpus[cpu];

		seq_printf(m, "  %-4d %12llu %12llu %12llu %14llu %6u%%\n", cpu,
			   c->c[RVVSTAT_SWITCHES], rvv_saves(c),
			   c->c[RVVSTAT_RESTORES_PERFORMED], rvv_bytes_of(c->c),
			   rvv_percent(c->c[RVVSTAT_SAVES_INVOLUNTARY], rvv_saves(c)));
	}
}

static int rvv_cmp_saves_desc(const void *a, const void *b)
{
	u64 sa = rvv_saves(&((const struct rvv_task_snapshot *)a)->counts);
	u64 sb = rvv_saves(&((const struct rvv_task_snapshot *)b)->counts);

	/* Most saves first. */
	return (sa < sb) - (sa > sb);
}

/* Keeps the RVV_TOP_TASKS rows with most saves; top[] is kept sorted. */
static int rvv_collect_top(struct rvv_task_snapshot *top)
{
	struct rvv_task_snapshot snap;
	unsigned int slot;
	int nr = 0;

	for (slot = 0; rvv_snapshot_task(&slot, &snap); slot++) {
		if (!rvv_saves(&snap.counts))
			continue;
		if (nr == RVV_TOP_TASKS &&
		    rvv_saves(&snap.counts) <= rvv_saves(&top[nr - 1].counts))
			continue;
		top[nr < RVV_TOP_TASKS ? nr++ : nr - 1] = snap;
		sort(top, nr, sizeof(*top), rvv_cmp_saves_desc, NULL);
	}
	return nr;
}

static void rvv_summary_task_row(struct seq_file *m, const char *who,
				 const struct rvv_counts *c)
{
	seq_printf(m, "  %-30s %12llu %12llu %14llu %6u%% %9llu\n", who,
		   rvv_saves(c), c->c[RVVSTAT_RESTORES_PERFORMED], rvv_bytes_of(c->c),
		   rvv_percent(c->c[RVVSTAT_SAVES_INVOLUNTARY], rvv_saves(c)),
		   c->c[RVVSTAT_FIRST_USE]);
}

static void rvv_summary_tasks(struct seq_file *m,
			      const struct rvv_summary_data *d)
{
	char who[24 + RVV_COMM_SHOWN], comm[RVV_COMM_SHOWN];
	int i;

	seq_printf(m, "\n  %-30s %12s %12s %14s %7s %9s\n", "top by saves: tgid/tid comm",
		   "saves", "restores", "bytes saved", "invol%", "first use");
	for (i = 0; i < d->nr_top; i++) {
		const struct rvv_task_snapshot *s = &d->top[i];

		snprintf(who, sizeof(who), "%d/%d %s", s->tgid, s->tid,
			 rvv_comm_shown(comm, s->comm));
		rvv_summary_task_row(m, who, &s->counts);
	}
	if (!d->nr_top && rvv_saves(&d->t.exited))
		seq_puts(m, "  (no live task has saved; those that did have exited)\n");
	else if (!d->nr_top)
		seq_puts(m, "  (no task has saved vector state yet)\n");
	rvv_summary_task_row(m, "exited tasks (all)", &d->t.exited);
}

/* What a method resolves: a clock step, or a fraction of one for averages. */
static u64 rvv_resolution_ns(const struct rvv_latency_method *method)
{
	return max_t(u64, 1, div_u64(rvv_arch_clock_step_ns(),
				     max(1U, method->ops_per_sample)));
}

static u64 rvv_round(u64 ns, u64 step)
{
	return div64_u64(ns + step / 2, step) * step;
}

/* A percentile as the upper bound of its bucket, never above the maximum. */
static void rvv_summary_latency_row(struct seq_file *m,
				    enum rvvstat_latency kind,
				    const struct rvv_hist *h)
{
	u64 step = rvv_resolution_ns(rvv_latency_method(kind));

	seq_printf(m, "  %-15s %10llu", rvv_latency_names[kind], h->count);
	if (!h->count) {
		seq_puts(m, "\n");
		return;
	}
	seq_printf(m, " %9llu %9llu %9llu %9llu %9llu %9llu\n",
		   rvv_round(h->min, step), rvv_round(rvv_hist_percentile_ns(h, 500), step),
		   rvv_round(rvv_hist_percentile_ns(h, 950), step),
		   rvv_round(rvv_hist_percentile_ns(h, 990), step),
		   rvv_round(h->max, step),
		   rvv_round(div64_u64(h->sum, h->count), step));
}

/* The backend's event sources: what each is hooked on. */
static void rvv_summary_sources(struct seq_file *m)
{
	struct rvv_arch_source src[RVV_ARCH_MAX_SOURCES];
	int i, n = rvv_arch_sources(src);

	for (i = 0; i < n; i++) {
		seq_printf(m, "  %-16s ", src[i].label);
		if (src[i].hook)
			rvv_hook_show(m, src[i].hook);
		if (src[i].hook && src[i].note)
			seq_puts(m, "; ");
		seq_printf(m, "%s\n", src[i].note ?: "");
	}
	/* Counts are short by up to this much if it is not 0. */
	seq_printf(m, "  %-16s %lu\n", "probe misses", rvv_arch_probe_misses());
}

static void rvv_summary_latency_method(struct seq_file *m,
				       enum rvvstat_latency kind)
{
	const struct rvv_latency_method *method = rvv_latency_method(kind);

	seq_printf(m, "  %-15s ", rvv_latency_names[kind]);
	rvv_hook_show(m, &method->hook);
	if (method->bias_ns)
		seq_printf(m, "; bias %llu ns subtracted",
			   rvv_round(method->bias_ns, rvv_resolution_ns(method)));
	if (method->sample_every > 1)
		seq_printf(m, "; about 1 in %u timed", method->sample_every);
	if (method->ops_per_sample > 1)
		seq_printf(m, "; %u ops per sample", method->ops_per_sample);
	seq_puts(m, "\n");
}

/* The switch-time estimate of a save: saving switches minus plain ones. */
static void rvv_summary_save_estimate(struct seq_file *m,
				      const struct rvv_hist *saved,
				      const struct rvv_hist *plain)
{
	u64 step = rvv_arch_clock_step_ns();
	s64 diff;

	if (!saved->count || !plain->count)
		return;
	diff = div64_u64(saved->sum, saved->count) -
	       div64_u64(plain->sum, plain->count);
	seq_printf(m, "  save cost from switch timing: mean switch_saved - mean switch_plain = %lld ns\n",
		   diff < 0 ? -(s64)rvv_round(-diff, step) : (s64)rvv_round(diff, step));
}

/* How the sampled sources were armed, and what share they timed. */
static void rvv_summary_windows(struct seq_file *m)
{
	struct rvv_window_counts c[RVV_MAX_WINDOW_SOURCES];
	int i, n = rvv_windows_read(c);

	for (i = 0; i < n; i++) {
		seq_printf(m, "  %s sampling: %s, %llu windows, %llu patches, %llu of %llu timed",
			   c[i].name, c[i].throughout ? "armed throughout" :
			   "armed in windows", c[i].windows, c[i].patches,
			   c[i].timed, c[i].events);
		if (c[i].timed)
			seq_printf(m, " (1 in %llu)",
				   div64_u64(c[i].events + c[i].timed / 2, c[i].timed));
		seq_puts(m, "\n");
	}
}

static void rvv_summary_latency(struct seq_file *m)
{
	struct rvv_hist *h, *plain;
	int kind;

	seq_printf(m, "\n  latency (ns; clock step %llu ns, no figure finer than its method resolves)\n",
		   rvv_arch_clock_step_ns());
	seq_printf(m, "  %-15s %10s %9s %9s %9s %9s %9s %9s\n", "kind", "count",
		   "min", "p50", "p95", "p99", "max", "mean");
	h = kmalloc_array(2, sizeof(*h), GFP_KERNEL);
	if (!h) {
		seq_puts(m, "  (no memory to merge histograms)\n");
		return;
	}
	plain = &h[1];
	for (kind = 0; kind < RVVSTAT_NR_LATENCIES; kind++) {
		rvv_latency_snapshot(kind, -1, h);
		rvv_summary_latency_row(m, kind, h);
	}
	rvv_latency_snapshot(RVVSTAT_LAT_SWITCH_SAVED, -1, h);
	rvv_latency_snapshot(RVVSTAT_LAT_SWITCH_PLAIN, -1, plain);
	rvv_summary_save_estimate(m, h, plain);
	kfree(h);
	seq_puts(m, "  methods:\n");
	for (kind = 0; kind < RVVSTAT_NR_LATENCIES; kind++)
		rvv_summary_latency_method(m, kind);
	rvv_summary_windows(m);
}

static const char *rvv_policy_name(unsigned int policy)
{
	static const char *const names[] = {
		[SCHED_NORMAL] = "normal", [SCHED_FIFO] = "fifo",
		[SCHED_RR] = "rr", [SCHED_BATCH] = "batch",
		[SCHED_IDLE] = "idle", [SCHED_DEADLINE] = "deadline",
	};

	return policy < ARRAY_SIZE(names) && names[policy] ? names[policy] : "?";
}

static void rvv_summary_hint(const struct rvv_hint_view *hint, void *arg)
{
	const struct rvv_hint_request *req = hint->req;
	const struct sched_attr *attr = &req->attr;
	struct seq_file *m = arg;

	seq_printf(m, "  %s %d:", hint->process ? "tgid" : "tid", hint->pid);
	if (req->flags & RVVSTAT_HINT_CPUS)
		seq_printf(m, " cpus %*pbl", cpumask_pr_args(req->cpus));
	if (req->flags & RVVSTAT_HINT_POLICY) {
		seq_printf(m, " policy %s", rvv_policy_name(attr->sched_policy));
		if (attr->sched_policy == SCHED_DEADLINE)
			seq_printf(m, " runtime %llu deadline %llu period %llu",
				   attr->sched_runtime, attr->sched_deadline,
				   attr->sched_period);
		else if (attr->sched_priority)
			seq_printf(m, " priority %u", attr->sched_priority);
		else
			seq_printf(m, " nice %d", attr->sched_nice);
	}
	seq_puts(m, req->flags & RVVSTAT_HINT_ON_VECTOR_USE ?
		 " at first vector use" : " now");
	seq_printf(m, ", applied %u, last error %d\n", hint->applied,
		   hint->last_error);
}

/* The counts as read with the rest; then the hints as they are now. */
static void rvv_summary_hints(struct seq_file *m,
			      const struct rvv_summary_data *d)
{
	static const char *const names[] = RVVSTAT_HINT_EVENT_NAMES;
	unsigned int i;

	seq_printf(m, "\nhints: %u of %u entries hold a hint\n", d->hints_live,
		   rvv_hints_capacity());
	for (i = 0; i < RVVSTAT_NR_HINT_EVENTS; i++)
		seq_printf(m, "%s%s %llu", i ? ", " : "  ", names[i],
			   d->hint_events[i]);
	seq_putc(m, '\n');
	rvv_hints_for_each(rvv_summary_hint, m);
}

/*
 * Every count the summary prints is read first, in one pass: the totals are
 * the sum of the CPU rows shown, and the task rows and the hint counts are
 * read right after.
 */
static struct rvv_summary_data *rvv_summary_read(void)
{
	struct rvv_summary_data *d;

	d = kmalloc(struct_size(d, cpus, nr_cpu_ids), GFP_KERNEL);
	if (!d)
		return NULL;
	rvv_snapshot_totals_cpus(&d->t, d->cpus);
	d->nr_top = rvv_collect_top(d->top);
	d->elapsed = local_clock() - d->t.since_ns;
	rvv_hints_snapshot(d->hint_events, &d->hints_live);
	return d;
}

int rvv_summary_show(struct seq_file *m, void *unused)
{
	struct rvvstat_info info = {};
	struct rvv_summary_data *d;

	d = rvv_summary_read();
	if (!d)
		return -ENOMEM;
	seq_printf(m, "rvvstat (ABI %d) on Linux %s %s\n", RVVSTAT_ABI_VERSION,
		   init_utsname()->release, init_utsname()->machine);
	rvv_arch_info(&info);
	seq_printf(m, "vector state: %s, %u-bit registers, %u bytes per save\n",
		   rvv_backend_titles[info.backend], info.vector_bits, rvv_arch_bytes_per_save());
	seq_printf(m, "counting for: %llu.%01llu s since load or reset\n",
		   div_u64(d->elapsed, NSEC_PER_SEC),
		   div_u64(d->elapsed % NSEC_PER_SEC, NSEC_PER_SEC / 10));
	seq_puts(m, "methods:\n");
	rvv_summary_sources(m);
	seq_printf(m, "task table: %u live of %u slots, %llu tasks not entered (table full), %llu switches of untracked tasks\n",
		   d->t.tasks_live, d->t.table_capacity,
		   d->t.events[RVVSTAT_CPU_TABLE_FULL],
		   d->t.events[RVVSTAT_CPU_UNTRACKED]);
	if (rvv_arch_verify_armed())
		seq_printf(m, "verification: %llu switch saves executed (instruction probes)\n",
			   d->t.events[RVVSTAT_CPU_VERIFY_SWITCH_SAVES]);
	rvv_summary_totals(m, &d->t, &info, d->elapsed);
	rvv_summary_latency(m);
	rvv_summary_hints(m, d);
	rvv_summary_cpus(m, d->cpus);
	rvv_summary_tasks(m, d);
	kfree(d);
	return 0;
}
