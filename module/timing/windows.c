// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling windows: one schedule for the event sources too dear to keep
 * armed. A kprobe traps on every event it sees, and arming or disarming one
 * patches kernel text (under stop_machine() on riscv), so neither can run
 * all the time at no cost.
 *
 * The schedule counts each source's own events, so that the share of
 * events timed, and what that costs per event, do not depend on the clock.
 * A source's first window opens at load. A window times up to the source's
 * samples on each CPU and closes once a CPU has them all or its events
 * reach that many per online CPU; on a system too quiet for that within
 * RVV_WINDOW_MAX_MS, then, so that it never holds the other source off for
 * long. The next window waits for N - 1 times the events the last one saw
 * (at least one), so that a source is armed for at most 1 in its N events,
 * however busy the system. A source with nothing to time sits its window
 * out, which patches nothing, and is asked again at the next look. No two
 * windows are open at once. Text patches are capped at RVV_PATCHES_PER_SEC,
 * a safety bound that only a system switching far faster than the samples
 * need reaches.
 *
 * The schedule is looked at when a CPU has made as many switches as could
 * make something due (the work sets each CPU's count to kick at as it
 * looks: what the nearest wait or window has left, shared among the online
 * CPUs), by the probe that takes a window's last sample, and every
 * RVV_LOOK_MS (saves without switches, a reset). A probe kicks the work
 * through an irq_work, as neither may wake a worker under the runqueue
 * lock. Every arm and disarm is counted, exactly.
 */
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include "core/accounting.h"
#include "timing/windows.h"

/*
 * The safety cap: text patches a second, whatever the events ask for, after
 * a burst of as many as the windows at load take.
 */
#define RVV_PATCHES_PER_SEC	64
#define RVV_PATCH_BURST		16
#define RVV_PATCH_BURST_JIFFIES	DIV_ROUND_UP(RVV_PATCH_BURST * HZ, RVV_PATCHES_PER_SEC)
#define RVV_WINDOW_MAX_MS	100
#define RVV_LOOK_MS		250
/* The fewest and most switches of a CPU between two kicks. */
#define RVV_KICK_MIN		64
#define RVV_KICK_MAX		BIT_ULL(32)

/* What this CPU took of a source's window. */
struct rvv_window_cpu {
	u64 window;		/* the source's window count it is of */
	unsigned int taken;	/* events timed in it */
};

static struct rvv_window_source *rvv_sources[RVV_MAX_WINDOW_SOURCES];
static int rvv_nr_sources;
static DEFINE_PER_CPU(struct rvv_window_cpu [RVV_MAX_WINDOW_SOURCES],
		      rvv_window_cpu);
static struct delayed_work rvv_window_work;
static struct workqueue_struct *rvv_window_wq;
static struct irq_work rvv_window_irq_work;
/* Kicks reach the work only while set; cleared first on stop. */
static bool rvv_windows_live;
/* jiffies: no window opens before (the patch-rate cap). */
static unsigned long rvv_patch_ok_at;

int rvv_windows_add(struct rvv_window_source *src)
{
	if (rvv_nr_sources == RVV_MAX_WINDOW_SOURCES)
		return -ENOSPC;
	src->index = rvv_nr_sources;
	rvv_sources[rvv_nr_sources++] = src;
	return 0;
}

bool rvv_windows_scheduled(void)
{
	int i;

	for (i = 0; i < rvv_nr_sources; i++)
		if (!rvv_sources[i]->throughout)
			return true;
	return false;
}

/* From any context: look at the schedule soon. */
static void rvv_windows_kick(void)
{
	if (READ_ONCE(rvv_windows_live))
		irq_work_queue(&rvv_window_irq_work);
}

/*
 * Kicks, and asks again after a few switches should the work not come
 * meanwhile (it sets every CPU's count as it looks).
 */
void rvv_windows_due(void)
{
	int cpu = smp_processor_id();

	rvv_cpu_set_sample_at(cpu, rvv_cpu_switches(cpu) + RVV_KICK_MIN);
	rvv_windows_kick();
}

/* Hard IRQ: the first context from which the worker may be woken. */
static void rvv_windows_kicked(struct irq_work *work)
{
	mod_delayed_work(rvv_window_wq, &rvv_window_work, 0);
}

