// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink client of the rvvstat family, on libnl-genl-3: one
 * request, then its replies parsed message by message until the ACK, the
 * end of a dump, or an error (with the kernel's extended-ACK text).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "client.h"
#include "diagnose.h"
#include "stats.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

struct rvv_client {
	struct nl_sock *sock;
	int family;
};

/* One request in flight: what parses each reply, and how it ended. */
struct rvv_request {
	const char *what;		/* the command, for messages */
	/* @tb holds the last of each type; @gnlh, for repeated ones. */
	int (*parse)(struct genlmsghdr *gnlh, struct nlattr **tb, void *arg,
		     struct rvv_error *err);
	void *arg;
	struct rvv_error *err;
	bool done;
	int status;
};

int rvv_client_open(struct rvv_client **client, struct rvv_error *err)
{
	struct rvv_client *c = calloc(1, sizeof(*c));
	int one = 1, status;

	if (!c)
		return rvv_fail(err, -ENOMEM, "no memory for a netlink client");
	c->sock = nl_socket_alloc();
	if (!c->sock) {
		free(c);
		return rvv_fail(err, -ENOMEM, "no memory for a netlink socket");
	}
	status = genl_connect(c->sock);
	if (status < 0) {
		rvv_client_close(c);
		return rvv_fail(err, -EIO, "cannot open a generic netlink socket: %s",
				nl_geterror(status));
	}
	/* Error messages from the kernel, after a capped copy of the request. */
	setsockopt(nl_socket_get_fd(c->sock), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(c->sock), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	c->family = genl_ctrl_resolve(c->sock, RVVSTAT_GENL_NAME);
	if (c->family < 0) {
		rvv_client_close(c);
		return rvv_diagnose_missing(err);
	}
	*client = c;
	return 0;
}

void rvv_client_close(struct rvv_client *c)
{
	if (!c)
		return;
	nl_socket_free(c->sock);
	free(c);
}

/* The NLMSGERR_ATTR_MSG of an error, or NULL if the kernel sent none. */
static const char *rvv_extack_message(const struct nlmsgerr *e)
{
	const struct nlmsghdr *nlh = (const void *)((const char *)e - NLMSG_HDRLEN);
	size_t offset = sizeof(*e);
	struct nlattr *attr;
	int rem, len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		offset += e->msg.nlmsg_len - NLMSG_HDRLEN;
	len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)NLMSG_ALIGN(offset);
	nla_for_each_attr(attr, (struct nlattr *)((char *)e + NLMSG_ALIGN(offset)),
			  len, rem) {
		if (nla_type(attr) == NLMSGERR_ATTR_MSG && nla_len(attr) > 0 &&
		    memchr(nla_data(attr), '\0', nla_len(attr)))
			return nla_data(attr);
	}
	return NULL;
}

static int rvv_on_error(struct sockaddr_nl *from, struct nlmsgerr *e, void *arg)
{
	struct rvv_request *r = arg;
	const char *text = rvv_extack_message(e);

	(void)from;
	r->done = true;
	r->status = e->error ? e->error : -EPROTO;
	if (text)
		rvv_fail(r->err, r->status, "%s: %s (%s)", r->what, text,
			 strerror(-r->status));
	else if (r->status == -EPERM)
		rvv_fail(r->err, r->status,
			 "%s: %s (needs CAP_SYS_ADMIN: run it as root)", r->what,
			 strerror(-r->status));
	else
		rvv_fail(r->err, r->status, "%s: %s", r->what,
			 strerror(-r->status));
	return NL_STOP;
}

static int rvv_on_ack(struct nl_msg *msg, void *arg)
{
	struct rvv_request *r = arg;

	(void)msg;
	r->done = true;
	return NL_STOP;
}

/* The end of a dump carries the error that cut it short, if one did. */
static int rvv_on_dump_done(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct rvv_request *r = arg;
	int error;

	r->done = true;
	if (nlmsg_datalen(nlh) >= (int)sizeof(error)) {
		memcpy(&error, nlmsg_data(nlh), sizeof(error));
		if (error < 0)
			r->status = rvv_fail(r->err, error, "%s: dump cut short: %s",
					     r->what, strerror(-error));
	}
	return NL_STOP;
}

static int rvv_on_valid(struct nl_msg *msg, void *arg)
{
	struct rvv_request *r = arg;
	struct nlattr *tb[RVVSTAT_A_MAX + 1];
	int status;

	if (!r->parse)
		return NL_OK;
	status = genlmsg_parse(nlmsg_hdr(msg), 0, tb, RVVSTAT_A_MAX, NULL);
	if (status < 0) {
		r->status = rvv_fail(r->err, -EBADMSG, "%s: malformed reply: %s",
				     r->what, nl_geterror(status));
		return NL_STOP;
	}
	status = r->parse(nlmsg_data(nlmsg_hdr(msg)), tb, r->arg, r->err);
	if (status) {
		r->status = status;
		return NL_STOP;
	}
	return NL_OK;
}

/* A request for @cmd; the caller adds attributes and runs it. */
static struct nl_msg *rvv_request_new(struct rvv_client *c, uint8_t cmd,
				      int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0,
				flags, cmd, RVVSTAT_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* Sends @msg (freed here) and parses every reply until the request ends. */
static int rvv_request_run(struct rvv_client *c, struct nl_msg *msg,
			   struct rvv_request *r)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int status;

	if (!cb) {
		nlmsg_free(msg);
		return rvv_fail(r->err, -ENOMEM, "%s: no memory", r->what);
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, rvv_on_valid, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, rvv_on_dump_done, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, rvv_on_ack, r);
	nl_cb_err(cb, NL_CB_CUSTOM, rvv_on_error, r);
	status = nl_send_auto(c->sock, msg);
	nlmsg_free(msg);
	if (status < 0) {
		nl_cb_put(cb);
		return rvv_fail(r->err, -EIO, "%s: cannot send: %s", r->what,
				nl_geterror(status));
	}
	while (!r->done && !r->status) {
		status = nl_recvmsgs(c->sock, cb);
		if (status < 0 && !r->status)
			r->status = rvv_fail(r->err, -EIO, "%s: %s", r->what,
					     nl_geterror(status));
	}
	nl_cb_put(cb);
	return r->status;
}

/* Runs a request whose only attribute, if any, is one u32. */
static int rvv_simple_request(struct rvv_client *c, uint8_t cmd, int flags,
			      int attr, uint32_t value, struct rvv_request *r)
{
	struct nl_msg *msg = rvv_request_new(c, cmd, flags);

	if (!msg || (attr && nla_put_u32(msg, attr, value))) {
		nlmsg_free(msg);
		return rvv_fail(r->err, -ENOMEM, "%s: cannot build the request",
				r->what);
	}
	return rvv_request_run(c, msg, r);
}


/*
 * A nest of u64, type = index + 1, into @v[@nr]; types past @nr (a newer
 * module) are ignored, a wrong size is a malformed reply.
 */
static int rvv_get_array(struct nlattr *nest, uint64_t *v, int nr,
			 struct rvv_error *err)
{
	struct nlattr *attr;
	int rem;

	if (!nest)
		return 0;
	nla_for_each_nested(attr, nest, rem) {
		int type = nla_type(attr);

		if (!type || type > nr)
			continue;
		if (nla_len(attr) != sizeof(uint64_t))
			return rvv_fail(err, -EBADMSG,
					"malformed reply: entry %d of a nest has %d bytes",
					type, nla_len(attr));
		v[type - 1] = nla_get_u64(attr);
	}
	return 0;
}

/*
 * Where an attribute of a reply goes in the struct it fills, as the kernel's
 * nla_policy says what each attribute is: one table per struct, so a new
 * attribute is a line. An attribute the reply lacks leaves its field as is.
 */
struct rvv_field {
	int attr;
	enum { RVV_U32, RVV_U64, RVV_U64_NEST, RVV_STRING } type;
	size_t offset, size;
};

#define RVV_FIELD(attr, type, st, member) \
	{ (attr), (type), offsetof(st, member), sizeof(((st *)0)->member) }

static void rvv_store(char *field, size_t size, uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	if (size == sizeof(v32))
		memcpy(field, &v32, sizeof(v32));
	else
		memcpy(field, &v, sizeof(v));
}

static int rvv_get_fields(struct nlattr **tb, const struct rvv_field *fields,
			  size_t nr, void *to, struct rvv_error *err)
{
	size_t i;
	int status;

	for (i = 0; i < nr; i++) {
		const struct rvv_field *f = &fields[i];
		struct nlattr *attr = tb[f->attr];
		char *field = (char *)to + f->offset;

		if (!attr)
			continue;
		if ((f->type == RVV_U32 && nla_len(attr) != sizeof(uint32_t)) ||
		    (f->type == RVV_U64 && nla_len(attr) != sizeof(uint64_t)))
			return rvv_fail(err, -EBADMSG,
					"malformed reply: attribute %d has %d bytes",
					f->attr, nla_len(attr));
		switch (f->type) {
		case RVV_U32:
			rvv_store(field, f->size, nla_get_u32(attr));
			break;
		case RVV_U64:
			rvv_store(field, f->size, nla_get_u64(attr));
			break;
		case RVV_U64_NEST:
			status = rvv_get_array(attr, (uint64_t *)field,
					       (int)(f->size / sizeof(uint64_t)), err);
			if (status)
				return status;
			break;
		case RVV_STRING:
			nla_strlcpy(field, attr, f->size);
			break;
		}
	}
	return 0;
}

#define RVV_GET_FIELDS(tb, fields, to, err) \
	rvv_get_fields(tb, fields, sizeof(fields) / sizeof(*(fields)), to, err)

static const struct rvv_field info_fields[] = {
	RVV_FIELD(RVVSTAT_A_ABI_VERSION, RVV_U32, struct rvv_info, abi_version),
	RVV_FIELD(RVVSTAT_A_BACKEND, RVV_U32, struct rvv_info, backend),
	RVV_FIELD(RVVSTAT_A_VECTOR_BITS, RVV_U32, struct rvv_info, vector_bits),
	RVV_FIELD(RVVSTAT_A_BYTES_PER_SAVE, RVV_U32, struct rvv_info, bytes_per_save),
	RVV_FIELD(RVVSTAT_A_FEATURES, RVV_U64, struct rvv_info, features),
	RVV_FIELD(RVVSTAT_A_NR_CPU_IDS, RVV_U32, struct rvv_info, nr_cpu_ids),
	RVV_FIELD(RVVSTAT_A_HINT_CAPACITY, RVV_U32, struct rvv_info, hint_capacity),
};

static const struct rvv_field latency_fields[] = {
	RVV_FIELD(RVVSTAT_LAT_A_KIND, RVV_U32, struct rvv_latency, kind),
	RVV_FIELD(RVVSTAT_LAT_A_SUB_BITS, RVV_U32, struct rvv_latency, sub_bits),
	RVV_FIELD(RVVSTAT_LAT_A_COUNT, RVV_U64, struct rvv_latency, count),
	RVV_FIELD(RVVSTAT_LAT_A_SUM_NS, RVV_U64, struct rvv_latency, sum_ns),
	RVV_FIELD(RVVSTAT_LAT_A_MIN_NS, RVV_U64, struct rvv_latency, min_ns),
	RVV_FIELD(RVVSTAT_LAT_A_MAX_NS, RVV_U64, struct rvv_latency, max_ns),
	RVV_FIELD(RVVSTAT_LAT_A_P50_NS, RVV_U64, struct rvv_latency, p50_ns),
	RVV_FIELD(RVVSTAT_LAT_A_P95_NS, RVV_U64, struct rvv_latency, p95_ns),
	RVV_FIELD(RVVSTAT_LAT_A_P99_NS, RVV_U64, struct rvv_latency, p99_ns),
	RVV_FIELD(RVVSTAT_LAT_A_BUCKETS, RVV_U64_NEST, struct rvv_latency, buckets),
};

static const struct rvv_field summary_fields[] = {
	RVV_FIELD(RVVSTAT_A_TIME_NS, RVV_U64, struct rvv_summary, time_ns),
	RVV_FIELD(RVVSTAT_A_ELAPSED_NS, RVV_U64, struct rvv_summary, elapsed_ns),
	RVV_FIELD(RVVSTAT_A_TASKS_LIVE, RVV_U32, struct rvv_summary, tasks_live),
	RVV_FIELD(RVVSTAT_A_TABLE_CAPACITY, RVV_U32, struct rvv_summary, table_capacity),
	RVV_FIELD(RVVSTAT_A_HINTS_LIVE, RVV_U32, struct rvv_summary, hints_live),
	RVV_FIELD(RVVSTAT_A_BYTES, RVV_U64, struct rvv_summary, bytes),
	RVV_FIELD(RVVSTAT_A_COUNTERS, RVV_U64_NEST, struct rvv_summary, counters),
	RVV_FIELD(RVVSTAT_A_EXITED, RVV_U64_NEST, struct rvv_summary, exited),
	RVV_FIELD(RVVSTAT_A_CPU_EVENTS, RVV_U64_NEST, struct rvv_summary, cpu_events),
	RVV_FIELD(RVVSTAT_A_HINT_EVENTS, RVV_U64_NEST, struct rvv_summary, hint_events),
};

/* A task's histogram: the per-task layout, a bucket per power of two. */
static const struct rvv_field task_hist_fields[] = {
	RVV_FIELD(RVVSTAT_LAT_A_COUNT, RVV_U64, struct rvv_task_row, switch_saved_count),
	RVV_FIELD(RVVSTAT_LAT_A_BUCKETS, RVV_U64_NEST, struct rvv_task_row, switch_saved_hist),
};

static const struct rvv_field cpu_fields[] = {
	RVV_FIELD(RVVSTAT_A_CPU, RVV_U32, struct rvv_cpu_row, cpu),
	RVV_FIELD(RVVSTAT_A_BYTES, RVV_U64, struct rvv_cpu_row, bytes),
	RVV_FIELD(RVVSTAT_A_COUNTERS, RVV_U64_NEST, struct rvv_cpu_row, counters),
	RVV_FIELD(RVVSTAT_A_CPU_EVENTS, RVV_U64_NEST, struct rvv_cpu_row, cpu_events),
};

static const struct rvv_field task_fields[] = {
	RVV_FIELD(RVVSTAT_A_TID, RVV_U32, struct rvv_task_row, tid),
	RVV_FIELD(RVVSTAT_A_TGID, RVV_U32, struct rvv_task_row, tgid),
	RVV_FIELD(RVVSTAT_A_COMM, RVV_STRING, struct rvv_task_row, comm),
	RVV_FIELD(RVVSTAT_A_BYTES, RVV_U64, struct rvv_task_row, bytes),
	RVV_FIELD(RVVSTAT_A_CPU, RVV_U32, struct rvv_task_row, cpu),
	RVV_FIELD(RVVSTAT_A_TASK_HINT, RVV_U32, struct rvv_task_row, hint),
	RVV_FIELD(RVVSTAT_A_COUNTERS, RVV_U64_NEST, struct rvv_task_row, counters),
};

static int rvv_parse_info(struct genlmsghdr *gnlh, struct nlattr **tb,
			  void *arg, struct rvv_error *err)
{
	(void)gnlh;
	return RVV_GET_FIELDS(tb, info_fields, arg, err);
}

int rvv_client_get_info(struct rvv_client *c, struct rvv_info *info,
			struct rvv_error *err)
{
	struct rvv_request r = {
		.what = "info", .parse = rvv_parse_info, .arg = info, .err = err,
	};

	memset(info, 0, sizeof(*info));
	return rvv_simple_request(c, RVVSTAT_CMD_GET_INFO, NLM_F_ACK, 0, 0, &r);
}

static int rvv_parse_latency(struct nlattr *nest, struct rvv_latency *lat,
			     struct rvv_error *err)
{
	struct nlattr *tb[RVVSTAT_LAT_A_MAX + 1];

	if (nla_parse_nested(tb, RVVSTAT_LAT_A_MAX, nest, NULL) < 0)
		return rvv_fail(err, -EBADMSG, "malformed reply: latency nest");
	return RVV_GET_FIELDS(tb, latency_fields, lat, err);
}

static int rvv_parse_summary(struct genlmsghdr *gnlh, struct nlattr **tb,
			     void *arg, struct rvv_error *err)
{
	struct rvv_summary *s = arg;
	struct rvv_latency lat;
	struct nlattr *attr;
	int rem, status;

	status = RVV_GET_FIELDS(tb, summary_fields, s, err);
	if (status)
		return status;
	/* One latency nest per kind, repeated at the top level. */
	nla_for_each_attr(attr, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(attr) != RVVSTAT_A_LATENCY)
			continue;
		memset(&lat, 0, sizeof(lat));
		status = rvv_parse_latency(attr, &lat, err);
		if (status)
			return status;
		if (lat.kind < RVVSTAT_NR_LATENCIES)
			s->latency[lat.kind] = lat;
	}
	return 0;
}

