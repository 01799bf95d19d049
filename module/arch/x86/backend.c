// SPDX-License-Identifier: GPL-2.0
/*
 * x86 backend: the FPU/SSE/AVX register file (xstate). __switch_to() saves
 * it eagerly for every user task whose registers are loaded, that is whose
 * deferred-restore flag TIF_NEED_FPU_LOAD is clear, so the switch-time work
 * is predicted exactly at sched_switch, as on RISC-V.
 *
 * Counting puts no kprobe on the switch path: the FPU code's own
 * tracepoints fire there, x86_fpu_regs_deactivated right after the switch's
 * save (first use, below) and x86_fpu_regs_activated when a deferred
 * restore reloads the registers (restores_loaded). Kernel FPU use is a
 * kprobe on kernel_fpu_begin_mask(); its saves are counted by the first
 * probe of the span (timing/spans.c) on its call to save_fpregs_to_fpstate().
 *
 * Timing (probe_sample) times the calls that save and reload between a
 * kprobe on the call and one on the instruction after it, the spans: the
 * save in __switch_to(), the one in kernel_fpu_begin_mask() and the reload
 * in switch_fpu_return(), less the cost of the same pair around a call to
 * an empty module function; none of them sits on ftrace, and the windows
 * arm them for about 1 save in probe_sample. verify=1 counts the switch's
 * saves at save_fpregs_to_fpstate()'s entry, told from other callers by
 * the return address; so does a kernel whose kernel_fpu_begin_mask() has
 * no call to find.
 *
 * x86 has no first-use trap: a task counts as using vector state from the
 * first switch-out whose saved AVX or AVX-512 upper halves are not all zero
 * (vzeroupper, which compilers put after vector code, zeroes them). The
 * saved content is read rather than XINUSE, which QEMU reports all set,
 * and only until the task is seen using vector state.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/fpu/types.h>
#include <asm/fpu/xcr.h>
#include <asm/fpu/xstate.h>

#include "arch/arch.h"
#include "timing/calibrate.h"
#include "attach/hook.h"
#include "attach/ksym.h"
#include "timing/latency.h"
#include "timing/spans.h"
#include "attach/tracepoints.h"

/* The xstate components that hold vector register contents beyond SSE. */
static const int rvv_x86_vector_features[] = {
	XFEATURE_YMM, XFEATURE_ZMM_Hi256, XFEATURE_Hi16_ZMM,
};

static unsigned int rvv_x86_feature_bytes[ARRAY_SIZE(rvv_x86_vector_features)];
static unsigned int rvv_x86_user_size __ro_after_init;

/* A function whose calls to save or reload we recognise. */
struct rvv_x86_caller {
	const char *name;
	unsigned long start, size;
};

enum {
	RVV_X86_SWITCH, RVV_X86_KERNEL_FPU, RVV_X86_RETURN_TO_USER,
	RVV_X86_NR_CALLERS
};

static struct rvv_x86_caller rvv_x86_callers[RVV_X86_NR_CALLERS] = {
	[RVV_X86_SWITCH] = { .name = "__switch_to" },
	[RVV_X86_KERNEL_FPU] = { .name = "kernel_fpu_begin_mask" },
	[RVV_X86_RETURN_TO_USER] = { .name = "switch_fpu_return" },
};

/* A call rel32: opcode and length. */
#define RVV_X86_CALL		0xe8
#define RVV_X86_CALL_BYTES	5
/* Call depth tracking makes calls go to a thunk in the callee's padding. */
#ifdef CONFIG_CALL_THUNKS
#define RVV_X86_THUNK_BYTES	CONFIG_FUNCTION_PADDING_BYTES
#else
#define RVV_X86_THUNK_BYTES	0
#endif

static struct rvv_arch_options rvv_x86 __ro_after_init;

/* The kprobe that counts the switch's saves (verify=1), armed. */
static bool rvv_x86_save_armed;
/* kernel_fpu_begin_mask()'s save call is a span: its "before" counts. */
static bool rvv_x86_kfpu_span;
static bool rvv_x86_kernel_fpu_armed;
static struct rvv_hook rvv_x86_kernel_fpu_hook;
static struct rvv_hook rvv_x86_kfpu_save_hook;
static struct rvv_hook rvv_x86_save_hook;
static struct rvv_hook rvv_x86_first_use_hook;
static struct rvv_hook rvv_x86_reload_hook;

