// SPDX-License-Identifier: GPL-2.0
/*
 * Counting core: per-CPU counters, the preallocated per-task table keyed by
 * task_struct pointer (pids are freed before a task's last switch, so they
 * alias), and the aggregate of freed tasks.
 */
#include <linux/irqflags.h>
#include <linux/kmemleak.h>
#include <linux/log2.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "core/accounting-switch.h"
#include "rvvstat/hist.h"

DEFINE_PER_CPU_ALIGNED(struct rvv_cpu_stats, rvv_cpu_stats);
struct rvv_task_hot *rvv_hot __ro_after_init;
struct rvv_task_cold *rvv_cold __ro_after_init;
unsigned int rvv_table_bits __ro_after_init;
static DEFINE_SPINLOCK(rvv_table_lock);	/* serialises key changes only */
static unsigned int rvv_tasks_live;	/* under rvv_table_lock */
static u64 rvv_since_ns;

/* From module init only: the table pointers are read-only after it. */
int rvv_accounting_init(unsigned int table_capacity)
{
	rvv_table_bits = ilog2(roundup_pow_of_two(table_capacity));
	rvv_hot = vcalloc(1U << rvv_table_bits, sizeof(*rvv_hot));
	rvv_cold = vcalloc(1U << rvv_table_bits, sizeof(*rvv_cold));
	if (!rvv_hot || !rvv_cold) {
		vfree(rvv_hot);
		vfree(rvv_cold);
		return -ENOMEM;
	}
	/*
	 * kmemleak does not scan a module's __ro_after_init memory, where
	 * the only pointers to the tables live: it would report them.
	 */
	kmemleak_not_leak(rvv_hot);
	kmemleak_not_leak(rvv_cold);
	rvv_since_ns = local_clock();
	return 0;
}

void rvv_accounting_exit(void)
{
	vfree(rvv_hot);
	vfree(rvv_cold);
}

/*
 * A row's identity is rewritten under rvv_table_lock with gen odd, so that
 * lockless snapshot readers (rvv_copy_entry) can detect and skip the change.
 */
static void rvv_entry_write_begin(struct rvv_task_cold *cold)
{
	WRITE_ONCE(cold->gen, cold->gen + 1);
	smp_wmb();	/* gen odd before the row changes; pairs with rvv_copy_entry */
}

static void rvv_entry_write_end(struct rvv_task_cold *cold)
{
	smp_wmb();	/* row complete before gen is even again */
	WRITE_ONCE(cold->gen, cold->gen + 1);
}

/* A row's counters, hot and cold halves added. */
static void rvv_row_counts(const struct rvv_task_hot *row,
			   struct rvv_counts *counts)
{
	const struct rvv_task_cold *cold = rvv_cold_of(row);
	int i, hot;

	for (i = 0; i < RVVSTAT_NR_COUNTERS; i++) {
		hot = rvv_hot_index(i);
		counts->c[i] = READ_ONCE(cold->counts.c[i]);
		if (hot >= 0)
			counts->c[i] += READ_ONCE(row->c[hot]);
	}
}

void rvv_task_enter(struct task_struct *task)
{
	struct rvv_task_hot *free_slot = NULL;
	struct rvv_task_cold *cold;
	char comm[TASK_COMM_LEN];
	unsigned long flags;
	unsigned int probe;

	/* task_lock nests outside rvv_table_lock (task_rename holds it). */
	get_task_comm(comm, task);
	spin_lock_irqsave(&rvv_table_lock, flags);
	for (probe = 0; probe < RVV_MAX_PROBE; probe++) {
		struct rvv_task_hot *row = &rvv_hot[rvv_slot(task, probe)];

		if (row->key == task)
			goto out;	/* the load-time walk met a fresh fork */
		if (!free_slot && (!row->key || row->key == RVV_SLOT_FREED))
			free_slot = row;
		if (!row->key)
			break;
	}
	if (!free_slot) {
		this_cpu_inc(rvv_cpu_stats.events[RVVSTAT_CPU_TABLE_FULL]);
		goto out;
	}
	/* Counters are already zero: rvv_task_free() cleared them. */
	cold = rvv_cold_of(free_slot);
	rvv_entry_write_begin(cold);
	cold->tid = task_pid_nr(task);
	cold->tgid = task->tgid;
	memcpy(cold->comm, comm, sizeof(comm));
	free_slot->cpu = -1;
	free_slot->restore_pending = false;
	free_slot->vector_used = false;
	rvv_entry_write_end(cold);
	/* Published last: once the key matches, the row is complete. */
	smp_store_release(&free_slot->key, task);
	rvv_tasks_live++;
out:
	spin_unlock_irqrestore(&rvv_table_lock, flags);
}