int rvv_client_get_summary(struct rvv_client *c, struct rvv_summary *s,
			   struct rvv_error *err)
{
	struct rvv_request r = {
		.what = "summary", .parse = rvv_parse_summary, .arg = s,
		.err = err,
	};

	memset(s, 0, sizeof(*s));
	return rvv_simple_request(c, RVVSTAT_CMD_GET_SUMMARY, NLM_F_ACK, 0, 0,
				  &r);
}

/* A dump's callback and its argument, for the parse of each row. */
struct rvv_dump {
	union {
		rvv_cpu_fn cpu;
		rvv_task_fn task;
	} fn;
	void *arg;
};

static int rvv_parse_cpu(struct genlmsghdr *gnlh, struct nlattr **tb,
			 void *arg, struct rvv_error *err)
{
	struct rvv_dump *d = arg;
	struct rvv_cpu_row row = { 0 };
	int status;

	(void)gnlh;
	if (!tb[RVVSTAT_A_CPU])
		return rvv_fail(err, -EBADMSG, "cpus: a row without a CPU number");
	status = RVV_GET_FIELDS(tb, cpu_fields, &row, err);
	return status ? status : d->fn.cpu(&row, d->arg);
}

int rvv_client_dump_cpus(struct rvv_client *c, rvv_cpu_fn fn, void *arg,
			 struct rvv_error *err)
{
	struct rvv_dump d = { .fn.cpu = fn, .arg = arg };
	struct rvv_request r = {
		.what = "cpus", .parse = rvv_parse_cpu, .arg = &d, .err = err,
	};

