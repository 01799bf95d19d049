// SPDX-License-Identifier: GPL-2.0
/*
 * rvvctl export --openmetrics: the module's counters and histograms in
 * OpenMetrics 1.0 text, for node_exporter's textfile collector or any
 * scraper. Counters are per CPU (label cpu), as the module keeps them;
 * latency histograms are merged over the CPUs, in seconds, with one bucket
 * per non-empty histogram bucket (exact: bounds are whole nanoseconds).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/format.h"
#include "../lib/rows.h"
#include "commands.h"

static const char *const counter_names[] = RVVSTAT_COUNTER_NAMES;
static const char *const cpu_event_names[] = RVVSTAT_CPU_EVENT_NAMES;

#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))

/* What one family needs to know about every CPU row. */
struct cpu_rows {
	struct rvv_cpu_row *rows;
	size_t nr;
};

/* @ns as decimal seconds, exactly: "0.000000447". */
static void put_seconds(FILE *out, uint64_t ns)
{
	fprintf(out, "%" PRIu64 ".%09" PRIu64, ns / 1000000000, ns % 1000000000);
}

static void put_counter_family(FILE *out, const char *name,
			       const struct cpu_rows *cpus, int index,
			       bool is_event)
{
	size_t i;

	fprintf(out, "# TYPE rvvstat_%s counter\n", name);
	for (i = 0; i < cpus->nr; i++)
		fprintf(out, "rvvstat_%s_total{cpu=\"%" PRIu32 "\"} %" PRIu64 "\n",
			name, cpus->rows[i].cpu,
			is_event ? cpus->rows[i].cpu_events[index] :
				   cpus->rows[i].counters[index]);
}

static int put_histogram(FILE *out, struct rvv_client *c, int kind,
			 const char *name, struct rvv_latency *h,
			 struct rvv_error *err)
{
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

static int export_families(FILE *out, struct rvv_client *c,
			   const struct rvv_info *info,
			   const struct cpu_rows *cpus, struct rvv_error *err)
{
	const char *const *kinds;
	struct rvv_latency *h;
	int nr_kinds, i, status = 0;

	fprintf(out, "# TYPE rvvstat info\n# HELP rvvstat The rvvstat module and its backend.\n"
		"rvvstat_info{abi_version=\"%" PRIu32 "\",backend=\"%s\",vector_bits=\"%"
		PRIu32 "\"} 1\n", info->abi_version, rvv_format_backend_name(info->backend),
		info->vector_bits);
	fprintf(out, "# TYPE rvvstat_save_bytes gauge\n# UNIT rvvstat_save_bytes bytes\n"
		"# HELP rvvstat_save_bytes Register state saved per switch.\n"
		"rvvstat_save_bytes %" PRIu32 "\n", info->bytes_per_save);
	for (i = 0; i < NR(counter_names); i++)
		put_counter_family(out, counter_names[i], cpus, i, false);
	for (i = 0; i < NR(cpu_event_names); i++)
		put_counter_family(out, cpu_event_names[i], cpus, i, true);
	h = malloc(sizeof(*h));
	if (!h)
		return rvv_fail(err, -ENOMEM, "export: no memory");
	fprintf(out, "# TYPE rvvstat_latency_seconds histogram\n"
		"# UNIT rvvstat_latency_seconds seconds\n"
		"# HELP rvvstat_latency_seconds Vector-state switching latency by kind.\n");
	kinds = rvvctl_latency_names(&nr_kinds);
	for (i = 0; i < nr_kinds && !status; i++)
		status = put_histogram(out, c, i, kinds[i], h, err);
	free(h);
	fprintf(out, "# EOF\n");
	return status;
}

int rvvctl_export(struct rvv_client *c, struct rvv_error *err)
{
	struct cpu_rows cpus = { 0 };
	struct rvv_info info;
	int status;

	status = rvv_client_get_info(c, &info, err);
	if (!status)
		status = rvv_collect_cpus(c, &cpus.rows, &cpus.nr, err);
	if (!status)
		status = export_families(stdout, c, &info, &cpus, err);
	free(cpus.rows);
	return status ? status : output_flush(stdout);
}
