// SPDX-License-Identifier: GPL-2.0
/*
 * Hint tests, run in the riscv64 V guests and the x86_64 guest against the
 * real module: the ioctls of /dev/rvvstat (device.c calls them), the errors
 * they give, and what scheduling hints do to threads. Expected values come from the kernel's own view of a thread
 * (sched_getaffinity, sched_getattr) and from what the test did, never from
 * the module.
 *
 * The main thread never executes a vector instruction: vector use happens
 * only in parked threads told to, so every first use is the test's doing.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/rvvstat.h>
#include <linux/sched.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "bpf-lsm.h"
#include "device.h"
#include "genl-raw.h"
#include "guest-util.h"
#include "parked.h"
#include "vector-arch.h"

#ifdef __x86_64__
#define BACKEND		RVVSTAT_BACKEND_X86_FPU
#else
#define BACKEND		RVVSTAT_BACKEND_RISCV_V
#endif

/* Generous: the guest runs under TCG with lockdep and kmemleak. */
#define TEST_SECONDS	300
#define NOBODY		65534
/* Deferred applications are made by a kernel worker soon after the event. */
#define APPLY_MS	5000
/* A hint is freed an RCU grace period after its thread is reaped. */
#define EXPIRE_MS	10000
#define MS		1000000ULL	/* in ns */
#define MAX_WORKERS	17
#define SCHED_TEXT	96

/* The test process's CPUs when the test began (all online ones, from init). */
static cpu_set_t allowed;
static int nr_allowed, first_cpu, last_cpu;

static void read_allowed(void)
{
	int cpu;

	CPU_ZERO(&allowed);
	sched_getaffinity(0, sizeof(allowed), &allowed);
	nr_allowed = CPU_COUNT(&allowed);
	first_cpu = -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		if (first_cpu < 0)
			first_cpu = cpu;
		last_cpu = cpu;
	}
}

static cpu_set_t cpu_mask(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return set;
}

/* The first 64 CPUs of @set as bits: the guest has fewer, and they print well. */
static unsigned long mask_bits(const cpu_set_t *set)
{
	unsigned long bits = 0;
	int cpu;

	for (cpu = 0; cpu < 64; cpu++)
		if (CPU_ISSET(cpu, set))
			bits |= 1UL << cpu;
	return bits;
}

/* Where the kernel lets @tid run, as mask_bits(); 0 if it cannot tell. */
static unsigned long affinity_of(pid_t tid)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	return sched_getaffinity(tid, sizeof(set), &set) ? 0 : mask_bits(&set);
}

static struct sched_attr sched_of(pid_t tid)
{
	struct sched_attr a;

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, tid, &a, sizeof(a), 0))
		a.sched_policy = ~0U;
	return a;
}

/* The kernel's scheduling parameters of @tid as text, to compare and print. */
static const char *sched_text(pid_t tid, char buf[SCHED_TEXT])
{
	struct sched_attr a = sched_of(tid);

	snprintf(buf, SCHED_TEXT, "policy %u nice %d prio %u dl %llu/%llu/%llu",
		 a.sched_policy, a.sched_nice, a.sched_priority,
		 (unsigned long long)a.sched_runtime,
		 (unsigned long long)a.sched_deadline,
		 (unsigned long long)a.sched_period);
	return buf;
}

static __u64 now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static int load_and_open(const char *params)
{
	int err = module_load(params);

	return err ? err : device_open();
}

/* A load that should fail; unloaded again if it did not. */
static int load_refused(const char *params)
{
	int err = module_load(params);

	if (!err)
		module_unload();
	return err;
}

/*
 * @req as a caller built with a struct 8 bytes longer makes it: size covers
 * 8 more bytes, the last of them @tail. What comes back is copied to @arg.
 */
static int ioctl_longer(int fd, unsigned long req, void *arg, size_t len,
			unsigned char tail)
{
	union {
		__u64 size;
		unsigned char bytes[1024];
	} buf;
	int err;

	if (len + 8 > sizeof(buf))
		return -EOVERFLOW;
	memset(&buf, 0, sizeof(buf));
	memcpy(buf.bytes, arg, len);
	buf.size = len + 8;
	buf.bytes[len + 7] = tail;
	err = dev_ioctl(fd, req, &buf);
	memcpy(arg, buf.bytes, len);
	return err;
}

static __u64 delta(const struct rvvstat_snapshot *before,
		   const struct rvvstat_snapshot *after, int event)
{
	return after->hint_events[event] - before->hint_events[event];
}

/* One hint_events counter now; ~0 if there is no snapshot. */
static __u64 hint_event(int fd, int event)
{
	struct rvvstat_snapshot s;

	return dev_snapshot(fd, &s) ? ~0ULL : s.hint_events[event];
}

static __u32 hints_live(int fd)
{
	struct rvvstat_snapshot s;

	return dev_snapshot(fd, &s) ? ~0U : s.hints_live;
}

/* Child processes, ended at teardown if a test stopped early. */
static pid_t children[8];
static int nr_children;

static void child_add(pid_t pid)
{
	if (nr_children < (int)ARRAY_SIZE(children))
		children[nr_children++] = pid;
}

/* Ends child @pid (sending @sig first unless 0); its status or 128 + signal. */
static int child_end(pid_t pid, int sig)
{
	int i, status;

	for (i = 0; i < nr_children && children[i] != pid; i++)
		;
	if (i == nr_children)
		return -1;
	children[i] = children[--nr_children];
	if (sig)
		kill(pid, sig);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * A child process whose main thread is parked thread @m; it closes @dev_fd so that
 * only the test holds the module, and first runs @become (unless NULL) to
 * change who it is. Its pid, or -1.
 */
static pid_t proc_start_as(struct parked *m, int dev_fd, int (*become)(void))
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		close(dev_fd);
		if (become && become())
			_exit(100);
		parked_main(m);
		_exit(0);
	}
	if (pid < 0)
		return -1;
	child_add(pid);
	m->tid = parked_recv(m);
	return m->tid == pid ? pid : -1;
}

static pid_t proc_start(struct parked *m, int dev_fd)
{
	return proc_start_as(m, dev_fd, NULL);
}

/* A pid that was just used and reaped: no task has it now. */
static pid_t dead_tid(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

/* Drops to uid and gid 65534 with no supplementary groups; 0 or -1. */
static int become_nobody(void)
{
	return setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	       setresuid(NOBODY, NOBODY, NOBODY) ? -1 : 0;
}

/*
 * Pipes between the test and its as_nobody() child, made before the fork:
 * [0] child to test, [1] test to child. The child hands over midway with
 * child_step(); the test waits for that with test_await(), does its part
 * and lets the child go on with test_resume().
 */
static int step_pipes[2][2];

static int child_step(void)
{
	char c = 's';

	return write(step_pipes[0][1], &c, 1) == 1 &&
	       read(step_pipes[1][0], &c, 1) == 1 ? 0 : -1;
}

static int test_await(void)
{
	struct pollfd pfd = { .fd = step_pipes[0][0], .events = POLLIN };
	char c;

	return poll(&pfd, 1, 20000) == 1 &&
	       read(step_pipes[0][0], &c, 1) == 1 ? 0 : -1;
}

static int test_resume(void)
{
	char c = 'g';

	return write(step_pipes[1][1], &c, 1) == 1 ? 0 : -1;
}

/*
 * Starts @fn(@fd) in a child that first runs @setup(@fd) as root (unless
 * NULL), then drops to uid and gid 65534, and with them every capability,
 * under RLIMIT_RTPRIO and RLIMIT_NICE of 0. Its pid, or -1; child_end()
 * gives its exit status: 0 if all its checks passed.
 */
static pid_t nobody_start(int (*setup)(int fd), int (*fn)(int fd), int fd)
{
	struct rlimit zero = { 0, 0 };
	int status;
	pid_t pid;

	if (pipe2(step_pipes[0], O_CLOEXEC) || pipe2(step_pipes[1], O_CLOEXEC))
		return -1;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		if ((setup && setup(fd)) || setrlimit(RLIMIT_RTPRIO, &zero) ||
		    setrlimit(RLIMIT_NICE, &zero) || become_nobody())
			_exit(100);
		status = fn(fd);
		fflush(stdout);
		_exit(status);
	}
	if (pid < 0)
		return -1;
	child_add(pid);
	return pid;
}

/* Runs @fn(@fd) as nobody (nobody_start) to the end; its exit status. */
static int as_nobody(int (*fn)(int fd), int fd)
{
	pid_t pid = nobody_start(NULL, fn, fd);

	return pid < 0 ? -1 : child_end(pid, 0);
}

/* A check in an as_nobody() child: the first that fails ends it with 1. */
#define CHILD_EXPECT_EQ(want, got) do {					\
	long __want = (want), __got = (got);				\
	if (__want != __got) {						\
		printf("# line %d: %s is %ld, want %ld\n", __LINE__,	\
		       #got, __got, __want);				\
		return 1;						\
	}								\
} while (0)

/* Every fixture starts clean and ends so. */
static void fixture_start(int *fd)
{
	*fd = -1;
	/* A test ended by a failed ASSERT skips its teardown: start clean. */
	module_unload();
	read_allowed();
}

static void fixture_end(int fd)
{
	/* Children and our fd hold the module; they go first. */
	while (nr_children)
		child_end(children[0], SIGKILL);
	if (fd >= 0)
		close(fd);
	module_unload();
}

/* No module: the test loads it, with its own parameters or around its own steps. */
FIXTURE(unloaded) {
	int fd;
};

FIXTURE_SETUP(unloaded)
{
	fixture_start(&self->fd);
}

FIXTURE_TEARDOWN(unloaded)
{
	fixture_end(self->fd);
}

/* The module loaded with its defaults, its device open in self->fd. */
FIXTURE(loaded) {
	int fd;
};

FIXTURE_SETUP(loaded)
{
	fixture_start(&self->fd);
	ASSERT_LE(0, self->fd = load_and_open(""));
}

FIXTURE_TEARDOWN(loaded)
{
	fixture_end(self->fd);
}

/* Loaded and open as above, for tests that move threads between CPUs. */
FIXTURE(two_cpus) {
	int fd;
};

FIXTURE_SETUP(two_cpus)
{
	fixture_start(&self->fd);
	if (nr_allowed < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_LE(0, self->fd = load_and_open(""));
}

FIXTURE_TEARDOWN(two_cpus)
{
	fixture_end(self->fd);
}

/* GET_INFO describes the machine and the module's own build. */
TEST_F_TIMEOUT(unloaded, info_describes_the_machine, TEST_SECONDS)
{
	union {
		struct rvvstat_info info;
		unsigned char bytes[sizeof(struct rvvstat_info) + 8];
	} longer;
	static const unsigned char zeros[8];
	long vlenb = vlenb_of_cpu();
	struct rvvstat_info info;
	struct stat st;

	ASSERT_LT(0, vlenb);
	/* The table size is range-checked at load: 16..65536. */
	EXPECT_EQ(-EINVAL, load_refused("hint_table_size=15"));
	EXPECT_EQ(-EINVAL, load_refused("hint_table_size=65537"));
	ASSERT_LE(0, self->fd = load_and_open(""));
	ASSERT_EQ(0, stat(DEVICE_PATH, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 07777);

	ASSERT_EQ(0, dev_info(self->fd, &info));
	EXPECT_EQ(RVVSTAT_ABI_VERSION, info.abi_version);
	EXPECT_EQ(BACKEND, info.backend);
	EXPECT_EQ(vlenb * 8, info.vector_bits);
	EXPECT_EQ(arch_state_bytes(vlenb), info.bytes_per_save);
	EXPECT_LE(sysconf(_SC_NPROCESSORS_ONLN), info.nr_cpu_ids);
	EXPECT_EQ(256, info.hint_capacity);
	EXPECT_EQ(RVVSTAT_NR_COUNTERS, info.nr_counters);
	EXPECT_EQ(RVVSTAT_NR_HINT_EVENTS, info.nr_hint_events);
	/* The backend sees first uses: ON_VECTOR_USE works. */
	EXPECT_TRUE(info.features & RVVSTAT_FEATURE_VECTOR_USE);

	/* A caller with a longer struct gets the same, its tail left alone. */
	memset(&longer, 0, sizeof(longer));
	longer.info.size = sizeof(longer);
	ASSERT_EQ(0, dev_ioctl(self->fd, RVVSTAT_IOC_GET_INFO, &longer));
	EXPECT_EQ(info.abi_version, longer.info.abi_version);
	EXPECT_EQ(info.vector_bits, longer.info.vector_bits);
	EXPECT_EQ(info.nr_hint_events, longer.info.nr_hint_events);
	EXPECT_EQ(0, memcmp(longer.bytes + sizeof(info), zeros, sizeof(zeros)));
}

/* Every ioctl checks its argument's size and pointer the same way. */
TEST_F_TIMEOUT(loaded, argument_sizes_and_pointers, TEST_SECONDS)
{
	static const unsigned long sized[] = {
		RVVSTAT_IOC_GET_INFO, RVVSTAT_IOC_SET_HINT,
		RVVSTAT_IOC_GET_HINT, RVVSTAT_IOC_CLEAR_HINT,
		RVVSTAT_IOC_GET_TASK_STATS, RVVSTAT_IOC_SNAPSHOT,
	};
	union {
		__u64 size;
		unsigned char bytes[1024];
	} arg;
	cpu_set_t first = cpu_mask(first_cpu);
	struct rvvstat_info info = { .size = sizeof(info) };
	struct rvvstat_task_stats ts = { .size = sizeof(ts) };
	struct rvvstat_snapshot snap = { .size = sizeof(snap) };
	struct rvvstat_hint set = cpus_hint(0, 0, &first);
	struct rvvstat_hint get = hint_for(0, 0), clear = hint_for(0, 0);
	const struct {
		unsigned long req;
		void *arg;
		size_t len;
	} longer[] = {
		{ RVVSTAT_IOC_GET_INFO, &info, sizeof(info) },
		{ RVVSTAT_IOC_SET_HINT, &set, sizeof(set) },
		{ RVVSTAT_IOC_GET_HINT, &get, sizeof(get) },
		{ RVVSTAT_IOC_CLEAR_HINT, &clear, sizeof(clear) },
		{ RVVSTAT_IOC_GET_TASK_STATS, &ts, sizeof(ts) },
		{ RVVSTAT_IOC_SNAPSHOT, &snap, sizeof(snap) },
	};
	struct rvvstat_hint h;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sized); i++) {
		memset(&arg, 0, sizeof(arg));
		EXPECT_EQ(-EINVAL, dev_ioctl(self->fd, sized[i], &arg))
			TH_LOG("ioctl %#lx, size 0", sized[i]);
		arg.size = 7;
		EXPECT_EQ(-EINVAL, dev_ioctl(self->fd, sized[i], &arg))
			TH_LOG("ioctl %#lx, size 7", sized[i]);
		EXPECT_EQ(-EFAULT, dev_ioctl(self->fd, sized[i], (void *)8))
			TH_LOG("ioctl %#lx, pointer 8", sized[i]);
		/* Larger than any struct of the module, one byte set at the end. */
		arg.size = sizeof(arg);
		arg.bytes[sizeof(arg) - 1] = 1;
		EXPECT_EQ(-E2BIG, dev_ioctl(self->fd, sized[i], &arg))
			TH_LOG("ioctl %#lx, size %zu", sized[i], sizeof(arg));
	}

	/* A longer caller's tail must be zero; then its call is valid. */
	for (i = 0; i < ARRAY_SIZE(longer); i++) {
		EXPECT_EQ(-E2BIG, ioctl_longer(self->fd, longer[i].req,
					       longer[i].arg, longer[i].len, 1))
			TH_LOG("ioctl %#lx", longer[i].req);
		EXPECT_EQ(0, ioctl_longer(self->fd, longer[i].req,
					  longer[i].arg, longer[i].len, 0))
			TH_LOG("ioctl %#lx", longer[i].req);
	}
	EXPECT_EQ(RVVSTAT_ABI_VERSION, info.abi_version);
	EXPECT_EQ(getpid(), ts.tgid);
	EXPECT_EQ(RVVSTAT_NR_HINT_EVENTS, snap.nr_hint_events);
	EXPECT_EQ(RVVSTAT_HINT_CPUS, get.flags);
	EXPECT_EQ(mask_bits(&allowed), affinity_of(0));

	/* The size in the ioctl number is ignored; type and number are not. */
	info.size = sizeof(info);
	EXPECT_EQ(0, dev_ioctl(self->fd,
			       _IOWR(RVVSTAT_IOC_MAGIC, 1, __u64[2]), &info));
	EXPECT_EQ(-ENOTTY, dev_ioctl(self->fd, _IO(RVVSTAT_IOC_MAGIC, 99), NULL));
	EXPECT_EQ(-ENOTTY, dev_ioctl(self->fd,
				     _IOWR('x', 1, struct rvvstat_info), &info));

	/* The mask pointer is checked like the argument's. */
	h = cpus_hint(0, 0, &first);
	h.cpus = 8;
	EXPECT_EQ(-EFAULT, dev_set_hint(self->fd, h));
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &first)));
	h = hint_for(0, 0);
	h.cpus = 8;
	h.cpus_size = sizeof(cpu_set_t);
	EXPECT_EQ(-EFAULT, dev_ioctl(self->fd, RVVSTAT_IOC_GET_HINT, &h));
	EXPECT_EQ(0, dev_clear_hint(self->fd, 0, 0));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(0));
}