/*
 * Rewrites a live task's row: its tid as the task has it now, and @comm if
 * given. Under the table lock, so that the row is neither freed (an RCU
 * callback, whatever else holds the task) nor claimed by another task
 * meanwhile. Never on the switch path.
 */
static void rvv_task_rewrite(struct task_struct *task, const char *comm)
{
	struct rvv_task_cold *cold;
	struct rvv_task_hot *row;
	unsigned long flags;

	spin_lock_irqsave(&rvv_table_lock, flags);
	row = rvv_task_lookup(task);
	if (row) {
		cold = rvv_cold_of(row);
		rvv_entry_write_begin(cold);
		cold->tid = task_pid_nr(task);
		if (comm)
			strscpy_pad(cold->comm, comm, sizeof(cold->comm));
		rvv_entry_write_end(cold);
	}
	spin_unlock_irqrestore(&rvv_table_lock, flags);
}

/* Under the task's task_lock, which nests outside rvv_table_lock. */
void rvv_task_rename(struct task_struct *task, const char *comm)
{
	rvv_task_rewrite(task, comm);
}

void rvv_task_exec(struct task_struct *task, pid_t old_pid)
{
	struct rvv_task_hot *row;

	if (old_pid != task_pid_nr(task))
		rvv_task_rewrite(task, NULL);
	/*
	 * First use is since exec, as the RISC-V trap sees it. @task is current,
	 * so this is the CPU that alone writes its flag.
	 */
	row = rvv_task_lookup(task);
	if (row)
		WRITE_ONCE(row->vector_used, false);
}

/* Called after the task's final switch (RCU callback): no writer remains. */
void rvv_task_free(struct task_struct *task)
{
	struct rvv_task_cold *cold;
	struct rvv_cpu_stats *cpu;
	struct rvv_task_hot *row;
	struct rvv_counts counts;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&rvv_table_lock, flags);
	row = rvv_task_lookup(task);
	if (row) {
		cpu = this_cpu_ptr(&rvv_cpu_stats);
		cold = rvv_cold_of(row);
		rvv_entry_write_begin(cold);
		rvv_row_counts(row, &counts);
		for (i = 0; i < RVVSTAT_NR_COUNTERS; i++)
			cpu->exited.c[i] += counts.c[i];
		memset(row->c, 0, sizeof(row->c));
		memset(&cold->counts, 0, sizeof(cold->counts));
		memset(cold->switch_saved_hist, 0,
		       sizeof(cold->switch_saved_hist));
		WRITE_ONCE(row->key, RVV_SLOT_FREED);
		rvv_entry_write_end(cold);
		rvv_tasks_live--;
	}
	spin_unlock_irqrestore(&rvv_table_lock, flags);
}

/*
 * Events outside the switch path may run with IRQs on: the current CPU's
 * counters are updated with IRQs off, as on the switch path.
 */
struct rvv_event {
	struct rvv_cpu_stats *cpu;
	struct rvv_task_hot *e;
	unsigned long flags;
};

static void rvv_event_begin(struct rvv_event *ev, struct task_struct *task)
{
	local_irq_save(ev->flags);
	ev->cpu = this_cpu_ptr(&rvv_cpu_stats);
	ev->e = rvv_task_lookup(task);
}

