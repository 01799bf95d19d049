// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/rvvstat/: summary for people; cpus, tasks and totals for
 * programs (a header line of column names from the uapi, then one row each).
 * Thin formatters over accounting snapshots: nothing is computed here but
 * bytes and rates.
 */
#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>

#include "accounting.h"
#include "arch.h"
#include "control.h"
#include "debugfs.h"
#include "hints.h"
#include "latency.h"
#include "windows.h"

#define RVV_TOP_TASKS	10

static struct dentry *rvv_dir;

static const char *const rvv_counter_names[] = RVVSTAT_COUNTER_NAMES;
static const char *const rvv_event_names[] = RVVSTAT_CPU_EVENT_NAMES;
static const char *const rvv_latency_names[] = RVVSTAT_LATENCY_NAMES;
/* Indexed by the backend the module itself reports: always in the table. */
static const char *const rvv_backend_titles[] = RVVSTAT_BACKEND_TITLES;
static_assert(ARRAY_SIZE(rvv_counter_names) == RVVSTAT_NR_COUNTERS);
static_assert(ARRAY_SIZE(rvv_event_names) == RVVSTAT_NR_CPU_EVENTS);
static_assert(ARRAY_SIZE(rvv_latency_names) == RVVSTAT_NR_LATENCIES);

static void rvv_put_names(struct seq_file *m, const char *const *names, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		seq_printf(m, " %s", names[i]);
}

static u64 rvv_saves(const struct rvv_counts *c)
{
	return c->c[RVVSTAT_SAVES_USER] + c->c[RVVSTAT_SAVES_KERNEL];
}

static void rvv_put_counts(struct seq_file *m, const struct rvv_counts *c)
{
	int i;

	for (i = 0; i < RVVSTAT_NR_COUNTERS; i++)
		seq_printf(m, " %llu", c->c[i]);
}

static int rvv_cpus_show(struct seq_file *m, void *unused)
{
	u64 events[RVVSTAT_NR_CPU_EVENTS];
	struct rvv_counts counts;
	int cpu, i;

	seq_puts(m, "cpu");
	rvv_put_names(m, rvv_counter_names, RVVSTAT_NR_COUNTERS);
	rvv_put_names(m, rvv_event_names, RVVSTAT_NR_CPU_EVENTS);
	seq_puts(m, " bytes\n");
	for_each_possible_cpu(cpu) {
		rvv_snapshot_cpu(cpu, &counts, events);
		seq_printf(m, "%d", cpu);
		rvv_put_counts(m, &counts);
		for (i = 0; i < RVVSTAT_NR_CPU_EVENTS; i++)
			seq_printf(m, " %llu", events[i]);
		seq_printf(m, " %llu\n", rvv_bytes_of(counts.c));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rvv_cpus);

static int rvv_totals_show(struct seq_file *m, void *unused)
{
	struct rvv_totals t;

	rvv_snapshot_totals(&t);
	seq_puts(m, "scope");
	rvv_put_names(m, rvv_counter_names, RVVSTAT_NR_COUNTERS);
	seq_puts(m, " bytes\nall");
	rvv_put_counts(m, &t.all);
	seq_printf(m, " %llu\nexited", rvv_bytes_of(t.all.c));
	rvv_put_counts(m, &t.exited);
	seq_printf(m, " %llu\n", rvv_bytes_of(t.exited.c));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rvv_totals);

/* tasks: one row per live table slot; position = slot + 1, 0 = header. */
struct rvv_task_iter {
	unsigned int slot;
	struct rvv_task_snapshot snap;
};

static void *rvv_tasks_find(struct seq_file *m, loff_t *pos)
{
	struct rvv_task_iter *it = m->private;

	it->slot = *pos - 1;
	if (!rvv_snapshot_task(&it->slot, &it->snap))
		return NULL;
	*pos = it->slot + 1;
	return it;
}

static void *rvv_tasks_start(struct seq_file *m, loff_t *pos)
{
	return *pos ? rvv_tasks_find(m, pos) : SEQ_START_TOKEN;
}

static void *rvv_tasks_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return rvv_tasks_find(m, pos);
}