bool rvv_window_take(struct rvv_window_source *src)
{
	struct rvv_window_cpu *c = this_cpu_ptr(&rvv_window_cpu[src->index]);
	u64 window = READ_ONCE(src->windows);

	if (src->throughout)
		return true;
	/*
	 * A window is counted just after it opens: the events between count
	 * against the one before, at worst a few left untimed.
	 */
	if (c->window != window) {
		c->window = window;
		c->taken = 0;
	}
	if (c->taken >= src->samples)
		return false;
	if (++c->taken == src->samples) {
		WRITE_ONCE(src->full, true);
		rvv_windows_kick();
	}
	return true;
}

/* Counts the source's events since it was last looked at. */
static void rvv_source_advance(struct rvv_window_source *src)
{
	u64 timed, events, delta;

	src->counts(&timed, &events);
	/* A reset zeroes the counters: count from 0. */
	delta = events >= src->seen ? events - src->seen : events;
	src->seen = events;
	if (src->armed)
		src->window_events += delta;
	else
		src->wait -= min(src->wait, delta);
}

static bool rvv_source_done(const struct rvv_window_source *src,
			    unsigned long now)
{
	if (READ_ONCE(src->full) || !time_before(now, src->close_at))
		return true;
	return src->window_events >= (u64)src->samples * num_online_cpus();
}

/* A token bucket: the budget unspent since builds up to the burst. */
static void rvv_patches_spent(unsigned int patches)
{
	unsigned long earliest = jiffies - RVV_PATCH_BURST_JIFFIES;

	if (time_before(rvv_patch_ok_at, earliest))
		rvv_patch_ok_at = earliest;
	rvv_patch_ok_at += DIV_ROUND_UP(patches * HZ, RVV_PATCHES_PER_SEC);
}

static void rvv_source_open(struct rvv_window_source *src)
{
	unsigned int armed;

	WRITE_ONCE(src->full, false);
	armed = src->open(src);
	WRITE_ONCE(src->armed, armed);
	if (!armed)
		return;
	src->window_events = 0;
	/* From now: arming may have waited long for stop_machine(). */
	src->close_at = jiffies + msecs_to_jiffies(RVV_WINDOW_MAX_MS);
	WRITE_ONCE(src->windows, src->windows + 1);
	WRITE_ONCE(src->patches, src->patches + armed);
	rvv_patches_spent(armed);
}

static void rvv_source_close(struct rvv_window_source *src)
{
	if (!src->armed)
		return;
	src->close(src);
	WRITE_ONCE(src->patches, src->patches + src->armed);
	rvv_patches_spent(src->armed);
	WRITE_ONCE(src->armed, 0);
	/* One that saw none still waits: no patching while events stand still. */
	src->wait = (u64)(src->duty - 1) * max_t(u64, src->window_events, 1);
}

/*
 * Closes the window that is done, then opens the first source whose wait
 * is over if no window is open: a source's traps inside another's timed
 * spans would inflate them (the save probes sit inside every timed switch).
 * Returns the jiffies until it should look again.
 */
static unsigned long rvv_windows_tick(void)
{
	unsigned long now = jiffies, next = msecs_to_jiffies(RVV_LOOK_MS);
	struct rvv_window_source *busy = NULL;
	int i;

	for (i = 0; i < rvv_nr_sources; i++) {
		struct rvv_window_source *src = rvv_sources[i];

		if (src->throughout)
			continue;
		rvv_source_advance(src);
		if (src->armed && rvv_source_done(src, now))
			rvv_source_close(src);
		if (src->armed)
			busy = src;
	}
	for (i = 0; i < rvv_nr_sources && !busy; i++) {
		struct rvv_window_source *src = rvv_sources[i];

		if (src->throughout || src->wait)
			continue;
		now = jiffies;
		if (time_before(now, rvv_patch_ok_at))
			return min(next, rvv_patch_ok_at - now);
		rvv_source_open(src);
		if (src->armed)
			busy = src;
	}
	now = jiffies;
	if (busy && time_before(now, busy->close_at))
		next = min(next, busy->close_at - now);
	return next;
}

