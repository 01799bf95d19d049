// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz, race.c: the race phase: hinters, resets and dumps at once against
 * a child that execs, drops its credentials, moves between cpusets, makes
 * threads, lets its leader die and exits.
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

pid_t race_child;		/* the churning target; 0 between lives */
static uint64_t race_interval_ns;	/* a race thread's time per call, at least */

/* ---- the race phase ---- */

static void *churn_thread(void *arg)
{
	if (arg)
		use_vector();
	return NULL;
}

struct churn_leg {
	struct ctx c;
	uint64_t end;
};

static void churn_loop(struct ctx *c, uint64_t end) __attribute__((noreturn));

static void *churn_successor(void *arg)
{
	struct churn_leg *leg = arg;

	churn_loop(&leg->c, leg->end);
}

/* A child's life of thread churn, execs, a credential drop, a lost leader. */
static void churn_loop(struct ctx *c, uint64_t end)
{
	struct rlimit zero = { 0, 0 };
	char seed[24], life[24];
	struct churn_leg *leg;
	pthread_attr_t detached;
	pthread_t t;

	pthread_attr_init(&detached);
	pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&detached, 64 * 1024);
	while (now_ns() < end) {
		switch (below(c, 40)) {
		case 0 ... 13:
			pthread_create(&t, &detached, churn_thread, (void *)1);
			break;
		case 14 ... 19:
			if (!pthread_create(&t, NULL, churn_thread, NULL))
				pthread_join(t, NULL);
			break;
		case 20:
			execl(EXEC_PROBE, EXEC_PROBE, chance(c, 50) ? "setuid" : "scalar",
			      (char *)NULL);
			break;
		case 21:
			snprintf(seed, sizeof(seed), "%llu", (unsigned long long)rnd(c));
			snprintf(life, sizeof(life), "%llu",
				 (unsigned long long)((end - now_ns()) / MS));
			execl("/proc/self/exe", "soak-fuzz", "--churn", seed, life, (char *)NULL);
			break;
		case 22:
			if (!getuid() && !setrlimit(RLIMIT_RTPRIO, &zero) &&
			    !setgroups(0, NULL) && !setresgid(NOBODY, NOBODY, NOBODY))
				(void)!setresuid(NOBODY, NOBODY, NOBODY);
			break;
		case 23 ... 25:
			use_vector();
			break;
		case 26:	/* this thread ends; another carries on */
			leg = malloc(sizeof(*leg));
			if (!leg)
				break;
			leg->c = *c;
			leg->c.rng ^= rnd(c);
			leg->end = end;
			if (!pthread_create(&t, &detached, churn_successor, leg))
				syscall(SYS_exit, 0);
			free(leg);
			break;
		default:
			sleep_ms(1);
		}
	}
	exit(0);
}

/* soak-fuzz --churn SEED MS: the race phase's target, after exec. */
int churn_main(int argc, char **argv)
{
	struct ctx c;

	if (argc < 4)
		return 3;
	memset(&c, 0, sizeof(c));
	c.rng = strtoull(argv[2], NULL, 10);
	churn_loop(&c, now_ns() + strtoull(argv[3], NULL, 10) * MS);
}

/* The child or one of its threads (from /proc), or its whole process. */
static pid_t race_target(struct ctx *c, bool *process)
{
	pid_t pid = __atomic_load_n(&race_child, __ATOMIC_RELAXED);

	*process = chance(c, 40);
	if (!pid || *process || chance(c, 30))
		return pid;
	/* Listing /proc/PID/task is an open, reads and a close: every 16th pick. */
	if (pid != c->tids_of || !(c->tids_age++ % 16)) {
		c->ntids = proc_tids(pid, c->tids, ARRAY_SIZE(c->tids));
		c->tids_of = pid;
	}
	return c->ntids > 0 ? c->tids[below(c, c->ntids)] : pid;
}

/* A hint the target can take from root; no deadline, which could starve it. */
static void race_hint(struct ctx *c, struct rvvstat_hint *h, cpu_set_t *cpus)
{
	static const uint32_t kinds[] = {
		SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR,
	};

	memset(h, 0, sizeof(*h));
	h->size = sizeof(*h);
	h->flags = chance(c, 50) ? RVVSTAT_HINT_ON_VECTOR_USE : 0;
	if (chance(c, 70)) {
		fill_mask(c, (uint8_t *)cpus, sizeof(*cpus), true);
		h->flags |= RVVSTAT_HINT_CPUS;
		h->cpus = (uintptr_t)cpus;
		h->cpus_size = sizeof(*cpus);
	}
	if (!(h->flags & RVVSTAT_HINT_CPUS) || chance(c, 50)) {
		h->flags |= RVVSTAT_HINT_POLICY;
		h->policy = PICK(c, kinds);
		if (h->policy == SCHED_FIFO || h->policy == SCHED_RR)
			h->rt_priority = 1 + below(c, 10);
		else if (h->policy != SCHED_IDLE)
			h->nice = (int)below(c, 25) - 5;
	}
}