static void rvv_event_end(struct rvv_event *ev)
{
	local_irq_restore(ev->flags);
}

void rvv_account_observe(struct task_struct *task, bool armed_now)
{
	struct rvv_event ev;

	rvv_event_begin(&ev, task);
	rvv_reconcile_restore(ev.cpu, ev.e, armed_now);
	rvv_event_end(&ev);
}

void rvv_account_kernel_v(struct task_struct *task, bool saved,
			  bool armed_now, bool arms_restore)
{
	struct rvv_event ev;

	rvv_event_begin(&ev, task);
	rvv_count(ev.cpu, ev.e, RVVSTAT_KERNEL_V);
	if (saved)
		rvv_count(ev.cpu, ev.e, RVVSTAT_KERNEL_V_SAVES);
	if (arms_restore)
		rvv_arm_restore(ev.cpu, ev.e, armed_now);
	else
		rvv_reconcile_restore(ev.cpu, ev.e, armed_now);
	rvv_event_end(&ev);
}

void rvv_account_kernel_v_save(struct task_struct *task)
{
	struct rvv_event ev;

	rvv_event_begin(&ev, task);
	rvv_count(ev.cpu, ev.e, RVVSTAT_KERNEL_V_SAVES);
	rvv_event_end(&ev);
}

/* Called once the first-use handler has enabled V and armed the restore. */
void rvv_account_first_use(struct task_struct *task)
{
	struct rvv_event ev;

	rvv_event_begin(&ev, task);
	rvv_count(ev.cpu, ev.e, RVVSTAT_FIRST_USE);
	rvv_reconcile_restore(ev.cpu, ev.e, true);
	rvv_event_end(&ev);
}

bool rvv_account_vector_seen(struct task_struct *task)
{
	struct rvv_event ev;
	bool first;

	rvv_event_begin(&ev, task);
	/* Only the CPU running the task writes its flag. */
	first = ev.e && !ev.e->vector_used;
	if (first) {
		ev.e->vector_used = true;
		rvv_count(ev.cpu, ev.e, RVVSTAT_FIRST_USE);
	}
	rvv_event_end(&ev);
	return first;
}

bool rvv_task_vector_seen(struct task_struct *task)
{
	struct rvv_task_hot *e = rvv_task_lookup(task);

	return e && READ_ONCE(e->vector_used);
}

/* exec is about to clear the flag without restoring anything. */
void rvv_account_exec_flush(struct task_struct *task, bool armed_now)
{
	struct rvv_event ev;

	rvv_event_begin(&ev, task);
	rvv_reconcile_restore(ev.cpu, ev.e, armed_now);
	if (ev.e && ev.e->restore_pending) {
		rvv_count(ev.cpu, ev.e, RVVSTAT_RESTORES_CANCELLED);
		ev.e->restore_pending = false;
	}
	rvv_event_end(&ev);
}

void rvv_account_cpu_event(enum rvvstat_cpu_event event)
{
	this_cpu_inc(rvv_cpu_stats.events[event]);
}

/*
 * @row's task is switching out on this CPU, or has just switched out of it,
 * so no other CPU writes its row meanwhile.
 */
void rvv_account_task_latency(struct rvv_task_hot *row, u64 ns)
{
	unsigned int bucket = rvvstat_hist_bucket(ns, RVVSTAT_TASK_HIST_SUB_BITS,
						  RVVSTAT_TASK_HIST_BUCKETS);

	rvv_cold_of(row)->switch_saved_hist[bucket]++;
}

void rvv_accounting_zero(void)
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&rvv_cpu_stats, cpu), 0,
		       sizeof(struct rvv_cpu_stats));
	for (i = 0; i < 1U << rvv_table_bits; i++) {
		memset(rvv_hot[i].c, 0, sizeof(rvv_hot[i].c));
		memset(&rvv_cold[i].counts, 0, sizeof(rvv_cold[i].counts));
		memset(rvv_cold[i].switch_saved_hist, 0,
		       sizeof(rvv_cold[i].switch_saved_hist));
	}
	rvv_since_ns = local_clock();
}

