// SPDX-License-Identifier: GPL-2.0
/*
 * The vector saves in __schedule and kernel_vector_begin, each between two
 * instruction kprobes. Where the compiler inlined __riscv_v_vstate_save(),
 * "before" sits on the last instruction ahead of the csrs that enables V and
 * "after" on the first one behind the csrc that disables it; where it made
 * the save a function of its own (kernels since 6.13 with XTheadVector
 * support), "before" sits on the call and "after" where the call returns.
 * The code between is straight and no jump lands inside, so "before" fires
 * exactly once per save: it counts kernel-V saves (always) and switch saves
 * (verify=1). Being outside the V-enabled stretch, neither trap makes the
 * kernel save preempt-V state of its own.
 *
 * The pair also times the save. A kprobe trap costs far more than the save,
 * so the pair's own cost, timed on an empty stretch, is subtracted; and as
 * arming a kprobe patches the code for every CPU, the timing probes are
 * armed only in sampling windows (windows.c), for about 1 in sample_every
 * saves: those of sites whose saves moved since the last window.
 */
#include <linux/kallsyms.h>
#include <linux/kernel_stat.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core/accounting.h"
#include "attach/hook.h"
#include "timing/latency.h"
#include "attach/ksym.h"
#include "arch/riscv/insn.h"
#include "arch/riscv/saves.h"
#include "timing/windows.h"

#define RVV_MAX_SITES		6
#define RVV_MAX_PROBES		(2 * RVV_MAX_SITES + 2)
/* Saves a window times per CPU: its four patches a site spread over many. */
#define RVV_SAVES_WINDOW_SAMPLES	2048
/* The save as a function: one local copy in each object that calls it. */
#define RVV_SAVE_FUNCTION	"__riscv_v_vstate_save"

struct rvv_site {
	struct kprobe before;
	struct kprobe after;
	enum rvvstat_latency kind;
	void (*count)(void);	/* what "before" counts, if anything */
	bool is_save;		/* not the empty stretch: subtract the bias */
	u64 last_saves;		/* its kind's saves when a window last opened */
	bool timing_armed;	/* its timing probes are armed */
};

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

/* The site whose "before" fired last on this CPU, and when. */
struct rvv_site_start {
	const struct rvv_site *site;
	u64 t0;
	unsigned long irqs;	/* interrupts this CPU had taken by then */
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

static struct rvv_site rvv_sites[RVV_MAX_SITES];
static int rvv_nr_sites;
static struct rvv_site rvv_stretch = { .kind = RVVSTAT_LAT_PROBE_BIAS };
static struct kprobe *rvv_probes[RVV_MAX_PROBES];
static int rvv_nr_probes;
static bool rvv_registered;
static unsigned int rvv_sample_every;
static u64 rvv_bias_ns;

static DEFINE_PER_CPU(struct rvv_site_start, rvv_site_start);
static struct rvv_window_source rvv_saves_source;

static void rvv_count_kernel_v_save(void)
{
	/* In the context of the task whose state is saved. */
	rvv_account_kernel_v_save(current);
}

static void rvv_count_switch_save(void)
{
	rvv_account_cpu_event(RVVSTAT_CPU_VERIFY_SWITCH_SAVES);
}

static int rvv_on_before(struct kprobe *kp, struct pt_regs *regs)
{
	struct rvv_site_start *s = this_cpu_ptr(&rvv_site_start);
	struct rvv_site *site = container_of(kp, struct rvv_site, before);

	if (site->count)
		site->count();
	s->site = site;
	s->irqs = __this_cpu_read(kstat.irqs_sum);
	s->t0 = local_clock();	/* last, so counting is not timed */
	return 0;
}

static int rvv_on_after(struct kprobe *kp, struct pt_regs *regs)
{
	u64 now = local_clock();
	struct rvv_site_start *s = this_cpu_ptr(&rvv_site_start);
	const struct rvv_site *site = container_of(kp, struct rvv_site, after);
	u64 ns, bias;

	/* Armed between the two probes, or nested in an interrupt. */
	if (s->site != site || !s->t0)
		return 0;
	ns = now - s->t0;
	s->t0 = 0;
	/* kernel_vector_begin() saves with IRQs on: drop interrupted spans. */
	if (__this_cpu_read(kstat.irqs_sum) != s->irqs)
		return 0;
	/* The empty stretch is timed on calibration, outside the windows. */
	if (site->is_save && !rvv_window_take(&rvv_saves_source))
		return 0;
	bias = site->is_save ? READ_ONCE(rvv_bias_ns) : 0;
	rvv_latency_record(site->kind, ns > bias ? ns - bias : 0);
	return 0;
}

static void rvv_site_set(struct rvv_site *site, unsigned long before,
			 unsigned long after, enum rvvstat_latency kind)
{
	site->before.addr = (kprobe_opcode_t *)before;
	site->before.pre_handler = rvv_on_before;
	site->after.addr = (kprobe_opcode_t *)after;
	site->after.pre_handler = rvv_on_after;
	site->kind = kind;
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
		struct rvv_site *site = &rvv_sites[rvv_nr_sites++];
		struct rvv_hook span = {
			.state = RVV_HOOK_ON, .via = RVV_VIA_KPROBE_SPAN,
			.symbol = host->symbol, .offset = spans[i].before,
			.end = spans[i].after,
			/* Shows what told the kind, in the summary. */
			.datap = host->kind_of ? spans[i].base_offset : -1,
		};

		rvv_site_set(site, start + spans[i].before,
			     start + spans[i].after, kinds[i]);
		site->count = host->counting ? count : NULL;
		site->is_save = true;
		rvv_set_method(kinds[i], &span);
	}
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

