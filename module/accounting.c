// SPDX-License-Identifier: GPL-2.0
/*
 * Counting core: per-CPU counters, the preallocated per-task table keyed by
 * task_struct pointer (pids are freed before a task's last switch, so they
 * alias), and the aggregate of freed tasks.
 */
#include <linux/hash.h>
#include <linux/irqflags.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <linux/stop_machine.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "accounting.h"
#include "arch.h"
#include "hints.h"
#include "latency.h"

/* Bounds the lookup on the switch path, whatever the table's history. */
#define RVV_MAX_PROBE		32
#define RVV_SLOT_FREED		((struct task_struct *)1UL)

struct rvv_cpu_stats {
	struct rvv_counts counts;
	struct rvv_counts exited;	/* tasks freed on this CPU */
	u64 events[RVVSTAT_NR_CPU_EVENTS];
};

static DEFINE_PER_CPU(struct rvv_cpu_stats, rvv_cpu_stats);
static DEFINE_SPINLOCK(rvv_table_lock);	/* serialises key changes only */
static struct rvv_task_entry *rvv_table;
static unsigned int rvv_table_bits;
static unsigned int rvv_tasks_live;	/* under rvv_table_lock */
static u64 rvv_since_ns;

int rvv_accounting_init(unsigned int table_capacity)
{
	rvv_table_bits = ilog2(roundup_pow_of_two(table_capacity));
	rvv_table = vcalloc(1U << rvv_table_bits, sizeof(*rvv_table));
	if (!rvv_table)
		return -ENOMEM;
	rvv_since_ns = local_clock();
	return 0;
}

void rvv_accounting_exit(void)
{
	vfree(rvv_table);
	rvv_table = NULL;
}

static unsigned int rvv_slot(const struct task_struct *task, unsigned int probe)
{
	return (hash_ptr(task, rvv_table_bits) + probe) &
	       ((1U << rvv_table_bits) - 1);
}

static struct rvv_task_entry *rvv_task_lookup(const struct task_struct *task)
{
	unsigned int probe;

	for (probe = 0; probe < RVV_MAX_PROBE; probe++) {
		struct rvv_task_entry *e = &rvv_table[rvv_slot(task, probe)];
		struct task_struct *key = READ_ONCE(e->key);

		if (key == task)
			return e;
		if (!key)
			return NULL;
	}
	return NULL;
}

/*
 * A row's identity is rewritten under rvv_table_lock with gen odd, so that
 * lockless snapshot readers (rvv_copy_entry) can detect and skip the change.
 */
static void rvv_entry_write_begin(struct rvv_task_entry *e)
{
	WRITE_ONCE(e->gen, e->gen + 1);
	smp_wmb();	/* gen odd before the row changes; pairs with rvv_copy_entry */
}

static void rvv_entry_write_end(struct rvv_task_entry *e)
{
	smp_wmb();	/* row complete before gen is even again */
	WRITE_ONCE(e->gen, e->gen + 1);
}

