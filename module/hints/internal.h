/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside hints/: what hints.c uses of its two helpers. queue.c holds the
 * threads waiting for a hint to be applied to them, which may sleep:
 * queued from any context, handed one at a time to a worker. sched.c reads
 * and sets a thread's affinity and policy as the syscalls would.
 */
#ifndef _RVVSTAT_HINTS_INTERNAL_H
#define _RVVSTAT_HINTS_INTERNAL_H

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <uapi/linux/sched/types.h>

/* @apply runs in the worker, in process context, once per queued thread. */
void rvv_hint_queue_init(void (*apply)(struct task_struct *task));
/* Waits for the worker and drops what is still queued. */
void rvv_hint_queue_exit(void);
/*
 * Any context, even a kprobe handler: no locks, no allocation. @task is
 * current or a task its creator still holds. False if the queue, or its
 * owner's share of it, was full and @task was not queued.
 */
bool rvv_hint_queue_add(struct task_struct *task);

/*
 * Whether @task is a thread its fork has not woken yet. No hint reaches it
 * before: the deadline class adds a task's running bandwidth when it wakes,
 * and a new task's first activation is no wakeup, so a deadline policy set
 * then is subtracted later without having been added (running_bw underflows).
 */
static inline bool rvv_hint_unwoken(const struct task_struct *task)
{
	return READ_ONCE(task->__state) & TASK_NEW;
}

/* Finds the kernel's syscall paths; without them, changes are refused. */
void rvv_sched_init(void);

/* sched_getattr() as the kernel would answer it, to restore later. */
void rvv_sched_read_attr(struct task_struct *p, struct sched_attr *attr);
void rvv_sched_read_cpus(struct task_struct *p, struct cpumask *cpus);
/*
 * sched_setaffinity(2) on @p with current's credentials: its result, or
 * -EOPNOTSUPP where the kernel's sched_setaffinity() cannot be called.
 */
int rvv_sched_set_cpus(struct task_struct *p, const struct cpumask *want);
/*
 * sched_setattr(2) on @p with current's credentials (the kernel's checking
 * sched_setattr()), keeping reset-on-fork as the syscall would; -EOPNOTSUPP
 * where that cannot be called.
 */
int rvv_sched_set_policy(struct task_struct *p, const struct sched_attr *want);

#endif /* _RVVSTAT_HINTS_INTERNAL_H */
