// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler settings a hint reads and changes. Changes go through the
 * kernel's own syscall paths, sched_setaffinity() and sched_setattr() (the
 * checking variants, not exported: found by name), with current's
 * credentials: they make every check the syscalls make (owner, capability,
 * rlimits, LSM hooks, RT group, cpuset, the deadline root-domain span and
 * admission) under the locks the syscalls take, record a mask as the
 * thread's own request (user_cpus_ptr), and reset it to the cpuset's when a
 * cpuset update races with it. Where they cannot be called, nothing changes.
 * Process context.
 */
#include <linux/cpumask.h>
#include <linux/pid_namespace.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/string.h>

#include "hints/internal.h"
#include "attach/ksym.h"

/* The prototypes of include/linux/sched.h. */
typedef long (*rvv_setaffinity_fn)(pid_t pid, const struct cpumask *in_mask);
typedef int (*rvv_setattr_fn)(struct task_struct *p,
			      const struct sched_attr *attr);
static rvv_setaffinity_fn rvv_setaffinity;
static rvv_setattr_fn rvv_setattr;

void rvv_sched_read_attr(struct task_struct *p, struct sched_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sched_policy = p->policy;
	if (p->policy == SCHED_DEADLINE) {
		attr->sched_runtime = p->dl.dl_runtime;
		attr->sched_deadline = p->dl.dl_deadline;
		attr->sched_period = p->dl.dl_period;
	} else if (p->policy == SCHED_FIFO || p->policy == SCHED_RR) {
		attr->sched_priority = p->rt_priority;
	} else {
		attr->sched_nice = task_nice(p);
		if (p->se.custom_slice)
			attr->sched_runtime = p->se.slice;
	}
}

void rvv_sched_read_cpus(struct task_struct *p, struct cpumask *cpus)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	cpumask_copy(cpus, &p->cpus_mask);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

/*
 * sched_setaffinity() takes a pid, looked up in current's pid namespace:
 * @p's there (0 if @p is not visible from it, which would name current).
 * @p keeps that pid while it is not reaped, so if it is still alive after
 * the call, the call changed @p; if it was reaped meanwhile and the pid
 * reused, the call reached the new thread with every check made against
 * it, as a syscall racing the same exit would.
 */
int rvv_sched_set_cpus(struct task_struct *p, const struct cpumask *want)
{
	pid_t nr;
	long err;

	if (!rvv_setaffinity)
		return -EOPNOTSUPP;
	nr = task_pid_nr_ns(p, task_active_pid_ns(current));
	if (!nr)
		return -ESRCH;
	err = rvv_setaffinity(nr, want);
	return pid_alive(p) ? err : -ESRCH;
}

/* sched_setattr(2) keeps reset-on-fork unless asked: only root may drop it. */
int rvv_sched_set_policy(struct task_struct *p, const struct sched_attr *want)
{
	struct sched_attr attr = *want;

	if (!rvv_setattr)
		return -EOPNOTSUPP;
	if (p->sched_reset_on_fork)
		attr.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
	return rvv_setattr(p, &attr);
}

void rvv_sched_init(void)
{
	rvv_setaffinity =
		(rvv_setaffinity_fn)rvv_lookup_function("sched_setaffinity");
	rvv_setattr = (rvv_setattr_fn)rvv_lookup_function("sched_setattr");
	if (!rvv_setaffinity)
		pr_warn("sched_setaffinity cannot be called: CPU mask hints are refused (EOPNOTSUPP)\n");
	if (!rvv_setattr)
		pr_warn("sched_setattr cannot be called: policy hints are refused (EOPNOTSUPP)\n");
}
