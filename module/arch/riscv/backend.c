// SPDX-License-Identifier: GPL-2.0
/*
 * RVV backend. The kernel inlines every save and restore, so the switch-time
 * work is predicted exactly from the state __switch_to_vector() will look at;
 * the other events come from kprobes on out-of-line functions, and an
 * optional verification mode probes the inlined save instructions themselves.
 */
#include <linux/kprobes.h>
#include <linux/math.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/sched/task_stack.h>
#include <asm/csr.h>
#include <asm/delay.h>
#include <asm/processor.h>
#include <asm/vector.h>

#include "arch/arch.h"
#include "attach/ksym.h"
#include "timing/calibrate.h"
#include "attach/hook.h"
#include "arch/riscv/insn.h"
#include "arch/riscv/saves.h"
#include "timing/spans.h"

/* What the backend reads: a vector kernel with kernel-mode V (mainline 6.8). */
#ifndef CONFIG_RISCV_ISA_V
#error "rvvstat: this kernel has no CONFIG_RISCV_ISA_V, so no vector state to measure"
#endif
#ifndef RISCV_KERNEL_MODE_V
#error "rvvstat needs kernel-mode vector (Linux 6.8+, or its backport): no RISCV_KERNEL_MODE_V"
#endif

#define RVV_GROUP_MAX	8

/* Probes that observe one kind of event, armed and disarmed together. */
struct rvv_probe_group {
	const char *label;
	struct kprobe probes[RVV_GROUP_MAX];
	struct kprobe *ptrs[RVV_GROUP_MAX];
	int nr;
	bool armed;
	struct rvv_hook hook;	/* where it is armed, or why it is not */
};

static struct rvv_probe_group rvv_kernel_v = { .label = "kernel-mode V" };
static struct rvv_probe_group rvv_exec = { .label = "exec" };
static struct rvv_probe_group rvv_first_use = { .label = "first use" };
static void (*rvv_first_use_fn)(struct task_struct *task) __ro_after_init;

/*
 * Mirrors kernel_vector_begin(): whether it arms a restore and, only where its
 * save instructions could not be probed, whether it saves. That prediction
 * over-counts on PREEMPT: a thread preempted before kernel_vector_begin()
 * disables preemption has its state saved by the switch instead.
 */
static int rvv_on_kernel_v(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *task = current;
	struct pt_regs *user_regs = task_pt_regs(task);
	u32 flags = READ_ONCE(task->thread.riscv_v_flags);
	bool nested = task->thread.kernel_vstate.datap &&
		      (flags & RISCV_PREEMPT_V);
	bool predict_save = !rvv_saves_kernel_v_counted();

	if (nested)
		rvv_account_kernel_v(task,
				     predict_save && (flags & RISCV_PREEMPT_V_DIRTY),
				     rvv_arch_restore_armed(task), false);
	else
		rvv_account_kernel_v(task, predict_save && rvv_vs_dirty(user_regs),
				     rvv_arch_restore_armed(task),
				     !rvv_vs_off(user_regs));
	return 0;
}

/* flush_thread() at exec drops a pending restore without performing it. */
static int rvv_on_exec_flush(struct kprobe *kp, struct pt_regs *regs)
{
	rvv_account_exec_flush(current, rvv_arch_restore_armed(current));
	return 0;
}

/* At a return of riscv_v_first_use_handler(): true and V on means enabled. */
static int rvv_on_first_use_return(struct kprobe *kp, struct pt_regs *regs)
{
	if ((u8)regs->a0 && !rvv_vs_off(task_pt_regs(current))) {
		rvv_account_first_use(current);
		rvv_first_use_fn(current);
	}
	return 0;
}

static void rvv_group_add(struct rvv_probe_group *g, unsigned long addr,
			  kprobe_pre_handler_t handler)
{
	struct kprobe *kp = &g->probes[g->nr];

	kp->addr = (kprobe_opcode_t *)addr;
	kp->pre_handler = handler;
	g->ptrs[g->nr++] = kp;
}