	return rvv_simple_request(c, RVVSTAT_CMD_GET_CPUS, NLM_F_DUMP, 0, 0, &r);
}

/* A task's histogram, and its p99 (stats.c). */
static int rvv_task_histogram(struct nlattr *nest, struct rvv_task_row *row,
			       struct rvv_error *err)
{
	struct nlattr *tb[RVVSTAT_LAT_A_MAX + 1], *sub_bits;
	int status;

	if (nla_parse_nested(tb, RVVSTAT_LAT_A_MAX, nest, NULL) < 0)
		return rvv_fail(err, -EBADMSG, "tasks: malformed task histogram");
	sub_bits = tb[RVVSTAT_LAT_A_SUB_BITS];
	if (!sub_bits || nla_len(sub_bits) != sizeof(uint32_t) ||
	    nla_get_u32(sub_bits) != RVVSTAT_TASK_HIST_SUB_BITS)
		return rvv_fail(err, -EBADMSG, "tasks: malformed task histogram");
	status = RVV_GET_FIELDS(tb, task_hist_fields, row, err);
	if (status)
		return status;
	row->switch_saved_p99_ns = rvv_hist_percentile_ns(row->switch_saved_hist,
							  RVVSTAT_TASK_HIST_BUCKETS,
							  RVVSTAT_TASK_HIST_SUB_BITS, 990);
	return 0;
}

