// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include "guest-util.h"
#include "vector-arch.h"

void die_with(int status, const char *who, const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s\n", who, what, strerror(err));
	exit(status);
}

unsigned long count_arg(const char *arg, unsigned long max, void (*usage)(void))
{
	unsigned long val;
	char *end;

	errno = 0;
	val = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || !val || val > max)
		usage();
	return val;
}

int module_load(const char *params)
{
	return module_load_file(MODULE_PATH, params);
}

int module_load_file(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

int module_unload(void)
{
	return module_unload_name("rvvstat");
}

int module_unload_within(int ms)
{
	int err;

	while ((err = module_unload()) == -EAGAIN || err == -EBUSY) {
		struct timespec nap = { .tv_nsec = 50 * 1000 * 1000 };

		if (ms <= 0)
			break;
		nanosleep(&nap, NULL);
		ms -= 50;
	}
	return err;
}

int module_unload_name(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

#define KERNEL_V_MODULES	"/lib/modules/kernel-v"
#define KERNEL_V_MAX		8

/* The module's name from make-initrd's "NN-name.ko". */
static void module_name_of(const char *file, char *name, size_t size)
{
	const char *dash = strchr(file, '-');

	snprintf(name, size, "%s", dash ? dash + 1 : file);
	name[strcspn(name, ".")] = '\0';
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int dot_ko(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return len > 3 && !strcmp(d->d_name + len - 3, ".ko");
}

/* The loads of kernel_v_module_cycles(), in a child: the caller keeps no V state. */
static int kernel_v_loads(struct dirent **files, int n, int times)
{
	char path[PATH_MAX], names[KERNEL_V_MAX][NAME_MAX + 1];
	int i, t, err = 0;

	for (i = 0; i < n; i++)
		module_name_of(files[i]->d_name, names[i], sizeof(names[i]));
	/* V in use: the loads' kernel_vector_begin() has state to save. */
	arch_touch_vector();
	for (t = 0; t < times && !err; t++) {
		for (i = 0; i < n && !err; i++) {
			snprintf(path, sizeof(path), "%s/%s", KERNEL_V_MODULES,
				 files[i]->d_name);
			err = module_load_file(path, "");
		}
		/* Those loaded, the last first. */
		while (i-- > 0)
			module_unload_name(names[i]);
	}
	return err;
}

int kernel_v_module_cycles(int times)
{
	struct dirent **files;
	int n, i, status, err;
	pid_t pid;

	n = scandir(KERNEL_V_MODULES, &files, dot_ko, by_name);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	if (n > KERNEL_V_MAX)
		n = KERNEL_V_MAX;
	pid = fork();
	if (!pid)
		_exit(-kernel_v_loads(files, n, times));
	err = pid < 0 ? -errno : 0;
	if (!err && waitpid(pid, &status, 0) < 0)
		err = -errno;
	else if (!err && (!WIFEXITED(status) || WEXITSTATUS(status)))
		err = WIFEXITED(status) ? -WEXITSTATUS(status) : -EINTR;
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return err ? err : n * times;
}

int device_open(void)
{
	int fd = open(DEVICE_PATH, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int is_tid(const struct dirent *e)
{
	return isdigit((unsigned char)e->d_name[0]);
}

int proc_tids(pid_t pid, pid_t *tids, int max)
{
	struct dirent **list;
	char path[48];
	int i, n;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	n = scandir(path, &list, is_tid, NULL);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		if (i < max)
			tids[i] = atoi(list[i]->d_name);
		free(list[i]);
	}
	free(list);
	return n < max ? n : max;
}

ssize_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t total = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while (total + 1 < size &&
	       (n = read(fd, buf + total, size - 1 - total)) > 0)
		total += n;
	buf[total] = '\0';
	close(fd);
	return total;
}

int keep_only_capability(int cap)
{
	struct __user_cap_header_struct head = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (cap >= 0) {
		data[cap / 32].effective = 1U << (cap % 32);
		data[cap / 32].permitted = 1U << (cap % 32);
	}
	return syscall(SYS_capset, &head, data) ? -errno : 0;
}

int with_only_capability(int cap, int (*fn)(void *arg), void *arg)
{
	pid_t child = fork();
	int status;

	if (child < 0)
		return 127;
	if (!child)
		_exit(keep_only_capability(cap) ? 126 : fn(arg));
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return 127;
	return WEXITSTATUS(status);
}

int with_unprivileged_opener(int (*fn)(void *arg), void *arg)
{
	int ret;

	/* The real and saved uids stay 0: the permitted set survives. */
	if (setresuid(-1, 65534, -1))
		return -errno;
	ret = fn(arg);
	if (setresuid(-1, 0, -1))
		die_with(1, "with_unprivileged_opener", "back to euid 0", errno);
	return ret;
}

int kmemleak_report(char *buf, size_t size)
{
	int err = write_file(KMEMLEAK_PATH, "scan"), objects = 0;
	ssize_t n;
	char *p;

	if (!err)
		err = write_file(KMEMLEAK_PATH, "scan");
	if (err)
		return err;
	n = read_file(KMEMLEAK_PATH, buf, size);
	if (n < 0)
		return n;
	for (p = buf; (p = strstr(p, "unreferenced object")); p++)
		objects++;
	return objects;
}

int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static int table_parse_header(struct table *t, char *line)
{
	char *save, *tok;

	t->ncols = 0;
	for (tok = strtok_r(line, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (t->ncols == TABLE_MAX_COLS)
			return -E2BIG;
		snprintf(t->names[t->ncols++], sizeof(t->names[0]), "%s", tok);
	}
	return t->ncols ? 0 : -EINVAL;
}

/* Numeric cells; a non-numeric last column (comm) is kept out of cells. */
static int table_parse_row(struct table *t, char *line)
{
	char *save, *tok, *end;
	int col = 0;

	if (t->nrows == TABLE_MAX_ROWS)
		return -E2BIG;
	for (tok = strtok_r(line, " \n", &save); tok && col < t->ncols;
	     tok = strtok_r(NULL, " \n", &save), col++) {
		if (!col)
			snprintf(t->first[t->nrows], sizeof(t->first[0]), "%s", tok);
		t->cells[t->nrows][col] = strtoull(tok, &end, 10);
	}
	t->nrows++;
	return 0;
}

int table_read(const char *file, struct table *t)
{
	static char buf[1 << 20];
	char path[128], *line, *save;
	ssize_t n;
	int err;

	snprintf(path, sizeof(path), DEBUGFS_DIR "%s", file);
	n = read_file(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	memset(t, 0, sizeof(*t));
	line = strtok_r(buf, "\n", &save);
	if (!line)
		return -ENODATA;
	err = table_parse_header(t, line);
	while (!err && (line = strtok_r(NULL, "\n", &save)))
		err = table_parse_row(t, line);
	return err;
}

/* Column names and first cells are both stored as char[32] lists. */
static int index_of(const char (*list)[32], int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], key))
			return i;
	return -1;
}

int table_col(const struct table *t, const char *name)
{
	return index_of(t->names, t->ncols, name);
}

int table_row(const struct table *t, const char *first)
{
	return index_of(t->first, t->nrows, first);
}

uint64_t table_get(const struct table *t, int row, const char *col)
{
	int c = table_col(t, col);

	if (c < 0 || row < 0 || row >= t->nrows) {
		fprintf(stderr, "no cell row %d column %s\n", row, col);
		abort();
	}
	return t->cells[row][c];
}

uint64_t table_sum(const struct table *t, const char *col)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < t->nrows; i++)
		sum += table_get(t, i, col);
	return sum;
}

