// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "rvvstat": the numbers of the debugfs files,
 * structured for tools (commands and attributes in uapi/linux/rvvstat.h).
 * Thin formatters over the accounting snapshots. Nothing here takes a lock
 * that the context-switch path takes, and a task dump resumes from a table
 * slot, so rows that come or go between messages are picked up or skipped
 * and no row is sent twice.
 */
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/threads.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "core/accounting.h"
#include "core/control.h"
#include "hints/hints.h"
#include "timing/latency.h"
#include "expose/expose.h"
#include "expose/snapshot.h"
#include "expose/taskview.h"

static struct genl_family rvv_nl_family;

/* One u64 per entry, type = entry + 1 (type 0 pads), as the uapi says. */
static int rvv_nl_put_array(struct sk_buff *skb, int type, const u64 *v,
			    int nr, bool skip_zero)
{
	struct nlattr *nest = nla_nest_start(skb, type);
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < nr; i++) {
		if (skip_zero && !v[i])
			continue;
		if (nla_put_u64_64bit(skb, i + 1, v[i], 0)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int rvv_nl_put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, RVVSTAT_A_PAD);
}

static int rvv_nl_put_lat_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, RVVSTAT_LAT_A_PAD);
}

/* A latency kind's row; with @buckets, the whole histogram. */
static int rvv_nl_put_latency(struct sk_buff *skb, enum rvvstat_latency kind,
			      const struct rvv_hist *h, bool buckets)
{
	static const struct {
		int attr;
		unsigned int permille;
	} pct[] = {
		{ RVVSTAT_LAT_A_P50_NS, 500 }, { RVVSTAT_LAT_A_P95_NS, 950 },
		{ RVVSTAT_LAT_A_P99_NS, 990 },
	};
	struct nlattr *nest = nla_nest_start(skb, RVVSTAT_A_LATENCY);
	int i;

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, RVVSTAT_LAT_A_KIND, kind) ||
	    nla_put_u32(skb, RVVSTAT_LAT_A_SUB_BITS, RVVSTAT_CPU_HIST_SUB_BITS) ||
	    rvv_nl_put_lat_u64(skb, RVVSTAT_LAT_A_COUNT, h->count) ||
	    rvv_nl_put_lat_u64(skb, RVVSTAT_LAT_A_SUM_NS, h->sum))
		goto cancel;
	if (h->count &&
	    (rvv_nl_put_lat_u64(skb, RVVSTAT_LAT_A_MIN_NS, h->min) ||
	     rvv_nl_put_lat_u64(skb, RVVSTAT_LAT_A_MAX_NS, h->max)))
		goto cancel;
	for (i = 0; h->count && i < ARRAY_SIZE(pct); i++)
		if (rvv_nl_put_lat_u64(skb, pct[i].attr,
				       rvv_hist_percentile_ns(h, pct[i].permille)))
			goto cancel;
	if (buckets && rvv_nl_put_array(skb, RVVSTAT_LAT_A_BUCKETS, h->buckets,
					RVVSTAT_CPU_HIST_BUCKETS, true))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* A reply to @info, headed like the request; NULL without memory. */
static struct sk_buff *rvv_nl_reply(struct genl_info *info, void **hdr)
{
	struct sk_buff *skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);

	if (!skb)
		return NULL;
	*hdr = genlmsg_put_reply(skb, info, &rvv_nl_family, 0,
				 info->genlhdr->cmd);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

/* Sends the reply, or frees it and reports why it could not be built. */
static int rvv_nl_send(struct sk_buff *skb, void *hdr, struct genl_info *info,
		       int err)
{
	if (err) {
		nlmsg_free(skb);
		GENL_SET_ERR_MSG(info, "rvvstat: the reply does not fit in a message");
		return err;
	}
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);
}