static int rvv_parse_task(struct genlmsghdr *gnlh, struct nlattr **tb,
			  void *arg, struct rvv_error *err)
{
	struct rvv_dump *d = arg;
	/* CPU and hint since ABI 6: an older module sends neither. */
	struct rvv_task_row row = { .cpu = -1 };
	int status;

	(void)gnlh;
	if (!tb[RVVSTAT_A_TID])
		return rvv_fail(err, -EBADMSG, "tasks: a row without a thread id");
	status = RVV_GET_FIELDS(tb, task_fields, &row, err);
	if (!status && tb[RVVSTAT_A_LATENCY])
		status = rvv_task_histogram(tb[RVVSTAT_A_LATENCY], &row, err);
	return status ? status : d->fn.task(&row, d->arg);
}

int rvv_client_dump_tasks(struct rvv_client *c, uint32_t tgid, rvv_task_fn fn,
			  void *arg, struct rvv_error *err)
{
	struct rvv_dump d = { .fn.task = fn, .arg = arg };
	struct rvv_request r = {
		.what = "tasks", .parse = rvv_parse_task, .arg = &d, .err = err,
	};

	return rvv_simple_request(c, RVVSTAT_CMD_GET_TASKS, NLM_F_DUMP,
				  tgid ? RVVSTAT_A_TGID : 0, tgid, &r);
}

