// SPDX-License-Identifier: GPL-2.0
/*
 * The soak stage's guest side, on the soak kernel (KASAN, UBSAN, KFENCE,
 * lockdep, kmemleak, debug objects): runs load/unload cycles under load,
 * then thread churn through a small task table, then soak-fuzz, then a
 * kmemleak scan. Each phase is a line "ok N soak.PHASE" or "not ok ...",
 * each figure a line "soak: NAME N"; the console filter of boot-guest fails
 * the boot on any kernel report besides.
 *
 *   soak [-t SECONDS] [-f FUZZ_ARGS] [-c CYCLES] [-n THREADS]
 * FUZZ_ARGS: soak-fuzz's arguments, colon-separated ("-" skips it);
 * defaults: soak-fuzz's own, 100 cycles, 5000 threads (make soak: 200 and
 * 100000). -t bounds the whole stage: the cycles and the churn each stop at
 * their count or their share of it, whichever comes first, and the fuzzer
 * has the time left but what the leak scan needs (its own -t, if given,
 * wins).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rvvstat.h>

#include "genl-raw.h"
#include "guest-util.h"
#include "vector-arch.h"

#define SOAK_FUZZ_PATH	"/bin/soak-fuzz"
/* The smallest table the module takes: churn fills it and empties it. */
#define CHURN_TABLE	64
#define CHURN_BATCH	160	/* half of them use V: more than the table holds */
/* Small stacks: glibc keeps a whole batch's for the next (its cache is 40 MiB). */
#define CHURN_STACK	(64 * 1024)
#define SPINNERS	2
#define UNLOAD_MS	10000
#define DRAIN_MS	30000
/* What the end keeps of a budget: the module's last unload and the leak scan. */
#define SCAN_RESERVE_MS	45000

static int failures;
static const char *fuzz_args = "";
static unsigned long nr_threads = 5000, nr_cycles = 100;
static long budget_ms;		/* -t: the stage's time; 0 for none */
static long phase_end_ms;	/* when the running phase's share is spent */

