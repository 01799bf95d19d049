// SPDX-License-Identifier: GPL-2.0
/*
 * rvvctl watch: the rates of each interval, like vmstat: a line per
 * interval (a JSON object per line with --json).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../lib/delta.h"
#include "commands.h"

static int watch_line(const struct rvv_delta *d, enum output_format format)
{
	const uint64_t *c = d->counters;
	uint64_t saves = rvv_saves(c);

	if (format == OUTPUT_JSON) {
		json_object *obj = json_object_new_object();

		json_object_object_add(obj, "seconds", json_object_new_double(d->seconds));
		json_object_object_add(obj, "switches_per_s",
				       json_object_new_double(rvv_delta_rate(d, c[RVVSTAT_SWITCHES])));
		json_object_object_add(obj, "saves_per_s",
				       json_object_new_double(rvv_delta_rate(d, saves)));
		json_object_object_add(obj, "restores_per_s",
				       json_object_new_double(rvv_delta_rate(d, c[RVVSTAT_RESTORES_PERFORMED])));
		json_object_object_add(obj, "kernel_v_saves_per_s",
				       json_object_new_double(rvv_delta_rate(d, c[RVVSTAT_KERNEL_V_SAVES])));
		json_object_object_add(obj, "first_use", json_object_new_uint64(c[RVVSTAT_FIRST_USE]));
		json_object_object_add(obj, "bytes_per_s",
				       json_object_new_double(rvv_delta_rate(d, d->bytes)));
		printf("%s\n", json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(obj);
	} else {
		printf("%8.2f %11.1f %11.1f %11.1f %11.1f %9llu %11.2f\n", d->seconds,
		       rvv_delta_rate(d, c[RVVSTAT_SWITCHES]), rvv_delta_rate(d, saves),
		       rvv_delta_rate(d, c[RVVSTAT_RESTORES_PERFORMED]),
		       rvv_delta_rate(d, c[RVVSTAT_KERNEL_V_SAVES]),
		       (unsigned long long)c[RVVSTAT_FIRST_USE],
		       rvv_delta_rate(d, d->bytes) / 1e6);
	}
	return output_flush(stdout);
}

int rvvctl_watch(struct rvv_client *c, double interval, uint64_t count,
		 enum output_format format, struct rvv_error *err)
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
	if (format != OUTPUT_JSON)
		printf("%8s %11s %11s %11s %11s %9s %11s\n", "seconds", "switches/s",
		       "saves/s", "restores/s", "kernelV/s", "first_use", "MB saved/s");
	status = rvv_client_get_summary(c, &s[0], err);
	for (n = 0; !status && (!count || n < count); n++) {
		nanosleep(&pause, NULL);
		status = rvv_client_get_summary(c, &s[(n + 1) % 2], err);
		if (!status)
			status = rvv_delta(&s[n % 2], &s[(n + 1) % 2], &d, err);
		if (!status)
			status = watch_line(&d, format);
	}
	free(s);
	return status;
}
