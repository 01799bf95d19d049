// SPDX-License-Identifier: GPL-2.0
/*
 * The rvvstat generic netlink family against malformed and hostile
 * requests, from a raw libnl client in the x86_64 guest: every bad request
 * gets its errno and an extended-ACK text, and dumps of many tasks come
 * whole and without duplicates while threads come and go.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rvvstat.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "kselftest_harness.h"
#include "guest-util.h"

#define TEST_SECONDS	300
#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* How a request ended: its errno, and what the ext-ACK said. */
struct outcome {
	int error;		/* 0 or -errno */
	char message[256];
	int missing;		/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
	int rows;		/* messages of a dump */
	pid_t tids[8192];	/* RVVSTAT_A_TID of each, while there is room */
	bool done;
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
	if (tb[RVVSTAT_A_TID] && o->rows < (int)(sizeof(o->tids) / sizeof(*o->tids)))
		o->tids[o->rows] = nla_get_u32(tb[RVVSTAT_A_TID]);
	o->rows++;
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
	int status;

	memset(o, 0, sizeof(*o));
	o->missing = -1;
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
	struct nl_msg *msg;

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

	msg = request(self->id, RVVSTAT_CMD_GET_TASKS, NLM_F_DUMP);
	ASSERT_EQ(0, nla_put_u32(msg, RVVSTAT_A_TGID, 0));
	ASSERT_EQ(0, send_and_collect(self->sock, msg, &self->o));
	EXPECT_EQ(-ERANGE, self->o.error);
	EXPECT_EQ(0, self->o.rows);

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

/* RESET needs CAP_NET_ADMIN; the reads do not. */
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
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
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

	for (i = 0; i < o->rows && i < 8192; i++)
		for (j = i + 1; j < o->rows && j < 8192; j++)
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

TEST_HARNESS_MAIN
