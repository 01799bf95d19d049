/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the tests that run inside the guest: loading the module,
 * reading its debugfs tables, running the vector workload.
 */
#ifndef RVVSTAT_GUEST_UTIL_H
#define RVVSTAT_GUEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#define MODULE_PATH	"/lib/modules/rvvstat.ko"
/* make bench's reference probes (tests/refmod), where make-initrd --ref put them. */
#define REF_MODULE_PATH	"/lib/modules/rvvref.ko"
#define VECLOAD_PATH	"/bin/vecload"
#define DEBUGFS_DIR	"/sys/kernel/debug/rvvstat/"
#define DEVICE_PATH	"/dev/rvvstat"
/* exec-probe writes a byte here, if it is a pipe, once its exec is done. */
#define EXEC_PROBE_READY_FD	3
#define TABLE_MAX_COLS	32
/* As kselftest_harness.h has it, for the programs without it. */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define TABLE_MAX_ROWS	512

/* sched_getattr(2)'s; <linux/sched/types.h> clashes with glibc's <sched.h>. */
struct sched_attr {
	__u32 size;
	__u32 sched_policy;
	__u64 sched_flags;
	__s32 sched_nice;
	__u32 sched_priority;
	__u64 sched_runtime;
	__u64 sched_deadline;
	__u64 sched_period;
	__u32 sched_util_min;
	__u32 sched_util_max;
};

/* Re-checks @cond every 50 ms for up to @ms; the caller then checks it again. */
#define WAIT_UNTIL(cond, ms) do {					\
	for (int __left = (ms); !(cond) && __left > 0; __left -= 50)	\
		usleep(50 * 1000);					\
} while (0)

/* 0 or -errno, as finit_module/delete_module report it. */
int module_load(const char *params);
int module_unload(void);
/*
 * module_unload(), retried every 50 ms for up to @ms while references
 * drain (EAGAIN, EBUSY); its last result.
 */
int module_unload_within(int ms);
/* The same for any module: its file, and its name to unload it by. */
int module_load_file(const char *path, const char *params);
int module_unload_name(const char *name);
/*
 * Kernel-mode V that needs no vector usercopy: loads and unloads, @times
 * times, the modules make-initrd put in /lib/modules/kernel-v (Debian's
 * xor.ko, whose calibration runs vector code in the loading task), from
 * a child process with its vector state in use, so the caller keeps none.
 * The loads made (0: no such modules here), or -errno.
 */
int kernel_v_module_cycles(int times);

/* Opens the module's misc device; the fd or -errno. */
int device_open(void);

/* The first @max thread ids of process @pid, in no order: how many, or -errno. */
int proc_tids(pid_t pid, pid_t *tids, int max);

/* A debugfs table: a header of column names, then rows of numbers. */
struct table {
	int ncols, nrows;
	char names[TABLE_MAX_COLS][32];
	uint64_t cells[TABLE_MAX_ROWS][TABLE_MAX_COLS];
	char first[TABLE_MAX_ROWS][32];	/* the first column as text */
};

/* Reads DEBUGFS_DIR/@file into @t; 0 or -errno. */
int table_read(const char *file, struct table *t);
int table_col(const struct table *t, const char *name);	/* -1 if missing */
int table_row(const struct table *t, const char *first);	/* -1 if missing */
uint64_t table_get(const struct table *t, int row, const char *col);
/* Sum of one column over all rows. */
uint64_t table_sum(const struct table *t, const char *col);

/*
 * Keeps only capability @cap (-1: none) in this process's effective,
 * permitted and inheritable sets, its uid unchanged; 0 or -errno.
 */
int keep_only_capability(int cap);
/*
 * Runs @fn(@arg) in a child that keeps only @cap; @fn's return (0..125), or
 * 126 if the capability could not be dropped, 127 if the child died.
 */
int with_only_capability(int cap, int (*fn)(void *arg), void *arg);
/*
 * Runs @fn(@arg) under the effective uid 65534, so with no effective
 * capability, then makes this process root again, its capabilities whole:
 * what @fn opens is a descriptor an unprivileged opener handed to a
 * privileged holder. @fn's return, or -errno if the uid could not change.
 */
int with_unprivileged_opener(int (*fn)(void *arg), void *arg);

#define KMEMLEAK_PATH	"/sys/kernel/debug/kmemleak"
/*
 * Two kmemleak scans (objects younger than 5 s are not reported), then its
 * report into @buf: how many objects it lists, or -errno (-ENOENT: a kernel
 * without kmemleak).
 */
int kmemleak_report(char *buf, size_t size);

/* Writes @text to a file; 0 or -errno. */
int write_file(const char *path, const char *text);
/* Reads a whole file into @buf (NUL-terminated); bytes read or -errno. */
ssize_t read_file(const char *path, char *buf, size_t size);

/* A running vecload with its stdout on a pipe. */
struct vecload {
	pid_t pid;
	int out;
};

int vecload_start(struct vecload *v, const char *const args[]);
/* Reads lines until one starts with @prefix; copies it to @line. */
bool vecload_expect(struct vecload *v, const char *prefix, char *line,
		    size_t size);
/* Waits for it to end; its exit status, or 128 + signal. */
int vecload_wait(struct vecload *v);
/* Runs vecload to the end; its exit status. */
int vecload_run(const char *const args[]);

/* "@who: @what: strerror(@err)" on stderr, then exit(@status). */
void die_with(int status, const char *who, const char *what, int err)
	__attribute__((noreturn));

/* @arg as a decimal count from 1 to @max; calls @usage if it is not one. */
unsigned long count_arg(const char *arg, unsigned long max, void (*usage)(void));

/* Pins the calling thread (and what it starts later) to @cpu; 0 or -errno. */
int pin_to_cpu(int cpu);

/* VLENB of this CPU, read in a child so this process never enables V. */
long vlenb_of_cpu(void);

#endif /* RVVSTAT_GUEST_UTIL_H */
