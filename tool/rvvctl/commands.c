// SPDX-License-Identifier: GPL-2.0
/*
 * rvvctl's read commands over the netlink family: what each prints, in
 * whichever format (output.h). The rows of cpus and tasks have the debugfs
 * files' columns.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rvvstat/hist.h>

#include "../lib/format.h"
#include "../lib/rows.h"
#include "commands.h"
#include "output.h"

static const char *const counter_names[] = RVVSTAT_COUNTER_NAMES;
static const char *const cpu_event_names[] = RVVSTAT_CPU_EVENT_NAMES;
static const char *const latency_names[] = RVVSTAT_LATENCY_NAMES;

#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))

const char *const *rvvctl_latency_names(int *nr)
{
	*nr = NR(latency_names);
	return latency_names;
}

static const struct {
	uint64_t bit;
	const char *name;
} feature_names[] = {
	{ RVVSTAT_FEATURE_SWITCH_TIMING, "switch_timing" },
	{ RVVSTAT_FEATURE_SAVE_PROBES, "save_probes" },
	{ RVVSTAT_FEATURE_VERIFY, "verify" },
	{ RVVSTAT_FEATURE_VECTOR_USE, "vector_use" },
	{ RVVSTAT_FEATURE_RESTORE_PROBES, "restore_probes" },
};

int rvvctl_info(struct rvv_client *c, struct output *o, struct rvv_error *err)
{
	struct rvv_info info;
	int status, i;

	status = rvv_client_get_info(c, &info, err);
	if (status)
		return status;
	out_open_object(o, NULL);
	out_u64(o, "abi_version", "abi_version %" PRIu64 "\n", info.abi_version);
	out_string(o, "backend", "backend %s\n", rvv_format_backend_name(info.backend));
	out_u64(o, "vector_bits", "vector_bits %" PRIu64 "\n", info.vector_bits);
	out_u64(o, "bytes_per_save", "bytes_per_save %" PRIu64 "\n", info.bytes_per_save);
	out_u64(o, "nr_cpu_ids", "nr_cpu_ids %" PRIu64 "\n", info.nr_cpu_ids);
	out_u64(o, "hint_capacity", "hint_capacity %" PRIu64 "\n", info.hint_capacity);
	out_text(o, "features");
	out_open_array(o, "features");
	for (i = 0; i < NR(feature_names); i++)
		if (info.features & feature_names[i].bit)
			out_string(o, NULL, " %s", feature_names[i].name);
	out_close(o);
	out_text(o, "\n");
	out_close(o);
	return 0;
}

static double per_second(uint64_t count, uint64_t elapsed_ns)
{
	return elapsed_ns ? (double)count * 1e9 / (double)elapsed_ns : 0;
}

/*
 * The summary for people: what it counts (debugfs' line), counts beside their
 * rates, then percentiles.
 */
static void summary_report(struct output *o, const struct rvv_info *info,
			   const struct rvv_summary *s)
{
	int i;

	out_text(o, "vector state: %s, %" PRIu32 "-bit registers, %" PRIu32 " bytes per save\n",
		 rvv_format_backend_title(info->backend), info->vector_bits,
		 info->bytes_per_save);
	out_text(o, "counting for %.1f s since load or reset; %" PRIu32
		 " tasks live of %" PRIu32 " slots; %" PRIu32 " hints live\n\n",
		 (double)s->elapsed_ns / 1e9, s->tasks_live, s->table_capacity,
		 s->hints_live);
	out_text(o, "%-20s %16s %16s %14s\n", "counter", "count", "of exited", "per second");
	for (i = 0; i < NR(counter_names); i++)
		out_text(o, "%-20s %16" PRIu64 " %16" PRIu64 " %14.1f\n", counter_names[i],
			 s->counters[i], s->exited[i],
			 per_second(s->counters[i], s->elapsed_ns));
	out_text(o, "%-20s %16" PRIu64 " %16s %14.1f\n", "bytes", s->bytes, "",
		 per_second(s->bytes, s->elapsed_ns));
	out_text(o, "\n%-16s %10s %10s %10s %10s %10s %10s %10s\n", "latency (ns)",
		 "count", "min", "p50", "p95", "p99", "max", "mean");
	for (i = 0; i < NR(latency_names); i++) {
		const struct rvv_latency *l = &s->latency[i];

		if (!l->count)
			continue;
		out_text(o, "%-16s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n",
			 latency_names[i], l->count, l->min_ns, l->p50_ns, l->p95_ns,
			 l->p99_ns, l->max_ns, l->sum_ns / l->count);
	}
}

