// SPDX-License-Identifier: GPL-2.0
/*
 * The rvvstat generic netlink family against malformed and hostile
 * requests, from a raw libnl client in the x86_64 guest: every bad request
 * gets its errno and an extended-ACK text, and dumps of many tasks come
 * whole and without duplicates while threads come and go. A task row says
 * where its thread last ran and what became of its hint, as the test set
 * them up with sched_setaffinity() and /dev/rvvstat. Task views show what
 * /proc would: a user's own threads, a pid namespace's under its ids. And
 * what the device reports that belongs to no netlink command: GET_INFO's
 * fields, the x86 bytes per save, GET_TASK_STATS' comm; the device comes
 * and goes only with the rest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/rvvstat.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "kselftest_harness.h"
#include "device.h"
#include "guest-util.h"
#include "parked.h"
#include "vector-arch.h"

#define TEST_SECONDS	300
#define MAX_ROWS	8192	/* rows of a dump kept in struct outcome */
#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* How a request ended: its errno, and what the ext-ACK said. */
struct outcome {
	int error;		/* 0 or -errno */
	char message[256];
	int missing;		/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
	int rows;		/* messages of a dump */
	pid_t tids[MAX_ROWS];	/* RVVSTAT_A_TID of each, while there is room */
	pid_t tgids[MAX_ROWS];	/* and its RVVSTAT_A_TGID */
	bool done;
	/* The row of thread @want, kept across send_and_collect(). */
	pid_t want;
	bool found;
	long cpu, hint;		/* RVVSTAT_A_CPU, RVVSTAT_A_TASK_HINT; -1: absent */
	char comm[16];		/* RVVSTAT_A_COMM */
};

static int on_error(struct sockaddr_nl *from, struct nlmsgerr *e, void *arg)
{
	const struct nlmsghdr *nlh = (const void *)((const char *)e - NLMSG_HDRLEN);
	struct outcome *o = arg;
	size_t offset = sizeof(*e);
	struct nlattr *attr;
	int rem;

	(void)from;
	o->error = e->error;
	o->done = true;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		offset += e->msg.nlmsg_len - NLMSG_HDRLEN;
	nla_for_each_attr(attr, (struct nlattr *)((char *)e + NLMSG_ALIGN(offset)),
			  (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)NLMSG_ALIGN(offset),
			  rem) {
		if (nla_type(attr) == NLMSGERR_ATTR_MSG)
			snprintf(o->message, sizeof(o->message), "%.*s",
				 nla_len(attr), (char *)nla_data(attr));
		if (nla_type(attr) == NLMSGERR_ATTR_MISS_TYPE)
			o->missing = nla_get_u32(attr);
	}
	return NL_STOP;
}

static int on_end(struct nl_msg *msg, void *arg)
{
	(void)msg;
	((struct outcome *)arg)->done = true;
	return NL_STOP;
}

static int on_row(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[RVVSTAT_A_MAX + 1];
	struct outcome *o = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, RVVSTAT_A_MAX, NULL) < 0)
		return NL_STOP;
	if (tb[RVVSTAT_A_TID] && o->rows < MAX_ROWS) {
		o->tids[o->rows] = nla_get_u32(tb[RVVSTAT_A_TID]);
		o->tgids[o->rows] = tb[RVVSTAT_A_TGID] ?
				    (pid_t)nla_get_u32(tb[RVVSTAT_A_TGID]) : -1;
	}
	o->rows++;
	if (o->want && tb[RVVSTAT_A_TID] &&
	    (pid_t)nla_get_u32(tb[RVVSTAT_A_TID]) == o->want) {
		o->found = true;
		o->cpu = tb[RVVSTAT_A_CPU] ? (long)nla_get_u32(tb[RVVSTAT_A_CPU]) : -1;
		o->hint = tb[RVVSTAT_A_TASK_HINT] ?
			  (long)nla_get_u32(tb[RVVSTAT_A_TASK_HINT]) : -1;
		if (tb[RVVSTAT_A_COMM])
			snprintf(o->comm, sizeof(o->comm), "%s",
				 nla_get_string(tb[RVVSTAT_A_COMM]));
	}
	return NL_OK;
}

FIXTURE(family) {
	struct nl_sock *sock;
	int id;
	struct outcome o;
};

FIXTURE_SETUP(family)
{
	int one = 1;

	self->o.want = 0;
	ASSERT_EQ(0, module_load(""));
	self->sock = nl_socket_alloc();
	ASSERT_NE(NULL, self->sock);
	ASSERT_EQ(0, genl_connect(self->sock));
	ASSERT_EQ(0, setsockopt(nl_socket_get_fd(self->sock), SOL_NETLINK,
				NETLINK_EXT_ACK, &one, sizeof(one)));
	self->id = genl_ctrl_resolve(self->sock, RVVSTAT_GENL_NAME);
	ASSERT_LT(0, self->id);
}