static void rvv_tasks_stop(struct seq_file *m, void *v)
{
}

/* A comm with every byte escaped: "\xNN" is four. */
#define RVV_COMM_SHOWN	(4 * TASK_COMM_LEN)

/*
 * A comm as the tasks file and the summary show it. Any user can name a
 * thread: control bytes (a newline would forge a row, ESC would reach the
 * reader's terminal) become \xNN and a backslash \\, as in rvvctl's text.
 * Other bytes pass as they are, so UTF-8 names stay legible.
 */
static const char *rvv_comm_shown(char out[RVV_COMM_SHOWN], const char *comm)
{
	char *at = out;
	size_t i;

	for (i = 0; i < TASK_COMM_LEN && comm[i]; i++) {
		unsigned char c = comm[i];

		if (c < 0x20 || c == 0x7f)
			at += sprintf(at, "\\x%02x", c);
		else if (c == '\\')
			at += sprintf(at, "\\\\");
		else
			*at++ = c;
	}
	*at = '\0';
	return out;
}

/* comm goes last: it may contain spaces. */
static int rvv_tasks_show(struct seq_file *m, void *v)
{
	const struct rvv_task_snapshot *s;
	char comm[RVV_COMM_SHOWN];

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "tid tgid");
		rvv_put_names(m, rvv_counter_names, RVVSTAT_NR_COUNTERS);
		seq_puts(m, " bytes comm\n");
		return 0;
	}
	s = &((const struct rvv_task_iter *)v)->snap;
	seq_printf(m, "%d %d", s->tid, s->tgid);
	rvv_put_counts(m, &s->counts);
	seq_printf(m, " %llu %s\n", rvv_bytes_of(s->counts.c), rvv_comm_shown(comm, s->comm));
	return 0;
}

static const struct seq_operations rvv_tasks_seq_ops = {
	.start = rvv_tasks_start,
	.next = rvv_tasks_next,
	.stop = rvv_tasks_stop,
	.show = rvv_tasks_show,
};

static int rvv_tasks_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &rvv_tasks_seq_ops,
				sizeof(struct rvv_task_iter));
}

