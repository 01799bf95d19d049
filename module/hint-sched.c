// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler settings a hint reads and changes, read and changed as
 * sched_getattr(2), sched_setaffinity(2) and sched_setattr(2) would: the
 * permission checks are hint-rules.c's, made before any of these is called.
 * Process context; the callers serialise (the scratch masks are shared).
 */
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/string.h>

#include "hint-sched.h"
#include "ksym.h"

/* sched_setaffinity() retries while the cpuset moves; so do we, this often. */
#define RVV_CPUSET_TRIES	8

/* cpuset_cpus_allowed() is not exported; without cpusets, every CPU. */
typedef void (*rvv_cpuset_fn)(struct task_struct *p, struct cpumask *mask);
static rvv_cpuset_fn rvv_cpuset_cpus_allowed;
static cpumask_var_t rvv_cpus_cpuset, rvv_cpus_target;

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

static void rvv_sched_read_cpuset(struct task_struct *p, struct cpumask *cpus)
{
	if (rvv_cpuset_cpus_allowed)
		rvv_cpuset_cpus_allowed(p, cpus);
	else
		cpumask_copy(cpus, cpu_possible_mask);
}

/*
 * As __sched_setaffinity() does: @want within @p's cpuset (-EINVAL if that
 * leaves nothing), set again if the cpuset changed meanwhile. A kernel with
 * cpusets whose cpuset_cpus_allowed() cannot be called gets no mask at all.
 */
int rvv_sched_set_cpus(struct task_struct *p, const struct cpumask *want)
{
	int err, tries;

	if (IS_ENABLED(CONFIG_CPUSETS) && !rvv_cpuset_cpus_allowed)
		return -EOPNOTSUPP;
	for (tries = 0; tries < RVV_CPUSET_TRIES; tries++) {
		rvv_sched_read_cpuset(p, rvv_cpus_cpuset);
		if (!cpumask_and(rvv_cpus_target, want, rvv_cpus_cpuset))
			return -EINVAL;
		err = set_cpus_allowed_ptr(p, rvv_cpus_target);
		if (err)
			return err;
		rvv_sched_read_cpuset(p, rvv_cpus_cpuset);
		if (cpumask_subset(rvv_cpus_target, rvv_cpus_cpuset))
			return 0;
	}
	return -EAGAIN;
}

/* sched_setattr(2) keeps reset-on-fork unless asked: only root may drop it. */
int rvv_sched_set_policy(struct task_struct *p, const struct sched_attr *want)
{
	struct sched_attr attr = *want;

	if (p->sched_reset_on_fork)
		attr.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
	return sched_setattr_nocheck(p, &attr);
}

int rvv_sched_init(void)
{
	if (!zalloc_cpumask_var(&rvv_cpus_cpuset, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&rvv_cpus_target, GFP_KERNEL)) {
		rvv_sched_exit();
		return -ENOMEM;
	}
	rvv_cpuset_cpus_allowed =
		(rvv_cpuset_fn)rvv_lookup_function("cpuset_cpus_allowed");
	if (IS_ENABLED(CONFIG_CPUSETS) && !rvv_cpuset_cpus_allowed)
		pr_warn("rvvstat: cpuset_cpus_allowed cannot be called: CPU mask hints are refused (EOPNOTSUPP)\n");
	return 0;
}

void rvv_sched_exit(void)
{
	free_cpumask_var(rvv_cpus_cpuset);
	free_cpumask_var(rvv_cpus_target);
}
