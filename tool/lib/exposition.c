// SPDX-License-Identifier: GPL-2.0
/*
 * One scrape of the module. Counters are per CPU (label cpu), as the module
 * keeps them; latency histograms are merged over the CPUs, in seconds, with
 * one bucket per non-empty bucket of the module's (exact: the bounds are
 * whole nanoseconds). The two formats differ only in their metadata: the
 * family names of counters and info, UNIT lines and the closing "# EOF".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rvvstat/hist.h>

#include "stats.h"
#include "exposition.h"
#include "format.h"
#include "parse.h"
#include "rows.h"

#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))

enum family_type { FAMILY_COUNTER, FAMILY_GAUGE, FAMILY_HISTOGRAM, FAMILY_INFO };

struct family {
	const char *name;	/* OpenMetrics' family name, without _total or _info */
	enum family_type type;
	const char *unit;	/* the name ends with it; NULL if none */
	const char *help;
};

static const char *const counter_names[] = RVVSTAT_COUNTER_NAMES;
static const char *const counter_help[] = {
	"Switches away from a task.",
	"User vector state saved at a context switch.",
	"In-kernel preempt-V state saved at a context switch.",
	"Switch saves while the task was still runnable.",
	"User saves of state that a syscall had discarded.",
	"Switch-ins and kernel-V uses that armed a deferred restore.",
	"Switch-ins that found a restore already pending.",
	"Deferred restores consumed on return to user.",
	"Pending restores dropped by exec.",
	"Switch-ins that restore in-kernel preempt-V state.",
	"First-use traps that enabled vector state.",
	"kernel_vector_begin() calls in a task's context.",
	"kernel_vector_begin() calls that saved vector state.",
};
static const char *const cpu_event_names[] = RVVSTAT_CPU_EVENT_NAMES;
static const char *const cpu_event_help[] = {
	"Switch-outs of tasks missing from the task table.",
	"Tasks not entered because the task table was full.",
	"Saves executed at the switch save sites (verification mode).",
	"Deferred restores that reloaded the registers (x86).",
};
static const char *const hint_event_names[] = RVVSTAT_HINT_EVENT_NAMES;
static const char *const latency_names[] = RVVSTAT_LATENCY_NAMES;

_Static_assert(NR(counter_help) == NR(counter_names), "a help per counter");
_Static_assert(NR(cpu_event_help) == NR(cpu_event_names), "a help per CPU event");

static const struct family up_family = {
	"rvvstat_up", FAMILY_GAUGE, NULL, "1 if the module could be read, else 0.",
};

static void put_header(FILE *out, enum rvv_exposition_format format,
		       const struct family *f)
{
	static const char *const types[] = {
		[FAMILY_COUNTER] = "counter", [FAMILY_GAUGE] = "gauge",
		[FAMILY_HISTOGRAM] = "histogram", [FAMILY_INFO] = "info",
	};
	const char *type = types[f->type], *suffix = "";

	/* Prometheus text names a counter's family by its sample; no info type. */
	if (format == RVV_PROMETHEUS_TEXT && f->type == FAMILY_COUNTER)
		suffix = "_total";
	if (format == RVV_PROMETHEUS_TEXT && f->type == FAMILY_INFO) {
		suffix = "_info";
		type = "gauge";
	}
	fprintf(out, "# HELP %s%s %s\n# TYPE %s%s %s\n", f->name, suffix, f->help,
		f->name, suffix, type);
	if (format == RVV_OPENMETRICS && f->unit)
		fprintf(out, "# UNIT %s %s\n", f->name, f->unit);
}

static void put_gauge(FILE *out, enum rvv_exposition_format format,
		      const struct family *f, uint64_t value)
{
	put_header(out, format, f);
	fprintf(out, "%s %" PRIu64 "\n", f->name, value);
}

/* @ns as decimal seconds, exactly: "0.000000447". */
static void put_seconds(FILE *out, uint64_t ns)
{
	fprintf(out, "%" PRIu64 ".%09" PRIu64, ns / 1000000000, ns % 1000000000);
}