/* Whether tid 2 is kthreadd, as in a guest whose init is pid 1. */
static bool tid2_is_kthreadd(void)
{
	char comm[32];

	return read_file("/proc/2/comm", comm, sizeof(comm)) > 0 &&
	       !strcmp(comm, "kthreadd\n");
}

/* Bad flags, masks, policies and targets are refused and change nothing. */
TEST_F_TIMEOUT(loaded, bad_hints_are_refused_without_effect, TEST_SECONDS)
{
	static const __u32 bad_flags[] = {
		0, RVVSTAT_HINT_PROCESS, RVVSTAT_HINT_ON_VECTOR_USE,
		RVVSTAT_HINT_PROCESS | RVVSTAT_HINT_ON_VECTOR_USE,
		RVVSTAT_HINT_CPUS | 1U << 4, RVVSTAT_HINT_CPUS | 1U << 31,
	};
	static const struct {
		__u32 policy;
		int nice;
		__u32 rt;
	} bad_policies[] = {
		{ 4, 0, 0 }, { 99, 0, 0 },
		{ SCHED_OTHER, 20, 0 }, { SCHED_OTHER, -21, 0 },
		{ SCHED_OTHER, 0, 1 }, { SCHED_BATCH, 20, 0 },
		{ SCHED_BATCH, 0, 1 }, { SCHED_IDLE, 1, 0 }, { SCHED_IDLE, 0, 1 },
		{ SCHED_FIFO, 0, 0 }, { SCHED_FIFO, 0, 100 },
		{ SCHED_FIFO, 1, 10 }, { SCHED_RR, 0, 0 }, { SCHED_RR, -1, 10 },
	};
	static unsigned char wide[8200];
	cpu_set_t last = cpu_mask(last_cpu), first = cpu_mask(first_cpu);
	cpu_set_t empty, offline, got;
	char before[SCHED_TEXT], now[SCHED_TEXT];
	struct rvvstat_hint h, stored;
	pid_t gone = dead_tid();
	unsigned char byte;
	struct parked w;
	unsigned int i;

	ASSERT_EQ(0, parked_start(&w));
	h = cpus_hint(w.tid, RVVSTAT_HINT_POLICY, &last);
	h.policy = SCHED_BATCH;
	h.nice = 3;
	ASSERT_EQ(0, dev_set_hint(self->fd, h));
	ASSERT_EQ(0, dev_get_hint(self->fd, w.tid, 0, &stored, NULL));
	sched_text(w.tid, before);

	for (i = 0; i < ARRAY_SIZE(bad_flags); i++) {
		h = cpus_hint(w.tid, 0, &last);
		h.flags = bad_flags[i];
		if (h.flags & RVVSTAT_HINT_PROCESS)
			h.target = getpid();
		EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, h))
			TH_LOG("flags %#x", bad_flags[i]);
	}

	h = cpus_hint(w.tid, 0, &last);
	h.cpus_size = 0;
	EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, h));
	memset(wide, 0, sizeof(wide));
	wide[last_cpu / 8] = 1 << (last_cpu % 8);
	h.cpus = (uintptr_t)wide;
	h.cpus_size = 8193;
	EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, h));
	CPU_ZERO(&empty);
	EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, cpus_hint(w.tid, 0, &empty)));
	/* No guest has CPU_SETSIZE - 1 online. */
	offline = cpu_mask(CPU_SETSIZE - 1);
	EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, cpus_hint(w.tid, 0, &offline)));
	CPU_SET(last_cpu, &offline);
	EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, cpus_hint(w.tid, 0, &offline)));

	for (i = 0; i < ARRAY_SIZE(bad_policies); i++)
		EXPECT_EQ(-EINVAL, dev_set_hint(self->fd,
					    policy_hint(w.tid, 0,
							bad_policies[i].policy,
							bad_policies[i].nice,
							bad_policies[i].rt)))
			TH_LOG("policy %u nice %d rt_priority %u",
			       bad_policies[i].policy, bad_policies[i].nice,
			       bad_policies[i].rt);

	/* The whole allowed mask: harmless should kthreadd take it. */
	EXPECT_EQ(-ESRCH, dev_set_hint(self->fd, cpus_hint(gone, 0, &allowed)));
	EXPECT_EQ(-ESRCH, dev_set_hint(self->fd,
				   cpus_hint(gone, RVVSTAT_HINT_PROCESS, &allowed)));
	/* Braced: EXPECT_EQ is a for loop that would take the else. */
	if (tid2_is_kthreadd()) {
		EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, cpus_hint(2, 0, &allowed)));
	} else {
		printf("# tid 2 is not kthreadd: kernel-thread case not run\n");
	}
	EXPECT_EQ(-ESRCH, dev_get_hint(self->fd, gone, 0, &h, NULL));
	/* The main thread and the process have no hint. */
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, 0, 0, &h, NULL));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, getpid(), RVVSTAT_HINT_PROCESS,
				    &h, NULL));
	EXPECT_EQ(-ENOENT, dev_clear_hint(self->fd, 0, 0));

	/* After all that, the stored hint and the thread are as they were. */
	ASSERT_EQ(0, dev_get_hint(self->fd, w.tid, 0, &h, &got));
	EXPECT_EQ(stored.flags, h.flags);
	EXPECT_EQ(SCHED_BATCH, h.policy);
	EXPECT_EQ(3, h.nice);
	EXPECT_EQ(1, h.applied);
	EXPECT_EQ(0, h.last_error);
	EXPECT_EQ(mask_bits(&last), mask_bits(&got));
	EXPECT_EQ(mask_bits(&last), affinity_of(w.tid));
	EXPECT_STREQ(before, sched_text(w.tid, now));

	/* The extremes of cpus_size are valid. */
	if (first_cpu < 8) {
		byte = 1 << first_cpu;
		h = hint_for(0, RVVSTAT_HINT_CPUS);
		h.cpus = (uintptr_t)&byte;
		h.cpus_size = 1;
		EXPECT_EQ(0, dev_set_hint(self->fd, h));
		EXPECT_EQ(mask_bits(&first), affinity_of(0));
	}
	h = hint_for(0, RVVSTAT_HINT_CPUS);
	h.cpus = (uintptr_t)wide;
	h.cpus_size = 8192;
	EXPECT_EQ(0, dev_set_hint(self->fd, h));
	EXPECT_EQ(mask_bits(&last), affinity_of(0));
	EXPECT_EQ(0, dev_clear_hint(self->fd, 0, 0));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(0));
}

/* Without ON_VECTOR_USE a hint applies at once; CLEAR restores the baseline. */
TEST_F_TIMEOUT(loaded, cpus_hint_applies_now_and_clear_restores, TEST_SECONDS)
{
	cpu_set_t first = cpu_mask(first_cpu), last = cpu_mask(last_cpu), got;
	pid_t tid = syscall(SYS_gettid);
	struct rvvstat_info info;
	struct rvvstat_hint h;

	ASSERT_EQ(0, dev_info(self->fd, &info));
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &last)));
	EXPECT_EQ(mask_bits(&last), affinity_of(0));

	/* 0 and the caller's own tid name the same thread. */
	ASSERT_EQ(0, dev_get_hint(self->fd, tid, 0, &h, &got));
	EXPECT_EQ(RVVSTAT_HINT_CPUS, h.flags);
	EXPECT_EQ(mask_bits(&last), mask_bits(&got));
	EXPECT_LE((info.nr_cpu_ids + 7) / 8, h.cpus_size);
	EXPECT_GE(sizeof(got), h.cpus_size);
	EXPECT_EQ(1, h.applied);
	EXPECT_EQ(0, h.last_error);

	/* A second hint replaces the first. */
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(tid, 0, &first)));
	EXPECT_EQ(mask_bits(&first), affinity_of(0));
	ASSERT_EQ(0, dev_get_hint(self->fd, 0, 0, &h, &got));
	EXPECT_EQ(mask_bits(&first), mask_bits(&got));
	EXPECT_EQ(1, h.applied);

	ASSERT_EQ(0, dev_clear_hint(self->fd, 0, 0));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(0));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, 0, 0, &h, NULL));
	EXPECT_EQ(-ENOENT, dev_clear_hint(self->fd, tid, 0));
}

/* The baseline is the thread's mask at its first hint, kept on replacement. */
TEST_F_TIMEOUT(two_cpus, baseline_is_the_mask_at_the_first_hint, TEST_SECONDS)
{
	cpu_set_t base = allowed, first = cpu_mask(first_cpu);
	cpu_set_t last = cpu_mask(last_cpu), got;
	struct rvvstat_hint h;

	/* A mask of the thread's own making, without the last CPU. */
	CPU_CLR(last_cpu, &base);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(base), &base));
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &first)));
	EXPECT_EQ(mask_bits(&first), affinity_of(0));

	/* Outside the baseline: refused, hint and mask unchanged. */
	EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, cpus_hint(0, 0, &last)));
	EXPECT_EQ(mask_bits(&first), affinity_of(0));
	ASSERT_EQ(0, dev_get_hint(self->fd, 0, 0, &h, &got));
	EXPECT_EQ(mask_bits(&first), mask_bits(&got));

	/* Inside it, though wider than the first hint left the thread: fine. */
	EXPECT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &base)));
	EXPECT_EQ(mask_bits(&base), affinity_of(0));
	EXPECT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &first)));
	EXPECT_EQ(mask_bits(&first), affinity_of(0));

	ASSERT_EQ(0, dev_clear_hint(self->fd, 0, 0));
	EXPECT_EQ(mask_bits(&base), affinity_of(0));
}

/* Policy hints show in sched_getattr; CLEAR brings back the thread's own. */
TEST_F_TIMEOUT(loaded, policy_hints_apply_and_restore, TEST_SECONDS)
{
	char base[SCHED_TEXT], now[SCHED_TEXT];
	struct rvvstat_hint h;
	struct parked w;

	ASSERT_EQ(0, parked_start(&w));
	/* A baseline other than the default, so a restore cannot be a reset. */
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, w.tid, 4));
	ASSERT_EQ(SCHED_OTHER, sched_of(w.tid).sched_policy);
	ASSERT_EQ(4, sched_of(w.tid).sched_nice);
	sched_text(w.tid, base);

	ASSERT_EQ(0, dev_set_hint(self->fd, policy_hint(w.tid, 0, SCHED_BATCH, 5, 0)));
	EXPECT_EQ(SCHED_BATCH, sched_getscheduler(w.tid));
	EXPECT_EQ(5, sched_of(w.tid).sched_nice);
	ASSERT_EQ(0, dev_get_hint(self->fd, w.tid, 0, &h, NULL));
	EXPECT_EQ(RVVSTAT_HINT_POLICY, h.flags);
	EXPECT_EQ(SCHED_BATCH, h.policy);
	EXPECT_EQ(5, h.nice);
	EXPECT_EQ(1, h.applied);
	EXPECT_EQ(0, h.last_error);
	ASSERT_EQ(0, dev_clear_hint(self->fd, w.tid, 0));
	EXPECT_STREQ(base, sched_text(w.tid, now));

	ASSERT_EQ(0, dev_set_hint(self->fd, policy_hint(w.tid, 0, SCHED_FIFO, 0, 10)));
	EXPECT_EQ(SCHED_FIFO, sched_getscheduler(w.tid));
	EXPECT_EQ(10, sched_of(w.tid).sched_priority);
	ASSERT_EQ(0, dev_get_hint(self->fd, w.tid, 0, &h, NULL));
	EXPECT_EQ(SCHED_FIFO, h.policy);
	EXPECT_EQ(10, h.rt_priority);
	ASSERT_EQ(0, dev_clear_hint(self->fd, w.tid, 0));
	EXPECT_STREQ(base, sched_text(w.tid, now));

	/* A replacement keeps the baseline of the first hint, not IDLE. */
	ASSERT_EQ(0, dev_set_hint(self->fd, policy_hint(w.tid, 0, SCHED_IDLE, 0, 0)));
	EXPECT_EQ(SCHED_IDLE, sched_getscheduler(w.tid));
	ASSERT_EQ(0, dev_set_hint(self->fd, policy_hint(w.tid, 0, SCHED_RR, 0, 20)));
	EXPECT_EQ(SCHED_RR, sched_getscheduler(w.tid));
	EXPECT_EQ(20, sched_of(w.tid).sched_priority);
	ASSERT_EQ(0, dev_clear_hint(self->fd, w.tid, 0));
	EXPECT_STREQ(base, sched_text(w.tid, now));
}

