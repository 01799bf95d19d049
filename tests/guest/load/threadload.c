// SPDX-License-Identifier: GPL-2.0
/*
 * threadload: many threads that hold vector state and wake periodically,
 * for rvvtop's cost bench (tests/guest/bench/rvvtop-bench.sh): the module's task
 * table gets one row per thread, and every row's counts keep moving.
 *
 * Each thread makes its vector state live (arch_touch_vector()) and then
 * sleeps to its next wake-up, every PERIOD ms on an absolute clock, the
 * threads' phases spread evenly over the period; so every thread is
 * switched out, with live state, about once per period, and the CPUs
 * see THREADS / PERIOD evenly spread wake-ups instead of a burst.
 *
 * Prints "threadload: ready pid=P threads=N period_ms=M" once every thread
 * has run, then runs until SIGINT/SIGTERM or -d SECONDS, and last
 * "threadload: wakes min=A max=B total=C" (A, B per thread).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest-util.h"
#include "vector-arch.h"

#define MAX_THREADS	100000
/* Enough for a loop and glibc's nanosleep; 2000 threads of 8 MiB would not be. */
#define STACK_BYTES	(64 * 1024)

struct sleeper {
	pthread_t thread;
	struct timespec first;	/* the first wake-up */
	unsigned long wakes;
};

static long period_ns = 1000000000L;
static atomic_int stop, running;

static void stop_on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, 1);
}

static void usage(void)
{
	fprintf(stderr, "usage: threadload [-t THREADS] [-p PERIOD_MS] [-d SECONDS]\n");
	exit(2);
}

static void die(const char *what, int err)
{
	die_with(2, "threadload", what, err);
}

static void add_ns(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

static int before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	struct timespec next = s->first, now;

	arch_touch_vector();
	atomic_fetch_add(&running, 1);
	while (!atomic_load(&stop)) {
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		arch_touch_vector();
		s->wakes++;
		/* Woken late (a busy CPU): skip the missed wake-ups, keep the phase. */
		clock_gettime(CLOCK_MONOTONIC, &now);
		do
			add_ns(&next, period_ns);
		while (!before(&now, &next));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long threads = 2000, seconds = 0, i, min = -1UL, max = 0, total = 0;
	struct sleeper *s;
	struct timespec start;
	pthread_attr_t attr;
	int opt, err;

	while ((opt = getopt(argc, argv, "t:p:d:")) != -1) {
		switch (opt) {
		case 't':
			threads = count_arg(optarg, MAX_THREADS, usage);
			break;
		case 'p':
			period_ns = (long)count_arg(optarg, 60000, usage) * 1000000L;
			break;
		case 'd':
			seconds = count_arg(optarg, 86400, usage);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	if (!arch_has_vector())
		die("vector threads", ENOTSUP);
	signal(SIGINT, stop_on_signal);
	signal(SIGTERM, stop_on_signal);
	/* The console may be a pipe: keep lines whole and in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	s = calloc(threads, sizeof(*s));
	if (!s)
		die("calloc", ENOMEM);
	err = pthread_attr_init(&attr) ?: pthread_attr_setstacksize(&attr, STACK_BYTES);
	if (err)
		die("pthread_attr", err);
	/* Phases from one period after the start (missed ones are skipped). */
	clock_gettime(CLOCK_MONOTONIC, &start);
	add_ns(&start, period_ns);
	for (i = 0; i < threads; i++) {
		s[i].first = start;
		add_ns(&s[i].first, (long)(period_ns / threads * i));
		err = pthread_create(&s[i].thread, &attr, sleeper_main, &s[i]);
		if (err)
			die("pthread_create", err);
	}
	while ((unsigned long)atomic_load(&running) < threads)
		usleep(10000);
	printf("threadload: ready pid=%d threads=%lu period_ms=%ld\n", getpid(),
	       threads, period_ns / 1000000L);
	for (i = 0; !atomic_load(&stop) && (!seconds || i < seconds); i++)
		sleep(1);	/* a signal cuts it short */
	atomic_store(&stop, 1);
	for (i = 0; i < threads; i++) {
		pthread_join(s[i].thread, NULL);
		min = s[i].wakes < min ? s[i].wakes : min;
		max = s[i].wakes > max ? s[i].wakes : max;
		total += s[i].wakes;
	}
	printf("threadload: wakes min=%lu max=%lu total=%lu\n", min, max, total);
	return 0;
}
