/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client of the module's generic netlink family (libnl-genl-3). Every
 * call returns 0 or a negative errno and, on failure, fills the rvv_error
 * with a sentence: the kernel's extended-ACK message where it sent one.
 */
#ifndef RVVSTAT_CLIENT_H
#define RVVSTAT_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/rvvstat.h>

#include "error.h"

struct rvv_client;

struct rvv_info {
	uint32_t abi_version;
	uint32_t backend;		/* enum rvvstat_backend */
	uint32_t vector_bits;
	uint32_t bytes_per_save;
	uint64_t features;		/* RVVSTAT_FEATURE_* */
	uint32_t nr_cpu_ids;
	uint32_t hint_capacity;
};

/* One latency kind; buckets only from rvv_client_get_hist(). */
struct rvv_latency {
	uint32_t kind;			/* enum rvvstat_latency */
	uint32_t sub_bits;
	uint64_t count, sum_ns, min_ns, max_ns, p50_ns, p95_ns, p99_ns;
	uint64_t buckets[RVVSTAT_CPU_HIST_BUCKETS];
};

struct rvv_summary {
	uint64_t time_ns;		/* CLOCK_MONOTONIC when taken */
	uint64_t elapsed_ns;		/* since load or the last reset */
	uint32_t tasks_live, table_capacity, hints_live;
	uint64_t counters[RVVSTAT_MAX_COUNTERS];
	uint64_t exited[RVVSTAT_MAX_COUNTERS];
	uint64_t cpu_events[RVVSTAT_MAX_CPU_EVENTS];
	uint64_t hint_events[RVVSTAT_MAX_HINT_EVENTS];
	uint64_t bytes;
	struct rvv_latency latency[RVVSTAT_NR_LATENCIES];
};

struct rvv_cpu_row {
	uint32_t cpu;
	uint64_t counters[RVVSTAT_MAX_COUNTERS];
	uint64_t cpu_events[RVVSTAT_MAX_CPU_EVENTS];
	uint64_t bytes;
};

struct rvv_task_row {
	uint32_t tid, tgid;
	char comm[16];
	uint64_t counters[RVVSTAT_MAX_COUNTERS];
	uint64_t bytes;
	/* Its switches that saved vector state: how many, their p99 and their
	 * histogram (the per-task layout: a bucket per power of two). */
	uint64_t switch_saved_count;
	/* Upper bound of its bucket; 0 if none; 8388608 (the last) means at least. */
	uint64_t switch_saved_p99_ns;
	uint64_t switch_saved_hist[RVVSTAT_TASK_HIST_BUCKETS];
	int32_t cpu;      /* last CPU it was switched in on; -1 if never seen */
	uint32_t hint;    /* enum rvvstat_task_hint */
};

/* Called per row of a dump; a non-zero return stops it and is returned. */
typedef int (*rvv_cpu_fn)(const struct rvv_cpu_row *row, void *arg);
typedef int (*rvv_task_fn)(const struct rvv_task_row *row, void *arg);

/*
 * Connects and resolves the family: -ENOENT if the module is not loaded,
 * -ENODEV if this CPU cannot run it, -EPROTONOSUPPORT if it is too old.
 */
int rvv_client_open(struct rvv_client **client, struct rvv_error *err);
void rvv_client_close(struct rvv_client *client);

int rvv_client_get_info(struct rvv_client *c, struct rvv_info *info,
			struct rvv_error *err);
int rvv_client_get_summary(struct rvv_client *c, struct rvv_summary *s,
			   struct rvv_error *err);
int rvv_client_dump_cpus(struct rvv_client *c, rvv_cpu_fn fn, void *arg,
			 struct rvv_error *err);
/* Every task row, or those of process @tgid if it is not 0. */
int rvv_client_dump_tasks(struct rvv_client *c, uint32_t tgid, rvv_task_fn fn,
			  void *arg, struct rvv_error *err);
/* The histogram of @kind on @cpu, or merged over every CPU if @cpu < 0. */
int rvv_client_get_hist(struct rvv_client *c, uint32_t kind, int cpu,
			struct rvv_latency *hist, struct rvv_error *err);
/* Zeroes the counters and event histograms; needs CAP_SYS_ADMIN. */
int rvv_client_reset(struct rvv_client *c, struct rvv_error *err);

#endif /* RVVSTAT_CLIENT_H */
