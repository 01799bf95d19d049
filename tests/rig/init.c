// SPDX-License-Identifier: GPL-2.0
/*
 * Static /init (PID 1) for the rvvstat test guests.
 *
 * Mounts the pseudo filesystems, announces itself with "rvvstat-init: up",
 * runs the program named by rvvstat.run= (argv from rvvstat.args=, comma
 * separated), reports "rvvstat-init: exit N" and powers the guest off.
 * The host (tests/rig/boot-guest) relies on exactly these two lines.
 *
 * The riscv64 guest runs everything from the initramfs. With rvvstat.root=9p
 * (the x86_64 guest, a stock Debian kernel) the host's root filesystem,
 * shared read-only over virtio-9p, becomes the root first, so that host-built
 * dynamically linked programs find their libraries: see enter_host_root().
 * Either way the loopback interface comes up (the kernels have INET).
 *
 * Parameters containing a dot are never passed to init by the kernel, so
 * they are read from /proc/cmdline instead.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS	64
#define CMDLINE_SIZE	4096

/* Packed by tests/rig/make-initrd: NN-name.ko, loaded in name order. */
#define BOOT_MODULES	"/lib/modules/boot"
#define GUEST_MODULE	"lib/modules/rvvstat.ko"
/* make bench's reference probes; only in the initramfs of its boots. */
#define REF_MODULE	"lib/modules/rvvref.ko"
/*
 * The largest msize the virtio transport takes (125 pages). cache=loose keeps
 * pages and dentries instead of asking the host each time: the fastest, and
 * right for a read-only root whose files the guest uses (programs, libraries)
 * do not change while it runs.
 */
#define HOST_ROOT_OPTIONS \
	"trans=virtio,version=9p2000.L,msize=512000,cache=loose"

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

static void make_dir(const char *dir)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		fail(dir);
}

/* EBUSY: devtmpfs may already be mounted on /dev (CONFIG_DEVTMPFS_MOUNT). */
static void mount_at(const char *source, const char *dir, const char *type,
		     unsigned long flags, const char *options)
{
	make_dir(dir);
	if (mount(source, dir, type, flags, options) && errno != EBUSY)
		fail(dir);
}

static void mount_one(const char *type, const char *dir)
{
	mount_at(type, dir, type, 0, NULL);
}

static void mount_all(void)
{
	mount_one("proc", "/proc");
	mount_one("sysfs", "/sys");
	mount_one("devtmpfs", "/dev");
	/* Pseudo-terminals (tmux): devtmpfs has /dev/ptmx, which opens this. */
	mount_at("devpts", "/dev/pts", "devpts", 0, "mode=0620,ptmxmode=0666");
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

/* Value of "name=value" on the command line (a copy that is never freed), or NULL. */
static char *find_param(const char *cmdline, const char *name)
{
	char *rest = strdup(cmdline), *word;
	size_t len = strlen(name);

	if (!rest)
		fail("strdup");
	while ((word = strsep(&rest, " \t\n"))) {
		if (!strncmp(word, name, len) && word[len] == '=')
			return word + len + 1;
	}
	return NULL;
}

static int is_module(const struct dirent *entry)
{
	size_t len = strlen(entry->d_name);

	return len > 3 && !strcmp(entry->d_name + len - 3, ".ko");
}

/* 9p, its virtio transport and overlayfs are modules in Debian's kernel. */
static void load_boot_modules(void)
{
	struct dirent **names;
	char path[PATH_MAX];
	int count, i, fd;

	count = scandir(BOOT_MODULES, &names, is_module, alphasort);
	if (count < 0)
		fail(BOOT_MODULES);
	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), BOOT_MODULES "/%s", names[i]->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fail(path);
		if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
			fail(path);
		close(fd);
		free(names[i]);
	}
	free(names);
}

static void copy_file(int from_dir, const char *name, const char *to, mode_t mode)
{
	static char buf[1 << 16];
	ssize_t got, put, done;
	int in, out;

	in = openat(from_dir, name, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		fail(name);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0)
		fail(to);
	while ((got = read(in, buf, sizeof(buf))) != 0) {
		if (got < 0)
			fail(name);
		for (done = 0; done < got; done += put) {
			put = write(out, buf + done, got - done);
			if (put < 0)
				fail(to);
		}
	}
	close(in);
	if (close(out))
		fail(to);
}

