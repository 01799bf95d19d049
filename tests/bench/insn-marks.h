/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The no-ops a guest program executes to open and close a window whose
 * instructions tests/bench/insn-count.c counts (make bench's cost part).
 * Distinctive, so that nothing else in a guest executes them:
 *   x86_64:  nopl INSN_MARK_X86_DISP+MARK(%rax)	(0f 1f 80 + disp32)
 *   riscv64: addi zero, zero, INSN_MARK_RISCV_IMM+MARK	(a HINT, 32 bits)
 */
#ifndef INSN_MARKS_H
#define INSN_MARKS_H

enum insn_mark { INSN_MARK_OPEN, INSN_MARK_CLOSE, NR_INSN_MARKS };

#define INSN_MARK_X86_DISP	0x4d524b30u	/* "0KRM" */
#define INSN_MARK_RISCV_IMM	0x330u

#if defined(__x86_64__)
#define insn_mark(m) \
	asm volatile("nopl %c0(%%rax)" : : "i" (INSN_MARK_X86_DISP + (m)) : "memory")
#elif defined(__riscv)
#define insn_mark(m) \
	asm volatile("addi zero, zero, %0" : : "i" (INSN_MARK_RISCV_IMM + (m)) : "memory")
#endif

#endif
