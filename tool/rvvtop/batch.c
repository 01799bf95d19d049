// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "../lib/format.h"
#include "batch.h"
#include "panel.h"

void batch_wrapped(FILE *out, const char *lead, const char *text)
{
	const char *next;
	size_t len;

	for (; *text; text = next, lead = "  ") {
		len = rvv_format_wrap(text, 80 - strlen(lead), &next);
		fprintf(out, "%s%.*s\n", lead, (int)len, text);
	}
}

void batch_rates(FILE *out, const struct rates *r)
{
	fprintf(out, "%10.1f %10.1f %10.3f %6.1f", r->saves, r->restores,
		r->bytes / 1e6, r->involuntary_pct);
}

/* @wall (s since the epoch) as local ISO 8601 time to the ms: 2026-12-03T15:00:01.123+00:00. */
static const char *iso_time(double wall, char *buf, size_t size)
{
	time_t whole = (time_t)floor(wall);
	int ms = (int)((wall - (double)whole) * 1000);
	char zone[8];
	struct tm tm;

	if (!localtime_r(&whole, &tm) || !strftime(zone, sizeof(zone), "%z", &tm))
		return "?";
	strftime(buf, size, "%FT%T", &tm);
	snprintf(buf + strlen(buf), size - strlen(buf), ".%03d%.3s:%s", ms, zone, zone + 3);
	return buf;
}

int batch_text(FILE *out, const struct sample *s, const struct view *v)
{
	char when[48];
	size_t i;

	/* When, as --json says it: the sample's local time and CLOCK_MONOTONIC. */
	fprintf(out, "== interval %.2f s to %s (monotonic %.3f s)\n", v->seconds,
		iso_time(s->wall, when, sizeof(when)), s->taken);
	if (!v->has_module)
		batch_wrapped(out, "rvvstat: ", v->module_why);
	else if (v->module_reset)
		fprintf(out, "rvvstat: counters were reset or the module reloaded; rates resume next interval\n");
	else
		fprintf(out, "rvvstat: %s, %" PRIu32 "-bit registers, %" PRIu32 " bytes per save\n",
			rvv_format_backend_title(s->info.backend),
			s->info.vector_bits, s->info.bytes_per_save);
	for (i = 0; i < nr_panels; i++)
		panels[i]->text(out, v, v->parts[i]);
	return fflush(out) ? -EIO : 0;
}