int rvvctl_summary(struct rvv_client *c, struct output *o, struct rvv_error *err)
{
	struct rvv_summary *s = malloc(sizeof(*s));
	struct rvv_info info;
	int status;

	if (!s)
		return rvv_fail(err, -ENOMEM, "summary: no memory");
	status = rvv_client_get_info(c, &info, err);
	if (!status)
		status = rvv_client_get_summary(c, s, err);
	if (!status) {
		summary_report(o, &info, s);
		rvvctl_summary_data(o, s);
	}
	free(s);
	return status;
}

/* The columns of a cpus row: the counters, the CPU events, then bytes. */
#define CPU_COLUMNS	(1 + NR(counter_names) + NR(cpu_event_names) + 1)

static int cpu_row(const struct rvv_cpu_row *row, void *arg)
{
	const char *names[CPU_COLUMNS] = { "cpu" };
	uint64_t v[CPU_COLUMNS] = { row->cpu };
	int n = 1, i;

	for (i = 0; i < NR(counter_names); i++, n++) {
		names[n] = counter_names[i];
		v[n] = row->counters[i];
	}
	for (i = 0; i < NR(cpu_event_names); i++, n++) {
		names[n] = cpu_event_names[i];
		v[n] = row->cpu_events[i];
	}
	names[n] = "bytes";
	v[n++] = row->bytes;
	table_row(arg, names, v, n, NULL, 0);
	return 0;
}

int rvvctl_cpus(struct rvv_client *c, struct output *o, struct rvv_error *err)
{
	const char *names[CPU_COLUMNS] = { "cpu" };
	int n = 1, i;

	for (i = 0; i < NR(counter_names); i++)
		names[n++] = counter_names[i];
	for (i = 0; i < NR(cpu_event_names); i++)
		names[n++] = cpu_event_names[i];
	names[n++] = "bytes";
	table_begin(o, names, n, NULL, 0);
	return rvv_client_dump_cpus(c, cpu_row, o, err);
}

static int by_p99_desc(const void *a, const void *b)
{
	uint64_t x = ((const struct rvv_task_row *)a)->switch_saved_p99_ns;
	uint64_t y = ((const struct rvv_task_row *)b)->switch_saved_p99_ns;

	return x < y ? 1 : x > y ? -1 : 0;
}

static int by_bytes_desc(const void *a, const void *b)
{
	uint64_t x = ((const struct rvv_task_row *)a)->bytes;
	uint64_t y = ((const struct rvv_task_row *)b)->bytes;

	return x < y ? 1 : x > y ? -1 : 0;
}

#define TASK_COLUMNS	(2 + NR(counter_names) + 1)

/*
 * After the counters: the p99 of its saving switches (its bucket for
 * people), the last CPU, the hint state, and comm (spaces; as
 * rvv_format_untrusted() makes it safe).
 */
static const char *const task_tail_names[] = {
	RVV_SWITCH_SAVED_P99_NAME, "cpu", "hint", "comm"
};

