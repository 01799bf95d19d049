/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arms: the policies rvvbench compares, each a hint on /dev/rvvstat for the
 * server's process (every current and future thread), set before a cell's
 * window and cleared after it. What each thread ended up with is read back
 * by syscall (sched_getattr, sched_getaffinity), checked against the
 * request and kept with the results: a window whose threads did not get
 * what the arm asked for measured something else, and is refused.
 */
#ifndef RVVBENCH_ARM_H
#define RVVBENCH_ARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/error.h"
#include "../lib/parse.h"

#define BENCH_MAX_ARMS 8
#define BENCH_MASK_BYTES 128	/* 1024 CPUs */

struct bench_arm {
	char name[64];		/* as given; "none" is the baseline */
	bool has_cpus, has_policy, on_vector;
	uint8_t cpus[BENCH_MASK_BYTES];
	struct rvv_policy policy;
};

/*
 * "none", or "affinity:CPUS" and/or a policy as rvvctl hint takes it
 * ("batch", "fifo:10", "deadline:2ms/10ms/10ms"), joined by '+', then
 * "@on-vector" to apply at each thread's first vector use ("@now", the
 * default, at once). 0, or -EINVAL with @err saying what to write.
 */
int bench_arm_parse(const char *text, struct bench_arm *arm, struct rvv_error *err);

/* One thread as the syscalls read it back, at the end of a window. */
struct bench_thread_state {
	int tid;
	char comm[16];
	char policy[96];	/* as rvv_parse_policy() reads it */
	char cpus[256];		/* a CPU list */
	const char *hint;	/* the module's word for its hint: none, waiting, applied, failed */
	bool matches;		/* holds what the arm asked for */
};

struct bench_arm_state {
	struct bench_thread_state *threads;
	size_t n, applied;	/* applied: threads holding the arm's request */
};

/* Sets @arm's hint on process @pid through /dev/rvvstat (@fd); "none" sets nothing. */
int bench_arm_apply(int fd, const struct bench_arm *arm, int pid, struct rvv_error *err);

/*
 * Reads every thread of @pid back into @st, with @hint_of (tid -> the
 * module's hint word; may be NULL). When a thread the hint should hold
 * (every one for a "now" arm, those the module applied it to for
 * "@on-vector") does not, or an on-vector arm reached none: -EPROTO, with
 * @err naming the thread and, where the module failed to apply it, why
 * (the hint's last error, read on @fd: a deadline the kernel would not
 * admit is EBUSY).
 */
int bench_arm_check(int fd, const struct bench_arm *arm, int pid,
		    const char *(*hint_of)(void *ctx, int tid), void *ctx,
		    struct bench_arm_state *st, struct rvv_error *err);
void bench_arm_state_free(struct bench_arm_state *st);

struct rvv_task_row;

/*
 * Before the first window: 0 if no hint covers any of the server's @n
 * @rows (the module's task rows of process @pid), else -EBUSY with @err
 * naming the thread and how to clear it: a hint left by an rvvbench killed
 * mid-window would make every "none" window measure the arm.
 */
int bench_arm_stale(const struct rvv_task_row *rows, size_t n, int pid, struct rvv_error *err);

/* Clears @arm's hint on @pid: the threads get their baseline back. */
int bench_arm_clear(int fd, const struct bench_arm *arm, int pid, struct rvv_error *err);

#endif /* RVVBENCH_ARM_H */