/* Whether a just-saved state holds vector contents beyond the SSE halves. */
static bool rvv_x86_vector_live(struct fpstate *fpstate)
{
	struct xregs_state *xsave = &fpstate->regs.xsave;
	void *area;
	int i;

	for (i = 0; i < ARRAY_SIZE(rvv_x86_vector_features); i++) {
		if (!(xsave->header.xfeatures &
		      BIT_ULL(rvv_x86_vector_features[i])))
			continue;	/* in its initial state: all zero */
		area = get_xsave_addr(xsave, rvv_x86_vector_features[i]);
		if (area && memchr_inv(area, 0, rvv_x86_feature_bytes[i]))
			return true;
	}
	return false;
}

bool rvv_arch_task_used_vector(struct task_struct *task)
{
	return rvv_task_vector_seen(task);
}

/* Whether the span on kernel_fpu_begin_mask()'s save call counts its saves. */
static bool rvv_x86_kfpu_span_counts(void)
{
	return rvv_x86_kfpu_span && rvv_spans_counting();
}

/* Whether a probe counts the saves kernel_fpu_begin_mask() makes. */
static bool rvv_x86_kfpu_saves_counted(void)
{
	return rvv_x86_kfpu_span_counts() || READ_ONCE(rvv_x86_save_armed);
}

/*
 * kernel_fpu_begin_mask() saves a loaded user state and defers its restore.
 * Its saves are predicted here only if no probe counts them.
 */
static int rvv_x86_on_kernel_fpu(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *task = current;
	bool user = rvv_x86_user_task(task);
	bool loaded = !test_tsk_thread_flag(task, TIF_NEED_FPU_LOAD);

	rvv_account_kernel_v(task, !rvv_x86_kfpu_saves_counted() &&
			     user && loaded, rvv_arch_restore_armed(task), user);
	return 0;
}

static struct kprobe rvv_x86_kernel_fpu_kp = {
	.symbol_name = "kernel_fpu_begin_mask",
	.pre_handler = rvv_x86_on_kernel_fpu,
};

/* At kernel_fpu_begin_mask()'s call to save_fpregs_to_fpstate(). */
static void rvv_x86_count_kfpu_save(void)
{
	rvv_account_kernel_v_save(current);
}

DEFINE_PER_CPU(struct rvv_task_hot *, rvv_x86_unseen_saving);

/*
 * Right after __switch_to() saved prev's registers (current is still
 * prev); also at exit, from fpu__drop(), which saves nothing. The
 * sched_switch probe just before said whether prev is still to be seen
 * using vector state: only then is the saved state read.
 */
static notrace void rvv_x86_on_regs_deactivated(void *data, struct fpu *fpu)
{
	struct task_struct *task = current;

	if (!__this_cpu_read(rvv_x86_unseen_saving))
		return;
	__this_cpu_write(rvv_x86_unseen_saving, NULL);
	if (fpu != &task->thread.fpu || (task->flags & PF_EXITING))
		return;
	if (rvv_x86_vector_live(fpu->fpstate) && rvv_account_vector_seen(task))
		rvv_x86.first_use(task);
}

/*
 * The registers were loaded from memory. A deferred restore does so with
 * TIF_NEED_FPU_LOAD still set, cleared right after: on the return to user
 * mostly, also at a signal frame or a fork by the task.
 */
static notrace void rvv_x86_on_regs_activated(void *data, struct fpu *fpu)
{
	if (test_thread_flag(TIF_NEED_FPU_LOAD))
		rvv_account_cpu_event(RVVSTAT_CPU_RESTORES_LOADED);
}

enum { RVV_X86_TP_FIRST_USE, RVV_X86_TP_RELOAD, RVV_X86_NR_TPS };

