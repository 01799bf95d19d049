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
 * kprobe on kernel_fpu_begin_mask() and its saves one on its call to
 * save_fpregs_to_fpstate().
 *
 * Timing (probe_sample) and verify=1 add a kretprobe on
 * save_fpregs_to_fpstate(): its return address tells a switch
 * (__switch_to) from kernel FPU use (kernel_fpu_begin_mask). Its entry
 * counts the switch's saves with verify=1, and times the saves of the
 * sampling windows (windows.c: about 1 save in probe_sample), less the cost
 * of the same kretprobe on an empty function; the return hook is taken
 * only by the calls it times. Timing also puts one on the reload from
 * switch_fpu_return(). A kretprobe that only times is armed only in the
 * windows: its trap costs more than the switch's save.
 *
 * x86 has no first-use trap: a task counts as using vector state from the
 * first switch-out whose saved AVX or AVX-512 upper halves are not all zero
 * (vzeroupper, which compilers put after vector code, zeroes them). The
 * saved content is read rather than XINUSE, which QEMU reports all set,
 * and only until the task is seen using vector state.
 */
#include <linux/kernel_stat.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
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
#include "attach/tracepoints.h"
#include "timing/windows.h"

/* The xstate components that hold vector register contents beyond SSE. */
static const int rvv_x86_vector_features[] = {
	XFEATURE_YMM, XFEATURE_ZMM_Hi256, XFEATURE_Hi16_ZMM,
};

static unsigned int rvv_x86_feature_bytes[ARRAY_SIZE(rvv_x86_vector_features)];
static unsigned int rvv_x86_user_size __ro_after_init;

/* A function whose calls to save_fpregs_to_fpstate() we recognise. */
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