FIXTURE_TEARDOWN(family)
{
	nl_socket_free(self->sock);
	EXPECT_EQ(0, module_unload());
}

/* A request of @cmd with @flags; the caller adds attributes. */
static struct nl_msg *request(int family, int cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				flags, cmd, RVVSTAT_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Sends @msg and collects its outcome until an ACK, DONE or error. */
static int send_and_collect(struct nl_sock *sock, struct nl_msg *msg,
			    struct outcome *o)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	pid_t want = o->want;
	int status;

	memset(o, 0, sizeof(*o));
	o->missing = -1;
	o->want = want;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_row, o);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_end, o);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_end, o);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, o);
	status = nl_send_auto(sock, msg);
	nlmsg_free(msg);
	/* libnl returns the errno of an error message too: o->error has it. */
	while (status >= 0 && !o->done)
		status = nl_recvmsgs(sock, cb);
	nl_cb_put(cb);
	return status < 0 && !o->done ? status : 0;
}

/* Attributes a command does not take are refused, naming the problem. */
TEST_F_TIMEOUT(family, unexpected_attributes_are_refused, TEST_SECONDS)
{
	static const int cmds[] = {
		RVVSTAT_CMD_GET_INFO, RVVSTAT_CMD_GET_SUMMARY, RVVSTAT_CMD_RESET,
	};
	unsigned int i;

	for (i = 0; i < sizeof(cmds) / sizeof(*cmds); i++) {
		struct nl_msg *msg = request(self->id, cmds[i], NLM_F_ACK);

		ASSERT_EQ(0, nla_put_u32(msg, RVVSTAT_A_TGID, 1));
		ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
		EXPECT_EQ(-EINVAL, self->o.error);
		EXPECT_NE(0, self->o.message[0]) {
			TH_LOG("command %d: no ext-ack text", cmds[i]);
		}
	}
}

/* GET_HIST without its KIND names the missing attribute. */
TEST_F_TIMEOUT(family, missing_kind_is_named, TEST_SECONDS)
{
	struct nl_msg *msg = request(self->id, RVVSTAT_CMD_GET_HIST, NLM_F_ACK);

	ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
	EXPECT_EQ(-EINVAL, self->o.error);
	EXPECT_EQ(RVVSTAT_A_KIND, self->o.missing);
	EXPECT_NE(NULL, strstr(self->o.message, "KIND")) {
		TH_LOG("ext-ack: \"%s\"", self->o.message);
	}
}

/* Wrong sizes, values out of range, a CPU that does not exist. */
TEST_F_TIMEOUT(family, bad_values_are_refused, TEST_SECONDS)
{
	static const __u32 no_pid[] = { 0, 1U << 31, ~0U };
	struct nl_msg *msg;
	unsigned int i;

	msg = request(self->id, RVVSTAT_CMD_GET_HIST, NLM_F_ACK);
	ASSERT_EQ(0, nla_put_u64(msg, RVVSTAT_A_KIND, 0));
	ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
	EXPECT_EQ(-EINVAL, self->o.error);
	EXPECT_NE(0, self->o.message[0]);

	msg = request(self->id, RVVSTAT_CMD_GET_HIST, NLM_F_ACK);
	ASSERT_EQ(0, nla_put_u32(msg, RVVSTAT_A_KIND, RVVSTAT_NR_LATENCIES));
	ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
	EXPECT_EQ(-ERANGE, self->o.error);
	EXPECT_NE(0, self->o.message[0]);

	msg = request(self->id, RVVSTAT_CMD_GET_HIST, NLM_F_ACK);
	ASSERT_EQ(0, nla_put_u32(msg, RVVSTAT_A_KIND, RVVSTAT_LAT_CALIB_SAVE));
	ASSERT_EQ(0, nla_put_u32(msg, RVVSTAT_A_CPU, 1U << 20));
	ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
	EXPECT_EQ(-EINVAL, self->o.error);
	EXPECT_NE(NULL, strstr(self->o.message, "no such CPU"));

	/* No pid is 0, nor as large as these: refused, not an empty dump. */
	for (i = 0; i < sizeof(no_pid) / sizeof(*no_pid); i++) {
		msg = request(self->id, RVVSTAT_CMD_GET_TASKS, NLM_F_DUMP);
		ASSERT_EQ(0, nla_put_u32(msg, RVVSTAT_A_TGID, no_pid[i]));
		ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
		EXPECT_EQ(-ERANGE, self->o.error) TH_LOG("TGID %u", no_pid[i]);
		EXPECT_EQ(0, self->o.rows);
	}

	msg = request(self->id, RVVSTAT_CMD_MAX + 1, NLM_F_ACK);
	ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
	EXPECT_EQ(-EOPNOTSUPP, self->o.error);
}