	rvv_sample_every = sample_every;
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
	if (!sample_every)
		return 0;
	rvv_site_set(&rvv_stretch, (unsigned long)rvv_empty_stretch,
		     (unsigned long)rvv_empty_stretch_end, RVVSTAT_LAT_PROBE_BIAS);
	hook = (struct rvv_hook){ .state = RVV_HOOK_ON, .via = RVV_VIA_NOP_SPAN };
	rvv_set_method(RVVSTAT_LAT_PROBE_BIAS, &hook);
	/* Now, so that the switch probe chosen next looks at the windows. */
	if (rvv_nr_sites) {
		rvv_saves_source.throughout = sample_every == 1;
		rvv_saves_source.duty = sample_every;
		if (rvv_windows_add(&rvv_saves_source))
			pr_warn("no room for the save probes' sampling windows\n");
	}
	return 0;
}

/* Adds a probe to register; one that only times starts disarmed. */
static void rvv_add_probe(struct kprobe *kp, bool counts)
{
	rvv_probes[rvv_nr_probes++] = kp;
	if (!counts)
		kp->flags = KPROBE_FLAG_DISABLED;
}

static void rvv_describe_sampling(void)
{
	int i;

	for (i = 0; i < rvv_nr_sites; i++) {
		struct rvv_latency_method *m = rvv_latency_method(rvv_sites[i].kind);

		m->sample_every = rvv_sample_every;
		m->ops_per_sample = 1;
	}
	rvv_latency_method(RVVSTAT_LAT_PROBE_BIAS)->sample_every = 1;
	rvv_latency_method(RVVSTAT_LAT_PROBE_BIAS)->ops_per_sample = 1;
}

void rvv_saves_start(void)
{
	int i, err;

	for (i = 0; i < rvv_nr_sites; i++) {
		struct rvv_site *site = &rvv_sites[i];

		if (site->count || rvv_sample_every)
			rvv_add_probe(&site->before, site->count);
		if (rvv_sample_every)
			rvv_add_probe(&site->after, false);
	}
	if (rvv_sample_every) {
		/* The stretch is only run by calibration: always armed. */
		rvv_add_probe(&rvv_stretch.before, true);
		rvv_add_probe(&rvv_stretch.after, true);
	}
	if (!rvv_nr_probes)
		return;
	err = register_kprobes(rvv_probes, rvv_nr_probes);
	if (err) {
		struct rvv_hook failed;
		int kind;

		rvv_hook_failed(&failed, "register_kprobes failed", err);
		for (kind = RVVSTAT_LAT_SAVE_USER; kind <= RVVSTAT_LAT_PROBE_BIAS; kind++)
			rvv_set_method(kind, &failed);
		rvv_kernel_v_host.hook = failed;
		rvv_switch_host.hook = failed;
		return;
	}
	rvv_registered = true;
	/* Only a host with sites counts: else its saves are predicted. */
	rvv_kernel_v_host.counting_armed = rvv_kernel_v_host.counting &&
					   rvv_kernel_v_host.nr_sites;
	rvv_switch_host.counting_armed = rvv_switch_host.counting &&
					 rvv_switch_host.nr_sites;
	if (rvv_sample_every)
		rvv_describe_sampling();
}

