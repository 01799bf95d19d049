// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz: a structure-aware random fuzzer of every userspace interface of
 * rvvstat.ko (the ioctls of /dev/rvvstat, the generic netlink family on raw
 * sockets, the debugfs files), run as root in the guest while the harness
 * watches the kernel console for KASAN, UBSAN, lockdep and WARNING reports.
 *
 *   soak-fuzz [-s SEED] [-n CALLS] [-t SECONDS] [-p PARAMS]
 *
 * It loads the module with PARAMS, runs three phases on one budget of CALLS
 * calls (default 20000) and SECONDS seconds (default 240), whichever ends
 * first, and unloads the module:
 *   fuzz    the registry of interfaces below, as root
 *   race    hinters, resets and dumps at once against a child that execs,
 *           drops its credentials, moves between cpusets, makes threads,
 *           lets its leader die and exits
 *   nobody  the registry again, from a child dropped to uid 65534 that
 *           keeps the fds root opened; root-owned victims are watched, and
 *           any change to their affinity or policy, or a reset, is a finding
 * The fuzz and nobody phases run a caller per CPU, each drawing every choice
 * from a PRNG seeded from SEED and its number: each caller's calls replay,
 * their interleaving does not. Exit 0 only without findings,
 * with the load and the unload fine, and no helper dead of a signal it was
 * not sent.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rvvstat.h>
#include <linux/sched.h>

#include "device.h"
#include "genl-raw.h"
#include "guest-util.h"
#include "parked.h"
#include "vector-arch.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

#define NOBODY		65534
#define NR_DEV_FDS	4
#define NR_WORKERS	2	/* parked threads of this process; [1] late */
#define NR_TARGETS	4	/* threads of the target process; [3] late */
#define MAX_VICTIMS	(NR_WORKERS + NR_TARGETS + 2)
#define NR_DEAD		6
#define MAX_FILES	16
#define SLOW_MS		250	/* a call this long is named */
#define CALIBRATE_EVERY_MS 20000
#define RESET_EVERY_MS	1000
#define MAX_CALLERS	4	/* threads of the fuzz and nobody phases */
#define CHECK_EVERY	50	/* nobody's calls between victim checks */
#define DESC		192
#define IO_BUF		65536
#define NL_BUF		65536
#define NL_MSG		4096
#define ERRNO_SLOTS	600	/* past 512: kernel-internal errnos that leak */
#define ERR_OTHER	(ERRNO_SLOTS - 2)
#define ERR_NOREPLY	(ERRNO_SLOTS - 1)	/* netlink: nothing came back */
#define REAP_MS		10000
#define UNLOAD_MS	10000
#define MS		1000000ULL
#define CGROUP_ROOT	"/sys/fs/cgroup"
#define CGROUP_SOAK	CGROUP_ROOT "/soak-fuzz"
#define EXEC_PROBE	"/bin/exec-probe"
/* What the module matches: the number without its size. */
#define NR_IFACES	10	/* the registry's entries */
#define CMD_OF(nr)	((unsigned long)(nr) & ~(unsigned long)IOCSIZE_MASK)

enum category { CAT_IOCTL, CAT_NETLINK, CAT_DEBUGFS, CAT_RACE, CAT_NOBODY, NR_CATS };
static const char *const category_names[NR_CATS] = {
	"ioctl", "netlink", "debugfs", "race", "nobody"
};

/*
 * The commands counted apart: each ioctl and one slot for numbers the module
 * does not have, each generic-netlink command and one for those past the
 * last, then each debugfs file read and written.
 */
#define NR_IOC_CMDS	7
#define CMD_IOC_UNKNOWN	NR_IOC_CMDS
#define CMD_NL		(CMD_IOC_UNKNOWN + 1)
#define CMD_NL_OTHER	(CMD_NL + RVVSTAT_CMD_MAX + 1)
#define CMD_DEBUGFS	(CMD_NL_OTHER + 1)
#define NR_CMDS		(CMD_DEBUGFS + 2 * MAX_FILES)
#define CMD_NONE	(-1)

struct cmd_stat {
	unsigned long calls;
	uint64_t errnos[(ERRNO_SLOTS + 63) / 64];	/* a bit per slot seen */
};

struct victim {
	pid_t tid;
	cpu_set_t cpus;
	struct sched_attr attr;
};

/* Counted by every process of the run: MAP_SHARED, mapped first. */
struct shared {
	unsigned long calls[NR_CATS];
	unsigned long errnos[ERRNO_SLOTS];
	unsigned long findings, failures;
	unsigned long used;		/* calls taken from the budget */
	struct victim victims[MAX_VICTIMS];
	int nvictims;
	unsigned long iface_calls[NR_IFACES], iface_ns[NR_IFACES];
	struct cmd_stat cmds[NR_CMDS];
	uint64_t hint_events_seen;	/* bit per enum rvvstat_hint_event */
};

/* One caller's state: its PRNG, its socket, what it is doing. */
struct ctx {
	uint64_t rng;
	bool nobody;
	int nl_fd;
	uint32_t seq, reset_seq;
	unsigned long ncalls;
	int cmd;			/* of the call being made, or CMD_NONE */
	uint64_t last_elapsed;
	uint64_t burst_start;		/* race threads: pacing */
	unsigned int burst;
	pid_t tids[64], tids_of;	/* race threads: the child's, lately */
	int ntids;
	unsigned int tids_age;
	uint8_t *io, *nl;
	uint8_t *pages;			/* its hazard pages, NR_PAGES of them */
	char desc[DESC];
	char log[CHECK_EVERY][DESC];	/* nobody's last calls, for findings */
};

struct dbg_file {
	char name[64];
	int rfd, wfd;		/* kept open by root, for nobody too */
};

static struct {
	uint64_t seed;
	unsigned long calls, seconds;
	const char *params;
} cfg = { .calls = 20000, .seconds = 240, .params = "" };

static struct {
	int dev[NR_DEV_FDS];
	struct dbg_file files[MAX_FILES];
	int nfiles;
	size_t page;
	cpu_set_t allowed;
	unsigned int nr_cpu_ids;
	uint32_t pid_max;
	uint16_t family;
	pid_t own[NR_WORKERS + 3];	/* the caller's own threads */
	int nown;
	pid_t others[MAX_VICTIMS];	/* threads of another process */
	int nothers;
	pid_t dead[NR_DEAD];
	struct sched_attr init_attr;
	cpu_set_t init_cpus;
	bool cpuset;
} env;

/* Hazard pages for arguments: data, then no access, and one read-only. */
enum { PG_ARG, PG_GUARD1, PG_CPUS, PG_CPUS2, PG_GUARD2, PG_RO, NR_PAGES };

static struct shared *shared;
static uint64_t start_ns, phase_end_ns;
static unsigned long phase_calls_end;
static struct parked workers[NR_WORKERS], targets[NR_TARGETS];
static pid_t target_pid;
static pid_t race_child;		/* the churning target; 0 between lives */
static uint64_t race_interval_ns;	/* a race thread's share of the phase per call */
static __thread struct ctx *current_ctx;
static char fail_reason[160];