#define NOBODY	65534

/* uid and gid 65534, no supplementary groups: no capability left. */
static int drop_to_nobody(void)
{
	return setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	       setresuid(NOBODY, NOBODY, NOBODY);
}

/*
 * RESET needs privilege; the reads do not: the totals, and by design the
 * per-CPU rows and histograms too (module/README.md: they tell that vector
 * state is in use on a CPU, not whose, as /proc/stat does).
 */
TEST_F_TIMEOUT(family, reset_needs_privilege, TEST_SECONDS)
{
	pid_t child = fork();
	int status;

	ASSERT_LE(0, child);
	if (!child) {
		struct nl_msg *msg;

		if (drop_to_nobody())
			_exit(10);
		msg = request(self->id, RVVSTAT_CMD_RESET, NLM_F_ACK);
		if (send_and_collect(self->sock, msg, &self->o) ||
		    self->o.error != -EPERM)
			_exit(11);
		msg = request(self->id, RVVSTAT_CMD_GET_SUMMARY, NLM_F_ACK);
		if (send_and_collect(self->sock, msg, &self->o) || self->o.error)
			_exit(12);
		msg = request(self->id, RVVSTAT_CMD_GET_CPUS, NLM_F_DUMP);
		if (send_and_collect(self->sock, msg, &self->o) ||
		    self->o.error || self->o.rows < 1)
			_exit(13);
		msg = request(self->id, RVVSTAT_CMD_GET_HIST, NLM_F_ACK);
		if (!msg || nla_put_u32(msg, RVVSTAT_A_KIND, RVVSTAT_LAT_SWITCH_SAVED) ||
		    nla_put_u32(msg, RVVSTAT_A_CPU, 0) ||
		    send_and_collect(self->sock, msg, &self->o) || self->o.error)
			_exit(14);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* RESET from the family's socket; the errno it got, 125 if none came. */
static int reset_errno(void *family)
{
	FIXTURE_DATA(family) *self = family;
	struct nl_msg *msg = request(self->id, RVVSTAT_CMD_RESET, NLM_F_ACK);

	if (send_and_collect(self->sock, msg, &self->o))
		return 125;
	return -self->o.error;
}

/*
 * One rule for every interface: the caller's CAP_SYS_ADMIN, as the ioctl
 * and debugfs; CAP_NET_ADMIN alone resets nothing.
 */
TEST_F_TIMEOUT(family, reset_needs_cap_sys_admin, TEST_SECONDS)
{
	EXPECT_EQ(EPERM, with_only_capability(CAP_NET_ADMIN, reset_errno, self));
	EXPECT_EQ(0, with_only_capability(CAP_SYS_ADMIN, reset_errno, self));
}

static int connect_socket(void *sock)
{
	struct nl_sock *s = nl_socket_alloc();

	if (!s)
		return -ENOMEM;
	if (genl_connect(s)) {
		nl_socket_free(s);
		return -EIO;
	}
	*(struct nl_sock **)sock = s;
	return 0;
}

/*
 * And of whoever opened the socket, as netlink_capable() asks: a privileged
 * program handed an unprivileged opener's socket resets nothing.
 */
TEST_F_TIMEOUT(family, reset_needs_the_sockets_opener_too, TEST_SECONDS)
{
	struct nl_sock *mine = self->sock, *handed = NULL;

	ASSERT_EQ(0, with_unprivileged_opener(connect_socket, &handed));
	self->sock = handed;
	EXPECT_EQ(EPERM, reset_errno(self));
	self->sock = mine;
	nl_socket_free(handed);
	EXPECT_EQ(0, reset_errno(self));
}

#define NR_THREADS	1500

static void *park(void *arg)
{
	pthread_barrier_wait(arg);	/* all started */
	pthread_barrier_wait(arg);	/* the test is done */
	return NULL;
}

static int duplicates(const struct outcome *o)
{
	int i, j, n = 0;

	for (i = 0; i < o->rows && i < MAX_ROWS; i++)
		for (j = i + 1; j < o->rows && j < MAX_ROWS; j++)
			n += o->tids[i] == o->tids[j];
	return n;
}

/* A dump of many rows spans many messages and has each thread once. */
TEST_F_TIMEOUT(family, big_dump_has_every_thread_once, TEST_SECONDS)
{
	static pthread_t threads[NR_THREADS];
	pthread_barrier_t barrier;
	struct nl_msg *msg;
	int i;

	ASSERT_EQ(0, pthread_barrier_init(&barrier, NULL, NR_THREADS + 1));
	for (i = 0; i < NR_THREADS; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, park, &barrier));
	pthread_barrier_wait(&barrier);

	msg = request(self->id, RVVSTAT_CMD_GET_TASKS, NLM_F_DUMP);
	ASSERT_EQ(0, nla_put_u32(msg, RVVSTAT_A_TGID, getpid()));
	ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
	EXPECT_EQ(0, self->o.error);
	EXPECT_EQ(NR_THREADS + 1, self->o.rows);
	EXPECT_EQ(0, duplicates(&self->o));

	msg = request(self->id, RVVSTAT_CMD_GET_TASKS, NLM_F_DUMP);
	ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
	EXPECT_LT(NR_THREADS, self->o.rows);
	EXPECT_EQ(0, duplicates(&self->o));

	pthread_barrier_wait(&barrier);
	for (i = 0; i < NR_THREADS; i++)
		pthread_join(threads[i], NULL);
}

static void *churn(void *arg)
{
	volatile bool *stop = arg;

	while (!*stop) {
		pid_t child = fork();

		if (!child)
			_exit(0);
		if (child > 0)
			waitpid(child, NULL, 0);
	}
	return NULL;
}

/* Tasks that come and go during dumps are never sent twice. */
TEST_F_TIMEOUT(family, dumps_under_churn_have_no_duplicates, TEST_SECONDS)
{
	volatile bool stop = false;
	pthread_t churner;
	int round;

	ASSERT_EQ(0, pthread_create(&churner, NULL, churn, (void *)&stop));
	for (round = 0; round < 50; round++) {
		struct nl_msg *msg = request(self->id, RVVSTAT_CMD_GET_TASKS,
					     NLM_F_DUMP);

		ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
		EXPECT_EQ(0, self->o.error);
		EXPECT_LT(0, self->o.rows);
		EXPECT_EQ(0, duplicates(&self->o));
	}
	stop = true;
	pthread_join(churner, NULL);
}

/*
 * A dump of process @tgid (0: of every thread) into @o, with thread @tid's
 * row (0: none); 0, or -ESRCH if @tid has no row, or the dump's error.
 */
static int dump_tasks(struct nl_sock *sock, int family, pid_t tgid, pid_t tid,
		      struct outcome *o)
{
	struct nl_msg *msg = request(family, RVVSTAT_CMD_GET_TASKS, NLM_F_DUMP);
	int status;

	if (!msg || (tgid && nla_put_u32(msg, RVVSTAT_A_TGID, tgid)))
		return -ENOMEM;
	o->want = tid;
	status = send_and_collect(sock, msg, o);
	if (!status)
		status = o->error ? o->error : o->found || !tid ? 0 : -ESRCH;
	return status;
}

/* Thread @tid's row in a dump of this process into @o, as dump_tasks(). */
static int task_row(struct nl_sock *sock, int family, pid_t tid,
		    struct outcome *o)
{
	return dump_tasks(sock, family, getpid(), tid, o);
}

/* Whether a dump into @o has a row of thread @tid. */
static bool has_tid(const struct outcome *o, pid_t tid)
{
	int i;

	for (i = 0; i < o->rows && i < MAX_ROWS; i++)
		if (o->tids[i] == tid)
			return true;
	return false;
}

/* Its hint state as dumped; -1 without the attribute, -2 without the row. */
static long hint_of(struct nl_sock *sock, int family, pid_t tid,
		    struct outcome *o)
{
	return task_row(sock, family, tid, o) ? -2 : o->hint;
}

/* Deferred hints are applied by a kernel worker soon after the event. */
#define APPLY_MS	5000

/* The first and the last CPU this process may run on. */
static int cpu_range(int *first, int *last)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	*first = *last = -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if (*first < 0)
			*first = cpu;
		*last = cpu;
	}
	return 0;
}