void rvv_snapshot_cpu(int cpu, struct rvv_counts *counts,
		      u64 events[RVVSTAT_NR_CPU_EVENTS])
{
	const struct rvv_cpu_stats *s = per_cpu_ptr(&rvv_cpu_stats, cpu);
	int i;

	for (i = 0; i < RVVSTAT_NR_COUNTERS; i++)
		counts->c[i] = READ_ONCE(s->counts.c[i]);
	for (i = 0; i < RVVSTAT_NR_CPU_EVENTS; i++)
		events[i] = READ_ONCE(s->events[i]);
}

u64 rvv_cpu_switches(int cpu)
{
	return READ_ONCE(per_cpu_ptr(&rvv_cpu_stats, cpu)->counts.c[RVVSTAT_SWITCHES]);
}

void rvv_cpu_set_sample_at(int cpu, u64 at)
{
	WRITE_ONCE(per_cpu_ptr(&rvv_cpu_stats, cpu)->sample_at, at);
}

void rvv_snapshot_totals_cpus(struct rvv_totals *t, struct rvv_counts *cpus)
{
	u64 events[RVVSTAT_NR_CPU_EVENTS];
	struct rvv_counts counts;
	int cpu, i;

	memset(t, 0, sizeof(*t));
	for_each_possible_cpu(cpu) {
		const struct rvv_cpu_stats *s = per_cpu_ptr(&rvv_cpu_stats, cpu);

		rvv_snapshot_cpu(cpu, &counts, events);
		if (cpus)
			cpus[cpu] = counts;
		for (i = 0; i < RVVSTAT_NR_COUNTERS; i++) {
			t->all.c[i] += counts.c[i];
			t->exited.c[i] += READ_ONCE(s->exited.c[i]);
		}
		for (i = 0; i < RVVSTAT_NR_CPU_EVENTS; i++)
			t->events[i] += events[i];
	}
	t->tasks_live = READ_ONCE(rvv_tasks_live);
	t->table_capacity = 1U << rvv_table_bits;
	t->since_ns = READ_ONCE(rvv_since_ns);
}

static bool rvv_copy_entry(const struct rvv_task_hot *row,
			   struct rvv_task_snapshot *snap)
{
	const struct rvv_task_cold *cold = rvv_cold_of(row);
	u32 gen = READ_ONCE(cold->gen);
	struct task_struct *key;
	int i;

	smp_rmb();	/* read gen before the row; pairs with write_begin */
	key = READ_ONCE(row->key);
	if ((gen & 1) || !key || key == RVV_SLOT_FREED)
		return false;
	snap->task = key;
	snap->tid = cold->tid;
	snap->tgid = cold->tgid;
	snap->cpu = READ_ONCE(row->cpu);
	memcpy(snap->comm, cold->comm, sizeof(snap->comm));
	snap->comm[sizeof(snap->comm) - 1] = '\0';
	rvv_row_counts(row, &snap->counts);
	for (i = 0; i < RVVSTAT_TASK_HIST_BUCKETS; i++)
		snap->switch_saved_hist[i] =
			READ_ONCE(cold->switch_saved_hist[i]);
	smp_rmb();	/* read the row before gen again; pairs with write_end */
	return READ_ONCE(cold->gen) == gen;
}

bool rvv_snapshot_task(unsigned int *slot, struct rvv_task_snapshot *snap)
{
	for (; *slot < 1U << rvv_table_bits; (*slot)++)
		if (rvv_copy_entry(&rvv_hot[*slot], snap))
			return true;
	return false;
}

bool rvv_snapshot_task_of(struct task_struct *task,
			  struct rvv_task_snapshot *snap)
{
	struct rvv_task_hot *row;
	int tries;

	row = rvv_task_lookup(task);
	/* A row being rewritten this instant is retried, not reported absent. */
	for (tries = 0; row && tries < 100; tries++)
		if (rvv_copy_entry(row, snap))
			break;
	return row && tries < 100;
}
