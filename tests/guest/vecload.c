// SPDX-License-Identifier: GPL-2.0
/*
 * vecload: RISC-V vector workload for the rvvstat guest tests.
 *
 * Vector threads fill all 32 vector registers with a pattern unique to
 * (thread, register, iteration) and then either
 *   spin  - burn a scalar loop with the registers live, so the timer
 *           preempts the thread mid-use, then store and verify them, or
 *   yield - call sched_yield(), after which the ABI lets the kernel discard
 *           the registers, so nothing is verified,
 *   mixed - rotate spin, yield and a pipe round trip large enough that
 *           the kernel copies it with vector instructions (kernel-mode V).
 * Scalar threads spin without ever executing a vector instruction, so the
 * kernel never enables V for them and must count no saves.
 *
 * Build with -march=rv64gc: C code must never touch a vector register, as
 * GCC 12 cannot be told that inline asm clobbers them.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NR_VREGS	32
/* Above CONFIG_RISCV_ISA_V_UCOPY_THRESHOLD (768): copied with V. */
#define COPY_BYTES	4096
/*
 * Scalar loop per iteration, about 1.3 ms under TCG: shorter than a 4 ms tick,
 * but the registers are live for nearly all of a thread's time, so timer
 * preemptions land inside it.
 */
#define SPIN_LOOPS	3000000UL
/* vtype for "e8, m1, ta, ma": vta (bit 6) and vma (bit 7) set. */
#define VTYPE_E8_M1_TA_MA	0xc0UL
/* AT_HWCAP has one bit per single-letter extension. */
#define HWCAP_V			(1UL << ('V' - 'A'))

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

static unsigned long read_vlenb(void)
{
	unsigned long val;

	asm volatile(".option push\n"
		     ".option arch, +v\n"
		     "csrr %0, vlenb\n"
		     ".option pop\n"
		     : "=r" (val));
	return val;
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

/* Some vl in 1..VLMAX that changes per thread and iteration. */
static unsigned long pick_avl(struct worker *w)
{
	return 1 + (w->index * 7 + w->iterations) % vlenb;
}

/* Load v0..v31 in groups of eight whole registers from @buf. */
#define VLOAD_ALL							\
	"csrr	t0, vlenb\n"						\
	"slli	t0, t0, 3\n"						\
	"mv	t1, %[src]\n"						\
	"vl8re8.v	v0, (t1)\n"					\
	"add	t1, t1, t0\n"						\
	"vl8re8.v	v8, (t1)\n"					\
	"add	t1, t1, t0\n"						\
	"vl8re8.v	v16, (t1)\n"					\
	"add	t1, t1, t0\n"						\
	"vl8re8.v	v24, (t1)\n"

/*
 * One asm block from load to store: the registers stay live across the
 * scalar loop, where the timer interrupt, not a syscall, takes the CPU away.
 * Returns whether vl and vtype survived too.
 */
static int spin_once(struct worker *w)
{
	unsigned long avl = pick_avl(w), vl, vtype;

	asm volatile(".option push\n"
		     ".option arch, +v\n"
		     "vsetvli	zero, %[avl], e8, m1, ta, ma\n"
		     VLOAD_ALL
		     "mv	t2, %[loops]\n"
		     "1:	addi	t2, t2, -1\n"
		     "bnez	t2, 1b\n"
		     "csrr	%[vl], vl\n"
		     "csrr	%[vtype], vtype\n"
		     "mv	t1, %[dst]\n"
		     "vs8r.v	v0, (t1)\n"
		     "add	t1, t1, t0\n"
		     "vs8r.v	v8, (t1)\n"
		     "add	t1, t1, t0\n"
		     "vs8r.v	v16, (t1)\n"
		     "add	t1, t1, t0\n"
		     "vs8r.v	v24, (t1)\n"
		     ".option pop\n"
		     : [vl] "=&r" (vl), [vtype] "=&r" (vtype)
		     : [avl] "r" (avl), [src] "r" (w->expect),
		       [dst] "r" (w->actual), [loops] "r" (SPIN_LOOPS)
		     : "t0", "t1", "t2", "memory");
	return vl == avl && vtype == VTYPE_E8_M1_TA_MA;
}

/* A syscall issued with the registers live and dirty. */
static long vector_syscall(struct worker *w, long nr, long arg0, long arg1,
			   long arg2)
{
	register long a0 asm("a0") = arg0;
	register long a1 asm("a1") = arg1;
	register long a2 asm("a2") = arg2;
	register long a7 asm("a7") = nr;
	unsigned long avl = pick_avl(w);

	asm volatile(".option push\n"
		     ".option arch, +v\n"
		     "vsetvli	zero, %[avl], e8, m1, ta, ma\n"
		     VLOAD_ALL
		     "ecall\n"
		     ".option pop\n"
		     : "+r" (a0)
		     : [avl] "r" (avl), [src] "r" (w->expect), "r" (a1),
		       "r" (a2), "r" (a7)
		     : "t0", "t1", "memory");
	return a0;
}

/*
 * A pipe round trip of COPY_BYTES: the kernel copies with vector
 * instructions (usercopy above its threshold), so kernel_vector_begin()
 * saves the registers this thread has just made dirty.
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

static unsigned long count_corrupt(struct worker *w)
{
	unsigned long bad = 0;
	unsigned int r;

	for (r = 0; r < NR_VREGS; r++)
		if (memcmp(w->expect + r * vlenb, w->actual + r * vlenb, vlenb))
			bad++;
	return bad;
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
	if (!spin_once(w))
		w->corrupt++;	/* vl or vtype lost: counts as one register */
	w->corrupt += count_corrupt(w);
}

static void scalar_iteration(void)
{
	unsigned long n = SPIN_LOOPS;

	asm volatile("1:	addi	%0, %0, -1\n"
		     "bnez	%0, 1b\n"
		     : "+r" (n));
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
			scalar_iteration();
		w->iterations++;
	}
	return NULL;
}

/* Read in a throwaway thread so that the main thread never enables V. */
static void *vlenb_main(void *arg)
{
	(void)arg;
	vlenb = read_vlenb();
	return NULL;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "vecload: %s: %s\n", what, strerror(err));
	exit(2);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: vecload [-t THREADS] [-s SCALAR] [-d SECONDS] [-m spin|yield|mixed] [-w]\n");
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
	unsigned int vec = 4, scalar = 0, seconds = 2, n, i;
	struct worker *w;
	pthread_t helper;
	int opt, err;

	while ((opt = getopt(argc, argv, "t:s:d:m:w")) != -1) {
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
	if (getauxval(AT_HWCAP) & HWCAP_V) {
		err = pthread_create(&helper, NULL, vlenb_main, NULL);
		if (err)
			die("pthread_create", err);
		pthread_join(helper, NULL);
	} else if (vec) {
		die("vector threads", ENOTSUP);
	}
	printf("vecload: vlenb=%lu\n", vlenb);

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