void rvv_task_enter(struct task_struct *task)
{
	struct rvv_task_entry *free_slot = NULL;
	char comm[TASK_COMM_LEN];
	unsigned long flags;
	unsigned int probe;

	/* task_lock nests outside rvv_table_lock (task_rename holds it). */
	get_task_comm(comm, task);
	spin_lock_irqsave(&rvv_table_lock, flags);
	for (probe = 0; probe < RVV_MAX_PROBE; probe++) {
		struct rvv_task_entry *e = &rvv_table[rvv_slot(task, probe)];

		if (e->key == task)
			goto out;	/* the load-time walk met a fresh fork */
		if (!free_slot && (!e->key || e->key == RVV_SLOT_FREED))
			free_slot = e;
		if (!e->key)
			break;
	}
	if (!free_slot) {
		this_cpu_inc(rvv_cpu_stats.events[RVVSTAT_CPU_TABLE_FULL]);
		goto out;
	}
	/* Counters are already zero: rvv_task_free() cleared them. */
	rvv_entry_write_begin(free_slot);
	free_slot->tid = task_pid_nr(task);
	free_slot->tgid = task->tgid;
	free_slot->cpu = -1;
	free_slot->restore_pending = false;
	free_slot->vector_used = false;
	memcpy(free_slot->comm, comm, sizeof(comm));
	rvv_entry_write_end(free_slot);
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
	struct rvv_task_entry *e;
	unsigned long flags;

	spin_lock_irqsave(&rvv_table_lock, flags);
	e = rvv_task_lookup(task);
	if (e) {
		rvv_entry_write_begin(e);
		e->tid = task_pid_nr(task);
		if (comm)
			strscpy_pad(e->comm, comm, sizeof(e->comm));
		rvv_entry_write_end(e);
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
	struct rvv_task_entry *e;

	if (old_pid != task_pid_nr(task))
		rvv_task_rewrite(task, NULL);
	/*
	 * First use is since exec, as the RISC-V trap sees it. @task is current,
	 * so this is the CPU that alone writes its flag.
	 */
	e = rvv_task_lookup(task);
	if (e)
		WRITE_ONCE(e->vector_used, false);
}

/* Called after the task's final switch (RCU callback): no writer remains. */
void rvv_task_free(struct task_struct *task)
{
	struct rvv_cpu_stats *cpu;
	struct rvv_task_entry *e;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&rvv_table_lock, flags);
	e = rvv_task_lookup(task);
	if (e) {
		cpu = this_cpu_ptr(&rvv_cpu_stats);
		rvv_entry_write_begin(e);
		for (i = 0; i < RVVSTAT_NR_COUNTERS; i++)
			cpu->exited.c[i] += e->counts.c[i];
		memset(&e->counts, 0, sizeof(e->counts));
		memset(e->switch_saved_hist, 0, sizeof(e->switch_saved_hist));
		WRITE_ONCE(e->key, RVV_SLOT_FREED);
		rvv_entry_write_end(e);
		rvv_tasks_live--;
	}
	spin_unlock_irqrestore(&rvv_table_lock, flags);
}

static void rvv_count(struct rvv_cpu_stats *cpu, struct rvv_task_entry *e,
		      enum rvvstat_counter counter)
{
	cpu->counts.c[counter]++;
	if (e)
		e->counts.c[counter]++;
}

/*
 * Reconciles our shadow of a task's deferred-restore flag with the flag now:
 * a flag we saw armed and now find clear was consumed by a restore on return
 * to user; a flag armed behind our back (sigreturn, ptrace) is counted late.
 */
static void rvv_reconcile_restore(struct rvv_cpu_stats *cpu,
				  struct rvv_task_entry *e, bool armed_now)
{
	if (!e || e->restore_pending == armed_now)
		return;
	rvv_count(cpu, e, armed_now ? RVVSTAT_RESTORES_SCHEDULED :
				      RVVSTAT_RESTORES_PERFORMED);
	e->restore_pending = armed_now;
}

/* The kernel is about to arm a deferred restore for this task. */
static void rvv_arm_restore(struct rvv_cpu_stats *cpu, struct rvv_task_entry *e,
			    bool armed_now)
{
	rvv_reconcile_restore(cpu, e, armed_now);
	rvv_count(cpu, e, armed_now ? RVVSTAT_RESTORES_COALESCED :
				      RVVSTAT_RESTORES_SCHEDULED);
	if (e)
		e->restore_pending = true;
}

void rvv_account_switch(struct task_struct *prev, struct task_struct *next,
			const struct rvv_switch_vstate *vs, bool involuntary)
{
	struct rvv_cpu_stats *cpu = this_cpu_ptr(&rvv_cpu_stats);
	struct rvv_task_entry *pe = rvv_task_lookup(prev);
	struct rvv_task_entry *ne = rvv_task_lookup(next);

	/* Idle tasks have no row: they are never forked and never use V. */
	if (!pe && !is_idle_task(prev))
		cpu->events[RVVSTAT_CPU_UNTRACKED]++;
	rvv_count(cpu, pe, RVVSTAT_SWITCHES);
	if (vs->save_user)
		rvv_count(cpu, pe, RVVSTAT_SAVES_USER);
	if (vs->save_kernel)
		rvv_count(cpu, pe, RVVSTAT_SAVES_KERNEL);
	if ((vs->save_user || vs->save_kernel) && involuntary)
		rvv_count(cpu, pe, RVVSTAT_SAVES_INVOLUNTARY);
	if (vs->discarded)
		rvv_count(cpu, pe, RVVSTAT_SAVES_DISCARDED);
	rvv_reconcile_restore(cpu, pe, vs->prev_armed);

	/* A plain store: only the CPU switching the task in writes it. */
	if (ne)
		WRITE_ONCE(ne->cpu, smp_processor_id());
	if (vs->restore_user)
		rvv_arm_restore(cpu, ne, vs->next_armed);
	else
		rvv_reconcile_restore(cpu, ne, vs->next_armed);
	if (vs->restore_kernel)
		rvv_count(cpu, ne, RVVSTAT_RESTORES_KERNEL);
}