static void task_print(struct output *o, const struct rvv_task_row *row)
{
	const char *names[TASK_COLUMNS] = { "tid", "tgid" };
	uint64_t v[TASK_COLUMNS] = { row->tid, row->tgid };
	char p99[24];
	const struct table_cell tail[] = {
		{ .name = task_tail_names[0], .number = (int64_t)row->switch_saved_p99_ns,
		  .human = rvv_format_task_p99(row->switch_saved_p99_ns, p99, sizeof(p99)) },
		{ .name = task_tail_names[1], .number = row->cpu },
		{ .name = task_tail_names[2], .text = rvv_format_task_hint(row->hint) },
		{ .name = task_tail_names[3], .text = row->comm, .untrusted = true },
	};
	int n = 2, i;

	for (i = 0; i < NR(counter_names); i++, n++) {
		names[n] = counter_names[i];
		v[n] = row->counters[i];
	}
	names[n] = "bytes";
	v[n++] = row->bytes;
	table_row(o, names, v, n, tail, NR(tail));
}

int rvvctl_tasks(struct rvv_client *c, struct output *o, uint32_t tgid,
		 enum task_order order, struct rvv_error *err)
{
	const char *names[TASK_COLUMNS] = { "tid", "tgid" };
	struct rvv_task_row *rows;
	int n = 2, i, status;
	size_t nr, r;

	status = rvv_collect_tasks(c, tgid, &rows, &nr, err);
	if (status)
		return status;
	if (order == ORDER_SAVES)
		qsort(rows, nr, sizeof(*rows), rvv_task_by_saves_desc);
	else if (order == ORDER_BYTES)
		qsort(rows, nr, sizeof(*rows), by_bytes_desc);
	else if (order == ORDER_P99)
		qsort(rows, nr, sizeof(*rows), by_p99_desc);
	for (i = 0; i < NR(counter_names); i++)
		names[n++] = counter_names[i];
	names[n++] = "bytes";
	table_begin(o, names, n, task_tail_names, NR(task_tail_names));
	for (r = 0; r < nr; r++)
		task_print(o, &rows[r]);
	free(rows);
	return 0;
}

/* The non-empty buckets of a histogram in the layout @sub_bits, @nr long. */
static void print_buckets(struct output *o, const uint64_t *counts, int nr,
			  unsigned int sub_bits)
{
	static const char *const names[] = { "lower_ns", "upper_ns", "count" };
	int b;

	table_begin(o, names, NR(names), NULL, 0);
	for (b = 0; b < nr; b++) {
		uint64_t v[3];

		if (!counts[b])
			continue;
		v[0] = rvvstat_hist_lower(b, sub_bits);
		v[1] = rvvstat_hist_upper(b, sub_bits, nr);
		v[2] = counts[b];
		table_row(o, names, v, NR(names), NULL, 0);
	}
}

int rvvctl_hist(struct rvv_client *c, struct output *o, uint32_t kind, int cpu,
		struct rvv_error *err)
{
	struct rvv_latency *h = malloc(sizeof(*h));
	int status;

	if (!h)
		return rvv_fail(err, -ENOMEM, "hist: no memory");
	status = rvv_client_get_hist(c, kind, cpu, h, err);
	if (!status)
		print_buckets(o, h->buckets, RVVSTAT_CPU_HIST_BUCKETS, h->sub_bits);
	free(h);
	return status;
}

struct task_hist {
	uint32_t tid;
	bool found;
	struct rvv_task_row row;
};

static int find_task(const struct rvv_task_row *row, void *arg)
{
	struct task_hist *th = arg;

	if (row->tid != th->tid)
		return 0;
	th->row = *row;
	th->found = true;
	return 0;	/* the dump runs to its end: the socket stays clean */
}

int rvvctl_task_hist(struct rvv_client *c, struct output *o, uint32_t tid,
		     struct rvv_error *err)
{
	struct task_hist th = { .tid = tid };
	int status;

	status = rvv_client_dump_tasks(c, 0, find_task, &th, err);
	if (status)
		return status;
	if (!th.found)
		return rvv_fail(err, -ESRCH,
				"hist: no thread %u in the module's table (not seen using vector state, exited, or not visible to you)",
				tid);
	print_buckets(o, th.row.switch_saved_hist, RVVSTAT_TASK_HIST_BUCKETS,
		      RVVSTAT_TASK_HIST_SUB_BITS);
	return 0;
}
