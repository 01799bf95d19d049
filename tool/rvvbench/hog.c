// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hog.h"
#include "proc.h"

struct bench_hog_thread {
	pthread_t thread;
	struct bench_hog *hog;
	int cpu, duty, pinned;	/* pinned: 0 not yet, 1 done, -errno failed */
	int64_t period_ns;
	uint64_t iterations;
	double cpu_s, wall_s, slept_s, wait_s;
};

static int64_t now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static struct timespec to_ts(int64_t ns)
{
	return (struct timespec){ .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
}

/*
 * The busy part: a xorshift step, plain integer work. It must stay scalar:
 * a hog that used vector registers would have its own V state saved and
 * restored on every switch and change the very cost rvvbench measures. On
 * riscv the tools build for rv64gc (no V), and this loop has nothing a
 * vectorizer could take anyway (each step depends on the last).
 */
static uint64_t spin_until(int64_t deadline, uint64_t *iterations, volatile int *stop)
{
	static volatile uint64_t sink;
	uint64_t x = 88172645463325252ull, n = 0;

	while (!*stop) {
		for (int i = 0; i < 4096; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		n += 4096;
		if (now_ns(CLOCK_MONOTONIC) >= deadline)
			break;
	}
	sink = x;
	*iterations += n;
	return sink;
}

static void *hog_main(void *arg)
{
	struct bench_hog_thread *t = arg;
	int64_t start, cpu0, period = t->period_ns, busy = t->period_ns * t->duty / 100;
	double wait0 = bench_proc_wait_s("thread-self");
	cpu_set_t set;
	struct timespec ts;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		__atomic_store_n(&t->pinned, -EINVAL, __ATOMIC_RELEASE);
		return NULL;
	}
	__atomic_store_n(&t->pinned, 1, __ATOMIC_RELEASE);
	start = now_ns(CLOCK_MONOTONIC);
	cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	if (busy <= 0) {
		/* Duty 0 is idle: asleep until the stop, no timer wake-ups to preempt the server. */
		pthread_mutex_lock(&t->hog->lock);
		while (!t->hog->stop)
			pthread_cond_wait(&t->hog->wake, &t->hog->lock);
		pthread_mutex_unlock(&t->hog->lock);
		t->slept_s = (double)(now_ns(CLOCK_MONOTONIC) - start) / 1e9;
	}
	for (int64_t p = start; busy > 0 && !t->hog->stop; p += period) {
		spin_until(p + busy, &t->iterations, &t->hog->stop);
		/* Asleep for the rest, in short naps so a stop is seen within ms. */
		while (busy < period && !t->hog->stop) {
			int64_t now = now_ns(CLOCK_MONOTONIC), wake = p + period;

			if (now >= wake)
				break;
			ts = to_ts(wake < now + 5000000 ? wake : now + 5000000);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			t->slept_s += (double)(now_ns(CLOCK_MONOTONIC) - now) / 1e9;
		}
	}
	t->cpu_s = (double)(now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0) / 1e9;
	t->wall_s = (double)(now_ns(CLOCK_MONOTONIC) - start) / 1e9;
	t->wait_s = bench_proc_wait_s("thread-self") - wait0;
	return NULL;
}

/*
 * The hog's threads are SCHED_OTHER at nice 0 whatever rvvbench runs at: a
 * client given an RT priority to keep it out of the squeeze must not make
 * the hog RT (a created thread inherits its creator's policy).
 */
static int hog_attr(pthread_attr_t *attr)
{
	struct sched_param param = { .sched_priority = 0 };
	int rc = pthread_attr_init(attr);

	if (rc)
		return rc;
	rc = pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
	if (!rc)
		rc = pthread_attr_setschedpolicy(attr, SCHED_OTHER);
	if (!rc)
		rc = pthread_attr_setschedparam(attr, &param);
	if (rc)
		pthread_attr_destroy(attr);
	return rc;
}

int bench_hog_start(struct bench_hog *hog, const int *cpus, size_t n_cpus, int duty,
		    double period_ms, struct rvv_error *err)
{
	pthread_attr_t attr;
	int rc = 0;

	memset(hog, 0, sizeof(*hog));
	pthread_mutex_init(&hog->lock, NULL);
	pthread_cond_init(&hog->wake, NULL);
	hog->threads = calloc(n_cpus ? n_cpus : 1, sizeof(*hog->threads));
	if (!hog->threads)
		return rvv_fail(err, -ENOMEM, "the CPU hog: out of memory");
	rc = -hog_attr(&attr);
	if (rc) {
		free(hog->threads);
		hog->threads = NULL;
		return rvv_fail(err, rc, "the CPU hog: thread attributes: %s", strerror(-rc));
	}
	for (size_t i = 0; i < n_cpus && !rc; i++) {
		struct bench_hog_thread *t = &hog->threads[i];

		t->hog = hog;
		t->cpu = cpus[i];
		t->duty = duty;
		t->period_ns = (int64_t)(period_ms * 1e6);
		rc = -pthread_create(&t->thread, &attr, hog_main, t);
		if (rc)
			rvv_fail(err, rc, "the CPU hog: cannot start a thread: %s", strerror(-rc));
		else
			hog->n++;
	}
	pthread_attr_destroy(&attr);
	/* Every thread pinned (or refused) before the window opens. */
	for (size_t i = 0; i < hog->n && !rc; i++) {
		while (!__atomic_load_n(&hog->threads[i].pinned, __ATOMIC_ACQUIRE))
			sched_yield();
		if (hog->threads[i].pinned < 0)
			rc = rvv_fail(err, -EINVAL,
				      "--hog-cpus: cannot run on CPU %d (offline, or not in this process's affinity)",
				      hog->threads[i].cpu);
	}
	if (rc) {
		struct bench_hog_result ignored;

		bench_hog_stop(hog, &ignored);
	}
	return rc;
}

void bench_hog_stop(struct bench_hog *hog, struct bench_hog_result *res)
{
	memset(res, 0, sizeof(*res));
	pthread_mutex_lock(&hog->lock);
	__atomic_store_n(&hog->stop, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&hog->wake);
	pthread_mutex_unlock(&hog->lock);
	for (size_t i = 0; i < hog->n; i++) {
		struct bench_hog_thread *t = &hog->threads[i];

		pthread_join(t->thread, NULL);
		res->iterations += t->iterations;
		res->cpu_s += t->cpu_s;
		res->slept_s += t->slept_s;
		res->wait_s += t->wait_s;	/* NAN if any thread could not tell */
		if (t->wall_s > res->wall_s)
			res->wall_s = t->wall_s;
	}
	res->n_cpus = hog->n;
	free(hog->threads);
	hog->threads = NULL;
	hog->n = 0;
	pthread_cond_destroy(&hog->wake);
	pthread_mutex_destroy(&hog->lock);
}

size_t bench_hog_default_cpus(int *cpus, size_t max)
{
	cpu_set_t set;
	size_t n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

int bench_cpu_list_parse(const char *text, int *cpus, size_t max)
{
	const char *p = text;
	size_t n = 0;

	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0)
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo)
				return -EINVAL;
		}
		if (hi >= CPU_SETSIZE)
			return -EINVAL;
		for (long c = lo; c <= hi; c++) {
			if (n == max)
				return -EINVAL;
			cpus[n++] = (int)c;
		}
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	return n ? (int)n : -EINVAL;
}
