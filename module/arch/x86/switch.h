/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86: the backend's part of the context-switch path, inline so that the
 * sched_switch probe stays a leaf (switch.c). __switch_to() saves the xstate
 * eagerly for every user task whose registers are loaded, that is whose
 * deferred-restore flag TIF_NEED_FPU_LOAD is clear.
 */
#ifndef _RVVSTAT_ARCH_X86_SWITCH_H
#define _RVVSTAT_ARCH_X86_SWITCH_H

#include <linux/percpu.h>
#include <linux/sched.h>

#include "core/accounting.h"

/*
 * prev's row while __switch_to() is about to save the registers of a task
 * not yet seen using vector state, else NULL: the probe right after that
 * save on this CPU (backend.c) reads the saved state only then.
 */
DECLARE_PER_CPU(struct rvv_task_hot *, rvv_x86_unseen_saving);

static inline bool rvv_x86_user_task(const struct task_struct *task)
{
	return !(task->flags & (PF_KTHREAD | PF_USER_WORKER));
}

/* Kernel threads get the flag at every switch-in but never consume it. */
static __always_inline bool rvv_arch_restore_armed(struct task_struct *task)
{
	return rvv_x86_user_task(task) &&
	       test_tsk_thread_flag(task, TIF_NEED_FPU_LOAD);
}

/*
 * Mirror __switch_to(); sched_switch runs on prev, right before it. prev's
 * half is decoded and counted before next's (fewer values live at once).
 */
static __always_inline void rvv_arch_decode_prev(struct task_struct *prev,
						 struct rvv_switch_vstate *vs)
{
	vs->prev_armed = rvv_arch_restore_armed(prev);
	vs->save_user = rvv_x86_user_task(prev) &&
			!test_tsk_thread_flag(prev, TIF_NEED_FPU_LOAD);
}

static __always_inline void
rvv_arch_switched_out(struct rvv_task_hot *unseen,
		      const struct rvv_switch_vstate *vs)
{
	__this_cpu_write(rvv_x86_unseen_saving, vs->save_user ? unseen : NULL);
}

static __always_inline void rvv_arch_decode_next(struct task_struct *next,
						 struct rvv_switch_vstate *vs)
{
	vs->next_armed = rvv_arch_restore_armed(next);
	vs->restore_user = rvv_x86_user_task(next);
}

#endif /* _RVVSTAT_ARCH_X86_SWITCH_H */