/*
 * Spreads a race thread's calls over the phase in bursts of 16: dense enough
 * to race, long enough to meet many lives of the churning child even where
 * calls are fast. Where they are slow (TCG, KASAN) it never sleeps.
 */
static void race_pace(struct ctx *c)
{
	uint64_t due = c->burst_start + 16 * race_interval_ns, now = now_ns();

	if (++c->burst < 16)
		return;
	if (due > now)
		sleep_ns(due - now);
	c->burst = 0;
	c->burst_start = now_ns();
}

static const unsigned long race_ops[] = {
	RVVSTAT_IOC_SET_HINT, RVVSTAT_IOC_SET_HINT, RVVSTAT_IOC_SET_HINT,
	RVVSTAT_IOC_GET_HINT, RVVSTAT_IOC_CLEAR_HINT,
};

/* SET, GET and CLEAR on the churning child, its threads and its process. */
static void *race_hinter(void *arg)
{
	struct ctx *c = arg;
	struct rvvstat_hint h;
	unsigned long nr;
	cpu_set_t cpus;
	bool process;
	pid_t target;

	current_ctx = c;
	while (budget_left()) {
		if ((target = race_target(c, &process)) <= 0) {
			sleep_ms(1);	/* never target 0: this very thread */
			continue;
		}
		if (!budget_take())
			break;
		race_hint(c, &h, &cpus);
		nr = PICK(c, race_ops);
		if (nr != RVVSTAT_IOC_SET_HINT)
			h.flags = 0;
		h.target = target;
		h.flags |= process ? RVVSTAT_HINT_PROCESS : 0;
		describe(c, "race ioctl %#lx target %d flags %#x", nr, target, h.flags);
		record(c, CAT_RACE, counted_ioctl(c, env.dev[0], nr, &h));
		race_pace(c);
	}
	return NULL;
}

static int nl_reset(struct ctx *c)
{
	struct nlreq m = { .len = 0 };

	nl_request_into(c, &m, RVVSTAT_CMD_RESET, NLM_F_REQUEST | NLM_F_ACK, ATTRS_NONE);
	return nl_send(c, m.b, m.len) ?: nl_collect(c, 100, false);
}

/* RESET by debugfs, ioctl and netlink while the dumper reads. */
static void *race_resetter(void *arg)
{
	static const char *const paths[] = { "debugfs", "ioctl", "netlink" };
	struct ctx *c = arg;
	int how, err;

	current_ctx = c;
	while (budget_take()) {
		how = below(c, 3);
		describe(c, "race reset by %s", paths[how]);
		if (how == 0) {
			c->cmd = dbg_cmd_named("reset", true);
			err = -write_file(DEBUGFS_DIR "reset", "1");
		} else if (how == 1) {
			err = counted_ioctl(c, env.dev[1], RVVSTAT_IOC_RESET, NULL);
		} else {
			err = nl_reset(c);
		}
		record(c, CAT_RACE, err);
		/* Each stops every CPU for 80 ms: about once a second, as the registry's. */
		sleep_ms(500 + below(c, 1000));
		race_pace(c);
	}
	return NULL;
}

/* Whole dumps, cut dumps, the tasks file and task stats of the churn. */
static void *race_dumper(void *arg)
{
	struct rvvstat_task_stats ts;
	struct ctx *c = arg;
	struct nlreq m;
	bool process;
	int how, err;

	current_ctx = c;
	while (budget_take()) {
		how = below(c, 5);
		m.len = 0;
		describe(c, "race dump %d", how);
		if (how < 3) {
			nl_request_into(c, &m, how == 2 ? RVVSTAT_CMD_GET_CPUS :
					RVVSTAT_CMD_GET_TASKS, NLM_F_REQUEST | NLM_F_DUMP,
					ATTRS_CLEAN);
			/* Now and then only its first part, and the socket cut. */
			err = nl_send(c, m.b, m.len) ?:
			      nl_collect(c, chance(c, 20) ? 1 : 100000, chance(c, 20));
		} else if (how == 3) {
			c->cmd = dbg_cmd_named("tasks", false);
			err = -read_file(DEBUGFS_DIR "tasks", (char *)c->io, IO_BUF);
			err = err < 0 ? 0 : err;
		} else {
			memset(&ts, 0, sizeof(ts));
			ts.size = sizeof(ts);
			ts.tid = race_target(c, &process);
			err = counted_ioctl(c, env.dev[2], RVVSTAT_IOC_GET_TASK_STATS, &ts);
		}
		record(c, CAT_RACE, err);
		race_pace(c);
	}
	return NULL;
}