/* The summary lists each hint a caller set, as set, and forgets it on clear. */
TEST_F_TIMEOUT(loaded, summary_lists_the_hints_set, TEST_SECONDS)
{
	static char summary[1 << 16];
	cpu_set_t last = cpu_mask(last_cpu);
	pid_t tid = syscall(SYS_gettid);
	char cpus_line[96], policy_line[96];
	struct parked w;

	ASSERT_EQ(0, parked_start(&w));
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &last)));
	ASSERT_EQ(0, dev_set_hint(self->fd, policy_hint(w.tid, 0, SCHED_FIFO, 0, 10)));
	snprintf(cpus_line, sizeof(cpus_line),
		 "\n  tid %d: cpus %d now, applied 1, last error 0\n", tid, last_cpu);
	snprintf(policy_line, sizeof(policy_line),
		 "\n  tid %d: policy fifo priority 10 now, applied 1, last error 0\n",
		 w.tid);
	ASSERT_LT(0, read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)));
	EXPECT_NE(NULL, strstr(summary, "\nhints: 2 of "));
	EXPECT_NE(NULL, strstr(summary, cpus_line));
	EXPECT_NE(NULL, strstr(summary, policy_line));

	ASSERT_EQ(0, dev_clear_hint(self->fd, 0, 0));
	ASSERT_LT(0, read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)));
	EXPECT_NE(NULL, strstr(summary, "\nhints: 1 of "));
	EXPECT_EQ(NULL, strstr(summary, cpus_line));
	EXPECT_NE(NULL, strstr(summary, policy_line));
	EXPECT_EQ(0, dev_clear_hint(self->fd, w.tid, 0));
	EXPECT_EQ(0, parked_stop(&w));
}

/*
 * The locks lockdep saw held directly around @lock, from its graph
 * (/proc/lockdep: a class line, then " -> [key] NAME" for each class taken
 * under it), other than @except: how many, their names into @names; -ENOENT
 * without the graph (no PROVE_LOCKING).
 */
static int lockdep_taken_under(const char *lock, const char *except,
			       char *names, size_t size)
{
	char line[512], class[256] = "", *at;
	FILE *f = fopen("/proc/lockdep", "r");
	size_t used = 0;
	int found = 0;

	if (!f)
		return -ENOENT;
	names[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		/* "KEY FD: n BD: n USAGE: NAME" */
		at = strstr(line, " BD:");
		at = at ? strstr(at + 4, ": ") : NULL;
		if (at)
			snprintf(class, sizeof(class), "%s", at + 2);
		at = strncmp(line, " -> [", 5) ? NULL : strstr(line, "] ");
		if (!at || strcmp(at + 2, lock) ||
		    !strncmp(class, except, strlen(except)))
			continue;
		found++;
		if (used < size - 1)
			used += snprintf(names + used, size - used, "%s%s",
					 used ? ", " : "", class);
	}
	fclose(f);
	return found;
}

/*
 * The hint mutex is outermost (module/hints/hints.c's lock order): only the
 * ioctls and the hint worker take it, with nothing else held, so no lock
 * cycle can close through it whatever the kernel takes under it. A task
 * dump (under genl_mutex) and the summary (under the seq_file's lock) read
 * the hints while one is live, so both run here: lockdep's graph must show
 * no lock held around the mutex but the worker's work.
 */
TEST_F_TIMEOUT(two_cpus, hint_mutex_is_taken_with_nothing_held, TEST_SECONDS)
{
	static char summary[1 << 16];
	cpu_set_t last = cpu_mask(last_cpu);
	char holders[4096];
	struct parked w;
	int nl, family;

	if (access("/proc/lockdep", R_OK))
		SKIP(return, "no lockdep graph (/proc/lockdep) in this kernel");
	ASSERT_EQ(0, parked_start(&w));
	/* Applied by the worker, at the thread's first vector use. */
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(w.tid, RVVSTAT_HINT_ON_VECTOR_USE, &last)));
	ASSERT_EQ(0, parked_do(&w, PARKED_VECTOR));
	WAIT_UNTIL(dev_hint_applied(self->fd, w.tid, 0) == 1, APPLY_MS);
	ASSERT_EQ(mask_bits(&last), affinity_of(w.tid));

	ASSERT_LE(0, nl = genl_open());
	ASSERT_LT(0, family = genl_family(nl, RVVSTAT_GENL_NAME));
	EXPECT_LT(0, genl_dump(nl, family, RVVSTAT_CMD_GET_TASKS));
	close(nl);
	ASSERT_LT(0, read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)));

	EXPECT_EQ(0, lockdep_taken_under("rvv_hints_mutex",
					 "(work_completion)(&(&rvv_hint_work)->work)",
					 holders, sizeof(holders)))
		TH_LOG("rvv_hints_mutex is taken under: %s", holders);
	EXPECT_EQ(0, dev_clear_hint(self->fd, w.tid, 0));
	EXPECT_EQ(0, parked_stop(&w));
}

static bool deadline_admission_off(void)
{
	char value[32];

	return read_file("/proc/sys/kernel/sched_rt_runtime_us", value,
			 sizeof(value)) > 0 && atoi(value) < 0;
}

/*
 * Deadline parameters are checked as sched_setattr checks them, and a hint
 * the kernel's admission control refuses is -EBUSY: full-bandwidth tasks
 * are hinted one by one until the root domain (95 % of each CPU) is full.
 */
TEST_F_TIMEOUT(unloaded, deadline_hints_and_admission, TEST_SECONDS)
{
	struct sched_attr dl = {
		.size = sizeof(dl), .sched_policy = SCHED_DEADLINE,
		.sched_runtime = 10 * MS, .sched_deadline = 10 * MS,
		.sched_period = 10 * MS,
	};
	int n = sysconf(_SC_NPROCESSORS_ONLN) + 1, i, fd, err = 0;
	char base[SCHED_TEXT], now[SCHED_TEXT];
	struct rvvstat_snapshot before, after;
	struct parked w[MAX_WORKERS];
	struct sched_attr a;
	struct rvvstat_hint h;
	pid_t tid;

	/* The kernel refuses deadline tasks that cannot run everywhere. */
	if (nr_allowed != n - 1)
		SKIP(return, "the test process lacks some online CPUs");
	if (n > MAX_WORKERS)
		SKIP(return, "more CPUs than workers");
	ASSERT_LE(0, self->fd = load_and_open(""));
	fd = self->fd;
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, parked_start(&w[i]));
	tid = w[0].tid;
	sched_text(tid, base);

	/* Runtime under 1024 ns, or not runtime <= deadline <= period. */
	EXPECT_EQ(-EINVAL, dev_set_hint(fd, deadline_hint(tid, 1000, 10 * MS, 10 * MS)));
	EXPECT_EQ(-EINVAL, dev_set_hint(fd, deadline_hint(tid, 0, 0, 0)));
	EXPECT_EQ(-EINVAL, dev_set_hint(fd, deadline_hint(tid, 2 * MS, MS, 10 * MS)));
	EXPECT_EQ(-EINVAL, dev_set_hint(fd, deadline_hint(tid, MS, 20 * MS, 10 * MS)));
	EXPECT_STREQ(base, sched_text(tid, now));

	/* Period 0 stands for the deadline, as the kernel reports. */
	ASSERT_EQ(0, dev_set_hint(fd, deadline_hint(tid, MS, 10 * MS, 0)));
	a = sched_of(tid);
	EXPECT_EQ(SCHED_DEADLINE, a.sched_policy);
	EXPECT_EQ(MS, a.sched_runtime);
	EXPECT_EQ(10 * MS, a.sched_deadline);
	EXPECT_EQ(10 * MS, a.sched_period);
	ASSERT_EQ(0, dev_get_hint(fd, tid, 0, &h, NULL));
	EXPECT_EQ(SCHED_DEADLINE, h.policy);
	EXPECT_EQ(MS, h.dl_runtime);
	EXPECT_EQ(10 * MS, h.dl_deadline);
	/* The smallest runtime there is. */
	ASSERT_EQ(0, dev_set_hint(fd, deadline_hint(tid, 1024, 10 * MS, 10 * MS)));
	EXPECT_EQ(1024, sched_of(tid).sched_runtime);
	ASSERT_EQ(0, dev_clear_hint(fd, tid, 0));
	EXPECT_STREQ(base, sched_text(tid, now));

	if (deadline_admission_off())
		SKIP(return, "sched_rt_runtime_us is -1: no admission control");
	ASSERT_EQ(0, dev_snapshot(fd, &before));
	for (i = 0; i < n; i++) {
		err = dev_set_hint(fd, deadline_hint(w[i].tid, 10 * MS, 10 * MS,
						 10 * MS));
		if (err)
			break;
	}
	printf("# %d full-bandwidth deadline hints admitted\n", i);
	ASSERT_GT(n, i);
	EXPECT_EQ(-EBUSY, err);
	ASSERT_EQ(0, dev_snapshot(fd, &after));
	EXPECT_EQ(1, delta(&before, &after, RVVSTAT_HEV_REFUSED_BUSY));
	EXPECT_EQ(-ENOENT, dev_get_hint(fd, w[i].tid, 0, &h, NULL));
	EXPECT_STREQ(base, sched_text(w[i].tid, now));
	/* The kernel itself refuses that thread the same. */
	EXPECT_EQ(-1, syscall(SYS_sched_setattr, w[i].tid, &dl, 0));
	EXPECT_EQ(EBUSY, errno);

	while (i-- > 0) {
		EXPECT_EQ(0, dev_clear_hint(fd, w[i].tid, 0));
		EXPECT_STREQ(base, sched_text(w[i].tid, now));
	}
}

/* As nobody: another owner's thread and raised priorities are refused. */
static int nobody_hints(int fd)
{
	pid_t root_owned = getppid();
	struct sched_attr a;

	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, cpus_hint(root_owned, 0, &allowed)));
	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, cpus_hint(root_owned,
						       RVVSTAT_HINT_PROCESS,
						       &allowed)));
	/* Its own thread, beyond RLIMIT_RTPRIO and RLIMIT_NICE. */
	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, policy_hint(0, 0, SCHED_FIFO, 0, 10)));
	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, policy_hint(0, 0, SCHED_OTHER, -5, 0)));
	/* Within them. */
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, policy_hint(0, 0, SCHED_BATCH, 5, 0)));
	a = sched_of(0);
	CHILD_EXPECT_EQ(SCHED_BATCH, a.sched_policy);
	CHILD_EXPECT_EQ(5, a.sched_nice);
	return 0;
}

TEST_F_TIMEOUT(loaded, unprivileged_callers_are_limited, TEST_SECONDS)
{
	char base[SCHED_TEXT], now[SCHED_TEXT];
	struct rvvstat_snapshot before, after;
	struct rvvstat_hint h;

	sched_text(0, base);
	ASSERT_EQ(0, dev_snapshot(self->fd, &before));
	EXPECT_EQ(0, as_nobody(nobody_hints, self->fd));
	ASSERT_EQ(0, dev_snapshot(self->fd, &after));
	EXPECT_EQ(4, delta(&before, &after, RVVSTAT_HEV_REFUSED_PERM));
	EXPECT_EQ(1, delta(&before, &after, RVVSTAT_HEV_SET));
	/* The refusals left the root-owned target alone. */
	EXPECT_EQ(mask_bits(&allowed), affinity_of(0));
	EXPECT_STREQ(base, sched_text(0, now));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, 0, 0, &h, NULL));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, getpid(), RVVSTAT_HINT_PROCESS,
				    &h, NULL));
}

/*
 * As nobody, on threads of its own, while the test attaches a BPF-LSM
 * program that denies task_setscheduler to nobody, then detaches it.
 */
static int nobody_meets_the_lsm(int fd)
{
	const unsigned long all = mask_bits(&allowed);
	cpu_set_t last = cpu_mask(last_cpu);
	char base[SCHED_TEXT], now[SCHED_TEXT];
	const __u32 at_first_use = RVVSTAT_HINT_ON_VECTOR_USE;
	struct rvvstat_hint h, batch;
	struct parked deferred, direct, cleared;

	CHILD_EXPECT_EQ(0, parked_start(&deferred));
	CHILD_EXPECT_EQ(0, parked_start(&direct));
	CHILD_EXPECT_EQ(0, parked_start(&cleared));
	sched_text(direct.tid, base);
	batch = policy_hint(direct.tid, 0, SCHED_BATCH, 5, 0);
	/* Set while nothing denies it; applied at first vector use, when it does. */
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, cpus_hint(deferred.tid, at_first_use,
						      &last)));
	/* Applied while nothing denies it; its restore at CLEAR is denied. */
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, cpus_hint(cleared.tid, 0, &last)));
	CHILD_EXPECT_EQ(mask_bits(&last), affinity_of(cleared.tid));
	CHILD_EXPECT_EQ(0, child_step());	/* the program is attached */
	/* The hint goes, as CLEAR says; the LSM keeps the mask. */
	CHILD_EXPECT_EQ(0, dev_clear_hint(fd, cleared.tid, 0));
	CHILD_EXPECT_EQ(-ENOENT, dev_get_hint(fd, cleared.tid, 0, &h, NULL));
	CHILD_EXPECT_EQ(mask_bits(&last), affinity_of(cleared.tid));
	/* The program works: the syscall itself is refused. */
	CHILD_EXPECT_EQ(-1, sched_setaffinity(direct.tid, sizeof(last), &last));
	CHILD_EXPECT_EQ(EPERM, errno);
	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, cpus_hint(direct.tid, 0, &last)));
	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, batch));
	CHILD_EXPECT_EQ(all, affinity_of(direct.tid));
	CHILD_EXPECT_EQ(0, strcmp(base, sched_text(direct.tid, now)));
	CHILD_EXPECT_EQ(0, parked_do(&deferred, PARKED_VECTOR));
	WAIT_UNTIL(!dev_get_hint(fd, deferred.tid, 0, &h, NULL) &&
		   (h.last_error || h.applied), APPLY_MS);
	CHILD_EXPECT_EQ(0, dev_get_hint(fd, deferred.tid, 0, &h, NULL));
	CHILD_EXPECT_EQ(-EPERM, h.last_error);
	CHILD_EXPECT_EQ(0, h.applied);
	CHILD_EXPECT_EQ(all, affinity_of(deferred.tid));
	CHILD_EXPECT_EQ(0, child_step());	/* the program is detached */
	/* So it was the LSM that refused: now all of it is allowed. */
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, batch));
	CHILD_EXPECT_EQ(SCHED_BATCH, sched_of(direct.tid).sched_policy);
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, cpus_hint(direct.tid, 0, &last)));
	CHILD_EXPECT_EQ(mask_bits(&last), affinity_of(direct.tid));
	return 0;
}

/*
 * A hint is decided by the LSMs as the syscalls are: a BPF-LSM program that
 * refuses task_setscheduler to nobody refuses nobody's hints too, those
 * applied at once, those applied later by the module's worker and the
 * restore of a CLEAR.
 */
