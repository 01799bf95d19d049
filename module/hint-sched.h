/* SPDX-License-Identifier: GPL-2.0 */
/* A thread's affinity and policy, read and set as the syscalls would. */
#ifndef _RVVSTAT_HINT_SCHED_H
#define _RVVSTAT_HINT_SCHED_H

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <uapi/linux/sched/types.h>

/* 0 or -ENOMEM; rvv_sched_exit() frees what it got either way. */
int rvv_sched_init(void);
void rvv_sched_exit(void);

/* sched_getattr() as the kernel would answer it, to restore later. */
void rvv_sched_read_attr(struct task_struct *p, struct sched_attr *attr);
void rvv_sched_read_cpus(struct task_struct *p, struct cpumask *cpus);
/*
 * @want within @p's cpuset: -EINVAL if that leaves nothing, -EOPNOTSUPP
 * where the cpuset cannot be read, else set_cpus_allowed_ptr()'s result.
 */
int rvv_sched_set_cpus(struct task_struct *p, const struct cpumask *want);
/* sched_setattr_nocheck(), keeping reset-on-fork as sched_setattr(2) does. */
int rvv_sched_set_policy(struct task_struct *p, const struct sched_attr *want);

#endif /* _RVVSTAT_HINT_SCHED_H */