/* The probes of a site that only time: "after", and "before" unless it counts. */
static unsigned int rvv_site_arm(struct rvv_site *site, bool arm)
{
	struct kprobe *kps[] = { &site->after, site->count ? NULL : &site->before };
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(kps); i++) {
		if (!kps[i] || (arm ? enable_kprobe(kps[i]) :
				      disable_kprobe(kps[i])))
			continue;
		n++;
	}
	site->timing_armed = arm && n;
	return n;
}

static u64 rvv_saves_of(const struct rvv_totals *t, enum rvvstat_latency kind)
{
	switch (kind) {
	case RVVSTAT_LAT_SAVE_USER:
		return t->all.c[RVVSTAT_SAVES_USER];
	case RVVSTAT_LAT_SAVE_KERNEL:
		return t->all.c[RVVSTAT_SAVES_KERNEL];
	default:
		return t->all.c[RVVSTAT_KERNEL_V_SAVES];
	}
}

static const enum rvvstat_latency rvv_save_kinds[] = {
	RVVSTAT_LAT_SAVE_USER, RVVSTAT_LAT_SAVE_KERNEL, RVVSTAT_LAT_SAVE_KERNEL_V,
};

static void rvv_saves_counts(u64 *timed, u64 *events)
{
	struct rvv_totals t;
	int i;

	*timed = rvv_latency_count_kinds(rvv_save_kinds,
					 ARRAY_SIZE(rvv_save_kinds));
	rvv_snapshot_totals(&t);
	*events = 0;
	for (i = 0; i < ARRAY_SIZE(rvv_save_kinds); i++)
		*events += rvv_saves_of(&t, rvv_save_kinds[i]);
}

/*
 * A window opens: the sites whose saves moved since the last one; every
 * site when armed throughout. None until the probes are registered.
 */
static unsigned int rvv_saves_window_begin(struct rvv_window_source *src)
{
	struct rvv_totals t;
	unsigned int armed = 0;
	int i;

	if (!rvv_registered)
		return 0;
	rvv_snapshot_totals(&t);
	for (i = 0; i < rvv_nr_sites; i++) {
		struct rvv_site *site = &rvv_sites[i];
		u64 saves = rvv_saves_of(&t, site->kind);
		bool moved = saves != site->last_saves;

		site->last_saves = saves;
		if (src->throughout || moved)
			armed += rvv_site_arm(site, true);
	}
	return armed;
}

static void rvv_saves_window_end(struct rvv_window_source *src)
{
	int i;

	for (i = 0; i < rvv_nr_sites; i++)
		if (rvv_sites[i].timing_armed)
			rvv_site_arm(&rvv_sites[i], false);
}

static struct rvv_window_source rvv_saves_source = {
	.name = "saves",
	.open = rvv_saves_window_begin,
	.close = rvv_saves_window_end,
	.counts = rvv_saves_counts,
	.samples = RVV_SAVES_WINDOW_SAMPLES,
};

bool rvv_saves_timing(void)
{
	return rvv_registered && rvv_sample_every && rvv_nr_sites;
}

/* After rvv_windows_stop(), which disarmed every site. */
void rvv_saves_stop(void)
{
	if (rvv_registered)
		unregister_kprobes(rvv_probes, rvv_nr_probes);
	rvv_registered = false;
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

unsigned long rvv_saves_missed(void)
{
	unsigned long missed = 0;
	int i;

	for (i = 0; rvv_registered && i < rvv_nr_probes; i++)
		missed += rvv_probes[i]->nmissed;
	return missed;
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

void rvv_saves_time_stretch(unsigned int times)
{
	unsigned long flags;
	unsigned int i;

	if (!rvv_registered || !rvv_sample_every)
		return;
	for (i = 0; i < times; i++) {
		/* An interrupt between the probes would be timed too. */
		local_irq_save(flags);
		rvv_empty_stretch();
		local_irq_restore(flags);
	}
}

void rvv_saves_update_bias(void)
{
	u64 bias;
	int i;

	if (rvv_latency_probe_bias(&bias))
		return;
	WRITE_ONCE(rvv_bias_ns, bias);
	for (i = 0; i < rvv_nr_sites; i++)
		rvv_latency_method(rvv_sites[i].kind)->bias_ns = bias;
}
