/* SPDX-License-Identifier: GPL-2.0 */
/* Finding kernel functions and probing their entry, on any ftrace config. */
#ifndef _RVVSTAT_KSYM_H
#define _RVVSTAT_KSYM_H

#include <linux/kprobes.h>

/*
 * The address of a kernel symbol, exported or not; 0 if there is none. A
 * function to call must be found with rvv_lookup_function() and called
 * through its exact prototype.
 */
unsigned long rvv_lookup_name(const char *name);
/* As rvv_lookup_name(), and 0 unless it may be called through a pointer. */
unsigned long rvv_lookup_function(const char *name);
/* Start and size of a kernel function; -ENOENT if it does not exist. */
int rvv_function_extent(const char *name, unsigned long *start,
			unsigned long *size);
/* The size of the function (kernel or module) that starts at @start. */
int rvv_function_size(unsigned long start, unsigned long *size);
/*
 * Registers an entry kprobe at kp->symbol_name. Where ftrace owns the first
 * bytes (riscv has no KPROBES_ON_FTRACE) it probes just past the patch slot.
 */
int rvv_register_entry_kprobe(struct kprobe *kp);
/*
 * As rvv_register_entry_kprobe(), for a handler that reads no register: on
 * riscv, which single-steps most instructions (two traps) but simulates
 * branches, jumps and auipc (one), the probe goes on the first of those in
 * the straight-line code at the entry. On x86 it goes past ftrace's call
 * site, so that arming it patches no more than its own site. Returns 1 if it sits
 * on a simulated instruction, 0 if not.
 */
int rvv_register_cheap_entry_kprobe(struct kprobe *kp);
/*
 * A kprobe post handler that does nothing: its presence keeps a kprobe a
 * breakpoint where kprobes may be optimized into jumps (x86). Disarming an
 * optimized kprobe unoptimizes it, which waits for an RCU-tasks grace
 * period holding kprobe_mutex and text_mutex; busy threads can hold that
 * off for long, and the windows disarm many times a minute.
 */
#ifdef CONFIG_OPTPROBES
void rvv_kprobe_keep_trap(struct kprobe *kp, struct pt_regs *regs,
			  unsigned long flags);
#else
#define rvv_kprobe_keep_trap NULL
#endif
/*
 * Where a registered kprobe sits in its function, as the kprobes list says:
 * on x86 with IBT an entry probe goes past the ENDBR, whatever kp->offset.
 */
unsigned long rvv_kprobe_offset(const struct kprobe *kp);

#endif /* _RVVSTAT_KSYM_H */
