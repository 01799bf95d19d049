// SPDX-License-Identifier: GPL-2.0
/*
 * Median and its order-statistic confidence interval (see bench-stats.h).
 */
#include <math.h>
#include <stdlib.h>

#include "bench-stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double stats_median(const double *sorted, unsigned int n)
{
	if (n % 2)
		return sorted[n / 2];
	return (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/*
 * The number of values below the median is Binomial(n, 1/2), so
 * [x(k), x(n-k+1)] (1-based) misses it with probability 2 P(B <= k-1).
 * The largest k whose coverage still reaches @level is the narrowest.
 */
double stats_median_ci(unsigned int n, double level, unsigned int *lo,
		       unsigned int *hi)
{
	/* C(n, i) / 2^n term by term: exact enough in double up to n ~ 1000. */
	double term = ldexp(1.0, -(int)n), below = 0, coverage;
	unsigned int k = 1;

	below += term;				/* P(B <= 0) */
	coverage = 1 - 2 * below;
	while (k + 1 <= (n + 1) / 2) {
		term = term * (n - (k - 1)) / k;	/* C(n, k) / 2^n */
		if (1 - 2 * (below + term) < level)
			break;
		below += term;
		coverage = 1 - 2 * below;
		k++;
	}
	*lo = k - 1;
	*hi = n - k;
	return coverage;
}