static void rvv_group_entry(struct rvv_probe_group *g, const char *symbol,
			    kprobe_pre_handler_t handler)
{
	g->probes[0].symbol_name = symbol;
	g->probes[0].pre_handler = handler;
	g->ptrs[0] = &g->probes[0];
	g->nr = 1;
}

/*
 * Puts a probe on each return instruction of @symbol, provided there are
 * 1 to RVV_GROUP_MAX of them: otherwise the group gets no probe at all.
 */
static void rvv_group_returns(struct rvv_probe_group *g, const char *symbol,
			      kprobe_pre_handler_t handler)
{
	unsigned long start, size;
	u32 offsets[RVV_GROUP_MAX];
	int found, i;

	if (rvv_function_extent(symbol, &start, &size)) {
		rvv_hook_failed(&g->hook, "no such function", 0);
		g->hook.symbol = symbol;
		return;
	}
	found = rvv_find_returns((const u16 *)start, size, offsets, RVV_GROUP_MAX);
	if (found < 1 || found > RVV_GROUP_MAX) {
		rvv_hook_failed(&g->hook,
				"not 1 to " __stringify(RVV_GROUP_MAX) " returns", 0);
		g->hook.symbol = symbol;
		g->hook.found = found;
		return;
	}
	for (i = 0; i < found; i++)
		rvv_group_add(g, start + offsets[i], handler);
	g->hook = (struct rvv_hook){
		.state = RVV_HOOK_ON, .via = RVV_VIA_RETURNS,
		.symbol = symbol, .found = found,
	};
}

static void rvv_group_arm(struct rvv_probe_group *g)
{
	int err;

	if (!g->nr)
		return;
	err = g->nr == 1 && g->probes[0].symbol_name ?
		rvv_register_entry_kprobe(&g->probes[0]) :
		register_kprobes(g->ptrs, g->nr);
	if (err) {
		rvv_hook_failed(&g->hook, "register_kprobe failed", err);
		return;
	}
	g->armed = true;
	if (g->probes[0].symbol_name)
		g->hook = (struct rvv_hook){
			.state = RVV_HOOK_ON, .via = RVV_VIA_KPROBE,
			.symbol = g->probes[0].symbol_name,
			.offset = g->probes[0].offset,
		};
}

static void rvv_group_disarm(struct rvv_probe_group *g)
{
	if (g->armed)
		unregister_kprobes(g->ptrs, g->nr);
	g->armed = false;
}

int rvv_arch_init(const struct rvv_arch_options *options)
{
	int err;

	if (!has_vector()) {
		pr_err("no vector extension on this CPU or kernel (has_vector() is false); nothing to measure\n");
		return -ENODEV;
	}
	rvv_group_entry(&rvv_kernel_v, "kernel_vector_begin", rvv_on_kernel_v);
	rvv_group_entry(&rvv_exec, "flush_thread", rvv_on_exec_flush);
	rvv_group_returns(&rvv_first_use, "riscv_v_first_use_handler",
			  rvv_on_first_use_return);
	rvv_first_use_fn = options->first_use;
	err = rvv_saves_init(options->verify, options->probe_sample);
	if (err)
		return err;
	rvv_calibrate_describe();
	return 0;
}

static struct rvv_probe_group *const rvv_groups[] = {
	&rvv_first_use, &rvv_kernel_v, &rvv_exec,
};

static void *rvv_calib_alloc(void)
{
	struct __riscv_v_ext_state *state = kzalloc(sizeof(*state), GFP_KERNEL);

	if (state)
		state->datap = kmalloc(riscv_v_vsize, GFP_KERNEL);
	if (state && !state->datap) {
		kfree(state);
		state = NULL;
	}
	return state;
}

static void rvv_calib_free(void *buf)
{
	struct __riscv_v_ext_state *state = buf;

	kfree(state->datap);
	kfree(state);
}

/*
 * As the kernel calls them, with datap read from the state each time: the
 * asm advances its datap register in place, so a loop must not reuse it.
 */