TEST_F_TIMEOUT(two_cpus, lsm_decides_hints_as_the_syscalls, TEST_SECONDS)
{
	struct rvvstat_snapshot before, after;
	char why[512];
	int link;
	pid_t pid;

	if (bpf_lsm_unavailable(why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, dev_snapshot(self->fd, &before));
	ASSERT_LT(0, pid = nobody_start(NULL, nobody_meets_the_lsm, self->fd));
	ASSERT_EQ(0, test_await());
	link = bpf_lsm_deny_setscheduler(NOBODY, why, sizeof(why));
	/* A test that stops early detaches it too: its process exits. */
	ASSERT_LE(0, link) TH_LOG("%s", why);
	ASSERT_EQ(0, test_resume());
	ASSERT_EQ(0, test_await());
	close(link);
	ASSERT_EQ(0, test_resume());
	EXPECT_EQ(0, child_end(pid, 0));
	ASSERT_EQ(0, dev_snapshot(self->fd, &after));
	/* The cpus and policy hints at once, and the deferred one. */
	EXPECT_EQ(3, delta(&before, &after, RVVSTAT_HEV_REFUSED_PERM));
}

/* Root's hint on a thread of the child, set before the child drops to nobody. */
static struct parked frozen;

static int root_hints_before_the_drop(int fd)
{
	if (parked_start(&frozen))
		return -1;
	return dev_set_hint(fd, policy_hint(frozen.tid, RVVSTAT_HINT_ON_VECTOR_USE,
					    SCHED_FIFO, 0, 10)) ? -1 : 0;
}

/* As nobody (RLIMIT_RTPRIO 0), on the thread root hinted before the drop. */
static int nobody_meets_roots_hint(int fd)
{
	struct sched_param fifo = { .sched_priority = 10 };
	struct rvvstat_hint h;

	/* Nobody may not make its thread FIFO, by syscall or hint... */
	CHILD_EXPECT_EQ(-1, sched_setscheduler(frozen.tid, SCHED_FIFO, &fifo));
	CHILD_EXPECT_EQ(EPERM, errno);
	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, policy_hint(frozen.tid, 0,
							     SCHED_FIFO, 0, 10)));
	/* ...but root's hint, refused nothing, applies with root's rights. */
	CHILD_EXPECT_EQ(0, parked_do(&frozen, PARKED_VECTOR));
	WAIT_UNTIL(sched_of(frozen.tid).sched_policy == SCHED_FIFO, APPLY_MS);
	CHILD_EXPECT_EQ(SCHED_FIFO, sched_of(frozen.tid).sched_policy);
	CHILD_EXPECT_EQ(0, dev_get_hint(fd, frozen.tid, 0, &h, NULL));
	CHILD_EXPECT_EQ(1, h.applied);
	CHILD_EXPECT_EQ(0, h.last_error);
	return 0;
}

/*
 * A hint keeps the credentials its setter had at SET_HINT, as an open file
 * keeps its opener's: the setter's later setuid() does not narrow what it
 * set (nor, the rules' tests show, widen it).
 */
TEST_F_TIMEOUT(two_cpus, hint_keeps_its_setters_credentials, TEST_SECONDS)
{
	pid_t pid;

	ASSERT_LT(0, pid = nobody_start(root_hints_before_the_drop,
					nobody_meets_roots_hint, self->fd));
	EXPECT_EQ(0, child_end(pid, 0));
}

/* As nobody: another owner's hints and counters are hidden, as in /proc. */
static int nobody_reads(int fd)
{
	pid_t root_owned = getppid();
	struct rvvstat_task_stats ts;
	struct rvvstat_hint h;

	CHILD_EXPECT_EQ(-ESRCH, dev_get_hint(fd, root_owned, 0, &h, NULL));
	CHILD_EXPECT_EQ(-ESRCH, dev_get_hint(fd, root_owned, RVVSTAT_HINT_PROCESS,
					 &h, NULL));
	CHILD_EXPECT_EQ(-ESRCH, dev_task_stats(fd, root_owned, &ts));
	/* Its own, as anyone's: no hint yet, then the one it set. */
	CHILD_EXPECT_EQ(-ENOENT, dev_get_hint(fd, 0, 0, &h, NULL));
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, policy_hint(0, 0, SCHED_BATCH, 0, 0)));
	CHILD_EXPECT_EQ(0, dev_get_hint(fd, 0, 0, &h, NULL));
	CHILD_EXPECT_EQ(SCHED_BATCH, h.policy);
	CHILD_EXPECT_EQ(0, dev_task_stats(fd, 0, &ts));
	return 0;
}

/*
 * GET_HINT shows a thread's hint to whoever may read its /proc entry, as
 * GET_TASK_STATS its counters (ptrace's read rule): to others it is ESRCH.
 */
TEST_F_TIMEOUT(loaded, hints_are_read_as_proc_is, TEST_SECONDS)
{
	struct rvvstat_hint h;

	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &allowed)));
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, RVVSTAT_HINT_PROCESS,
						  &allowed)));
	EXPECT_EQ(0, as_nobody(nobody_reads, self->fd));
	EXPECT_EQ(0, dev_get_hint(self->fd, 0, 0, &h, NULL));
	EXPECT_EQ(0, dev_get_hint(self->fd, getpid(), RVVSTAT_HINT_PROCESS, &h,
			      NULL));
}

/*
 * A descriptor opened read-only reads (as /proc does) but changes nothing:
 * SET_HINT, CLEAR_HINT and RESET need it opened for writing, else EBADF.
 */
TEST_F_TIMEOUT(loaded, read_only_descriptor_changes_nothing, TEST_SECONDS)
{
	cpu_set_t first = cpu_mask(first_cpu);
	struct rvvstat_snapshot before, after;
	struct rvvstat_task_stats ts;
	struct rvvstat_info info;
	struct rvvstat_hint h;
	int ro;

	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &allowed)));
	ASSERT_LE(0, ro = open(DEVICE_PATH, O_RDONLY | O_CLOEXEC));
	EXPECT_EQ(0, dev_info(ro, &info));
	EXPECT_EQ(0, dev_task_stats(ro, 0, &ts));
	EXPECT_EQ(0, dev_get_hint(ro, 0, 0, &h, NULL));
	ASSERT_EQ(0, dev_snapshot(ro, &before));
	EXPECT_EQ(-EBADF, dev_set_hint(ro, cpus_hint(0, 0, &first)));
	EXPECT_EQ(-EBADF, dev_clear_hint(ro, 0, 0));
	EXPECT_EQ(-EBADF, dev_ioctl(ro, RVVSTAT_IOC_RESET, NULL));
	ASSERT_EQ(0, dev_snapshot(ro, &after));
	close(ro);
	EXPECT_EQ(mask_bits(&allowed), affinity_of(0));
	EXPECT_EQ(0, dev_get_hint(self->fd, 0, 0, &h, NULL));
	/* Not reset, and no refusal counted: the ioctls were never taken. */
	EXPECT_EQ(1, after.hint_events[RVVSTAT_HEV_SET]);
	EXPECT_EQ(0, memcmp(before.hint_events, after.hint_events,
			    sizeof(before.hint_events)));
}

static int open_device(void *fd)
{
	*(int *)fd = device_open();
	return *(int *)fd < 0 ? *(int *)fd : 0;
}

/*
 * RESET needs CAP_SYS_ADMIN of whoever opened the descriptor as well as of
 * the caller (as netlink_capable() asks): a privileged program handed an
 * unprivileged opener's descriptor resets nothing.
 */
TEST_F_TIMEOUT(loaded, reset_needs_the_openers_capability, TEST_SECONDS)
{
	struct rvvstat_snapshot s;
	int handed = -1;

	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &allowed)));
	ASSERT_EQ(0, chmod(DEVICE_PATH, 0666));
	EXPECT_EQ(0, with_unprivileged_opener(open_device, &handed));
	ASSERT_EQ(0, chmod(DEVICE_PATH, 0600));
	ASSERT_LE(0, handed);
	EXPECT_EQ(-EPERM, dev_ioctl(handed, RVVSTAT_IOC_RESET, NULL));
	EXPECT_EQ(0, dev_snapshot(handed, &s));
	EXPECT_EQ(1, s.hint_events[RVVSTAT_HEV_SET]);
	close(handed);
	/* The test's own descriptor, opened by root, resets. */
	EXPECT_EQ(0, dev_ioctl(self->fd, RVVSTAT_IOC_RESET, NULL));
	EXPECT_EQ(0, hint_event(self->fd, RVVSTAT_HEV_SET));
}

/*
 * Issue 21: a hint gives no caller more than sched_setattr(2) and
 * sched_setaffinity(2) would, at any application, and CLEAR_HINT neither.
 */

/* The target of the nobody children below, set before they start. */
static pid_t peer;

/* Root (the test) makes this thread FIFO 10 with reset-on-fork, as rtkit does. */
static int nobody_keeps_reset_on_fork(int fd)
{
	struct sched_attr a;
	int status;
	pid_t pid;

	CHILD_EXPECT_EQ(0, child_step());
	a = sched_of(0);
	CHILD_EXPECT_EQ(SCHED_FIFO, a.sched_policy);
	CHILD_EXPECT_EQ(SCHED_FLAG_RESET_ON_FORK,
			a.sched_flags & SCHED_FLAG_RESET_ON_FORK);
	/* Within RLIMIT_RTPRIO 0: the same policy, a lower priority. */
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, policy_hint(0, 0, SCHED_FIFO, 0, 5)));
	a = sched_of(0);
	CHILD_EXPECT_EQ(5, a.sched_priority);
	/* Only CAP_SYS_NICE may drop it, by syscall or by hint. */
	CHILD_EXPECT_EQ(SCHED_FLAG_RESET_ON_FORK,
			a.sched_flags & SCHED_FLAG_RESET_ON_FORK);
	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(sched_getscheduler(0) == SCHED_OTHER ? 0 : 1);
	CHILD_EXPECT_EQ(pid, waitpid(pid, &status, 0));
	CHILD_EXPECT_EQ(0, status);
	return 0;
}

TEST_F_TIMEOUT(loaded, policy_hint_keeps_reset_on_fork, TEST_SECONDS)
{
	struct sched_attr a;
	pid_t pid;

	ASSERT_LT(0, pid = nobody_start(NULL, nobody_keeps_reset_on_fork,
					self->fd));
	ASSERT_EQ(0, test_await());
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = SCHED_FIFO;
	a.sched_priority = 10;
	a.sched_flags = SCHED_FLAG_RESET_ON_FORK;
	ASSERT_EQ(0, syscall(SYS_sched_setattr, pid, &a, 0));
	ASSERT_EQ(0, test_resume());
	EXPECT_EQ(0, child_end(pid, 0));
}

/* As nobody, but keeping CAP_NET_RAW permitted: a target nobody may not nice. */
static int become_capable_nobody(void)
{
	struct __user_cap_header_struct head = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	data[0].permitted = 1U << CAP_NET_RAW;
	return prctl(PR_SET_KEEPCAPS, 1) || become_nobody() ||
	       syscall(SYS_capset, &head, data) ? -1 : 0;
}

/* A nobody process like peer, but without the capability. */
static pid_t plain_peer;

static int nobody_meets_capable_targets(int fd)
{
	struct sched_attr a = {
		.size = sizeof(a), .sched_policy = SCHED_BATCH, .sched_nice = 5,
	};

	/* cap_safe_nice(): the syscall refuses, and so must every hint. */
	CHILD_EXPECT_EQ(-1, syscall(SYS_sched_setattr, peer, &a, 0));
	CHILD_EXPECT_EQ(EPERM, errno);
	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, policy_hint(peer, 0, SCHED_BATCH,
							 5, 0)));
	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, policy_hint(peer,
							 RVVSTAT_HINT_PROCESS,
							 SCHED_BATCH, 5, 0)));
	CHILD_EXPECT_EQ(-EPERM, dev_set_hint(fd, cpus_hint(peer, 0, &allowed)));
	/* The same hint to a nobody process without it is fine. */
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, policy_hint(plain_peer, 0, SCHED_BATCH,
						    5, 0)));
	return 0;
}

TEST_F_TIMEOUT(loaded, policy_hint_needs_the_targets_capabilities,
	       TEST_SECONDS)
{
	struct parked capable, plain;

	ASSERT_EQ(0, parked_init(&capable, NULL));
	ASSERT_EQ(0, parked_init(&plain, NULL));
	ASSERT_LT(0, peer = proc_start_as(&capable, self->fd,
					  become_capable_nobody));
	ASSERT_LT(0, plain_peer = proc_start_as(&plain, self->fd,
						become_nobody));
	EXPECT_EQ(0, as_nobody(nobody_meets_capable_targets, self->fd));
	EXPECT_EQ(SCHED_OTHER, sched_of(peer).sched_policy);
	EXPECT_EQ(0, sched_of(peer).sched_nice);
	EXPECT_EQ(SCHED_BATCH, sched_of(plain_peer).sched_policy);
}

/* Root changes this thread after each of its hints, at child_step(). */
static int nobody_clears_after_root(int fd)
{
	cpu_set_t last = cpu_mask(last_cpu), first = cpu_mask(first_cpu);

	/* Root renices to 19 after the hint: that stays. */
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, policy_hint(0, 0, SCHED_OTHER, 5, 0)));
	CHILD_EXPECT_EQ(5, sched_of(0).sched_nice);
	CHILD_EXPECT_EQ(0, child_step());
	CHILD_EXPECT_EQ(19, sched_of(0).sched_nice);
	CHILD_EXPECT_EQ(0, dev_clear_hint(fd, 0, 0));
	CHILD_EXPECT_EQ(19, sched_of(0).sched_nice);

	/* Root puts it back to 0. Unchanged since the hint, but nice 0 from 5
	 * is beyond RLIMIT_NICE 0: the syscall refuses, and the clear leaves 5.
	 */
	CHILD_EXPECT_EQ(0, child_step());
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, policy_hint(0, 0, SCHED_OTHER, 5, 0)));
	CHILD_EXPECT_EQ(-1, setpriority(PRIO_PROCESS, 0, 0));
	CHILD_EXPECT_EQ(EACCES, errno);
	CHILD_EXPECT_EQ(0, dev_clear_hint(fd, 0, 0));
	CHILD_EXPECT_EQ(5, sched_of(0).sched_nice);

	/* Root moves it after a mask hint: root's mask stays. */
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, cpus_hint(0, 0, &last)));
	CHILD_EXPECT_EQ(mask_bits(&last), affinity_of(0));
	CHILD_EXPECT_EQ(0, child_step());
	CHILD_EXPECT_EQ(0, dev_clear_hint(fd, 0, 0));
	CHILD_EXPECT_EQ(mask_bits(&first), affinity_of(0));
	return 0;
}

TEST_F_TIMEOUT(two_cpus, clear_restores_only_what_the_caller_may,
	       TEST_SECONDS)
{
	cpu_set_t first = cpu_mask(first_cpu);
	pid_t pid;

	ASSERT_LT(0, pid = nobody_start(NULL, nobody_clears_after_root,
					self->fd));
	ASSERT_EQ(0, test_await());
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, pid, 19));
	ASSERT_EQ(0, test_resume());
	ASSERT_EQ(0, test_await());
	ASSERT_EQ(0, setpriority(PRIO_PROCESS, pid, 0));
	ASSERT_EQ(0, test_resume());
	ASSERT_EQ(0, test_await());
	ASSERT_EQ(0, sched_setaffinity(pid, sizeof(first), &first));
	ASSERT_EQ(0, test_resume());
	EXPECT_EQ(0, child_end(pid, 0));
}

#define CGROUP_ROOT	"/sys/fs/cgroup"
#define CGROUP_TEST	CGROUP_ROOT "/rvvstat-hint-test"
#define EXEC_PROBE	"/bin/exec-probe"

/* @set as a cpulist ("0-2,5" style, one CPU at a time is fine too). */
static const char *cpulist(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;
	int cpu;

	buf[0] = '\0';
	for (cpu = 0; cpu < 64 && len < size; cpu++)
		if (CPU_ISSET(cpu, set))
			len += snprintf(buf + len, size - len, "%s%d",
					len ? "," : "", cpu);
	return buf;
}

static int set_cpuset(const cpu_set_t *set)
{
	char list[256];

	return write_file(CGROUP_TEST "/cpuset.cpus",
			  cpulist(set, list, sizeof(list)));
}

/*
 * Affinity never leaves the thread's cpuset: a deferred application and a
 * clear after the cpuset shrank stay inside it, as sched_setaffinity's do.
 */
