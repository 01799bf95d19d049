// SPDX-License-Identifier: GPL-2.0
/*
 * vecload: vector workload for the rvvstat guest tests, on RISC-V (V) and
 * on x86_64 (AVX2).
 *
 * Vector threads fill all vector registers with a pattern unique to
 * (thread, register, iteration) and then either
 *   spin  - burn a scalar loop with the registers live, so the timer
 *           preempts the thread mid-use, then store and verify them, or
 *   yield - call sched_yield() with the registers live; verified only where
 *           the kernel must keep them across a syscall (x86, not RISC-V,
 *           whose ABI lets the kernel discard them),
 *   mixed - rotate spin, yield and a pipe round trip large enough that
 *           the RISC-V kernel copies it with vector instructions
 *           (kernel-mode V). x86 kernels copy it without the FPU, so
 *           there it only adds syscalls with the registers live.
 * Scalar threads spin without ever executing a vector instruction, so the
 * kernel never enables V for them and must count no saves.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guest-util.h"
#include "vector-arch.h"

/* Above CONFIG_RISCV_ISA_V_UCOPY_THRESHOLD (768): copied with V. */
#define COPY_BYTES	4096
/*
 * Scalar loop per iteration, about 1.3 ms under TCG: shorter than a 4 ms tick,
 * but the registers are live for nearly all of a thread's time, so timer
 * preemptions land inside it.
 */
#define SPIN_LOOPS	3000000UL

enum mode { MODE_SPIN, MODE_YIELD, MODE_MIXED };

struct worker {
	pthread_t thread;
	unsigned int index;	/* among the vector threads */
	int vector;
	pid_t tid;
	unsigned long iterations;
	unsigned long corrupt;
	uint8_t *expect;	/* NR_VREGS * vlenb bytes each */
	uint8_t *actual;
	int pipe[2];		/* for copy iterations; equal until opened */
};

static enum mode mode = MODE_MIXED;
static int announce;
static unsigned long vlenb;
static pthread_barrier_t start;
static atomic_int stop;

/* SIGINT/SIGTERM end the run early but still verify and report. */
static void stop_on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, 1);
}

/* The first bytes name the owner exactly, so no swap can go unnoticed. */
static uint8_t pattern_byte(unsigned int t, unsigned int r, unsigned long i,
			    unsigned long j)
{
	switch (j) {
	case 0:
		return t;
	case 1:
		return r;
	case 2:
		return i;
	case 3:
		return i >> 8;
	}
	return (t * 73 + r * 151 + i * 29 + j * 7) ^ 0x5a;
}

static void fill_pattern(struct worker *w)
{
	unsigned long j;
	unsigned int r;

	for (r = 0; r < NR_VREGS; r++)
		for (j = 0; j < vlenb; j++)
			w->expect[r * vlenb + j] =
				pattern_byte(w->index, r, w->iterations, j);
}

/*
 * Some value in 1..vlenb that changes per thread and iteration, for the
 * arch code's control state: vl on RISC-V, the MXCSR rounding mode on x86.
 */
static unsigned long pick_ctl(struct worker *w)
{
	return 1 + (w->index * 7 + w->iterations) % vlenb;
}

static unsigned long count_corrupt(struct worker *w)
{
	unsigned long bad = 0;
	unsigned int r;

	for (r = 0; r < NR_VREGS; r++)
		if (memcmp(w->expect + r * vlenb, w->actual + r * vlenb, vlenb))
			bad++;
	return bad;
}

/*
 * A syscall issued with the registers live and dirty; where the kernel
 * must keep them across it, check that it did.
 */
static long vector_syscall(struct worker *w, long nr, long arg0, long arg1,
			   long arg2)
{
	bool keep = !arch_syscall_discards_state();
	long ret;

	ret = arch_vector_syscall(w->expect, keep ? w->actual : NULL,
				  pick_ctl(w), nr, arg0, arg1, arg2);
	if (keep)
		w->corrupt += count_corrupt(w);
	return ret;
}

/*
 * A pipe round trip of COPY_BYTES: a RISC-V kernel copies with vector
 * instructions (usercopy above its threshold), so kernel_vector_begin()
 * saves the registers this thread has just made dirty. An x86 kernel
 * copies with plain integer moves: no kernel FPU use to exercise there.
 */
static void copy_once(struct worker *w)
{
	char buf[COPY_BYTES] = { 0 };

	if (w->pipe[0] == w->pipe[1] && pipe(w->pipe))
		return;
	if (vector_syscall(w, __NR_write, w->pipe[1], (long)buf,
			   sizeof(buf)) > 0)
		vector_syscall(w, __NR_read, w->pipe[0], (long)buf,
			       sizeof(buf));
}

