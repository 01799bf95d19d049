// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/rvvstat: the ioctl ABI of uapi/linux/rvvstat.h. Decodes and checks
 * what userspace sends, resolves ids in the caller's pid namespace, and hands
 * over to hints.c and accounting.c.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched/prio.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "core/accounting.h"
#include "arch/arch.h"
#include "core/control.h"
#include "expose/expose.h"
#include "expose/snapshot.h"
#include "hints/hints.h"
#include "expose/taskview.h"

#define RVV_HINT_FLAGS	(RVVSTAT_HINT_PROCESS | RVVSTAT_HINT_CPUS |	\
			 RVVSTAT_HINT_POLICY | RVVSTAT_HINT_ON_VECTOR_USE)
/* 65536 CPUs; sched_setaffinity(2) takes any length, but nothing needs more. */
#define RVV_CPUS_SIZE_MAX	8192U
/* SCHED_DEADLINE works in units of 2^10 ns (DL_SCALE). */
#define RVV_DL_RUNTIME_MIN	1024ULL

/*
 * Reads a size-first argument: the caller's size must cover the first
 * version (each struct's only one so far) and at most a page.
 */
static int rvv_arg_in(void *karg, size_t ksize, void __user *uarg, u64 *usize)
{
	u64 size;

	if (get_user(size, (u64 __user *)uarg))
		return -EFAULT;
	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < ksize)
		return -EINVAL;
	*usize = size;
	return copy_struct_from_user(karg, ksize, uarg, size);
}

/* Writes everything after the size, as far as both sides know it. */
static int rvv_arg_out(void __user *uarg, const void *karg, size_t ksize,
		       u64 usize)
{
	size_t skip = sizeof(u64), len = min_t(u64, ksize, usize);

	if (copy_to_user(uarg + skip, karg + skip, len - skip))
		return -EFAULT;
	return 0;
}

/* A thread (or, with @process, a whole process by tgid) the caller names. */
static struct task_struct *rvv_get_target(s32 id, bool process)
{
	struct task_struct *task;

	if (id < 0)
		return ERR_PTR(-EINVAL);
	rcu_read_lock();
	if (!id)
		task = process ? current->group_leader : current;
	else
		task = pid_task(find_vpid(id),
				process ? PIDTYPE_TGID : PIDTYPE_PID);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task ?: ERR_PTR(-ESRCH);
}

/*
 * The same, only if the caller may read it: else ESRCH, as /proc/PID under
 * hidepid=invisible. What the module knows of a thread (counters, hint) is
 * shown by this rule.
 */
static struct task_struct *rvv_get_readable_target(s32 id, bool process)
{
	struct task_struct *task = rvv_get_target(id, process);

	if (!IS_ERR(task) && !rvv_task_readable(task)) {
		put_task_struct(task);
		return ERR_PTR(-ESRCH);
	}
	return task;
}

static int rvv_cpus_from_user(const struct rvvstat_hint *h,
			      struct cpumask *cpus)
{
	void __user *ucpus = u64_to_user_ptr(h->cpus);
	size_t len = min_t(size_t, h->cpus_size, cpumask_size());
	int tail;

	if (!h->cpus_size || h->cpus_size > RVV_CPUS_SIZE_MAX)
		return -EINVAL;
	cpumask_clear(cpus);
	if (copy_from_user(cpumask_bits(cpus), ucpus, len))
		return -EFAULT;
	/* A CPU past the kernel's numbering cannot be online either. */
	tail = check_zeroed_user(ucpus + len, h->cpus_size - len);
	if (tail <= 0)
		return tail ?: -EINVAL;
	if (find_next_bit(cpumask_bits(cpus), len * BITS_PER_BYTE,
			  nr_cpu_ids) < len * BITS_PER_BYTE)
		return -EINVAL;
	if (cpumask_empty(cpus) || !cpumask_subset(cpus, cpu_online_mask))
		return -EINVAL;
	return 0;
}

