// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling windows: one schedule for the event sources too dear to keep
 * armed. A kprobe traps on every event it sees, and arming or disarming one
 * patches kernel text (under stop_machine() on riscv), so neither can run
 * all the time at no cost. Each source's window opens about once a second,
 * with a quarter's jitter either way so that it does not beat with a
 * periodic load, and stays open RVV_WINDOW_MS, or longer for a source that
 * asks. The period stretches so that no source is armed more than 1 in its
 * duty of the time. A source with nothing to time sits its window out at no
 * cost and is asked again RVV_SIT_OUT_RETRY_MS later, so that events which
 * start after a quiet spell are timed within their first second. No two
 * windows are open at once. Every arm and disarm is counted, exactly.
 */
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/random.h>
#include <linux/workqueue.h>

#include "timing/windows.h"

#define RVV_WINDOW_MS		20
#define RVV_SIT_OUT_RETRY_MS	(RVV_WINDOW_PERIOD_MS / 4)

static struct rvv_window_source *rvv_sources[RVV_MAX_WINDOW_SOURCES];
static int rvv_nr_sources;
static struct delayed_work rvv_window_work;
static struct workqueue_struct *rvv_window_wq;

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
	if (!armed) {
		src->next_open = jiffies + msecs_to_jiffies(RVV_SIT_OUT_RETRY_MS);
		return;
	}
	src->next_open = jiffies +
			 msecs_to_jiffies(RVV_WINDOW_PERIOD_MS * 3 / 4) +
			 get_random_u32_below(msecs_to_jiffies(RVV_WINDOW_PERIOD_MS / 2) + 1);
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

/* Keeps the source's next window far enough away once it has closed. */
static void rvv_source_keep_duty(struct rvv_window_source *src,
				 unsigned long now)
{
	unsigned long earliest = src->opened + (now - src->opened) * src->duty;

	if (src->duty && time_before(src->next_open, earliest))
		src->next_open = earliest;
}

/* When @src next needs the work: its close while armed, else its opening. */
static unsigned long rvv_source_due(const struct rvv_window_source *src)
{
	return src->armed ? src->close_at : src->next_open;
}

/* The windowed source armed now, if any: windows never overlap. */
static struct rvv_window_source *rvv_windows_busy(void)
{
	int i;

	for (i = 0; i < rvv_nr_sources; i++)
		if (!rvv_sources[i]->throughout && rvv_sources[i]->armed)
			return rvv_sources[i];
	return NULL;
}

/*
 * Closes the sources whose time is up, then opens those whose next window
 * has come, one at a time: a source's traps inside another's timed spans
 * would inflate them (the save probes sit inside every timed switch), so a
 * window due while another is open waits for its close. Pushing a source's
 * next window back so that it is armed at most 1 in its duty of the time
 * also covers a busy system running this work late. Returns the jiffies to
 * the next event.
 */
static unsigned long rvv_windows_tick(void)
{
	struct rvv_window_source *busy;
	unsigned long now = jiffies, next = 0;
	bool any = false;
	int i;

	for (i = 0; i < rvv_nr_sources; i++) {
		struct rvv_window_source *src = rvv_sources[i];

		if (!src->throughout && src->armed &&
		    !time_before(now, src->close_at)) {
			rvv_source_close(src);
			rvv_source_keep_duty(src, now);
		}
	}
	busy = rvv_windows_busy();
	for (i = 0; i < rvv_nr_sources; i++) {
		struct rvv_window_source *src = rvv_sources[i];

		if (src->throughout)
			continue;
		if (!src->armed && !time_before(now, src->next_open)) {
			if (busy) {
				src->next_open = busy->close_at;
			} else {
				rvv_source_open(src);
				busy = src->armed ? src : NULL;
			}
		}
		if (!any || time_before(rvv_source_due(src), next))
			next = rvv_source_due(src);
		any = true;
	}
	/* From now: arming and disarming may have taken long. */
	now = jiffies;
	return time_after(next, now) ? next - now : 1;
}

static void rvv_window_work_fn(struct work_struct *work)
{
	queue_delayed_work(rvv_window_wq, &rvv_window_work, rvv_windows_tick());
}

int rvv_windows_start(void)
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
		return 0;
	/*
	 * Unbound and high priority: neither a busy CPU nor a crowd of
	 * runnable threads may keep a window open late (a late close counts
	 * against the source's duty and pushes its next window back).
	 */
	rvv_window_wq = alloc_workqueue("rvvstat_windows",
					WQ_UNBOUND | WQ_HIGHPRI, 1);
	if (!rvv_window_wq)
		return -ENOMEM;
	/* The first window at once: samples from the first second. */
	INIT_DELAYED_WORK(&rvv_window_work, rvv_window_work_fn);
	for (i = 0; i < rvv_nr_sources; i++)
		rvv_sources[i]->next_open = jiffies;
	queue_delayed_work(rvv_window_wq, &rvv_window_work, 0);
	return 0;
}

/* Nothing re-arms a source once the work is cancelled. */
void rvv_windows_stop(void)
{
	int i;

	if (rvv_window_wq) {
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