/*
 * A thread pinned to a CPU and switched out is dumped with that CPU, for two
 * CPUs; one that has not run since the module loaded has none.
 */
TEST_F_TIMEOUT(family, task_rows_have_the_last_cpu, TEST_SECONDS)
{
	int first, last, cpu;
	struct parked p;

	ASSERT_EQ(0, cpu_range(&first, &last));
	if (first == last)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, parked_start(&p));

	/* Parked in read() all along: not switched in since the load. */
	ASSERT_EQ(0, module_unload());
	ASSERT_EQ(0, module_load(""));
	self->id = genl_ctrl_resolve(self->sock, RVVSTAT_GENL_NAME);
	ASSERT_LT(0, self->id);
	ASSERT_EQ(0, task_row(self->sock, self->id, p.tid, &self->o));
	EXPECT_EQ(-1, self->o.cpu);

	for (cpu = first; cpu <= last; cpu += last - first) {
		ASSERT_EQ(cpu, parked_pin(&p, cpu));
		ASSERT_EQ(0, task_row(self->sock, self->id, p.tid, &self->o));
		EXPECT_EQ(cpu, self->o.cpu);
	}
	parked_stop(&p);
}

/* GET_HINT's last_error of the hint of @target; 1 if it cannot be read. */
static int last_error_of(int fd, pid_t target, __u32 flags)
{
	struct rvvstat_hint h;

	return dev_get_hint(fd, target, flags, &h, NULL) ? 1 : h.last_error;
}