/* The parameters sched_setattr(2) accepts for each policy. */
static int rvv_policy_from_user(const struct rvvstat_hint *h,
				struct sched_attr *attr)
{
	bool dl_set = h->dl_runtime || h->dl_deadline || h->dl_period;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sched_policy = h->policy;
	switch (h->policy) {
	case SCHED_NORMAL:
	case SCHED_BATCH:
	case SCHED_IDLE:
		/* The scheduler ignores nice under SCHED_IDLE: refuse one. */
		if (h->nice < MIN_NICE || h->nice > MAX_NICE ||
		    (h->policy == SCHED_IDLE && h->nice) ||
		    h->rt_priority || dl_set)
			return -EINVAL;
		attr->sched_nice = h->nice;
		return 0;
	case SCHED_FIFO:
	case SCHED_RR:
		if (h->rt_priority < 1 || h->rt_priority > MAX_RT_PRIO - 1 ||
		    h->nice || dl_set)
			return -EINVAL;
		attr->sched_priority = h->rt_priority;
		return 0;
	case SCHED_DEADLINE:
		/* The kernel checks the rest (bounds, bandwidth). */
		if (h->nice || h->rt_priority ||
		    h->dl_runtime < RVV_DL_RUNTIME_MIN ||
		    h->dl_deadline < h->dl_runtime ||
		    (h->dl_period && h->dl_period < h->dl_deadline))
			return -EINVAL;
		attr->sched_runtime = h->dl_runtime;
		attr->sched_deadline = h->dl_deadline;
		attr->sched_period = h->dl_period;
		return 0;
	default:
		return -EINVAL;
	}
}

static int rvv_request_from_user(const struct rvvstat_hint *h,
				 struct rvv_hint_request *req)
{
	int err;

	if ((h->flags & ~RVV_HINT_FLAGS) ||
	    !(h->flags & (RVVSTAT_HINT_CPUS | RVVSTAT_HINT_POLICY)))
		return -EINVAL;
	req->flags = h->flags & ~RVVSTAT_HINT_PROCESS;
	if (h->flags & RVVSTAT_HINT_CPUS) {
		err = rvv_cpus_from_user(h, req->cpus);
		if (err)
			return err;
	} else if (h->cpus || h->cpus_size) {
		return -EINVAL;
	}
	if (h->flags & RVVSTAT_HINT_POLICY) {
		err = rvv_policy_from_user(h, &req->attr);
		if (err)
			return err;
	} else if (h->policy || h->nice || h->rt_priority || h->dl_runtime ||
		   h->dl_deadline || h->dl_period) {
		return -EINVAL;
	}
	/* A deadline task must span its root domain, as sched_setattr(2) says. */
	if ((req->flags & RVVSTAT_HINT_CPUS) &&
	    (req->flags & RVVSTAT_HINT_POLICY) &&
	    req->attr.sched_policy == SCHED_DEADLINE)
		return -EINVAL;
	return 0;
}

/* Whether the backend sees first vector use, which ON_VECTOR_USE waits for. */
static bool rvv_vector_use_seen(void)
{
	struct rvvstat_info info = {};

	rvv_arch_info(&info);
	return info.features & RVVSTAT_FEATURE_VECTOR_USE;
}

static int rvv_ioctl_set_hint(struct file *file, void *arg)
{
	const struct rvvstat_hint *h = arg;
	bool process = h->flags & RVVSTAT_HINT_PROCESS;
	struct rvv_hint_request req;
	struct task_struct *target;
	int err;

	err = rvv_hint_request_alloc(&req);
	if (err)
		return err;
	err = rvv_request_from_user(h, &req);
	if (err)
		goto refused;
	/* Else the hint would wait for ever. */
	if ((req.flags & RVVSTAT_HINT_ON_VECTOR_USE) && !rvv_vector_use_seen()) {
		err = -EOPNOTSUPP;
		goto refused;
	}
	target = rvv_get_target(h->target, process);
	if (IS_ERR(target)) {
		err = PTR_ERR(target);
		goto refused;
	}
	err = rvv_hint_permitted(target, process, &req);
	/* rvv_hint_set() counts its own outcome. */
	if (!err)
		err = rvv_hint_set(target, process, &req);
	else
		rvv_hint_count_outcome(err);
	put_task_struct(target);
	goto out;
refused:
	rvv_hint_count_outcome(err);
out:
	rvv_hint_request_free(&req);
	return err;
}