TEST_F_TIMEOUT(unloaded, hints_stay_inside_the_cpuset, TEST_SECONDS)
{
	const __u32 flags = RVVSTAT_HINT_ON_VECTOR_USE;
	cpu_set_t top2, shrunk = allowed, want;
	struct parked m, a;
	char pid[16];

	if (nr_allowed < 3)
		SKIP(return, "needs three CPUs");
	if (mount("none", CGROUP_ROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		SKIP(return, "no cgroup2: %s", strerror(errno));
	ASSERT_EQ(0, write_file(CGROUP_ROOT "/cgroup.subtree_control",
				"+cpuset"));
	ASSERT_TRUE(!mkdir(CGROUP_TEST, 0755) || errno == EEXIST);
	ASSERT_EQ(0, set_cpuset(&allowed));

	ASSERT_LE(0, self->fd = load_and_open(""));
	ASSERT_EQ(0, parked_init(&m, &a));
	ASSERT_EQ(0, parked_init(&a, NULL));
	ASSERT_LT(0, proc_start(&m, self->fd));
	ASSERT_EQ(0, parked_do(&m, PARKED_START_NEXT));
	snprintf(pid, sizeof(pid), "%d", m.tid);
	ASSERT_EQ(0, write_file(CGROUP_TEST "/cgroup.procs", pid));

	/* The two highest CPUs, at first vector use; then the cpuset loses one. */
	top2 = cpu_mask(last_cpu);
	CPU_SET(last_cpu - 1, &top2);
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(a.tid, flags, &top2)));
	CPU_CLR(last_cpu, &shrunk);
	ASSERT_EQ(0, set_cpuset(&shrunk));
	WAIT_UNTIL(affinity_of(a.tid) == mask_bits(&shrunk), APPLY_MS);
	ASSERT_EQ(mask_bits(&shrunk), affinity_of(a.tid));

	ASSERT_EQ(0, parked_do(&a, PARKED_VECTOR));
	WAIT_UNTIL(dev_hint_applied(self->fd, a.tid, 0) == 1, APPLY_MS);
	EXPECT_EQ(1, dev_hint_applied(self->fd, a.tid, 0));
	want = cpu_mask(last_cpu - 1);
	EXPECT_EQ(mask_bits(&want), affinity_of(a.tid));

	/* The baseline (every CPU) as far as the cpuset allows. */
	EXPECT_EQ(0, dev_clear_hint(self->fd, a.tid, 0));
	EXPECT_EQ(mask_bits(&shrunk), affinity_of(a.tid));

	/* A hint now that the cpuset leaves nothing of: EINVAL, as the syscall. */
	want = cpu_mask(last_cpu);
	EXPECT_EQ(-1, sched_setaffinity(a.tid, sizeof(want), &want));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, cpus_hint(m.tid, 0, &want)));
	EXPECT_EQ(mask_bits(&shrunk), affinity_of(m.tid));

	EXPECT_EQ(128 + SIGKILL, child_end(m.tid, SIGKILL));
	EXPECT_EQ(0, rmdir(CGROUP_TEST));
}

/* The test cpuset with every allowed CPU, made afresh; 0, or SKIP's reason. */
static const char *cpuset_make(void)
{
	if (mount("none", CGROUP_ROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		return "no cgroup2";
	if (write_file(CGROUP_ROOT "/cgroup.subtree_control", "+cpuset"))
		return "no cpuset controller";
	if (mkdir(CGROUP_TEST, 0755) && errno != EEXIST)
		return "cannot make the test cgroup";
	return set_cpuset(&allowed) ? "cannot set cpuset.cpus" : NULL;
}

static int cpuset_enter(pid_t pid)
{
	char text[16];

	snprintf(text, sizeof(text), "%d", pid);
	return write_file(CGROUP_TEST "/cgroup.procs", text);
}

/* A child process in the test cpuset that asks for @mask forever by @how. */
enum ask_by { BY_HINT, BY_SYSCALL };

static pid_t asking_start(int fd, enum ask_by how, const cpu_set_t *mask)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid > 0)
		child_add(pid);
	if (pid)
		return pid < 0 || cpuset_enter(pid) ? -1 : pid;
	for (;;)
		if (how == BY_HINT)
			dev_set_hint(fd, cpus_hint(0, 0, mask));
		else
			sched_setaffinity(0, sizeof(*mask), mask);
}

/*
 * The chance that @a or more of @a + @b events fall on one side when each
 * falls on either side with chance 1/2: the one-sided binomial tail.
 */
static double tail_at_least(unsigned long a, unsigned long b)
{
	unsigned long n = a + b, k;
	double term = 1, sum = 0;	/* C(n, k) / 2^n, from k = 0 */

	for (k = 0; k < n; k++)
		term /= 2;
	for (k = 0; k <= n; k++) {
		if (k >= a)
			sum += term;
		term = term * (double)(n - k) / (double)(k + 1);
	}
	return sum;
}

/*
 * A hint that loses a race with a shrinking cpuset leaves its thread no
 * further outside the cpuset than sched_setaffinity() leaves its own: two
 * processes ask for the two highest CPUs again and again, one by hint and
 * one by the syscall, while the cpuset toggles between all CPUs and the
 * others. After each shrink a thread still outside a second later counts.
 * The hint makes its change by the kernel's own sched_setaffinity(), so
 * where that loses the race now and then (a hinted thread was seen outside
 * once in 1146 shrinks on Debian's 7.2) the hint may too, as often: the
 * hint's losses may outnumber the syscall's only as much as chance allows
 * (under 1 in 100 if both lose as often). Before the fix a hint lost about
 * one race in 655 shrinks: 9 or more in a run, against the syscall's none.
 */
TEST_F_TIMEOUT(unloaded, lost_cpuset_race_stays_inside, TEST_SECONDS)
{
	cpu_set_t top2 = cpu_mask(last_cpu), low = allowed;
	unsigned long outside[2] = { 0, 0 };
	const char *why;
	double chance;
	pid_t pid[2];
	__u64 end;
	int i, by;

	if (nr_allowed < 4)
		SKIP(return, "needs four CPUs");
	why = cpuset_make();
	if (why)
		SKIP(return, "%s", why);
	CPU_SET(last_cpu - 1, &top2);
	CPU_CLR(last_cpu, &low);
	CPU_CLR(last_cpu - 1, &low);
	ASSERT_LE(0, self->fd = load_and_open(""));
	for (by = BY_HINT; by <= BY_SYSCALL; by++)
		ASSERT_LT(0, pid[by] = asking_start(self->fd, by, &top2));

	/* Longer while the hint is behind, as these are rare events. */
	end = now_ns() + 30000 * MS;
	for (i = 0; now_ns() < end ||
	     (outside[BY_HINT] > outside[BY_SYSCALL] &&
	      now_ns() < end + 60000 * MS); i++) {
		ASSERT_EQ(0, set_cpuset(&allowed));
		ASSERT_EQ(0, set_cpuset(&low));
		for (by = BY_HINT; by <= BY_SYSCALL; by++) {
			WAIT_UNTIL(!(affinity_of(pid[by]) & ~mask_bits(&low)),
				   1000);
			outside[by] += !!(affinity_of(pid[by]) &
					  ~mask_bits(&low));
		}
	}
	chance = tail_at_least(outside[BY_HINT], outside[BY_SYSCALL]);
	printf("# %d shrinks; left outside: %lu by hint, %lu by syscall (chance %.4f)\n",
	       i, outside[BY_HINT], outside[BY_SYSCALL], chance);
	EXPECT_LE(0.01, chance);
	for (by = BY_HINT; by <= BY_SYSCALL; by++)
		EXPECT_EQ(128 + SIGKILL, child_end(pid[by], SIGKILL));
	EXPECT_EQ(0, rmdir(CGROUP_TEST));
}

/*
 * A mask hint holds as sched_setaffinity()'s does: the kernel keeps it as
 * the thread's own request, so a cpuset change that still allows it leaves
 * it, where without that the thread would get the whole new cpuset.
 */
TEST_F_TIMEOUT(unloaded, mask_hint_holds_across_cpuset_changes, TEST_SECONDS)
{
	cpu_set_t one = cpu_mask(first_cpu), shrunk = allowed;
	struct parked m, a, b;
	const char *why;

	if (nr_allowed < 3)
		SKIP(return, "needs three CPUs");
	why = cpuset_make();
	if (why)
		SKIP(return, "%s", why);
	CPU_CLR(last_cpu, &shrunk);
	ASSERT_LE(0, self->fd = load_and_open(""));
	ASSERT_EQ(0, parked_init(&m, &a));
	ASSERT_EQ(0, parked_init(&a, &b));
	ASSERT_EQ(0, parked_init(&b, NULL));
	ASSERT_LT(0, proc_start(&m, self->fd));
	ASSERT_EQ(0, parked_do(&m, PARKED_START_NEXT));
	ASSERT_EQ(0, parked_do(&a, PARKED_START_NEXT));
	ASSERT_EQ(0, cpuset_enter(m.tid));

	/* b asks the kernel itself; a gets the same mask by hint. */
	ASSERT_EQ(first_cpu, parked_pin(&b, first_cpu));
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(a.tid, 0, &one)));
	ASSERT_EQ(mask_bits(&one), affinity_of(a.tid));

	ASSERT_EQ(0, set_cpuset(&shrunk));
	EXPECT_EQ(mask_bits(&one), affinity_of(b.tid));
	EXPECT_EQ(mask_bits(&one), affinity_of(a.tid));
	ASSERT_EQ(0, set_cpuset(&allowed));
	EXPECT_EQ(mask_bits(&one), affinity_of(b.tid));
	EXPECT_EQ(mask_bits(&one), affinity_of(a.tid));

	/* Cleared, the thread's mask is its baseline again, and that holds. */
	EXPECT_EQ(0, dev_clear_hint(self->fd, a.tid, 0));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(a.tid));
	ASSERT_EQ(0, set_cpuset(&shrunk));
	EXPECT_EQ(mask_bits(&shrunk), affinity_of(a.tid));

	EXPECT_EQ(128 + SIGKILL, child_end(m.tid, SIGKILL));
	EXPECT_EQ(0, rmdir(CGROUP_TEST));
}

/*
 * CLEAR puts a deadline baseline back only as sched_setattr(2) would: not
 * on a thread that narrowed its own mask meanwhile (deadline tasks must
 * span their root domain), so the thread stays as it is.
 */
TEST_F_TIMEOUT(two_cpus, clear_never_makes_a_narrowed_deadline_task,
	       TEST_SECONDS)
{
	struct sched_attr dl = {
		.size = sizeof(dl), .sched_policy = SCHED_DEADLINE,
		.sched_runtime = MS, .sched_deadline = 10 * MS,
		.sched_period = 10 * MS,
	};
	cpu_set_t last = cpu_mask(last_cpu);
	struct rvvstat_hint h;
	struct parked w;

	if (nr_allowed != sysconf(_SC_NPROCESSORS_ONLN))
		SKIP(return, "the test process lacks some online CPUs");
	if (deadline_admission_off())
		SKIP(return, "sched_rt_runtime_us is -1: no admission control");
	ASSERT_EQ(0, parked_start(&w));
	ASSERT_EQ(0, syscall(SYS_sched_setattr, w.tid, &dl, 0));
	ASSERT_EQ(0, dev_set_hint(self->fd,
				  policy_hint(w.tid, 0, SCHED_OTHER, 0, 0)));
	ASSERT_EQ(SCHED_OTHER, sched_of(w.tid).sched_policy);
	/* Allowed now that it is no deadline task; deadline then is not. */
	ASSERT_EQ(last_cpu, parked_pin(&w, last_cpu));
	EXPECT_EQ(-1, syscall(SYS_sched_setattr, w.tid, &dl, 0));
	EXPECT_EQ(EPERM, errno);

	/* The hint goes; the policy the kernel will not restore stays. */
	EXPECT_EQ(0, dev_clear_hint(self->fd, w.tid, 0));
	EXPECT_EQ(SCHED_OTHER, sched_of(w.tid).sched_policy);
	EXPECT_EQ(mask_bits(&last), affinity_of(w.tid));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, w.tid, 0, &h, NULL));
}

/*
 * A child that narrows its own mask to the last CPU and widens it again,
 * for ever: the target of the deadline races below.
 */
static pid_t self_narrowing_start(void)
{
	cpu_set_t last = cpu_mask(last_cpu);
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid)
		for (;;) {
			sched_setaffinity(0, sizeof(last), &last);
			sched_setaffinity(0, sizeof(allowed), &allowed);
		}
	if (pid > 0)
		child_add(pid);
	return pid;
}

/*
 * Makes @pid a deadline task, by hint (@fd) or by the syscall itself (fd
 * -1), for up to @ms or @tries; how often it then had a narrowed mask.
 */
static int deadline_race(int fd, pid_t pid, int ms, int tries, int *set)
{
	struct sched_attr dl = {
		.size = sizeof(dl), .sched_policy = SCHED_DEADLINE,
		.sched_runtime = MS, .sched_deadline = 10 * MS,
		.sched_period = 10 * MS,
	};
	struct sched_attr other = { .size = sizeof(other) };
	__u64 end = now_ns() + ms * MS;
	int narrowed = 0;

	for (*set = 0; tries-- > 0 && now_ns() < end;) {
		if (fd >= 0 ? dev_set_hint(fd, deadline_hint(pid, MS, 10 * MS,
							     10 * MS)) :
		    syscall(SYS_sched_setattr, pid, &dl, 0))
			continue;
		(*set)++;
		narrowed += sched_of(pid).sched_policy == SCHED_DEADLINE &&
			    affinity_of(pid) != mask_bits(&allowed);
		if (fd >= 0)
			dev_clear_hint(fd, pid, 0);
		else
			syscall(SYS_sched_setattr, pid, &other, 0);
	}
	return narrowed;
}

/*
 * A deadline hint is checked as sched_setattr(2) checks it, by the kernel
 * under its locks: refused (EPERM, as the syscall) for a thread whose mask
 * is narrowed, the thread left as it was. Then the race with a thread
 * narrowing itself: the module used to check the mask unlocked and then
 * set the policy unchecked (a narrowed deadline task after a few thousand
 * tries). The kernel's own sched_setaffinity() reads the policy without
 * the runqueue lock too, so the syscalls alone can end so where CPUs run
 * truly in parallel (seen in the riscv64 guest): both counts are printed,
 * for a reader to compare, and not judged, as chance decides them.
 */