/*
 * Makes @tid a deadline task, whose mask the kernel refuses to narrow. The
 * errno sched_setaffinity(2) gives it for @cpus, or 0 if it is not refused
 * (then, or if the task cannot be made deadline, the caller skips).
 */
static int make_deadline(pid_t tid, const cpu_set_t *cpus)
{
	struct sched_attr dl = {
		.size = sizeof(dl), .sched_policy = SCHED_DEADLINE,
		.sched_runtime = 1000000, .sched_deadline = 10000000,
		.sched_period = 10000000,
	};

	if (syscall(SYS_sched_setattr, tid, &dl, 0))
		return 0;
	return sched_setaffinity(tid, sizeof(*cpus), cpus) ? errno : 0;
}

/*
 * A hint's state in the rows of the threads it covers, through
 * @flags (0: thread hints, RVVSTAT_HINT_PROCESS: a hint of this process):
 * none; waiting until a thread uses vector state, then applied; failed for
 * a thread that became a deadline task meanwhile; none after CLEAR.
 */
static void hint_states(struct __test_metadata *_metadata,
			FIXTURE_DATA(family) *self, __u32 flags)
{
	const __u32 set = flags | RVVSTAT_HINT_CPUS | RVVSTAT_HINT_ON_VECTOR_USE;
	struct parked ok, bad;
	int first, last, fd, refused;
	cpu_set_t one, got;

	ASSERT_EQ(0, cpu_range(&first, &last));
	if (first == last)
		SKIP(return, "needs two CPUs");
	CPU_ZERO(&one);
	CPU_SET(last, &one);
	ASSERT_LE(0, fd = device_open());
	ASSERT_EQ(0, parked_start(&ok));
	ASSERT_EQ(0, parked_start(&bad));
	EXPECT_EQ(RVVSTAT_TASK_HINT_NONE, hint_of(self->sock, self->id, ok.tid, &self->o));

	if (flags) {
		ASSERT_EQ(0, dev_set_hint(fd, cpus_hint(getpid(), set, &one)));
	} else {
		ASSERT_EQ(0, dev_set_hint(fd, cpus_hint(ok.tid, set, &one)));
		ASSERT_EQ(0, dev_set_hint(fd, cpus_hint(bad.tid, set, &one)));
	}
	EXPECT_EQ(RVVSTAT_TASK_HINT_WAITING, hint_of(self->sock, self->id, ok.tid, &self->o));
	EXPECT_EQ(RVVSTAT_TASK_HINT_WAITING, hint_of(self->sock, self->id, bad.tid, &self->o));

	ASSERT_EQ(0, parked_do(&ok, PARKED_VECTOR));
	WAIT_UNTIL(hint_of(self->sock, self->id, ok.tid, &self->o) ==
		   RVVSTAT_TASK_HINT_APPLIED, APPLY_MS);
	EXPECT_EQ(RVVSTAT_TASK_HINT_APPLIED, hint_of(self->sock, self->id, ok.tid, &self->o));
	ASSERT_EQ(0, sched_getaffinity(ok.tid, sizeof(got), &got));
	EXPECT_TRUE(CPU_EQUAL(&one, &got));

	refused = make_deadline(bad.tid, &one);
	if (refused) {
		ASSERT_EQ(0, parked_do(&bad, PARKED_VECTOR));
		WAIT_UNTIL(hint_of(self->sock, self->id, bad.tid, &self->o) ==
			   RVVSTAT_TASK_HINT_FAILED, APPLY_MS);
		EXPECT_EQ(RVVSTAT_TASK_HINT_FAILED,
			  hint_of(self->sock, self->id, bad.tid, &self->o));
		EXPECT_EQ(-refused, last_error_of(fd, flags ? getpid() : bad.tid, flags));
		EXPECT_EQ(RVVSTAT_TASK_HINT_APPLIED,
			  hint_of(self->sock, self->id, ok.tid, &self->o));
	}

	if (flags) {
		EXPECT_EQ(0, dev_clear_hint(fd, getpid(), flags));
	} else {
		EXPECT_EQ(0, dev_clear_hint(fd, ok.tid, 0));
		EXPECT_EQ(0, dev_clear_hint(fd, bad.tid, 0));
	}
	EXPECT_EQ(RVVSTAT_TASK_HINT_NONE, hint_of(self->sock, self->id, ok.tid, &self->o));
	EXPECT_EQ(RVVSTAT_TASK_HINT_NONE, hint_of(self->sock, self->id, bad.tid, &self->o));
	parked_stop(&ok);
	parked_stop(&bad);
	close(fd);
	if (!refused)
		SKIP(return, "cannot make a deadline task here: FAILED not checked");
}

