/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counting core as the context-switch path sees it, inline so that the
 * sched_switch probe is a leaf: for accounting.c and events.c only.
 *
 * A task's row is split in two tables with the same index. The hot row is
 * one cache line holding the key and what a common switch touches, so that
 * a switch touches one line of each task and one of the CPU's counters; the
 * cold row holds the identity, the rarer counters and the histogram.
 */
#ifndef _RVVSTAT_ACCOUNTING_SWITCH_H
#define _RVVSTAT_ACCOUNTING_SWITCH_H

#include <linux/cache.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "core/accounting.h"

/* Bounds the lookup on the switch path, whatever the table's history. */
#define RVV_MAX_PROBE		32
#define RVV_SLOT_FREED		((struct task_struct *)1UL)

/* The counters of every switch of a vector task, kept in the hot row. */
enum rvv_hot_counter {
	RVV_HOT_SWITCHES,
	RVV_HOT_SAVES_USER,
	RVV_HOT_SAVES_INVOLUNTARY,
	RVV_HOT_SAVES_DISCARDED,
	RVV_HOT_RESTORES_SCHEDULED,
	RVV_HOT_RESTORES_PERFORMED,
	RVV_NR_HOT_COUNTERS
};

/* key: NULL = never used, RVV_SLOT_FREED = freed. */
struct rvv_task_hot {
	struct task_struct *key;
	u64 c[RVV_NR_HOT_COUNTERS];
	int cpu;		/* last switched in on; -1: not since entered */
	bool restore_pending;	/* we saw a restore armed and not yet consumed */
	bool vector_used;	/* seen using vector state (backends without a trap) */
} ____cacheline_aligned;

struct rvv_task_cold {
	u32 gen;		/* odd while key/identity are being rewritten */
	pid_t tid;
	pid_t tgid;
	char comm[TASK_COMM_LEN];
	struct rvv_counts counts;	/* those not in the hot row; the rest 0 */
	u32 switch_saved_hist[RVVSTAT_TASK_HIST_BUCKETS];
};

/* A task and its row (NULL: none) as this CPU last found it. */
struct rvv_cpu_row {
	struct task_struct *task;
	struct rvv_task_hot *row;
};

/* The first line holds the counters every switch touches (enum order). */
struct rvv_cpu_stats {
	struct rvv_counts counts;
	struct rvv_counts exited;	/* tasks freed on this CPU */
	u64 events[RVVSTAT_NR_CPU_EVENTS];
	/*
	 * Written by its own CPU only. The task it switched in last, so that
	 * the prev of its next switch needs no lookup: a row is neither freed
	 * nor moved while its task runs. Used only if the key matches prev: a
	 * CPU coming up runs its idle task without a switch, and
	 * rvv_accounting_zero() clears it.
	 */
	struct rvv_cpu_row current_row;
	/*
	 * The task it switched out last, often the next one in (two threads
	 * taking turns): its row is used only while the row's key is still
	 * that task, as the task may have been freed since.
	 */
	struct rvv_cpu_row last_out;
	/*
	 * The switch count from which the sampling probe calls out (0: every
	 * switch, while switches are timed). Set by the sampling windows; here
	 * so that the probe compares it with the count it just wrote.
	 */
	u64 sample_at;
};

DECLARE_PER_CPU_ALIGNED(struct rvv_cpu_stats, rvv_cpu_stats);
/* Set once at load: the switch path reads each once per call. */
extern struct rvv_task_hot *rvv_hot __ro_after_init;
extern struct rvv_task_cold *rvv_cold __ro_after_init;
extern unsigned int rvv_table_bits __ro_after_init;

static __always_inline int rvv_hot_index(enum rvvstat_counter counter)
{
	switch (counter) {
	case RVVSTAT_SWITCHES:
		return RVV_HOT_SWITCHES;
	case RVVSTAT_SAVES_USER:
		return RVV_HOT_SAVES_USER;
	case RVVSTAT_SAVES_INVOLUNTARY:
		return RVV_HOT_SAVES_INVOLUNTARY;
	case RVVSTAT_SAVES_DISCARDED:
		return RVV_HOT_SAVES_DISCARDED;
	case RVVSTAT_RESTORES_SCHEDULED:
		return RVV_HOT_RESTORES_SCHEDULED;
	case RVVSTAT_RESTORES_PERFORMED:
		return RVV_HOT_RESTORES_PERFORMED;
	default:
		return -1;
	}
}

static __always_inline struct rvv_task_cold *
rvv_cold_of(const struct rvv_task_hot *row)
{
	return &rvv_cold[row - rvv_hot];
}

static __always_inline unsigned int rvv_slot(const struct task_struct *task,
					     unsigned int probe)
{
	return (hash_ptr(task, rvv_table_bits) + probe) &
	       ((1U << rvv_table_bits) - 1);
}