int vecload_start(struct vecload *v, const char *const args[])
{
	const char *argv[16] = { VECLOAD_PATH };
	int pipefd[2], i;

	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	v->pid = fork();
	if (v->pid < 0)
		return -errno;
	if (!v->pid) {
		dup2(pipefd[1], STDOUT_FILENO);
		execv(VECLOAD_PATH, (char *const *)argv);
		_exit(127);
	}
	close(pipefd[1]);
	v->out = pipefd[0];
	return 0;
}

static bool read_line(int fd, char *line, size_t size)
{
	size_t len = 0;
	char c;

	while (read(fd, &c, 1) == 1) {
		if (c == '\n') {
			line[len] = '\0';
			return true;
		}
		if (len + 1 < size)
			line[len++] = c;
	}
	return false;
}

bool vecload_expect(struct vecload *v, const char *prefix, char *line,
		    size_t size)
{
	while (read_line(v->out, line, size))
		if (!strncmp(line, prefix, strlen(prefix)))
			return true;
	return false;
}

int vecload_wait(struct vecload *v)
{
	char line[256];
	int status;

	/* Drain the pipe so the workload never blocks on a full one. */
	while (read_line(v->out, line, sizeof(line)))
		;
	close(v->out);
	if (waitpid(v->pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

int vecload_run(const char *const args[])
{
	struct vecload v;
	int err = vecload_start(&v, args);

	return err ? err : vecload_wait(&v);
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

long vlenb_of_cpu(void)
{
	int pipefd[2];
	long vlenb = -1;
	pid_t pid;

	if (pipe(pipefd))
		return -errno;
	pid = fork();
	if (!pid) {
		vlenb = arch_vlenb();
		_exit(write(pipefd[1], &vlenb, sizeof(vlenb)) != sizeof(vlenb));
	}
	close(pipefd[1]);
	if (pid < 0 || read(pipefd[0], &vlenb, sizeof(vlenb)) != sizeof(vlenb))
		vlenb = -EIO;
	close(pipefd[0]);
	waitpid(pid, NULL, 0);
	return vlenb;
}
