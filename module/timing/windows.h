/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling windows: one schedule for the event sources too dear to keep
 * armed, each a probe that traps on every event (windows.c). The schedule
 * counts events, not time.
 */
#ifndef _RVVSTAT_WINDOWS_H
#define _RVVSTAT_WINDOWS_H

#include <linux/types.h>

#define RVV_MAX_WINDOW_SOURCES	4

struct rvv_window_source {
	const char *name;		/* one word: the sampling file's key */
	/*
	 * A window opens: arm what is worth timing in it and return the
	 * probes armed (0: the source sits this one out). Sleeps.
	 */
	unsigned int (*open)(struct rvv_window_source *src);
	/* The window closes: disarm what open() armed. Sleeps. */
	void (*close)(struct rvv_window_source *src);
	/* Samples taken, of how many of its events, since load or reset. */
	void (*counts)(u64 *timed, u64 *events);
	/* Armed for at most 1 in this many of its events. */
	unsigned int duty;
	/* A window ends once a CPU has timed this many of its events. */
	unsigned int samples;
	/* Armed from start to stop rather than in windows (N = 1). */
	bool throughout;
	/* Times from the switch probe: every switch asks while it is armed. */
	bool on_switch;

	/* Kept by windows.c. */
	int index;
	unsigned int armed;		/* probes armed now */
	bool full;			/* a CPU took its samples: close now */
	u64 seen;			/* its events when last looked at */
	u64 window_events;		/* its events while armed, this window */
	unsigned long close_at;		/* jiffies: closes by then, if armed */
	u64 wait;			/* its events to come before it may open */
	u64 windows;			/* windows it took part in */
	u64 patches;			/* arm and disarm operations */
};

/* Before rvv_windows_start(); the source lives until rvv_windows_stop(). */
int rvv_windows_add(struct rvv_window_source *src);
/* Whether a source added so far is armed in windows, not throughout. */
bool rvv_windows_scheduled(void);
/*
 * Opens each source's first window at once, then by the events counted.
 * On error, rvv_windows_stop() still disarms what it armed.
 */
int rvv_windows_start(void);
/* Closes any open window and stops; every source is disarmed after. */
void rvv_windows_stop(void);

/*
 * From a source's probe, IRQs off: whether to time this event. A window
 * times up to the source's samples per CPU; the CPU that takes the last
 * asks for the window to close.
 */
bool rvv_window_take(struct rvv_window_source *src);

/*
 * From the switch probe, IRQs off, once its CPU reached the switch count
 * the work set for it as it last looked at the schedule
 * (rvv_cpu_set_sample_at()): something may be due; kicks the work.
 */
void rvv_windows_due(void);

/* How a source has been armed, and what it timed, since load or reset. */
struct rvv_window_counts {
	const char *name;
	bool throughout;
	u64 windows, patches;
	unsigned int armed;		/* probes armed now */
	u64 timed, events;
};

/* Each source's counts; returns how many sources. */
int rvv_windows_read(struct rvv_window_counts out[RVV_MAX_WINDOW_SOURCES]);

#endif /* _RVVSTAT_WINDOWS_H */
