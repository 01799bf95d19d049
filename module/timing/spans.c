// SPDX-License-Identifier: GPL-2.0
/*
 * Spans timed between two instruction kprobes. The backends find them: the
 * vector saves in __schedule and kernel_vector_begin on riscv, the calls
 * that save and reload the FPU registers on x86. No jump lands between
 * "before" and "after", so "before" fires exactly once per span and can
 * count it (kernel-V saves, switch saves with verify=1).
 *
 * A kprobe trap costs far more than a save, so the pair's own cost, timed
 * on an empty stretch, is subtracted; and as arming a kprobe patches the
 * code for every CPU, the probes that only time are armed only in sampling
 * windows (windows.c), for about 1 in sample_every saves: those of spans
 * whose saves moved since the last window. None of them sits on ftrace,
 * whose every update walks all traceable functions, and each is kept a
 * breakpoint (rvv_kprobe_keep_trap()).
 */
#include <linux/kernel_stat.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>

#include "core/accounting.h"
#include "attach/ksym.h"
#include "timing/latency.h"
#include "timing/spans.h"
#include "timing/windows.h"

#define RVV_MAX_SPANS		8
#define RVV_MAX_PROBES		(2 * RVV_MAX_SPANS + 2)
/* Saves a window times per CPU: its patches spread over many. */
#define RVV_SPANS_WINDOW_SAMPLES	2048

struct rvv_span_site {
	struct kprobe before;
	struct kprobe after;
	enum rvvstat_latency kind;
	void (*count)(void);	/* what "before" counts, if anything */
	bool sample;		/* a save: takes its window's samples */
	bool biased;		/* not the empty stretch: subtract the bias */
	u64 last_saves;		/* its kind's saves when a window last opened */
	bool timing_armed;	/* its timing probes are armed */
};

/* The span whose "before" fired last on this CPU, and when. */
struct rvv_span_start {
	const struct rvv_span_site *site;
	u64 t0;
	unsigned long irqs;	/* interrupts this CPU had taken by then */
};

static struct rvv_span_site rvv_spans[RVV_MAX_SPANS];
static int rvv_nr_spans;
static struct rvv_span_site rvv_stretch = { .kind = RVVSTAT_LAT_PROBE_BIAS };
static void (*rvv_stretch_run)(void);
static struct kprobe *rvv_probes[RVV_MAX_PROBES];
static int rvv_nr_probes;
static bool rvv_registered;
static unsigned int rvv_sample_every;
static u64 rvv_bias_ns;

static DEFINE_PER_CPU(struct rvv_span_start, rvv_span_start);
static struct rvv_window_source rvv_spans_source;

static int rvv_on_before(struct kprobe *kp, struct pt_regs *regs)
{
	struct rvv_span_start *s = this_cpu_ptr(&rvv_span_start);
	struct rvv_span_site *site = container_of(kp, struct rvv_span_site, before);

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
	struct rvv_span_start *s = this_cpu_ptr(&rvv_span_start);
	const struct rvv_span_site *site = container_of(kp, struct rvv_span_site, after);
	u64 ns, bias;

	/* Armed between the two probes, or nested in an interrupt. */
	if (s->site != site || !s->t0)
		return 0;
	ns = now - s->t0;
	s->t0 = 0;
	/* Some spans run with IRQs on: drop interrupted ones. */
	if (__this_cpu_read(kstat.irqs_sum) != s->irqs)
		return 0;
	/* The empty stretch is timed on calibration, outside the windows. */
	if (site->sample && !rvv_window_take(&rvv_spans_source))
		return 0;
	bias = site->biased ? READ_ONCE(rvv_bias_ns) : 0;
	rvv_latency_record(site->kind, ns > bias ? ns - bias : 0);
	return 0;
}

static void rvv_site_set(struct rvv_span_site *site, unsigned long before,
			 unsigned long after, enum rvvstat_latency kind)
{
	site->before.addr = (kprobe_opcode_t *)before;
	site->before.pre_handler = rvv_on_before;
	site->before.post_handler = rvv_kprobe_keep_trap;
	site->after.addr = (kprobe_opcode_t *)after;
	site->after.pre_handler = rvv_on_after;
	site->after.post_handler = rvv_kprobe_keep_trap;
	site->kind = kind;
}

int rvv_spans_add(unsigned long before, unsigned long after,
		  enum rvvstat_latency kind, void (*count)(void), bool sample)
{
	struct rvv_span_site *site;

	if (rvv_nr_spans == RVV_MAX_SPANS)
		return -ENOSPC;
	site = &rvv_spans[rvv_nr_spans++];
	rvv_site_set(site, before, after, kind);
	site->count = count;
	site->sample = sample;
	site->biased = true;
	return 0;
}

void rvv_spans_set_stretch(void (*run)(void), unsigned long before,
			   unsigned long after)
{
	rvv_site_set(&rvv_stretch, before, after, RVVSTAT_LAT_PROBE_BIAS);
	rvv_stretch_run = run;
}

