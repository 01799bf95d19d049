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

static const char tier_syntax[] =
	"affinity:CPUS and/or a policy (normal[:NICE], batch[:NICE], idle, fifo:PRIO, rr:PRIO, deadline:RUNTIME/DEADLINE/PERIOD) joined by +";
static const char two_tiers[] = "fifo:11,vector=fifo:10";

/* Says what to write for @text's @vector tier, or its process tier. */
static int tier_syntax_error(const char *text, bool vector, struct rvv_error *err)
{
	if (vector)
		return rvv_fail(err, -EINVAL, "--policy %s: after vector=, write %s (@on-vector is implied)",
				text, tier_syntax);
	return rvv_fail(err, -EINVAL, "--policy %s: write none, or %s, then @on-vector or @now; for two tiers add ,vector= and the tier of the threads that use vector state, as %s",
			text, tier_syntax, two_tiers);
}

/* One tier of arm @text, from @buf (cut in place): its @vector tier or its process tier. */
static int tier_parse(const char *text, bool vector, char *buf, struct bench_tier *t,
		      struct rvv_error *err)
{
	char *save, *part, *at;

	at = strchr(buf, '@');
	if (at) {
		*at++ = '\0';
		if (!strcmp(at, "on-vector"))
			t->on_vector = true;
		else if (strcmp(at, "now"))
			return tier_syntax_error(text, vector, err);
	}
	for (part = strtok_r(buf, "+", &save); part; part = strtok_r(NULL, "+", &save)) {
		int rc;

		if (!strncmp(part, "affinity:", 9) && !t->has_cpus) {
			rc = rvv_parse_cpulist(part + 9, t->cpus, sizeof(t->cpus));
			t->has_cpus = !rc;
		} else if (!t->has_policy) {
			rc = rvv_parse_policy(part, &t->policy);
			t->has_policy = !rc;
		} else {
			rc = -EINVAL;
		}
		if (rc == -ERANGE)
			return rvv_fail(err, -ERANGE, "--policy %s: %s%s is out of range (nice -20..19, priority 1..99, CPUs below %d)",
					text, vector ? "vector=" : "", part, BENCH_MASK_BYTES * 8);
		if (rc)
			break;
	}
	return !part && (t->has_cpus || t->has_policy) ? 0 : tier_syntax_error(text, vector, err);
}

/*
 * The vector tier of @text, after ",vector=" (@vector, cut in place):
 * applied at each thread's first vector use, whatever it says.
 */
static int vector_tier_parse(const char *text, char *vector, struct bench_arm *arm,
			     struct rvv_error *err)
{
	size_t bare = strcspn(vector, "@");

	if (strchr(vector, '='))
		return rvv_fail(err, -EINVAL, "--policy %s: one vector tier at most, as %s", text,
				two_tiers);
	if (!strcmp(vector + bare, "@now"))
		return rvv_fail(err, -EINVAL, "--policy %s: the vector tier applies at each thread's first vector use: write vector=%.*s or vector=%.*s@on-vector",
				text, (int)bare, vector, (int)bare, vector);
	arm->tiered = true;
	arm->tier[BENCH_TIER_VECTOR].on_vector = true;
	return tier_parse(text, true, vector, &arm->tier[BENCH_TIER_VECTOR], err);
}