static uint8_t *page_at(struct ctx *c, int i)
{
	return c->pages + i * env.page;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec t = { ns / 1000000000ULL, ns % 1000000000ULL };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static void sleep_ms(unsigned int ms)
{
	sleep_ns(ms * MS);
}

/* splitmix64: one stream per thread, from SEED and the thread's number. */
static uint64_t mix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(struct ctx *c)
{
	return mix64(&c->rng);
}

static uint32_t below(struct ctx *c, uint32_t n)
{
	return n ? (uint32_t)(rnd(c) % n) : 0;
}

static bool chance(struct ctx *c, unsigned int percent)
{
	return below(c, 100) < percent;
}

#define PICK(c, a)	((a)[below((c), ARRAY_SIZE(a))])

/* Eight bytes a draw: a page took 160 to 260 us byte by byte under TCG, 8 to 40 so. */
static void rnd_fill(struct ctx *c, void *buf, size_t len)
{
	uint8_t *p = buf;
	uint64_t r;

	for (; len >= 8; len -= 8, p += 8) {
		r = rnd(c);
		memcpy(p, &r, 8);
	}
	r = rnd(c);
	memcpy(p, &r, len);
}

static const uint64_t edges64[] = {
	0, 1, 2, 7, 8, 4095, 4096, 4097, INT32_MAX, (uint64_t)INT32_MAX + 1,
	UINT32_MAX, (uint64_t)UINT32_MAX + 1, INT64_MAX, (uint64_t)INT64_MAX + 1,
	UINT64_MAX,
};

static uint64_t edge64(struct ctx *c)
{
	return chance(c, 80) ? PICK(c, edges64) : rnd(c);
}

static uint32_t edge32(struct ctx *c)
{
	return (uint32_t)edge64(c);
}

static void ctx_init(struct ctx *c, uint64_t stream, bool nobody)
{
	memset(c, 0, sizeof(*c));
	c->rng = cfg.seed ^ (stream * 0xd1342543de82ef95ULL);
	mix64(&c->rng);
	c->nobody = nobody;
	c->nl_fd = -1;
	c->cmd = CMD_NONE;
	c->seq = (uint32_t)stream << 24;
	c->io = calloc(1, IO_BUF);
	c->nl = calloc(1, NL_BUF);
	if (!c->io || !c->nl)
		die_with(1, "soak-fuzz", "calloc", ENOMEM);
	c->pages = mmap(NULL, NR_PAGES * env.page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->pages == MAP_FAILED ||
	    mprotect(page_at(c, PG_GUARD1), env.page, PROT_NONE) ||
	    mprotect(page_at(c, PG_GUARD2), env.page, PROT_NONE) ||
	    mprotect(page_at(c, PG_RO), env.page, PROT_READ))
		die_with(1, "soak-fuzz", "hazard pages", errno);
	current_ctx = c;
}

/* Takes one call from the current phase's budget; false once it is spent. */
static bool budget_take(void)
{
	unsigned long used = __atomic_load_n(&shared->used, __ATOMIC_RELAXED);

	if (now_ns() >= phase_end_ns)
		return false;
	do {
		if (used >= phase_calls_end)
			return false;
	} while (!__atomic_compare_exchange_n(&shared->used, &used, used + 1, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

static bool budget_left(void)
{
	return now_ns() < phase_end_ns &&
	       __atomic_load_n(&shared->used, __ATOMIC_RELAXED) < phase_calls_end;
}

static const char *errno_name(int slot, char buf[16])
{
	const char *name = slot > 0 && slot < ERR_OTHER ? strerrorname_np(slot) : NULL;

	if (!slot)
		return "ok";
	if (slot == ERR_NOREPLY)
		return "noreply";
	if (slot == ERR_OTHER)
		return "other";
	if (name)
		return name;
	snprintf(buf, 16, "E%d", slot);
	return buf;
}

static void __attribute__((format(printf, 2, 3)))
describe(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->desc, DESC, fmt, ap);
	va_end(ap);
}

/* Counts a call and its outcome: 0, an errno, or ERR_NOREPLY. */
static void record(struct ctx *c, enum category cat, int err)
{
	int slot = err == ERR_NOREPLY ? err : err < 0 || err >= ERR_OTHER ? ERR_OTHER : err;
	char name[16];

	__atomic_fetch_add(&shared->calls[c->nobody ? CAT_NOBODY : cat], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&shared->errnos[slot], 1, __ATOMIC_RELAXED);
	if (c->cmd != CMD_NONE) {
		__atomic_fetch_add(&shared->cmds[c->cmd].calls, 1, __ATOMIC_RELAXED);
		__atomic_fetch_or(&shared->cmds[c->cmd].errnos[slot / 64], 1ULL << (slot % 64),
				  __ATOMIC_RELAXED);
		c->cmd = CMD_NONE;
	}
	if (c->nobody)
		snprintf(c->log[c->ncalls % CHECK_EVERY], DESC, "%.160s = %.24s", c->desc,
			 errno_name(slot, name));
	c->ncalls++;
}

/* A privilege escalation (or a reset nobody made): fails the run. */
static void __attribute__((format(printf, 2, 3)))
finding(struct ctx *c, const char *fmt, ...)
{
	unsigned long n, first;
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	__atomic_fetch_add(&shared->findings, 1, __ATOMIC_RELAXED);
	printf("soak: finding: %s\n", what);
	printf("soak:   after: %s\n", c->desc);
	first = c->ncalls > CHECK_EVERY ? c->ncalls - CHECK_EVERY : 0;
	for (n = first; c->nobody && n < c->ncalls; n++)
		printf("soak:   call %lu: %s\n", n, c->log[n % CHECK_EVERY]);
	fflush(stdout);
}

/* A helper that crashed or hung: not a finding, but the run fails. */
static void __attribute__((format(printf, 1, 2))) failure(const char *fmt, ...)
{
	char what[sizeof(fail_reason)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	__atomic_fetch_add(&shared->failures, 1, __ATOMIC_RELAXED);
	if (!fail_reason[0])
		memcpy(fail_reason, what, sizeof(what));
	printf("soak: failure: %s\n", what);
	fflush(stdout);
}

static int sched_get(pid_t tid, struct sched_attr *a)
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
static void sched_normal(pid_t tid)
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
static int reap(pid_t pid, unsigned int ms, int *status)
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
static void check_helper(const char *what, pid_t pid, int reaped, int status)
{
	if (reaped) {
		describe_stuck(pid);
		failure("%s %d did not end", what, pid);
	} else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
		failure("%s %d died of signal %d", what, pid, WTERMSIG(status));
	}
}

/* The euid of a task as /proc shows it; -1 if it is gone. */
static long euid_of(pid_t pid)
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
static void dead_refresh(void)
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

static pid_t pick_target(struct ctx *c)
{
	static const pid_t odd[] = { -1, INT_MIN, INT_MAX, 0x40000000 };

	switch (below(c, 12)) {
	case 0: case 1:
		return 0;
	case 2: case 3:
		return env.nown ? env.own[below(c, env.nown)] : 0;
	case 4: case 5: case 6:
		return env.nothers ? env.others[below(c, env.nothers)] : 1;
	case 7:
		return 1;
	case 8:
		return 2;	/* kthreadd */
	case 9:
		return env.dead[below(c, NR_DEAD)];
	case 10:
		return PICK(c, odd);
	default:
		return 1 + below(c, env.pid_max);
	}
}

/*
 * @good mostly; else NULL, no access, read-only, across a guard, unmapped,
 * or kernel. Never a random user address: the kernel may write there.
 */
static void *hostile(struct ctx *c, void *good, uint8_t *guard, size_t len,
		     unsigned int percent_good)
{
	if (chance(c, percent_good))
		return good;
	switch (below(c, 7)) {
	case 0:
		return NULL;
	case 1:
		return guard;
	case 2:
		return page_at(c, PG_RO);
	case 3:	/* the last bytes before the guard: a copy runs into it */
		return guard - 1 - below(c, len < env.page ? len : env.page - 1);
	case 4:
		return (void *)(uintptr_t)0xffffffffff600000ULL;
	case 5:
		return (void *)(uintptr_t)(1ULL << 46 | (rnd(c) & 0xfffff000));
	default:
		return (void *)(uintptr_t)(rnd(c) | 1ULL << 63);
	}
}

/*
 * True once every @every_ms across all callers: for what stops the machine.
 * A reset (stop_machine) takes both CPUs for 80 ms under KASAN and TCG, a
 * calibration one for 1.6 s: at the share of calls chance gives them they
 * took most of the run. Nobody's are refused, cheap, and not limited.
 */
static bool due(struct ctx *c, uint64_t *last, unsigned int every_ms)
{
	uint64_t now = now_ns(), seen = __atomic_load_n(last, __ATOMIC_RELAXED);

	if (c->nobody)
		return true;
	if (seen && now - seen < every_ms * MS)
		return false;
	return __atomic_compare_exchange_n(last, &seen, now, false, __ATOMIC_RELAXED,
					   __ATOMIC_RELAXED);
}

static uint64_t last_reset, last_calibrate;

static bool reset_due(struct ctx *c)
{
	return due(c, &last_reset, RESET_EVERY_MS);
}

/* ---- ioctls ---- */

static const struct ioc {
	const char *name;
	unsigned long nr;
	size_t size;
} iocs[] = {
	{ "GET_INFO", RVVSTAT_IOC_GET_INFO, sizeof(struct rvvstat_info) },
	{ "SET_HINT", RVVSTAT_IOC_SET_HINT, sizeof(struct rvvstat_hint) },
	{ "GET_HINT", RVVSTAT_IOC_GET_HINT, sizeof(struct rvvstat_hint) },
	{ "CLEAR_HINT", RVVSTAT_IOC_CLEAR_HINT, sizeof(struct rvvstat_hint) },
	{ "GET_TASK_STATS", RVVSTAT_IOC_GET_TASK_STATS, sizeof(struct rvvstat_task_stats) },
	{ "SNAPSHOT", RVVSTAT_IOC_SNAPSHOT, sizeof(struct rvvstat_snapshot) },
	{ "RESET", RVVSTAT_IOC_RESET, 0 },
};
_Static_assert(ARRAY_SIZE(iocs) == NR_IOC_CMDS, "NR_IOC_CMDS: the ioctls' number");

static const struct ioc *pick_ioc(struct ctx *c, bool with_arg)
{
	const struct ioc *k = &iocs[below(c, ARRAY_SIZE(iocs))];

	/* RESET stops every CPU, and ignores its argument. */
	if (!k->size && (with_arg || !reset_due(c)))
		k = &iocs[1 + below(c, 3)];
	return k;
}

/* A CPU mask: a non-empty subset of the allowed CPUs, or (!@valid) odd ones. */
static void fill_mask(struct ctx *c, uint8_t *mask, size_t cap, bool valid)
{
	unsigned int cpu, n = env.nr_cpu_ids, set = 0;

	memset(mask, 0, cap);
	switch (valid ? 9 : below(c, 10)) {
	case 0:
		return;		/* empty */
	case 1:
		memset(mask, 0xff, cap);
		return;
	case 2:			/* the first CPU number past nr_cpu_ids */
		if (n / 8 < cap)
			mask[n / 8] |= 1 << (n % 8);
		return;
	case 3:
		rnd_fill(c, mask, 8 + below(c, 120));
		return;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && cpu / 8 < cap; cpu++)
		if (CPU_ISSET(cpu, &env.allowed) && (chance(c, 60) || !set++))
			mask[cpu / 8] |= 1 << (cpu % 8);
}

static const uint32_t policies[] = {
	SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR,
	SCHED_DEADLINE, 4, 7, UINT32_MAX,
};
static const int32_t nices[] = { 0, 0, 1, -1, 5, 19, -20, 20, -21, INT32_MAX, INT32_MIN };
static const uint32_t rt_prios[] = { 0, 1, 2, 10, 98, 99, 100, UINT32_MAX };
static const uint64_t dl_times[] = {
	0, 1023, 1024, 100000, 1000000, 10000000, 100000000, 4000000000ULL,
	INT64_MAX, UINT64_MAX,
};
static const uint32_t mask_sizes[] = {
	sizeof(cpu_set_t), sizeof(cpu_set_t), 8, 8, 1, 0, 4, 4096, 8192, 8193, UINT32_MAX,
};

static void fill_policy(struct ctx *c, struct rvvstat_hint *h, bool valid)
{
	h->policy = valid ? policies[below(c, 6)] : chance(c, 90) ? PICK(c, policies) : edge32(c);
	if (h->policy == SCHED_FIFO || h->policy == SCHED_RR) {
		h->rt_priority = valid ? 1 + below(c, 99) : PICK(c, rt_prios);
	} else if (h->policy == SCHED_DEADLINE && valid) {
		h->dl_runtime = (1 + below(c, 3)) * MS;
		h->dl_deadline = 10 * MS;
		h->dl_period = chance(c, 50) ? 0 : 10 * MS;
	} else if (h->policy == SCHED_DEADLINE) {
		h->dl_runtime = PICK(c, dl_times);
		h->dl_deadline = PICK(c, dl_times);
		h->dl_period = chance(c, 50) ? 0 : PICK(c, dl_times);
	} else if (h->policy != SCHED_IDLE || !valid) {
		h->nice = valid ? (int)below(c, 40) - 20 : PICK(c, nices);
	}
	if (!valid && chance(c, 10)) {	/* fields the policy does not take */
		h->nice = PICK(c, nices);
		h->rt_priority = PICK(c, rt_prios);
		h->dl_period = PICK(c, dl_times);
	}
}

/*
 * A deadline hint the module accepts with a tiny runtime would starve the
 * thread it lands on: root's own, or one it must reap. Root gets 1/4 of the
 * period at least; what validation refuses anyway stays as it is.
 */
static void tame_deadline(struct rvvstat_hint *h)
{
	uint64_t span = h->dl_period ? h->dl_period : h->dl_deadline;

	if (h->policy != SCHED_DEADLINE || h->dl_runtime < 1024 ||
	    h->dl_deadline < h->dl_runtime ||
	    (h->dl_period && h->dl_period < h->dl_deadline))
		return;
	if (h->dl_runtime < span / 4)
		h->dl_runtime = span / 4;
}

/* Hint fields at their edges; 40 % valid, to reach the hint table. */
static void fill_hint(struct ctx *c, struct rvvstat_hint *h, unsigned long nr)
{
	bool valid = chance(c, 40);

	h->target = pick_target(c);
	if (nr == RVVSTAT_IOC_SET_HINT && valid)
		h->flags = (1 + below(c, 3)) << 1 |
			   (chance(c, 30) ? RVVSTAT_HINT_PROCESS : 0) |
			   (chance(c, 30) ? RVVSTAT_HINT_ON_VECTOR_USE : 0);
	else if (nr == RVVSTAT_IOC_SET_HINT)
		h->flags = chance(c, 70) ? below(c, 16) :
			   chance(c, 50) ? 1U << below(c, 32) : edge32(c);
	else
		h->flags = valid || chance(c, 85) ?
			   (chance(c, 50) ? RVVSTAT_HINT_PROCESS : 0) : edge32(c);
	if (nr != RVVSTAT_IOC_CLEAR_HINT &&
	    ((h->flags & RVVSTAT_HINT_CPUS) || nr == RVVSTAT_IOC_GET_HINT || chance(c, 10))) {
		fill_mask(c, page_at(c, PG_CPUS), 2 * env.page, valid);
		h->cpus = (uintptr_t)hostile(c, page_at(c, PG_CPUS), page_at(c, PG_GUARD2),
					     sizeof(cpu_set_t), valid ? 100 : 75);
		h->cpus_size = valid ? sizeof(cpu_set_t) :
			       chance(c, 85) ? PICK(c, mask_sizes) : edge32(c);
	}
	if ((h->flags & RVVSTAT_HINT_POLICY) || (!valid && chance(c, 10)))
		fill_policy(c, h, valid);
	if (!c->nobody)
		tame_deadline(h);
	if (!valid && chance(c, 5)) {	/* output fields set on input */
		h->applied = edge32(c);
		h->last_error = (int32_t)edge32(c);
	}
}

/* A valid-looking argument of @k in the argument page; the bytes that count. */
static size_t build_arg(struct ctx *c, const struct ioc *k, uint8_t *arg)
{
	const uint64_t sizes[] = {
		k->size + 8, 4096, 0, 1, 8, k->size - 1, 4097, UINT64_MAX,
		1ULL << 32 | k->size,
	};
	uint64_t size = chance(c, 75) ? k->size : chance(c, 90) ? PICK(c, sizes) : rnd(c);
	size_t used = size > k->size && size <= env.page ? size : k->size;

	memset(arg, 0, env.page);
	if (k->size == sizeof(struct rvvstat_hint))
		fill_hint(c, (struct rvvstat_hint *)arg, k->nr);
	else if (k->nr == RVVSTAT_IOC_GET_TASK_STATS)
		((struct rvvstat_task_stats *)arg)->tid = pick_target(c);
	else if (chance(c, 10))	/* garbage where only output goes */
		rnd_fill(c, arg + 8, k->size - 8);
	memcpy(arg, &size, sizeof(size));
	/* A field this module does not know, set: E2BIG. */
	if (used > k->size && chance(c, 20))
		arg[k->size + below(c, used - k->size)] = 1 + below(c, 255);
	return used;
}

static void describe_ioctl(struct ctx *c, const char *how, const struct ioc *k,
			   unsigned long nr, const uint8_t *arg, const void *where)
{
	const struct rvvstat_hint *h = (const void *)arg;
	uint64_t size;

	memcpy(&size, arg, sizeof(size));
	if (k->size == sizeof(*h))
		describe(c, "ioctl %s %s nr %#lx arg %p size %llu target %d flags %#x "
			 "policy %u/%d/%u/%llu cpus %#llx/%u", how, k->name, nr, where,
			 (unsigned long long)size, h->target, h->flags, h->policy, h->nice,
			 h->rt_priority, (unsigned long long)h->dl_runtime,
			 (unsigned long long)h->cpus, h->cpus_size);
	else
		describe(c, "ioctl %s %s nr %#lx arg %p size %llu", how, k->name, nr,
			 where, (unsigned long long)size);
}

/* The module matches the number without its size: so does the count. */
static int ioc_cmd(unsigned long nr)
{
	unsigned int i;

	for (i = 0; i < NR_IOC_CMDS; i++)
		if (CMD_OF(nr) == CMD_OF(iocs[i].nr))
			return i;
	return CMD_IOC_UNKNOWN;
}

/* An ioctl on one of the device's fds; 0 or its errno. */
static int counted_ioctl(struct ctx *c, int fd, unsigned long nr, void *arg)
{
	c->cmd = ioc_cmd(nr);
	return ioctl(fd, nr, arg) < 0 ? errno : 0;
}

static int fuzz_dev_ioctl(struct ctx *c, unsigned long nr, void *arg)
{
	return counted_ioctl(c, env.dev[below(c, NR_DEV_FDS)], nr, arg);
}

/*
 * After an ioctl with the argument @arg held: root puts back its own thread,
 * which a hint may have pinned or made real-time; nobody's success at
 * changing another owner's hints, or at a reset, is a finding.
 */
static void after_ioctl(struct ctx *c, unsigned long nr, const uint8_t *arg, int err)
{
	const struct rvvstat_hint *h = (const void *)arg;
	unsigned long cmd = CMD_OF(nr);
	long euid;

	if (!c->nobody) {
		if (cmd == CMD_OF(RVVSTAT_IOC_SET_HINT))
			sched_normal(0);
		return;
	}
	if (err)
		return;
	if (cmd == CMD_OF(RVVSTAT_IOC_RESET))
		finding(c, "nobody's RESET ioctl succeeded");
	if ((cmd == CMD_OF(RVVSTAT_IOC_SET_HINT) || cmd == CMD_OF(RVVSTAT_IOC_CLEAR_HINT)) &&
	    h->target > 0 && (euid = euid_of(h->target)) >= 0 && euid != NOBODY)
		finding(c, "nobody's hint ioctl %#lx on task %d (euid %ld) succeeded",
			nr, h->target, euid);
}

/* Every known number with a valid-looking argument, fields at their edges. */
static int ioctl_edges(struct ctx *c)
{
	const struct ioc *k = pick_ioc(c, false);
	uint8_t *arg = page_at(c, PG_ARG);
	void *where = arg;
	int err;

	if (k->size)
		build_arg(c, k, arg);
	else
		where = (void *)(uintptr_t)edge64(c);
	describe_ioctl(c, "edges", k, k->nr, arg, where);
	err = fuzz_dev_ioctl(c, k->nr, where);
	after_ioctl(c, k->nr, arg, err);
	return err;
}

/* Random bytes; half the time with the size that gets past the size check. */
static int ioctl_random_bytes(struct ctx *c)
{
	const struct ioc *k = pick_ioc(c, true);
	uint8_t *arg = page_at(c, PG_ARG);
	uint64_t size = k->size;
	int err;

	rnd_fill(c, arg, env.page);
	if (chance(c, 50))
		memcpy(arg, &size, sizeof(size));
	describe_ioctl(c, "random", k, k->nr, arg, arg);
	err = fuzz_dev_ioctl(c, k->nr, arg);
	after_ioctl(c, k->nr, arg, err);
	return err;
}

/* The known numbers with a wrong size, a wrong direction, or both. */
static int ioctl_misencoded(struct ctx *c)
{
	const struct ioc *k = pick_ioc(c, false);
	uint8_t *arg = page_at(c, PG_ARG);
	unsigned long nr = k->nr, dir = _IOC_DIR(nr), size = _IOC_SIZE(nr);
	int err, how = below(c, 3);

	if (k->size)
		build_arg(c, k, arg);
	if (how != 1)
		size = (chance(c, 50) ? rnd(c) : PICK(c, edges64)) & _IOC_SIZEMASK;
	if (how != 0)
		dir = (dir + 1 + below(c, 3)) & _IOC_DIRMASK;
	nr = _IOC(dir, RVVSTAT_IOC_MAGIC, _IOC_NR(nr), size);
	describe_ioctl(c, "misencoded", k, nr, arg, arg);
	err = fuzz_dev_ioctl(c, nr, arg);
	after_ioctl(c, nr, arg, err);
	return err;
}

/* Numbers the module does not have: its magic with other numbers, or VFS ones. */
static int ioctl_unknown(struct ctx *c)
{
	static const unsigned long generic[] = {
		FIONREAD, FIONBIO, FIOCLEX, FIOASYNC, TCGETS, 0, ~0UL,
	};
	uint8_t *arg = page_at(c, PG_ARG);
	unsigned long nr;

	rnd_fill(c, arg, env.page);
	if (chance(c, 75))
		nr = _IOC(below(c, 4), RVVSTAT_IOC_MAGIC,
			  chance(c, 10) ? 0 : 8 + below(c, 248), below(c, _IOC_SIZEMASK + 1));
	else
		nr = chance(c, 50) ? PICK(c, generic) : (uint32_t)rnd(c);
	/* FIONCLEX would hand the device to exec'd children. */
	if (nr == FIONCLEX)
		nr = FIOCLEX;
	describe(c, "ioctl unknown nr %#lx", nr);
	return fuzz_dev_ioctl(c, nr, arg);
}

/* Arguments at NULL, no access, read-only, across a guard, unmapped. */
static int ioctl_bad_pointer(struct ctx *c)
{
	const struct ioc *k = pick_ioc(c, true);
	uint8_t *arg = page_at(c, PG_ARG), *ro = page_at(c, PG_RO);
	size_t used = build_arg(c, k, arg), tail;
	struct rvvstat_hint sent;	/* the moves below may overwrite @arg */
	void *where;
	int err;

	memcpy(&sent, arg, sizeof(sent));
	switch (below(c, 6)) {
	case 0:
		where = NULL;
		break;
	case 1:
		where = page_at(c, PG_GUARD1);
		break;
	case 2:		/* the kernel reads it and cannot write back */
		mprotect(ro, env.page, PROT_READ | PROT_WRITE);
		memcpy(ro, arg, used);
		mprotect(ro, env.page, PROT_READ);
		where = ro;
		break;
	case 3:		/* its first @tail bytes before the guard */
		tail = chance(c, 70) ? 8 + below(c, used - 8) : 1 + below(c, used - 1);
		memmove(arg + env.page - tail, arg, tail);
		where = arg + env.page - tail;
		break;
	case 4:
		where = (void *)(uintptr_t)0xffffffffff600000ULL;
		break;
	default:
		where = (void *)(uintptr_t)(1ULL << 46 | (rnd(c) & 0xfffff000));
	}
	describe_ioctl(c, "bad-pointer", k, k->nr, (uint8_t *)&sent, where);
	err = fuzz_dev_ioctl(c, k->nr, where);
	after_ioctl(c, k->nr, (uint8_t *)&sent, err);
	return err;
}

/* ---- generic netlink, raw ---- */

struct nlreq {
	uint8_t b[NL_MSG] __attribute__((aligned(8)));
	size_t len;
};

static void *nl_put(struct nlreq *m, size_t len)
{
	size_t need = NLMSG_ALIGN(len);
	void *p;

	if (m->len + need > sizeof(m->b))
		return NULL;
	p = m->b + m->len;
	memset(p, 0, need);
	m->len += need;
	return p;
}

/* Starts a message at the end of @m (room is left for it); its offset. */
static size_t nl_begin(struct nlreq *m, uint16_t type, uint16_t flags, uint32_t seq,
		       uint8_t cmd, uint8_t version)
{
	size_t off = m->len;
	struct nlmsghdr *h = nl_put(m, NLMSG_HDRLEN);
	struct genlmsghdr *g = nl_put(m, GENL_HDRLEN);

	if (!h || !g)
		return off;
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq;
	g->cmd = cmd;
	g->version = version;
	return off;
}

static void nl_end(struct nlreq *m, size_t off)
{
	if (off + NLMSG_HDRLEN <= m->len)
		((struct nlmsghdr *)(m->b + off))->nlmsg_len = m->len - off;
}

static struct nlattr *nl_attr(struct nlreq *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = nl_put(m, NLA_HDRLEN + len);

	if (!a)
		return NULL;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	return a;
}

static uint16_t any_type(struct ctx *c)
{
	uint16_t type = below(c, RVVSTAT_A_MAX + 3);

	return chance(c, 10) ? type | (rnd(c) & (NLA_F_NESTED | NLA_F_NET_BYTEORDER)) : type;
}

/*
 * Random attributes: what the command takes with edge values, any type,
 * wrong lengths, nested garbage, duplicates, and lying nla_len.
 */
static void nl_attrs(struct ctx *c, struct nlreq *m, uint8_t cmd, int depth)
{
	static const size_t wrong_lens[] = { 0, 1, 2, 3, 5, 7, 8, 16 };
	static const uint16_t lies[] = { 0, 1, 3, 5, 4096, 0xffff };
	size_t last = 0, last_len = 0, start, nest;
	int i, n = below(c, depth ? 3 : 5);
	uint8_t junk[16];
	uint64_t v64;
	uint32_t v32;
	struct nlattr *a;
	void *copy;

	for (i = 0; i < n; i++) {
		start = m->len;
		v32 = chance(c, 50) ? below(c, 12) : edge32(c);
		switch (below(c, 8)) {
		case 0: case 1:
			nl_attr(m, cmd == RVVSTAT_CMD_GET_TASKS ? RVVSTAT_A_TGID :
				   chance(c, 50) ? RVVSTAT_A_KIND : RVVSTAT_A_CPU, &v32, 4);
			break;
		case 2:
			nl_attr(m, any_type(c), &v32, 4);
			break;
		case 3:
			rnd_fill(c, junk, sizeof(junk));
			nl_attr(m, any_type(c), junk, PICK(c, wrong_lens));
			break;
		case 4:
			v64 = edge64(c);
			nl_attr(m, any_type(c), &v64, 8);
			break;
		case 5:
			if (depth >= 2 || !(a = nl_attr(m, any_type(c) | NLA_F_NESTED, NULL, 0)))
				break;
			nest = (uint8_t *)a - m->b;
			nl_attrs(c, m, cmd, depth + 1);
			((struct nlattr *)(m->b + nest))->nla_len = m->len - nest;
			break;
		case 6:
			if (last_len && (copy = nl_put(m, last_len)))
				memcpy(copy, m->b + last, last_len);
			break;
		default:
			if ((a = nl_attr(m, any_type(c), &v32, 4)))
				a->nla_len = PICK(c, lies);
		}
		last = start;
		last_len = m->len - start;
	}
}

static int nl_socket(struct ctx *c)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;

	if (c->nl_fd >= 0)
		return 0;
	c->nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (c->nl_fd < 0)
		return errno;
	if (bind(c->nl_fd, (struct sockaddr *)&sa, sizeof(sa))) {
		one = errno;
		close(c->nl_fd);
		c->nl_fd = -1;
		return one;
	}
	setsockopt(c->nl_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return 0;
}

static void nl_drop(struct ctx *c)
{
	if (c->nl_fd >= 0)
		close(c->nl_fd);
	c->nl_fd = -1;
}

/*
 * Reads what came for the requests just sent. Genetlink answers within
 * sendmsg() and makes each next part of a dump within recvmsg(), so once a
 * read finds nothing after something came, nothing more is coming. Stops
 * after @max messages; @cut then closes the socket mid-dump. The first
 * error, 0, or ERR_NOREPLY.
 */
static int nl_collect(struct ctx *c, unsigned int max, bool cut)
{
	struct pollfd pfd = { c->nl_fd, POLLIN, 0 };
	unsigned int msgs = 0;
	int err = ERR_NOREPLY;
	bool waited = false;
	struct nlmsghdr *h;
	long n;

	while (msgs < max) {
		n = recv(c->nl_fd, c->nl, NL_BUF, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN) {
			err = err == ERR_NOREPLY ? errno : err;
			break;
		}
		if (n < 0) {
			if (waited || err != ERR_NOREPLY || poll(&pfd, 1, 5) != 1)
				break;
			waited = true;
			continue;
		}
		for (h = (void *)c->nl; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			msgs++;
			if (h->nlmsg_type != NLMSG_ERROR ||
			    h->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
				err = err == ERR_NOREPLY ? 0 : err;
				continue;
			}
			if (!e->error && c->nobody && c->reset_seq &&
			    e->msg.nlmsg_seq == c->reset_seq)
				finding(c, "nobody's netlink RESET was acknowledged");
			if (err == ERR_NOREPLY || !err)
				err = -e->error;
		}
		if (cut && msgs)
			break;
	}
	if (cut || msgs >= max)
		nl_drop(c);	/* what is left would answer the next request */
	return err;
}

static int nl_send(struct ctx *c, const void *buf, size_t len)
{
	const struct nlmsghdr *h = buf;
	const struct genlmsghdr *g = NLMSG_DATA(h);
	int err = nl_socket(c);

	/* Counted by the command of its first message, where it has one. */
	c->cmd = len < NLMSG_HDRLEN + GENL_HDRLEN || h->nlmsg_type != env.family ||
		 g->cmd > RVVSTAT_CMD_MAX ? CMD_NL_OTHER : CMD_NL + g->cmd;

	if (err)
		return err;
	return send(c->nl_fd, buf, len, 0) < 0 ? errno : 0;
}

/* Known commands and a few past the last; RESET (stop_machine) less often. */
static uint8_t pick_cmd(struct ctx *c)
{
	uint8_t cmd = chance(c, 85) ? below(c, RVVSTAT_CMD_MAX + 1) :
				      RVVSTAT_CMD_MAX + 1 + below(c, 4);

	if (cmd == RVVSTAT_CMD_RESET && !reset_due(c))
		cmd = RVVSTAT_CMD_GET_SUMMARY;
	return chance(c, 97) ? cmd : (uint8_t)rnd(c);
}

static uint16_t pick_flags(struct ctx *c, uint8_t cmd)
{
	bool dumps = cmd == RVVSTAT_CMD_GET_CPUS || cmd == RVVSTAT_CMD_GET_TASKS;
	uint16_t flags = NLM_F_REQUEST;

	if (chance(c, 60))
		flags |= NLM_F_ACK;
	if (chance(c, dumps ? 85 : 15))
		flags |= NLM_F_DUMP;
	if (chance(c, 5))
		flags |= NLM_F_ECHO;
	if (chance(c, 5))
		flags |= (uint16_t)rnd(c);
	return flags;
}

/* What a tool sends: the attributes the command takes, with valid values. */
static void nl_clean_attrs(struct ctx *c, struct nlreq *m, uint8_t cmd)
{
	pid_t child = __atomic_load_n(&race_child, __ATOMIC_RELAXED);
	uint32_t v = child && chance(c, 50) ? (uint32_t)child :
		     chance(c, 50) ? (uint32_t)getpid() : 1 + below(c, env.pid_max);

	if (cmd == RVVSTAT_CMD_GET_TASKS && chance(c, 50))
		nl_attr(m, RVVSTAT_A_TGID, &v, sizeof(v));
	if (cmd != RVVSTAT_CMD_GET_HIST)
		return;
	v = below(c, RVVSTAT_NR_LATENCIES);
	nl_attr(m, RVVSTAT_A_KIND, &v, sizeof(v));
	v = below(c, env.nr_cpu_ids);
	if (chance(c, 50))
		nl_attr(m, RVVSTAT_A_CPU, &v, sizeof(v));
}

enum { ATTRS_NONE, ATTRS_CLEAN, ATTRS_RANDOM };

/* Appends one request to @m; a RESET that asks for an ACK is remembered. */
static void nl_request_into(struct ctx *c, struct nlreq *m, uint8_t cmd,
			    uint16_t flags, int attrs)
{
	uint32_t seq = ++c->seq;
	size_t off;

	if (c->nobody && cmd == RVVSTAT_CMD_RESET)
		flags |= NLM_F_ACK;	/* so that a success shows */
	off = nl_begin(m, env.family, flags, seq, cmd,
		       chance(c, 90) ? RVVSTAT_GENL_VERSION : (uint8_t)rnd(c));
	if (attrs == ATTRS_RANDOM)
		nl_attrs(c, m, cmd, 0);
	else if (attrs == ATTRS_CLEAN)
		nl_clean_attrs(c, m, cmd);
	nl_end(m, off);
	if (cmd == RVVSTAT_CMD_RESET && (flags & NLM_F_ACK))
		c->reset_seq = seq;
}

/*
 * One well-formed message: 40 % as a tool sends it (to get past validation
 * and into the commands), else any command, flags and attributes.
 */
static int nl_request(struct ctx *c)
{
	struct nlreq m = { .len = 0 };
	bool clean = chance(c, 40);
	uint8_t cmd = clean ? 1 + below(c, RVVSTAT_CMD_MAX) : pick_cmd(c);
	uint16_t flags = pick_flags(c, cmd);

	c->reset_seq = 0;
	if (clean && cmd == RVVSTAT_CMD_RESET && !reset_due(c))
		cmd = RVVSTAT_CMD_GET_SUMMARY;
	if (clean)
		flags = NLM_F_REQUEST | (chance(c, 50) ? NLM_F_ACK : 0) |
			(cmd == RVVSTAT_CMD_GET_CPUS || cmd == RVVSTAT_CMD_GET_TASKS ?
			 NLM_F_DUMP : 0);
	nl_request_into(c, &m, cmd, flags, clean ? ATTRS_CLEAN : ATTRS_RANDOM);
	describe(c, "netlink request cmd %u flags %#x len %zu", cmd, flags, m.len);
	return nl_send(c, m.b, m.len) ?: nl_collect(c, 100000, false);
}

/* Truncated, lying about its length, mistyped, unflagged, or several at once. */
static int nl_malformed(struct ctx *c)
{
	const uint16_t types[] = {
		0, NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE, NLMSG_OVERRUN, GENL_ID_CTRL,
		env.family + 1, 0xffff,
	};
	struct nlreq m = { .len = 0 };
	uint8_t cmd = pick_cmd(c);
	struct nlmsghdr *h = (void *)m.b;
	int how = below(c, 8), i;
	size_t sent;

	c->reset_seq = 0;
	nl_request_into(c, &m, cmd, pick_flags(c, cmd), ATTRS_RANDOM);
	sent = m.len;
	switch (how) {
	case 0:
		sent = below(c, m.len);
		break;
	case 1:
		h->nlmsg_len += 1 + below(c, 4096);
		break;
	case 2:
		h->nlmsg_len = below(c, h->nlmsg_len);
		break;
	case 3:		/* the kernel acks these two unread: no RESET to see */
		h->nlmsg_type = PICK(c, types);
		c->reset_seq = 0;
		break;
	case 4:
		h->nlmsg_flags &= ~NLM_F_REQUEST;
		c->reset_seq = 0;
		break;
	case 5:
		((struct genlmsghdr *)NLMSG_DATA(h))->reserved = 1 + below(c, 0xffff);
		break;
	case 6:		/* no genetlink header, or half of one */
		sent = NLMSG_HDRLEN + 2 * below(c, 2);
		h->nlmsg_len = sent;
		break;
	default:	/* a batch: a dump, then more before it is read */
		for (i = 1 + below(c, 3); i > 0; i--) {
			cmd = pick_cmd(c);
			nl_request_into(c, &m, cmd, pick_flags(c, cmd),
					chance(c, 50) ? ATTRS_CLEAN : ATTRS_RANDOM);
		}
		sent = m.len;
	}
	describe(c, "netlink malformed %d cmd %u type %u flags %#x len %u sent %zu",
		 how, ((struct genlmsghdr *)NLMSG_DATA(h))->cmd, h->nlmsg_type,
		 h->nlmsg_flags, h->nlmsg_len, sent);
	return nl_send(c, m.b, sent) ?: nl_collect(c, 100000, false);
}

/* A dump whose socket closes after its first part, or before any is read. */
static int nl_cut_dump(struct ctx *c)
{
	struct nlreq m = { .len = 0 };
	uint8_t cmd = chance(c, 60) ? RVVSTAT_CMD_GET_TASKS : RVVSTAT_CMD_GET_CPUS;
	bool read_first = chance(c, 75);
	int err;

	c->reset_seq = 0;
	nl_request_into(c, &m, cmd, NLM_F_REQUEST | NLM_F_DUMP |
			(chance(c, 50) ? NLM_F_ACK : 0), ATTRS_CLEAN);
	describe(c, "netlink cut dump cmd %u after %s", cmd, read_first ? "one part" : "none");
	err = nl_send(c, m.b, m.len);
	if (!err && read_first)
		err = nl_collect(c, 1, true);
	nl_drop(c);
	return err;
}

/* The family id from nlctrl, on a socket of its own; 0 or -errno. */
static int nl_resolve(void)
{
	int fd = genl_open(), id;

	if (fd < 0)
		return fd;
	id = genl_family(fd, RVVSTAT_GENL_NAME);
	close(fd);
	if (id < 0)
		return id;
	env.family = id;
	return 0;
}

/* ---- debugfs ---- */

static const long long offsets[] = {
	0, 0, 1, 7, 100, 4095, 4096, 65536, 1LL << 30, LLONG_MAX - 1, -1,
};
static const size_t io_sizes[] = { 0, 1, 7, 4095, 4096, 65536 };

static void debugfs_scan(void)
{
	DIR *d = opendir(DEBUGFS_DIR);
	char path[PATH_MAX];
	struct dirent *e;
	struct stat st;

	while (d && (e = readdir(d)) && env.nfiles < MAX_FILES) {
		struct dbg_file *f = &env.files[env.nfiles];

		snprintf(path, sizeof(path), DEBUGFS_DIR "%s", e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		snprintf(f->name, sizeof(f->name), "%.63s", e->d_name);
		f->rfd = st.st_mode & 0444 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
		f->wfd = st.st_mode & 0222 ? open(path, O_WRONLY | O_CLOEXEC) : -1;
		env.nfiles++;
	}
	if (d)
		closedir(d);
}

static struct dbg_file *pick_file(struct ctx *c, bool writable)
{
	int i, first = below(c, env.nfiles);

	for (i = 0; writable && i < env.nfiles; i++)
		if (env.files[(first + i) % env.nfiles].wfd >= 0)
			return &env.files[(first + i) % env.nfiles];
	return &env.files[first];
}

static int dbg_cmd(const struct dbg_file *f, bool write)
{
	return CMD_DEBUGFS + 2 * (f - env.files) + write;
}

static int dbg_cmd_named(const char *name, bool write)
{
	int i;

	for (i = 0; i < env.nfiles; i++)
		if (!strcmp(env.files[i].name, name))
			return dbg_cmd(&env.files[i], write);
	return CMD_NONE;
}

static int open_file(const struct dbg_file *f, int mode)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), DEBUGFS_DIR "%s", f->name);
	return open(path, mode | O_CLOEXEC);
}

/* pread at edge offsets and sizes, whole reads in chunks, reads after lseek. */
static int debugfs_read(struct ctx *c)
{
	static const int whences[] = { SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE, 7 };
	struct dbg_file *f = pick_file(c, false);
	size_t size = chance(c, 80) ? PICK(c, io_sizes) : below(c, IO_BUF);
	void *buf = hostile(c, c->io, page_at(c, PG_GUARD1), size, 90);
	long long off = chance(c, 85) ? PICK(c, offsets) : (long long)(rnd(c) >> 1);
	int how = below(c, 4), whence = PICK(c, whences), fd, chunks, err = 0;
	long n;

	describe(c, "debugfs read %s how %d size %zu off %lld whence %d buf %p",
		 f->name, how, size, off, whence, buf);
	c->cmd = dbg_cmd(f, false);
	if (how < 2) {
		fd = f->rfd >= 0 ? f->rfd : f->wfd;
		return pread(fd, buf, size, off) < 0 ? errno : 0;
	}
	fd = open_file(f, O_RDONLY);
	if (fd < 0)
		return errno;
	if (how == 2) {		/* the whole file, in chunks of @size */
		for (chunks = 0; chunks < 256; chunks++)
			if ((n = read(fd, buf, size ?: 1)) <= 0)
				break;
		err = n < 0 ? errno : 0;
	} else {		/* part, an lseek (maybe refused), then on */
		if (read(fd, buf, size) < 0 || lseek(fd, off, whence) < 0)
			err = errno;
		if (read(fd, buf, size) < 0 && !err)
			err = errno;
	}
	close(fd);
	return err;
}

/* The controls' words, when not due, become near misses. */
static const char *control_word(struct ctx *c, const struct dbg_file *f, const char *word)
{
	if (!strcmp(f->name, "calibrate") && strstr(word, "calibrate") &&
	    !due(c, &last_calibrate, CALIBRATE_EVERY_MS))
		return "calibrat";
	if (!strcmp(f->name, "reset") && strchr(word, '1') && !reset_due(c))
		return "0";
	return word;
}

/* Valid words, random bytes, empty and very long writes, bad buffers. */
static int debugfs_write(struct ctx *c)
{
	static const char *const words[] = {
		"1", "1\n", "0", "2", "-1", "0x1", "01", " 1", "1 ", "reset",
		"calibrate", "calibrate\n", " calibrate ", "calibrat",
		"calibrate calibrate", "\n", "",
	};
	struct dbg_file *f = pick_file(c, chance(c, 90));
	bool fresh = f->wfd < 0 || chance(c, 20);
	int how = below(c, 5), fd = fresh ? open_file(f, O_WRONLY) : f->wfd;
	int open_err = errno;
	const void *buf = c->io;
	const char *word;
	size_t len;
	long n;

	switch (how) {
	case 0:
		word = control_word(c, f, PICK(c, words));
		len = strlen(word);
		memcpy(c->io, word, len);
		break;
	case 1:
		len = 1 + below(c, 64);
		rnd_fill(c, c->io, len);
		break;
	case 2:
		len = 0;
		break;
	case 3:		/* a valid word, then a long tail of zeros, digits or noise */
		len = 4096 + below(c, IO_BUF - 4096 + 1);
		memset(c->io, chance(c, 50) ? 0 : '0', len);
		c->io[0] = *control_word(c, f, "1");
		if (chance(c, 30))
			rnd_fill(c, c->io + 1, len - 1);
		break;
	default:
		len = 1 + below(c, 32);
		buf = hostile(c, c->io, page_at(c, PG_GUARD1), len, 0);
	}
	describe(c, "debugfs write %s how %d len %zu fresh %d buf %p",
		 f->name, how, len, fresh, buf);
	c->cmd = dbg_cmd(f, true);
	if (fd < 0)
		return open_err;
	n = chance(c, 80) ? write(fd, buf, len) : pwrite(fd, buf, len, PICK(c, offsets));
	if (n < 0)
		n = -errno;
	if (fresh)
		close(fd);
	/* Every writable file here is a control that needs CAP_SYS_ADMIN. */
	if (c->nobody && n > 0)
		finding(c, "nobody's write to debugfs %s was accepted", f->name);
	return n < 0 ? (int)-n : 0;
}

/* ---- the registry ---- */

static const struct iface {
	const char *name;
	enum category cat;
	unsigned int weight;
	int (*call)(struct ctx *c);	/* 0, an errno, or ERR_NOREPLY */
} registry[] = {
	{ "ioctl-edges",	CAT_IOCTL,	30, ioctl_edges },
	{ "ioctl-random",	CAT_IOCTL,	10, ioctl_random_bytes },
	{ "ioctl-misencoded",	CAT_IOCTL,	 8, ioctl_misencoded },
	{ "ioctl-unknown",	CAT_IOCTL,	 4, ioctl_unknown },
	{ "ioctl-bad-pointer",	CAT_IOCTL,	10, ioctl_bad_pointer },
	{ "netlink-request",	CAT_NETLINK,	18, nl_request },
	{ "netlink-malformed",	CAT_NETLINK,	10, nl_malformed },
	{ "netlink-cut-dump",	CAT_NETLINK,	 4, nl_cut_dump },
	{ "debugfs-read",	CAT_DEBUGFS,	12, debugfs_read },
	{ "debugfs-write",	CAT_DEBUGFS,	 4, debugfs_write },
};
_Static_assert(ARRAY_SIZE(registry) == NR_IFACES, "NR_IFACES: the registry's size");

static const struct iface *pick_iface(struct ctx *c)
{
	unsigned int total = 0, r, i;

	for (i = 0; i < ARRAY_SIZE(registry); i++)
		total += registry[i].weight;
	r = below(c, total);
	for (i = 0; r >= registry[i].weight; i++)
		r -= registry[i].weight;
	return &registry[i];
}

/* ---- victims: root-owned threads nobody must not move ---- */

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

static void victims_check(struct ctx *c)
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

/*
 * The module's own counters as coverage: which hint outcomes (set, applied,
 * refused for each reason, ...) the calls reached. A reset zeroes them, so
 * they are sampled as the calls go.
 */
static void hint_events_sample(void)
{
	struct rvvstat_snapshot s = { .size = sizeof(s) };
	unsigned int i;

	if (ioctl(env.dev[0], RVVSTAT_IOC_SNAPSHOT, &s))
		return;
	for (i = 0; i < s.nr_hint_events && i < RVVSTAT_MAX_HINT_EVENTS; i++)
		if (s.hint_events[i])
			__atomic_fetch_or(&shared->hint_events_seen, 1ULL << i, __ATOMIC_RELAXED);
}

/* elapsed_ns only grows until a reset, and nobody may not reset. */
static void reset_check(struct ctx *c)
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

static void run_registry(struct ctx *c)
{
	static int slow_printed;
	const struct iface *f;
	uint64_t t;
	int err;

	while (budget_take()) {
		f = pick_iface(c);
		c->desc[0] = '\0';
		t = now_ns();
		err = f->call(c);
		t = now_ns() - t;
		/* The outliers by name: what a profile of the phase would miss. */
		if (t > SLOW_MS * MS && slow_printed++ < 20)
			printf("soak-fuzz: slow %llu ms: %s\n", (unsigned long long)(t / MS), c->desc);
		__atomic_fetch_add(&shared->iface_ns[f - registry], t, __ATOMIC_RELAXED);
		__atomic_fetch_add(&shared->iface_calls[f - registry], 1, __ATOMIC_RELAXED);
		record(c, f->cat, err);
		if (c->nobody && c->ncalls % CHECK_EVERY == 0) {
			victims_check(c);
			reset_check(c);
		}
		if (!c->nobody && c->ncalls % 500 == 0 && gettid() == getpid())
			dead_refresh();
		if (c->ncalls % 20 == 0)
			hint_events_sample();
	}
}

static void *registry_thread(void *arg)
{
	struct ctx *c = arg;

	current_ctx = c;
	run_registry(c);
	nl_drop(c);
	return NULL;
}

/*
 * The registry from a caller per CPU, @c one of them: a call is a syscall or
 * two of a KASAN kernel under TCG, CPU-bound, so one caller leaves the other
 * CPUs idle. Each caller's choices replay from the seed; their interleaving
 * does not.
 */
static void run_registry_parallel(struct ctx *c)
{
	static struct ctx ctxs[MAX_CALLERS - 1];
	static pthread_t threads[MAX_CALLERS - 1];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int i, n = cpus < 1 ? 0 : cpus > MAX_CALLERS ? MAX_CALLERS - 1 : cpus - 1;

	for (i = 0; i < n; i++) {
		ctx_init(&ctxs[i], 200 + 2 * i + c->nobody, c->nobody);
		ctxs[i].last_elapsed = c->last_elapsed;
		if (pthread_create(&threads[i], NULL, registry_thread, &ctxs[i]))
			break;
	}
	n = i;
	current_ctx = c;
	run_registry(c);
	for (i = 0; i < n; i++)
		if (join_within(threads[i], 31000))
			failure("caller thread %d did not end", i + 1);
}

/* ---- the target process and the parked threads ---- */

static void close_env_fds(void)
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
static int target_start(void)
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

static void target_stop(void)
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

static int workers_start(struct parked *w, int n)
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

static void workers_stop(struct parked *w, int n)
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

static void restore_init(void)
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
static int hints_quiesce(pid_t *tids)
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
static int churn_main(int argc, char **argv)
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
		sleep_ms(100 + below(c, 400));	/* each stops every CPU for 80 ms */
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

static void phase_race(struct ctx *root)
{
	static struct ctx ctxs[5];
	void *(*const fns[5])(void *) = {
		race_hinter, race_hinter, race_hinter, race_resetter, race_dumper,
	};
	uint64_t now = now_ns(), calls = phase_calls_end - shared->used + 1;
	pthread_t threads[5];
	pid_t tids[MAX_VICTIMS];
	struct ctx sup;
	int i;

	(void)root;
	race_interval_ns = phase_end_ns > now ? (phase_end_ns - now) / calls * 5 : 0;
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

static void phase_nobody(struct ctx *root)
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

/* ---- setup, phases, report ---- */

/* What the cheapest calls cost here: the floor under every phase's rate. */
static void costs_print(void)
{
	struct rvvstat_info info = { .size = sizeof(info) };
	struct ctx *caller = current_ctx;
	static struct ctx c;
	uint64_t t[5];
	int i;

	ctx_init(&c, 99, false);
	current_ctx = caller;
	t[0] = now_ns();
	for (i = 0; i < 200; i++)
		getppid();
	t[1] = now_ns();
	for (i = 0; i < 200; i++)
		ioctl(env.dev[0], RVVSTAT_IOC_GET_INFO, &info);
	t[2] = now_ns();
	for (i = 0; i < 200; i++)
		rnd_fill(&c, c.io, 4096);
	t[3] = now_ns();
	for (i = 0; i < 200; i++)
		ioctl(env.dev[0], 0, &info);
	t[4] = now_ns();
	printf("soak: cost_us getppid %llu get_info %llu rnd_page %llu enotty %llu\n",
	       (unsigned long long)(t[1] - t[0]) / 200000,
	       (unsigned long long)(t[2] - t[1]) / 200000,
	       (unsigned long long)(t[3] - t[2]) / 200000,
	       (unsigned long long)(t[4] - t[3]) / 200000);
}

static int env_setup(void)
{
	static const int modes[NR_DEV_FDS] = { O_RDWR, O_RDWR, O_RDONLY, O_WRONLY };
	struct rvvstat_info info = { .size = sizeof(info) };
	char buf[32];
	int i, err;

	for (i = 0; i < NR_DEV_FDS; i++)
		env.dev[i] = -1;
	sched_getaffinity(0, sizeof(env.allowed), &env.allowed);
	env.pid_max = read_file("/proc/sys/kernel/pid_max", buf, sizeof(buf)) > 0 ?
		      strtoul(buf, NULL, 10) : 32768;
	sched_get(1, &env.init_attr);
	sched_getaffinity(1, sizeof(env.init_cpus), &env.init_cpus);
	for (i = 0; i < NR_DEV_FDS; i++)
		if ((env.dev[i] = open(DEVICE_PATH, modes[i] | O_CLOEXEC)) < 0)
			return -errno;
	if (ioctl(env.dev[0], RVVSTAT_IOC_GET_INFO, &info))
		return -errno;
	env.nr_cpu_ids = info.nr_cpu_ids;
	debugfs_scan();
	printf("soak-fuzz: %d debugfs files, nr_cpu_ids %u, features %#llx\n",
	       env.nfiles, env.nr_cpu_ids, (unsigned long long)info.features);
	/* The target process first: forked before this one has threads. */
	if (target_start() || workers_start(workers, NR_WORKERS))
		return -ECHILD;
	env.own[env.nown++] = getpid();
	for (i = 0; i < NR_WORKERS; i++)
		env.own[env.nown++] = workers[i].tid;
	for (i = 0; i < NR_TARGETS; i++)
		env.others[env.nothers++] = targets[i].tid;
	dead_refresh();
	if ((err = nl_resolve()))
		return err;
	costs_print();
	return env.nfiles ? 0 : -ENOENT;
}

static void teardown(struct ctx *root)
{
	target_stop();
	workers_stop(workers, NR_WORKERS);
	restore_init();
	nl_drop(root);
	close_env_fds();
}

static const struct phase {
	const char *name;
	void (*run)(struct ctx *root);
	unsigned int calls_pct, time_pct;	/* where it ends, of the whole */
} phases[] = {
	{ "fuzz",	run_registry_parallel,	55, 50 },
	{ "race",	phase_race,	75, 70 },
	{ "nobody",	phase_nobody,	100, 90 },
};

static void phase_begin(const struct phase *p)
{
	phase_calls_end = cfg.calls / 100 * p->calls_pct + cfg.calls % 100 * p->calls_pct / 100;
	phase_end_ns = start_ns + cfg.seconds * 10000000ULL * p->time_pct;
	printf("soak: phase %s begins (calls so far %lu, %llu s)\n", p->name, shared->used,
	       (unsigned long long)((now_ns() - start_ns) / 1000000000ULL));
	fflush(stdout);
}

/* Where a phase's time went: the fuzzer's CPU and the whole guest's. */
struct usage {
	uint64_t wall_ns, user_ns, sys_ns;
	unsigned long calls;
	unsigned long long busy, total;	/* /proc/stat ticks of every CPU */
};

static void usage_now(struct usage *u)
{
	unsigned long long v[8] = { 0 };
	struct rusage self, children;
	char buf[256];

	u->wall_ns = now_ns();
	u->calls = __atomic_load_n(&shared->used, __ATOMIC_RELAXED);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	if (read_file("/proc/stat", buf, sizeof(buf)) > 0)
		sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		       &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	u->user_ns = (self.ru_utime.tv_sec + children.ru_utime.tv_sec) * 1000000000ULL +
		     (self.ru_utime.tv_usec + children.ru_utime.tv_usec) * 1000ULL;
	u->sys_ns = (self.ru_stime.tv_sec + children.ru_stime.tv_sec) * 1000000000ULL +
		    (self.ru_stime.tv_usec + children.ru_stime.tv_usec) * 1000ULL;
	u->total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	u->busy = u->total - v[3] - v[4];
}

static void usage_print(const char *phase, const struct usage *a, const struct usage *b)
{
	uint64_t wall = b->wall_ns - a->wall_ns ?: 1;
	unsigned long calls = b->calls - a->calls;

	printf("soak: phase %s calls %lu wall_ms %llu calls_per_s %llu fuzzer_user_ms %llu "
	       "fuzzer_sys_ms %llu guest_busy_pct %llu\n", phase, calls,
	       (unsigned long long)(wall / MS), (unsigned long long)(calls * 1000000000ULL / wall),
	       (unsigned long long)((b->user_ns - a->user_ns) / MS),
	       (unsigned long long)((b->sys_ns - a->sys_ns) / MS),
	       b->total > a->total ? (b->busy - a->busy) * 100 / (b->total - a->total) : 0);
}

static void cmd_name(int i, char *buf, size_t size)
{
	static const char *const nl_names[] = {
		"UNSPEC", "GET_INFO", "GET_SUMMARY", "GET_CPUS", "GET_TASKS", "GET_HIST", "RESET",
	};
	_Static_assert(ARRAY_SIZE(nl_names) == RVVSTAT_CMD_MAX + 1, "a name per command");

	if (i < NR_IOC_CMDS)
		snprintf(buf, size, "ioctl %s", iocs[i].name);
	else if (i == CMD_IOC_UNKNOWN)
		snprintf(buf, size, "ioctl unknown");
	else if (i < CMD_NL_OTHER)
		snprintf(buf, size, "netlink %s", nl_names[i - CMD_NL]);
	else if (i == CMD_NL_OTHER)
		snprintf(buf, size, "netlink other");
	else
		snprintf(buf, size, "debugfs %s %s", (i - CMD_DEBUGFS) % 2 ? "write" : "read",
			 env.files[(i - CMD_DEBUGFS) / 2].name);
}

/*
 * Per command its calls and the errnos it gave. Every command must have been
 * called, every debugfs file read and each writable one written: else the
 * run has not covered what it claims.
 */
static void report_commands(void)
{
	char name[48], err[16], list[512];
	const struct cmd_stat *s;
	int i, slot, distinct;
	size_t len;

	for (i = 0; i < CMD_DEBUGFS + 2 * env.nfiles; i++) {
		s = &shared->cmds[i];
		cmd_name(i, name, sizeof(name));
		len = 0;
		list[0] = '\0';
		for (slot = distinct = 0; slot < ERRNO_SLOTS; slot++) {
			if (!(s->errnos[slot / 64] & 1ULL << (slot % 64)))
				continue;
			distinct++;
			if (len < sizeof(list) - 20)
				len += snprintf(list + len, sizeof(list) - len, " %s",
						errno_name(slot, err));
		}
		printf("soak: command %s calls %lu errnos %d:%s\n", name, s->calls, distinct, list);
		if (!s->calls && (i < CMD_DEBUGFS || !((i - CMD_DEBUGFS) % 2) ||
				  env.files[(i - CMD_DEBUGFS) / 2].wfd >= 0))
			failure("%s was never called", name);
	}
}

static void report_hint_events(void)
{
	static const char *const names[] = RVVSTAT_HINT_EVENT_NAMES;
	char list[256] = "";
	size_t len = 0;
	unsigned int i, n = 0;

	hint_events_sample();
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!(shared->hint_events_seen & 1ULL << i))
			continue;
		n++;
		len += snprintf(list + len, sizeof(list) - len, " %s", names[i]);
	}
	printf("soak: coverage hint_events %u of %zu:%s\n", n, ARRAY_SIZE(names), list);
}

