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
 *   fuzz    the registry of interfaces (registry.c), as root
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
 *
 * Its pieces, in this folder: this file (setup, the phases in turn, main),
 * soak-fuzz.h (what they share), caller.c (a caller's PRNG, budget and
 * hostile pointers), report.c (counts, findings, the report), threads.c (the
 * threads and processes the calls aim at), ioctl.c, netlink.c and debugfs.c
 * (the three surfaces), registry.c (the fuzz phase's callers), race.c and
 * nobody.c (the other two phases).
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

struct cfg cfg = { .calls = 20000, .seconds = 240, .params = "" };
struct env env;
struct shared *shared;
uint64_t phase_end_ns, phase_share_ns;
unsigned long phase_calls_end;
static uint64_t start_ns;

/* ---- setup and the phases ---- */

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
	{ "race",	phase_race,	75, 60 },
	{ "nobody",	phase_nobody,	100, 90 },
};

static void phase_begin(const struct phase *p)
{
	phase_calls_end = cfg.calls / 100 * p->calls_pct + cfg.calls % 100 * p->calls_pct / 100;
	phase_end_ns = start_ns + cfg.seconds * 10000000ULL * p->time_pct;
	phase_share_ns = cfg.seconds * 10000000ULL * (p->time_pct - (p == phases ? 0 : p[-1].time_pct));
	printf("soak: phase %s begins (calls so far %lu, %llu s)\n", p->name, shared->used,
	       (unsigned long long)((now_ns() - start_ns) / 1000000000ULL));
	fflush(stdout);
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