int bench_arm_parse(const char *text, struct bench_arm *arm, struct rvv_error *err)
{
	char buf[sizeof(arm->name)], *vector;
	int rc;

	memset(arm, 0, sizeof(*arm));
	if (snprintf(buf, sizeof(buf), "%s", text) >= (int)sizeof(buf))
		return rvv_fail(err, -EINVAL, "--policy %.40s...: too long", text);
	snprintf(arm->name, sizeof(arm->name), "%s", text);
	if (!strcmp(text, "none"))
		return 0;
	/* A CPU list has commas too: the tiers part at ",vector=". */
	vector = strstr(buf, ",vector=");
	if (!vector && strchr(buf, '='))
		return rvv_fail(err, -EINVAL, "--policy %s: write ,vector= and the tier of the threads that use vector state after the process tier, as %s",
				text, two_tiers);
	if (vector) {
		*vector = '\0';
		vector += 8;
		if (!strcmp(buf, "none"))
			return rvv_fail(err, -EINVAL, "--policy %s: none has no tiers: give the process tier first, as %s",
					text, two_tiers);
		if (!*buf)
			return rvv_fail(err, -EINVAL, "--policy %s: the process tier comes first, as %s",
					text, two_tiers);
	}
	rc = tier_parse(text, false, buf, &arm->tier[BENCH_TIER_PROCESS], err);
	if (rc || !vector)
		return rc;
	if (arm->tier[BENCH_TIER_PROCESS].on_vector)
		return rvv_fail(err, -EINVAL, "--policy %s: with a vector tier the process tier applies @now (the vector tier takes the threads that use vector state): write %.*s,vector=%s",
				text, (int)strcspn(text, "@"), text, vector);
	return vector_tier_parse(text, vector, arm, err);
}

static bool tier_hinted(const struct bench_tier *t)
{
	return t->has_cpus || t->has_policy;
}

/* The hint tier @t sets on @target (a process, or a thread); the mask stays @t's. */
static void tier_hint(const struct bench_tier *t, int target, bool process, struct rvvstat_hint *h)
{
	rvv_hint_fill(h, target, process, t->has_cpus ? t->cpus : NULL, sizeof(t->cpus),
		      t->has_policy ? &t->policy : NULL, t->on_vector);
}

/* Gives each thread of @pid the vector tier's hint, noting it in @held. */
static int vector_tier_apply(int fd, const struct bench_arm *arm, int pid,
			     struct bench_arm_held *held, struct rvv_error *err)
{
	struct bench_thread_sched *threads;
	struct rvvstat_hint h;
	struct rvv_error why;
	size_t n;
	int rc;

	rc = bench_proc_threads(pid, &threads, &n, err);
	if (rc)
		return rc;
	held->tids = calloc(n, sizeof(*held->tids));
	if (!held->tids)
		rc = rvv_fail(err, -ENOMEM, "out of memory hinting the server's threads");
	for (size_t i = 0; i < n && !rc; i++) {
		tier_hint(&arm->tier[BENCH_TIER_VECTOR], threads[i].tid, false, &h);
		rc = rvv_hint_set(fd, &h, &why);
		if (!rc)
			held->tids[held->n++] = threads[i].tid;
		else if (rc == -ESRCH)
			rc = 0;		/* it ended since the listing */
		else
			rc = rvv_fail(err, rc, "--policy %s: the vector tier on thread %d (%s): %s",
				      arm->name, threads[i].tid, threads[i].comm, why.message);
	}
	free(threads);
	return rc;
}

int bench_arm_apply(int fd, const struct bench_arm *arm, int pid, struct bench_arm_held *held,
		    struct rvv_error *err)
{
	struct rvvstat_hint h;
	struct rvv_error why, ignored;
	int rc;

	memset(held, 0, sizeof(*held));
	if (!tier_hinted(&arm->tier[BENCH_TIER_PROCESS]))
		return 0;
	tier_hint(&arm->tier[BENCH_TIER_PROCESS], pid, true, &h);
	rc = rvv_hint_set(fd, &h, &why);
	if (rc)
		return rvv_fail(err, rc, "--policy %s: %s", arm->name, why.message);
	held->process = true;
	rc = arm->tiered ? vector_tier_apply(fd, arm, pid, held, err) : 0;
	if (rc)
		bench_arm_clear(fd, arm, pid, held, &ignored);
	return rc;
}

int bench_arm_clear(int fd, const struct bench_arm *arm, int pid, struct bench_arm_held *held,
		    struct rvv_error *err)
{
	struct rvvstat_hint h;
	struct rvv_error why;
	int rc = 0, one;

