// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include <rvvstat/hist.h>

#include "stats.h"

int rvv_delta(const struct rvv_summary *earlier, const struct rvv_summary *later,
	      struct rvv_delta *d, struct rvv_error *err)
{
	static const char *const names[] = RVVSTAT_COUNTER_NAMES;
	struct rvv_delta out = { 0 };
	unsigned int i;

	if (later->elapsed_ns < earlier->elapsed_ns)
		return rvv_fail(err, -ERANGE, "the counters were reset, or the module reloaded, between the two");
	if (later->elapsed_ns == earlier->elapsed_ns)
		return rvv_fail(err, -EINVAL, "no time passed between the two");
	for (i = 0; i < sizeof(names) / sizeof(*names); i++) {
		if (later->counters[i] < earlier->counters[i])
			return rvv_fail(err, -ERANGE, "%s went from %llu down to %llu: the counters were reset between the two",
					names[i], (unsigned long long)earlier->counters[i],
					(unsigned long long)later->counters[i]);
		out.counters[i] = later->counters[i] - earlier->counters[i];
	}
	if (later->bytes < earlier->bytes)
		return rvv_fail(err, -ERANGE, "bytes went down: the counters were reset between the two");
	out.bytes = later->bytes - earlier->bytes;
	out.seconds = (double)(later->elapsed_ns - earlier->elapsed_ns) / 1e9;
	*d = out;
	return 0;
}

double rvv_delta_rate(const struct rvv_delta *d, uint64_t count)
{
	return d->seconds > 0 ? (double)count / d->seconds : 0;
}

uint64_t rvv_hist_percentile_ns(const uint64_t *counts, unsigned int nr,
				unsigned int sub_bits, unsigned int permille)
{
	__u64 wide[RVVSTAT_CPU_HIST_BUCKETS];	/* the uapi's type */
	__u64 upper;
	unsigned int b;

	if (nr > RVVSTAT_CPU_HIST_BUCKETS)
		return 0;
	for (b = 0; b < nr; b++)
		wide[b] = counts[b];
	upper = rvvstat_hist_percentile_upper(wide, nr, sub_bits, permille);
	if (upper == ~0ULL)
		return rvvstat_hist_lower(nr - 1, sub_bits);
	return upper;
}
