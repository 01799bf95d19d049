/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rvvstat: vector-register state switching statistics.
 *
 * The one contract between rvvstat.ko and its tools. Versioned and
 * append-only: new counters go at the end of a list and bump
 * RVVSTAT_ABI_VERSION; existing names and positions never change.
 */
#ifndef _UAPI_LINUX_RVVSTAT_H
#define _UAPI_LINUX_RVVSTAT_H

#include <linux/types.h>

#define RVVSTAT_ABI_VERSION	2
#define RVVSTAT_NAME		"rvvstat"

/*
 * Counters kept per task and per CPU. RVVSTAT_COUNTER_NAMES gives, in enum
 * order, the column names of the debugfs cpus, tasks and totals files.
 *
 * switches            times the task was switched out
 * saves_user          user vector state saved at a context switch (VS dirty)
 * saves_kernel        in-kernel preempt-V state saved at a context switch
 * saves_involuntary   switch saves while the task was still runnable
 * saves_discarded     user saves of state that a syscall had discarded
 * restores_scheduled  switch-ins and kernel-V uses that armed a new deferred restore
 * restores_coalesced  switch-ins that found a restore already pending
 * restores_performed  deferred restores seen consumed on return to user
 * restores_cancelled  pending restores dropped by exec
 * restores_kernel     switch-ins that will restore in-kernel preempt-V state
 * first_use           first-use traps that enabled vector state
 * kernel_v            kernel_vector_begin() calls in the task's context
 * kernel_v_saves      of those, calls that saved vector state (counted at the
 *                     save instructions; predicted at entry only where they
 *                     cannot be probed, see summary "methods")
 */
enum rvvstat_counter {
	RVVSTAT_SWITCHES,
	RVVSTAT_SAVES_USER,
	RVVSTAT_SAVES_KERNEL,
	RVVSTAT_SAVES_INVOLUNTARY,
	RVVSTAT_SAVES_DISCARDED,
	RVVSTAT_RESTORES_SCHEDULED,
	RVVSTAT_RESTORES_COALESCED,
	RVVSTAT_RESTORES_PERFORMED,
	RVVSTAT_RESTORES_CANCELLED,
	RVVSTAT_RESTORES_KERNEL,
	RVVSTAT_FIRST_USE,
	RVVSTAT_KERNEL_V,
	RVVSTAT_KERNEL_V_SAVES,
	RVVSTAT_NR_COUNTERS
};

#define RVVSTAT_COUNTER_NAMES {						\
	"switches", "saves_user", "saves_kernel", "saves_involuntary",	\
	"saves_discarded", "restores_scheduled", "restores_coalesced",	\
	"restores_performed", "restores_cancelled", "restores_kernel",	\
	"first_use", "kernel_v", "kernel_v_saves"			\
}

/*
 * Events that belong to a CPU but to no task in the table; extra columns of
 * debugfs cpus, named by RVVSTAT_CPU_EVENT_NAMES in enum order.
 *
 * untracked              switch-outs of tasks missing from the task table
 *                        (idle tasks have no row and are not counted here)
 * table_full             tasks that could not be entered: the table was full
 * verify_switch_saves    saves executed at the context-switch save sites,
 *                        counted by instruction probes (verification mode)
 */
enum rvvstat_cpu_event {
	RVVSTAT_CPU_UNTRACKED,
	RVVSTAT_CPU_TABLE_FULL,
	RVVSTAT_CPU_VERIFY_SWITCH_SAVES,
	RVVSTAT_NR_CPU_EVENTS
};

#define RVVSTAT_CPU_EVENT_NAMES {					\
	"untracked", "table_full", "verify_switch_saves"		\
}

/*
 * Latency histograms, one per kind. RVVSTAT_LATENCY_NAMES gives, in enum
 * order, the kind names of the debugfs hist file and the summary.
 *
 * switch_saved     context switch that saved vector state: time from the
 *                  sched_switch tracepoint to finish_task_switch()
 * switch_restore   the same for switches that saved nothing but armed a
 *                  deferred restore for the next task
 * switch_plain     the same for switches that did neither
 * save_user        user-state save in __schedule, between instruction probes
 * save_kernel      in-kernel preempt-V save in __schedule, the same way
 * save_kernel_v    save in kernel_vector_begin(), the same way
 * probe_bias       the instruction-probe pair around an empty stretch: what
 *                  is subtracted from the three save_* kinds
 * calib_save       one save of the whole register file, timed in the module
 *                  without probes (kernel_vector_begin() held)
 * calib_restore    one restore, timed the same way
 *
 * A reset clears the kinds before probe_bias; probe_bias and calib_* describe
 * the machine and are measured again only at load and by calibrate.
 */
