/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RVV: the backend's part of the context-switch path, inline so that the
 * sched_switch probe stays a leaf (switch.c). The kernel inlines every save
 * and restore, so the work is predicted from the state __switch_to_vector()
 * will look at.
 */
#ifndef _RVVSTAT_ARCH_RISCV_SWITCH_H
#define _RVVSTAT_ARCH_RISCV_SWITCH_H

#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <asm/csr.h>
#include <asm/processor.h>
#include <asm/vector.h>

#include "core/accounting.h"

/* A first use traps: nothing to prepare for after the switch-out. */
static __always_inline void
rvv_arch_switched_out(struct rvv_task_hot *unseen,
		      const struct rvv_switch_vstate *vs)
{
}

static inline bool rvv_vs_dirty(const struct pt_regs *regs)
{
	return (regs->status & SR_VS) == SR_VS_DIRTY;
}

static inline bool rvv_vs_off(const struct pt_regs *regs)
{
	return (regs->status & SR_VS) == SR_VS_OFF;
}

static __always_inline bool rvv_arch_restore_armed(struct task_struct *task)
{
	return test_tsk_thread_flag(task, TIF_RISCV_V_DEFER_RESTORE);
}

/*
 * Mirror __switch_to_vector(); sched_switch runs right before switch_to().
 * prev's half is decoded and counted before next's, so that fewer values
 * are live at once on the switch path.
 */
static __always_inline void rvv_arch_decode_prev(struct task_struct *prev,
						 struct rvv_switch_vstate *vs)
{
	u32 flags = READ_ONCE(prev->thread.riscv_v_flags);
	struct pt_regs *regs = task_pt_regs(prev);

	if (flags & RISCV_PREEMPT_V) {
		vs->save_kernel = flags & RISCV_PREEMPT_V_DIRTY;
	} else {
		vs->save_user = rvv_vs_dirty(regs);
		/* Every syscall discards V state and marks it dirty. */
		vs->discarded = vs->save_user && regs->cause == EXC_SYSCALL;
	}
	vs->prev_armed = rvv_arch_restore_armed(prev);
}

static __always_inline void rvv_arch_decode_next(struct task_struct *next,
						 struct rvv_switch_vstate *vs)
{
	vs->next_armed = rvv_arch_restore_armed(next);
	if (READ_ONCE(next->thread.riscv_v_flags) & RISCV_PREEMPT_V)
		vs->restore_kernel = true;
	else
		vs->restore_user = !rvv_vs_off(task_pt_regs(next));
}

#endif /* _RVVSTAT_ARCH_RISCV_SWITCH_H */
