/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trials: the rotated order arms run in within a trial, and the
 * statistics across trials: mean ± sample sd, and the paired difference of
 * an arm against "none" with a two-sided 95 % Student t interval.
 */
#ifndef RVVBENCH_TRIALS_H
#define RVVBENCH_TRIALS_H

#include <stddef.h>
#include <stdio.h>

/* The arm run @k-th in trial @trial (0-based): trial t starts at arm t mod n. */
size_t bench_arm_order(size_t trial, size_t k, size_t n_arms);

struct bench_mean_sd {
	size_t n;
	double mean, sd;	/* sd with n - 1; 0 for n < 2 */
};

void bench_mean_sd_of(const double *v, size_t n, struct bench_mean_sd *out);

/* t(0.975, df): the two-sided 95 % quantile, from a table (df >= 1). */
double bench_t975(size_t df);

struct bench_interval {
	size_t n;
	double mean, low, high;	/* of the differences a[i] - b[i] */
};

/*
 * The paired 95 % interval of a[i] - b[i] over the @n trials where neither
 * is NAN (ci->n of them); 0, or -EINVAL when fewer than 2 pairs.
 */
int bench_paired_interval(const double *a, const double *b, size_t n, struct bench_interval *ci);

/*
 * The same for the ratio a[i] / b[i]: the t interval of log(a[i] / b[i])
 * over the trials where both are above 0, taken back by exp, so ci->mean is
 * the geometric mean of the per-trial ratios. 0, or -EINVAL when fewer than 2.
 */
int bench_paired_ratio(const double *a, const double *b, size_t n, struct bench_interval *ci);

/* Writes @s as one RFC 4180 field: quoted, quotes doubled, when it holds , " CR or LF. */
void bench_csv_field(FILE *f, const char *s);

#endif /* RVVBENCH_TRIALS_H */