TEST_F_TIMEOUT(family, thread_hint_states, TEST_SECONDS)
{
	hint_states(_metadata, self, 0);
}

TEST_F_TIMEOUT(family, process_hint_states, TEST_SECONDS)
{
	hint_states(_metadata, self, RVVSTAT_HINT_PROCESS);
}

/* Says its tid on the pipe @arg, then becomes sleep. */
static void *exec_sleep(void *arg)
{
	pid_t tid = syscall(SYS_gettid);

	if (write(*(int *)arg, &tid, sizeof(tid)) == sizeof(tid))
		execl("/bin/sleep", "sleep", "60", (char *)NULL);
	_exit(1);
}

/* Process @tgid's dump: sleep under the tid @tgid, no row of @old. */
static bool exec_took_leader_tid(struct nl_sock *sock, int family, pid_t tgid,
				 pid_t old, struct outcome *o)
{
	return !dump_tasks(sock, family, tgid, tgid, o) &&
	       !strcmp(o->comm, "sleep") && !has_tid(o, old);
}

/*
 * A thread that is not its process's leader execs: the kernel hands it the
 * leader's tid, and its row has that tid; no row keeps its old one.
 */
TEST_F_TIMEOUT(family, exec_in_a_thread_takes_the_leaders_tid, TEST_SECONDS)
{
	pid_t child, old = 0;
	int fds[2];

	ASSERT_EQ(0, pipe(fds));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		pthread_t thread;

		if (!pthread_create(&thread, NULL, exec_sleep, &fds[1]))
			pause();	/* until the exec ends this thread */
		_exit(1);
	}
	ASSERT_EQ(sizeof(old), read(fds[0], &old, sizeof(old)));
	ASSERT_NE(child, old);
	WAIT_UNTIL(exec_took_leader_tid(self->sock, self->id, child, old,
					&self->o), APPLY_MS);
	EXPECT_EQ(0, dump_tasks(self->sock, self->id, child, child, &self->o));
	EXPECT_STREQ("sleep", self->o.comm);
	EXPECT_FALSE(has_tid(&self->o, old));
	EXPECT_EQ(1, self->o.rows);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

/* In a forked child: on a failed check, says which and exits with 1. */
#define CHILD_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "# line %d: %s failed\n", __LINE__, #cond);	\
		_exit(1);						\
	}								\
} while (0)

/* The real uid of thread @tid, from /proc; -1 if it is gone. */
static long uid_of(pid_t tid)
{
	char path[64], status[4096], *line;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (read_file(path, status, sizeof(status)) < 0)
		return -1;
	line = strstr(status, "\nUid:");
	return line ? strtol(line + strlen("\nUid:"), NULL, 10) : -1;
}

/*
 * A task dump shows what /proc would with hidepid=invisible: uid nobody
 * sees its own threads and nobody else's (not init's, not root's), root
 * sees them all, kernel threads and nobody's included.
 */