static const struct file_operations rvv_tasks_fops = {
	.owner = THIS_MODULE,
	.open = rvv_tasks_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

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

static void rvv_summary_cpus(struct seq_file *m)
{
	u64 events[RVVSTAT_NR_CPU_EVENTS];
	struct rvv_counts c;
	int cpu;

	seq_printf(m, "\n  %-4s %12s %12s %12s %14s %7s\n", "cpu", "switches",
		   "saves", "restores", "bytes saved", "invol%");
	for_each_possible_cpu(cpu) {
		rvv_snapshot_cpu(cpu, &c, events);
		seq_printf(m, "  %-4d %12llu %12llu %12llu %14llu %6u%%\n", cpu,
			   c.c[RVVSTAT_SWITCHES], rvv_saves(&c),
			   c.c[RVVSTAT_RESTORES_PERFORMED], rvv_bytes_of(c.c),
			   rvv_percent(c.c[RVVSTAT_SAVES_INVOLUNTARY], rvv_saves(&c)));
	}
}

static int rvv_cmp_saves_desc(const void *a, const void *b)
{
	u64 sa = rvv_saves(&((const struct rvv_task_snapshot *)a)->counts);
	u64 sb = rvv_saves(&((const struct rvv_task_snapshot *)b)->counts);

	return sa < sb ? 1 : sa > sb ? -1 : 0;
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

static void rvv_summary_tasks(struct seq_file *m, const struct rvv_totals *t)
{
	struct rvv_task_snapshot *top;
	char who[24 + RVV_COMM_SHOWN], comm[RVV_COMM_SHOWN];
	int nr, i;

	seq_printf(m, "\n  %-30s %12s %12s %14s %7s %9s\n", "top by saves: tgid/tid comm",
		   "saves", "restores", "bytes saved", "invol%", "first use");
	top = kmalloc_array(RVV_TOP_TASKS, sizeof(*top), GFP_KERNEL);
	if (!top) {
		seq_puts(m, "  (no memory to rank tasks)\n");
		return;
	}
	nr = rvv_collect_top(top);
	for (i = 0; i < nr; i++) {
		snprintf(who, sizeof(who), "%d/%d %s", top[i].tgid, top[i].tid,
			 rvv_comm_shown(comm, top[i].comm));
		rvv_summary_task_row(m, who, &top[i].counts);
	}
	kfree(top);
	if (!nr && rvv_saves(&t->exited))
		seq_puts(m, "  (no live task has saved; those that did have exited)\n");
	else if (!nr)
		seq_puts(m, "  (no task has saved vector state yet)\n");
	rvv_summary_task_row(m, "exited tasks (all)", &t->exited);
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

static void rvv_summary_latency_method(struct seq_file *m,
				       enum rvvstat_latency kind)
{
	const struct rvv_latency_method *method = rvv_latency_method(kind);

	seq_printf(m, "  %-15s %s", rvv_latency_names[kind],
		   method->text[0] ? method->text : "not measured by this backend");
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
	rvv_windows_describe(m);
}

static int rvv_summary_show(struct seq_file *m, void *unused)
{
	struct rvvstat_info info = {};
	struct rvv_totals t;
	u64 elapsed;

	rvv_snapshot_totals(&t);
	elapsed = local_clock() - t.since_ns;
	seq_printf(m, "rvvstat (ABI %d) on Linux %s %s\n", RVVSTAT_ABI_VERSION,
		   init_utsname()->release, init_utsname()->machine);
	rvv_arch_info(&info);
	seq_printf(m, "vector state: %s, %u-bit registers, %u bytes per save\n",
		   rvv_backend_titles[info.backend], info.vector_bits, rvv_arch_bytes_per_save());
	seq_printf(m, "counting for: %llu.%01llu s since load or reset\n",
		   div_u64(elapsed, NSEC_PER_SEC),
		   div_u64(elapsed % NSEC_PER_SEC, NSEC_PER_SEC / 10));
	seq_puts(m, "methods:\n");
	rvv_arch_describe(m);
	seq_printf(m, "task table: %u live of %u slots, %llu tasks not entered (table full), %llu switches of untracked tasks\n",
		   t.tasks_live, t.table_capacity,
		   t.events[RVVSTAT_CPU_TABLE_FULL],
		   t.events[RVVSTAT_CPU_UNTRACKED]);
	if (rvv_arch_verify_armed())
		seq_printf(m, "verification: %llu switch saves executed (instruction probes)\n",
			   t.events[RVVSTAT_CPU_VERIFY_SWITCH_SAVES]);
	rvv_summary_totals(m, &t, &info, elapsed);
	rvv_summary_latency(m);
	rvv_hints_describe(m);
	rvv_summary_cpus(m);
	rvv_summary_tasks(m, &t);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rvv_summary);

/* How the sampled sources were armed, for benches (windows.c). */
static int rvv_sampling_show(struct seq_file *m, void *unused)
{
	rvv_windows_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rvv_sampling);

static void rvv_hist_lines(struct seq_file *m, const char *kind,
			   const char *scope, const u64 *buckets,
			   unsigned int sub_bits, unsigned int nr)
{
	unsigned int b;

	for (b = 0; b < nr; b++)
		if (buckets[b])
			seq_printf(m, "%s %s %llu %llu %llu\n", kind, scope,
				   rvvstat_hist_lower(b, sub_bits),
				   rvvstat_hist_upper(b, sub_bits, nr), buckets[b]);
}

/* Non-empty buckets: per CPU and merged, then per task (coarser). */
static int rvv_hist_show(struct seq_file *m, void *unused)
{
	struct rvv_task_snapshot *snap;
	unsigned int slot;
	struct rvv_hist *h;
	char scope[24];
	int kind, cpu;

	h = kmalloc(sizeof(*h), GFP_KERNEL);
	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!h || !snap) {
		kfree(h);
		kfree(snap);
		return -ENOMEM;
	}
	seq_puts(m, "kind scope lower_ns upper_ns count\n");
	for (kind = 0; kind < RVVSTAT_NR_LATENCIES; kind++) {
		for_each_possible_cpu(cpu) {
			rvv_latency_snapshot(kind, cpu, h);
			snprintf(scope, sizeof(scope), "%d", cpu);
			rvv_hist_lines(m, rvv_latency_names[kind], scope,
				       h->buckets, RVVSTAT_CPU_HIST_SUB_BITS,
				       RVVSTAT_CPU_HIST_BUCKETS);
		}
		rvv_latency_snapshot(kind, -1, h);
		rvv_hist_lines(m, rvv_latency_names[kind], "all", h->buckets,
			       RVVSTAT_CPU_HIST_SUB_BITS, RVVSTAT_CPU_HIST_BUCKETS);
	}
	for (slot = 0; rvv_snapshot_task(&slot, snap); slot++) {
		snprintf(scope, sizeof(scope), "tid:%d", snap->tid);
		rvv_hist_lines(m, rvv_latency_names[RVVSTAT_LAT_SWITCH_SAVED],
			       scope, snap->switch_saved_hist,
			       RVVSTAT_TASK_HIST_SUB_BITS,
			       RVVSTAT_TASK_HIST_BUCKETS);
	}
	kfree(snap);
	kfree(h);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rvv_hist);

static ssize_t rvv_reset_write(struct file *file, const char __user *buf,
			       size_t len, loff_t *ppos)
{
	unsigned int value;
	int err;

	err = kstrtouint_from_user(buf, len, 0, &value);
	if (err)
		return err;
	if (value != 1)
		return -EINVAL;
	err = rvv_control_reset();
	return err ? err : len;
}

static const struct file_operations rvv_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = rvv_reset_write,
	.llseek = noop_llseek,
};

static ssize_t rvv_calibrate_write(struct file *file, const char __user *buf,
				   size_t len, loff_t *ppos)
{
	char word[16];
	int err;

	if (len >= sizeof(word))
		return -EINVAL;
	if (copy_from_user(word, buf, len))
		return -EFAULT;
	word[len] = '\0';
	if (strcmp(strim(word), "calibrate"))
		return -EINVAL;
	err = rvv_control_calibrate();
	return err ? err : len;
}

static const struct file_operations rvv_calibrate_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = rvv_calibrate_write,
	.llseek = noop_llseek,
};

void rvv_debugfs_init(void)
{
	rvv_dir = debugfs_create_dir(RVVSTAT_NAME, NULL);
	debugfs_create_file("summary", 0444, rvv_dir, NULL, &rvv_summary_fops);
	debugfs_create_file("cpus", 0444, rvv_dir, NULL, &rvv_cpus_fops);
	debugfs_create_file("tasks", 0444, rvv_dir, NULL, &rvv_tasks_fops);
	debugfs_create_file("totals", 0444, rvv_dir, NULL, &rvv_totals_fops);
	debugfs_create_file("hist", 0444, rvv_dir, NULL, &rvv_hist_fops);
	debugfs_create_file("sampling", 0444, rvv_dir, NULL, &rvv_sampling_fops);
	debugfs_create_file("reset", 0200, rvv_dir, NULL, &rvv_reset_fops);
	debugfs_create_file("calibrate", 0200, rvv_dir, NULL,
			    &rvv_calibrate_fops);
}

void rvv_debugfs_exit(void)
{
	debugfs_remove_recursive(rvv_dir);
}
