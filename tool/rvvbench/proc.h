/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What /proc says of the server's threads: which there are, who listens on
 * a port, and the scheduler's view of each (schedstat, context switches,
 * migrations), read at the edges of a window.
 */
#ifndef RVVBENCH_PROC_H
#define RVVBENCH_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/error.h"

struct bench_thread_sched {
	int tid;
	char comm[16];
	bool has_schedstat;		/* CONFIG_SCHED_INFO */
	uint64_t run_ns, wait_ns;	/* on a CPU; runnable, waiting for one */
	uint64_t voluntary, involuntary;	/* context switches (status) */
	int64_t migrations;		/* se.nr_migrations (sched); -1 without */
};

/* The run-queue wait of the thread /proc/@path names ("thread-self"), s; NAN without it. */
double bench_proc_wait_s(const char *path);

/*
 * Every thread of @pid with its scheduler figures, into *@threads
 * (malloc'd, sorted by tid) and *@n. -ESRCH if it is gone.
 */
int bench_proc_threads(int pid, struct bench_thread_sched **threads, size_t *n,
		       struct rvv_error *err);

/*
 * Process @pid's command line, its arguments joined by spaces, into @buf
 * (@size bytes, cut to fit): how the server was launched (threads,
 * parallel, poll, prio, ctx). 0, or -errno (-ESRCH: gone).
 */
int bench_proc_cmdline(int pid, char *buf, size_t size);

/*
 * The process listening on TCP @port (IPv4 or IPv6) into *@pid: -ENOENT if
 * none is, -EACCES if its owner's file descriptors are hidden from us.
 */
int bench_proc_listener(unsigned int port, int *pid, struct rvv_error *err);

#endif /* RVVBENCH_PROC_H */