static __always_inline struct rvv_task_hot *
rvv_task_lookup(const struct task_struct *task)
{
	struct rvv_task_hot *table = rvv_hot;
	unsigned int mask = (1U << rvv_table_bits) - 1;
	unsigned int slot = hash_ptr(task, rvv_table_bits);
	unsigned int probe;

	for (probe = 0; probe < RVV_MAX_PROBE; probe++) {
		struct rvv_task_hot *row = &table[(slot + probe) & mask];
		struct task_struct *key = READ_ONCE(row->key);

		if (key == task)
			return row;
		if (!key)
			return NULL;
	}
	return NULL;
}

static __always_inline void rvv_count(struct rvv_cpu_stats *cpu,
				      struct rvv_task_hot *row,
				      enum rvvstat_counter counter)
{
	int hot = rvv_hot_index(counter);

	cpu->counts.c[counter]++;
	if (!row)
		return;
	if (hot >= 0)
		row->c[hot]++;
	else
		rvv_cold_of(row)->counts.c[counter]++;
}

/*
 * Reconciles our shadow of a task's deferred-restore flag with the flag now:
 * a flag we saw armed and now find clear was consumed by a restore on return
 * to user; a flag armed behind our back (sigreturn, ptrace) is counted late.
 */
static __always_inline void rvv_reconcile_restore(struct rvv_cpu_stats *cpu,
						  struct rvv_task_hot *row,
						  bool armed_now)
{
	if (!row || row->restore_pending == armed_now)
		return;
	/* Two calls, not one with a computed index: fewer instructions. */
	if (armed_now)
		rvv_count(cpu, row, RVVSTAT_RESTORES_SCHEDULED);
	else
		rvv_count(cpu, row, RVVSTAT_RESTORES_PERFORMED);
	row->restore_pending = armed_now;
}

/* The kernel is about to arm a deferred restore for this task. */
static __always_inline void rvv_arm_restore(struct rvv_cpu_stats *cpu,
					    struct rvv_task_hot *row,
					    bool armed_now)
{
	rvv_reconcile_restore(cpu, row, armed_now);
	if (armed_now)
		rvv_count(cpu, row, RVVSTAT_RESTORES_COALESCED);
	else
		rvv_count(cpu, row, RVVSTAT_RESTORES_SCHEDULED);
	if (row)
		row->restore_pending = true;
}

/*
 * One context switch, IRQs off and the rq lock held, counted per CPU and in
 * both tasks' rows in two halves: prev's (after rvv_arch_decode_prev()),
 * then next's (after rvv_arch_decode_next()), each on @cpu, this CPU's
 * counters. Idle tasks have no row, as they are never forked and never use
 * V, so they are never looked up.
 */
static __always_inline struct rvv_cpu_stats *rvv_switch_cpu(int id)
{
	return per_cpu_ptr(&rvv_cpu_stats, id);
}

/* Returns prev's row (NULL: none) for the switch timing. */
static __always_inline struct rvv_task_hot *
rvv_account_switch_out(struct rvv_cpu_stats *cpu, struct task_struct *prev,
		       const struct rvv_switch_vstate *vs, bool involuntary)
{
	struct rvv_task_hot *pe = NULL;

	if (!is_idle_task(prev)) {
		if (cpu->current_row.task == prev)
			pe = cpu->current_row.row;
		if (!pe)
			pe = rvv_task_lookup(prev);
		if (!pe)
			cpu->events[RVVSTAT_CPU_UNTRACKED]++;
	}
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
	return pe;
}

/* next's row, NULL: none. */
static __always_inline struct rvv_task_hot *
rvv_next_row(const struct rvv_cpu_stats *cpu, struct task_struct *next)
{
	struct rvv_task_hot *row = cpu->last_out.row;

	if (is_idle_task(next))
		return NULL;
	/* The key is next's only while next lives, as it does here. */
	if (cpu->last_out.task == next && row && READ_ONCE(row->key) == next)
		return row;
	return rvv_task_lookup(next);
}

/* @id: this CPU's number, read once with @cpu; @pe: prev's row. */
static __always_inline void
rvv_account_switch_in(struct rvv_cpu_stats *cpu, int id,
		      struct task_struct *prev, struct rvv_task_hot *pe,
		      struct task_struct *next,
		      const struct rvv_switch_vstate *vs)
{
	struct rvv_task_hot *ne = rvv_next_row(cpu, next);

	cpu->last_out.task = prev;
	cpu->last_out.row = pe;
	cpu->current_row.task = next;
	cpu->current_row.row = ne;
	/* A plain store: only the CPU switching the task in writes it. */
	if (ne)
		WRITE_ONCE(ne->cpu, id);
	if (vs->restore_user)
		rvv_arm_restore(cpu, ne, vs->next_armed);
	else
		rvv_reconcile_restore(cpu, ne, vs->next_armed);
	if (vs->restore_kernel)
		rvv_count(cpu, ne, RVVSTAT_RESTORES_KERNEL);
}

#endif /* _RVVSTAT_ACCOUNTING_SWITCH_H */