TEST_F_TIMEOUT(family, task_dumps_show_what_proc_would, TEST_SECONDS)
{
	int ready[2], go[2], status;
	pid_t child, thread;
	char c = 0;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		struct parked p;
		long uid;
		int i;

		CHILD_CHECK(!drop_to_nobody());
		CHILD_CHECK(!parked_start(&p));
		CHILD_CHECK(write(ready[1], &p.tid, sizeof(p.tid)) == sizeof(p.tid));
		CHILD_CHECK(read(go[0], &c, 1) == 1);
		CHILD_CHECK(!dump_tasks(self->sock, self->id, 0, 0, &self->o));
		CHILD_CHECK(has_tid(&self->o, getpid()));
		CHILD_CHECK(has_tid(&self->o, p.tid));
		CHILD_CHECK(!has_tid(&self->o, 1));
		CHILD_CHECK(!has_tid(&self->o, getppid()));
		for (i = 0; i < self->o.rows && i < MAX_ROWS; i++) {
			uid = uid_of(self->o.tids[i]);
			if (uid != NOBODY && uid != -1)
				fprintf(stderr, "# nobody was shown thread %d of uid %ld\n",
					self->o.tids[i], uid);
			CHILD_CHECK(uid == NOBODY || uid == -1);
		}
		parked_stop(&p);
		_exit(0);
	}
	ASSERT_EQ(sizeof(thread), read(ready[0], &thread, sizeof(thread)));
	ASSERT_EQ(0, dump_tasks(self->sock, self->id, 0, 0, &self->o));
	EXPECT_TRUE(has_tid(&self->o, 1));
	EXPECT_TRUE(has_tid(&self->o, 2));	/* kthreadd */
	EXPECT_TRUE(has_tid(&self->o, getpid()));
	EXPECT_TRUE(has_tid(&self->o, child));
	EXPECT_TRUE(has_tid(&self->o, thread));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* GET_TASK_STATS of thread @tid (0: the caller) into @ts; 0 or -errno. */
static int task_stats(pid_t tid, struct rvvstat_task_stats *ts)
{
	int fd = device_open(), err;

	if (fd < 0)
		return fd;
	memset(ts, 0, sizeof(*ts));
	ts->size = sizeof(*ts);
	ts->tid = tid;
	err = ioctl(fd, RVVSTAT_IOC_GET_TASK_STATS, ts) ? -errno : 0;
	close(fd);
	return err;
}

/* Pid 1 of a new pid namespace: what it is shown of itself and no more. */
static int in_new_pid_namespace(FIXTURE_DATA(family) *self)
{
	struct rvvstat_task_stats ts;
	struct parked p;
	int i;

	CHILD_CHECK(getpid() == 1);
	CHILD_CHECK(!parked_start(&p));
	CHILD_CHECK(!dump_tasks(self->sock, self->id, 0, 0, &self->o));
	CHILD_CHECK(self->o.rows == 2);
	CHILD_CHECK(has_tid(&self->o, 1));
	CHILD_CHECK(has_tid(&self->o, p.tid));
	for (i = 0; i < 2; i++)
		CHILD_CHECK(self->o.tgids[i] == 1);
	CHILD_CHECK(!dump_tasks(self->sock, self->id, 1, p.tid, &self->o));
	CHILD_CHECK(self->o.rows == 2);
	CHILD_CHECK(!task_stats(0, &ts));
	CHILD_CHECK(ts.tgid == 1);
	CHILD_CHECK(!task_stats(p.tid, &ts));
	CHILD_CHECK(ts.tgid == 1);
	parked_stop(&p);
	return 0;
}

/*
 * In a new pid namespace a task dump has that namespace's threads only,
 * under their ids there (the process is 1), TGID names a process by its id
 * there, and GET_TASK_STATS gives the tgid there.
 */