	/* The threads' own hints first, then the process's: as they were set, reversed. */
	for (size_t i = 0; i < held->n; i++) {
		rvv_hint_fill(&h, held->tids[i], false, NULL, 0, NULL, false);
		one = rvv_hint_clear(fd, &h, &why);
		/* A thread that ended took its hint with it. */
		if (one && one != -ESRCH && one != -ENOENT && !rc)
			rc = rvv_fail(err, one, "--policy %s: thread %d: %s", arm->name,
				      held->tids[i], why.message);
	}
	rvv_hint_fill(&h, pid, true, NULL, 0, NULL, false);
	one = held->process ? rvv_hint_clear(fd, &h, &why) : 0;
	if (one && !rc)
		rc = rvv_fail(err, one, "--policy %s: %s", arm->name, why.message);
	free(held->tids);
	memset(held, 0, sizeof(*held));
	return rc;
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

int bench_thread_policy(int tid, struct rvv_policy *p)
{
	struct sched_attr_v1 attr = { .size = sizeof(attr) };

	if (syscall(SYS_sched_getattr, tid, &attr, sizeof(attr), 0))
		return -errno;
	*p = (struct rvv_policy){
		.policy = attr.sched_policy, .nice = attr.sched_nice,
		.rt_priority = attr.sched_priority, .runtime_ns = attr.sched_runtime,
		.deadline_ns = attr.sched_deadline, .period_ns = attr.sched_period,
	};
	return 0;
}

bool bench_policy_real_time(const struct rvv_policy *p)
{
	return p->policy == SCHED_FIFO || p->policy == SCHED_RR || p->policy == SCHED_DEADLINE;
}

bool bench_arm_real_time(const struct bench_arm *arm)
{
	for (int t = 0; t < BENCH_NR_TIERS; t++)
		if (arm->tier[t].has_policy && bench_policy_real_time(&arm->tier[t].policy))
			return true;
	return false;
}

/* What thread @tid runs with now; -ESRCH if it is gone. */
static int read_back(int tid, struct rvv_policy *p, uint8_t *mask, size_t bytes)
{
	int rc = bench_thread_policy(tid, p);

	if (!rc && sched_getaffinity(tid, bytes, (cpu_set_t *)mask))
		rc = -errno;
	return rc;
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

static bool tier_matches(const struct bench_tier *t, const struct rvv_policy *p,
			 const uint8_t *mask)
{
	return (!t->has_policy || policy_matches(&t->policy, p)) &&
	       (!t->has_cpus || cpus_match(t->cpus, mask, sizeof(t->cpus)));
}

const char *const bench_tier_names[BENCH_NR_TIERS] = { "process", "vector" };

/*
 * Which of @arm's tiers a thread holds or should, by @own (rvvbench gave
 * it the vector tier's hint) and the module's @hint word: one the vector
 * tier reached is in it; one whose own hint waits for its first vector use
 * keeps the process tier, unless it took its own since the module's rows
 * were read (it runs with the vector tier's and not the process's).
 */
static enum bench_tier_id tier_of(const struct bench_arm *arm, bool own, const char *hint,
				  const struct rvv_policy *p, const uint8_t *mask)
{
	if (!arm->tiered || !own)
		return BENCH_TIER_PROCESS;
	if (!strcmp(hint, "applied"))
		return BENCH_TIER_VECTOR;
	return !tier_matches(&arm->tier[BENCH_TIER_PROCESS], p, mask) &&
	       tier_matches(&arm->tier[BENCH_TIER_VECTOR], p, mask) ?
	       BENCH_TIER_VECTOR : BENCH_TIER_PROCESS;
}

/* Why the module could not apply a hint on @target (a process or a thread), from its last error. */
static int refused(int fd, const struct bench_arm *arm, int target, bool process,
		   const struct bench_thread_state *t, struct rvv_error *err)
{
	struct rvvstat_hint h;
	struct rvv_error ignored;

	rvv_hint_fill(&h, target, process, NULL, 0, NULL, false);
	if (rvv_hint_get(fd, &h, &ignored) || !h.last_error)
		return rvv_fail(err, -EPROTO, "--policy %s: the module could not apply it to thread %d (%s); see rvvctl hint get --%s %d",
				arm->name, t->tid, t->comm, process ? "pid" : "tid", target);
	return rvv_fail(err, -EPROTO, "--policy %s: the module could not apply it to thread %d (%s): %s",
			arm->name, t->tid, t->comm, rvv_hint_strerror(-h.last_error, true));
}

static bool held_by(const struct bench_arm_held *held, int tid)
{
	for (size_t i = 0; i < held->n; i++)
		if (held->tids[i] == tid)
			return true;
	return false;
}

int bench_arm_check(int fd, const struct bench_arm *arm, int pid, const struct bench_arm_held *held,
		    const char *(*hint_of)(void *ctx, int tid), void *ctx,
		    struct bench_arm_state *st, struct rvv_error *err)
{
	bool hinted = tier_hinted(&arm->tier[BENCH_TIER_PROCESS]);
	struct bench_thread_sched *threads;
	size_t n, in_vector = 0;
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
		enum bench_tier_id k;
		struct rvv_policy p;
		bool own, due;

		if (read_back(threads[i].tid, &p, mask, sizeof(mask)))
			continue;	/* it ended since the listing */
		st->n++;
		t->tid = threads[i].tid;
		memcpy(t->comm, threads[i].comm, sizeof(t->comm));
		rvv_format_policy(&p, t->policy, sizeof(t->policy));
		rvv_format_cpulist(mask, sizeof(mask), t->cpus, sizeof(t->cpus));
		t->hint = hint_of ? hint_of(ctx, t->tid) : "none";
		own = held_by(held, t->tid);
		k = tier_of(arm, own, t->hint, &p, mask);
		t->tier = arm->tiered ? bench_tier_names[k] : NULL;
		t->matches = tier_matches(&arm->tier[k], &p, mask);
		due = hinted && (k == BENCH_TIER_VECTOR || !arm->tier[k].on_vector ||
				 !strcmp(t->hint, "applied"));
		if (hinted && !strcmp(t->hint, "failed"))
			rc = refused(fd, arm, own ? t->tid : pid, !own, t, err);
		else if (due && !t->matches)
			rc = rvv_fail(err, -EPROTO, "--policy %s: thread %d (%s) runs with %s on CPUs %s, not what %s asked; something else changed it",
				      arm->name, t->tid, t->comm, t->policy, t->cpus,
				      arm->tiered ? (k == BENCH_TIER_VECTOR ? "the vector tier" : "the process tier") : "the arm");
		st->applied += hinted && t->matches && due;
		in_vector += k == BENCH_TIER_VECTOR && t->matches;
	}
	free(threads);
	if (!rc && hinted && !st->applied)
		rc = rvv_fail(err, -EPROTO, "--policy %s: no thread of the server (pid %d) holds it%s",
			      arm->name, pid,
			      arm->tier[BENCH_TIER_PROCESS].on_vector ?
			      ": none used vector state in the window" : "");
	else if (!rc && arm->tiered && !in_vector)
		rc = rvv_fail(err, -EPROTO, "--policy %s: its vector tier reached no thread of the server (pid %d): none used vector state",
			      arm->name, pid);
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
				"the server's thread %u (%s) is still under a hint (%s), left by a run stopped mid-window: clear it with \"sudo rvvctl hint clear --pid %d\" (its threads get their baseline back; \"--tid %u\" for the thread's own hint, as a two-tier arm gives) and run again",
				rows[i].tid, comm, rvv_format_task_hint(rows[i].hint), pid, rows[i].tid);
	}
	return 0;
}