static struct rvv_tracepoint rvv_x86_tps[RVV_X86_NR_TPS] = {
	[RVV_X86_TP_FIRST_USE] = {
		.name = "x86_fpu_regs_deactivated",
		.probe = rvv_x86_on_regs_deactivated,
	},
	[RVV_X86_TP_RELOAD] = {
		.name = "x86_fpu_regs_activated",
		.probe = rvv_x86_on_regs_activated,
	},
};

static int rvv_x86_caller_of(unsigned long ret)
{
	int i;

	for (i = 0; i < RVV_X86_NR_CALLERS; i++)
		if (ret - rvv_x86_callers[i].start < rvv_x86_callers[i].size)
			return i;
	return -1;
}

/*
 * At save_fpregs_to_fpstate()'s entry, where the stack's top is the return
 * address: a switch's save (__switch_to) with verify=1, kernel FPU use's
 * (kernel_fpu_begin_mask) where no span counts them; fork, signals and
 * ptrace are no switch cost.
 */
static int rvv_x86_on_save(struct kprobe *kp, struct pt_regs *regs)
{
	switch (rvv_x86_caller_of(regs_get_kernel_stack_nth(regs, 0))) {
	case RVV_X86_SWITCH:
		if (rvv_x86.verify)
			rvv_account_cpu_event(RVVSTAT_CPU_VERIFY_SWITCH_SAVES);
		break;
	case RVV_X86_KERNEL_FPU:
		if (!rvv_x86_kfpu_span_counts())
			rvv_account_kernel_v_save(current);
		break;
	}
	return 0;
}

static struct kprobe rvv_x86_save_kp = {
	.symbol_name = "save_fpregs_to_fpstate",
	.pre_handler = rvv_x86_on_save,
};

/* The empty function the bias is timed around a call to. */
static noinline void rvv_x86_empty(void)
{
	barrier();
}

/* The bias stretch: a call as the saves' (the barrier keeps it no tail call). */
static noinline void rvv_x86_call_empty(void)
{
	rvv_x86_empty();
	barrier();
}

/* A call timed as a span, found in a caller by its callee. */
struct rvv_x86_call_span {
	int caller;			/* in rvv_x86_callers[] */
	const char *callee;
	const char *missing;		/* why there is no span, if none */
	enum rvvstat_latency kind;
	void (*count)(void);		/* what its "before" counts */
	bool sample;			/* a save, not a reload */
};

static const struct rvv_x86_call_span rvv_x86_call_spans[] = {
	{ RVV_X86_SWITCH, "save_fpregs_to_fpstate",
	  "no call to save_fpregs_to_fpstate found",
	  RVVSTAT_LAT_SAVE_USER, NULL, true },
	{ RVV_X86_KERNEL_FPU, "save_fpregs_to_fpstate",
	  "no call to save_fpregs_to_fpstate found",
	  RVVSTAT_LAT_SAVE_KERNEL_V, rvv_x86_count_kfpu_save, true },
	{ RVV_X86_RETURN_TO_USER, "restore_fpregs_from_fpstate",
	  "no call to restore_fpregs_from_fpstate found",
	  RVVSTAT_LAT_RESTORE_USER, NULL, false },
};

/*
 * The call to @target in the @size bytes at @start, found by its target:
 * the function or, where call depth tracking patched the call, the thunk
 * in the padding before it; register_kprobe() refuses an address that is
 * not an instruction boundary. Returns the call's address, 0 if none.
 */
static unsigned long rvv_x86_find_call(unsigned long start, unsigned long size,
				       unsigned long target)
{
	unsigned long at, end = start + size;
	s32 rel;

	for (at = start; target && at + RVV_X86_CALL_BYTES <= end; at++) {
		if (*(const u8 *)at != RVV_X86_CALL)
			continue;
		memcpy(&rel, (const void *)(at + 1), sizeof(rel));
		if (target - (at + RVV_X86_CALL_BYTES + rel) <= RVV_X86_THUNK_BYTES)
			return at;
	}
	return 0;
}

/* The empty stretch's call, for the bias; 0 if not found. */
static unsigned long rvv_x86_find_stretch(void)
{
	unsigned long start = (unsigned long)rvv_x86_call_empty, size;

	if (rvv_function_size(start, &size))
		return 0;
	return rvv_x86_find_call(start, size, (unsigned long)rvv_x86_empty);
}

