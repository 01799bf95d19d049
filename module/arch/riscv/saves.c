// SPDX-License-Identifier: GPL-2.0
/*
 * The vector saves in __schedule and kernel_vector_begin, found for the
 * spans (timing/spans.c). Where the compiler inlined __riscv_v_vstate_save(),
 * "before" sits on the last instruction ahead of the csrs that enables V and
 * "after" on the first one behind the csrc that disables it; where it made
 * the save a function of its own (kernels since 6.13 with XTheadVector
 * support), "before" sits on the call and "after" where the call returns.
 * The code between is straight, so "before" counts kernel-V saves (always)
 * and switch saves (verify=1). Being outside the V-enabled stretch, neither
 * trap makes the kernel save preempt-V state of its own.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "core/accounting.h"
#include "attach/hook.h"
#include "timing/latency.h"
#include "attach/ksym.h"
#include "arch/riscv/insn.h"
#include "arch/riscv/saves.h"
#include "timing/spans.h"

#define RVV_MAX_SITES		6
/* The save as a function: one local copy in each object that calls it. */
#define RVV_SAVE_FUNCTION	"__riscv_v_vstate_save"

/* A function whose inlined saves are sites. */
struct rvv_host {
	const char *symbol;
	const char *label;	/* its counting source, for the summary */
	/* What its saves are timed as, one each; the first @expected count. */
	const enum rvvstat_latency *kinds;
	/* Which of them a save is, or -1; without it, in code order. */
	int (*kind_of)(const struct rvv_span *span);
	int expected;		/* saves in this kernel config */
	bool counting;		/* "before" counts, so stays armed */
	int nr_sites;		/* its saves that have sites, 0 if it failed */
	bool counting_armed;
	struct rvv_hook hook;	/* how it counts, or why not */
};

static const enum rvvstat_latency rvv_switch_kinds[] = {
	RVVSTAT_LAT_SAVE_USER, RVVSTAT_LAT_SAVE_KERNEL,
};

static const enum rvvstat_latency rvv_kernel_v_kinds[] = {
	RVVSTAT_LAT_SAVE_KERNEL_V, RVVSTAT_LAT_SAVE_KERNEL_V,
	RVVSTAT_LAT_SAVE_KERNEL_V,
};

static struct rvv_host rvv_kernel_v_host = {
	.symbol = "kernel_vector_begin", .label = "kernel-V saves",
	.kinds = rvv_kernel_v_kinds, .counting = true,
};

/*
 * A save in __schedule stores the state whose datap it loads its buffer
 * pointer from: what the code says, whatever order the blocks come in.
 */
static int rvv_switch_save_kind(const struct rvv_span *span)
{
	if (!span->base_loaded)
		return -1;
	if (span->base_offset == offsetof(struct task_struct, thread.vstate.datap))
		return RVVSTAT_LAT_SAVE_USER;
	if (span->base_offset ==
	    offsetof(struct task_struct, thread.kernel_vstate.datap))
		return RVVSTAT_LAT_SAVE_KERNEL;
	return -1;
}

static struct rvv_host rvv_switch_host = {
	.symbol = "__schedule", .label = "verification",
	.kinds = rvv_switch_kinds, .kind_of = rvv_switch_save_kind,
};

static int rvv_nr_sites;

static void rvv_count_kernel_v_save(void)
{
	/* In the context of the task whose state is saved. */
	rvv_account_kernel_v_save(current);
}

static void rvv_count_switch_save(void)
{
	rvv_account_cpu_event(RVVSTAT_CPU_VERIFY_SWITCH_SAVES);
}

static void rvv_set_method(enum rvvstat_latency kind, const struct rvv_hook *hook)
{
	rvv_latency_method(kind)->hook = *hook;
}

/*
 * What each of the host's saves is timed as, every kind of the host once;
 * NULL, or why not.
 */
