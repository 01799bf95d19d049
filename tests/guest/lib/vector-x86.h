/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64: the 16 AVX2 registers ymm0..ymm15, 32 bytes each.
 * The contract is described in vector-arch.h.
 *
 * Build without -mavx, so that GCC never allocates a ymm register. Each
 * asm block below loads, uses and stores all of them by itself: no
 * compiler code (which may use SSE, i.e. the low halves) runs while they
 * are live. GNU as takes the AVX mnemonics without -mavx.
 *
 * Scalar threads are only free of vector code in their own loop: glibc's
 * string functions (printf under -w) use AVX2, and x86 has no first-use
 * trap to count anyway.
 */
#ifndef VECTOR_X86_H
#define VECTOR_X86_H

#include <cpuid.h>
#include <stdbool.h>
#include <stdint.h>

#define NR_VREGS	16
/* The FPU state of every user thread is saved eagerly. */
#define ARCH_SAVES_EVERY_THREAD	1
/* Pipe copies never use the kernel FPU. */
#define ARCH_PIPES_USE_KERNEL_VECTOR	0
/*
 * A deferred restore reloads the registers only if something else used
 * them on that CPU meanwhile (fpregs_state_valid()).
 */
/* An entry kprobe sits on ftrace (KPROBES_ON_FTRACE): no trap. */
#define ARCH_KPROBES_ON_FTRACE	1
#define ARCH_RESTORES_MAY_SKIP_RELOAD	1
/*
 * __switch_to() saves through the first, switch_fpu_return() reloads
 * through the second: probes on them, or on the calls.
 */
#define ARCH_SWITCH_SAVE_FUNCTIONS \
	{ "save_fpregs_to_fpstate", "restore_fpregs_from_fpstate", \
	  "__switch_to", "switch_fpu_return", NULL }
#define YMM_BYTES	32
/* XCR0: the kernel saves and restores SSE (bit 1) and AVX (bit 2) state. */
#define XCR0_SSE_AVX	0x6ULL
/* All exceptions masked, as at reset; bits 13-14 are the rounding mode. */
#define MXCSR_DEFAULT	0x1f80U
#define MXCSR_RC_SHIFT	13

/* AVX2 in the CPU, and ymm state enabled by the kernel. */
static inline bool arch_has_vector(void)
{
	unsigned int eax, ebx, ecx, edx, lo, hi;

	if (!__get_cpuid_count(1, 0, &eax, &ebx, &ecx, &edx) ||
	    !(ecx & bit_OSXSAVE) || !(ecx & bit_AVX))
		return false;
	asm volatile("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	if ((((uint64_t)hi << 32 | lo) & XCR0_SSE_AVX) != XCR0_SSE_AVX)
		return false;
	return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) &&
	       (ebx & bit_AVX2);
}

/* Fixed by the ISA; printed as vlenb= for the parsers of the RISC-V runs. */
static inline unsigned long arch_vlenb(void)
{
	return YMM_BYTES;
}

/* The width is a constant: reading it touches no register. */
static inline bool arch_vlenb_reads_use_vector(void)
{
	return false;
}

/* All ones: a register in its initial (zero) state would not count as used. */
static inline void arch_touch_vector(void)
{
	asm volatile("vpcmpeqd %%ymm0, %%ymm0, %%ymm0" ::: "xmm0");
}

/* XCR0 bit 18: AMX tile data, which a thread has only once it asks for it. */
#define XFEATURE_XTILE_DATA	18
/* The legacy area and the XSAVE header, all there is up to SSE. */
#define XSAVE_LEGACY_BYTES	576

/*
 * The kernel's default user XSAVE size (what a thread has until it asks for
 * AMX): the standard layout up to the topmost feature XCR0 enables, tile
 * data left out; CPUID leaf 0xd, sub-leaf n, gives feature n's size and
 * offset.
 */
static inline unsigned long arch_state_bytes(unsigned long vlenb)
{
	unsigned int eax, ebx, ecx, edx, lo, hi, topmost;
	uint64_t features;

	(void)vlenb;
	asm volatile("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	features = ((uint64_t)hi << 32 | lo) & ~(1ULL << XFEATURE_XTILE_DATA);
	topmost = 63 - __builtin_clzll(features);
	if (topmost <= 1)
		return XSAVE_LEGACY_BYTES;
	return __get_cpuid_count(0xd, topmost, &eax, &ebx, &ecx, &edx) ?
	       eax + ebx : 0;
}

/*
 * Unlike RISC-V, the kernel keeps every ymm register across a syscall
 * (only rax, rcx and r11 change), so they can be verified after one.
 */
static inline bool arch_syscall_discards_state(void)
{
	return false;
}

/* @insn once for each of ymm0..ymm15, with \reg the register number. */
#define YMM_EACH(insn)							\
	".irp reg, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n" \
	insn "\n"							\
	".endr\n"
#define YMM_LOAD_ALL	YMM_EACH("vmovdqu	\\reg*%c[width](%[src]), %%ymm\\reg")
#define YMM_STORE_ALL	YMM_EACH("vmovdqu	%%ymm\\reg, \\reg*%c[width](%[dst])")
/* The SSE names stand for the whole ymm registers in clobber lists. */
#define YMM_CLOBBERS							\
	"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",	\
	"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/*
 * One asm block from load to store: the registers stay live across the
 * scalar loop, where the timer interrupt, not a syscall, takes the CPU away.
 * The low bits of @ctl pick the MXCSR rounding mode for the loop, the
 * counterpart of vl on RISC-V. Returns whether MXCSR survived too.
 * vzeroupper after the stores spares the compiler's SSE code that follows
 * the AVX-to-SSE transition penalty.
 */
static inline bool arch_spin_once(const uint8_t *src, uint8_t *dst,
				  unsigned long ctl, unsigned long loops)
{
	unsigned int want = MXCSR_DEFAULT | (ctl & 3) << MXCSR_RC_SHIFT;
	unsigned int saved, got;

	asm volatile(YMM_LOAD_ALL
		     "vstmxcsr	%[saved]\n"
		     "vldmxcsr	%[want]\n"
		     "1:	dec	%[loops]\n"
		     "jnz	1b\n"
		     "vstmxcsr	%[got]\n"
		     "vldmxcsr	%[saved]\n"
		     YMM_STORE_ALL
		     "vzeroupper\n"
		     : [loops] "+r" (loops), [saved] "=m" (saved),
		       [got] "=m" (got)
		     : [want] "m" (want), [src] "r" (src), [dst] "r" (dst),
		       [width] "i" (YMM_BYTES)
		     : YMM_CLOBBERS, "cc", "memory");
	return got == want;
}

/*
 * A syscall issued with the registers live and dirty; they are stored to
 * @dst after it. MXCSR is left alone: @ctl is unused.
 */
static inline long arch_vector_syscall(const uint8_t *src, uint8_t *dst,
				       unsigned long ctl, long nr, long arg0,
				       long arg1, long arg2)
{
	(void)ctl;
	asm volatile(YMM_LOAD_ALL
		     "syscall\n"
		     YMM_STORE_ALL
		     "vzeroupper\n"
		     : "+a" (nr)
		     : "D" (arg0), "S" (arg1), "d" (arg2), [src] "r" (src),
		       [dst] "r" (dst), [width] "i" (YMM_BYTES)
		     : YMM_CLOBBERS, "rcx", "r11", "cc", "memory");
	return nr;
}

static inline void arch_scalar_spin(unsigned long loops)
{
	asm volatile("1:	dec	%0\n"
		     "jnz	1b\n"
		     : "+r" (loops) : : "cc");
}

#endif /* VECTOR_X86_H */