/*
 * Adds @sp's span if its call is found, and sets its kind's method (@untimed
 * unless @timed) and, for the span that counts, the kernel FPU saves' hook.
 */
static void rvv_x86_add_call_span(const struct rvv_x86_call_span *sp, bool timed,
				  const struct rvv_hook *untimed)
{
	const struct rvv_x86_caller *in = &rvv_x86_callers[sp->caller];
	struct rvv_hook *hook = &rvv_latency_method(sp->kind)->hook;
	unsigned long at;

	*hook = *untimed;
	if (!timed && !sp->count)
		return;
	at = rvv_x86_find_call(in->start, in->size, rvv_lookup_name(sp->callee));
	if (!at || rvv_spans_add(at, at + RVV_X86_CALL_BYTES, sp->kind,
				 sp->count, sp->sample)) {
		rvv_hook_failed(hook, at ? "no room for its span" : sp->missing, 0);
		hook->symbol = in->name;
		if (sp->count)
			rvv_x86_kfpu_save_hook = *hook;
		return;
	}
	if (timed)
		*hook = (struct rvv_hook){
			.state = RVV_HOOK_ON, .via = RVV_VIA_KPROBE_SPAN,
			.symbol = in->name, .offset = at - in->start,
			.end = at + RVV_X86_CALL_BYTES - in->start, .datap = -1,
		};
	if (!sp->count)
		return;
	rvv_x86_kfpu_span = true;
	rvv_x86_kfpu_save_hook = (struct rvv_hook){
		.state = RVV_HOOK_ON, .via = RVV_VIA_KPROBE,
		.symbol = in->name, .offset = at - in->start,
	};
}

/*
 * The spans, and each kind's method: kernel_fpu_begin_mask()'s save call
 * counts whatever probe_sample, the others only time, and nothing times
 * without the bias.
 */
static void rvv_x86_find_spans(void)
{
	unsigned long stretch = rvv_x86.probe_sample ? rvv_x86_find_stretch() : 0;
	struct rvv_hook *bias = &rvv_latency_method(RVVSTAT_LAT_PROBE_BIAS)->hook;
	struct rvv_hook untimed;
	int i;

	rvv_hook_off(&untimed, "probe_sample");
	if (rvv_x86.probe_sample && !stretch)
		rvv_hook_failed(&untimed, "no call to an empty module function found", 0);
	*bias = untimed;
	if (stretch) {
		rvv_spans_set_stretch(rvv_x86_call_empty, stretch,
				      stretch + RVV_X86_CALL_BYTES);
		*bias = (struct rvv_hook){
			.state = RVV_HOOK_ON, .via = RVV_VIA_EMPTY_CALL_SPAN,
		};
	}
	for (i = 0; i < ARRAY_SIZE(rvv_x86_call_spans); i++)
		rvv_x86_add_call_span(&rvv_x86_call_spans[i], stretch, &untimed);
	rvv_spans_init(stretch ? rvv_x86.probe_sample : 0);
}

/*
 * The kernel's default user size (fpu_user_cfg.default_size, not exported),
 * found the way the kernel finds it (xstate_calculate_size()): the standard
 * XSAVE layout up to the topmost feature XCR0 enables (the kernel writes
 * fpu_user_cfg.max_features there), without the dynamic ones (AMX tile
 * data) that a thread has only once it asked for them. The same for every
 * thread and every reader, unlike a task's fpstate->size: that is the
 * kernel's buffer (compacted, with supervisor state, where XSAVES is used)
 * and grows once the task uses AMX.
 */
static unsigned int rvv_x86_default_user_size(void)
{
	u64 features = xgetbv(XCR_XFEATURE_ENABLED_MASK) &
		       ~XFEATURE_MASK_USER_DYNAMIC;
	unsigned int topmost = fls64(features) - 1;
	unsigned int size, offset, ecx, edx;

	if (topmost <= XFEATURE_SSE)
		return sizeof(struct xregs_state);
	/* CPUID leaf 0xd, sub-leaf n: component n's size and offset. */
	cpuid_count(0xd, topmost, &size, &offset, &ecx, &edx);
	return offset + size;
}