static const char *rvv_host_kinds(const struct rvv_host *host,
				  const struct rvv_span *spans, int found,
				  int *kinds)
{
	unsigned long used = 0;
	int i, k;

	for (i = 0; i < found; i++) {
		kinds[i] = host->kind_of ? host->kind_of(&spans[i]) : host->kinds[i];
		if (kinds[i] < 0 && spans[i].base_loaded)
			pr_warn("the save at %s+%#x loads its buffer from prev+%d, no datap there\n",
				host->symbol, spans[i].before, spans[i].base_offset);
		if (kinds[i] < 0)
			return "a save of unknown state";
		for (k = 0; k < host->expected; k++)
			if (!(used & BIT(k)) && host->kinds[k] == kinds[i])
				break;
		if (k == host->expected)
			return "not one save of each state";
		used |= BIT(k);
	}
	return NULL;
}

/* Whether @addr starts a copy of the out-of-line save. */
static bool rvv_is_save_function(unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];

	sprint_symbol(buf, addr);
	return str_has_prefix(buf, RVV_SAVE_FUNCTION "+0x0/");
}

/*
 * The spans of the saves in the code at @start: the inlined ones, then the
 * calls to the out-of-line save, of which there are *@calls. Returns how
 * many saves there are (at most RVV_MAX_SITES spans are written), or
 * -ENOENT if one of them has no probe-safe span.
 */
static int rvv_host_spans(unsigned long start, unsigned long size,
			  struct rvv_span *spans, int *calls)
{
	const u16 *code = (const u16 *)start;
	struct rvv_call call;
	u32 pos = 0;
	int found;

	*calls = 0;
	found = rvv_find_save_spans(code, size, spans, RVV_MAX_SITES);
	if (found < 0)
		return found;
	while (rvv_next_call(code, size, &pos, &call)) {
		if (!rvv_is_save_function(start + call.target))
			continue;
		if (found < RVV_MAX_SITES &&
		    rvv_call_span(code, size, &call, &spans[found]))
			return -ENOENT;
		found++;
		(*calls)++;
	}
	return found;
}

/* Adds a site for each save in the host if there are exactly as expected. */
static void rvv_host_scan(struct rvv_host *host, void (*count)(void))
{
	struct rvv_span spans[RVV_MAX_SITES];
	int kinds[RVV_MAX_SITES];
	unsigned long start, size;
	const char *why = NULL;
	int found = 0, calls = 0, i;

	if (rvv_function_extent(host->symbol, &start, &size))
		why = "no such function";
	else
		found = rvv_host_spans(start, size, spans, &calls);
	if (!why && found < 0)
		why = "a save without a probe-safe span";
	else if (!why && found != host->expected)
		why = "not the save count of this kernel config";
	else if (!why && rvv_nr_sites + found > RVV_MAX_SITES)
		why = "too many saves";
	else if (!why)
		why = rvv_host_kinds(host, spans, found, kinds);
	if (why) {
		rvv_hook_failed(&host->hook, why, 0);
		host->hook.symbol = host->symbol;
		host->hook.found = found;
		host->hook.expected = host->expected;
		pr_warn("no save probes: %s in %s (%d saves, expected %d)\n",
			why, host->symbol, found, host->expected);
		for (i = 0; i < host->expected; i++)
			rvv_set_method(host->kinds[i], &host->hook);
		return;
	}
	for (i = 0; i < found; i++) {
		struct rvv_hook span = {
			.state = RVV_HOOK_ON, .via = RVV_VIA_KPROBE_SPAN,
			.symbol = host->symbol, .offset = spans[i].before,
			.end = spans[i].after,
			/* Shows what told the kind, in the summary. */
			.datap = host->kind_of ? spans[i].base_offset : -1,
		};

		rvv_spans_add(start + spans[i].before, start + spans[i].after,
			      kinds[i], host->counting ? count : NULL, true);
		rvv_set_method(kinds[i], &span);
	}
	rvv_nr_sites += found;
	host->nr_sites = found;
	host->hook = (struct rvv_hook){
		.state = RVV_HOOK_ON, .via = RVV_VIA_SAVE_SITES,
		.symbol = host->symbol, .found = found, .calls = calls,
		.callee = RVV_SAVE_FUNCTION,
	};
}

