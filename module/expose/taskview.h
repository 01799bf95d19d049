/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a reader may see of the task table: no more than /proc would show it
 * with hidepid=invisible, in its own pid namespace.
 */
#ifndef _RVVSTAT_TASKVIEW_H
#define _RVVSTAT_TASKVIEW_H

#include <linux/sched.h>

#include "core/accounting.h"

/* Finds ptrace_may_access(), which is not exported. */
void rvv_taskview_init(void);
/*
 * Whether current may read @task as it may read /proc/PID under
 * hidepid=invisible: ptrace_may_access(PTRACE_MODE_READ_FSCREDS), without
 * the audit record of a refusal (a listing only leaves threads out).
 */
bool rvv_task_readable(struct task_struct *task);
/*
 * The thread of @snap, referenced, if it is still alive and current may see
 * it: it is in the caller's pid namespace (or one below) and
 * rvv_task_readable(). Its ids there go to @tid and @tgid. NULL if not.
 * Process context.
 */
struct task_struct *rvv_task_view(const struct rvv_task_snapshot *snap,
				  pid_t *tid, pid_t *tgid);

#endif /* _RVVSTAT_TASKVIEW_H */
