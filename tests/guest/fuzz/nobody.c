// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz, nobody.c: the nobody phase: the registry again from a child
 * dropped to uid 65534 that keeps root's fds, with root-owned victims watched
 * for any change.
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

static int victim_read(pid_t tid, cpu_set_t *cpus, struct sched_attr *a)
{
	CPU_ZERO(cpus);
	return sched_getaffinity(tid, sizeof(*cpus), cpus) ? -errno : sched_get(tid, a);
}

static bool attr_same(const struct sched_attr *a, const struct sched_attr *b)
{
	return a->sched_policy == b->sched_policy && a->sched_flags == b->sched_flags &&
	       a->sched_nice == b->sched_nice && a->sched_priority == b->sched_priority &&
	       a->sched_runtime == b->sched_runtime &&
	       a->sched_deadline == b->sched_deadline && a->sched_period == b->sched_period;
}

void victims_check(struct ctx *c)
{
	struct sched_attr a;
	struct victim *v;
	cpu_set_t cpus;
	int i;

	for (i = 0; i < shared->nvictims; i++) {
		v = &shared->victims[i];
		if (victim_read(v->tid, &cpus, &a)) {
			failure("victim %d vanished", v->tid);
			shared->victims[i--] = shared->victims[--shared->nvictims];
			continue;
		}
		if (CPU_EQUAL(&cpus, &v->cpus) && attr_same(&a, &v->attr))
			continue;
		finding(c, "victim tid %d changed: cpus %#lx -> %#lx, policy %u nice %d "
			"prio %u -> policy %u nice %d prio %u", v->tid,
			/* The first 64 CPUs: the guest has fewer. */
			(unsigned long)v->cpus.__bits[0], (unsigned long)cpus.__bits[0],
			v->attr.sched_policy,
			v->attr.sched_nice, v->attr.sched_priority, a.sched_policy,
			a.sched_nice, a.sched_priority);
		v->cpus = cpus;
		v->attr = a;
	}
}

/* elapsed_ns only grows until a reset, and nobody may not reset. */
void reset_check(struct ctx *c)
{
	struct rvvstat_snapshot s = { .size = sizeof(s) };

	if (ioctl(env.dev[0], RVVSTAT_IOC_SNAPSHOT, &s))
		return;
	if (s.elapsed_ns < c->last_elapsed)
		finding(c, "the counters were reset (elapsed_ns %llu after %llu)",
			(unsigned long long)s.elapsed_ns,
			(unsigned long long)c->last_elapsed);
	c->last_elapsed = s.elapsed_ns;
}

/* ---- the nobody phase ---- */

/* The victims' state, kept only for those that hold still for 100 ms. */
static void victims_record(void)
{
	pid_t tids[MAX_VICTIMS];
	int i, n = hints_quiesce(tids);
	struct sched_attr a;
	struct victim *v;
	cpu_set_t cpus;

	sleep_ms(200);
	shared->nvictims = 0;
	for (i = 0; i < n; i++) {
		v = &shared->victims[shared->nvictims];
		v->tid = tids[i];
		if (!victim_read(v->tid, &v->cpus, &v->attr))
			shared->nvictims++;
	}
	sleep_ms(100);
	for (i = 0; i < shared->nvictims; i++) {
		v = &shared->victims[i];
		if (!victim_read(v->tid, &cpus, &a) && CPU_EQUAL(&cpus, &v->cpus) &&
		    attr_same(&a, &v->attr))
			continue;
		printf("soak-fuzz: victim %d is not steady; left out\n", v->tid);
		shared->victims[i--] = shared->victims[--shared->nvictims];
	}
}

/* The child: drop to nobody under RLIMIT 0, keep root's fds, fuzz, check. */
static int nobody_main(int root_nl_fd)
{
	static struct parked own[2];
	struct rlimit zero = { 0, 0 };
	static struct ctx c;
	int i;

	if (setrlimit(RLIMIT_RTPRIO, &zero) || setrlimit(RLIMIT_NICE, &zero) ||
	    setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return 100;
	/* Its /proc files become its own again, for euid_of(). */
	prctl(PR_SET_DUMPABLE, 1);
	ctx_init(&c, 2, true);
	c.nl_fd = root_nl_fd;	/* a socket root opened, until it is cut */
	if (workers_start(own, 2))
		return 101;
	env.nown = 0;
	env.own[env.nown++] = getpid();
	for (i = 0; i < 2; i++)
		env.own[env.nown++] = own[i].tid;
	env.nothers = 0;
	for (i = 0; i < shared->nvictims; i++)
		env.others[env.nothers++] = shared->victims[i].tid;
	dead_refresh();
	describe(&c, "the start of the nobody phase");
	reset_check(&c);
	run_registry_parallel(&c);
	describe(&c, "the end of the nobody phase");
	victims_check(&c);
	reset_check(&c);
	workers_stop(own, 2);
	nl_drop(&c);
	fflush(stdout);
	return 0;
}

void phase_nobody(struct ctx *root)
{
	uint64_t now = now_ns();
	unsigned int ms = (phase_end_ns > now ? (phase_end_ns - now) / MS : 0) + 30000;
	int status = 0, reaped;
	pid_t pid;

	victims_record();
	printf("soak-fuzz: nobody: %d victims\n", shared->nvictims);
	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(nobody_main(root->nl_fd));
	if (pid < 0) {
		failure("cannot fork the nobody child");
		return;
	}
	reaped = reap(pid, ms, &status);
	check_helper("nobody child", pid, reaped, status);
	if (!reaped && WIFEXITED(status) && WEXITSTATUS(status))
		failure("nobody child exited with %d", WEXITSTATUS(status));
	/* Hints nobody may have left for a first vector use: let them fire. */
	parked_do(&workers[1], PARKED_VECTOR);
	parked_do(&targets[3], PARKED_VECTOR);
	sleep_ms(500);
	describe(root, "the nobody phase, after its victims' first vector use");
	victims_check(root);
}
