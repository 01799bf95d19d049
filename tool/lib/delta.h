/* SPDX-License-Identifier: GPL-2.0 */
/* What happened between two summaries: counts and the seconds they took. */
#ifndef RVVSTAT_DELTA_H
#define RVVSTAT_DELTA_H

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

#endif /* RVVSTAT_DELTA_H */