int rvv_saves_init(bool verify, unsigned int sample_every)
{
	bool preemptive_v = IS_ENABLED(CONFIG_RISCV_ISA_V_PREEMPTIVE);
	struct rvv_hook hook;
	int kind;

	/* Preemptible kernel-mode V adds a nested and a preempt-V save site. */
	rvv_kernel_v_host.expected = preemptive_v ? 3 : 1;
	rvv_switch_host.expected = preemptive_v ? 2 : 1;
	rvv_switch_host.counting = verify;
	rvv_hook_off(&hook, "probe_sample");
	if (!sample_every)
		for (kind = RVVSTAT_LAT_SAVE_USER; kind <= RVVSTAT_LAT_PROBE_BIAS; kind++)
			rvv_set_method(kind, &hook);
	rvv_host_scan(&rvv_kernel_v_host, rvv_count_kernel_v_save);
	if (verify || sample_every)
		rvv_host_scan(&rvv_switch_host, rvv_count_switch_save);
	/* Verification would count nothing and look like no saves. */
	if (verify && !rvv_switch_host.nr_sites) {
		pr_err("verify=1: no probe-safe saves in %s on this kernel (see the line above); load without verify\n",
		       rvv_switch_host.symbol);
		return -EOPNOTSUPP;
	}
	if (!verify)
		rvv_hook_off(&rvv_switch_host.hook, "verify");
	rvv_hook_none(&hook, "this kernel has no preemptible kernel-mode V");
	if (!preemptive_v)
		rvv_set_method(RVVSTAT_LAT_SAVE_KERNEL, &hook);
	if (sample_every) {
		rvv_spans_set_stretch(rvv_empty_stretch,
				      (unsigned long)rvv_empty_stretch,
				      (unsigned long)rvv_empty_stretch_end);
		hook = (struct rvv_hook){ .state = RVV_HOOK_ON, .via = RVV_VIA_NOP_SPAN };
		rvv_set_method(RVVSTAT_LAT_PROBE_BIAS, &hook);
	}
	rvv_spans_init(sample_every);
	return 0;
}

void rvv_saves_start(void)
{
	struct rvv_hook failed;
	int kind, err = rvv_spans_start();

	if (err) {
		rvv_hook_failed(&failed, "register_kprobes failed", err);
		for (kind = RVVSTAT_LAT_SAVE_USER; kind <= RVVSTAT_LAT_PROBE_BIAS; kind++)
			rvv_set_method(kind, &failed);
		rvv_kernel_v_host.hook = failed;
		rvv_switch_host.hook = failed;
		return;
	}
	/* Only a host with sites counts: else its saves are predicted. */
	rvv_kernel_v_host.counting_armed = rvv_kernel_v_host.counting &&
					   rvv_kernel_v_host.nr_sites &&
					   rvv_spans_counting();
	rvv_switch_host.counting_armed = rvv_switch_host.counting &&
					 rvv_switch_host.nr_sites &&
					 rvv_spans_counting();
}

/* After rvv_windows_stop(), which disarmed every site. */
void rvv_saves_stop(void)
{
	rvv_spans_stop();
	rvv_kernel_v_host.counting_armed = false;
	rvv_switch_host.counting_armed = false;
}

bool rvv_saves_kernel_v_counted(void)
{
	return READ_ONCE(rvv_kernel_v_host.counting_armed);
}

bool rvv_saves_switch_counted(void)
{
	return rvv_switch_host.counting_armed;
}

int rvv_saves_sources(struct rvv_arch_source *out)
{
	out[0] = (struct rvv_arch_source){
		rvv_kernel_v_host.label, &rvv_kernel_v_host.hook,
		rvv_kernel_v_host.counting_armed ? NULL :
		"predicted at kernel_vector_begin entry instead",
	};
	out[1] = (struct rvv_arch_source){
		rvv_switch_host.label, &rvv_switch_host.hook,
	};
	return 2;
}
