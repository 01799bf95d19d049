/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arms: the policies rvvbench compares, each a hint on /dev/rvvstat for the
 * server's process (every current and future thread), with a second tier,
 * if asked, for the threads that use vector state (each one's own hint),
 * set before a cell's window and cleared after it. What each thread ended
 * up with is read back by syscall (sched_getattr, sched_getaffinity),
 * checked against the request and kept with the results: a window whose
 * threads did not get what the arm asked for measured something else, and
 * is refused.
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

/* What one tier of an arm asks of its threads. */
struct bench_tier {
	bool has_cpus, has_policy, on_vector;
	uint8_t cpus[BENCH_MASK_BYTES];
	struct rvv_policy policy;
};

enum bench_tier_id {
	BENCH_TIER_PROCESS,	/* a process hint: every thread */
	BENCH_TIER_VECTOR,	/* a thread hint on each, at its first vector use */
	BENCH_NR_TIERS
};

struct bench_arm {
	char name[96];		/* as given; "none" is the baseline */
	bool tiered;		/* has a vector tier */
	struct bench_tier tier[BENCH_NR_TIERS];
};

/*
 * "none", or a tier: "affinity:CPUS" and/or a policy as rvvctl hint takes
 * it ("batch", "fifo:10", "deadline:2ms/10ms/10ms"), joined by '+', then
 * "@on-vector" to apply at each thread's first vector use ("@now", the
 * default, at once). A second tier, ",vector=TIER", puts the threads that
 * use vector state on their own hint at their first vector use (so its
 * "@on-vector" is implied), the others keeping the first tier, then @now:
 * "fifo:11,vector=fifo:10". 0, or -EINVAL or -ERANGE with @err saying
 * what to write.
 */
int bench_arm_parse(const char *text, struct bench_arm *arm, struct rvv_error *err);

/* What thread @tid (0: the caller) runs with now, by sched_getattr(2); -errno. */
int bench_thread_policy(int tid, struct rvv_policy *p);
/* Whether @p is real-time: it runs before every SCHED_OTHER thread. */
bool bench_policy_real_time(const struct rvv_policy *p);
/* Whether a tier of @arm makes threads real-time. */
bool bench_arm_real_time(const struct bench_arm *arm);

/* One thread as the syscalls read it back, at the end of a window. */
struct bench_thread_state {
	int tid;
	char comm[16];
	char policy[96];	/* as rvv_parse_policy() reads it */
	char cpus[256];		/* a CPU list */
	const char *hint;	/* the module's word for its hint: none, waiting, applied, failed */
	const char *tier;	/* of a two-tier arm: the one it holds or should; else NULL */
	bool matches;		/* holds what the arm (that tier) asked for */
};

struct bench_arm_state {
	struct bench_thread_state *threads;
	size_t n, applied;	/* applied: threads holding the arm's request */
};

extern const char *const bench_tier_names[BENCH_NR_TIERS];

/* What bench_arm_apply() set, for bench_arm_check() and bench_arm_clear(). */
struct bench_arm_held {
	bool process;		/* the process hint */
	int *tids;		/* the threads given the vector tier's own hint */
	size_t n;
};

/*
 * Sets @arm's hints on process @pid through /dev/rvvstat (@fd), noting
 * them in @held: the process tier as a process hint, then the vector
 * tier's as each current thread's own hint at its first vector use (a
 * thread's own hint outranks its process's; until that use the thread
 * keeps the process tier; one that already used vector state takes it at
 * once). A thread started later gets the process tier only. "none" sets
 * nothing. What it set before a failure is cleared.
 */
int bench_arm_apply(int fd, const struct bench_arm *arm, int pid, struct bench_arm_held *held,
		    struct rvv_error *err);

/*
 * Reads every thread of @pid back into @st, with @hint_of (tid -> the
 * module's hint word; may be NULL) and which tier it holds (@held: the
 * threads with their own hint). When a thread the hint should hold (every
 * one for a "now" arm, those the module applied it to for "@on-vector";
 * for two tiers, the vector tier where it was applied and the process tier
 * elsewhere) does not, or an on-vector arm or a vector tier reached none:
 * -EPROTO, with @err naming the thread and, where the module failed to
 * apply it, why (the hint's last error, read on @fd: a deadline the
 * kernel would not admit is EBUSY).
 */
int bench_arm_check(int fd, const struct bench_arm *arm, int pid, const struct bench_arm_held *held,
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

/*
 * Clears what @held says was set of @arm on @pid, the threads' own hints
 * first (one whose thread ended went with it), then frees @held: the
 * threads get their baseline back.
 */
int bench_arm_clear(int fd, const struct bench_arm *arm, int pid, struct bench_arm_held *held,
		    struct rvv_error *err);

#endif /* RVVBENCH_ARM_H */