static int rvv_parse_hist(struct genlmsghdr *gnlh, struct nlattr **tb,
			  void *arg, struct rvv_error *err)
{
	(void)gnlh;
	if (!tb[RVVSTAT_A_LATENCY])
		return rvv_fail(err, -EBADMSG, "hist: a reply without a histogram");
	return rvv_parse_latency(tb[RVVSTAT_A_LATENCY], arg, err);
}

int rvv_client_get_hist(struct rvv_client *c, uint32_t kind, int cpu,
			struct rvv_latency *hist, struct rvv_error *err)
{
	struct rvv_request r = {
		.what = "hist", .parse = rvv_parse_hist, .arg = hist, .err = err,
	};
	struct nl_msg *msg = rvv_request_new(c, RVVSTAT_CMD_GET_HIST, NLM_F_ACK);

	memset(hist, 0, sizeof(*hist));
	if (!msg || nla_put_u32(msg, RVVSTAT_A_KIND, kind) ||
	    (cpu >= 0 && nla_put_u32(msg, RVVSTAT_A_CPU, cpu))) {
		nlmsg_free(msg);
		return rvv_fail(err, -ENOMEM, "hist: cannot build the request");
	}
	return rvv_request_run(c, msg, &r);
}

int rvv_client_reset(struct rvv_client *c, struct rvv_error *err)
{
	struct rvv_request r = { .what = "reset", .err = err };

	return rvv_simple_request(c, RVVSTAT_CMD_RESET, NLM_F_ACK, 0, 0, &r);
}
