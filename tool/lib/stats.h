/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The numbers librvvstat derives from the module's: saves, percentiles
 * from a histogram, and what happened between two summaries (counts and
 * the seconds they took, and so rates).
 */
#ifndef RVVSTAT_STATS_H
#define RVVSTAT_STATS_H

#include "client.h"

/* Vector-state saves at context switches, user and in-kernel: the one definition. */
static inline uint64_t rvv_saves(const uint64_t *counters)
{
	return counters[RVVSTAT_SAVES_USER] + counters[RVVSTAT_SAVES_KERNEL];
}

struct rvv_delta {
	double seconds;				/* of the module's clock */
	uint64_t counters[RVVSTAT_MAX_COUNTERS];
	uint64_t bytes;
};

/*
 * @later minus @earlier. -ERANGE if a counter or the clock went back (a
 * reset or a reload between them), -EINVAL if no time passed.
 */
int rvv_delta(const struct rvv_summary *earlier, const struct rvv_summary *later,
	      struct rvv_delta *d, struct rvv_error *err);
/* @count per second over @d; 0 over no time. */
double rvv_delta_rate(const struct rvv_delta *d, uint64_t count);

/*
 * The @permille percentile of the @nr buckets @counts in the layout
 * @sub_bits, by the uapi's nearest-rank rule, as the upper bound of its
 * bucket (the last bucket has none: its lower bound); 0 if they are empty.
 */
uint64_t rvv_hist_percentile_ns(const uint64_t *counts, unsigned int nr,
				unsigned int sub_bits, unsigned int permille);

#endif /* RVVSTAT_STATS_H */