static int rvv_nl_get_info(struct sk_buff *request, struct genl_info *info)
{
	struct rvvstat_info in = {};
	struct sk_buff *skb;
	void *hdr;
	int err;

	rvv_fill_info(&in);
	skb = rvv_nl_reply(info, &hdr);
	if (!skb)
		return -ENOMEM;
	err = nla_put_u32(skb, RVVSTAT_A_ABI_VERSION, in.abi_version) ||
	      nla_put_u32(skb, RVVSTAT_A_BACKEND, in.backend) ||
	      nla_put_u32(skb, RVVSTAT_A_VECTOR_BITS, in.vector_bits) ||
	      nla_put_u32(skb, RVVSTAT_A_BYTES_PER_SAVE, in.bytes_per_save) ||
	      rvv_nl_put_u64(skb, RVVSTAT_A_FEATURES, in.features) ||
	      nla_put_u32(skb, RVVSTAT_A_NR_CPU_IDS, in.nr_cpu_ids) ||
	      nla_put_u32(skb, RVVSTAT_A_HINT_CAPACITY, in.hint_capacity) ?
	      -EMSGSIZE : 0;
	return rvv_nl_send(skb, hdr, info, err);
}

static int rvv_nl_put_summary(struct sk_buff *skb,
			      const struct rvvstat_snapshot *s,
			      struct rvv_hist *h)
{
	int kind;

	if (rvv_nl_put_u64(skb, RVVSTAT_A_TIME_NS, s->time_ns) ||
	    rvv_nl_put_u64(skb, RVVSTAT_A_ELAPSED_NS, s->elapsed_ns) ||
	    nla_put_u32(skb, RVVSTAT_A_TASKS_LIVE, s->tasks_live) ||
	    nla_put_u32(skb, RVVSTAT_A_TABLE_CAPACITY, s->table_capacity) ||
	    nla_put_u32(skb, RVVSTAT_A_HINTS_LIVE, s->hints_live) ||
	    rvv_nl_put_array(skb, RVVSTAT_A_COUNTERS, s->counters,
			     RVVSTAT_NR_COUNTERS, false) ||
	    rvv_nl_put_array(skb, RVVSTAT_A_EXITED, s->exited,
			     RVVSTAT_NR_COUNTERS, false) ||
	    rvv_nl_put_array(skb, RVVSTAT_A_CPU_EVENTS, s->cpu_events,
			     RVVSTAT_NR_CPU_EVENTS, false) ||
	    rvv_nl_put_array(skb, RVVSTAT_A_HINT_EVENTS, s->hint_events,
			     RVVSTAT_NR_HINT_EVENTS, false) ||
	    rvv_nl_put_u64(skb, RVVSTAT_A_BYTES, rvv_bytes_of(s->counters)))
		return -EMSGSIZE;
	for (kind = 0; kind < RVVSTAT_NR_LATENCIES; kind++) {
		rvv_latency_snapshot(kind, -1, h);
		if (rvv_nl_put_latency(skb, kind, h, false))
			return -EMSGSIZE;
	}
	return 0;
}

static int rvv_nl_get_summary(struct sk_buff *request, struct genl_info *info)
{
	struct rvvstat_snapshot *s = kzalloc(sizeof(*s), GFP_KERNEL);
	struct rvv_hist *h = kmalloc(sizeof(*h), GFP_KERNEL);
	struct sk_buff *skb = NULL;
	void *hdr;
	int err = -ENOMEM;

	if (s && h)
		skb = rvv_nl_reply(info, &hdr);
	if (skb) {
		rvv_fill_snapshot(s);
		err = rvv_nl_send(skb, hdr, info, rvv_nl_put_summary(skb, s, h));
	}
	kfree(h);
	kfree(s);
	return err;
}

/* A message of a dump, headed like its request. */
static void *rvv_nl_dump_put(struct sk_buff *skb, struct netlink_callback *cb)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &rvv_nl_family, NLM_F_MULTI,
			   genl_info_dump(cb)->genlhdr->cmd);
}