/*
 * Events outside the switch path may run with IRQs on: the current CPU's
 * counters are updated with IRQs off, as on the switch path.
 */
struct rvv_event {
	struct rvv_cpu_stats *cpu;
	struct rvv_task_entry *e;
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
	struct rvv_task_entry *e = rvv_task_lookup(task);

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
 * The task is switching out on this CPU, or has just switched out of it,
 * so no other CPU writes its row meanwhile.
 */
void rvv_account_task_latency(struct task_struct *task, u64 ns)
{
	struct rvv_task_entry *e = rvv_task_lookup(task);

	if (e)
		e->switch_saved_hist[rvvstat_hist_bucket(ns,
					RVVSTAT_TASK_HIST_SUB_BITS,
					RVVSTAT_TASK_HIST_BUCKETS)]++;
}

static int rvv_zero_all(void *unused)
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu) {
		memset(per_cpu_ptr(&rvv_cpu_stats, cpu), 0,
		       sizeof(struct rvv_cpu_stats));
		rvv_latency_zero_cpu(cpu);
	}
	for (i = 0; i < 1U << rvv_table_bits; i++) {
		memset(&rvv_table[i].counts, 0, sizeof(rvv_table[i].counts));
		memset(rvv_table[i].switch_saved_hist, 0,
		       sizeof(rvv_table[i].switch_saved_hist));
	}
	rvv_hints_zero_events();
	rvv_since_ns = local_clock();
	return 0;
}

/* Every CPU is stopped meanwhile, so no increment is half-lost or survives. */
int rvv_accounting_reset(void)
{
	return stop_machine(rvv_zero_all, NULL, NULL);
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

void rvv_snapshot_totals(struct rvv_totals *t)
{
	u64 events[RVVSTAT_NR_CPU_EVENTS];
	struct rvv_counts counts;
	int cpu, i;

	memset(t, 0, sizeof(*t));
	for_each_possible_cpu(cpu) {
		const struct rvv_cpu_stats *s = per_cpu_ptr(&rvv_cpu_stats, cpu);

		rvv_snapshot_cpu(cpu, &counts, events);
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

static bool rvv_copy_entry(const struct rvv_task_entry *e,
			   struct rvv_task_snapshot *snap)
{
	u32 gen = READ_ONCE(e->gen);
	struct task_struct *key;
	int i;

	smp_rmb();	/* read gen before the row; pairs with write_begin */
	key = READ_ONCE(e->key);
	if ((gen & 1) || !key || key == RVV_SLOT_FREED)
		return false;
	snap->task = key;
	snap->tid = e->tid;
	snap->tgid = e->tgid;
	snap->cpu = READ_ONCE(e->cpu);
	memcpy(snap->comm, e->comm, sizeof(snap->comm));
	snap->comm[sizeof(snap->comm) - 1] = '\0';
	for (i = 0; i < RVVSTAT_NR_COUNTERS; i++)
		snap->counts.c[i] = READ_ONCE(e->counts.c[i]);
	for (i = 0; i < RVVSTAT_TASK_HIST_BUCKETS; i++)
		snap->switch_saved_hist[i] = READ_ONCE(e->switch_saved_hist[i]);
	smp_rmb();	/* read the row before gen again; pairs with write_end */
	return READ_ONCE(e->gen) == gen;
}

bool rvv_snapshot_task(unsigned int *slot, struct rvv_task_snapshot *snap)
{
	for (; *slot < 1U << rvv_table_bits; (*slot)++)
		if (rvv_copy_entry(&rvv_table[*slot], snap))
			return true;
	return false;
}

bool rvv_snapshot_task_of(struct task_struct *task,
			  struct rvv_task_snapshot *snap)
{
	struct rvv_task_entry *e;
	int tries;

	e = rvv_task_lookup(task);
	/* A row being rewritten this instant is retried, not reported absent. */
	for (tries = 0; e && tries < 100; tries++)
		if (rvv_copy_entry(e, snap))
			break;
	return e && tries < 100;
}

/* Every save of a full register file, at a switch or in kernel-mode V. */
u64 rvv_bytes_of(const u64 counters[RVVSTAT_NR_COUNTERS])
{
	return (counters[RVVSTAT_SAVES_USER] + counters[RVVSTAT_SAVES_KERNEL] +
		counters[RVVSTAT_KERNEL_V_SAVES]) * rvv_arch_bytes_per_save();
}