/*
 * The initramfs programs go to /usr/local/bin, and /bin/NAME (on Debian
 * /bin is a link to usr/bin) links to each: the host's own programs keep
 * their places, and the riscv64 paths (/bin/core-tests) work unchanged.
 */
static void install_programs(int initramfs)
{
	char to[PATH_MAX], link[PATH_MAX];
	struct dirent *entry;
	int bin;
	DIR *dir;

	/* A root fresh from debootstrap's first stage has no /usr/local yet. */
	make_dir("/usr/local");
	make_dir("/usr/local/bin");
	bin = openat(initramfs, "bin", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = bin < 0 ? NULL : fdopendir(bin);
	if (!dir)
		fail("initramfs /bin");
	while ((errno = 0, entry = readdir(dir))) {
		if (entry->d_type != DT_REG)
			continue;
		snprintf(to, sizeof(to), "/usr/local/bin/%s", entry->d_name);
		snprintf(link, sizeof(link), "/bin/%s", entry->d_name);
		copy_file(bin, entry->d_name, to, 0755);
		if (unlink(link) && errno != ENOENT)
			fail(link);
		if (symlink(to, link))
			fail(link);
	}
	if (errno)
		fail("readdir initramfs /bin");
	closedir(dir);

	make_dir("/lib/modules");
	/* The board check's initramfs has none: it builds the module in the guest. */
	if (!faccessat(initramfs, GUEST_MODULE, F_OK, 0))
		copy_file(initramfs, GUEST_MODULE, "/" GUEST_MODULE, 0644);
	if (!faccessat(initramfs, REF_MODULE, F_OK, 0))
		copy_file(initramfs, REF_MODULE, "/" REF_MODULE, 0644);
}

/* Loopback only: 127.0.0.1 comes with it. Tests talk to servers they start. */
static void loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		fail("socket");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		fail("SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr))
		fail("SIOCSIFFLAGS lo");
	close(fd);
}

/*
 * rvvstat.root=9p: the root becomes overlayfs with the host's root (9p,
 * read-only) as its lower layer and a tmpfs as its upper one, so the guest
 * can write anywhere and the host sees none of it. The pseudo filesystems
 * move along (as switch_root does) and /tmp gets its own tmpfs.
 */
static void enter_host_root(void)
{
	static const char *const moved[] = { "/dev", "/proc", "/sys", NULL };
	const char *const *dir;
	char to[PATH_MAX];
	int initramfs;

	load_boot_modules();
	mount_at("hostroot", "/host", "9p", MS_RDONLY, HOST_ROOT_OPTIONS);
	mount_at("tmpfs", "/rw", "tmpfs", 0, "mode=0755");
	make_dir("/rw/upper");
	make_dir("/rw/work");
	mount_at("overlay", "/newroot", "overlay", 0,
		 "lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work");
	/* Where the programs and the module are read from once the root moved. */
	initramfs = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (initramfs < 0)
		fail("/");
	for (dir = moved; *dir; dir++) {
		snprintf(to, sizeof(to), "/newroot%s", *dir);
		if (mount(*dir, to, NULL, MS_MOVE, NULL))
			fail(to);
	}
	if (chdir("/newroot") || mount(".", "/", NULL, MS_MOVE, NULL) ||
	    chroot(".") || chdir("/"))
		fail("switching to /newroot");
	mount_one("tmpfs", "/tmp");
	install_programs(initramfs);
	close(initramfs);
	setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
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
	static char cmdline[CMDLINE_SIZE];
	char *argv[MAX_ARGS + 1];
	char *program, *root;

	setup_console();
	mount_all();
	read_cmdline(cmdline, sizeof(cmdline));
	root = find_param(cmdline, "rvvstat.root");
	if (root && strcmp(root, "9p")) {
		errno = EINVAL;
		fail("rvvstat.root= knows only 9p");
	}
	if (root)
		enter_host_root();
	/* Both guests: llama-run and the tools' tests talk to servers on 127.0.0.1. */
	loopback_up();
	/* After the root is in place: the host's boot watchdog covers it too. */
	say("up");

	program = find_param(cmdline, "rvvstat.run");
	if (!program || !*program) {
		errno = EINVAL;
		fail("no rvvstat.run= on the kernel command line");
	}
	build_argv(program, find_param(cmdline, "rvvstat.args"), argv);

	say("exit %d", run(argv));
	power_off();
	return 0;
}