/* A label value from text another party controls: escaped, then quoted. */
static void put_label_value(FILE *out, const char *text)
{
	char safe[RVV_COMM_SAFE_SIZE];
	const char *p;

	rvv_format_untrusted(text, RVV_UNTRUSTED_TEXT, safe, sizeof(safe));
	fputc('"', out);
	for (p = safe; *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

struct per_cpu {
	const struct rvv_cpu_row *rows;
	size_t nr;
};

static void put_cpu_counter(FILE *out, enum rvv_exposition_format format,
			    const struct family *f, const struct per_cpu *cpus,
			    uint64_t (*value)(const struct rvv_cpu_row *row, int index),
			    int index)
{
	size_t i;

	put_header(out, format, f);
	for (i = 0; i < cpus->nr; i++)
		fprintf(out, "%s_total{cpu=\"%" PRIu32 "\"} %" PRIu64 "\n", f->name,
			cpus->rows[i].cpu, value(&cpus->rows[i], index));
}

static uint64_t cpu_counter(const struct rvv_cpu_row *row, int index)
{
	return row->counters[index];
}

static uint64_t cpu_event(const struct rvv_cpu_row *row, int index)
{
	return row->cpu_events[index];
}

static uint64_t cpu_bytes(const struct rvv_cpu_row *row, int index)
{
	(void)index;
	return row->bytes;
}

static void put_cpu_families(FILE *out, enum rvv_exposition_format format,
			     const struct per_cpu *cpus)
{
	static const struct family bytes = {
		"rvvstat_saved_bytes", FAMILY_COUNTER, "bytes",
		"Vector register state saved at context switches.",
	};
	char name[64];
	int i;

	for (i = 0; i < NR(counter_names); i++) {
		snprintf(name, sizeof(name), "rvvstat_%s", counter_names[i]);
		put_cpu_counter(out, format, &(struct family){ name, FAMILY_COUNTER,
			NULL, counter_help[i] }, cpus, cpu_counter, i);
	}
	for (i = 0; i < NR(cpu_event_names); i++) {
		snprintf(name, sizeof(name), "rvvstat_%s", cpu_event_names[i]);
		put_cpu_counter(out, format, &(struct family){ name, FAMILY_COUNTER,
			NULL, cpu_event_help[i] }, cpus, cpu_event, i);
	}
	put_cpu_counter(out, format, &bytes, cpus, cpu_bytes, 0);
}

static void put_module_families(FILE *out, enum rvv_exposition_format format,
				const struct rvv_info *info, const struct rvv_summary *s)
{
	static const struct family module = {
		"rvvstat", FAMILY_INFO, NULL, "The rvvstat module and its backend.",
	}, save_bytes = {
		"rvvstat_save_bytes", FAMILY_GAUGE, "bytes",
		"Register state saved per switch.",
	}, tasks = {
		"rvvstat_tasks_live", FAMILY_GAUGE, NULL,
		"Tasks in the module's task table.",
	}, slots = {
		"rvvstat_task_slots", FAMILY_GAUGE, NULL,
		"Rows of the module's task table.",
	}, hints = {
		"rvvstat_hints_live", FAMILY_GAUGE, NULL,
		"Hints set and not yet cleared or expired.",
	}, hint_events = {
		"rvvstat_hint_events", FAMILY_COUNTER, NULL,
		"What happened to hints, by event.",
	};
	int i;

	put_gauge(out, format, &up_family, 1);
	put_header(out, format, &module);
	fprintf(out, "rvvstat_info{abi_version=\"%" PRIu32 "\",backend=\"%s\",vector_bits=\"%"
		PRIu32 "\"} 1\n", info->abi_version, rvv_format_backend_name(info->backend),
		info->vector_bits);
	put_gauge(out, format, &save_bytes, info->bytes_per_save);
	put_gauge(out, format, &tasks, s->tasks_live);
	put_gauge(out, format, &slots, s->table_capacity);
	put_gauge(out, format, &hints, s->hints_live);
	put_header(out, format, &hint_events);
	for (i = 0; i < NR(hint_event_names); i++)
		fprintf(out, "rvvstat_hint_events_total{event=\"%s\"} %" PRIu64 "\n",
			hint_event_names[i], s->hint_events[i]);
}

static int put_histogram(FILE *out, struct rvv_client *c, int kind,
			 struct rvv_latency *h, struct rvv_error *err)
{
	const char *name = latency_names[kind];
	uint64_t cumulative = 0;
	int status, b;

	status = rvv_client_get_hist(c, kind, -1, h, err);
	if (status)
		return status;
	for (b = 0; b < RVVSTAT_CPU_HIST_BUCKETS - 1; b++) {
		if (!h->buckets[b])
			continue;
		cumulative += h->buckets[b];
		fprintf(out, "rvvstat_latency_seconds_bucket{kind=\"%s\",le=\"", name);
		put_seconds(out, rvvstat_hist_upper(b, h->sub_bits,
						    RVVSTAT_CPU_HIST_BUCKETS));
		fprintf(out, "\"} %" PRIu64 "\n", cumulative);
	}
	/* The last bucket has no bound; the count is what the buckets hold. */
	cumulative += h->buckets[RVVSTAT_CPU_HIST_BUCKETS - 1];
	fprintf(out, "rvvstat_latency_seconds_bucket{kind=\"%s\",le=\"+Inf\"} %"
		PRIu64 "\n", name, cumulative);
	fprintf(out, "rvvstat_latency_seconds_count{kind=\"%s\"} %" PRIu64 "\n",
		name, cumulative);
	fprintf(out, "rvvstat_latency_seconds_sum{kind=\"%s\"} ", name);
	put_seconds(out, h->sum_ns);
	fputc('\n', out);
	return 0;
}

static int put_latency_family(FILE *out, enum rvv_exposition_format format,
			      struct rvv_client *c, struct rvv_error *err)
{
	static const struct family latency = {
		"rvvstat_latency_seconds", FAMILY_HISTOGRAM, "seconds",
		"Vector-state switching latency by kind.",
	};
	struct rvv_latency *h = malloc(sizeof(*h));
	int kind, status = 0;

	if (!h)
		return rvv_fail(err, -ENOMEM, "scrape: no memory for a histogram");
	put_header(out, format, &latency);
	for (kind = 0; kind < NR(latency_names) && !status; kind++)
		status = put_histogram(out, c, kind, h, err);
	free(h);
	return status;
}

static void put_task_labels(FILE *out, const struct rvv_task_row *t)
{
	fprintf(out, "{tid=\"%" PRIu32 "\",pid=\"%" PRIu32 "\",comm=", t->tid, t->tgid);
	put_label_value(out, t->comm);
	fputc('}', out);
}

/* The @top threads that saved most (of those that saved at all). */
static int put_task_families(FILE *out, enum rvv_exposition_format format,
			     struct rvv_client *c, unsigned int top,
			     struct rvv_error *err)
{
	static const struct family saves = {
		"rvvstat_task_saves", FAMILY_COUNTER, NULL,
		"Vector state saves of a thread at context switches (top threads only).",
	}, bytes = {
		"rvvstat_task_saved_bytes", FAMILY_COUNTER, "bytes",
		"Vector register state saved for a thread (top threads only).",
	};
	struct rvv_task_row *rows;
	size_t nr, i;
	int status;

	status = rvv_collect_tasks(c, 0, &rows, &nr, err);
	if (status)
		return status;
	qsort(rows, nr, sizeof(*rows), rvv_task_by_saves_desc);
	while (nr && !rvv_saves(rows[nr - 1].counters))
		nr--;
	if (nr > top)
		nr = top;
	put_header(out, format, &saves);
	for (i = 0; i < nr; i++) {
		fprintf(out, "rvvstat_task_saves_total");
		put_task_labels(out, &rows[i]);
		fprintf(out, " %" PRIu64 "\n", rvv_saves(rows[i].counters));
	}
	put_header(out, format, &bytes);
	for (i = 0; i < nr; i++) {
		fprintf(out, "rvvstat_task_saved_bytes_total");
		put_task_labels(out, &rows[i]);
		fprintf(out, " %" PRIu64 "\n", rows[i].bytes);
	}
	free(rows);
	return 0;
}

int rvv_expose(FILE *out, struct rvv_client *c, const struct rvv_exposition *how,
	       struct rvv_error *err)
{
	struct per_cpu cpus = { 0 };
	struct rvv_cpu_row *rows = NULL;
	struct rvv_summary *s;
	struct rvv_info info;
	int status;

	s = malloc(sizeof(*s));
	if (!s)
		return rvv_fail(err, -ENOMEM, "scrape: no memory for the summary");
	status = rvv_client_get_info(c, &info, err);
	if (!status)
		status = rvv_client_get_summary(c, s, err);
	if (!status)
		status = rvv_collect_cpus(c, &rows, &cpus.nr, err);
	if (!status) {
		cpus.rows = rows;
		put_module_families(out, how->format, &info, s);
		put_cpu_families(out, how->format, &cpus);
		status = put_latency_family(out, how->format, c, err);
	}
	if (!status && how->top_tasks)
		status = put_task_families(out, how->format, c, how->top_tasks, err);
	if (!status && how->format == RVV_OPENMETRICS)
		fprintf(out, "# EOF\n");
	free(rows);
	free(s);
	return status;
}

int rvv_scrape(const struct rvv_exposition *how, char **body, size_t *len,
	       struct rvv_error *err)
{
	struct rvv_client *c;
	FILE *out;
	int status;

	*body = NULL;
	out = open_memstream(body, len);
	if (!out)
		return rvv_fail(err, -ENOMEM, "scrape: no memory");
	status = rvv_client_open(&c, err);
	if (!status) {
		status = rvv_expose(out, c, how, err);
		rvv_client_close(c);
	}
	if (status) {
		/* Half a scrape is never given out: only why there is none. */
		fclose(out);
		free(*body);
		*body = NULL;
		out = open_memstream(body, len);
		if (!out)
			return status;
		rvv_expose_down(out, how->format, err->message);
	}
	if (fclose(out)) {
		free(*body);
		*body = NULL;
	}
	return status;
}

void rvv_expose_down(FILE *out, enum rvv_exposition_format format, const char *why)
{
	const char *p;

	/* OpenMetrics has no comments; the text format's take @why, one line. */
	if (format == RVV_PROMETHEUS_TEXT) {
		fprintf(out, "# rvvstat: ");
		for (p = why; *p; p++)
			fputc(*p == '\n' ? ' ' : *p, out);
		fputc('\n', out);
	}
	put_gauge(out, format, &up_family, 0);
	if (format == RVV_OPENMETRICS)
		fprintf(out, "# EOF\n");
}

int rvv_exposition_top_tasks_option(void *ctx, const struct rvv_option *opt, const char *arg,
				    struct rvv_error *err)
{
	uint64_t top;

	if (rvv_parse_uint(arg, RVV_EXPOSITION_MAX_TOP_TASKS, &top))
		return rvv_fail(err, -EINVAL, "--top-tasks: \"%s\" is not a count from 0 to %d", arg,
				RVV_EXPOSITION_MAX_TOP_TASKS);
	*(unsigned int *)((char *)ctx + opt->offset) = (unsigned int)top;
	return 0;
}