static void vector_iteration(struct worker *w)
{
	fill_pattern(w);
	if (mode == MODE_YIELD ||
	    (mode == MODE_MIXED && w->iterations % 3 == 1)) {
		vector_syscall(w, __NR_sched_yield, 0, 0, 0);
		return;
	}
	if (mode == MODE_MIXED && w->iterations % 3 == 2) {
		copy_once(w);
		return;
	}
	if (!arch_spin_once(w->expect, w->actual, pick_ctl(w), SPIN_LOOPS))
		w->corrupt++;	/* control state lost: counts as one register */
	w->corrupt += count_corrupt(w);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->tid = syscall(SYS_gettid);
	if (announce)
		printf("vecload: thread %d kind=%s\n", w->tid,
		       w->vector ? "vector" : "scalar");
	pthread_barrier_wait(&start);
	while (!atomic_load(&stop)) {
		if (w->vector)
			vector_iteration(w);
		else
			arch_scalar_spin(SPIN_LOOPS);
		w->iterations++;
	}
	return NULL;
}

/* Read in a throwaway thread so that the main thread never enables V. */
static void *vlenb_main(void *arg)
{
	(void)arg;
	vlenb = arch_vlenb();
	return NULL;
}

static void die(const char *what, int err)
{
	die_with(2, "vecload", what, err);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: vecload [-t THREADS] [-s SCALAR] [-d SECONDS] [-m spin|yield|mixed] [-n NICE] [-w]\n");
	exit(2);
}

static enum mode parse_mode(const char *arg)
{
	if (!strcmp(arg, "spin"))
		return MODE_SPIN;
	if (!strcmp(arg, "yield"))
		return MODE_YIELD;
	if (!strcmp(arg, "mixed"))
		return MODE_MIXED;
	usage();
	return MODE_MIXED;
}

static unsigned int parse_uint(const char *arg)
{
	char *end;
	unsigned long val;

	errno = 0;
	val = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || val > 1000)
		usage();
	return val;
}

static void start_workers(struct worker *w, unsigned int vec, unsigned int n)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		w[i].index = i;
		w[i].vector = i < vec;
		if (w[i].vector) {
			w[i].expect = malloc(NR_VREGS * vlenb);
			w[i].actual = malloc(NR_VREGS * vlenb);
			if (!w[i].expect || !w[i].actual)
				die("malloc", ENOMEM);
		}
		err = pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
		if (err)
			die("pthread_create", err);
	}
}

static unsigned long report(struct worker *w, unsigned int n)
{
	unsigned long total = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		printf("vecload: tid=%d kind=%s iterations=%lu corrupt=%lu\n",
		       w[i].tid, w[i].vector ? "vector" : "scalar",
		       w[i].iterations, w[i].corrupt);
		total += w[i].corrupt;
	}
	printf("vecload: total corrupt=%lu\n", total);
	return total;
}

int main(int argc, char **argv)
{
	unsigned int vec = 4, scalar = 0, seconds = 2, nice_level = 0, n, i;
	struct worker *w;
	pthread_t helper;
	int opt, err;

	while ((opt = getopt(argc, argv, "t:s:d:m:n:w")) != -1) {
		switch (opt) {
		case 't':
			vec = parse_uint(optarg);
			break;
		case 's':
			scalar = parse_uint(optarg);
			break;
		case 'd':
			seconds = parse_uint(optarg);
			break;
		case 'm':
			mode = parse_mode(optarg);
			break;
		case 'n':
			nice_level = parse_uint(optarg);
			if (nice_level > 19)
				usage();
			break;
		case 'w':
			announce = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	signal(SIGINT, stop_on_signal);
	signal(SIGTERM, stop_on_signal);
	/* The console may be a pipe: keep lines whole and in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* Scalar-only runs must work on a guest without V (--no-v). */
	if (arch_has_vector()) {
		err = pthread_create(&helper, NULL, vlenb_main, NULL);
		if (err)
			die("pthread_create", err);
		pthread_join(helper, NULL);
	} else if (vec) {
		die("vector threads", ENOTSUP);
	}
	printf("vecload: vlenb=%lu\n", vlenb);

	/* A background load: the workers inherit it from this thread. */
	if (nice_level && setpriority(PRIO_PROCESS, 0, nice_level))
		die("setpriority", errno);
	n = vec + scalar;
	w = calloc(n ? n : 1, sizeof(*w));
	if (!w)
		die("calloc", ENOMEM);
	pthread_barrier_init(&start, NULL, n + 1);
	start_workers(w, vec, n);
	pthread_barrier_wait(&start);
	sleep(seconds);
	atomic_store(&stop, 1);
	for (i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
	return report(w, n) ? 1 : 0;
}