static int rvv_hint_to_user(struct rvvstat_hint *h,
			    const struct rvv_hint_state *state)
{
	const struct rvv_hint_request *req = &state->req;
	size_t len = min_t(size_t, h->cpus_size, cpumask_size());
	void __user *ucpus = u64_to_user_ptr(h->cpus);

	h->flags = req->flags | (h->flags & RVVSTAT_HINT_PROCESS);
	h->policy = req->attr.sched_policy;
	h->nice = req->attr.sched_nice;
	h->rt_priority = req->attr.sched_priority;
	h->dl_runtime = req->attr.sched_runtime;
	h->dl_deadline = req->attr.sched_deadline;
	h->dl_period = req->attr.sched_period;
	h->applied = state->applied;
	h->last_error = state->last_error;
	if (!(req->flags & RVVSTAT_HINT_CPUS) || !ucpus) {
		h->cpus_size = 0;
		return 0;
	}
	/* As sched_getaffinity(2): room for every CPU number or nothing. */
	if (len * BITS_PER_BYTE < nr_cpu_ids)
		return -EINVAL;
	if (copy_to_user(ucpus, cpumask_bits(req->cpus), len))
		return -EFAULT;
	h->cpus_size = len;
	return 0;
}

/*
 * GET_HINT and CLEAR_HINT name a hint by target and the PROCESS flag only;
 * a hint to read is shown as its target's counters are.
 */
static struct task_struct *rvv_hint_owner(const struct rvvstat_hint *h,
					  bool to_read)
{
	bool process = h->flags & RVVSTAT_HINT_PROCESS;

	if (h->flags & ~RVVSTAT_HINT_PROCESS)
		return ERR_PTR(-EINVAL);
	return to_read ? rvv_get_readable_target(h->target, process) :
			 rvv_get_target(h->target, process);
}

static int rvv_ioctl_get_hint(struct file *file, void *arg)
{
	struct rvvstat_hint *h = arg;
	bool process = h->flags & RVVSTAT_HINT_PROCESS;
	struct task_struct *target = rvv_hint_owner(h, true);
	struct rvv_hint_state state;
	int err;

	if (IS_ERR(target))
		return PTR_ERR(target);
	err = rvv_hint_request_alloc(&state.req);
	if (!err)
		err = rvv_hint_get(target, process, &state);
	if (!err)
		err = rvv_hint_to_user(h, &state);
	rvv_hint_request_free(&state.req);
	put_task_struct(target);
	return err;
}

static int rvv_ioctl_clear_hint(struct file *file, void *arg)
{
	const struct rvvstat_hint *h = arg;
	bool process = h->flags & RVVSTAT_HINT_PROCESS;
	struct task_struct *target = rvv_hint_owner(h, false);
	int err;

	if (IS_ERR(target))
		return PTR_ERR(target);
	err = rvv_hint_may_change(target);
	if (!err)
		err = rvv_hint_clear(target, process);
	put_task_struct(target);
	return err;
}

static int rvv_ioctl_get_task_stats(struct file *file, void *arg)
{
	struct rvvstat_task_stats *ts = arg;
	struct rvv_task_snapshot *snap;
	struct task_struct *task;
	int i, err = 0;

	task = rvv_get_readable_target(ts->tid, false);
	if (IS_ERR(task))
		return PTR_ERR(task);
	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		err = -ENOMEM;
	else if (!rvv_snapshot_task_of(task, snap))
		err = -ESRCH;	/* not in the table: exiting, or it was full */
	if (!err) {
		ts->tgid = task_tgid_vnr(task);
		strscpy_pad(ts->comm, snap->comm, sizeof(ts->comm));
		ts->nr_counters = RVVSTAT_NR_COUNTERS;
		ts->reserved = 0;
		for (i = 0; i < RVVSTAT_NR_COUNTERS; i++)
			ts->counters[i] = snap->counts.c[i];
		for (i = 0; i < RVVSTAT_TASK_HIST_BUCKETS; i++)
			ts->switch_saved_hist[i] = snap->switch_saved_hist[i];
	}
	kfree(snap);
	put_task_struct(task);
	return err;
}

static int rvv_ioctl_get_info(struct file *file, void *arg)
{
	rvv_fill_info(arg);
	return 0;
}

static int rvv_ioctl_snapshot(struct file *file, void *arg)
{
	rvv_fill_snapshot(arg);
	return 0;
}

