/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU and per-task counters of vector-state switching.
 *
 * Writers on the context-switch path run with IRQs off on the CPU that owns
 * the data: per-CPU counters are plain increments, and a task's counters are
 * only touched by the CPU the task is running on or being switched on. The
 * task table is preallocated; only fork and free (never the switch path) take
 * its lock.
 */
#ifndef _RVVSTAT_ACCOUNTING_H
#define _RVVSTAT_ACCOUNTING_H

#include <linux/sched.h>
#include <linux/types.h>
#include <uapi/linux/rvvstat.h>

struct rvv_counts {
	u64 c[RVVSTAT_NR_COUNTERS];
};

/* What the kernel is about to do with vector state at one context switch. */
struct rvv_switch_vstate {
	bool save_user;		/* prev's user state is dirty: saved */
	bool save_kernel;	/* prev's in-kernel preempt-V state is saved */
	bool discarded;		/* the saved user state was discarded by a syscall */
	bool prev_armed;	/* prev's deferred-restore flag is set now */
	bool next_armed;	/* next's deferred-restore flag is set now */
	bool restore_user;	/* next gets a deferred user restore armed */
	bool restore_kernel;	/* next will restore in-kernel preempt-V state */
};

/* A consistent copy of one row, for the exposure files. */
struct rvv_task_snapshot {
	/* The row's key: to compare with a task found by tid, never to use. */
	const struct task_struct *task;
	pid_t tid;
	pid_t tgid;
	int cpu;		/* last switched in on; -1: not since entered */
	char comm[TASK_COMM_LEN];
	struct rvv_counts counts;
	/* Switches that saved vector state, by duration (uapi task layout). */
	u64 switch_saved_hist[RVVSTAT_TASK_HIST_BUCKETS];
};

struct rvv_totals {
	struct rvv_counts all;		/* sum over CPUs */
	struct rvv_counts exited;	/* tasks freed since reset */
	u64 events[RVVSTAT_NR_CPU_EVENTS];
	unsigned int tasks_live;
	unsigned int table_capacity;
	u64 since_ns;			/* local_clock() at load or last reset */
};

int rvv_accounting_init(unsigned int table_capacity);
void rvv_accounting_exit(void);
/* Zeroes the counters, the task rows' too; every CPU stopped (control.c). */
void rvv_accounting_zero(void);

/* Task lifetime (process context or RCU callback; may take the table lock). */
void rvv_task_enter(struct task_struct *task);
void rvv_task_rename(struct task_struct *task, const char *comm);
/*
 * After exec (sched_process_exec): a thread that was not its process's
 * leader took the leader's tid (de_thread), and its row takes it too; the
 * new image has not used vector state yet.
 */
void rvv_task_exec(struct task_struct *task, pid_t old_pid);
void rvv_task_free(struct task_struct *task);

/*
 * Events. The switch itself is counted inline by the sched_switch probe
 * (accounting-switch.h); these come from other probes, IRQs on or off.
 */
void rvv_account_observe(struct task_struct *task, bool armed_now);
void rvv_account_kernel_v(struct task_struct *task, bool saved,
			  bool armed_now, bool arms_restore);
void rvv_account_kernel_v_save(struct task_struct *task);
void rvv_account_first_use(struct task_struct *task);
/*
 * For a backend with no first-use trap: the task was seen with vector state
 * in use. Counts first_use and returns true the first time per task.
 */
bool rvv_account_vector_seen(struct task_struct *task);
/* Whether rvv_account_vector_seen() ever returned true for the task. */
bool rvv_task_vector_seen(struct task_struct *task);
void rvv_account_exec_flush(struct task_struct *task, bool armed_now);
/* An event of this CPU that no task row holds; IRQs off or in a probe. */
void rvv_account_cpu_event(enum rvvstat_cpu_event event);
struct rvv_task_hot;
/*
 * From the switch-time source, IRQs off: how long a saving switch of the
 * task whose row the switch probe returned took.
 */
void rvv_account_task_latency(struct rvv_task_hot *row, u64 ns);

/* The switches @cpu counted since load or reset. */
u64 rvv_cpu_switches(int cpu);
/* The sampling probe on @cpu calls out from its switch number @at on. */
void rvv_cpu_set_sample_at(int cpu, u64 at);

/* Snapshots for the exposure files. */
void rvv_snapshot_cpu(int cpu, struct rvv_counts *counts,
		      u64 events[RVVSTAT_NR_CPU_EVENTS]);
/* The totals; each CPU's counts, that they sum, into @cpus unless NULL. */
void rvv_snapshot_totals_cpus(struct rvv_totals *totals, struct rvv_counts *cpus);

static inline void rvv_snapshot_totals(struct rvv_totals *totals)
{
	rvv_snapshot_totals_cpus(totals, NULL);
}

/* Copies the live row at or after *slot; returns false past the end. */
bool rvv_snapshot_task(unsigned int *slot, struct rvv_task_snapshot *snap);
/* Copies @task's row; false if it has none. */
bool rvv_snapshot_task_of(struct task_struct *task,
			  struct rvv_task_snapshot *snap);

#endif /* _RVVSTAT_ACCOUNTING_H */
