/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU hog, rvvbench's contention axis: one thread pinned to each CPU of
 * a list, busy for duty % of every fixed period and asleep for the rest (on
 * CLOCK_MONOTONIC, absolute deadlines, so a late wake-up does not drift the
 * period). It is started before a cell's window and stopped after it, and
 * says what it achieved: loop iterations and its own CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so a policy's gain shows who paid for it.
 * At duty 0 the threads sleep until stopped, with no timer wake-ups, and
 * they are SCHED_OTHER at any duty, whatever policy rvvbench itself has.
 */
#ifndef RVVBENCH_HOG_H
#define RVVBENCH_HOG_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/error.h"

#define BENCH_HOG_MAX_CPUS 256

struct bench_hog_result {
	size_t n_cpus;
	uint64_t iterations;	/* summed over the threads */
	double cpu_s;		/* their CPU time, summed */
	double wall_s;		/* start to stop, per thread (the longest) */
	double slept_s;		/* asleep between busy parts, summed: wall time, not CPU
				 * time, so it shows the duty whatever else runs */
	double wait_s;		/* runnable but not running (schedstat), summed: what
				 * it lost to others; NAN where the kernel does not say */
};

struct bench_hog_thread;

struct bench_hog {
	struct bench_hog_thread *threads;
	size_t n;
	volatile int stop;
	pthread_mutex_t lock;	/* with wake: duty 0's threads sleep until the stop */
	pthread_cond_t wake;
};

/*
 * Starts one thread per CPU of @cpus (@n_cpus of them), each busy @duty
 * percent (0..100) of every @period_ms. 0, or -errno with @err (a thread
 * that cannot be created or pinned: the CPU is offline or not ours).
 */
int bench_hog_start(struct bench_hog *hog, const int *cpus, size_t n_cpus, int duty,
		    double period_ms, struct rvv_error *err);
/* Stops and joins the threads and fills @res. */
void bench_hog_stop(struct bench_hog *hog, struct bench_hog_result *res);
/* The CPUs this process may run on (every online one, unless restricted): how many. */
size_t bench_hog_default_cpus(int *cpus, size_t max);
/* "0-3,6" into @cpus; the count, or -EINVAL. */
int bench_cpu_list_parse(const char *text, int *cpus, size_t max);

#endif /* RVVBENCH_HOG_H */
