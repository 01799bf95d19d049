/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Distribution-free statistics for pingpong-bench: the median of a few
 * rounds and the order-statistic confidence interval of that median. Pure C11
 * (no I/O), so the host's unit test (tests/unit/bench-stats-test.c) checks it.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

/* Sorts @v[0..@n) ascending, in place. */
void stats_sort(double *v, unsigned int n);

/* The median of @n >= 1 sorted values: the middle one, or the mean of two. */
double stats_median(const double *sorted, unsigned int n);

/*
 * The confidence interval of the median of @n >= 1 values: the 0-based
 * ranks @lo and @hi into the sorted values such that [x(lo), x(hi)] holds
 * the true median with probability at least @level, whatever the
 * distribution (exact binomial with p = 1/2), and as narrow as that allows.
 * Returns the interval's actual coverage. With too few values for @level
 * even [min, max] covers less: then @lo = 0, @hi = @n - 1 and the returned
 * coverage is below @level.
 */
double stats_median_ci(unsigned int n, double level, unsigned int *lo,
		       unsigned int *hi);

#endif /* BENCH_STATS_H */