int rvv_arch_init(const struct rvv_arch_options *options)
{
	int i, err;

	if (!boot_cpu_has(X86_FEATURE_FPU) || !boot_cpu_has(X86_FEATURE_XSAVE)) {
		pr_err("this CPU has no XSAVE; nothing to measure\n");
		return -ENODEV;
	}
	rvv_x86 = *options;
	rvv_x86_user_size = rvv_x86_default_user_size();
	for (i = 0; i < ARRAY_SIZE(rvv_x86_vector_features); i++) {
		unsigned int size, offset, ecx, edx;

		/* CPUID leaf 0xd, sub-leaf n: component n's size (eax). */
		cpuid_count(0xd, rvv_x86_vector_features[i], &size, &offset,
			    &ecx, &edx);
		rvv_x86_feature_bytes[i] = size;
	}
	for (i = 0; i < RVV_X86_NR_CALLERS; i++) {
		struct rvv_x86_caller *c = &rvv_x86_callers[i];

		err = rvv_function_extent(c->name, &c->start, &c->size);
		if (err) {
			pr_err("%s not found (%d)\n", c->name, err);
			return err;
		}
	}
	rvv_hook_none(&rvv_latency_method(RVVSTAT_LAT_SAVE_KERNEL)->hook,
		      "kernel FPU use is not preemptible on x86");
	rvv_calibrate_describe();
	/* Now, so that the switch probe chosen next looks at the windows. */
	rvv_x86_find_spans();
	return 0;
}

/*
 * The kernel's choice of instruction (os_xsave/os_xrstor): XSAVES where the
 * CPU has it, else XSAVEOPT, else XSAVE. The buffer has room for every
 * feature XCR0 enables; only the user vector features are saved.
 */
struct rvv_x86_calib_buf {
	void *area;		/* 64-byte aligned, as XSAVE wants */
	void *mem;
	u32 lo, hi;		/* the feature mask, EDX:EAX */
};

static void *rvv_x86_calib_alloc(void)
{
	struct rvv_x86_calib_buf *b = kzalloc(sizeof(*b), GFP_KERNEL);
	unsigned int eax, size, ecx, edx;
	u64 mask;

	if (!b)
		return NULL;
	cpuid_count(0xd, 0, &eax, &size, &ecx, &edx);
	b->mem = kzalloc(size + 64, GFP_KERNEL);
	if (!b->mem) {
		kfree(b);
		return NULL;
	}
	b->area = PTR_ALIGN(b->mem, 64);
	mask = xgetbv(XCR_XFEATURE_ENABLED_MASK) &
	       (XFEATURE_MASK_FPSSE | XFEATURE_MASK_YMM | XFEATURE_MASK_AVX512);
	b->lo = mask;
	b->hi = mask >> 32;
	return b;
}

static void rvv_x86_calib_free(void *buf)
{
	struct rvv_x86_calib_buf *b = buf;

	kfree(b->mem);
	kfree(b);
}

static void rvv_x86_calib_save(void *buf, unsigned int times)
{
	struct rvv_x86_calib_buf *b = buf;

	while (times--) {
		if (boot_cpu_has(X86_FEATURE_XSAVES))
			asm volatile("xsaves64 (%0)" : : "r" (b->area),
				     "a" (b->lo), "d" (b->hi) : "memory");
		else if (boot_cpu_has(X86_FEATURE_XSAVEOPT))
			asm volatile("xsaveopt64 (%0)" : : "r" (b->area),
				     "a" (b->lo), "d" (b->hi) : "memory");
		else
			asm volatile("xsave64 (%0)" : : "r" (b->area),
				     "a" (b->lo), "d" (b->hi) : "memory");
	}
}

static void rvv_x86_calib_restore(void *buf, unsigned int times)
{
	struct rvv_x86_calib_buf *b = buf;

	while (times--) {
		if (boot_cpu_has(X86_FEATURE_XSAVES))
			asm volatile("xrstors64 (%0)" : : "r" (b->area),
				     "a" (b->lo), "d" (b->hi) : "memory");
		else
			asm volatile("xrstor64 (%0)" : : "r" (b->area),
				     "a" (b->lo), "d" (b->hi) : "memory");
	}
}

