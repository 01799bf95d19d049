// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling windows: one schedule for the event sources too dear to keep
 * armed. A kprobe traps on every event it sees, and arming or disarming one
 * patches kernel text (under stop_machine() on riscv), so neither can run
 * all the time at no cost. A window opens about once a second, with a
 * quarter's jitter either way so that it does not beat with a periodic
 * load, and stays open RVV_WINDOW_MS, or longer for a source that asks;
 * each source arms itself in it or sits it out. The period stretches so
 * that no source is armed more than 1 in its duty of the time. Every arm
 * and disarm is counted, exactly.
 */
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/random.h>
#include <linux/workqueue.h>

#include "windows.h"

#define RVV_WINDOW_MS		20
#define RVV_MAX_WINDOW_SOURCES	4

static struct rvv_window_source *rvv_sources[RVV_MAX_WINDOW_SOURCES];
static int rvv_nr_sources;
static struct delayed_work rvv_window_work;
static bool rvv_windows_running;
static unsigned long rvv_next_open;	/* jiffies */

int rvv_windows_add(struct rvv_window_source *src)
{
	if (rvv_nr_sources == RVV_MAX_WINDOW_SOURCES)
		return -ENOSPC;
	rvv_sources[rvv_nr_sources++] = src;
	return 0;
}

static void rvv_source_open(struct rvv_window_source *src)
{
	unsigned int armed = src->open(src);

	WRITE_ONCE(src->armed, armed);
	if (!armed)
		return;
	WRITE_ONCE(src->windows, src->windows + 1);
	WRITE_ONCE(src->patches, src->patches + armed);
	/* From now: arming may have waited long for stop_machine(). */
	src->opened = jiffies;
	src->close_at = src->opened +
			msecs_to_jiffies(max(RVV_WINDOW_MS, src->window_ms));
}

static void rvv_source_close(struct rvv_window_source *src)
{
	if (!src->armed)
		return;
	src->close(src);
	WRITE_ONCE(src->patches, src->patches + src->armed);
	WRITE_ONCE(src->armed, 0);
}

static void rvv_windows_open(void)
{
	int i;

	rvv_next_open = jiffies + msecs_to_jiffies(RVV_WINDOW_PERIOD_MS * 3 / 4) +
			get_random_u32_below(msecs_to_jiffies(RVV_WINDOW_PERIOD_MS / 2) + 1);
	for (i = 0; i < rvv_nr_sources; i++)
		if (!rvv_sources[i]->throughout)
			rvv_source_open(rvv_sources[i]);
}

/* Keeps the next window far enough away for a source just closed. */
static void rvv_windows_keep_duty(const struct rvv_window_source *src,
				  unsigned long now)
{
	unsigned long earliest = src->opened + (now - src->opened) * src->duty;

	if (src->duty && time_before(rvv_next_open, earliest))
		rvv_next_open = earliest;
}

/*
 * Closes the sources whose time is up, and opens the next window when its
 * time has come. Pushing the next window back so that each source is armed
 * at most 1 in its duty of the time also covers a busy system running this
 * work late. Returns the jiffies to the next event.
 */
static unsigned long rvv_windows_tick(void)
{
	unsigned long now = jiffies, next;
	int i;

	for (i = 0; i < rvv_nr_sources; i++) {
		struct rvv_window_source *src = rvv_sources[i];

		if (src->throughout || !src->armed ||
		    time_before(now, src->close_at))
			continue;
		rvv_source_close(src);
		rvv_windows_keep_duty(src, now);
	}
	if (!time_before(now, rvv_next_open))
		rvv_windows_open();
	next = rvv_next_open;
	for (i = 0; i < rvv_nr_sources; i++)
		if (!rvv_sources[i]->throughout && rvv_sources[i]->armed &&
		    time_before(rvv_sources[i]->close_at, next))
			next = rvv_sources[i]->close_at;
	return max(1UL, next - now);
}

static void rvv_window_work_fn(struct work_struct *work)
{
	queue_delayed_work(system_unbound_wq, &rvv_window_work,
			   rvv_windows_tick());
}

void rvv_windows_start(void)
{
	bool windowed = false;
	int i;

	for (i = 0; i < rvv_nr_sources; i++) {
		if (rvv_sources[i]->throughout)
			rvv_source_open(rvv_sources[i]);
		else
			windowed = true;
	}
	if (!windowed)
		return;
	/* The first window at once: samples from the first second. */
	INIT_DELAYED_WORK(&rvv_window_work, rvv_window_work_fn);
	rvv_windows_running = true;
	rvv_next_open = jiffies;
	/* Unbound: a busy CPU must not keep a window open late. */
	queue_delayed_work(system_unbound_wq, &rvv_window_work, 0);
}

/* Nothing re-arms a source once the work is cancelled. */
void rvv_windows_stop(void)
{
	int i;

	if (rvv_windows_running)
		cancel_delayed_work_sync(&rvv_window_work);
	rvv_windows_running = false;
	for (i = 0; i < rvv_nr_sources; i++)
		rvv_source_close(rvv_sources[i]);
	rvv_nr_sources = 0;
}

void rvv_windows_show(struct seq_file *m)
{
	u64 timed, events;
	int i;

	seq_puts(m, "source windows patches armed timed events\n");
	for (i = 0; i < rvv_nr_sources; i++) {
		const struct rvv_window_source *src = rvv_sources[i];

		src->counts(&timed, &events);
		seq_printf(m, "%s %llu %llu %u %llu %llu\n", src->name,
			   READ_ONCE(src->windows), READ_ONCE(src->patches),
			   READ_ONCE(src->armed), timed, events);
	}
}

void rvv_windows_describe(struct seq_file *m)
{
	u64 timed, events;
	int i;

	for (i = 0; i < rvv_nr_sources; i++) {
		const struct rvv_window_source *src = rvv_sources[i];

		src->counts(&timed, &events);
		seq_printf(m, "  %s sampling: %s, %llu windows, %llu patches, %llu of %llu timed",
			   src->name, src->throughout ? "armed throughout" :
			   "armed in windows", READ_ONCE(src->windows),
			   READ_ONCE(src->patches), timed, events);
		if (timed)
			seq_printf(m, " (1 in %llu)",
				   div64_u64(events + timed / 2, timed));
		seq_puts(m, "\n");
	}
}