TEST_F_TIMEOUT(two_cpus, deadline_hint_is_checked_by_the_kernel, TEST_SECONDS)
{
	struct sched_attr dl = {
		.size = sizeof(dl), .sched_policy = SCHED_DEADLINE,
		.sched_runtime = MS, .sched_deadline = 10 * MS,
		.sched_period = 10 * MS,
	};
	int by_hint, by_syscall, hint_set, syscall_set;
	cpu_set_t last = cpu_mask(last_cpu);
	char base[SCHED_TEXT], now[SCHED_TEXT];
	struct parked w;
	pid_t pid;

	if (nr_allowed != sysconf(_SC_NPROCESSORS_ONLN))
		SKIP(return, "the test process lacks some online CPUs");
	if (deadline_admission_off())
		SKIP(return, "sched_rt_runtime_us is -1: no admission control");
	ASSERT_EQ(0, parked_start(&w));
	ASSERT_EQ(last_cpu, parked_pin(&w, last_cpu));
	sched_text(w.tid, base);
	EXPECT_EQ(-1, syscall(SYS_sched_setattr, w.tid, &dl, 0));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-EPERM, dev_set_hint(self->fd, deadline_hint(w.tid, MS,
							       10 * MS,
							       10 * MS)));
	EXPECT_STREQ(base, sched_text(w.tid, now));
	EXPECT_EQ(mask_bits(&last), affinity_of(w.tid));

	ASSERT_LT(0, pid = self_narrowing_start());
	by_syscall = deadline_race(-1, pid, 5000, 5000, &syscall_set);
	by_hint = deadline_race(self->fd, pid, 5000, 5000, &hint_set);
	printf("# narrowed deadline tasks: syscall %d of %d, hint %d of %d\n",
	       by_syscall, syscall_set, by_hint, hint_set);
	EXPECT_LT(0, hint_set);
	EXPECT_EQ(128 + SIGKILL, child_end(pid, SIGKILL));
}

/*
 * An ordinary exec keeps a process hint, whichever thread execs: one that
 * is not the main thread takes the process over (and its pid), and the hint
 * must go on covering it.
 */
static int exec_go[2], exec_ready[2];

/*
 * A child process whose second thread runs @exec_thread (which waits for a
 * byte on exec_go, then execs) while its main thread waits; it closes
 * @dev_fd. Its pid (added to the children), or -1.
 */
static pid_t exec_taker_start(int dev_fd, void *(*exec_thread)(void *))
{
	pthread_t t;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		close(dev_fd);
		if (pthread_create(&t, NULL, exec_thread, NULL))
			_exit(4);
		for (;;)
			pause();
	}
	if (pid > 0)
		child_add(pid);
	return pid;
}

static void *exec_from_thread(void *arg)
{
	char c;

	(void)arg;
	if (read(exec_go[0], &c, 1) != 1 ||
	    dup2(exec_ready[1], EXEC_PROBE_READY_FD) < 0)
		_exit(4);
	execl(EXEC_PROBE, EXEC_PROBE, "scalar", (char *)NULL);
	_exit(4);
}

TEST_F_TIMEOUT(two_cpus, process_hint_survives_exec_by_a_thread,
	       TEST_SECONDS)
{
	const __u32 flags = RVVSTAT_HINT_PROCESS | RVVSTAT_HINT_ON_VECTOR_USE;
	cpu_set_t last = cpu_mask(last_cpu);
	struct rvvstat_hint h;
	char byte;
	pid_t pid;

	ASSERT_EQ(0, pipe(exec_go));
	ASSERT_EQ(0, pipe(exec_ready));
	ASSERT_LT(0, pid = exec_taker_start(self->fd, exec_from_thread));
	close(exec_ready[1]);
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(pid, flags, &last)));
	ASSERT_EQ(1, write(exec_go[1], "", 1));
	ASSERT_EQ(1, read(exec_ready[0], &byte, 1));
	/* The old main thread is freed a grace period after the exec. */
	WAIT_UNTIL(dev_get_hint(self->fd, pid, RVVSTAT_HINT_PROCESS, &h,
				NULL) == -ENOENT, 1000);
	EXPECT_EQ(0, dev_get_hint(self->fd, pid, RVVSTAT_HINT_PROCESS, &h,
				  NULL));
	EXPECT_EQ(RVVSTAT_HINT_CPUS | flags, h.flags);
	/* 0: its CPUs never changed (it never uses vector state). */
	EXPECT_EQ(0, child_end(pid, 0));
}

/*
 * An exec that fails after the point of no return (its image cannot be
 * mapped) kills the process that the thread which exec'd has taken over: no
 * exec event comes, and the old main thread may be freed before or after the
 * new one. Either way the process hint ends with the process. The child runs
 * on one CPU and is reaped on another, so that the two are freed by
 * different CPUs' RCU callbacks, in either order.
 */
#define LATE_FAILING_EXEC	"/tmp/late-failing-exec"
#define LATE_FAIL_ROUNDS	40
#define UNMAPPABLE		(1ULL << 62)	/* above any user address */

#ifdef __x86_64__
#define ELF_MACHINE		EM_X86_64
#else
#define ELF_MACHINE		EM_RISCV
#endif

/* An ELF for this machine whose one segment lies at UNMAPPABLE; 0 or -1. */
static int write_late_failing_exec(const char *path)
{
	const struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph;
	} elf = {
		.eh = {
			.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3,
				     ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
			.e_type = ET_EXEC,
			.e_machine = ELF_MACHINE,
			.e_version = EV_CURRENT,
			.e_entry = UNMAPPABLE,
			.e_phoff = sizeof(Elf64_Ehdr),
			.e_ehsize = sizeof(Elf64_Ehdr),
			.e_phentsize = sizeof(Elf64_Phdr),
			.e_phnum = 1,
		},
		.ph = {
			.p_type = PT_LOAD,
			.p_flags = PF_R | PF_X,
			.p_vaddr = UNMAPPABLE,
			.p_paddr = UNMAPPABLE,
			.p_filesz = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr),
			.p_memsz = 4096,
			.p_align = 4096,
		},
	};
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	bool ok;

	if (fd < 0)
		return -1;
	ok = write(fd, &elf, sizeof(elf)) == (ssize_t)sizeof(elf);
	return close(fd) || !ok ? -1 : 0;
}

static void *exec_late_failing(void *arg)
{
	char c;

	(void)arg;
	if (read(exec_go[0], &c, 1) == 1)
		execl(LATE_FAILING_EXEC, LATE_FAILING_EXEC, (char *)NULL);
	_exit(4);	/* refused before the point of no return */
}

TEST_F_TIMEOUT(two_cpus, process_hint_ends_when_an_exec_fails_late,
	       TEST_SECONDS)
{
	cpu_set_t first = cpu_mask(first_cpu), last = cpu_mask(last_cpu);
	__u64 expired = hint_event(self->fd, RVVSTAT_HEV_EXPIRED);
	int round;
	pid_t pid;

	ASSERT_EQ(0, write_late_failing_exec(LATE_FAILING_EXEC));
	for (round = 0; round < LATE_FAIL_ROUNDS; round++) {
		ASSERT_EQ(0, pipe(exec_go));
		/* The child starts on the first CPU, the test reaps on the last. */
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(first), &first));
		ASSERT_LT(0, pid = exec_taker_start(self->fd, exec_late_failing));
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(last), &last));
		ASSERT_EQ(0, dev_set_hint(self->fd,
					  cpus_hint(pid, RVVSTAT_HINT_PROCESS, &first)));
		ASSERT_EQ(1, write(exec_go[1], "", 1));
		/* SIGSEGV: the kernel's answer to an exec lost past the point of no return. */
		ASSERT_EQ(128 + SIGSEGV, child_end(pid, 0));
		close(exec_go[0]);
		close(exec_go[1]);
	}
	WAIT_UNTIL(hints_live(self->fd) == 0, EXPIRE_MS);
	EXPECT_EQ(0, hints_live(self->fd));
	EXPECT_EQ(expired + LATE_FAIL_ROUNDS,
		  hint_event(self->fd, RVVSTAT_HEV_EXPIRED));
	unlink(LATE_FAILING_EXEC);
}

/*
 * A process hint set while a thread's exec takes the process over names the
 * new main thread; the hint set before it is still keyed by the old one
 * until the exec's event (or the old thread's free) moves it. The process
 * must end up with one hint, not two, and it must end with the process. A
 * hinter sets the hint again and again while the thread execs exec-probe,
 * which exits at once without arguments.
 */
#define TAKEOVER_ROUNDS		40

struct takeover_hinter {
	int fd;
	pid_t pid;
	const cpu_set_t *cpus;
	volatile bool stop;
	int sets;
};

static void *takeover_hinter(void *arg)
{
	struct takeover_hinter *h = arg;

	while (!h->stop)
		if (!dev_set_hint(h->fd, cpus_hint(h->pid, RVVSTAT_HINT_PROCESS,
						   h->cpus)))
			h->sets++;
	return NULL;
}

static void *exec_at_once(void *arg)
{
	char c;

	(void)arg;
	if (read(exec_go[0], &c, 1) == 1)
		execl(EXEC_PROBE, EXEC_PROBE, (char *)NULL);
	_exit(4);
}

TEST_F_TIMEOUT(two_cpus, process_hint_set_during_a_takeover_is_one,
	       TEST_SECONDS)
{
	cpu_set_t first = cpu_mask(first_cpu);
	struct takeover_hinter h = { .fd = self->fd, .cpus = &first };
	pthread_t hinter;
	int round;

	for (round = 0; round < TAKEOVER_ROUNDS; round++) {
		ASSERT_EQ(0, pipe(exec_go));
		ASSERT_LT(0, h.pid = exec_taker_start(self->fd, exec_at_once));
		ASSERT_EQ(0, dev_set_hint(self->fd,
					  cpus_hint(h.pid, RVVSTAT_HINT_PROCESS, &first)));
		h.stop = false;
		ASSERT_EQ(0, pthread_create(&hinter, NULL, takeover_hinter, &h));
		ASSERT_EQ(1, write(exec_go[1], "", 1));
		/* 3: exec-probe ran, so the exec took the process over. */
		EXPECT_EQ(3, child_end(h.pid, 0));
		h.stop = true;
		pthread_join(hinter, NULL);
		close(exec_go[0]);
		close(exec_go[1]);
	}
	printf("# %d hints set by the hinter in %d takeovers\n", h.sets,
	       TAKEOVER_ROUNDS);
	WAIT_UNTIL(hints_live(self->fd) == 0, EXPIRE_MS);
	EXPECT_EQ(0, hints_live(self->fd));
}

/* Root reniced the main thread only, before this process became nobody. */
static struct parked other_thread;

static int renice_main_thread_only(int fd)
{
	return parked_start(&other_thread) ||
	       setpriority(PRIO_PROCESS, 0, -5) ? -1 : 0;
}

static int nobody_process_hint_meets_each_thread(int fd)
{
	struct rvvstat_hint h;

	CHILD_EXPECT_EQ(-5, sched_of(0).sched_nice);
	CHILD_EXPECT_EQ(0, sched_of(other_thread.tid).sched_nice);
	/* Nice -5 is no change for the main thread, beyond RLIMIT_NICE for the other. */
	CHILD_EXPECT_EQ(-1, setpriority(PRIO_PROCESS, other_thread.tid, -5));
	CHILD_EXPECT_EQ(EACCES, errno);
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, policy_hint(0, RVVSTAT_HINT_PROCESS,
						    SCHED_OTHER, -5, 0)));
	CHILD_EXPECT_EQ(-5, sched_of(0).sched_nice);
	CHILD_EXPECT_EQ(0, sched_of(other_thread.tid).sched_nice);
	CHILD_EXPECT_EQ(0, dev_get_hint(fd, 0, RVVSTAT_HINT_PROCESS, &h, NULL));
	CHILD_EXPECT_EQ(1, h.applied);
	CHILD_EXPECT_EQ(-EPERM, h.last_error);
	return 0;
}

TEST_F_TIMEOUT(loaded, process_hint_is_checked_per_thread, TEST_SECONDS)
{
	struct rvvstat_snapshot before, after;

	ASSERT_EQ(0, dev_snapshot(self->fd, &before));
	EXPECT_EQ(0, child_end(nobody_start(renice_main_thread_only,
					    nobody_process_hint_meets_each_thread,
					    self->fd), 0));
	ASSERT_EQ(0, dev_snapshot(self->fd, &after));
	EXPECT_EQ(1, delta(&before, &after, RVVSTAT_HEV_REFUSED_PERM));
	EXPECT_EQ(1, delta(&before, &after, RVVSTAT_HEV_APPLIED));
}


/* Hints on itself and its process at first vector use, then a setuid exec. */
static int nobody_hints_then_execs_setuid(int fd)
{
	const __u32 flags = RVVSTAT_HINT_ON_VECTOR_USE;
	cpu_set_t last = cpu_mask(last_cpu);

	CHILD_EXPECT_EQ(0, dev_set_hint(fd, cpus_hint(0, flags, &last)));
	CHILD_EXPECT_EQ(0, dev_set_hint(fd, cpus_hint(0, flags | RVVSTAT_HINT_PROCESS,
						  &last)));
	CHILD_EXPECT_EQ(0, child_step());
	execl(EXEC_PROBE, EXEC_PROBE, "setuid", (char *)NULL);
	printf("# exec %s: %s\n", EXEC_PROBE, strerror(errno));
	return 1;
}

/*
 * A setuid exec makes a new owner: the hints of the old one end there
 * (counted as expired, gone from GET_HINT while the program runs) and never
 * reach the program, which uses vector state as a hinted one would.
 */
TEST_F_TIMEOUT(two_cpus, hints_end_at_a_setuid_exec, TEST_SECONDS)
{
	struct rvvstat_snapshot before, after;
	struct rvvstat_hint h;
	pid_t pid;

	ASSERT_EQ(0, chown(EXEC_PROBE, 0, 0));
	ASSERT_EQ(0, chmod(EXEC_PROBE, 04755));
	ASSERT_LT(0, pid = nobody_start(NULL, nobody_hints_then_execs_setuid,
					self->fd));
	ASSERT_EQ(0, test_await());
	ASSERT_EQ(0, dev_get_hint(self->fd, pid, 0, &h, NULL));
	ASSERT_EQ(0, dev_snapshot(self->fd, &before));
	ASSERT_EQ(0, test_resume());
	WAIT_UNTIL(dev_get_hint(self->fd, pid, 0, &h, NULL) == -ENOENT &&
		   dev_get_hint(self->fd, pid, RVVSTAT_HINT_PROCESS, &h, NULL) ==
		   -ENOENT, APPLY_MS);
	/* Ended at the exec: the program still runs (it lives about 2 s). */
	EXPECT_EQ(0, kill(pid, 0));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, pid, 0, &h, NULL));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, pid, RVVSTAT_HINT_PROCESS, &h,
				    NULL));
	ASSERT_EQ(0, dev_snapshot(self->fd, &after));
	EXPECT_EQ(2, delta(&before, &after, RVVSTAT_HEV_EXPIRED));
	/* 0: it ran as root and its CPUs never changed. */
	EXPECT_EQ(0, child_end(pid, 0));
	ASSERT_EQ(0, dev_snapshot(self->fd, &after));
	EXPECT_EQ(0, delta(&before, &after, RVVSTAT_HEV_APPLIED));
}

/*
 * First vector use is since the last exec: a program that never uses
 * vector state waits for an ON_VECTOR_USE hint, however much the image
 * before its exec did (x86 has no trap to see it by and must forget it).
 */
TEST_F_TIMEOUT(two_cpus, exec_forgets_vector_use, TEST_SECONDS)
{
	const __u32 flags = RVVSTAT_HINT_ON_VECTOR_USE;
	cpu_set_t last = cpu_mask(last_cpu);
	int ready[2];
	char byte;
	pid_t pid;

	ASSERT_EQ(0, pipe(ready));
	fflush(stdout);
	pid = fork();
	if (!pid) {
		close(self->fd);
		close(ready[0]);
		arch_touch_vector();
		/* Switches with live state: x86 sees its use at these. */
		usleep(200 * 1000);
		if (dup2(ready[1], EXEC_PROBE_READY_FD) < 0)
			_exit(4);
		execl(EXEC_PROBE, EXEC_PROBE, "scalar", (char *)NULL);
		_exit(4);
	}
	ASSERT_LT(0, pid);
	child_add(pid);
	close(ready[1]);
	/*
	 * Its new comm shows before the exec is done and the module has
	 * forgotten the old image's use: wait for the program itself.
	 */
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	close(ready[0]);
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(pid, flags, &last)));
	EXPECT_EQ(0, dev_hint_applied(self->fd, pid, 0));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(pid));
	/* 0: its CPUs never changed while it ran. */
	EXPECT_EQ(0, child_end(pid, 0));
}

