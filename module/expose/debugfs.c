// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/rvvstat/: cpus, tasks, totals and hist for programs (a
 * header line of column names from the uapi, then one row each), thin
 * formatters over the snapshots; the summary for people (summary.c); and
 * the reset and calibrate controls (control.c).
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "core/accounting.h"
#include "core/control.h"
#include "expose/expose.h"
#include "timing/latency.h"
#include "expose/snapshot.h"
#include "expose/summary.h"
#include "timing/windows.h"
#include "rvvstat/hist.h"

static struct dentry *rvv_dir;

static const char *const rvv_counter_names[] = RVVSTAT_COUNTER_NAMES;
static const char *const rvv_event_names[] = RVVSTAT_CPU_EVENT_NAMES;
static const char *const rvv_latency_names[] = RVVSTAT_LATENCY_NAMES;
static_assert(ARRAY_SIZE(rvv_counter_names) == RVVSTAT_NR_COUNTERS);
static_assert(ARRAY_SIZE(rvv_event_names) == RVVSTAT_NR_CPU_EVENTS);
static_assert(ARRAY_SIZE(rvv_latency_names) == RVVSTAT_NR_LATENCIES);

static void rvv_put_names(struct seq_file *m, const char *const *names, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		seq_printf(m, " %s", names[i]);
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

DEFINE_SHOW_ATTRIBUTE(rvv_summary);

/* How the sampled sources were armed, for benches (windows.c). */
static int rvv_sampling_show(struct seq_file *m, void *unused)
{
	struct rvv_window_counts c[RVV_MAX_WINDOW_SOURCES];
	int i, n = rvv_windows_read(c);

	seq_puts(m, "source windows patches armed timed events\n");
	for (i = 0; i < n; i++)
		seq_printf(m, "%s %llu %llu %u %llu %llu\n", c[i].name,
			   c[i].windows, c[i].patches, c[i].armed, c[i].timed,
			   c[i].events);
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
	err = rvv_control_reset(file);
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
	err = rvv_control_calibrate(file);
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
