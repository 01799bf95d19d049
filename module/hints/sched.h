/* SPDX-License-Identifier: GPL-2.0 */
/* A thread's affinity and policy, read and set as the syscalls would. */
#ifndef _RVVSTAT_HINT_SCHED_H
#define _RVVSTAT_HINT_SCHED_H

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <uapi/linux/sched/types.h>

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

#endif /* _RVVSTAT_HINT_SCHED_H */