/* ON_VECTOR_USE waits for the thread's first vector instruction. */
TEST_F_TIMEOUT(two_cpus, thread_hint_waits_for_vector_use, TEST_SECONDS)
{
	const __u32 flags = RVVSTAT_HINT_ON_VECTOR_USE | RVVSTAT_HINT_POLICY;
	char base[SCHED_TEXT], now[SCHED_TEXT];
	cpu_set_t last = cpu_mask(last_cpu);
	struct parked late, early, scalar;
	struct rvvstat_hint h;

	ASSERT_EQ(0, parked_start(&late));
	ASSERT_EQ(0, parked_start(&early));
	ASSERT_EQ(0, parked_start(&scalar));
	sched_text(late.tid, base);
	ASSERT_EQ(0, parked_do(&early, PARKED_VECTOR));

	h = cpus_hint(late.tid, flags, &last);
	h.policy = SCHED_BATCH;
	h.nice = 3;
	ASSERT_EQ(0, dev_set_hint(self->fd, h));
	h.target = early.tid;
	ASSERT_EQ(0, dev_set_hint(self->fd, h));
	h.target = scalar.tid;
	ASSERT_EQ(0, dev_set_hint(self->fd, h));

	/*
	 * A thread that already used V gets the hint: at SET where first use
	 * traps (riscv); on x86 first use is seen at the thread's first switch
	 * out after it, which may come just after SET: it gets it then.
	 */
#ifdef __x86_64__
	WAIT_UNTIL(affinity_of(early.tid) == mask_bits(&last), APPLY_MS);
#endif
	EXPECT_EQ(mask_bits(&last), affinity_of(early.tid));
	EXPECT_EQ(SCHED_BATCH, sched_getscheduler(early.tid));

	/* The others keep their baseline as long as they have not. */
	usleep(300 * 1000);
	EXPECT_EQ(mask_bits(&allowed), affinity_of(late.tid));
	EXPECT_STREQ(base, sched_text(late.tid, now));
	ASSERT_EQ(0, dev_get_hint(self->fd, late.tid, 0, &h, NULL));
	EXPECT_EQ(flags | RVVSTAT_HINT_CPUS, h.flags);
	EXPECT_EQ(0, h.applied);

	ASSERT_EQ(0, parked_do(&late, PARKED_VECTOR));
	WAIT_UNTIL(affinity_of(late.tid) == mask_bits(&last), APPLY_MS);
	EXPECT_EQ(mask_bits(&last), affinity_of(late.tid));
	WAIT_UNTIL(dev_hint_applied(self->fd, late.tid, 0) == 1, APPLY_MS);
	EXPECT_EQ(SCHED_BATCH, sched_getscheduler(late.tid));
	EXPECT_EQ(3, sched_of(late.tid).sched_nice);
	ASSERT_EQ(0, dev_get_hint(self->fd, late.tid, 0, &h, NULL));
	EXPECT_EQ(1, h.applied);
	EXPECT_EQ(0, h.last_error);

	/* The thread that never uses V never gets it. */
	EXPECT_EQ(mask_bits(&allowed), affinity_of(scalar.tid));
	EXPECT_STREQ(base, sched_text(scalar.tid, now));
	EXPECT_EQ(0, dev_hint_applied(self->fd, scalar.tid, 0));

	/* CLEAR restores what was applied and drops what was not. */
	EXPECT_EQ(0, dev_clear_hint(self->fd, late.tid, 0));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(late.tid));
	EXPECT_STREQ(base, sched_text(late.tid, now));
	EXPECT_EQ(0, dev_clear_hint(self->fd, scalar.tid, 0));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(scalar.tid));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, scalar.tid, 0, &h, NULL));
}

/* A storm thread: at the start, a first vector use, then its CPU until @until. */
struct storm {
	pthread_barrier_t start;
	__u64 until;
};

static void *storm_thread(void *arg)
{
	struct storm *s = arg;

	pthread_barrier_wait(&s->start);
	use_vector();
	/* A switch out with vector state live: where x86 sees the first use. */
	sched_yield();
	while (now_ns() < s->until)
		;
	return NULL;
}

/*
 * Only threads a hint may concern take a slot of the worker's queue: a
 * storm of 200 unhinted first uses, all before the worker can run (FIFO
 * threads hold every CPU), leaves room for the hinted thread's, which comes
 * last (a lower FIFO priority) and is applied once the storm is over.
 */
TEST_F_TIMEOUT(two_cpus, unhinted_first_uses_leave_the_queue_free, TEST_SECONDS)
{
	enum { STORM = 200 };
	struct sched_param lead = { .sched_priority = 3 }, normal = { 0 };
	struct sched_param storm_prio = { .sched_priority = 2 };
	struct sched_param last_prio = { .sched_priority = 1 };
	cpu_set_t last = cpu_mask(last_cpu);
	static pthread_t threads[STORM];
	static struct storm storm;
	pthread_attr_t attr;
	__u64 dropped;
	struct parked w;
	int i, made;

	ASSERT_EQ(0, parked_start(&w));
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(w.tid, RVVSTAT_HINT_ON_VECTOR_USE, &last)));
	ASSERT_EQ(0, sched_setscheduler(w.tid, SCHED_FIFO, &last_prio));
	dropped = hint_event(self->fd, RVVSTAT_HEV_DROPPED);

	ASSERT_EQ(0, pthread_barrier_init(&storm.start, NULL, STORM + 1));
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &storm_prio);
	for (made = 0; made < STORM; made++)
		if (pthread_create(&threads[made], &attr, storm_thread, &storm))
			break;
	pthread_attr_destroy(&attr);
	ASSERT_EQ(STORM, made);
	/* Above the storm while it starts, so that it wakes every thread. */
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_FIFO, &lead));
	storm.until = now_ns() + 300 * 1000000ULL;
	pthread_barrier_wait(&storm.start);
	/* Below the storm: its first use comes after theirs. */
	EXPECT_EQ(0, parked_send(&w, PARKED_VECTOR, 0));
	for (i = 0; i < made; i++)
		pthread_join(threads[i], NULL);
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_OTHER, &normal));
	pthread_barrier_destroy(&storm.start);
	EXPECT_EQ(w.tid, parked_recv(&w));

	WAIT_UNTIL(affinity_of(w.tid) == mask_bits(&last), APPLY_MS);
	EXPECT_EQ(mask_bits(&last), affinity_of(w.tid));
	EXPECT_EQ(dropped, hint_event(self->fd, RVVSTAT_HEV_DROPPED));
	EXPECT_EQ(0, sched_setscheduler(w.tid, SCHED_OTHER, &normal));
	EXPECT_EQ(0, dev_clear_hint(self->fd, w.tid, 0));
	EXPECT_EQ(0, parked_stop(&w));
}

/*
 * A process hint with ON_VECTOR_USE reaches the threads that use V, those
 * started after the hint included, and no other.
 */
TEST_F_TIMEOUT(two_cpus, process_hint_reaches_vector_threads_only, TEST_SECONDS)
{
	const __u32 flags = RVVSTAT_HINT_PROCESS | RVVSTAT_HINT_ON_VECTOR_USE;
	cpu_set_t last = cpu_mask(last_cpu), got;
	struct rvvstat_task_stats ts;
	/* The child's main thread m starts a, a starts b, b starts c. */
	struct parked m, a, b, c;
	struct rvvstat_hint h;

	ASSERT_EQ(0, parked_init(&m, &a));
	ASSERT_EQ(0, parked_init(&a, &b));
	ASSERT_EQ(0, parked_init(&b, &c));
	ASSERT_EQ(0, parked_init(&c, NULL));
	ASSERT_LT(0, proc_start(&m, self->fd));
	ASSERT_EQ(0, parked_do(&m, PARKED_START_NEXT));
	ASSERT_EQ(0, parked_do(&a, PARKED_START_NEXT));

	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(m.tid, flags, &last)));
	usleep(300 * 1000);
	EXPECT_EQ(mask_bits(&allowed), affinity_of(m.tid));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(a.tid));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(b.tid));

	ASSERT_EQ(0, parked_do(&a, PARKED_VECTOR));
	/* Started after the hint by a thread that does not have it. */
	ASSERT_EQ(0, parked_do(&b, PARKED_START_NEXT));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(c.tid));
	ASSERT_EQ(0, parked_do(&c, PARKED_VECTOR));
	WAIT_UNTIL(affinity_of(a.tid) == mask_bits(&last) &&
		   affinity_of(c.tid) == mask_bits(&last), APPLY_MS);
	EXPECT_EQ(mask_bits(&last), affinity_of(a.tid));
	EXPECT_EQ(mask_bits(&last), affinity_of(c.tid));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(m.tid));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(b.tid));

	WAIT_UNTIL(dev_hint_applied(self->fd, m.tid, RVVSTAT_HINT_PROCESS) >= 2,
		   APPLY_MS);
	ASSERT_EQ(0, dev_get_hint(self->fd, m.tid, RVVSTAT_HINT_PROCESS, &h, &got));
	EXPECT_EQ(flags | RVVSTAT_HINT_CPUS, h.flags);
	EXPECT_EQ(2, h.applied);
	EXPECT_EQ(0, h.last_error);
	EXPECT_EQ(mask_bits(&last), mask_bits(&got));

	/* The first uses the kernel trapped: a and c, not m or b. */
	ASSERT_EQ(0, dev_task_stats(self->fd, a.tid, &ts));
	EXPECT_EQ(1, ts.counters[RVVSTAT_FIRST_USE]);
	ASSERT_EQ(0, dev_task_stats(self->fd, c.tid, &ts));
	EXPECT_EQ(1, ts.counters[RVVSTAT_FIRST_USE]);
	ASSERT_EQ(0, dev_task_stats(self->fd, b.tid, &ts));
	EXPECT_EQ(0, ts.counters[RVVSTAT_FIRST_USE]);
	ASSERT_EQ(0, dev_task_stats(self->fd, m.tid, &ts));
	EXPECT_EQ(0, ts.counters[RVVSTAT_FIRST_USE]);
	EXPECT_EQ(128 + SIGKILL, child_end(m.tid, SIGKILL));
}

/* The state letter of /proc/@pid/stat ('Z' for a zombie); 0 if unreadable. */
static char proc_state(pid_t pid)
{
	char path[64], stat[256], *paren;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, stat, sizeof(stat)) <= 0)
		return 0;
	paren = strrchr(stat, ')');
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

/*
 * A process whose main thread left by pthread_exit() lives on in its other
 * threads: a process hint, by the pid as the syscalls take it, reaches them
 * and CLEAR_HINT takes it back. Once the last thread is gone, ESRCH.
 */
TEST_F_TIMEOUT(two_cpus, process_hint_outlives_its_main_thread, TEST_SECONDS)
{
	cpu_set_t last = cpu_mask(last_cpu);
	struct parked m, a;
	siginfo_t si;

	ASSERT_EQ(0, parked_init(&m, &a));
	ASSERT_EQ(0, parked_init(&a, NULL));
	ASSERT_LT(0, proc_start(&m, self->fd));
	ASSERT_EQ(0, parked_do(&m, PARKED_START_NEXT));
	ASSERT_EQ(0, parked_send(&m, PARKED_EXIT, 0));
	WAIT_UNTIL(proc_state(m.tid) == 'Z', APPLY_MS);
	ASSERT_EQ('Z', proc_state(m.tid));

	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(m.tid, RVVSTAT_HINT_PROCESS,
						  &last)));
	EXPECT_EQ(mask_bits(&last), affinity_of(a.tid));
	EXPECT_EQ(1, dev_hint_applied(self->fd, m.tid, RVVSTAT_HINT_PROCESS));
	EXPECT_EQ(0, dev_clear_hint(self->fd, m.tid, RVVSTAT_HINT_PROCESS));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(a.tid));

	/* a quits; the process, all its threads gone, is a zombie to reap. */
	ASSERT_EQ(0, parked_send(&a, PARKED_QUIT, 0));
	ASSERT_EQ(0, waitid(P_PID, m.tid, &si, WEXITED | WNOWAIT));
	EXPECT_EQ(-ESRCH, dev_set_hint(self->fd, cpus_hint(m.tid,
						       RVVSTAT_HINT_PROCESS,
						       &last)));
	EXPECT_EQ(0, child_end(m.tid, 0));
}

/* Without ON_VECTOR_USE a process hint reaches its threads now and later. */
TEST_F_TIMEOUT(two_cpus, process_hint_reaches_new_threads, TEST_SECONDS)
{
	cpu_set_t last = cpu_mask(last_cpu);
	struct parked m, a, b;
	struct rvvstat_hint h;

	ASSERT_EQ(0, parked_init(&m, &a));
	ASSERT_EQ(0, parked_init(&a, &b));
	ASSERT_EQ(0, parked_init(&b, NULL));
	ASSERT_LT(0, proc_start(&m, self->fd));
	ASSERT_EQ(0, parked_do(&m, PARKED_START_NEXT));

	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(m.tid, RVVSTAT_HINT_PROCESS,
						  &last)));
	EXPECT_EQ(mask_bits(&last), affinity_of(m.tid));
	EXPECT_EQ(mask_bits(&last), affinity_of(a.tid));
	EXPECT_EQ(2, dev_hint_applied(self->fd, m.tid, RVVSTAT_HINT_PROCESS));

	/* a widens itself (root may), so b starts with every CPU. */
	ASSERT_EQ(0, parked_do(&a, PARKED_WIDEN));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(a.tid));
	ASSERT_EQ(0, parked_do(&a, PARKED_START_NEXT));
	WAIT_UNTIL(affinity_of(b.tid) == mask_bits(&last), APPLY_MS);
	EXPECT_EQ(mask_bits(&last), affinity_of(b.tid));
	WAIT_UNTIL(dev_hint_applied(self->fd, m.tid, RVVSTAT_HINT_PROCESS) >= 3,
		   APPLY_MS);
	EXPECT_EQ(3, dev_hint_applied(self->fd, m.tid, RVVSTAT_HINT_PROCESS));

	/* CLEAR restores every thread the hint was applied to. */
	ASSERT_EQ(0, dev_clear_hint(self->fd, m.tid, RVVSTAT_HINT_PROCESS));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(m.tid));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(a.tid));
	EXPECT_EQ(mask_bits(&allowed), affinity_of(b.tid));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, m.tid, RVVSTAT_HINT_PROCESS,
				    &h, NULL));
	EXPECT_EQ(128 + SIGKILL, child_end(m.tid, SIGKILL));
}