/*
 * The switches a CPU may make before something could be due: none while
 * the switch source is armed (the switch probe times each switch it calls
 * out for), the open window's samples, else what the nearest wait has left,
 * as if every online CPU switched alike. A source whose wait is over waits
 * on the patch cap or sat its window out: the work's timer serves both.
 */
static u64 rvv_windows_step(void)
{
	u64 step = U64_MAX;
	int i;

	/* Before any other source's window: a throughout one is open too. */
	for (i = 0; i < rvv_nr_sources; i++)
		if (rvv_sources[i]->on_switch && rvv_sources[i]->armed)
			return 0;
	for (i = 0; i < rvv_nr_sources; i++) {
		const struct rvv_window_source *src = rvv_sources[i];

		if (src->throughout)
			continue;
		if (src->armed)
			return src->samples;
		if (src->wait)
			step = min(step, src->wait / num_online_cpus());
	}
	return clamp_t(u64, step, RVV_KICK_MIN, RVV_KICK_MAX);
}

/*
 * Each CPU's count to kick at: @step switches from its count now, or every
 * switch (0). Offline CPUs too, for the ones that come up.
 */
static void rvv_windows_set_kicks(u64 step)
{
	int cpu;

	for_each_possible_cpu(cpu)
		rvv_cpu_set_sample_at(cpu, step ? rvv_cpu_switches(cpu) + step : 0);
}

/* Also kicked by events: mod_delayed_work() pulls the next look forward. */
static void rvv_window_work_fn(struct work_struct *work)
{
	unsigned long next = rvv_windows_tick();

	rvv_windows_set_kicks(rvv_windows_step());
	queue_delayed_work(rvv_window_wq, &rvv_window_work, next);
}

int rvv_windows_start(void)
{
	int i;

	for (i = 0; i < rvv_nr_sources; i++)
		if (rvv_sources[i]->throughout)
			rvv_source_open(rvv_sources[i]);
	/* A switch source armed throughout: every switch asks. */
	rvv_windows_set_kicks(rvv_windows_step());
	if (!rvv_windows_scheduled())
		return 0;
	/*
	 * Unbound and high priority: neither a busy CPU nor a crowd of
	 * runnable threads may keep a full window armed long.
	 */
	rvv_window_wq = alloc_workqueue("rvvstat_windows",
					WQ_UNBOUND | WQ_HIGHPRI, 1);
	if (!rvv_window_wq)
		return -ENOMEM;
	INIT_DELAYED_WORK(&rvv_window_work, rvv_window_work_fn);
	init_irq_work(&rvv_window_irq_work, rvv_windows_kicked);
	rvv_patch_ok_at = jiffies - RVV_PATCH_BURST_JIFFIES;
	WRITE_ONCE(rvv_windows_live, true);
	/* The first windows at once: samples from the first events. */
	queue_delayed_work(rvv_window_wq, &rvv_window_work, 0);
	return 0;
}

/* Nothing re-arms a source once the work is cancelled. */
void rvv_windows_stop(void)
{
	int i;

	if (rvv_window_wq) {
		WRITE_ONCE(rvv_windows_live, false);
		/* Every probe that saw it set has returned, and its kick run. */
		synchronize_rcu();
		irq_work_sync(&rvv_window_irq_work);
		cancel_delayed_work_sync(&rvv_window_work);
		destroy_workqueue(rvv_window_wq);
		rvv_window_wq = NULL;
	}
	for (i = 0; i < rvv_nr_sources; i++)
		rvv_source_close(rvv_sources[i]);
	rvv_nr_sources = 0;
}

int rvv_windows_read(struct rvv_window_counts out[RVV_MAX_WINDOW_SOURCES])
{
	int i;

	for (i = 0; i < rvv_nr_sources; i++) {
		const struct rvv_window_source *src = rvv_sources[i];
		struct rvv_window_counts *c = &out[i];

		c->name = src->name;
		c->throughout = src->throughout;
		c->windows = READ_ONCE(src->windows);
		c->patches = READ_ONCE(src->patches);
		c->armed = READ_ONCE(src->armed);
		src->counts(&c->timed, &c->events);
	}
	return rvv_nr_sources;
}
