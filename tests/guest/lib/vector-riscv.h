/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RISC-V: the 32 V registers v0..v31, VLENB bytes each.
 * The contract is described in vector-arch.h.
 *
 * Build with -march=rv64gc: C code must never touch a vector register, as
 * GCC 12 cannot be told that inline asm clobbers them.
 */
#ifndef VECTOR_RISCV_H
#define VECTOR_RISCV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/auxv.h>

#define NR_VREGS	32
/* V is off, and nothing saved, until a thread's first vector instruction. */
#define ARCH_SAVES_EVERY_THREAD	0
/* vecload's 4 KiB pipe copies use kernel-mode V (riscv_v_usercopy). */
#define ARCH_PIPES_USE_KERNEL_VECTOR	1
/* Every deferred restore reloads the registers. */
/* riscv has no KPROBES_ON_FTRACE (6.12, 7.2): an entry kprobe traps. */
#define ARCH_KPROBES_ON_FTRACE	0
/* The saves are inlined into __schedule; reloads run on return to user. */
#define ARCH_SWITCH_SAVE_FUNCTIONS	{ "__schedule", NULL }
#define ARCH_RESTORES_MAY_SKIP_RELOAD	0
/* vtype for "e8, m1, ta, ma": vta (bit 6) and vma (bit 7) set. */
#define VTYPE_E8_M1_TA_MA	0xc0UL
/* AT_HWCAP has one bit per single-letter extension. */
#define HWCAP_V			(1UL << ('V' - 'A'))

static inline bool arch_has_vector(void)
{
	return getauxval(AT_HWCAP) & HWCAP_V;
}

/* The first vector instruction: the kernel enables V for this thread. */
static inline unsigned long arch_vlenb(void)
{
	unsigned long val;

	asm volatile(".option push\n"
		     ".option arch, +v\n"
		     "csrr %0, vlenb\n"
		     ".option pop\n"
		     : "=r" (val));
	return val;
}

static inline bool arch_vlenb_reads_use_vector(void)
{
	return true;
}

static inline void arch_touch_vector(void)
{
	arch_vlenb();
}

static inline unsigned long arch_state_bytes(unsigned long vlenb)
{
	return NR_VREGS * vlenb;
}

/* The ABI lets the kernel discard the vector registers at any syscall. */
static inline bool arch_syscall_discards_state(void)
{
	return true;
}

/* Load v0..v31 in groups of eight whole registers from @buf. */
#define VLOAD_ALL							\
	"csrr	t0, vlenb\n"						\
	"slli	t0, t0, 3\n"						\
	"mv	t1, %[src]\n"						\
	"vl8re8.v	v0, (t1)\n"					\
	"add	t1, t1, t0\n"						\
	"vl8re8.v	v8, (t1)\n"					\
	"add	t1, t1, t0\n"						\
	"vl8re8.v	v16, (t1)\n"					\
	"add	t1, t1, t0\n"						\
	"vl8re8.v	v24, (t1)\n"

/*
 * One asm block from load to store: the registers stay live across the
 * scalar loop, where the timer interrupt, not a syscall, takes the CPU away.
 * @avl (1..VLMAX) becomes vl. Returns whether vl and vtype survived too.
 */
static inline bool arch_spin_once(const uint8_t *src, uint8_t *dst,
				  unsigned long avl, unsigned long loops)
{
	unsigned long vl, vtype;

	asm volatile(".option push\n"
		     ".option arch, +v\n"
		     "vsetvli	zero, %[avl], e8, m1, ta, ma\n"
		     VLOAD_ALL
		     "mv	t2, %[loops]\n"
		     "1:	addi	t2, t2, -1\n"
		     "bnez	t2, 1b\n"
		     "csrr	%[vl], vl\n"
		     "csrr	%[vtype], vtype\n"
		     "mv	t1, %[dst]\n"
		     "vs8r.v	v0, (t1)\n"
		     "add	t1, t1, t0\n"
		     "vs8r.v	v8, (t1)\n"
		     "add	t1, t1, t0\n"
		     "vs8r.v	v16, (t1)\n"
		     "add	t1, t1, t0\n"
		     "vs8r.v	v24, (t1)\n"
		     ".option pop\n"
		     : [vl] "=&r" (vl), [vtype] "=&r" (vtype)
		     : [avl] "r" (avl), [src] "r" (src),
		       [dst] "r" (dst), [loops] "r" (loops)
		     : "t0", "t1", "t2", "memory");
	return vl == avl && vtype == VTYPE_E8_M1_TA_MA;
}

/* A syscall issued with the registers live and dirty. */
static inline long arch_vector_syscall(const uint8_t *src, uint8_t *dst,
				       unsigned long avl, long nr, long arg0,
				       long arg1, long arg2)
{
	register long a0 asm("a0") = arg0;
	register long a1 asm("a1") = arg1;
	register long a2 asm("a2") = arg2;
	register long a7 asm("a7") = nr;

	(void)dst;	/* the syscall may have discarded them: nothing to store */
	asm volatile(".option push\n"
		     ".option arch, +v\n"
		     "vsetvli	zero, %[avl], e8, m1, ta, ma\n"
		     VLOAD_ALL
		     "ecall\n"
		     ".option pop\n"
		     : "+r" (a0)
		     : [avl] "r" (avl), [src] "r" (src), "r" (a1),
		       "r" (a2), "r" (a7)
		     : "t0", "t1", "memory");
	return a0;
}

static inline void arch_scalar_spin(unsigned long loops)
{
	asm volatile("1:	addi	%0, %0, -1\n"
		     "bnez	%0, 1b\n"
		     : "+r" (loops));
}

#endif /* VECTOR_RISCV_H */
