// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz, threads.c: the threads and processes the calls aim at and the
 * helpers: scheduling put back, helpers reaped and checked, tids that just
 * died, the root-owned target process and the parked threads of this one.
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

struct parked workers[NR_WORKERS], targets[NR_TARGETS];
static pid_t target_pid;

int sched_get(pid_t tid, struct sched_attr *a)
{
	memset(a, 0, sizeof(*a));
	return syscall(SYS_sched_getattr, tid, a, sizeof(*a), 0) ? -errno : 0;
}

static int sched_set(pid_t tid, const struct sched_attr *a)
{
	struct sched_attr x = *a;

	x.size = sizeof(x);
	x.sched_flags &= SCHED_FLAG_RESET_ON_FORK;
	return syscall(SYS_sched_setattr, tid, &x, 0) ? -errno : 0;
}

/* SCHED_OTHER, nice 0, every allowed CPU: what root's hints may have undone. */
void sched_normal(pid_t tid)
{
	struct sched_attr a = { .sched_policy = SCHED_OTHER };

	sched_set(tid, &a);
	sched_setaffinity(tid, sizeof(env.allowed), &env.allowed);
}

/*
 * A killed process's threads back to SCHED_OTHER on every CPU: a hint's
 * SCHED_IDLE beside CPU-bound threads may leave too little CPU to exit
 * within REAP_MS under TCG (the likely cause of "did not end", unconfirmed).
 */
static void unstarve(pid_t pid)
{
	pid_t tids[64];
	int i, n = proc_tids(pid, tids, 64);

	for (i = 0; i < n; i++)
		sched_normal(tids[i]);
}

/*
 * Waits up to @ms for @pid, then SIGKILLs it and lets it run; 0 with its
 * status, or -1.
 */
int reap(pid_t pid, unsigned int ms, int *status)
{
	uint64_t end = now_ns() + ms * MS;
	bool killed = false;
	pid_t got;

	while ((got = waitpid(pid, status, WNOHANG)) != pid) {
		if (got < 0 && errno != EINTR)
			return -1;
		if (now_ns() >= end) {
			if (killed)
				return -1;
			kill(pid, SIGKILL);
			unstarve(pid);
			killed = true;
			end = now_ns() + REAP_MS * MS;
		}
		sleep_ms(5);
	}
	return 0;
}

/*
 * Where the threads of a process that outlived SIGKILL are: each one's state,
 * policy and kernel stack, so that a hang in the kernel names itself.
 */
static void describe_stuck(pid_t pid)
{
	pid_t tids[64];
	char path[64], buf[2048], *line, *end, *save;
	struct sched_attr a;
	int i, n = proc_tids(pid, tids, 64);

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tids[i]);
		end = read_file(path, buf, sizeof(buf)) > 0 ? strrchr(buf, ')') : NULL;
		if (sched_get(tids[i], &a))
			a.sched_policy = -1;
		printf("soak: stuck: tid %d state %c policy %d nice %d\n", tids[i],
		       end && end[1] ? end[2] : '?', (int)a.sched_policy, a.sched_nice);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stack", pid, tids[i]);
		if (read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			printf("soak: stuck:   %s\n", line);
	}
	fflush(stdout);
}

/* A helper's end: SIGKILL is ours; any other signal is a crash. */
void check_helper(const char *what, pid_t pid, int reaped, int status)
{
	if (reaped) {
		describe_stuck(pid);
		failure("%s %d did not end", what, pid);
	} else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
		failure("%s %d died of signal %d", what, pid, WTERMSIG(status));
	}
}

/* The euid of a task as /proc shows it; -1 if it is gone. */
long euid_of(pid_t pid)
{
	char path[40], buf[2048], *uid;
	long real, eff;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0 || !(uid = strstr(buf, "\nUid:")))
		return -1;
	return sscanf(uid + 5, "%ld %ld", &real, &eff) == 2 ? eff : -1;
}

static void *exit_at_once(void *arg)
{
	*(pid_t *)arg = gettid();
	return NULL;
}

/* Tids that just exited, for hints that must find nobody there. */
void dead_refresh(void)
{
	pthread_t t;
	int i;

	for (i = 0; i < NR_DEAD; i++) {
		pid_t tid = 0;

		if (pthread_create(&t, NULL, exit_at_once, &tid))
			continue;
		if (join_within(t, 6000)) {
			failure("a short-lived thread did not end");
			pthread_detach(t);
			return;
		}
		env.dead[i] = tid;
	}
}

/* ---- the target process and the parked threads ---- */

void close_env_fds(void)
{
	int i;

	for (i = 0; i < NR_DEV_FDS; i++)
		close(env.dev[i]);
	for (i = 0; i < env.nfiles; i++) {
		close(env.files[i].rfd);
		close(env.files[i].wfd);
	}
}

/* A root process of parked threads: [1] and [2] have used vector state. */
int target_start(void)
{
	int i;

	for (i = 0; i < NR_TARGETS; i++) {
		if (parked_init(&targets[i], NULL))
			return -1;
		targets[i].vector_at_start = i == 1 || i == 2;
	}
	fflush(stdout);
	target_pid = fork();
	if (target_pid < 0)
		return -1;
	if (!target_pid) {
		close_env_fds();	/* so that only the fuzzer holds the module */
		for (i = 1; i < NR_TARGETS; i++)
			pthread_create(&targets[i].thread, NULL, parked_main, &targets[i]);
		parked_main(&targets[0]);
		_exit(0);
	}
	for (i = 0; i < NR_TARGETS; i++)
		if ((targets[i].tid = parked_recv(&targets[i])) <= 0)
			return -1;
	return 0;
}

void target_stop(void)
{
	int i, status, reaped;

	if (target_pid <= 0)
		return;
	/* A deadline hint left on a thread would slow its death. */
	for (i = 0; i < NR_TARGETS; i++)
		sched_normal(targets[i].tid);
	kill(target_pid, SIGKILL);
	reaped = reap(target_pid, REAP_MS, &status);
	check_helper("target process", target_pid, reaped, status);
	target_pid = 0;
}

int workers_start(struct parked *w, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (parked_init(&w[i], NULL))
			return -1;
		w[i].vector_at_start = i == 0;
		if (parked_spawn(&w[i]))
			return -1;
	}
	return 0;
}

void workers_stop(struct parked *w, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (w[i].tid <= 0)
			continue;
		sched_normal(w[i].tid);
		if (parked_stop(&w[i]))
			failure("parked thread %d did not stop", w[i].tid);
		w[i].tid = 0;
	}
}

void restore_init(void)
{
	dev_clear_hint(env.dev[0], 1, 0);
	dev_clear_hint(env.dev[0], 1, RVVSTAT_HINT_PROCESS);
	sched_set(1, &env.init_attr);
	sched_setaffinity(1, sizeof(env.init_cpus), &env.init_cpus);
}

/*
 * Root's hints off its own threads, the target process and init, and their
 * scheduling put back: before threads that must not inherit them (race), or
 * victims that must hold still (nobody).
 */
int hints_quiesce(pid_t *tids)
{
	int i, n = 0;

	tids[n++] = getpid();
	for (i = 0; i < NR_WORKERS; i++)
		tids[n++] = workers[i].tid;
	for (i = 0; i < NR_TARGETS; i++)
		tids[n++] = targets[i].tid;
	for (i = 0; i < n; i++) {
		dev_clear_hint(env.dev[0], tids[i], 0);
		dev_clear_hint(env.dev[0], tids[i], RVVSTAT_HINT_PROCESS);
		sched_normal(tids[i]);
	}
	restore_init();
	tids[n++] = 1;
	return n;
}
