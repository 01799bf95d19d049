// SPDX-License-Identifier: GPL-2.0
/*
 * The rule of /proc/PID under hidepid=invisible for every task view: a
 * reader sees the threads of its pid namespace (and those below it) that it
 * may read with ptrace_may_access(PTRACE_MODE_READ_FSCREDS), under their ids
 * in its namespace.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "attach/ksym.h"
#include "expose/taskview.h"

typedef bool (*rvv_ptrace_may_access_fn)(struct task_struct *task,
					 unsigned int mode);

/* ptrace_may_access(), or NULL where it cannot be found. */
static rvv_ptrace_may_access_fn rvv_ptrace_may_access __ro_after_init;

void rvv_taskview_init(void)
{
	rvv_ptrace_may_access = (rvv_ptrace_may_access_fn)
				rvv_lookup_function("ptrace_may_access");
	if (!rvv_ptrace_may_access)
		pr_warn("ptrace_may_access not found: task views show a thread to its own user and to CAP_SYS_PTRACE only\n");
}

/*
 * Without ptrace_may_access(), its credential rule: the caller's own
 * process; a thread whose real, effective and saved uids are the caller's
 * fsuid and whose gids its fsgid; or CAP_SYS_PTRACE in the thread's user
 * namespace. ptrace's checks of dumpable and of the LSMs are missing.
 */
static bool rvv_task_readable_fallback(struct task_struct *task)
{
	kuid_t uid = current_fsuid();
	kgid_t gid = current_fsgid();
	const struct cred *tcred;
	bool ok;

	if (same_thread_group(task, current))
		return true;
	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (uid_eq(uid, tcred->uid) && uid_eq(uid, tcred->euid) &&
	      uid_eq(uid, tcred->suid) && gid_eq(gid, tcred->gid) &&
	      gid_eq(gid, tcred->egid) && gid_eq(gid, tcred->sgid)) ||
	     ns_capable_noaudit(tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	return ok;
}

bool rvv_task_readable(struct task_struct *task)
{
	if (rvv_ptrace_may_access)
		return rvv_ptrace_may_access(task, PTRACE_MODE_READ_FSCREDS |
					     PTRACE_MODE_NOAUDIT);
	return rvv_task_readable_fallback(task);
}

struct task_struct *rvv_task_view(const struct rvv_task_snapshot *snap,
				  pid_t *tid, pid_t *tgid)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct task_struct *task;

	/* The row's task only while its tid still names it: else it is gone. */
	rcu_read_lock();
	task = pid_task(find_pid_ns(snap->tid, &init_pid_ns), PIDTYPE_PID);
	if (task == snap->task)
		get_task_struct(task);
	else
		task = NULL;
	rcu_read_unlock();
	if (!task)
		return NULL;
	*tid = task_pid_nr_ns(task, ns);
	*tgid = task_tgid_nr_ns(task, ns);
	if (*tid && *tgid && rvv_task_readable(task))
		return task;
	put_task_struct(task);
	return NULL;
}
