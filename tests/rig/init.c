// SPDX-License-Identifier: GPL-2.0
/*
 * Static /init (PID 1) for the rvvstat riscv64 test guest.
 *
 * Mounts the pseudo filesystems, announces itself with "rvvstat-init: up",
 * runs the program named by rvvstat.run= (argv from rvvstat.args=, comma
 * separated), reports "rvvstat-init: exit N" and powers the guest off.
 * The host (tests/rig/boot-guest) relies on exactly these two lines.
 *
 * Parameters containing a dot are never passed to init by the kernel, so
 * they are read from /proc/cmdline instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS	64
#define CMDLINE_SIZE	4096

/* Unbuffered, so nothing is lost when the guest powers off. */
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dprintf(STDOUT_FILENO, "rvvstat-init: ");
	vdprintf(STDOUT_FILENO, fmt, ap);
	dprintf(STDOUT_FILENO, "\n");
	va_end(ap);
}

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* Returning from PID 1 panics the kernel, which the host reports. */
	say("error: reboot: %s", strerror(errno));
	exit(1);
}

static void fail(const char *what)
{
	say("error: %s: %s", what, strerror(errno));
	power_off();
}

/*
 * The kernel opens /dev/console for init when the initramfs has it (the
 * built-in default initramfs does); otherwise get it from devtmpfs.
 */
static void setup_console(void)
{
	int fd;

	if (fcntl(STDOUT_FILENO, F_GETFD) == 0)
		return;
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0)
		exit(1);	/* nowhere to say why; the kernel panics loudly */
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

/* EBUSY: devtmpfs may already be mounted on /dev (CONFIG_DEVTMPFS_MOUNT). */
static void mount_one(const char *type, const char *dir)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		fail(dir);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		fail(dir);
}

static void mount_all(void)
{
	mount_one("proc", "/proc");
	mount_one("sysfs", "/sys");
	mount_one("devtmpfs", "/dev");
	mount_one("debugfs", "/sys/kernel/debug");
	/* /tmp needs no tmpfs: the initramfs root is writable memory already. */
}

static void read_cmdline(char *buf, size_t size)
{
	ssize_t len;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0)
		fail("/proc/cmdline");
	len = read(fd, buf, size - 1);
	if (len < 0)
		fail("read /proc/cmdline");
	close(fd);
	buf[len] = '\0';
}

/* Value of "name=value" on the command line, or NULL; modifies @cmdline. */
static char *find_param(char *cmdline, const char *name)
{
	size_t len = strlen(name);
	char *word;

	while ((word = strsep(&cmdline, " \t\n"))) {
		if (!strncmp(word, name, len) && word[len] == '=')
			return word + len + 1;
	}
	return NULL;
}

static void build_argv(char *program, char *args, char **argv)
{
	int argc = 0;

	argv[argc++] = program;
	while (args && *args) {
		if (argc == MAX_ARGS) {
			errno = E2BIG;
			fail("rvvstat.args");
		}
		argv[argc++] = strsep(&args, ",");
	}
	argv[argc] = NULL;
}

/* As PID 1 every orphan is ours to reap: keep waiting until the child exits. */
static int wait_for(pid_t child)
{
	int status;
	pid_t pid;

	for (;;) {
		pid = wait(&status);
		if (pid < 0 && errno != EINTR)
			fail("wait");
		if (pid == child)
			break;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int run(char **argv)
{
	pid_t child;

	child = fork();
	if (child < 0)
		fail("fork");
	if (child == 0) {
		execv(argv[0], argv);
		say("error: exec %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	return wait_for(child);
}

int main(void)
{
	static char cmdline[CMDLINE_SIZE], copy[CMDLINE_SIZE];
	char *argv[MAX_ARGS + 1];
	char *program;

	setup_console();
	mount_all();
	say("up");

	read_cmdline(cmdline, sizeof(cmdline));
	/* find_param() cuts the string it scans: one copy per parameter. */
	memcpy(copy, cmdline, sizeof(copy));
	program = find_param(cmdline, "rvvstat.run");
	if (!program || !*program) {
		errno = EINVAL;
		fail("no rvvstat.run= on the kernel command line");
	}
	build_argv(program, find_param(copy, "rvvstat.args"), argv);

	say("exit %d", run(argv));
	power_off();
	return 0;
}