static int report(void)
{
	char name[16];
	int i, distinct = 0;

	for (i = 0; i < NR_CATS; i++)
		printf("soak: calls %s %lu\n", category_names[i], shared->calls[i]);
	for (i = 0; i < NR_IFACES; i++)
		printf("soak: iface %s calls %lu us_per_call %lu\n", registry[i].name,
		       shared->iface_calls[i],
		       shared->iface_ns[i] / 1000 / (shared->iface_calls[i] ?: 1));
	report_commands();
	report_hint_events();
	for (i = 0; i < ERRNO_SLOTS; i++)
		distinct += !!shared->errnos[i];
	printf("soak: errnos distinct %d\n", distinct);
	for (i = 0; i < ERRNO_SLOTS; i++)
		if (shared->errnos[i])
			printf("soak: errno %s %lu\n", errno_name(i, name), shared->errnos[i]);
	printf("soak: findings %lu\n", shared->findings);
	if (!fail_reason[0] && shared->findings)
		snprintf(fail_reason, sizeof(fail_reason), "%lu findings", shared->findings);
	if (!fail_reason[0] && shared->failures)
		snprintf(fail_reason, sizeof(fail_reason), "%lu helper failures",
			 shared->failures);
	if (fail_reason[0])
		printf("soak-fuzz: FAIL (%s)\n", fail_reason);
	else
		printf("soak-fuzz: PASS\n");
	fflush(stdout);
	return fail_reason[0] ? 1 : 0;
}