void rvv_spans_init(unsigned int sample_every)
{
	rvv_sample_every = sample_every;
	/* Now, so that the switch probe chosen next looks at the windows. */
	if (!sample_every || !rvv_nr_spans)
		return;
	rvv_spans_source.throughout = sample_every == 1;
	rvv_spans_source.duty = sample_every;
	if (rvv_windows_add(&rvv_spans_source))
		pr_warn("no room for the save probes' sampling windows\n");
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

	for (i = 0; i < rvv_nr_spans; i++) {
		struct rvv_latency_method *m = rvv_latency_method(rvv_spans[i].kind);

		m->sample_every = rvv_sample_every;
		m->ops_per_sample = 1;
	}
	rvv_latency_method(RVVSTAT_LAT_PROBE_BIAS)->sample_every = 1;
	rvv_latency_method(RVVSTAT_LAT_PROBE_BIAS)->ops_per_sample = 1;
}

int rvv_spans_start(void)
{
	bool timed = rvv_sample_every && rvv_stretch_run;
	int i, err;

	for (i = 0; i < rvv_nr_spans; i++) {
		struct rvv_span_site *site = &rvv_spans[i];

		if (site->count || timed)
			rvv_add_probe(&site->before, site->count);
		if (timed)
			rvv_add_probe(&site->after, false);
	}
	if (timed) {
		/* The stretch is only run by calibration: always armed. */
		rvv_add_probe(&rvv_stretch.before, true);
		rvv_add_probe(&rvv_stretch.after, true);
	}
	if (!rvv_nr_probes)
		return 0;
	err = register_kprobes(rvv_probes, rvv_nr_probes);
	if (err) {
		rvv_nr_probes = 0;
		return err;
	}
	rvv_registered = true;
	if (timed)
		rvv_describe_sampling();
	return 0;
}

/* The probes of a span that only time: "after", and "before" unless it counts. */
static unsigned int rvv_site_arm(struct rvv_span_site *site, bool arm)
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

static void rvv_spans_counts(u64 *timed, u64 *events)
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
 * A window opens: the saves whose count moved since the last one, and with
 * any of them every reload; every span when armed throughout. Reloads alone
 * would hold a window no save fills. None until the probes are registered.
 */
static unsigned int rvv_spans_window_begin(struct rvv_window_source *src)
{
	struct rvv_totals t;
	unsigned int armed = 0;
	int i;

	if (!rvv_registered)
		return 0;
	rvv_snapshot_totals(&t);
	for (i = 0; i < rvv_nr_spans; i++) {
		struct rvv_span_site *site = &rvv_spans[i];
		u64 saves = rvv_saves_of(&t, site->kind);
		bool moved = saves != site->last_saves;

		site->last_saves = saves;
		if (site->sample && (src->throughout || moved))
			armed += rvv_site_arm(site, true);
	}
	for (i = 0; armed && i < rvv_nr_spans; i++)
		if (!rvv_spans[i].sample)
			armed += rvv_site_arm(&rvv_spans[i], true);
	return armed;
}

static void rvv_spans_window_end(struct rvv_window_source *src)
{
	int i;

	for (i = 0; i < rvv_nr_spans; i++)
		if (rvv_spans[i].timing_armed)
			rvv_site_arm(&rvv_spans[i], false);
}

static struct rvv_window_source rvv_spans_source = {
	.name = "saves",
	.open = rvv_spans_window_begin,
	.close = rvv_spans_window_end,
	.counts = rvv_spans_counts,
	.samples = RVV_SPANS_WINDOW_SAMPLES,
};

bool rvv_spans_counting(void)
{
	return READ_ONCE(rvv_registered);
}

bool rvv_spans_timing(void)
{
	return rvv_registered && rvv_sample_every && rvv_nr_spans;
}

void rvv_spans_stop(void)
{
	if (rvv_registered)
		unregister_kprobes(rvv_probes, rvv_nr_probes);
	WRITE_ONCE(rvv_registered, false);
}

unsigned long rvv_spans_missed(void)
{
	unsigned long missed = 0;
	int i;

	for (i = 0; rvv_registered && i < rvv_nr_probes; i++)
		missed += rvv_probes[i]->nmissed;
	return missed;
}

void rvv_spans_time_stretch(unsigned int times)
{
	unsigned long flags;
	unsigned int i;

	if (!rvv_registered || !rvv_sample_every || !rvv_stretch_run)
		return;
	for (i = 0; i < times; i++) {
		/* An interrupt between the probes would be timed too. */
		local_irq_save(flags);
		rvv_stretch_run();
		local_irq_restore(flags);
	}
}

void rvv_spans_update_bias(void)
{
	u64 bias;
	int i;

	if (rvv_latency_probe_bias(&bias))
		return;
	WRITE_ONCE(rvv_bias_ns, bias);
	for (i = 0; i < rvv_nr_spans; i++)
		rvv_latency_method(rvv_spans[i].kind)->bias_ns = bias;
}
