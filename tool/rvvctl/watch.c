// SPDX-License-Identifier: GPL-2.0
/*
 * rvvctl watch: the rates of each interval, like vmstat: a line per
 * interval (a JSON object per line with --json).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../lib/stats.h"
#include "commands.h"

static void watch_line(struct output *o, const struct rvv_delta *d)
{
	const uint64_t *c = d->counters;
	double bytes_per_s = rvv_delta_rate(d, d->bytes);

	out_open_object(o, NULL);
	out_real(o, "seconds", "%8.2f", d->seconds);
	out_real(o, "switches_per_s", " %11.1f", rvv_delta_rate(d, c[RVVSTAT_SWITCHES]));
	out_real(o, "saves_per_s", " %11.1f", rvv_delta_rate(d, rvv_saves(c)));
	out_real(o, "restores_per_s", " %11.1f",
		 rvv_delta_rate(d, c[RVVSTAT_RESTORES_PERFORMED]));
	out_real(o, "kernel_v_saves_per_s", " %11.1f",
		 rvv_delta_rate(d, c[RVVSTAT_KERNEL_V_SAVES]));
	out_u64(o, "first_use", " %9" PRIu64, c[RVVSTAT_FIRST_USE]);
	out_data(o, "bytes_per_s", OUT_REAL(bytes_per_s));
	out_text(o, " %11.2f\n", bytes_per_s / 1e6);
	out_close(o);
}

int rvvctl_watch(struct rvv_client *c, double interval, uint64_t count,
		 struct output *o, struct rvv_error *err)
{
	struct rvv_summary *s = malloc(2 * sizeof(*s));
	struct timespec pause = {
		.tv_sec = (time_t)interval,
		.tv_nsec = (long)((interval - (double)(time_t)interval) * 1e9),
	};
	struct rvv_delta d;
	uint64_t n;
	int status;

	if (!s)
		return rvv_fail(err, -ENOMEM, "watch: no memory");
	out_text(o, "%8s %11s %11s %11s %11s %9s %11s\n", "seconds", "switches/s",
		 "saves/s", "restores/s", "kernelV/s", "first_use", "MB saved/s");
	status = rvv_client_get_summary(c, &s[0], err);
	for (n = 0; !status && (!count || n < count); n++) {
		nanosleep(&pause, NULL);
		status = rvv_client_get_summary(c, &s[(n + 1) % 2], err);
		if (!status)
			status = rvv_delta(&s[n % 2], &s[(n + 1) % 2], &d, err);
		if (!status) {
			watch_line(o, &d);
			status = output_status(o);
		}
	}
	free(s);
	return status;
}
