/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling windows: one schedule for the event sources too dear to keep
 * armed, each a kprobe that traps on every event (windows.c).
 */
#ifndef _RVVSTAT_WINDOWS_H
#define _RVVSTAT_WINDOWS_H

#include <linux/types.h>

/* About how often a window opens: a source armed 1/N of it is armed 1 in N. */
#define RVV_WINDOW_PERIOD_MS	1000
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
	/* Samples taken, of how many events, since load or reset. */
	void (*counts)(u64 *timed, u64 *events);
	/* Armed at most 1 in this many of the time (0: no bound). */
	unsigned int duty;
	/* Armed from start to stop rather than in windows (N = 1). */
	bool throughout;
	/* How long it stays armed, if longer than the default; set by open(). */
	unsigned int window_ms;

	/* Kept by windows.c. */
	unsigned int armed;		/* probes armed now */
	unsigned long opened;		/* jiffies, once armed */
	unsigned long close_at;		/* jiffies, while armed */
	unsigned long next_open;	/* jiffies, while not armed */
	u64 windows;			/* windows it took part in */
	u64 patches;			/* arm and disarm operations */
};

/* Before rvv_windows_start(); the source lives until rvv_windows_stop(). */
int rvv_windows_add(struct rvv_window_source *src);
/*
 * Opens each source's first window at once, then about once a second.
 * On error, rvv_windows_stop() still disarms what it armed.
 */
int rvv_windows_start(void);
/* Closes any open window and stops; every source is disarmed after. */
void rvv_windows_stop(void);

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