static int rvv_ioctl_reset(struct file *file, void *arg)
{
	return rvv_control_reset(file);
}

/* The command with the size its number carries masked out. */
#define RVV_CMD(cmd)	((cmd) & ~IOCSIZE_MASK)

/*
 * RVV_IOC_WRITE: the command changes state, so it needs the file opened
 * for writing, as a block device's ioctls do: the device's mode then says
 * who may read and who may change. RVV_IOC_OUT: the argument goes back to
 * the caller when the handler succeeds.
 */
#define RVV_IOC_WRITE	BIT(0)
#define RVV_IOC_OUT	BIT(1)

/* One row per command, as drm's ioctl descriptors. */
struct rvv_ioctl_desc {
	unsigned int cmd;	/* RVV_CMD() of its number */
	size_t size;		/* the module's argument struct; 0: none */
	unsigned int flags;	/* RVV_IOC_* */
	int (*handler)(struct file *file, void *arg);
};

#define RVV_IOCTL(name, type, fl, fn) \
	{ .cmd = RVV_CMD(RVVSTAT_IOC_##name), .size = type, .flags = fl, .handler = fn }

static const struct rvv_ioctl_desc rvv_ioctls[] = {
	RVV_IOCTL(GET_INFO, sizeof(struct rvvstat_info), RVV_IOC_OUT,
		  rvv_ioctl_get_info),
	RVV_IOCTL(SET_HINT, sizeof(struct rvvstat_hint), RVV_IOC_WRITE,
		  rvv_ioctl_set_hint),
	RVV_IOCTL(GET_HINT, sizeof(struct rvvstat_hint), RVV_IOC_OUT,
		  rvv_ioctl_get_hint),
	RVV_IOCTL(CLEAR_HINT, sizeof(struct rvvstat_hint), RVV_IOC_WRITE,
		  rvv_ioctl_clear_hint),
	RVV_IOCTL(GET_TASK_STATS, sizeof(struct rvvstat_task_stats), RVV_IOC_OUT,
		  rvv_ioctl_get_task_stats),
	RVV_IOCTL(SNAPSHOT, sizeof(struct rvvstat_snapshot), RVV_IOC_OUT,
		  rvv_ioctl_snapshot),
	RVV_IOCTL(RESET, 0, RVV_IOC_WRITE, rvv_ioctl_reset),
};

static const struct rvv_ioctl_desc *rvv_ioctl_find(unsigned int cmd)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rvv_ioctls); i++)
		if (rvv_ioctls[i].cmd == RVV_CMD(cmd))
			return &rvv_ioctls[i];
	return NULL;
}

static long rvv_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	const struct rvv_ioctl_desc *desc = rvv_ioctl_find(cmd);
	void __user *uarg = (void __user *)arg;
	/*
	 * The frequent small commands use the stack: under KASAN and kmemleak
	 * an allocation costs more than the whole command. Larger ones are
	 * allocated.
	 */
	union {
		struct rvvstat_info info;
		struct rvvstat_hint hint;
	} small;
	void *karg = &small;
	u64 usize;
	long err;

	if (!desc)
		return -ENOTTY;
	if ((desc->flags & RVV_IOC_WRITE) && !(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!desc->size)
		return desc->handler(file, NULL);
	/* copy_struct_from_user() below sets all desc->size bytes. */
	if (desc->size > sizeof(small)) {
		karg = kmalloc(desc->size, GFP_KERNEL);
		if (!karg)
			return -ENOMEM;
	}
	err = rvv_arg_in(karg, desc->size, uarg, &usize);
	if (err)
		goto out;
	err = desc->handler(file, karg);
	if (!err && (desc->flags & RVV_IOC_OUT))
		err = rvv_arg_out(uarg, karg, desc->size, usize);
out:
	if (karg != &small)
		kfree(karg);
	return err;
}

static const struct file_operations rvv_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = rvv_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice rvv_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = RVVSTAT_NAME,
	.fops = &rvv_fops,
	.mode = 0600,
};

int rvv_device_init(void)
{
	int err = misc_register(&rvv_misc);

	if (err)
		pr_err("cannot register /dev/%s (%d)\n",
		       RVVSTAT_NAME, err);
	return err;
}

void rvv_device_exit(void)
{
	misc_deregister(&rvv_misc);
}
