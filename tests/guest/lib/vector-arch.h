/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's vector registers, for vecload and the tests.
 */
#ifndef VECTOR_ARCH_H
#define VECTOR_ARCH_H

/*
 * Each vector-<arch>.h provides, for buffers that hold NR_VREGS registers
 * of vlenb bytes one after the other:
 *   NR_VREGS                       the number of vector registers
 *   arch_has_vector()              whether the CPU and kernel support them
 *   arch_vlenb()                   bytes per register; may enable the vector
 *                                  unit for the calling thread
 *   arch_vlenb_reads_use_vector()  whether arch_vlenb() is a vector use
 *   ARCH_SAVES_EVERY_THREAD        1 if the kernel saves every user thread's
 *                                  registers at a switch, vector use or not
 *   ARCH_PIPES_USE_KERNEL_VECTOR   1 if pipe copies save vector state in
 *                                  the kernel (vecload's mixed mode) on
 *                                  the rig's kernels (Debian's 7.x: not)
 *   ARCH_RESTORES_MAY_SKIP_RELOAD  1 if a deferred restore may find the
 *                                  registers still valid and load nothing
 *   ARCH_KPROBES_ON_FTRACE         1 if a kprobe at a traced function's
 *                                  entry rides on ftrace (no trap)
 *   ARCH_SWITCH_SAVE_FUNCTIONS     the kernel functions that save and
 *                                  reload vector state at every switch,
 *                                  NULL-terminated: counting alone probes
 *                                  none of them
 *   arch_touch_vector()            leaves vector state live in the calling
 *                                  thread, as its first vector use would
 *   arch_state_bytes(vlenb)        what the kernel saves per switch of a
 *                                  thread with live vector state
 *   arch_syscall_discards_state()  whether the kernel may clobber them at
 *                                  any syscall, so they cannot be verified
 *   arch_spin_once(src, dst, ctl, loops)
 *                                  load all from src, spin loops with them
 *                                  live, store all to dst; false if control
 *                                  state set from ctl was lost
 *   arch_vector_syscall(src, dst, ctl, nr, arg0, arg1, arg2)
 *                                  load all from src, issue syscall nr and
 *                                  return its result; then store all to dst
 *                                  unless the syscall discards them
 *   arch_scalar_spin(loops)        the same loop, with no vector register
 */
#if defined(__riscv)
#include "vector-riscv.h"
#elif defined(__x86_64__)
#include "vector-x86.h"
#else
#error "no vector registers known for this architecture"
#endif

#endif /* VECTOR_ARCH_H */