TEST_F_TIMEOUT(family, a_pid_namespace_sees_its_threads_under_its_ids, TEST_SECONDS)
{
	pid_t child = fork(), inner;
	int status;

	ASSERT_LE(0, child);
	if (!child) {
		CHILD_CHECK(!unshare(CLONE_NEWPID));
		inner = fork();
		CHILD_CHECK(inner >= 0);
		if (!inner)
			_exit(in_new_pid_namespace(self));
		CHILD_CHECK(waitpid(inner, &status, 0) == inner);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* A comm shortened by a rename comes out of GET_TASK_STATS zero-padded. */
TEST_F_TIMEOUT(family, task_stats_comm_is_zero_padded, TEST_SECONDS)
{
	static const char want[16] = "xy";
	struct rvvstat_task_stats ts;

	ASSERT_EQ(0, prctl(PR_SET_NAME, "abcdefghijklmno"));
	ASSERT_EQ(0, prctl(PR_SET_NAME, "xy"));
	ASSERT_EQ(0, task_stats(0, &ts));
	EXPECT_EQ(0, memcmp(want, ts.comm, sizeof(want))) {
		TH_LOG("comm: \"%.16s\" after its NUL", ts.comm + 3);
	}
}

/* GET_INFO sets every field: bytes the caller sent in it never show. */
TEST_F_TIMEOUT(family, get_info_sets_every_field, TEST_SECONDS)
{
	struct rvvstat_info zeroed = { .size = sizeof(zeroed) }, filled;
	int fd;

	memset(&filled, 0xff, sizeof(filled));
	filled.size = sizeof(filled);
	ASSERT_LE(0, fd = device_open());
	ASSERT_EQ(0, ioctl(fd, RVVSTAT_IOC_GET_INFO, &zeroed));
	ASSERT_EQ(0, ioctl(fd, RVVSTAT_IOC_GET_INFO, &filled));
	EXPECT_EQ(zeroed.features, filled.features);
	EXPECT_EQ(0, memcmp(&zeroed, &filled, sizeof(zeroed)));
	close(fd);
}

/* Loads and unloads the module, rounds times; the first error stops it. */
struct load_cycles {
	int rounds;
	int err;
	volatile bool done;
};

static void *load_and_unload(void *arg)
{
	struct load_cycles *c = arg;
	int i;

	for (i = 0; i < c->rounds && !c->err; i++) {
		c->err = module_load("");
		if (!c->err)
			c->err = module_unload();
	}
	c->done = true;
	return NULL;
}

/*
 * What userspace can open comes last at load and goes first at unload:
 * whenever /dev/rvvstat exists, the netlink family and debugfs do too.
 * Watched over load and unload cycles, between two looks at the same node.
 */
TEST_F_TIMEOUT(family, the_device_exists_only_with_the_rest, TEST_SECONDS)
{
	struct load_cycles c = { .rounds = 8 };
	int family, summary, seen = 0, broken = 0;
	struct stat before, after;
	pthread_t loader;

	ASSERT_EQ(0, module_unload());
	ASSERT_EQ(0, pthread_create(&loader, NULL, load_and_unload, &c));
	while (!c.done) {
		if (stat(DEVICE_PATH, &before))
			continue;
		family = genl_ctrl_resolve(self->sock, RVVSTAT_GENL_NAME);
		summary = access(DEBUGFS_DIR "summary", F_OK);
		if (stat(DEVICE_PATH, &after) || after.st_ino != before.st_ino)
			continue;
		seen++;
		if (family < 0 || summary) {
			broken++;
			TH_LOG("/dev/rvvstat without %s", family < 0 ?
			       "the netlink family" : "debugfs");
		}
	}
	pthread_join(loader, NULL);
	EXPECT_EQ(0, c.err);
	EXPECT_LT(0, seen);
	EXPECT_EQ(0, broken);
	ASSERT_EQ(0, module_load(""));
	self->id = genl_ctrl_resolve(self->sock, RVVSTAT_GENL_NAME);
	ASSERT_LT(0, self->id);
}

/* Bytes 464..511 of the FXSAVE area: the kernel's note in a signal frame. */
#define FX_SW_BYTES_OFFSET	464

static volatile unsigned int frame_xstate_size;

static void note_xstate_size(int sig, siginfo_t *info, void *context)
{
	const ucontext_t *uc = context;
	const struct _fpx_sw_bytes *sw = (const void *)
		((const char *)uc->uc_mcontext.fpregs + FX_SW_BYTES_OFFSET);

	(void)sig;
	(void)info;
	if (sw->magic1 == FP_XSTATE_MAGIC1)
		frame_xstate_size = sw->xstate_size;
}

/*
 * x86: bytes per save is the kernel's default user XSAVE size, which the
 * kernel itself writes into the signal frame of a thread that never asked
 * for AMX (fpstate->user_size), and which the CPUID leaf 0xd gives for what
 * XCR0 enables less AMX tile data. (The reader's own buffer, which it was
 * before, differs only with XSAVES or AMX, which TCG has neither of.)
 */
TEST_F_TIMEOUT(family, bytes_per_save_is_the_default_user_xstate, TEST_SECONDS)
{
	struct sigaction sa = { .sa_sigaction = note_xstate_size,
				.sa_flags = SA_SIGINFO };
	struct rvvstat_info info = { .size = sizeof(info) };
	int fd;

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, raise(SIGUSR1));
	ASSERT_LT(0, frame_xstate_size);
	ASSERT_LE(0, fd = device_open());
	ASSERT_EQ(0, ioctl(fd, RVVSTAT_IOC_GET_INFO, &info));
	EXPECT_EQ(frame_xstate_size, info.bytes_per_save);
	EXPECT_EQ(arch_state_bytes(arch_vlenb()), info.bytes_per_save);
	close(fd);
}

TEST_HARNESS_MAIN
