/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rvvtop's clocks: CLOCK_MONOTONIC for when samples and readings are taken
 * and refreshes are due, CLOCK_REALTIME to stamp the records.
 */
#ifndef RVVTOP_CLOCK_H
#define RVVTOP_CLOCK_H

#include <time.h>

static inline double clock_s(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline double monotonic_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* Seconds since the epoch. */
static inline double wall_s(void)
{
	return clock_s(CLOCK_REALTIME);
}

#endif /* RVVTOP_CLOCK_H */
