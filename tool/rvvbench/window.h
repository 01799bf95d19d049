/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a cell's window cost in vector state, and how the scheduler treated
 * the server: marks taken at its start and end (the module's summary and
 * the server's task rows, the server's /metrics, /proc for each of its
 * threads) and the deltas between them, split by thread class. The
 * module's counts are exact; the classes are the server's threads that
 * used vector state in the window, its other threads, and everything else.
 */
#ifndef RVVBENCH_WINDOW_H
#define RVVBENCH_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "../lib/client.h"
#include "../lib/stats.h"
#include "../lib/llama.h"
#include "load.h"
#include "proc.h"

enum bench_class {
	BENCH_SERVER_VECTOR,	/* the server's threads that used vector state */
	BENCH_SERVER_OTHER,	/* its other threads */
	BENCH_REST,		/* every other task (the hog, rvvbench, the system) */
	BENCH_NR_CLASSES
};

struct bench_class_cost {
	size_t threads;				/* 0 for BENCH_REST: not counted */
	uint64_t counters[RVVSTAT_NR_COUNTERS];
	/* From /proc, the server's classes only. */
	uint64_t voluntary, involuntary, wait_ns;
	bool wait_unknown;			/* a thread without schedstat (no CONFIG_SCHED_INFO) */
	int64_t migrations;			/* -1 where the kernel does not say */
};

/* Whom a mark reads. */
struct bench_observer {
	struct rvv_client *client;	/* NULL: no module */
	int pid;			/* the server; 0: not known */
	const char *url;		/* for /metrics; NULL: not read */
	long timeout_ms;
};

struct bench_mark {
	bool module, metrics;
	struct rvv_summary sum;
	struct rvv_task_row *rows;		/* the server's */
	size_t n_rows;
	struct bench_thread_sched *threads;	/* the server's */
	size_t n_threads;
	struct rvv_llama_metrics m;
};

struct bench_window {
	bool module, sched;
	struct rvv_delta all;			/* every task */
	struct bench_class_cost cls[BENCH_NR_CLASSES];
	double save_ns;		/* the module's calibrated cost of one save; NAN without */
	double metrics[RVV_LLAMA_NR_SERIES];	/* /metrics deltas */
	unsigned int metrics_present;
	long tokens;		/* output tokens of every request in the window */
	size_t server_exited;	/* server threads gone by the end: their counts are in rest's */
	unsigned int n_cpus;	/* online, for the share of time */
};

extern const char *const bench_class_names[BENCH_NR_CLASSES];

/* Reads what @ob can; what it cannot stays absent. -errno only for memory. */
int bench_mark_take(const struct bench_observer *ob, struct bench_mark *m, struct rvv_error *err);
void bench_mark_free(struct bench_mark *m);

/*
 * @end minus @start into @w, with @run's tokens. -ERANGE, with @err, if the
 * module's counters went back (a reset or reload in the window).
 */
int bench_window_of(const struct bench_mark *start, const struct bench_mark *end,
		    const struct bench_run *run, struct bench_window *w, struct rvv_error *err);

/* The server's saves (user + kernel) per 1000 output tokens; NAN without. */
double bench_window_saves_per_ktok(const struct bench_window *w);
/* The same per llama_decode() call (n_decode_total); NAN without. */
double bench_window_saves_per_decode(const struct bench_window *w);
/* The share of all CPUs' time spent saving vector state (every task); NAN without. */
double bench_window_save_share(const struct bench_window *w);

/* "v": the window as JSON (null where the module or /metrics were absent). */
struct json_object *bench_window_json(const struct bench_window *w);

#endif /* RVVBENCH_WINDOW_H */
