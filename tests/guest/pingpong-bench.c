// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong-bench: what rvvstat costs a context switch (`make bench`).
 *
 * Two threads pinned to CPU 0 pass a byte back and forth through two pipes,
 * so every round trip is two context switches on one CPU. Both threads have
 * executed a vector instruction, and every syscall leaves their vector state
 * dirty, so each of those switches saves the vector registers. The time per
 * round trip is measured without the module and with it loaded in several
 * configurations, in interleaved rounds so that drift of the host spreads
 * over all of them; each configuration reports its median.
 *
 * Build with -march=rv64gc: C code must never touch a vector register, as
 * GCC 12 cannot be told that inline asm clobbers them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest-util.h"
#include "vector-arch.h"

/* About 2 s per measurement under QEMU TCG (~140 us per round trip). */
#define DEFAULT_ROUND_TRIPS	15000UL
#define DEFAULT_ROUNDS		7
#define MAX_ROUNDS		99
/* Before the clock starts: first-use traps, page faults, wakeup paths warm. */
#define WARMUP_ROUND_TRIPS	200

struct mode {
	const char *name;
	const char *params;	/* NULL: the module is not loaded */
	long long ns[MAX_ROUNDS];	/* per round trip, one per round */
};

enum { NO_MODULE, COUNTING, SWITCH_TIMING, DEFAULTS, EVERY_SAVE };

static struct mode modes[] = {
	[NO_MODULE] = { .name = "no module" },
	[COUNTING] = { .name = "counting only",
		       .params = "switch_timing=0 probe_sample=0" },
	[SWITCH_TIMING] = { .name = "switch timing",
			    .params = "switch_timing=1 probe_sample=0" },
	[DEFAULTS] = { .name = "default", .params = "" },
	[EVERY_SAVE] = { .name = "probes every save", .params = "probe_sample=1" },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct side {
	pthread_t thread;
	bool leads;		/* writes first, and times the run */
	int in, out;
	long long ns;		/* the leader's whole timed run */
};

static unsigned long round_trips = DEFAULT_ROUND_TRIPS;
static unsigned int rounds = DEFAULT_ROUNDS;

static void die_err(const char *what, int err)
{
	die_with(1, "bench: error", what, err);
}

static void die(const char *what)
{
	die_err(what, errno);
}

static void usage(void)
{
	fprintf(stderr, "usage: pingpong-bench [-n ROUND_TRIPS] [-r ROUNDS (1..%d)]\n",
		MAX_ROUNDS);
	exit(2);
}

/*
 * Makes vector state live in this thread. On RISC-V every syscall then marks
 * it dirty, so every switch away from the thread saves it.
 */
static void vector_on(void)
{
	arch_touch_vector();
}

static void pass_byte(int in, int out, bool leads)
{
	char byte = 0;
	ssize_t n;

	if (leads && write(out, &byte, 1) != 1)
		die("write to pipe");
	n = read(in, &byte, 1);
	if (n != 1)
		die_err("read from pipe", n < 0 ? errno : EPIPE);
	if (!leads && write(out, &byte, 1) != 1)
		die("write to pipe");
}

static long long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000LL + b->tv_nsec - a->tv_nsec;
}

static void *side_main(void *arg)
{
	struct side *s = arg;
	struct timespec start, end;
	unsigned long i;
	int err;

	err = pin_to_cpu(0);
	if (err)
		die_err("sched_setaffinity to CPU 0", -err);
	vector_on();
	for (i = 0; i < WARMUP_ROUND_TRIPS; i++)
		pass_byte(s->in, s->out, s->leads);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < round_trips; i++)
		pass_byte(s->in, s->out, s->leads);
	clock_gettime(CLOCK_MONOTONIC, &end);
	s->ns = ns_between(&start, &end);
	return NULL;
}

/* Fresh threads per run, so the main thread never enables V. */
static long long measure(int ping[2], int pong[2])
{
	struct side sides[2] = {
		{ .leads = true, .in = pong[0], .out = ping[1] },
		{ .leads = false, .in = ping[0], .out = pong[1] },
	};
	int i, err;

	for (i = 0; i < 2; i++) {
		err = pthread_create(&sides[i].thread, NULL, side_main, &sides[i]);
		if (err)
			die_err("pthread_create", err);
	}
	for (i = 0; i < 2; i++)
		pthread_join(sides[i].thread, NULL);
	return (sides[0].ns + round_trips / 2) / round_trips;
}

static void die_load(const struct mode *m, int err)
{
	char what[128];

	snprintf(what, sizeof(what), "loading %s with \"%s\"", MODULE_PATH,
		 m->params);
	die_err(what, -err);
}

static void load(const struct mode *m)
{
	int err = module_load(m->params);

	if (err)
		die_load(m, err);
}

static void unload(void)
{
	int err = module_unload();

	if (err)
		die_err("unloading rvvstat", -err);
}

/* The module's own latency figures after a default run, for the record. */
static void print_latency(int ping[2], int pong[2])
{
	static char summary[65536];
	char *line, *save;
	bool inside = false;

	load(&modes[DEFAULTS]);
	measure(ping, pong);
	if (read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)) < 0)
		die("reading the summary");
	unload();
	for (line = strtok_r(summary, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		inside |= !strncmp(line, "  latency", 9);
		if (inside && !strncmp(line, "  cpu ", 6))
			break;
		if (inside)
			printf("bench: %s\n", line);
	}
}

static void run_round(unsigned int r, int ping[2], int pong[2])
{
	unsigned int i;

	printf("bench: round %u/%u:", r + 1, rounds);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		struct mode *m = &modes[i];

		if (m->params)
			load(m);
		m->ns[r] = measure(ping, pong);
		if (m->params)
			unload();
		printf("%s %s %lld", i ? "," : "", m->name, m->ns[r]);
	}
	printf(" ns\n");
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static long long median(const long long *values)
{
	long long sorted[MAX_ROUNDS];

	memcpy(sorted, values, rounds * sizeof(*sorted));
	qsort(sorted, rounds, sizeof(*sorted), cmp_ll);
	if (rounds % 2)
		return sorted[rounds / 2];
	return (sorted[rounds / 2 - 1] + sorted[rounds / 2] + 1) / 2;
}

static void report(void)
{
	long long base = median(modes[NO_MODULE].ns), mid;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		struct mode *m = &modes[i];

		mid = median(m->ns);
		printf("bench: %s: median %lld ns per round trip (%u rounds), ratio %.2f vs no module\n",
		       m->name, mid, rounds, (double)mid / base);
	}
}

int main(int argc, char **argv)
{
	int ping[2], pong[2], opt;
	unsigned int r;
	long vlenb;

	while ((opt = getopt(argc, argv, "n:r:")) != -1) {
		switch (opt) {
		case 'n':
			round_trips = count_arg(optarg, LONG_MAX, usage);
			break;
		case 'r':
			rounds = count_arg(optarg, MAX_ROUNDS, usage);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	/* The console may be a pipe: keep lines whole and in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	vlenb = vlenb_of_cpu();
	if (vlenb < 0)
		die_err("reading vlenb", -vlenb);
	printf("bench: VLEN %ld bits, %ld CPUs, both threads on CPU 0; %lu round trips per measurement, %u rounds\n",
	       vlenb * 8, sysconf(_SC_NPROCESSORS_ONLN), round_trips, rounds);
	if (pipe(ping) || pipe(pong))
		die("pipe");
	for (r = 0; r < rounds; r++)
		run_round(r, ping, pong);
	report();
	print_latency(ping, pong);
	printf("bench: done\n");
	return 0;
}