static bool cpuset_setup(void)
{
	char buf[256];

	if (read_file(CGROUP_ROOT "/cgroup.controllers", buf, sizeof(buf)) <= 0 ||
	    !strstr(buf, "cpuset"))
		return false;
	write_file(CGROUP_ROOT "/cgroup.subtree_control", "+cpuset");
	if (mkdir(CGROUP_SOAK, 0755) && errno != EEXIST)
		return false;
	return !access(CGROUP_SOAK "/cpuset.cpus", W_OK);
}

static int cpuset_change(struct ctx *c)
{
	char list[512] = "";
	size_t len = 0;
	int cpu, first = -1;

	for (cpu = 0; cpu < CPU_SETSIZE && len < sizeof(list) - 8; cpu++) {
		if (!CPU_ISSET(cpu, &env.allowed))
			continue;
		first = first < 0 ? cpu : first;
		if (chance(c, 60))
			len += snprintf(list + len, sizeof(list) - len, "%s%d",
					len ? "," : "", cpu);
	}
	if (!len)
		snprintf(list, sizeof(list), "%d", first);
	describe(c, "race cpuset.cpus %s", list);
	return -write_file(CGROUP_SOAK "/cpuset.cpus", list);
}

/* One life of the churning child: started by exec, killed if it outlives it. */
static void churn_life(struct ctx *c)
{
	uint64_t end = now_ns() + (300 + below(c, 3000)) * MS;
	char seed[24], life[24], pidtext[16];
	int status = 0, reaped = 0;
	pid_t pid, got;

	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)rnd(c));
	snprintf(life, sizeof(life), "%u", 200 + below(c, 2800));
	fflush(stdout);
	pid = fork();
	if (!pid) {
		execl("/proc/self/exe", "soak-fuzz", "--churn", seed, life, (char *)NULL);
		_exit(127);
	}
	if (pid < 0) {
		failure("cannot fork the churning child");
		sleep_ms(100);
		return;
	}
	snprintf(pidtext, sizeof(pidtext), "%d", pid);
	if (env.cpuset)
		write_file(CGROUP_SOAK "/cgroup.procs", pidtext);
	__atomic_store_n(&race_child, pid, __ATOMIC_RELAXED);
	while ((got = waitpid(pid, &status, WNOHANG)) == 0) {
		if (now_ns() >= end || !budget_left()) {
			/* No race thread hints it from now on. */
			__atomic_store_n(&race_child, 0, __ATOMIC_RELAXED);
			reaped = reap(pid, 0, &status);
			break;
		}
		if (env.cpuset && chance(c, 10) && budget_take())
			record(c, CAT_RACE, cpuset_change(c));
		sleep_ms(10);
	}
	__atomic_store_n(&race_child, 0, __ATOMIC_RELAXED);
	check_helper("churning child", pid, got < 0 || reaped, status);
}

void phase_race(struct ctx *root)
{
	static struct ctx ctxs[5];
	void *(*const fns[5])(void *) = {
		race_hinter, race_hinter, race_hinter, race_resetter, race_dumper,
	};
	uint64_t calls = phase_calls_end - shared->used + 1;
	pthread_t threads[5];
	pid_t tids[MAX_VICTIMS];
	struct ctx sup;
	int i;

	(void)root;
	/* Its own share: time the phases before it left over is not spread thin. */
	race_interval_ns = phase_share_ns / calls * 5;
	hints_quiesce(tids);
	ctx_init(&sup, 100, false);
	env.cpuset = cpuset_setup();
	printf("soak-fuzz: race: cpuset %s\n", env.cpuset ? "on" : "off (no cpuset controller)");
	for (i = 0; i < 5; i++) {
		ctx_init(&ctxs[i], 101 + i, false);
		ctxs[i].burst_start = now_ns();
		pthread_create(&threads[i], NULL, fns[i], &ctxs[i]);
	}
	current_ctx = &sup;
	while (budget_left())
		churn_life(&sup);
	for (i = 0; i < 5; i++) {
		if (join_within(threads[i], 31000))
			failure("race thread %d did not end", i);
		nl_drop(&ctxs[i]);
	}
	/* The last child's cgroup empties as it is reaped: a little patience. */
	for (i = 0; env.cpuset && i < 100 && rmdir(CGROUP_SOAK) && errno == EBUSY; i++)
		sleep_ms(50);
}
