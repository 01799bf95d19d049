/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histograms: per CPU and per kind, recorded with IRQs off by the
 * CPU that owns them, merged on read. Also the switch-time source: from the
 * sched_switch tracepoint to finish_task_switch(), split by what the switch
 * did with vector state.
 */
#ifndef _RVVSTAT_LATENCY_H
#define _RVVSTAT_LATENCY_H

#include <linux/seq_file.h>
#include <linux/types.h>
#include <uapi/linux/rvvstat.h>

#include "core/accounting.h"
#include "attach/hook.h"

struct rvv_hist {
	u64 count;
	u64 sum;
	u64 min;		/* exact; valid when count is not 0 */
	u64 max;
	u64 buckets[RVVSTAT_CPU_HIST_BUCKETS];
};

/* How one kind is measured, for the summary; set by its source at load. */
struct rvv_latency_method {
	struct rvv_hook hook;		/* where it is timed, or why not */
	u64 bias_ns;			/* subtracted from every sample */
	unsigned int sample_every;	/* about 1 in this many events; 1 = all */
	unsigned int ops_per_sample;	/* a sample averages this many ops */
};

/* switch_sample: 0 no switch timing, 1 every switch, N windows (latency.c). */
int rvv_latency_init(unsigned int switch_sample);
void rvv_latency_exit(void);
/*
 * Registers the switch-time source, disarmed, and adds it to the sampling
 * windows; before the sched_switch tracepoint and rvv_windows_start().
 */
void rvv_latency_start(void);
void rvv_latency_stop(void);

/* With IRQs off, on the CPU whose histogram it is. */
void rvv_latency_record(enum rvvstat_latency kind, u64 ns);
/* Whether switches are being timed now; read by the switch probe. */
extern bool rvv_switch_window_open;

static __always_inline bool rvv_latency_window_open(void)
{
	return READ_ONCE(rvv_switch_window_open);
}

/*
 * From sched_switch, in a window: a switch with this vector work starts
 * now; @prev_row is prev's row (NULL: none).
 */
void rvv_latency_switch_begin(struct rvv_task_hot *prev_row,
			      const struct rvv_switch_vstate *vs);

/*
 * The @permille percentile: the upper bound of its bucket (the uapi's
 * nearest-rank rule), but never above the exact maximum.
 */
u64 rvv_hist_percentile_ns(const struct rvv_hist *h, unsigned int permille);
/* Samples of @kind on every CPU since load or reset. */
u64 rvv_latency_count(enum rvvstat_latency kind);
/* The same, summed over @nr kinds. */
u64 rvv_latency_count_kinds(const enum rvvstat_latency *kinds, int nr);
/* Merges one CPU's histogram, or every CPU's if @cpu is negative. */
void rvv_latency_snapshot(enum rvvstat_latency kind, int cpu,
			  struct rvv_hist *out);
/* The event kinds (not bias, calibration); every CPU stopped. */
void rvv_latency_zero_cpu(int cpu);
/* One kind of this CPU's, with IRQs off. */
void rvv_latency_zero_kind_this_cpu(enum rvvstat_latency kind);

/*
 * What a probe pair costs by itself: the floor of the median bucket of the
 * probe_bias samples. 0 or -ENODATA (none yet), -ENOMEM.
 */
int rvv_latency_probe_bias(u64 *bias_ns);
/* Whether the switch_* kinds are timed (throughout or in windows). */
bool rvv_latency_switch_timing(void);

struct rvv_latency_method *rvv_latency_method(enum rvvstat_latency kind);

#endif /* _RVVSTAT_LATENCY_H */
