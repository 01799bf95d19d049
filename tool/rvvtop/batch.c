// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "../lib/format.h"
#include "batch.h"

/* @text within 80 columns: @lead before its first line, two spaces before the rest. */
static void text_wrapped(FILE *out, const char *lead, const char *text)
{
	const char *next;
	size_t len;

	for (; *text; text = next, lead = "  ") {
		len = rvv_format_wrap(text, 80 - strlen(lead), &next);
		fprintf(out, "%s%.*s\n", lead, (int)len, text);
	}
}

static void text_rates(FILE *out, const struct rates *r)
{
	fprintf(out, "%10.1f %10.1f %10.3f %6.1f", r->saves, r->restores,
		r->bytes / 1e6, r->involuntary_pct);
}

static void text_llama(FILE *out, const struct llama_view *l)
{
	/* A line each: the state, its advice and its reason fit 80 columns. */
	fprintf(out, "llama-server: %s\n", llama_state_name(l->state));
	if (llama_state_advice(l->state)[0])
		fprintf(out, "  %s\n", llama_state_advice(l->state));
	if (l->why)
		text_wrapped(out, "  ", l->why);
	if (l->state == LLAMA_WAITING || l->state == LLAMA_DOWN || l->state == LLAMA_LOADING)
		return;
	if (l->no_new_reading)
		fprintf(out, "  no new reading in this interval: llama-server is slow to answer\n");
	else if (l->has_live)
		fprintf(out, "  generating %.1f tok/s (%" PRIu64 " tokens in %.2f s), %d of %d slots busy\n",
			l->tokens_per_s, l->decoded, l->seconds, l->busy_slots, l->slots);
	else if (l->has_slots)
		fprintf(out, "  no live rate yet: it needs two readings of /slots\n");
	else if (l->slots_why)
		text_wrapped(out, "  no live rate: ", l->slots_why);
	else
		fprintf(out, "  no live rate: llama-server runs with --no-slots\n");
	if (l->restarted)
		fprintf(out, "  restarted: its counters went back; completed counts resume next time\n");
	else if (l->has_metrics)
		fprintf(out, "  completed %.0f prompt, %.0f generated tokens; %.0f processing, %.0f deferred\n",
			l->prompt_done, l->predicted_done, l->processing, l->deferred);
	if (l->has_join)
		fprintf(out, "  %.2f vector saves per generated token, %.1f per second of generation\n",
			l->saves_per_token, l->saves_per_generating_s);
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
	size_t t;
	int i;

	/* When, as --json says it: the sample's local time and CLOCK_MONOTONIC. */
	fprintf(out, "== interval %.2f s to %s (monotonic %.3f s)\n", v->seconds,
		iso_time(s->wall, when, sizeof(when)), s->taken);
	if (!v->has_module) {
		text_wrapped(out, "rvvstat: ", v->module_why);
	} else if (v->module_reset) {
		fprintf(out, "rvvstat: counters were reset or the module reloaded; rates resume next interval\n");
	} else {
		fprintf(out, "rvvstat: %s, %" PRIu32 "-bit registers, %" PRIu32 " bytes per save\n",
			rvv_format_backend_title(s->info.backend),
			s->info.vector_bits, s->info.bytes_per_save);
		fprintf(out, "%-6s %10s %10s %10s %6s %19s\n%-6s ", "cpu", "saves/s",
			"restores/s", "MB/s", "invol%", RVV_SWITCH_SAVED_P99_NAME, "all");
		text_rates(out, &v->total);
		fputc('\n', out);
		for (i = 0; i < v->nr_cpus; i++) {
			fprintf(out, "%-6" PRIu32 " ", v->cpus[i].cpu);
			text_rates(out, &v->cpus[i].r);
			fprintf(out, " %19" PRIu64 "\n", v->cpus[i].switch_saved_p99_ns);
		}
		fprintf(out, "%8s %8s %-16s %3s %10s %10s %10s %6s %19s %s\n", "tid", "tgid",
			"comm", "cpu", "saves/s", "restores/s", "MB/s", "invol%",
			RVV_SWITCH_SAVED_P99_NAME, "hint");
		for (t = 0; t < v->nr_tasks; t++) {
			const struct task_view *tv = &v->tasks[t];
			char cpu[16], comm[RVV_COMM_SAFE_SIZE];

			if (!tv->r.saved && !tv->gained_vector)
				continue;
			rvv_format_untrusted(tv->comm, RVV_UNTRUSTED_TEXT, comm, sizeof(comm));
			fprintf(out, "%8" PRIu32 " %8" PRIu32 " %-16s %3s ", tv->tid, tv->tgid,
				comm, task_cpu_text(tv, cpu, sizeof(cpu)));
			text_rates(out, &tv->r);
			fprintf(out, " %19" PRIu64 " %s%s\n", tv->switch_saved_p99_ns,
				rvv_format_task_hint(tv->hint), tv->gained_vector ? " +V" : "");
		}
	}
	if (v->has_llama)
		text_llama(out, &v->llama);
	return fflush(out) ? -EIO : 0;
}
