// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

double bench_proc_wait_s(const char *path)
{
	unsigned long long run, wait;
	char name[96];
	FILE *f;
	int n;

	snprintf(name, sizeof(name), "/proc/%s/schedstat", path);
	f = fopen(name, "re");
	n = f ? fscanf(f, "%llu %llu", &run, &wait) : 0;
	if (f)
		fclose(f);
	return n == 2 ? (double)wait / 1e9 : NAN;
}

/* The number after "@key" and its separators (spaces, ':') on a line of @path; 0 or -ENOENT. */
static int read_keyed(const char *path, const char *key, int64_t *value)
{
	size_t len = strlen(key);
	char line[256];
	FILE *f = fopen(path, "re");
	int rc = -ENOENT;

	while (f && rc && fgets(line, sizeof(line), f)) {
		char *p = line + len;

		if (strncmp(line, key, len) || (*p != ' ' && *p != ':' && *p != '\t'))
			continue;
		p += strspn(p, " \t:");
		if (sscanf(p, "%" SCNd64, value) == 1)
			rc = 0;
	}
	if (f)
		fclose(f);
	return rc;
}

/* One thread's figures; -ESRCH if it went away while we read. */
static int read_thread(int pid, int tid, struct bench_thread_sched *t)
{
	unsigned long long run, wait;
	char path[96];
	int64_t v;
	FILE *f;

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	if (fgets(t->comm, sizeof(t->comm), f))
		t->comm[strcspn(t->comm, "\n")] = '\0';
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
	f = fopen(path, "re");
	t->has_schedstat = f && fscanf(f, "%llu %llu", &run, &wait) == 2;
	if (f)
		fclose(f);
	if (t->has_schedstat) {
		t->run_ns = run;
		t->wait_ns = wait;
	}
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	if (read_keyed(path, "voluntary_ctxt_switches", &v))
		return -ESRCH;
	t->voluntary = (uint64_t)v;
	if (!read_keyed(path, "nonvoluntary_ctxt_switches", &v))
		t->involuntary = (uint64_t)v;
	/* /proc/TID/sched is there only with CONFIG_SCHED_DEBUG. */
	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tid);
	t->migrations = read_keyed(path, "se.nr_migrations", &v) ? -1 : v;
	return 0;
}

static int by_tid(const void *a, const void *b)
{
	const struct bench_thread_sched *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

int bench_proc_threads(int pid, struct bench_thread_sched **threads, size_t *n,
		       struct rvv_error *err)
{
	struct bench_thread_sched *all = NULL, *grown;
	size_t cap = 0, count = 0;
	struct dirent *e;
	char path[64];
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return rvv_fail(err, -ESRCH, "the server (pid %d) is gone: %s", pid, strerror(errno));
	while ((e = readdir(d))) {
		int tid = atoi(e->d_name);

		if (tid <= 0)
			continue;
		if (count == cap) {
			cap = cap ? cap * 2 : 32;
			grown = realloc(all, cap * sizeof(*all));
			if (!grown) {
				closedir(d);
				free(all);
				return rvv_fail(err, -ENOMEM, "out of memory reading %s", path);
			}
			all = grown;
		}
		if (!read_thread(pid, tid, &all[count]))
			count++;
	}
	closedir(d);
	if (!count) {
		free(all);
		return rvv_fail(err, -ESRCH, "the server (pid %d) is gone: no threads", pid);
	}
	qsort(all, count, sizeof(*all), by_tid);
	*threads = all;
	*n = count;
	return 0;
}

#define MAX_LISTEN 16

/* Inodes of sockets listening on @port in /proc/net/@file; how many (up to @max). */
static size_t listening_inodes(const char *file, unsigned int port, unsigned long *inodes,
			       size_t n, size_t max)
{
	char path[32], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/net/%s", file);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned int local_port, state;
		unsigned long inode;
		char local[64];

		/* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
		if (sscanf(line, " %*s %63s %*s %x %*s %*s %*s %*u %*u %lu", local, &state,
			   &inode) != 3 || state != 0x0A)
			continue;
		if (sscanf(strrchr(local, ':') ? strrchr(local, ':') + 1 : "", "%x",
			   &local_port) == 1 && local_port == port && n < max)
			inodes[n++] = inode;
	}
	if (f)
		fclose(f);
	return n;
}

/* Whether a file descriptor of process @pid is one of @inodes; -EACCES if hidden. */
static int holds_socket(int pid, const unsigned long *inodes, size_t n)
{
	char dir[64], path[400], target[64];
	struct dirent *e;
	int found = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	d = opendir(dir);
	if (!d)
		return errno == EACCES ? -EACCES : 0;
	while (!found && (e = readdir(d))) {
		unsigned long inode;
		ssize_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		if (sscanf(target, "socket:[%lu]", &inode) != 1)
			continue;
		for (size_t i = 0; i < n && !found; i++)
			found = inode == inodes[i];
	}
	closedir(d);
	return found;
}

int bench_proc_cmdline(int pid, char *buf, size_t size)
{
	char path[64];
	size_t n;
	FILE *f;

	if (!size)
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	while (n && !buf[n - 1])	/* the last argument's NUL */
		n--;
	for (size_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = '\0';
	return 0;
}

int bench_proc_listener(unsigned int port, int *pid, struct rvv_error *err)
{
	unsigned long inodes[MAX_LISTEN];
	bool hidden = false;
	struct dirent *e;
	size_t n;
	DIR *d;

	n = listening_inodes("tcp", port, inodes, 0, MAX_LISTEN);
	n = listening_inodes("tcp6", port, inodes, n, MAX_LISTEN);
	if (!n)
		return rvv_fail(err, -ENOENT, "nothing listens on TCP port %u here; start the server or give --server-pid",
				port);
	d = opendir("/proc");
	if (!d)
		return rvv_fail(err, -errno, "cannot read /proc: %s", strerror(errno));
	while ((e = readdir(d))) {
		int held, id = atoi(e->d_name);

		if (id <= 0)
			continue;
		held = holds_socket(id, inodes, n);
		hidden |= held == -EACCES;
		if (held > 0) {
			*pid = id;
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	if (hidden)
		return rvv_fail(err, -EACCES, "port %u's listener belongs to another user: run as that user or root, or give --server-pid",
				port);
	return rvv_fail(err, -ENOENT, "no process of this pid namespace holds port %u's socket; give --server-pid",
			port);
}