static void rvv_calib_save(void *buf, unsigned int times)
{
	struct __riscv_v_ext_state *state = buf;

	while (times--)
		__riscv_v_vstate_save(state, state->datap);
}

static void rvv_calib_restore(void *buf, unsigned int times)
{
	struct __riscv_v_ext_state *state = buf;

	while (times--)
		__riscv_v_vstate_restore(state, state->datap);
}

static const struct rvv_calib_ops rvv_calib_ops = {
	.alloc = rvv_calib_alloc,
	.free = rvv_calib_free,
	.begin = kernel_vector_begin,
	.end = kernel_vector_end,
	.save = rvv_calib_save,
	.restore = rvv_calib_restore,
	.time_bias = rvv_spans_time_stretch,
	.update_bias = rvv_spans_update_bias,
};

int rvv_arch_start(void)
{
	int i, err;

	/* The save sites first, so the entry probe never predicts needlessly. */
	rvv_saves_start();
	for (i = 0; i < ARRAY_SIZE(rvv_groups); i++)
		rvv_group_arm(rvv_groups[i]);
	/* The pairs' bias comes from the calibration, before they time. */
	err = rvv_calibrate(&rvv_calib_ops);
	if (err) {
		rvv_arch_stop();
		return err;
	}
	return 0;
}

void rvv_arch_stop(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rvv_groups); i++)
		rvv_group_disarm(rvv_groups[i]);
	rvv_saves_stop();
}

int rvv_arch_calibrate(void)
{
	return rvv_calibrate(&rvv_calib_ops);
}

u64 rvv_arch_clock_step_ns(void)
{
	return DIV_ROUND_UP(NSEC_PER_SEC, riscv_timebase);
}

unsigned int rvv_arch_bytes_per_save(void)
{
	return riscv_v_vsize;
}

void rvv_arch_info(struct rvvstat_info *info)
{
	info->backend = RVVSTAT_BACKEND_RISCV_V;
	/* 32 registers of VLENB bytes each. */
	info->vector_bits = riscv_v_vsize / 32 * BITS_PER_BYTE;
	if (rvv_spans_timing())
		info->features |= RVVSTAT_FEATURE_SAVE_PROBES;
	if (rvv_saves_switch_counted())
		info->features |= RVVSTAT_FEATURE_VERIFY;
	if (rvv_first_use.armed)
		info->features |= RVVSTAT_FEATURE_VECTOR_USE;
}

/* The first-use trap allocates the state; exec frees it (flush_thread). */
bool rvv_arch_task_used_vector(struct task_struct *task)
{
	return READ_ONCE(task->thread.vstate.datap);
}

int rvv_arch_sources(struct rvv_arch_source out[RVV_ARCH_MAX_SOURCES])
{
	static const struct rvv_hook tracepoint = {
		.state = RVV_HOOK_ON, .via = RVV_VIA_TRACEPOINT,
		.symbol = "sched_switch",
	};
	int i, n = 0;

	BUILD_BUG_ON(1 + ARRAY_SIZE(rvv_groups) + 2 > RVV_ARCH_MAX_SOURCES);
	out[n++] = (struct rvv_arch_source){
		"context switch", &tracepoint, "decoded from VS and preempt-V flags",
	};
	for (i = 0; i < ARRAY_SIZE(rvv_groups); i++) {
		const struct rvv_probe_group *g = rvv_groups[i];

		if (g->nr || g->hook.state != RVV_HOOK_UNSET)
			out[n++] = (struct rvv_arch_source){ g->label, &g->hook };
	}
	return n + rvv_saves_sources(out + n);
}

unsigned long rvv_arch_probe_misses(void)
{
	unsigned long missed = rvv_spans_missed();
	int i, p;

	for (i = 0; i < ARRAY_SIZE(rvv_groups); i++)
		for (p = 0; rvv_groups[i]->armed && p < rvv_groups[i]->nr; p++)
			missed += rvv_groups[i]->probes[p].nmissed;
	return missed;
}

bool rvv_arch_verify_armed(void)
{
	return rvv_saves_switch_counted();
}
