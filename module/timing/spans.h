/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spans: stretches of kernel code, each a save or a reload, timed between
 * two kprobes, "before" and "after" (spans.c). The backends find them.
 */
#ifndef _RVVSTAT_SPANS_H
#define _RVVSTAT_SPANS_H

#include <linux/types.h>

#include <uapi/linux/rvvstat.h>

/*
 * A span from @before to @after, timed as @kind. @count, if set, is what
 * "before" counts (it then stays armed). A save takes its window's samples;
 * a reload (@sample false) is timed throughout a window and takes none, so
 * that a window holds as many saves with or without reloads. -ENOSPC if
 * there is no room.
 */
int rvv_spans_add(unsigned long before, unsigned long after,
		  enum rvvstat_latency kind, void (*count)(void), bool sample);
/*
 * The empty stretch from @before to @after that @run runs: the pair's own
 * cost, subtracted from every span.
 */
void rvv_spans_set_stretch(void (*run)(void), unsigned long before,
			   unsigned long after);
/*
 * After the spans are added, at arch init: about 1 in @sample_every saves
 * is timed (0: none), in sampling windows (windows.c) or, at 1, throughout.
 */
void rvv_spans_init(unsigned int sample_every);
/* Registers the probes; timing stays disarmed until the windows arm it. */
int rvv_spans_start(void);
/* After rvv_windows_stop(), which disarmed every span. */
void rvv_spans_stop(void);

/* Whether "before" probes count now (registered). */
bool rvv_spans_counting(void);
/* Whether spans are being timed at all. */
bool rvv_spans_timing(void);
/* Hits the registered probes lost (a probe hit inside a probe handler). */
unsigned long rvv_spans_missed(void);
/* Times the empty stretch @times times on this CPU. */
void rvv_spans_time_stretch(unsigned int times);
/* Takes the median of what the stretch recorded as the bias. */
void rvv_spans_update_bias(void);

#endif /* _RVVSTAT_SPANS_H */
