// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../lib/client.h"
#include "../lib/device.h"
#include "../lib/format.h"
#include "arm.h"
#include "proc.h"

static const char arm_syntax[] =
	"write none, or affinity:CPUS and/or a policy (normal[:NICE], batch[:NICE], idle, fifo:PRIO, rr:PRIO, deadline:RUNTIME/DEADLINE/PERIOD) joined by +, then @on-vector or @now";

int bench_arm_parse(const char *text, struct bench_arm *arm, struct rvv_error *err)
{
	char buf[sizeof(arm->name)], *save, *part, *at;

	memset(arm, 0, sizeof(*arm));
	if (snprintf(buf, sizeof(buf), "%s", text) >= (int)sizeof(buf))
		return rvv_fail(err, -EINVAL, "--policy %.40s...: too long", text);
	snprintf(arm->name, sizeof(arm->name), "%s", text);
	if (!strcmp(text, "none"))
		return 0;
	at = strchr(buf, '@');
	if (at) {
		*at++ = '\0';
		if (!strcmp(at, "on-vector"))
			arm->on_vector = true;
		else if (strcmp(at, "now"))
			return rvv_fail(err, -EINVAL, "--policy %s: @%s: %s", text, at, arm_syntax);
	}
	for (part = strtok_r(buf, "+", &save); part; part = strtok_r(NULL, "+", &save)) {
		int rc;

		if (!strncmp(part, "affinity:", 9) && !arm->has_cpus) {
			rc = rvv_parse_cpulist(part + 9, arm->cpus, sizeof(arm->cpus));
			arm->has_cpus = !rc;
		} else if (!arm->has_policy) {
			rc = rvv_parse_policy(part, &arm->policy);
			arm->has_policy = !rc;
		} else {
			rc = -EINVAL;
		}
		if (rc == -ERANGE)
			return rvv_fail(err, -ERANGE, "--policy %s: %s is out of range (nice -20..19, priority 1..99, CPUs below %d)",
					text, part, BENCH_MASK_BYTES * 8);
		if (rc)
			return rvv_fail(err, -EINVAL, "--policy %s: %s", text, arm_syntax);
	}
	if (!arm->has_cpus && !arm->has_policy)
		return rvv_fail(err, -EINVAL, "--policy %s: %s", text, arm_syntax);
	return 0;
}

/* The hint @arm sets on process @pid; the mask stays @arm's. */
static void arm_hint(const struct bench_arm *arm, int pid, struct rvvstat_hint *h)
{
	rvv_hint_fill(h, pid, true, arm->has_cpus ? arm->cpus : NULL, sizeof(arm->cpus),
		      arm->has_policy ? &arm->policy : NULL, arm->on_vector);
}

/* @op (set or clear) of hint @h for @arm; "none" has none. */
static int arm_ioctl(int fd, const struct bench_arm *arm, struct rvvstat_hint *h,
		     int (*op)(int fd, struct rvvstat_hint *h, struct rvv_error *err),
		     struct rvv_error *err)
{
	struct rvv_error why;
	int rc;

	if (!arm->has_cpus && !arm->has_policy)
		return 0;
	rc = op(fd, h, &why);
	return rc ? rvv_fail(err, rc, "--policy %s: %s", arm->name, why.message) : 0;
}

int bench_arm_apply(int fd, const struct bench_arm *arm, int pid, struct rvv_error *err)
{
	struct rvvstat_hint h;

	arm_hint(arm, pid, &h);
	return arm_ioctl(fd, arm, &h, rvv_hint_set, err);
}

int bench_arm_clear(int fd, const struct bench_arm *arm, int pid, struct rvv_error *err)
{
	struct rvvstat_hint h;

	rvv_hint_fill(&h, pid, true, NULL, 0, NULL, false);
	return arm_ioctl(fd, arm, &h, rvv_hint_clear, err);
}

/*
 * sched_attr as sched_getattr(2) fills it: <linux/sched/types.h> cannot be
 * included beside glibc's <sched.h> (both define struct sched_param).
 */
