/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seam between the arch-neutral core and an architecture backend.
 * A backend decodes a context switch into what the kernel will save and
 * restore, and registers whatever extra event sources it has (first-use
 * traps, kernel-mode vector use, ...), feeding accounting.h.
 */
#ifndef _RVVSTAT_ARCH_H
#define _RVVSTAT_ARCH_H

#include <linux/sched.h>

#include "core/accounting.h"
#include "attach/hook.h"

struct rvv_arch_options {
	bool verify;			/* count saves with instruction probes */
	unsigned int probe_sample;	/* time ~1 in N saves with probe pairs */
	/*
	 * Called, once the backend has counted it, when a task starts to use
	 * vector state; from a probe handler in the task's context.
	 */
	void (*first_use)(struct task_struct *task);
};

/* Checks the hardware and finds probe points; -ENODEV without a vector unit. */
int rvv_arch_init(const struct rvv_arch_options *options);
/*
 * Arms the backend's event sources and calibrates; rvv_arch_stop() disarms
 * and synchronises.
 */
int rvv_arch_start(void);
void rvv_arch_stop(void);
/* Times save and restore (the calib_* and probe_bias kinds) again. Sleeps. */
int rvv_arch_calibrate(void);
/* The step of local_clock() in ns: no figure is finer than this. */
u64 rvv_arch_clock_step_ns(void);

/*
 * rvv_arch_decode_prev(prev, vs) and rvv_arch_decode_next(next, vs), called
 * from sched_switch with IRQs off, rvv_arch_switched_out(unseen, vs)
 * between them, once prev's half is counted (unseen: prev's row if it is
 * not yet seen using vector state, else NULL), and
 * rvv_arch_restore_armed(task), whether the task's deferred restore is
 * armed now: inline in the backend's switch header, so that the switch
 * probe makes no calls. None may sleep, lock or allocate.
 */
#if defined(CONFIG_RISCV)
#include "arch/riscv/switch.h"
#elif defined(CONFIG_X86_64)
#include "arch/x86/switch.h"
#endif

unsigned int rvv_arch_bytes_per_save(void);
/* Fills backend, vector_bits and the backend's RVVSTAT_FEATURE_* bits. */
void rvv_arch_info(struct rvvstat_info *info);
/*
 * Whether the task has used vector state since its last exec. The backend
 * calls its options' first_use() when a task starts to.
 */
bool rvv_arch_task_used_vector(struct task_struct *task);
/* One of the backend's event sources, for the summary's methods. */
struct rvv_arch_source {
	const char *label;
	const struct rvv_hook *hook;	/* NULL: only @note */
	const char *note;		/* said after the hook; NULL: nothing */
};

#define RVV_ARCH_MAX_SOURCES	8

/* Fills @out with the sources, in the order shown; returns how many. */
int rvv_arch_sources(struct rvv_arch_source out[RVV_ARCH_MAX_SOURCES]);
/* Probe hits lost (nested or out of instances): counts short by this. */
unsigned long rvv_arch_probe_misses(void);
/* Verification mode: whether its probes are armed (sources say why not). */
bool rvv_arch_verify_armed(void);

#endif /* _RVVSTAT_ARCH_H */