enum rvvstat_latency {
	RVVSTAT_LAT_SWITCH_SAVED,
	RVVSTAT_LAT_SWITCH_RESTORE,
	RVVSTAT_LAT_SWITCH_PLAIN,
	RVVSTAT_LAT_SAVE_USER,
	RVVSTAT_LAT_SAVE_KERNEL,
	RVVSTAT_LAT_SAVE_KERNEL_V,
	RVVSTAT_LAT_PROBE_BIAS,
	RVVSTAT_LAT_CALIB_SAVE,
	RVVSTAT_LAT_CALIB_RESTORE,
	RVVSTAT_NR_LATENCIES
};

#define RVVSTAT_LATENCY_NAMES {						\
	"switch_saved", "switch_restore", "switch_plain", "save_user",	\
	"save_kernel", "save_kernel_v", "probe_bias", "calib_save",	\
	"calib_restore"							\
}

/*
 * Histogram layout, log-linear in nanoseconds. With S sub-bucket bits,
 * values below 2^S have a bucket each; from there every power of two is
 * split into 2^S equal buckets, so a bucket is at most 1/2^S of its lower
 * bound wide. The last bucket also holds every larger value.
 *
 * Per-CPU histograms: S = 3 (12.5 %), up to 2^34 ns (17 s).
 * Per-task histograms: S = 0 (one bucket per power of two), up to 2^24 ns.
 */
#define RVVSTAT_CPU_HIST_SUB_BITS	3
#define RVVSTAT_CPU_HIST_MAX_SHIFT	34
#define RVVSTAT_CPU_HIST_BUCKETS					\
	((RVVSTAT_CPU_HIST_MAX_SHIFT - RVVSTAT_CPU_HIST_SUB_BITS + 1) <<	\
	 RVVSTAT_CPU_HIST_SUB_BITS)
#define RVVSTAT_TASK_HIST_SUB_BITS	0
#define RVVSTAT_TASK_HIST_MAX_SHIFT	24
#define RVVSTAT_TASK_HIST_BUCKETS					\
	((RVVSTAT_TASK_HIST_MAX_SHIFT - RVVSTAT_TASK_HIST_SUB_BITS + 1) <<	\
	 RVVSTAT_TASK_HIST_SUB_BITS)

static inline unsigned int rvvstat_hist_bucket(__u64 ns, unsigned int sub_bits,
					       unsigned int nr_buckets)
{
	unsigned int msb, bucket;

	if (ns < (1ULL << sub_bits)) {
		bucket = (unsigned int)ns;
	} else {
		msb = 63 - __builtin_clzll(ns);
		bucket = ((msb - sub_bits + 1) << sub_bits) +
			 (unsigned int)((ns >> (msb - sub_bits)) &
					((1U << sub_bits) - 1));
	}
	return bucket < nr_buckets ? bucket : nr_buckets - 1;
}

/* The smallest value that lands in @bucket. */
static inline __u64 rvvstat_hist_lower(unsigned int bucket,
				       unsigned int sub_bits)
{
	unsigned int octave = bucket >> sub_bits;
	__u64 sub = bucket & ((1U << sub_bits) - 1);

	if (!octave)
		return bucket;
	return ((1ULL << sub_bits) + sub) << (octave - 1);
}

/* The largest value that lands in @bucket (the last one has no bound). */
static inline __u64 rvvstat_hist_upper(unsigned int bucket,
				       unsigned int sub_bits,
				       unsigned int nr_buckets)
{
	if (bucket + 1 >= nr_buckets)
		return ~0ULL;
	return rvvstat_hist_lower(bucket + 1, sub_bits) - 1;
}

/*
 * The bucket holding the sample of rank ceil(n * permille / 1000) (nearest
 * rank, at least 1) among the n samples counted; nr_buckets if n is 0.
 */
static inline unsigned int rvvstat_hist_percentile(const __u64 *counts,
						   unsigned int nr_buckets,
						   unsigned int permille)
{
	__u64 total = 0, seen = 0, rank;
	unsigned int i;

	for (i = 0; i < nr_buckets; i++)
		total += counts[i];
	if (!total)
		return nr_buckets;
	rank = (total * permille + 999) / 1000;
	if (!rank)
		rank = 1;
	for (i = 0; i < nr_buckets; i++) {
		seen += counts[i];
		if (seen >= rank)
			return i;
	}
	return nr_buckets - 1;
}

#endif /* _UAPI_LINUX_RVVSTAT_H */