struct sched_attr_v1 {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

/* What thread @tid runs with now; -ESRCH if it is gone. */
static int read_back(int tid, struct rvv_policy *p, uint8_t *mask, size_t bytes)
{
	struct sched_attr_v1 attr = { .size = sizeof(attr) };

	if (syscall(SYS_sched_getattr, tid, &attr, sizeof(attr), 0) ||
	    sched_getaffinity(tid, bytes, (cpu_set_t *)mask))
		return -errno;
	*p = (struct rvv_policy){
		.policy = attr.sched_policy, .nice = attr.sched_nice,
		.rt_priority = attr.sched_priority, .runtime_ns = attr.sched_runtime,
		.deadline_ns = attr.sched_deadline, .period_ns = attr.sched_period,
	};
	return 0;
}

static bool policy_matches(const struct rvv_policy *want, const struct rvv_policy *got)
{
	const struct rvv_policy_syntax *syntax = rvv_policy_syntax(want->policy);

	if (want->policy != got->policy)
		return false;
	switch (syntax ? syntax->arg : RVV_POLICY_NO_ARG) {
	case RVV_POLICY_NICE:
		return want->nice == got->nice;
	case RVV_POLICY_PRIORITY:
		return want->rt_priority == got->rt_priority;
	case RVV_POLICY_DEADLINE:
		return want->runtime_ns == got->runtime_ns && want->deadline_ns == got->deadline_ns &&
		       want->period_ns == got->period_ns;
	default:
		return true;
	}
}

/* A non-empty subset of the request: the module narrows it to the thread's cpuset. */
static bool cpus_match(const uint8_t *want, const uint8_t *got, size_t bytes)
{
	bool any = false;

	for (size_t i = 0; i < bytes; i++) {
		if (got[i] & ~want[i])
			return false;
		any |= got[i] != 0;
	}
	return any;
}

/* Why the module could not apply @arm's hint on @pid, from its last error. */
static int refused(int fd, const struct bench_arm *arm, int pid,
		   const struct bench_thread_state *t, struct rvv_error *err)
{
	struct rvvstat_hint h;
	struct rvv_error ignored;

	rvv_hint_fill(&h, pid, true, NULL, 0, NULL, false);
	if (rvv_hint_get(fd, &h, &ignored) || !h.last_error)
		return rvv_fail(err, -EPROTO, "--policy %s: the module could not apply it to thread %d (%s); see rvvctl hint get --pid %d",
				arm->name, t->tid, t->comm, pid);
	return rvv_fail(err, -EPROTO, "--policy %s: the module could not apply it to thread %d (%s): %s",
			arm->name, t->tid, t->comm, rvv_hint_strerror(-h.last_error, true));
}

int bench_arm_check(int fd, const struct bench_arm *arm, int pid,
		    const char *(*hint_of)(void *ctx, int tid), void *ctx,
		    struct bench_arm_state *st, struct rvv_error *err)
{
	bool hinted = arm->has_cpus || arm->has_policy;
	struct bench_thread_sched *threads;
	size_t n;
	int rc;

	memset(st, 0, sizeof(*st));
	rc = bench_proc_threads(pid, &threads, &n, err);
	if (rc)
		return rc;
	st->threads = calloc(n, sizeof(*st->threads));
	if (!st->threads) {
		free(threads);
		return rvv_fail(err, -ENOMEM, "out of memory reading the server's threads back");
	}
	for (size_t i = 0; i < n && !rc; i++) {
		struct bench_thread_state *t = &st->threads[st->n];
		uint8_t mask[BENCH_MASK_BYTES] = { 0 };
		struct rvv_policy p;
		bool due;

		if (read_back(threads[i].tid, &p, mask, sizeof(mask)))
			continue;	/* it ended since the listing */
		st->n++;
		t->tid = threads[i].tid;
		memcpy(t->comm, threads[i].comm, sizeof(t->comm));
		rvv_format_policy(&p, t->policy, sizeof(t->policy));
		rvv_format_cpulist(mask, sizeof(mask), t->cpus, sizeof(t->cpus));
		t->hint = hint_of ? hint_of(ctx, t->tid) : "none";
		t->matches = (!arm->has_policy || policy_matches(&arm->policy, &p)) &&
			     (!arm->has_cpus || cpus_match(arm->cpus, mask, sizeof(mask)));
		due = hinted && (!arm->on_vector || !strcmp(t->hint, "applied"));
		if (hinted && !strcmp(t->hint, "failed"))
			rc = refused(fd, arm, pid, t, err);
		else if (due && !t->matches)
			rc = rvv_fail(err, -EPROTO, "--policy %s: thread %d (%s) runs with %s on CPUs %s, not what was asked; something else changed it",
				      arm->name, t->tid, t->comm, t->policy, t->cpus);
		st->applied += hinted && t->matches && due;
	}
	free(threads);
	if (!rc && hinted && !st->applied)
		rc = rvv_fail(err, -EPROTO, "--policy %s: no thread of the server (pid %d) holds it%s",
			      arm->name, pid, arm->on_vector ? ": none used vector state in the window" : "");
	if (rc)
		bench_arm_state_free(st);
	return rc;
}

void bench_arm_state_free(struct bench_arm_state *st)
{
	free(st->threads);
	memset(st, 0, sizeof(*st));
}

int bench_arm_stale(const struct rvv_task_row *rows, size_t n, int pid, struct rvv_error *err)
{
	for (size_t i = 0; i < n; i++) {
		char comm[RVV_COMM_SAFE_SIZE];

		if (rows[i].hint == RVVSTAT_TASK_HINT_NONE)
			continue;
		rvv_format_untrusted(rows[i].comm, RVV_UNTRUSTED_TEXT, comm, sizeof(comm));
		return rvv_fail(err, -EBUSY,
				"the server's thread %u (%s) is still under a hint (%s), left by a run stopped mid-window: clear it with \"sudo rvvctl hint clear --pid %d\" (its threads get their baseline back) and run again",
				rows[i].tid, comm, rvv_format_task_hint(rows[i].hint), pid);
	}
	return 0;
}
