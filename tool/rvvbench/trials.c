// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <string.h>

#include "trials.h"

size_t bench_arm_order(size_t trial, size_t k, size_t n_arms)
{
	return (trial + k) % n_arms;
}

void bench_mean_sd_of(const double *v, size_t n, struct bench_mean_sd *out)
{
	double sum = 0, ss = 0;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n && n > 1; i++)
		ss += (v[i] - out->mean) * (v[i] - out->mean);
	out->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

/*
 * t(0.975, df) for df 1..30 (the standard table, to 3 decimals), then
 * 40, 60, 120, 1000 (1.962, taken as the normal 1.960); between table rows the next
 * smaller df is used, which makes the interval slightly wider, never narrower.
 */
double bench_t975(size_t df)
{
	static const double t[31] = {
		0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};

	if (df == 0)
		return NAN;
	if (df <= 30)
		return t[df];
	return df < 40 ? 2.042 : df < 60 ? 2.021 : df < 120 ? 2.000 : df < 1000 ? 1.980 : 1.960;
}

/* The 95 % t interval of the mean of @d (@k values, k >= 2). */
static void t_interval(const double *d, size_t k, struct bench_interval *ci)
{
	struct bench_mean_sd m;
	double half;

	bench_mean_sd_of(d, k, &m);
	half = bench_t975(k - 1) * m.sd / sqrt((double)k);
	ci->mean = m.mean;
	ci->low = m.mean - half;
	ci->high = m.mean + half;
}

int bench_paired_interval(const double *a, const double *b, size_t n, struct bench_interval *ci)
{
	double d[n ? n : 1];
	size_t k = 0;

	memset(ci, 0, sizeof(*ci));
	/* A trial missing either value is left out as a pair: never shifted onto another. */
	for (size_t i = 0; i < n; i++)
		if (!isnan(a[i]) && !isnan(b[i]))
			d[k++] = a[i] - b[i];
	ci->n = k;
	if (k < 2)
		return -EINVAL;
	t_interval(d, k, ci);
	return 0;
}

int bench_paired_ratio(const double *a, const double *b, size_t n, struct bench_interval *ci)
{
	double d[n ? n : 1];
	size_t k = 0;

	memset(ci, 0, sizeof(*ci));
	for (size_t i = 0; i < n; i++)
		if (a[i] > 0 && b[i] > 0)	/* NAN compares false */
			d[k++] = log(a[i] / b[i]);
	ci->n = k;
	if (k < 2)
		return -EINVAL;
	t_interval(d, k, ci);
	ci->mean = exp(ci->mean);
	ci->low = exp(ci->low);
	ci->high = exp(ci->high);
	return 0;
}

void bench_csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
