/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread CPU affinity and scheduling-policy hints, set through
 * /dev/rvvstat and applied now, when a thread first uses vector state, or
 * when a thread joins a hinted process. Applying may sleep, so it happens in
 * the ioctl or in a worker; event handlers only queue the thread.
 */
#ifndef _RVVSTAT_HINTS_H
#define _RVVSTAT_HINTS_H

#include <linux/binfmts.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <uapi/linux/rvvstat.h>
#include <uapi/linux/sched/types.h>

/* What a hint asks for, validated against the ABI (not yet the target). */
struct rvv_hint_request {
	u32 flags;			/* RVVSTAT_HINT_* */
	cpumask_var_t cpus;		/* with RVVSTAT_HINT_CPUS */
	struct sched_attr attr;		/* with RVVSTAT_HINT_POLICY */
};

/* A stored hint, as GET_HINT reports it. */
struct rvv_hint_state {
	struct rvv_hint_request req;
	u32 applied;
	int last_error;
};

int rvv_hints_init(unsigned int capacity);
/* After every event source is stopped; applied settings stay as they are. */
void rvv_hints_exit(void);
unsigned int rvv_hints_capacity(void);

int rvv_hint_request_alloc(struct rvv_hint_request *req);
void rvv_hint_request_free(struct rvv_hint_request *req);

/*
 * The ioctl side, in the caller's context with a reference on @target (the
 * thread, or the group leader with @process). Each returns 0 or -errno and
 * changes nothing when it fails.
 */
int rvv_hint_set(struct task_struct *target, bool process,
		 const struct rvv_hint_request *req);
int rvv_hint_get(struct task_struct *target, bool process,
		 struct rvv_hint_state *state);
int rvv_hint_clear(struct task_struct *target, bool process);
/*
 * The enum rvvstat_task_hint (see the uapi) of @task, which the caller holds
 * a reference on. For a task dump: process context, may sleep.
 */
enum rvvstat_task_hint rvv_hint_state(struct task_struct *task);
/* Counts how a request ended (0: applied) where rvv_hint_set() did not. */
void rvv_hint_count_outcome(int err);

/* Event sources; any context, including kprobe handlers. */
void rvv_hints_vector_use(struct task_struct *task);
void rvv_hints_fork(struct task_struct *child);
/*
 * sched_process_exec: a process hint follows a thread that took the
 * process over by exec (@old_pid its tid before); a hint ends where the
 * exec changed credentials.
 */
void rvv_hints_exec(struct task_struct *task, pid_t old_pid,
		    const struct linux_binprm *bprm);
/* From sched_process_free (an RCU callback): hints die with their thread. */
void rvv_hints_task_free(struct task_struct *task);

void rvv_hints_snapshot(u64 events[RVVSTAT_NR_HINT_EVENTS],
			unsigned int *live);
void rvv_hints_zero_events(void);

/* A hint that a caller set (not one a process hint made), for the summary. */
struct rvv_hint_view {
	pid_t pid;			/* the thread, or the process with @process */
	bool process;
	const struct rvv_hint_request *req;
	u32 applied;			/* threads it reached */
	int last_error;
};

/* Calls @fn on each, under a spinlock with IRQs off: @fn may not sleep. */
void rvv_hints_for_each(void (*fn)(const struct rvv_hint_view *hint, void *arg),
			void *arg);

/*
 * The rules of sched_setaffinity(2) and sched_setattr(2), rules.c, for
 * thread @p, or with @process for the process @p leads (which lives on
 * after the leader's own exit while other threads run, as in the syscalls):
 * an early refusal only, as every change is then made, and checked again,
 * by the kernel's own syscall paths (sched.c).
 */
int rvv_hint_permitted(struct task_struct *p, bool process,
		       const struct rvv_hint_request *req);
int rvv_hint_may_change(struct task_struct *p);

#endif /* _RVVSTAT_HINTS_H */