/* cb->args[0]: the next CPU to send. */
static int rvv_nl_dump_cpus(struct sk_buff *skb, struct netlink_callback *cb)
{
	u64 events[RVVSTAT_NR_CPU_EVENTS];
	struct rvv_counts c;
	unsigned int cpu;
	void *hdr;

	for (cpu = cb->args[0]; cpu < nr_cpu_ids; cpu++) {
		if (!cpu_possible(cpu))
			continue;
		rvv_snapshot_cpu(cpu, &c, events);
		hdr = rvv_nl_dump_put(skb, cb);
		if (!hdr)
			break;
		if (nla_put_u32(skb, RVVSTAT_A_CPU, cpu) ||
		    rvv_nl_put_array(skb, RVVSTAT_A_COUNTERS, c.c,
				     RVVSTAT_NR_COUNTERS, false) ||
		    rvv_nl_put_array(skb, RVVSTAT_A_CPU_EVENTS, events,
				     RVVSTAT_NR_CPU_EVENTS, false) ||
		    rvv_nl_put_u64(skb, RVVSTAT_A_BYTES, rvv_bytes_of(c.c))) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = cpu;
	return skb->len;
}

/* The task's saving switches by time: the task layout, every bucket. */
static int rvv_nl_put_task_hist(struct sk_buff *skb,
				const struct rvv_task_snapshot *snap)
{
	struct nlattr *nest = nla_nest_start(skb, RVVSTAT_A_LATENCY);
	u64 count = 0;
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < RVVSTAT_TASK_HIST_BUCKETS; i++)
		count += snap->switch_saved_hist[i];
	if (nla_put_u32(skb, RVVSTAT_LAT_A_KIND, RVVSTAT_LAT_SWITCH_SAVED) ||
	    nla_put_u32(skb, RVVSTAT_LAT_A_SUB_BITS, RVVSTAT_TASK_HIST_SUB_BITS) ||
	    rvv_nl_put_lat_u64(skb, RVVSTAT_LAT_A_COUNT, count) ||
	    rvv_nl_put_array(skb, RVVSTAT_LAT_A_BUCKETS, snap->switch_saved_hist,
			     RVVSTAT_TASK_HIST_BUCKETS, true)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The row of @snap, @task's, under the ids @tid and @tgid the caller sees. */
static int rvv_nl_put_task(struct sk_buff *skb, struct netlink_callback *cb,
			   const struct rvv_task_snapshot *snap,
			   struct task_struct *task, pid_t tid, pid_t tgid)
{
	void *hdr = rvv_nl_dump_put(skb, cb);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, RVVSTAT_A_TID, tid) ||
	    nla_put_u32(skb, RVVSTAT_A_TGID, tgid) ||
	    nla_put_string(skb, RVVSTAT_A_COMM, snap->comm) ||
	    (snap->cpu >= 0 && nla_put_u32(skb, RVVSTAT_A_CPU, snap->cpu)) ||
	    nla_put_u32(skb, RVVSTAT_A_TASK_HINT, rvv_hint_state(task)) ||
	    rvv_nl_put_array(skb, RVVSTAT_A_COUNTERS, snap->counts.c,
			     RVVSTAT_NR_COUNTERS, false) ||
	    rvv_nl_put_u64(skb, RVVSTAT_A_BYTES, rvv_bytes_of(snap->counts.c)) ||
	    rvv_nl_put_task_hist(skb, snap)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * cb->args[0]: the next table slot to look at. Only the threads the caller
 * may see (taskview.h), under their ids in its pid namespace, as is TGID.
 */
static int rvv_nl_dump_tasks(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct nlattr *tgid_attr = genl_info_dump(cb)->attrs[RVVSTAT_A_TGID];
	pid_t want = tgid_attr ? nla_get_u32(tgid_attr) : 0;
	unsigned int slot = cb->args[0];
	struct rvv_task_snapshot *snap;
	struct task_struct *task;
	pid_t tid, tgid;
	int full;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	for (; rvv_snapshot_task(&slot, snap); slot++) {
		task = rvv_task_view(snap, &tid, &tgid);
		if (!task)
			continue;
		full = (!want || tgid == want) &&
		       rvv_nl_put_task(skb, cb, snap, task, tid, tgid);
		put_task_struct(task);
		if (full)
			break;	/* this row opens the next message */
	}
	kfree(snap);
	cb->args[0] = slot;
	return skb->len;
}

static int rvv_nl_get_hist(struct sk_buff *request, struct genl_info *info)
{
	const struct nlattr *cpu_attr = info->attrs[RVVSTAT_A_CPU];
	enum rvvstat_latency kind;
	struct sk_buff *skb;
	struct rvv_hist *h;
	int cpu = -1, err;
	void *hdr;

	if (GENL_REQ_ATTR_CHECK(info, RVVSTAT_A_KIND)) {
		GENL_SET_ERR_MSG(info, "rvvstat: GET_HIST needs a KIND (enum rvvstat_latency)");
		return -EINVAL;
	}
	kind = nla_get_u32(info->attrs[RVVSTAT_A_KIND]);
	if (cpu_attr) {
		u32 asked = nla_get_u32(cpu_attr);

		if (asked >= nr_cpu_ids || !cpu_possible(asked)) {
			NL_SET_ERR_MSG_ATTR(info->extack, cpu_attr,
					    "rvvstat: no such CPU; omit the CPU for all of them");
			return -EINVAL;
		}
		cpu = asked;
	}
	h = kmalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	skb = rvv_nl_reply(info, &hdr);
	if (!skb) {
		kfree(h);
		return -ENOMEM;
	}
	rvv_latency_snapshot(kind, cpu, h);
	err = 0;
	if (nla_put_u32(skb, RVVSTAT_A_KIND, kind) ||
	    (cpu >= 0 && nla_put_u32(skb, RVVSTAT_A_CPU, cpu)) ||
	    rvv_nl_put_latency(skb, kind, h, true))
		err = -EMSGSIZE;
	kfree(h);
	return rvv_nl_send(skb, hdr, info, err);
}

static int rvv_nl_reset(struct sk_buff *request, struct genl_info *info)
{
	struct socket *sock = NETLINK_CB(request).sk->sk_socket;
	int err = rvv_control_reset(sock ? sock->file : NULL);

	if (err == -EPERM)
		GENL_SET_ERR_MSG(info,
				 "rvvstat: RESET needs CAP_SYS_ADMIN, also where the socket was opened");
	return err;
}

/* Every id a pid can have: another is an error, not an empty dump. */
static const struct netlink_range_validation rvv_nl_pid_range = {
	.min = 1,
	.max = PID_MAX_LIMIT - 1,
};

static const struct nla_policy rvv_nl_tasks_policy[RVVSTAT_A_TGID + 1] = {
	[RVVSTAT_A_TGID] = NLA_POLICY_FULL_RANGE(NLA_U32, &rvv_nl_pid_range),
};

static const struct nla_policy rvv_nl_hist_policy[RVVSTAT_A_KIND + 1] = {
	[RVVSTAT_A_CPU] = { .type = NLA_U32 },
	[RVVSTAT_A_KIND] = NLA_POLICY_MAX(NLA_U32, RVVSTAT_NR_LATENCIES - 1),
};

/* Commands without a policy take no attributes: any is refused. */
static const struct genl_ops rvv_nl_ops[] = {
	{ .cmd = RVVSTAT_CMD_GET_INFO, .doit = rvv_nl_get_info },
	{ .cmd = RVVSTAT_CMD_GET_SUMMARY, .doit = rvv_nl_get_summary },
	{ .cmd = RVVSTAT_CMD_GET_CPUS, .dumpit = rvv_nl_dump_cpus },
	{
		.cmd = RVVSTAT_CMD_GET_TASKS,
		.dumpit = rvv_nl_dump_tasks,
		.policy = rvv_nl_tasks_policy,
		.maxattr = ARRAY_SIZE(rvv_nl_tasks_policy) - 1,
	},
	{
		.cmd = RVVSTAT_CMD_GET_HIST,
		.doit = rvv_nl_get_hist,
		.policy = rvv_nl_hist_policy,
		.maxattr = ARRAY_SIZE(rvv_nl_hist_policy) - 1,
	},
	{
		.cmd = RVVSTAT_CMD_RESET,
		.doit = rvv_nl_reset,	/* checks its own permission */
	},
};

static struct genl_family rvv_nl_family __ro_after_init = {
	.name = RVVSTAT_GENL_NAME,
	.version = RVVSTAT_GENL_VERSION,
	.maxattr = RVVSTAT_A_MAX,
	.module = THIS_MODULE,
	.ops = rvv_nl_ops,
	.n_ops = ARRAY_SIZE(rvv_nl_ops),
};

int rvv_netlink_init(void)
{
	return genl_register_family(&rvv_nl_family);
}

void rvv_netlink_exit(void)
{
	genl_unregister_family(&rvv_nl_family);
}