static void __attribute__((format(printf, 3, 4)))
fail(const char *where, int line, const char *fmt, ...)
{
	va_list ap;

	failures++;
	printf("soak: FAIL %s:%d: ", where, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define CHECK(cond, ...) \
	((cond) ? (void)0 : fail(__func__, __LINE__, __VA_ARGS__))

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Runs soak-fuzz with @args (colon-separated: boot-guest splits at commas). */
static int run_fuzz(const char *args)
{
	char *argv[32], *copy = strdup(args), *save = NULL, *tok, seconds[24];
	int argc = 0, status;
	long left_s;
	pid_t pid;

	argv[argc++] = SOAK_FUZZ_PATH;
	if (phase_end_ms) {
		left_s = (phase_end_ms - now_ms()) / 1000;
		snprintf(seconds, sizeof(seconds), "%ld", left_s > 10 ? left_s : 10);
		argv[argc++] = "-t";
		argv[argc++] = seconds;
	}
	for (tok = strtok_r(copy, ":", &save); tok && argc < 31;
	     tok = strtok_r(NULL, ":", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		execv(SOAK_FUZZ_PATH, argv);
		_exit(127);
	}
	free(copy);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Whether the running phase has spent its share of -t. */
static bool share_spent(void)
{
	return phase_end_ms && now_ms() >= phase_end_ms;
}

/* A phase that stopped at its share of -t before its count says so. */
static void stopped_early(const char *what, unsigned long done, unsigned long asked)
{
	if (done < asked)
		printf("soak: %s stopped by its share of -t at %lu of %lu\n", what, done, asked);
}

/* Threads that keep vector state live and switching, until told to stop. */
static volatile int spinners_stop;

static void *spinner_main(void *arg)
{
	(void)arg;
	while (!spinners_stop) {
		arch_touch_vector();
		usleep(500);
	}
	return NULL;
}

/* A thread that only waits, its tid published: a hint target. */
struct parked {
	pthread_t thread;
	pid_t tid;
	int quit[2];
};

static void *parked_main(void *arg)
{
	struct parked *p = arg;
	char c;

	__atomic_store_n(&p->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (read(p->quit[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static int parked_start(struct parked *p)
{
	p->tid = 0;
	if (pipe(p->quit) || pthread_create(&p->thread, NULL, parked_main, p))
		return -1;
	while (!__atomic_load_n(&p->tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	return 0;
}

static void parked_stop(struct parked *p)
{
	close(p->quit[1]);
	pthread_join(p->thread, NULL);
	close(p->quit[0]);
}

static int cpus_hint(int fd, pid_t tid, __u32 flags, const cpu_set_t *set)
{
	struct rvvstat_hint h = {
		.size = sizeof(h), .target = tid,
		.flags = flags | RVVSTAT_HINT_CPUS,
		.cpus = (uintptr_t)set, .cpus_size = sizeof(*set),
	};

	return ioctl(fd, RVVSTAT_IOC_SET_HINT, &h) ? -errno : 0;
}

static bool affinity_is(pid_t tid, const cpu_set_t *want)
{
	cpu_set_t got;

	return !sched_getaffinity(tid, sizeof(got), &got) && CPU_EQUAL(&got, want);
}

/* A GET_TASKS dump begun and left unread after its first part. */
static int dump_in_flight(void)
{
	char buf[8192];
	int fd = genl_open(), family;

	if (fd < 0)
		return fd;
	family = genl_family(fd, RVVSTAT_GENL_NAME);
	if (family < 0 ||
	    genl_send(fd, family, RVVSTAT_CMD_GET_TASKS, NLM_F_DUMP, NULL, 0, 0) ||
	    genl_recv(fd, buf, sizeof(buf), 5000) <= 0) {
		close(fd);
		return -EPROTO;
	}
	return fd;
}

/*
 * Each cycle loads the module, sets a hint that applies now and one that
 * waits for a first vector use that never comes, leaves a netlink dump and
 * a debugfs read half done, tries to unload (refused while they hold it),
 * ends them and unloads, all under the spinners' load. After, the applied
 * setting stays (as documented) and the waiting one changed nothing.
 */
static void load_unload_cycles(void)
{
	int cycles = nr_cycles;
	cpu_set_t base, one;
	struct parked applied, waiting;
	int i, done = 0, refused = 0;
	long load_ms = 0, unload_ms = 0, cycle_ms = 0;	/* where a cycle's time goes */

	if (sched_getaffinity(0, sizeof(base), &base)) {
		CHECK(0, "sched_getaffinity: %s", strerror(errno));
		return;
	}
	CPU_ZERO(&one);
	for (i = CPU_SETSIZE - 1; i >= 0 && !CPU_ISSET(i, &base); i--)
		;
	CPU_SET(i, &one);
	if (parked_start(&applied) || parked_start(&waiting)) {
		CHECK(0, "no parked threads");
		return;
	}
	for (i = 0; i < cycles && !share_spent(); i++) {
		long t0 = now_ms(), t1, t2;
		char buf[256];
		int dev, nl, dbg, err;

		err = module_load("");
		load_ms += now_ms() - t0;
		if (err) {
			CHECK(0, "cycle %d: load: %s", i, strerror(-err));
			break;
		}
		dev = device_open();
		CHECK(dev >= 0, "cycle %d: open: %s", i, strerror(-dev));
		CHECK(!cpus_hint(dev, applied.tid, 0, &one), "cycle %d: hint now", i);
		CHECK(!cpus_hint(dev, waiting.tid, RVVSTAT_HINT_ON_VECTOR_USE, &one),
		      "cycle %d: hint at first use", i);
		CHECK(affinity_is(applied.tid, &one), "cycle %d: not applied", i);
		nl = dump_in_flight();
		CHECK(nl >= 0, "cycle %d: dump: %s", i, strerror(-nl));
		dbg = open(DEBUGFS_DIR "tasks", O_RDONLY);
		CHECK(dbg >= 0 && read(dbg, buf, sizeof(buf)) > 0,
		      "cycle %d: debugfs tasks", i);
		close(dev);
		/*
		 * The dump and the open file hold the module (genetlink and
		 * debugfs take a reference): the unload is refused, and
		 * both go on working...
		 */
		err = module_unload();
		CHECK(err == -EAGAIN || err == -EBUSY,
		      "cycle %d: unloaded under a dump and a reader: %s", i,
		      strerror(-err));
		refused += err != 0;
		CHECK(dbg < 0 || read(dbg, buf, sizeof(buf)) >= 0,
		      "cycle %d: debugfs after a refused unload: %s", i,
		      strerror(errno));
		/* ...until they go. */
		if (nl >= 0)
			close(nl);
		if (dbg >= 0)
			close(dbg);
		t1 = now_ms();
		err = err ? module_unload_within(UNLOAD_MS) : 0;
		t2 = now_ms();
		unload_ms += t2 - t1;
		cycle_ms += t2 - t0;
		CHECK(!err, "cycle %d: unload: %s", i, strerror(-err));
		CHECK(affinity_is(applied.tid, &one),
		      "cycle %d: the applied mask did not stay", i);
		CHECK(affinity_is(waiting.tid, &base),
		      "cycle %d: a waiting hint moved its thread", i);
		sched_setaffinity(applied.tid, sizeof(base), &base);
		if (err)
			break;
		done++;
	}
	parked_stop(&applied);
	parked_stop(&waiting);
	printf("soak: load-unload cycles %d\n", done);
	stopped_early("load-unload cycles", done, cycles);
	printf("soak: unloads refused under a dump and a reader %d\n", refused);
	if (done)
		printf("soak: cycle ms %ld: load %ld, unload %ld, the rest %ld\n", cycle_ms / done,
		       load_ms / done, unload_ms / done, (cycle_ms - load_ms - unload_ms) / done);
}

/* A batch's threads all live at once, so that they overflow the table. */
static pthread_barrier_t churn_barrier;
static int churn_fd;
static unsigned long churn_rows;	/* threads that found their own row */

/* A churning thread: @arg says whether it uses V (half do) or only lives and dies. */
static void *churn_main(void *arg)
{
	struct rvvstat_task_stats ts = { .size = sizeof(ts) };

	pthread_barrier_wait(&churn_barrier);
	if (!arg)
		return NULL;
	arch_touch_vector();
	if (!ioctl(churn_fd, RVVSTAT_IOC_GET_TASK_STATS, &ts) &&
	    ts.counters[RVVSTAT_FIRST_USE] == 1)
		__atomic_add_fetch(&churn_rows, 1, __ATOMIC_RELAXED);
	sched_yield();
	return NULL;
}

static int snapshot(int fd, struct rvvstat_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	return ioctl(fd, RVVSTAT_IOC_SNAPSHOT, s) ? -errno : 0;
}

/*
 * The exited aggregate's first uses, once at least @want more than @s0's:
 * a row reaches it when its thread is freed, after an RCU grace period.
 */
static __u64 drained_exited(int fd, const struct rvvstat_snapshot *s0,
			    __u64 want, struct rvvstat_snapshot *s)
{
	long end = now_ms() + DRAIN_MS;
	__u64 got = 0;

	do {
		if (snapshot(fd, s))
			break;
		got = s->exited[RVVSTAT_FIRST_USE] - s0->exited[RVVSTAT_FIRST_USE];
		if (got >= want)
			break;
		usleep(50 * 1000);
	} while (now_ms() < end);
	return got;
}

/*
 * @threads threads, CHURN_BATCH at a time, every other one using V once,
 * through a table of CHURN_TABLE rows: it fills (table_full) and empties.
 * Each first use counts once; each thread that had a row leaves its count
 * in the exited aggregate; every row comes back; a thread after it gets a
 * row.
 */
static void churn(void)
{
	unsigned long threads = nr_threads;
	struct rvvstat_snapshot s0, s1;
	struct rvvstat_task_stats ts;
	pthread_t batch[CHURN_BATCH];
	unsigned long made = 0, made_v = 0;
	pthread_attr_t small;
	struct parked after;
	__u64 first, exited, refused;
	char params[32];
	int fd, err, i, n;
	bool uses_v;

	snprintf(params, sizeof(params), "table_size=%d", CHURN_TABLE);
	err = module_load(params);
	if (err) {
		CHECK(0, "load %s: %s", params, strerror(-err));
		return;
	}
	fd = device_open();
	churn_fd = fd;
	churn_rows = 0;
	if (fd < 0 || snapshot(fd, &s0)) {
		CHECK(0, "snapshot before churn");
		goto out;
	}
	pthread_attr_init(&small);
	pthread_attr_setstacksize(&small, CHURN_STACK);
	while (made < threads && !share_spent()) {
		n = threads - made < CHURN_BATCH ? threads - made : CHURN_BATCH;
		pthread_barrier_init(&churn_barrier, NULL, n);
		for (i = 0; i < n; i++) {
			uses_v = !(i % 2);
			if (pthread_create(&batch[i], &small, churn_main, (void *)(uintptr_t)uses_v))
				break;
			made_v += uses_v;
		}
		if (i < n) {
			/* The barrier would never open: give up on this run. */
			CHECK(0, "pthread_create: %s", strerror(errno));
			exit(1);
		}
		for (i = 0; i < n; i++)
			pthread_join(batch[i], NULL);
		pthread_barrier_destroy(&churn_barrier);
		made += n;
	}
	pthread_attr_destroy(&small);
	/* Every row comes back: each one's count reaches the aggregate. */
	exited = drained_exited(fd, &s0, churn_rows, &s1);
	first = s1.counters[RVVSTAT_FIRST_USE] - s0.counters[RVVSTAT_FIRST_USE];
	refused = s1.cpu_events[RVVSTAT_CPU_TABLE_FULL] -
		  s0.cpu_events[RVVSTAT_CPU_TABLE_FULL];
	printf("soak: threads churned %lu, %lu of them with V\n", made, made_v);
	stopped_early("churn", made, threads);
	printf("soak: churn table_full %llu\n", (unsigned long long)refused);
	printf("soak: churn threads with a row %lu\n", churn_rows);
	printf("soak: churn exited first uses beyond them %lld\n",
	       (long long)(exited - churn_rows));
	/* Not checked: the guest's own tasks (kworkers) come and go. */
	printf("soak: churn rows live %u, before %u\n", s1.tasks_live,
	       s0.tasks_live);
	CHECK(first == made_v, "%llu first uses counted, %lu threads used V",
	      (unsigned long long)first, made_v);
	CHECK(refused > 0, "the table of %d rows never filled", CHURN_TABLE);
	/* A kworker born while the table is full is refused too. */
	CHECK(refused >= made_v - churn_rows, "%llu refused, %lu threads with V without a row",
	      (unsigned long long)refused, made_v - churn_rows);
	/* The guest's own exits may add to it, never take away. */
	CHECK(exited >= churn_rows,
	      "exited aggregate holds %llu first uses, %lu threads had rows",
	      (unsigned long long)exited, churn_rows);
	/* And back: a new thread gets a row again. */
	if (parked_start(&after) == 0) {
		memset(&ts, 0, sizeof(ts));
		ts.size = sizeof(ts);
		ts.tid = after.tid;
		CHECK(!ioctl(fd, RVVSTAT_IOC_GET_TASK_STATS, &ts),
		      "no row for a thread after the churn: %s", strerror(errno));
		parked_stop(&after);
	}
out:
	if (fd >= 0)
		close(fd);
	err = module_unload_within(UNLOAD_MS);
	CHECK(!err, "unload after churn: %s", strerror(-err));
}

/* Leaks since boot, once the module is gone and what it freed aged. */
static void kmemleak_scan(void)
{
	static char report[1 << 16];
	int leaks;

	sleep(6);
	leaks = kmemleak_report(report, sizeof(report));
	if (leaks < 0) {
		CHECK(0, "kmemleak: %s", strerror(-leaks));
		return;
	}
	if (leaks)
		printf("%s", report);
	printf("soak: kmemleak objects %d\n", leaks);
	CHECK(!leaks, "kmemleak reports %d objects", leaks);
}

/* Whether /proc/kallsyms names @symbol: the kernel was built with it. */
static bool kernel_has(const char *symbol)
{
	char line[256], name[128];
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %127s", name) == 1 &&
			!strcmp(name, symbol);
	if (f)
		fclose(f);
	return found;
}

/*
 * The stage means nothing on a kernel that would not see the bugs. Generic
 * KASAN and UBSAN are on from boot where they are built in (riscv's KASAN
 * prints no line at init); KFENCE says so.
 */
static void kernel_catches_bugs(void)
{
	static char log[1 << 20];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);

	CHECK(kernel_has("__asan_report_load8_noabort"), "no KASAN in this kernel");
	CHECK(kernel_has("__ubsan_handle_out_of_bounds"), "no UBSAN in this kernel");
	if (n < 0) {
		CHECK(0, "klogctl: %s", strerror(errno));
		return;
	}
	log[n] = '\0';
	CHECK(strstr(log, "kfence: initialized"), "no KFENCE in the kernel log");
}

static void fuzz(void)
{
	int status;

	if (!strcmp(fuzz_args, "-")) {
		printf("soak: fuzz skipped (-f -)\n");
		return;
	}
	status = run_fuzz(fuzz_args);
	CHECK(status == 0, "soak-fuzz exited with %d", status);
}

/*
 * The phases bounded by counts come first, so that under -t the fuzzer's
 * calls have all the time they leave.
 */
static const struct phase {
	const char *name;
	void (*run)(void);
	bool under_load;	/* with vector threads running beside it */
	unsigned int share_pct;	/* of -t at most; 0: up to the scan's reserve */
} phases[] = {
	{ "kernel_catches_bugs", kernel_catches_bugs, false, 0 },
	{ "load_unload_cycles", load_unload_cycles, true, 30 },
	{ "churn", churn, true, 20 },
	{ "fuzz", fuzz, false, 0 },
	{ "kmemleak", kmemleak_scan, false, 0 },
};

/* When @p must stop, under -t: its share from now, within the stage's end. */
static long share_end(const struct phase *p, long stage_start_ms)
{
	long end = stage_start_ms + budget_ms - SCAN_RESERVE_MS;
	long share = now_ms() + budget_ms * p->share_pct / 100;

	if (!budget_ms)
		return 0;
	if (!p->share_pct || share > end)
		return end;
	return share;
}

static void usage(void)
{
	fprintf(stderr, "usage: soak [-t SECONDS] [-f FUZZ_ARGS|-] [-c CYCLES] [-n THREADS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t spinners[SPINNERS];
	int c, i, failed = 0;
	long start = now_ms(), t0;
	size_t p;

	while ((c = getopt(argc, argv, "t:f:c:n:")) != -1) {
		if (c == 't')
			budget_ms = count_arg(optarg, 1000000, usage) * 1000;
		else if (c == 'f')
			fuzz_args = optarg;
		else if (c == 'c')
			nr_cycles = count_arg(optarg, 100000, usage);
		else if (c == 'n')
			nr_threads = count_arg(optarg, 10000000, usage);
		else
			usage();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Leaks from boot are not ours: only what comes after is reported. */
	write_file(KMEMLEAK_PATH, "clear");
	printf("1..%zu\n", sizeof(phases) / sizeof(phases[0]));
	for (p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
		int before = failures;

		phase_end_ms = share_end(&phases[p], start);
		t0 = now_ms();
		spinners_stop = 0;
		for (i = 0; phases[p].under_load && i < SPINNERS; i++)
			pthread_create(&spinners[i], NULL, spinner_main, NULL);
		phases[p].run();
		spinners_stop = 1;
		for (i = 0; phases[p].under_load && i < SPINNERS; i++)
			pthread_join(spinners[i], NULL);
		failed += failures != before;
		printf("soak: phase_ms %s %ld\n", phases[p].name, now_ms() - t0);
		printf("%sok %zu soak.%s\n", failures != before ? "not " : "",
		       p + 1, phases[p].name);
	}
	printf("soak: %s\n", failed ? "FAIL" : "PASS");
	return failed ? 1 : 0;
}