/* What the entry handler leaves for the return handler. */
struct rvv_x86_span {
	u64 t0;			/* 0: not timed */
	unsigned int irqs;
	enum rvvstat_latency kind;
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

/* Registered; the save kretprobe stays armed if it counts, else in windows. */
static bool rvv_x86_save_armed;
static bool rvv_x86_save_counts;
static bool rvv_x86_restore_armed;
/* A sampling window is open: the kretprobes time. */
static bool rvv_x86_timing;
static bool rvv_x86_bias_armed;
static bool rvv_x86_kernel_fpu_armed;
static bool rvv_x86_kfpu_save_armed;
static u64 rvv_x86_bias_ns;
static struct rvv_hook rvv_x86_kernel_fpu_hook;
static struct rvv_hook rvv_x86_kfpu_save_hook;
static struct rvv_hook rvv_x86_save_hook;
static struct rvv_hook rvv_x86_restore_hook;
static struct rvv_hook rvv_x86_first_use_hook;
static struct rvv_hook rvv_x86_reload_hook;
static struct rvv_window_source rvv_x86_saves_source;

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

/* Whether a probe counts the saves kernel_fpu_begin_mask() makes. */
static bool rvv_x86_kfpu_saves_counted(void)
{
	return rvv_x86_kfpu_save_armed || READ_ONCE(rvv_x86_save_armed);
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
static int rvv_x86_on_kfpu_save(struct kprobe *kp, struct pt_regs *regs)
{
	rvv_account_kernel_v_save(current);
	return 0;
}

static struct kprobe rvv_x86_kfpu_save_kp = {
	.pre_handler = rvv_x86_on_kfpu_save,
};

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

/*
 * Leaves @kind for the return handler and times the call if @timed.
 * Returns what an entry handler returns: 0 to ask for the return.
 */
static int rvv_x86_span_begin(struct kretprobe_instance *ri,
			      enum rvvstat_latency kind, bool timed)
{
	struct rvv_x86_span *span = (struct rvv_x86_span *)ri->data;

	span->kind = kind;
	span->irqs = __this_cpu_read(kstat.irqs_sum);
	span->t0 = timed ? local_clock() : 0;	/* last, so nothing else is timed */
	return 0;
}

/*
 * Records the span that ended at @now, less @bias, unless it was not timed
 * or an interrupt came in.
 */
static void rvv_x86_span_record(struct kretprobe_instance *ri, u64 now,
				u64 bias)
{
	const struct rvv_x86_span *span = (const struct rvv_x86_span *)ri->data;
	unsigned long flags;
	u64 ns;

	if (!span->t0 || __this_cpu_read(kstat.irqs_sum) != span->irqs)
		return;
	ns = now - span->t0;
	local_irq_save(flags);
	rvv_latency_record(span->kind, ns > bias ? ns - bias : 0);
	local_irq_restore(flags);
}

/* Whether to time this save: one of its window's samples. */
static bool rvv_x86_sampled(void)
{
	return READ_ONCE(rvv_x86_timing) &&
	       rvv_window_take(&rvv_x86_saves_source);
}

static int rvv_x86_caller_of(unsigned long ret)
{
	int i;

	for (i = 0; i < RVV_X86_NR_CALLERS; i++)
		if (ret - rvv_x86_callers[i].start < rvv_x86_callers[i].size)
			return i;
	return -1;
}

/* At a probed function's entry the stack's top is the return address. */
static int rvv_x86_caller_at_entry(struct pt_regs *regs)
{
	return rvv_x86_caller_of(regs_get_kernel_stack_nth(regs, 0));
}

/*
 * The entry tells a switch (__switch_to) from kernel FPU use
 * (kernel_fpu_begin_mask) by the return address; fork, signals and ptrace
 * are no switch cost. It counts what verify=1 and a missing save-call probe
 * ask for; the return, which costs as much again, is asked for only to time
 * the save.
 */
static int rvv_x86_save_entry(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	enum rvvstat_latency kind;

	switch (rvv_x86_caller_at_entry(regs)) {
	case RVV_X86_SWITCH:
		if (rvv_x86.verify)
			rvv_account_cpu_event(RVVSTAT_CPU_VERIFY_SWITCH_SAVES);
		kind = RVVSTAT_LAT_SAVE_USER;
		break;
	case RVV_X86_KERNEL_FPU:
		if (!rvv_x86_kfpu_save_armed)
			rvv_account_kernel_v_save(current);
		kind = RVVSTAT_LAT_SAVE_KERNEL_V;
		break;
	default:
		return 1;
	}
	if (!rvv_x86_sampled())
		return 1;
	return rvv_x86_span_begin(ri, kind, true);
}

static int rvv_x86_span_end(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	rvv_x86_span_record(ri, local_clock(), READ_ONCE(rvv_x86_bias_ns));
	return 0;
}

static struct kretprobe rvv_x86_save_krp = {
	.kp.symbol_name = "save_fpregs_to_fpstate",
	.entry_handler = rvv_x86_save_entry,
	.handler = rvv_x86_span_end,
	.data_size = sizeof(struct rvv_x86_span),
};

/*
 * Times every reload on return to user while a saves' window is open: the
 * saves alone are its samples, so that as many saves fill it, and it
 * patches as often, with or without reloads.
 */
static int rvv_x86_restore_entry(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	if (rvv_x86_caller_at_entry(regs) != RVV_X86_RETURN_TO_USER ||
	    !READ_ONCE(rvv_x86_timing))
		return 1;
	return rvv_x86_span_begin(ri, RVVSTAT_LAT_RESTORE_USER, true);
}

static struct kretprobe rvv_x86_restore_krp = {
	.kp.symbol_name = "restore_fpregs_from_fpstate",
	.entry_handler = rvv_x86_restore_entry,
	.handler = rvv_x86_span_end,
	.data_size = sizeof(struct rvv_x86_span),
};

/* The empty function the bias is timed on; noinline keeps it a call. */
static noinline void rvv_x86_empty(void)
{
	barrier();
}

static int rvv_x86_bias_entry(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	return rvv_x86_span_begin(ri, RVVSTAT_LAT_PROBE_BIAS, true);
}

static int rvv_x86_bias_return(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	rvv_x86_span_record(ri, local_clock(), 0);
	return 0;
}

static struct kretprobe rvv_x86_bias_krp = {
	.kp.addr = (kprobe_opcode_t *)rvv_x86_empty,
	.entry_handler = rvv_x86_bias_entry,
	.handler = rvv_x86_bias_return,
	.data_size = sizeof(struct rvv_x86_span),
};

/* The kretprobes that only time, armed in the windows. */
static int rvv_x86_timing_krps(struct kretprobe *out[2])
{
	int n = 0;

	if (READ_ONCE(rvv_x86_save_armed) && !rvv_x86_save_counts)
		out[n++] = &rvv_x86_save_krp;
	if (rvv_x86_restore_armed)
		out[n++] = &rvv_x86_restore_krp;
	return n;
}

/* Nothing times until the bias is known (rvv_arch_start()). */
static unsigned int rvv_x86_window_begin(struct rvv_window_source *src)
{
	struct kretprobe *krps[2];
	unsigned int armed = 0;
	int i, n;

	if (!rvv_x86_bias_armed)
		return 0;
	n = rvv_x86_timing_krps(krps);
	for (i = 0; i < n; i++)
		armed += !enable_kretprobe(krps[i]);
	/* The counting save probe times in the window too. */
	armed += rvv_x86_save_counts && READ_ONCE(rvv_x86_save_armed);
	WRITE_ONCE(rvv_x86_timing, armed > 0);
	return armed;
}

static void rvv_x86_window_end(struct rvv_window_source *src)
{
	struct kretprobe *krps[2];
	int i, n;

	WRITE_ONCE(rvv_x86_timing, false);
	n = rvv_x86_timing_krps(krps);
	for (i = 0; i < n; i++)
		disable_kretprobe(krps[i]);
}

static void rvv_x86_saves_counts(u64 *timed, u64 *events)
{
	static const enum rvvstat_latency kinds[] = {
		RVVSTAT_LAT_SAVE_USER, RVVSTAT_LAT_SAVE_KERNEL_V,
	};
	struct rvv_totals t;

	*timed = rvv_latency_count_kinds(kinds, ARRAY_SIZE(kinds));
	rvv_snapshot_totals(&t);
	*events = t.all.c[RVVSTAT_SAVES_USER] + t.all.c[RVVSTAT_KERNEL_V_SAVES];
}

/* Saves a window times per CPU, with the reloads on return to user. */
#define RVV_X86_WINDOW_SAMPLES	2048

static struct rvv_window_source rvv_x86_saves_source = {
	.name = "saves",
	.open = rvv_x86_window_begin,
	.close = rvv_x86_window_end,
	.counts = rvv_x86_saves_counts,
	.samples = RVV_X86_WINDOW_SAMPLES,
};

static void rvv_x86_set_method(enum rvvstat_latency kind,
			       const struct rvv_hook *hook, unsigned int every)
{
	struct rvv_latency_method *m = rvv_latency_method(kind);

	m->hook = *hook;
	m->sample_every = every;
	m->ops_per_sample = 1;
}

/* What times saves and restores now, or why nothing does. */
static void rvv_x86_set_methods(void)
{
	unsigned int every = rvv_x86_bias_armed ? rvv_x86.probe_sample : 0;
	const struct rvv_hook *save = &rvv_x86_save_hook;
	const struct rvv_hook *restore = &rvv_x86_restore_hook;
	struct rvv_hook untimed;

	/* Without the bias nothing is timed. */
	if (!rvv_x86.probe_sample)
		rvv_hook_off(&untimed, "probe_sample");
	else
		rvv_hook_failed(&untimed, "no kretprobe on an empty module function", 0);
	if (!rvv_x86_bias_armed) {
		save = &untimed;
		restore = &untimed;
	}
	rvv_x86_set_method(RVVSTAT_LAT_SAVE_USER, save, every);
	rvv_x86_set_method(RVVSTAT_LAT_SAVE_KERNEL_V, save, every);
	rvv_x86_set_method(RVVSTAT_LAT_RESTORE_USER, restore,
			   rvv_x86_restore_armed ? every : 0);
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
	if (options->probe_sample) {
		rvv_x86_saves_source.throughout = options->probe_sample == 1;
		rvv_x86_saves_source.duty = options->probe_sample;
		if (rvv_windows_add(&rvv_x86_saves_source))
			pr_warn("no room for the save probes' sampling windows\n");
	}
	return 0;
}

/* The kretprobe pair around nothing, IRQs off so only it is timed. */
static void rvv_x86_time_bias(unsigned int times)
{
	unsigned long flags;

	if (!rvv_x86_bias_armed)
		return;
	while (times--) {
		local_irq_save(flags);
		rvv_x86_empty();
		local_irq_restore(flags);
	}
}

static void rvv_x86_update_bias(void)
{
	u64 bias;

	if (rvv_latency_probe_bias(&bias))
		return;
	WRITE_ONCE(rvv_x86_bias_ns, bias);
	rvv_latency_method(RVVSTAT_LAT_SAVE_USER)->bias_ns = bias;
	rvv_latency_method(RVVSTAT_LAT_SAVE_KERNEL_V)->bias_ns = bias;
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
	.time_bias = rvv_x86_time_bias,
	.update_bias = rvv_x86_update_bias,
};

int rvv_arch_calibrate(void)
{
	return rvv_calibrate(&rvv_x86_calib_ops);
}

/*
 * kernel_fpu_begin_mask() saves a loaded user state by a call to
 * save_fpregs_to_fpstate(), preemption off: a kprobe on that call counts
 * exactly its saves, off the switch path. The call is found by its target,
 * the function or, where call depth tracking patched the call, the thunk
 * in the padding before it; register_kprobe() refuses an address that is
 * not an instruction boundary. Returns the call's address, 0 if none.
 */
static unsigned long rvv_x86_find_save_call(void)
{
	const struct rvv_x86_caller *in = &rvv_x86_callers[RVV_X86_KERNEL_FPU];
	unsigned long save = rvv_lookup_name("save_fpregs_to_fpstate");
	unsigned long at, end = in->start + in->size;
	s32 rel;

	for (at = in->start; save && at + RVV_X86_CALL_BYTES <= end; at++) {
		if (*(const u8 *)at != RVV_X86_CALL)
			continue;
		memcpy(&rel, (const void *)(at + 1), sizeof(rel));
		if (save - (at + RVV_X86_CALL_BYTES + rel) <= RVV_X86_THUNK_BYTES)
			return at;
	}
	return 0;
}

static void rvv_x86_arm_kfpu_save(void)
{
	unsigned long at = rvv_x86_find_save_call();
	unsigned long start = rvv_x86_callers[RVV_X86_KERNEL_FPU].start;
	int err;

	if (!at) {
		rvv_hook_failed(&rvv_x86_kfpu_save_hook,
				"no call to save_fpregs_to_fpstate found", 0);
		return;
	}
	rvv_x86_kfpu_save_kp.addr = (kprobe_opcode_t *)at;
	err = register_kprobe(&rvv_x86_kfpu_save_kp);
	if (err) {
		rvv_hook_failed(&rvv_x86_kfpu_save_hook,
				"no kprobe on its call to save_fpregs_to_fpstate", err);
		return;
	}
	rvv_x86_kfpu_save_armed = true;
	rvv_x86_kfpu_save_hook = (struct rvv_hook){
		.state = RVV_HOOK_ON, .via = RVV_VIA_KPROBE,
		.symbol = "kernel_fpu_begin_mask", .offset = at - start,
	};
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

/* Registers @krp, disarmed unless it @counts (windows arm it to time). */
static void rvv_x86_arm_kretprobe(struct kretprobe *krp, struct rvv_hook *hook,
				  const char *caller, bool counts, bool *armed)
{
	int err;

	if (!counts)
		krp->kp.flags = KPROBE_FLAG_DISABLED;
	err = register_kretprobe(krp);

	if (err) {
		rvv_hook_failed(hook, "no kretprobe", err);
		hook->symbol = krp->kp.symbol_name;
	} else {
		*hook = (struct rvv_hook){
			.state = RVV_HOOK_ON, .via = RVV_VIA_KRETPROBE,
			.symbol = krp->kp.symbol_name, .caller = caller,
		};
	}
	WRITE_ONCE(*armed, !err);
}

/*
 * What counts is armed before the kernel FPU entry probe, which asks
 * whether its saves are counted elsewhere.
 */
int rvv_arch_start(void)
{
	int err;

	rvv_x86_arm_kfpu_save();
	/* Timing needs the bias first; without it nothing is timed. */
	if (rvv_x86.probe_sample && !register_kretprobe(&rvv_x86_bias_krp)) {
		rvv_x86_bias_armed = true;
		rvv_latency_method(RVVSTAT_LAT_PROBE_BIAS)->sample_every = 1;
		rvv_latency_method(RVVSTAT_LAT_PROBE_BIAS)->ops_per_sample = 1;
		rvv_latency_method(RVVSTAT_LAT_PROBE_BIAS)->hook = (struct rvv_hook){
			.state = RVV_HOOK_ON, .via = RVV_VIA_EMPTY_KRETPROBE,
		};
	}
	/* On the switch path: to verify or count what no call probe can, or to time. */
	rvv_x86_save_counts = rvv_x86.verify || !rvv_x86_kfpu_save_armed;
	if (rvv_x86_bias_armed || rvv_x86_save_counts)
		rvv_x86_arm_kretprobe(&rvv_x86_save_krp, &rvv_x86_save_hook,
				      NULL, rvv_x86_save_counts,
				      &rvv_x86_save_armed);
	else
		rvv_hook_off(&rvv_x86_save_hook, "probe_sample");
	if (rvv_x86_bias_armed)
		rvv_x86_arm_kretprobe(&rvv_x86_restore_krp, &rvv_x86_restore_hook,
				      "switch_fpu_return", false,
				      &rvv_x86_restore_armed);
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
	rvv_x86_set_methods();
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
	if (rvv_x86_restore_armed)
		unregister_kretprobe(&rvv_x86_restore_krp);
	rvv_x86_restore_armed = false;
	if (READ_ONCE(rvv_x86_save_armed))
		unregister_kretprobe(&rvv_x86_save_krp);
	WRITE_ONCE(rvv_x86_save_armed, false);
	if (rvv_x86_bias_armed)
		unregister_kretprobe(&rvv_x86_bias_krp);
	rvv_x86_bias_armed = false;
	if (rvv_x86_kfpu_save_armed)
		unregister_kprobe(&rvv_x86_kfpu_save_kp);
	rvv_x86_kfpu_save_armed = false;
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
	if (rvv_x86_bias_armed && READ_ONCE(rvv_x86_save_armed))
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
	return rvv_x86_kernel_fpu_kp.nmissed + rvv_x86_kfpu_save_kp.nmissed +
	       rvv_x86_save_krp.kp.nmissed + rvv_x86_save_krp.nmissed +
	       rvv_x86_restore_krp.kp.nmissed + rvv_x86_restore_krp.nmissed;
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

	if (!rvv_x86_kfpu_save_armed && READ_ONCE(rvv_x86_save_armed)) {
		kfpu_saves = &rvv_x86_save_hook;
		kfpu_how = "by caller";
	} else if (!rvv_x86_kfpu_save_armed) {
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
		READ_ONCE(rvv_x86_save_armed) ? "by caller, to verify and time" : NULL,
	};
	out[5] = (struct rvv_arch_source){ "reloads", &rvv_x86_reload_hook };
	return 6;
}

bool rvv_arch_verify_armed(void)
{
	return rvv_x86.verify && READ_ONCE(rvv_x86_save_armed);
}