static void rvv_x86_calib_begin(void)
{
	kernel_fpu_begin();
}

static const struct rvv_calib_ops rvv_x86_calib_ops = {
	.alloc = rvv_x86_calib_alloc,
	.free = rvv_x86_calib_free,
	.begin = rvv_x86_calib_begin,
	.end = kernel_fpu_end,
	.save = rvv_x86_calib_save,
	.restore = rvv_x86_calib_restore,
	.time_bias = rvv_spans_time_stretch,
	.update_bias = rvv_spans_update_bias,
};

int rvv_arch_calibrate(void)
{
	return rvv_calibrate(&rvv_x86_calib_ops);
}

/* The hook of tracepoint @i, attached or not. */
static void rvv_x86_attach_tp(int i, struct rvv_hook *hook)
{
	int err = rvv_tracepoints_attach(&rvv_x86_tps[i], 1);

	if (err) {
		rvv_hook_failed(hook, "tracepoint not attached", err);
		hook->symbol = rvv_x86_tps[i].name;
		return;
	}
	*hook = (struct rvv_hook){
		.state = RVV_HOOK_ON, .via = RVV_VIA_TRACEPOINT,
		.symbol = rvv_x86_tps[i].name,
	};
}

/* The switch's saves, counted at save_fpregs_to_fpstate()'s entry. */
static void rvv_x86_arm_save_kprobe(void)
{
	int err = register_kprobe(&rvv_x86_save_kp);

	if (err) {
		rvv_hook_failed(&rvv_x86_save_hook, "no kprobe", err);
		rvv_x86_save_hook.symbol = rvv_x86_save_kp.symbol_name;
	} else {
		rvv_x86_save_hook = (struct rvv_hook){
			.state = RVV_HOOK_ON, .via = RVV_VIA_KPROBE_FTRACE,
			.symbol = rvv_x86_save_kp.symbol_name,
			.offset = rvv_kprobe_offset(&rvv_x86_save_kp),
		};
	}
	WRITE_ONCE(rvv_x86_save_armed, !err);
}

/* The spans' probes fail together: nothing is timed, kernel FPU saves predicted. */
static void rvv_x86_spans_failed(int err)
{
	struct rvv_hook failed;
	int i;

	rvv_hook_failed(&failed, "register_kprobes failed", err);
	for (i = 0; i < ARRAY_SIZE(rvv_x86_call_spans); i++)
		rvv_latency_method(rvv_x86_call_spans[i].kind)->hook = failed;
	rvv_latency_method(RVVSTAT_LAT_PROBE_BIAS)->hook = failed;
	rvv_x86_kfpu_save_hook = failed;
}

/*
 * What counts is armed before the kernel FPU entry probe, which asks
 * whether its saves are counted elsewhere.
 */
int rvv_arch_start(void)
{
	int err;

	err = rvv_spans_start();
	if (err)
		rvv_x86_spans_failed(err);
	/* On the switch path: to verify, or count what no span can. */
	if (rvv_x86.verify || !rvv_x86_kfpu_saves_counted())
		rvv_x86_arm_save_kprobe();
	else
		rvv_hook_off(&rvv_x86_save_hook, "verify");
	rvv_x86_attach_tp(RVV_X86_TP_FIRST_USE, &rvv_x86_first_use_hook);
	rvv_x86_attach_tp(RVV_X86_TP_RELOAD, &rvv_x86_reload_hook);
	err = register_kprobe(&rvv_x86_kernel_fpu_kp);
	rvv_x86_kernel_fpu_armed = !err;
	if (err) {
		pr_warn("no kprobe on kernel_fpu_begin_mask (%d)\n", err);
		rvv_hook_failed(&rvv_x86_kernel_fpu_hook,
				"no kprobe on kernel_fpu_begin_mask", err);
	} else {
		rvv_x86_kernel_fpu_hook = (struct rvv_hook){
			.state = RVV_HOOK_ON, .via = RVV_VIA_KPROBE,
			.symbol = "kernel_fpu_begin_mask",
			.offset = rvv_kprobe_offset(&rvv_x86_kernel_fpu_kp),
		};
	}
	err = rvv_arch_calibrate();
	if (err)
		rvv_arch_stop();
	return err;
}

