// SPDX-License-Identifier: GPL-2.0
/*
 * Who may hint whom: the checks sched_setaffinity(2) and sched_setattr(2)
 * make, made early, at SET_HINT, so that a hint waiting for first vector
 * use is refused at once. They decide nothing alone: every change goes
 * through the kernel's own syscall paths (sched.c), which check again,
 * with LSM hooks and under their locks. Made with current's credentials:
 * the caller's in an ioctl, the setter's (installed with override_creds())
 * wherever a hint is applied later.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/rcupdate.h>
#include <linux/sched/prio.h>
#include <linux/sched/signal.h>
#include <linux/uidgid.h>

#include "hints/hints.h"

/* check_same_owner() of kernel/sched/syscalls.c. */
static bool rvv_same_owner(struct task_struct *p)
{
	const struct cred *cred = current_cred(), *pcred;
	bool match;

	rcu_read_lock();
	pcred = __task_cred(p);
	match = uid_eq(cred->euid, pcred->euid) ||
		uid_eq(cred->euid, pcred->uid);
	rcu_read_unlock();
	return match;
}

/*
 * cap_safe_nice() of security/commoncap.c, which both syscalls reach through
 * security_task_setscheduler(): no target with capabilities the caller lacks,
 * unless the caller has CAP_SYS_NICE over the target's user namespace.
 */
static bool rvv_safe_nice(struct task_struct *p)
{
	const struct cred *pcred;
	bool safe;

	rcu_read_lock();
	pcred = __task_cred(p);
	safe = cap_issubset(pcred->cap_permitted,
			    current_cred()->cap_permitted) ||
	       ns_capable(pcred->user_ns, CAP_SYS_NICE);
	rcu_read_unlock();
	return safe;
}

/* sched_setaffinity(): the same owner or CAP_SYS_NICE, then cap_safe_nice. */
int rvv_hint_may_change(struct task_struct *p)
{
	bool nice_cap;

	rcu_read_lock();
	nice_cap = ns_capable(__task_cred(p)->user_ns, CAP_SYS_NICE);
	rcu_read_unlock();
	if (!nice_cap && !rvv_same_owner(p))
		return -EPERM;
	return rvv_safe_nice(p) ? 0 : -EPERM;
}

/* is_nice_reduction(): the target's RLIMIT_NICE allows @nice. */
static bool rvv_nice_within_rlimit(struct task_struct *p, int nice)
{
	return nice_to_rlimit(nice) <= task_rlimit(p, RLIMIT_NICE);
}

/*
 * user_check_sched_setscheduler(). Reset-on-fork is always kept as it is
 * (rvv_hint_apply), so its own rule never bites.
 */
static bool rvv_policy_needs_cap(struct task_struct *p,
				 const struct sched_attr *attr)
{
	unsigned int policy = attr->sched_policy;
	unsigned long rtprio_limit = task_rlimit(p, RLIMIT_RTPRIO);

	if ((policy == SCHED_NORMAL || policy == SCHED_BATCH) &&
	    attr->sched_nice < task_nice(p) &&
	    !rvv_nice_within_rlimit(p, attr->sched_nice))
		return true;
	if (policy == SCHED_FIFO || policy == SCHED_RR) {
		if (policy != p->policy && !rtprio_limit)
			return true;
		if (attr->sched_priority > p->rt_priority &&
		    attr->sched_priority > rtprio_limit)
			return true;
	}
	if (policy == SCHED_DEADLINE)
		return true;
	if (p->policy == SCHED_IDLE && policy != SCHED_IDLE &&
	    !rvv_nice_within_rlimit(p, task_nice(p)))
		return true;
	return !rvv_same_owner(p);
}

int rvv_hint_permitted(struct task_struct *p, bool process,
		       const struct rvv_hint_request *req)
{
	/* Kernel threads are not ours to move, whatever the caller may do. */
	if (p->flags & (PF_KTHREAD | PF_NO_SETAFFINITY))
		return -EINVAL;
	if (process ? !atomic_read(&p->signal->live) : p->flags & PF_EXITING)
		return -ESRCH;
	if ((req->flags & RVVSTAT_HINT_CPUS) && rvv_hint_may_change(p))
		return -EPERM;
	if ((req->flags & RVVSTAT_HINT_POLICY) &&
	    ((rvv_policy_needs_cap(p, &req->attr) && !capable(CAP_SYS_NICE)) ||
	     !rvv_safe_nice(p)))
		return -EPERM;
	return 0;
}