/* A crash of the fuzzer itself is its own bug: say in which call. */
static void on_crash(int sig)
{
	const char *what = current_ctx ? current_ctx->desc : "setup";
	struct iovec v[3] = {
		{ "soak-fuzz: crashed during: ", 27 }, { (char *)what, strlen(what) }, { "\n", 1 },
	};

	if (writev(STDERR_FILENO, v, 3) < 0)
		_exit(3);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void usage(void)
{
	fprintf(stderr, "usage: soak-fuzz [-s SEED] [-n CALLS] [-t SECONDS] [-p PARAMS]\n");
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	uint64_t seed = now_ns() ^ ((uint64_t)getpid() << 32);
	int opt;

	cfg.seed = mix64(&seed);
	while ((opt = getopt(argc, argv, "s:n:t:p:")) != -1) {
		switch (opt) {
		case 's':
			cfg.seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			cfg.calls = count_arg(optarg, ULONG_MAX / 100, usage);
			break;
		case 't':
			cfg.seconds = count_arg(optarg, 10000000, usage);
			break;
		case 'p':
			cfg.params = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
}

int main(int argc, char **argv)
{
	static struct ctx root;
	struct usage before, after;
	unsigned int i;
	int err;

	if (argc >= 2 && !strcmp(argv[1], "--churn"))
		return churn_main(argc, argv);
	parse_args(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("soak: seed %llu (RVVSTAT_SOAK_SEED=%llu replays it; here -s %llu)\n",
	       (unsigned long long)cfg.seed, (unsigned long long)cfg.seed,
	       (unsigned long long)cfg.seed);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGSEGV, on_crash);
	signal(SIGBUS, on_crash);
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		die_with(1, "soak-fuzz", "mmap", errno);
	env.page = sysconf(_SC_PAGESIZE);
	start_ns = now_ns();
	if ((err = module_load(cfg.params))) {
		snprintf(fail_reason, sizeof(fail_reason), "module load: %s", strerror(-err));
		return report();
	}
	ctx_init(&root, 0, false);
	if ((err = env_setup())) {
		snprintf(fail_reason, sizeof(fail_reason), "setup: %s", strerror(-err));
	} else {
		for (i = 0; i < ARRAY_SIZE(phases); i++) {
			phase_begin(&phases[i]);
			usage_now(&before);
			phases[i].run(&root);
			usage_now(&after);
			hint_events_sample();
			usage_print(phases[i].name, &before, &after);
		}
	}
	current_ctx = &root;
	describe(&root, "teardown");
	teardown(&root);
	if ((err = module_unload_within(UNLOAD_MS)) && !fail_reason[0])
		snprintf(fail_reason, sizeof(fail_reason), "module unload: %s", strerror(-err));
	return report();
}