void rvv_arch_stop(void)
{
	if (rvv_x86_kernel_fpu_armed)
		unregister_kprobe(&rvv_x86_kernel_fpu_kp);
	rvv_x86_kernel_fpu_armed = false;
	rvv_tracepoints_detach(rvv_x86_tps, RVV_X86_NR_TPS);
	tracepoint_synchronize_unregister();
	if (READ_ONCE(rvv_x86_save_armed))
		unregister_kprobe(&rvv_x86_save_kp);
	WRITE_ONCE(rvv_x86_save_armed, false);
	rvv_spans_stop();
}

/* local_clock() is TSC based: a nanosecond. */
u64 rvv_arch_clock_step_ns(void)
{
	return 1;
}

/* The same for every thread, and for every reader: see above. */
unsigned int rvv_arch_bytes_per_save(void)
{
	return rvv_x86_user_size;
}

void rvv_arch_info(struct rvvstat_info *info)
{
	info->backend = RVVSTAT_BACKEND_X86_FPU;
	if (boot_cpu_has(X86_FEATURE_AVX512F))
		info->vector_bits = 512;
	else if (boot_cpu_has(X86_FEATURE_AVX))
		info->vector_bits = 256;
	else
		info->vector_bits = 128;
	if (rvv_spans_timing())
		info->features |= RVVSTAT_FEATURE_SAVE_PROBES;
	if (rvv_arch_verify_armed())
		info->features |= RVVSTAT_FEATURE_VERIFY;
	if (rvv_x86_tps[RVV_X86_TP_FIRST_USE].registered)
		info->features |= RVVSTAT_FEATURE_VECTOR_USE;
	if (rvv_x86_tps[RVV_X86_TP_RELOAD].registered)
		info->features |= RVVSTAT_FEATURE_RESTORE_PROBES;
}

unsigned long rvv_arch_probe_misses(void)
{
	return rvv_x86_kernel_fpu_kp.nmissed + rvv_x86_save_kp.nmissed +
	       rvv_spans_missed();
}

int rvv_arch_sources(struct rvv_arch_source out[RVV_ARCH_MAX_SOURCES])
{
	static const struct rvv_hook tracepoint = {
		.state = RVV_HOOK_ON, .via = RVV_VIA_TRACEPOINT,
		.symbol = "sched_switch",
	};
	bool first_use = rvv_x86_tps[RVV_X86_TP_FIRST_USE].registered;
	const struct rvv_hook *kfpu_saves = &rvv_x86_kfpu_save_hook;
	const char *kfpu_how = "at its call to save_fpregs_to_fpstate";
	bool kfpu_counted = rvv_x86_kfpu_span_counts();

	if (!kfpu_counted && READ_ONCE(rvv_x86_save_armed)) {
		kfpu_saves = &rvv_x86_save_hook;
		kfpu_how = "by caller";
	} else if (!kfpu_counted) {
		kfpu_how = "predicted at entry instead";
	}
	out[0] = (struct rvv_arch_source){
		"context switch", &tracepoint, "decoded from TIF_NEED_FPU_LOAD",
	};
	out[1] = (struct rvv_arch_source){
		"first use", &rvv_x86_first_use_hook, first_use ?
		"first switch-out that saves non-zero AVX upper halves" : NULL,
	};
	out[2] = (struct rvv_arch_source){ "kernel FPU", &rvv_x86_kernel_fpu_hook };
	out[3] = (struct rvv_arch_source){ "kernel FPU saves", kfpu_saves, kfpu_how };
	out[4] = (struct rvv_arch_source){
		"saves", &rvv_x86_save_hook,
		READ_ONCE(rvv_x86_save_armed) ? "by caller" : NULL,
	};
	out[5] = (struct rvv_arch_source){ "reloads", &rvv_x86_reload_hook };
	return 6;
}

bool rvv_arch_verify_armed(void)
{
	return rvv_x86.verify && READ_ONCE(rvv_x86_save_armed);
}