/* With hint_table_size=16, a 17th thread's hint finds no room. */
TEST_F_TIMEOUT(unloaded, full_table_is_enospc, TEST_SECONDS)
{
	cpu_set_t last = cpu_mask(last_cpu);
	struct rvvstat_snapshot before, after;
	struct parked w[MAX_WORKERS];
	struct rvvstat_info info;
	struct rvvstat_hint h;
	int i;

	ASSERT_LE(0, self->fd = load_and_open("hint_table_size=16"));
	ASSERT_EQ(0, dev_info(self->fd, &info));
	ASSERT_EQ(16, info.hint_capacity);
	for (i = 0; i < 17; i++)
		ASSERT_EQ(0, parked_start(&w[i]));
	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(w[i].tid, 0, &allowed)))
			TH_LOG("hint %d", i);

	ASSERT_EQ(0, dev_snapshot(self->fd, &before));
	EXPECT_EQ(16, before.hints_live);
	EXPECT_EQ(-ENOSPC, dev_set_hint(self->fd, cpus_hint(w[16].tid, 0, &allowed)));
	ASSERT_EQ(0, dev_snapshot(self->fd, &after));
	EXPECT_EQ(1, delta(&before, &after, RVVSTAT_HEV_REFUSED_FULL));
	EXPECT_EQ(16, after.hints_live);
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, w[16].tid, 0, &h, NULL));

	/* A replacement needs no new entry. */
	EXPECT_EQ(0, dev_set_hint(self->fd, cpus_hint(w[0].tid, 0, &last)));
	EXPECT_EQ(mask_bits(&last), affinity_of(w[0].tid));
	/* A cleared entry is free again, at most a grace period later. */
	ASSERT_EQ(0, dev_clear_hint(self->fd, w[0].tid, 0));
	WAIT_UNTIL(!dev_set_hint(self->fd, cpus_hint(w[16].tid, 0, &allowed)),
		   EXPIRE_MS);
	EXPECT_EQ(0, dev_get_hint(self->fd, w[16].tid, 0, &h, NULL));
}

/*
 * One user's share of a 16-entry table is a quarter (README): nobody's
 * process of 21 threads gets its first 4 entries (the process hint, three
 * threads) and EDQUOT for the rest, and root still finds room.
 */
#define CROWD_THREADS	20

static struct parked crowd[CROWD_THREADS];

static int crowd_start(int fd)
{
	int i;

	for (i = 0; i < CROWD_THREADS; i++)
		if (parked_start(&crowd[i]))
			return -1;
	return 0;
}

static int nobody_crowds_the_table(int fd)
{
	struct rvvstat_hint h;

	CHILD_EXPECT_EQ(0, dev_set_hint(fd, cpus_hint(0, RVVSTAT_HINT_PROCESS,
						      &allowed)));
	CHILD_EXPECT_EQ(0, dev_get_hint(fd, 0, RVVSTAT_HINT_PROCESS, &h, NULL));
	CHILD_EXPECT_EQ(3, h.applied);
	CHILD_EXPECT_EQ(-EDQUOT, h.last_error);
	/* A thread the process hint found no room for. */
	CHILD_EXPECT_EQ(-EDQUOT,
			dev_set_hint(fd, cpus_hint(crowd[CROWD_THREADS - 1].tid,
						   0, &allowed)));
	CHILD_EXPECT_EQ(0, child_step());
	return 0;
}

TEST_F_TIMEOUT(unloaded, one_user_cannot_fill_the_table, TEST_SECONDS)
{
	struct rvvstat_snapshot before, after;
	pid_t pid;

	ASSERT_LE(0, self->fd = load_and_open("hint_table_size=16"));
	ASSERT_EQ(0, dev_snapshot(self->fd, &before));
	ASSERT_LT(0, pid = nobody_start(crowd_start, nobody_crowds_the_table,
					self->fd));
	ASSERT_EQ(0, test_await());
	EXPECT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &allowed)));
	EXPECT_EQ(0, dev_clear_hint(self->fd, 0, 0));
	ASSERT_EQ(0, dev_snapshot(self->fd, &after));
	/* Nobody's process hint; 18 threads and a thread hint had no room. */
	EXPECT_EQ(1, after.hints_live);
	EXPECT_EQ(19, delta(&before, &after, RVVSTAT_HEV_REFUSED_FULL));
	ASSERT_EQ(0, test_resume());
	EXPECT_EQ(0, child_end(pid, 0));
}

/* A hint ends with its thread or process, an RCU grace period after the reap. */
TEST_F_TIMEOUT(loaded, hints_expire_with_their_threads, TEST_SECONDS)
{
	struct rvvstat_snapshot before, after;
	struct rvvstat_hint h;
	struct parked w, m;

	ASSERT_EQ(0, parked_start(&w));
	ASSERT_EQ(0, parked_init(&m, NULL));
	ASSERT_LT(0, proc_start(&m, self->fd));
	ASSERT_EQ(0, dev_snapshot(self->fd, &before));
	ASSERT_EQ(0, dev_set_hint(self->fd, policy_hint(w.tid, 0, SCHED_BATCH, 1, 0)));
	ASSERT_EQ(0, dev_set_hint(self->fd, policy_hint(m.tid, RVVSTAT_HINT_PROCESS,
						    SCHED_BATCH, 1, 0)));
	/* At least the two (a process hint may hold entries for its threads). */
	EXPECT_LE(before.hints_live + 2, hints_live(self->fd));

	ASSERT_EQ(0, parked_stop(&w));
	EXPECT_EQ(128 + SIGKILL, child_end(m.tid, SIGKILL));
	WAIT_UNTIL(dev_get_hint(self->fd, w.tid, 0, &h, NULL) == -ESRCH, EXPIRE_MS);
	EXPECT_EQ(-ESRCH, dev_get_hint(self->fd, w.tid, 0, &h, NULL));
	EXPECT_EQ(-ESRCH, dev_get_hint(self->fd, m.tid, RVVSTAT_HINT_PROCESS, &h,
				   NULL));

	WAIT_UNTIL(hint_event(self->fd, RVVSTAT_HEV_EXPIRED) >=
		   before.hint_events[RVVSTAT_HEV_EXPIRED] + 2, EXPIRE_MS);
	WAIT_UNTIL(hints_live(self->fd) == before.hints_live, EXPIRE_MS);
	ASSERT_EQ(0, dev_snapshot(self->fd, &after));
	EXPECT_EQ(2, delta(&before, &after, RVVSTAT_HEV_EXPIRED));
	EXPECT_EQ(0, delta(&before, &after, RVVSTAT_HEV_CLEARED));
	EXPECT_EQ(before.hints_live, after.hints_live);
}

static __u64 saved_switches(const struct rvvstat_task_stats *ts)
{
	__u64 sum = 0;
	int i;

	for (i = 0; i < RVVSTAT_TASK_HIST_BUCKETS; i++)
		sum += ts->switch_saved_hist[i];
	return sum;
}

/* A thread's row: its process, name, and what it did with V. */
TEST_F_TIMEOUT(loaded, task_stats_per_thread, TEST_SECONDS)
{
	struct rvvstat_task_stats ts;
	struct parked vec, scalar, m;
	char comm[17] = "";

	ASSERT_EQ(0, parked_start(&vec));
	ASSERT_EQ(0, parked_start(&scalar));
	ASSERT_EQ(0, pthread_setname_np(vec.thread, "hint-vector"));
	ASSERT_EQ(0, parked_do(&vec, PARKED_VECTOR));
	ASSERT_EQ(0, parked_init(&m, NULL));
	ASSERT_LT(0, proc_start(&m, self->fd));

	/* The caller, by 0 and by its tid. */
	ASSERT_EQ(0, prctl(PR_GET_NAME, comm));
	ASSERT_EQ(0, dev_task_stats(self->fd, 0, &ts));
	EXPECT_EQ(getpid(), ts.tgid);
	EXPECT_STREQ(comm, ts.comm);
	EXPECT_EQ(RVVSTAT_NR_COUNTERS, ts.nr_counters);
	EXPECT_EQ(0, ts.counters[RVVSTAT_FIRST_USE]);
	if (!ARCH_SAVES_EVERY_THREAD)
		EXPECT_EQ(0, ts.counters[RVVSTAT_SAVES_USER]);
	ASSERT_EQ(0, dev_task_stats(self->fd, getpid(), &ts));
	EXPECT_EQ(getpid(), ts.tgid);
	EXPECT_STREQ(comm, ts.comm);

	/* One first-use trap for the vector worker, none for the scalar one. */
	ASSERT_EQ(0, dev_task_stats(self->fd, vec.tid, &ts));
	EXPECT_EQ(getpid(), ts.tgid);
	EXPECT_STREQ("hint-vector", ts.comm);
	EXPECT_EQ(1, ts.counters[RVVSTAT_FIRST_USE]);
	EXPECT_GE(ts.counters[RVVSTAT_SWITCHES], saved_switches(&ts));
	ASSERT_EQ(0, dev_task_stats(self->fd, scalar.tid, &ts));
	EXPECT_EQ(0, ts.counters[RVVSTAT_FIRST_USE]);
	if (!ARCH_SAVES_EVERY_THREAD) {
		EXPECT_EQ(0, ts.counters[RVVSTAT_SAVES_USER]);
		EXPECT_EQ(0, saved_switches(&ts));
	}

	/* Another process's thread belongs to that process. */
	ASSERT_EQ(0, dev_task_stats(self->fd, m.tid, &ts));
	EXPECT_EQ(m.tid, ts.tgid);
	EXPECT_EQ(-ESRCH, dev_task_stats(self->fd, dead_tid(), &ts));
	EXPECT_EQ(128 + SIGKILL, child_end(m.tid, SIGKILL));
}

static int nobody_resets(int fd)
{
	CHILD_EXPECT_EQ(-EPERM, dev_ioctl(fd, RVVSTAT_IOC_RESET, NULL));
	return 0;
}

/* A snapshot is taken now, counts each hint event, and RESET zeroes them. */
TEST_F_TIMEOUT(unloaded, snapshot_counts_and_reset, TEST_SECONDS)
{
	__u64 want[RVVSTAT_NR_HINT_EVENTS] = {
		[RVVSTAT_HEV_SET] = 1, [RVVSTAT_HEV_APPLIED] = 1,
		[RVVSTAT_HEV_CLEARED] = 1, [RVVSTAT_HEV_REFUSED_GONE] = 1,
		[RVVSTAT_HEV_REFUSED_INVALID] = 1,
	};
	struct rvvstat_snapshot s0, s1, s2;
	__u64 loaded, before, after;
	pid_t gone = dead_tid();
	cpu_set_t empty;
	int i;

	loaded = now_ns();
	ASSERT_LE(0, self->fd = load_and_open(""));
	before = now_ns();
	ASSERT_EQ(0, dev_snapshot(self->fd, &s0));
	after = now_ns();
	EXPECT_LE(before, s0.time_ns);
	EXPECT_GE(after, s0.time_ns);
	EXPECT_LT(0, s0.elapsed_ns);
	EXPECT_GE(s0.time_ns - loaded, s0.elapsed_ns);
	EXPECT_EQ(RVVSTAT_NR_COUNTERS, s0.nr_counters);
	EXPECT_EQ(RVVSTAT_NR_CPU_EVENTS, s0.nr_cpu_events);
	EXPECT_EQ(RVVSTAT_NR_HINT_EVENTS, s0.nr_hint_events);
	EXPECT_LE(1, s0.tasks_live);
	EXPECT_LE(s0.tasks_live, s0.table_capacity);
	EXPECT_EQ(0, s0.hints_live);

	CPU_ZERO(&empty);
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &allowed)));
	EXPECT_EQ(1, hints_live(self->fd));
	ASSERT_EQ(0, dev_clear_hint(self->fd, 0, 0));
	EXPECT_EQ(-ESRCH, dev_set_hint(self->fd, cpus_hint(gone, 0, &allowed)));
	EXPECT_EQ(-EINVAL, dev_set_hint(self->fd, cpus_hint(0, 0, &empty)));
	ASSERT_EQ(0, dev_snapshot(self->fd, &s1));
	for (i = 0; i < RVVSTAT_NR_HINT_EVENTS; i++)
		EXPECT_EQ(want[i], delta(&s0, &s1, i))
			TH_LOG("hint event %d", i);

	/* Nobody may not reset; that changes nothing. */
	EXPECT_EQ(0, as_nobody(nobody_resets, self->fd));
	ASSERT_EQ(0, dev_snapshot(self->fd, &s2));
	EXPECT_EQ(0, memcmp(s1.hint_events, s2.hint_events,
			    sizeof(s1.hint_events)));

	before = now_ns();
	ASSERT_EQ(0, dev_ioctl(self->fd, RVVSTAT_IOC_RESET, NULL));
	ASSERT_EQ(0, dev_snapshot(self->fd, &s2));
	for (i = 0; i < RVVSTAT_NR_HINT_EVENTS; i++)
		EXPECT_EQ(0, s2.hint_events[i]) TH_LOG("hint event %d", i);
	/* Nothing used V for the first time since. */
	EXPECT_EQ(0, s2.counters[RVVSTAT_FIRST_USE]);
	EXPECT_GE(s2.time_ns - before, s2.elapsed_ns);
}

/* Live hints, pending ones included, do not keep the module from going. */
TEST_F_TIMEOUT(loaded, unload_with_live_hints, TEST_SECONDS)
{
	cpu_set_t last = cpu_mask(last_cpu);
	struct rvvstat_snapshot s;
	struct rvvstat_hint h;
	struct parked w, m, a;
	struct stat st;
	int i;

	ASSERT_EQ(0, parked_start(&w));
	ASSERT_EQ(0, parked_init(&m, &a));
	ASSERT_EQ(0, parked_init(&a, NULL));
	ASSERT_LT(0, proc_start(&m, self->fd));
	ASSERT_EQ(0, parked_do(&m, PARKED_START_NEXT));
	ASSERT_EQ(0, dev_set_hint(self->fd, policy_hint(w.tid, 0, SCHED_BATCH, 2, 0)));
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(m.tid, RVVSTAT_HINT_PROCESS |
						  RVVSTAT_HINT_ON_VECTOR_USE,
						  &last)));
	ASSERT_EQ(0, dev_set_hint(self->fd, cpus_hint(0, 0, &last)));
	/* An application may still be on its way as the module goes. */
	ASSERT_EQ(0, parked_do(&a, PARKED_VECTOR));
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, module_unload());
	EXPECT_EQ(-1, stat(DEVICE_PATH, &st));
	EXPECT_EQ(ENOENT, errno);

	/* The threads live on and may use V with no module about. */
	ASSERT_EQ(0, parked_do(&m, PARKED_VECTOR));
	ASSERT_EQ(0, parked_do(&w, PARKED_VECTOR));

	/* A new module knows nothing of the old hints. */
	ASSERT_LE(0, self->fd = load_and_open(""));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, w.tid, 0, &h, NULL));
	EXPECT_EQ(-ENOENT, dev_get_hint(self->fd, m.tid, RVVSTAT_HINT_PROCESS, &h,
				    NULL));
	ASSERT_EQ(0, dev_snapshot(self->fd, &s));
	EXPECT_EQ(0, s.hints_live);
	for (i = 0; i < RVVSTAT_NR_HINT_EVENTS; i++)
		EXPECT_EQ(0, s.hint_events[i]) TH_LOG("hint event %d", i);
	ASSERT_EQ(0, dev_set_hint(self->fd, policy_hint(w.tid, 0, SCHED_BATCH, 1, 0)));
	EXPECT_EQ(128 + SIGKILL, child_end(m.tid, SIGKILL));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, module_unload());
}

TEST_HARNESS_MAIN
