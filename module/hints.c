// SPDX-License-Identifier: GPL-2.0
/*
 * The hint table and the applying of hints.
 *
 * Entries are preallocated. A thread hint has one entry keyed by the thread;
 * a process hint has a template keyed by the group leader plus one entry per
 * thread it was applied to (or failed on), which holds that thread's baseline
 * (its affinity and policy before the hint, restored by CLEAR_HINT) and what
 * became of the hint there.
 *
 * Keys are task pointers, written under rvv_hints_lock: sched_process_free
 * (an RCU callback, before the task_struct can be reused) drops the entries
 * of the task it frees. Everything else, and every sleeping call, runs under
 * rvv_hints_mutex, which also serialises the ioctls with the worker.
 */
#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid_namespace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "arch.h"
#include "hints.h"

/* Threads awaiting the worker (first vector use, new thread of a process). */
#define RVV_HINT_QUEUE	128

struct rvv_hint {
	/* Under rvv_hints_lock. NULL: free. */
	struct task_struct *key;	/* the thread, or the group leader */
	bool process;			/* a process template */
	struct rvv_hint *template;	/* a thread entry made from it */
	const struct rvv_hint *counted_by;	/* whose "applied" counts it */
	/* The rest under rvv_hints_mutex. */
	pid_t pid;			/* key's tid (tgid), for the summary */
	struct rvv_hint_request req;	/* own request; unused if template */
	u64 version;			/* of req; 0 for template-made entries */
	u64 applied_version;		/* the request version in effect */
	u64 failed_version;		/* the version that last failed here */
	u64 set_ns;			/* boot time of a template's first set */
	cpumask_var_t baseline_cpus;
	struct sched_attr baseline_attr;
	u32 applied;			/* threads it reached */
	int last_error;
};

static DEFINE_SPINLOCK(rvv_hints_lock);
static DEFINE_MUTEX(rvv_hints_mutex);
static struct rvv_hint *rvv_hints;
static unsigned int rvv_hints_cap;
static unsigned int rvv_hints_high;	/* entries at or past it are free */
static unsigned int rvv_hints_live;	/* own hints and templates */
static u64 rvv_hints_version;
static struct rvv_hint_request rvv_hints_undo;	/* a replaced request */
static cpumask_var_t rvv_hints_scratch;

static struct task_struct *rvv_hint_queue[RVV_HINT_QUEUE];
static struct irq_work rvv_hint_irq_work;
static struct work_struct rvv_hint_work;

static atomic64_t rvv_hint_events[RVVSTAT_NR_HINT_EVENTS];

static void rvv_hint_event(enum rvvstat_hint_event ev)
{
	atomic64_inc(&rvv_hint_events[ev]);
}

void rvv_hint_count_outcome(int err)
{
	switch (err) {
	case 0:
		rvv_hint_event(RVVSTAT_HEV_APPLIED);
		break;
	case -EPERM:
		rvv_hint_event(RVVSTAT_HEV_REFUSED_PERM);
		break;
	case -ESRCH:
		rvv_hint_event(RVVSTAT_HEV_REFUSED_GONE);
		break;
	case -EINVAL:
		rvv_hint_event(RVVSTAT_HEV_REFUSED_INVALID);
		break;
	case -EBUSY:
		rvv_hint_event(RVVSTAT_HEV_REFUSED_BUSY);
		break;
	case -ENOSPC:
		rvv_hint_event(RVVSTAT_HEV_REFUSED_FULL);
		break;
	default:
		rvv_hint_event(RVVSTAT_HEV_REFUSED_OTHER);
	}
}

int rvv_hint_request_alloc(struct rvv_hint_request *req)
{
	memset(req, 0, sizeof(*req));
	return zalloc_cpumask_var(&req->cpus, GFP_KERNEL) ? 0 : -ENOMEM;
}

void rvv_hint_request_free(struct rvv_hint_request *req)
{
	free_cpumask_var(req->cpus);
}

static void rvv_hint_request_copy(struct rvv_hint_request *dst,
				  const struct rvv_hint_request *src)
{
	dst->flags = src->flags;
	cpumask_copy(dst->cpus, src->cpus);
	dst->attr = src->attr;
}

/* sched_getattr() as the kernel would answer it, to restore later. */
static void rvv_read_sched_attr(struct task_struct *p, struct sched_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->sched_policy = p->policy;
	if (p->policy == SCHED_DEADLINE) {
		attr->sched_runtime = p->dl.dl_runtime;
		attr->sched_deadline = p->dl.dl_deadline;
		attr->sched_period = p->dl.dl_period;
	} else if (p->policy == SCHED_FIFO || p->policy == SCHED_RR) {
		attr->sched_priority = p->rt_priority;
	} else {
		attr->sched_nice = task_nice(p);
		if (p->se.custom_slice)
			attr->sched_runtime = p->se.slice;
	}
}

static void rvv_read_cpus(struct task_struct *p, struct cpumask *cpus)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	cpumask_copy(cpus, &p->cpus_mask);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

/* Under rvv_hints_lock. */
static struct rvv_hint *rvv_hint_find(struct task_struct *key, bool process)
{
	unsigned int i;

	for (i = 0; i < rvv_hints_high; i++)
		if (rvv_hints[i].key == key && rvv_hints[i].process == process)
			return &rvv_hints[i];
	return NULL;
}

static struct rvv_hint *rvv_hint_lookup(struct task_struct *key, bool process)
{
	struct rvv_hint *e;
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	e = rvv_hint_find(key, process);
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
	return e;
}

/* Under rvv_hints_lock; a second release of the same entry does nothing. */
static void rvv_hint_release_locked(struct rvv_hint *e)
{
	if (!e->key)
		return;
	if (!e->template)
		rvv_hints_live--;
	e->key = NULL;
	e->template = NULL;
	while (rvv_hints_high && !rvv_hints[rvv_hints_high - 1].key)
		rvv_hints_high--;
}

static void rvv_hint_release(struct rvv_hint *e)
{
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	rvv_hint_release_locked(e);
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
}

/* Under rvv_hints_lock: @e, and if it is a process hint its thread entries. */
static void rvv_hint_release_all_locked(struct rvv_hint *e)
{
	unsigned int i;

	for (i = 0; e->process && i < rvv_hints_high; i++)
		if (rvv_hints[i].template == e)
			rvv_hint_release_locked(&rvv_hints[i]);
	rvv_hint_release_locked(e);
}

/*
 * Under rvv_hints_mutex (which alone hands out entries). NULL if the table is
 * full or the task already passed sched_process_free, which would never drop
 * the entry: its pid is detached before that, so check after publishing.
 */
static struct rvv_hint *rvv_hint_alloc(struct task_struct *key, bool process,
				       struct rvv_hint *template)
{
	struct rvv_hint *e = NULL;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	for (i = 0; i < rvv_hints_cap && !e; i++)
		if (!rvv_hints[i].key)
			e = &rvv_hints[i];
	if (e) {
		e->key = key;
		e->process = process;
		e->template = template;
		rvv_hints_high = max_t(unsigned int, rvv_hints_high,
				       e - rvv_hints + 1);
		if (!template)
			rvv_hints_live++;
		if (!pid_alive(key)) {
			rvv_hint_release_locked(e);
			e = ERR_PTR(-ESRCH);
		}
	}
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
	if (!e)
		return ERR_PTR(-ENOSPC);
	if (IS_ERR(e))
		return e;
	e->pid = process ? task_tgid_nr(key) : task_pid_nr(key);
	e->req.flags = 0;
	e->version = 0;
	e->applied_version = 0;
	e->failed_version = 0;
	e->applied = 0;
	e->counted_by = NULL;
	e->last_error = 0;
	e->set_ns = ktime_get_boottime_ns();
	rvv_read_cpus(key, e->baseline_cpus);
	rvv_read_sched_attr(key, &e->baseline_attr);
	return e;
}

/*
 * Puts @req into effect on @p, or nothing: a policy the scheduler refuses
 * undoes the affinity just set. Process context, rvv_hints_mutex held.
 */
static int rvv_hint_apply(struct task_struct *p,
			  const struct rvv_hint_request *req,
			  const struct cpumask *baseline)
{
	struct sched_attr attr = req->attr;
	int err;

	if (p->flags & PF_EXITING)
		return -ESRCH;
	/* A process's io_uring workers and the like are not ours to move. */
	if (p->flags & (PF_KTHREAD | PF_NO_SETAFFINITY))
		return -EINVAL;
	if (req->flags & RVVSTAT_HINT_CPUS) {
		if (!cpumask_subset(req->cpus, baseline))
			return -EINVAL;
		/* sched_setaffinity(): deadline tasks span their root domain. */
		if (p->policy == SCHED_DEADLINE)
			return -EBUSY;
		rvv_read_cpus(p, rvv_hints_scratch);
		err = set_cpus_allowed_ptr(p, req->cpus);
		if (err)
			return err;
	}
	if (req->flags & RVVSTAT_HINT_POLICY) {
		/* sched_setattr(): a deadline task may not have a narrowed mask. */
		if (attr.sched_policy == SCHED_DEADLINE &&
		    !cpumask_subset(cpu_active_mask, p->cpus_ptr))
			err = -EPERM;
		else
			err = sched_setattr_nocheck(p, &attr);
		if (err && (req->flags & RVVSTAT_HINT_CPUS))
			set_cpus_allowed_ptr(p, rvv_hints_scratch);
		if (err)
			return err;
	}
	return 0;
}

/* Back to the baseline: the policy first, as it may be a deadline one. */
static int rvv_hint_restore(struct rvv_hint *e)
{
	struct sched_attr attr = e->baseline_attr;
	struct task_struct *p = NULL;
	unsigned long flags;
	int err;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	if (e->key)
		p = tryget_task_struct(e->key);
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
	if (!p)
		return 0;
	if (p->sched_reset_on_fork)
		attr.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
	err = sched_setattr_nocheck(p, &attr);
	if (!err)
		err = set_cpus_allowed_ptr(p, e->baseline_cpus);
	put_task_struct(p);
	return err;
}

/*
 * The hint that covers @task, rvv_hints_mutex held: its own, else its
 * process's (@template); NULL if none. *@own is its entry, if it has one.
 */
static struct rvv_hint *rvv_hint_cover(struct task_struct *task,
				       struct rvv_hint **own,
				       struct rvv_hint **template)
{
	struct rvv_hint *src;
	unsigned long flags;

	lockdep_assert_held(&rvv_hints_mutex);
	spin_lock_irqsave(&rvv_hints_lock, flags);
	*own = rvv_hint_find(task, false);
	*template = rvv_hint_find(READ_ONCE(task->group_leader), true);
	spin_unlock_irqrestore(&rvv_hints_lock, flags);

	src = *own && !(*own)->template ? *own : *template;
	return src && src->version ? src : NULL;
}

/*
 * Applies to @task whatever hint is due and not yet in effect: its own, else
 * its process's. Returns what applying gave, 0 if nothing was due. A thread
 * a process hint failed on keeps its entry, to say so (rvv_hint_state()).
 */
static int rvv_hint_consider(struct task_struct *task)
{
	struct rvv_hint *own, *template, *src, *e;
	u64 version;
	int err;

	src = rvv_hint_cover(task, &own, &template);
	if (!src)
		return 0;
	if ((src->req.flags & RVVSTAT_HINT_ON_VECTOR_USE) &&
	    !rvv_arch_task_used_vector(task))
		return 0;
	version = src->version;
	if (own && own->applied_version == version)
		return 0;
	e = own;
	if (!e) {
		e = rvv_hint_alloc(task, false, template);
		if (IS_ERR(e)) {
			src->last_error = PTR_ERR(e);
			rvv_hint_count_outcome(src->last_error);
			return src->last_error;
		}
		/* A thread born after the hint starts from its creator's. */
		if (task->start_boottime > template->set_ns) {
			cpumask_copy(e->baseline_cpus, template->baseline_cpus);
			e->baseline_attr = template->baseline_attr;
		}
	}
	err = rvv_hint_apply(task, &src->req, e->baseline_cpus);
	src->last_error = err;
	rvv_hint_count_outcome(err);
	if (err) {
		e->failed_version = version;
		return err;
	}
	e->applied_version = version;
	if (e->counted_by != src) {
		e->counted_by = src;
		src->applied++;
	}
	return 0;
}

enum rvvstat_task_hint rvv_hint_state(pid_t tid, const struct task_struct *key)
{
	enum rvvstat_task_hint state = RVVSTAT_TASK_HINT_NONE;
	struct rvv_hint *own, *template, *src;
	struct task_struct *task;

	if (!READ_ONCE(rvv_hints_live))
		return state;
	/* Only the task of that tid is looked at: a freed one has no hint. */
	rcu_read_lock();
	task = pid_task(find_pid_ns(tid, &init_pid_ns), PIDTYPE_PID);
	if (task == key)
		get_task_struct(task);
	else
		task = NULL;
	rcu_read_unlock();
	if (!task)
		return state;
	mutex_lock(&rvv_hints_mutex);
	src = rvv_hint_cover(task, &own, &template);
	if (src && own && own->applied_version == src->version)
		state = RVVSTAT_TASK_HINT_APPLIED;
	else if (src && own && own->failed_version == src->version)
		state = RVVSTAT_TASK_HINT_FAILED;
	else if (src)
		state = RVVSTAT_TASK_HINT_WAITING;
	mutex_unlock(&rvv_hints_mutex);
	put_task_struct(task);
	return state;
}

/* Every thread of @leader's process, the leader first; each with a reference. */
static struct task_struct **rvv_grab_threads(struct task_struct *leader,
					     unsigned int *nr)
{
	unsigned int room = get_nr_threads(leader) + 16;
	struct task_struct **threads, *t;

	threads = kvmalloc_array(room, sizeof(*threads), GFP_KERNEL);
	if (!threads)
		return NULL;
	*nr = 0;
	threads[(*nr)++] = get_task_struct(leader);
	rcu_read_lock();
	/* Threads born after the walk are queued by rvv_hints_fork(). */
	for_each_thread(leader, t)
		if (t != leader && *nr < room)
			threads[(*nr)++] = get_task_struct(t);
	rcu_read_unlock();
	return threads;
}

static void rvv_put_threads(struct task_struct **threads, unsigned int nr)
{
	while (nr)
		put_task_struct(threads[--nr]);
	kvfree(threads);
}

/* The other threads of a process whose leader took the hint; errors are noted. */
static int rvv_hint_spread(struct task_struct *leader)
{
	struct task_struct **threads;
	unsigned int nr, i;

	threads = rvv_grab_threads(leader, &nr);
	if (!threads)
		return -ENOMEM;
	for (i = 1; i < nr; i++)
		rvv_hint_consider(threads[i]);
	rvv_put_threads(threads, nr);
	return 0;
}

/* Under rvv_hints_lock: a thread entry's owner, its own hint or a template. */
static void rvv_hint_set_template(struct rvv_hint *e, struct rvv_hint *template)
{
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	if (e->key && !e->template != !template)
		rvv_hints_live += template ? -1 : 1;
	if (e->key)
		e->template = template;
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
}

int rvv_hint_set(struct task_struct *target, bool process,
		 const struct rvv_hint_request *req)
{
	struct rvv_hint *e, *old_template = NULL;
	u64 old_version = 0, old_applied = 0;
	bool fresh, counted = false;
	unsigned long flags;
	int err;

	mutex_lock(&rvv_hints_mutex);
	e = rvv_hint_lookup(target, process);
	fresh = !e;
	if (fresh) {
		e = rvv_hint_alloc(target, process, NULL);
		if (IS_ERR(e)) {
			err = PTR_ERR(e);
			goto out;
		}
	} else {
		rvv_hint_request_copy(&rvv_hints_undo, &e->req);
		old_version = e->version;
		old_applied = e->applied_version;
		old_template = e->template;
	}
	err = -EINVAL;
	if ((req->flags & RVVSTAT_HINT_CPUS) &&
	    !cpumask_subset(req->cpus, e->baseline_cpus))
		goto undo;
	rvv_hint_request_copy(&e->req, req);
	e->version = ++rvv_hints_version;
	/* A thread hint outranks the process hint the thread had. */
	rvv_hint_set_template(e, NULL);
	err = rvv_hint_consider(target);
	counted = true;
	if (err)
		goto undo;
	if (process)
		rvv_hint_spread(target);
	rvv_hint_event(RVVSTAT_HEV_SET);
	goto out;
undo:
	if (fresh) {
		/* With the entry the failure left for the leader, if any. */
		spin_lock_irqsave(&rvv_hints_lock, flags);
		rvv_hint_release_all_locked(e);
		spin_unlock_irqrestore(&rvv_hints_lock, flags);
	} else {
		rvv_hint_request_copy(&e->req, &rvv_hints_undo);
		e->version = old_version;
		e->applied_version = old_applied;
		rvv_hint_set_template(e, old_template);
	}
out:
	mutex_unlock(&rvv_hints_mutex);
	if (err && !counted)
		rvv_hint_count_outcome(err);
	return err;
}

int rvv_hint_get(struct task_struct *target, bool process,
		 struct rvv_hint_state *state)
{
	struct rvv_hint *e;
	int err = -ENOENT;

	mutex_lock(&rvv_hints_mutex);
	e = rvv_hint_lookup(target, process);
	if (e && !e->template) {
		rvv_hint_request_copy(&state->req, &e->req);
		state->applied = e->applied;
		state->last_error = e->last_error;
		err = 0;
	}
	mutex_unlock(&rvv_hints_mutex);
	return err;
}

int rvv_hint_clear(struct task_struct *target, bool process)
{
	struct rvv_hint *e;
	unsigned int i;
	int err = 0;

	mutex_lock(&rvv_hints_mutex);
	e = rvv_hint_lookup(target, process);
	if (!e || e->template) {
		mutex_unlock(&rvv_hints_mutex);
		return -ENOENT;
	}
	/* A process hint's threads first; their entries point to it. */
	for (i = 0; process && i < rvv_hints_high; i++) {
		struct rvv_hint *t = &rvv_hints[i];

		if (READ_ONCE(t->template) != e)
			continue;
		if (t->applied_version && !err)
			err = rvv_hint_restore(t);
		rvv_hint_release(t);
	}
	if (!process && e->applied_version)
		err = rvv_hint_restore(e);
	rvv_hint_release(e);
	rvv_hint_event(RVVSTAT_HEV_CLEARED);
	mutex_unlock(&rvv_hints_mutex);
	return err;
}

/* Worker: every queued thread, with the reference the queuer took. */
static void rvv_hint_drain(struct work_struct *work)
{
	struct task_struct *task;
	unsigned int i;

	for (i = 0; i < RVV_HINT_QUEUE; i++) {
		task = xchg(&rvv_hint_queue[i], NULL);
		if (!task)
			continue;
		mutex_lock(&rvv_hints_mutex);
		rvv_hint_consider(task);
		mutex_unlock(&rvv_hints_mutex);
		put_task_struct(task);
	}
}

/* Hard IRQ: the first context from which a worker may be woken. */
static void rvv_hint_kick(struct irq_work *work)
{
	queue_work(system_unbound_wq, &rvv_hint_work);
}

/*
 * Any context, even a kprobe handler (NMI-like on riscv): no locks, no
 * allocation. @task is current or a task its creator still holds, so the
 * reference dropped when the queue is full is never the last one.
 */
static void rvv_hint_enqueue(struct task_struct *task)
{
	unsigned int i;

	get_task_struct(task);
	for (i = 0; i < RVV_HINT_QUEUE; i++) {
		if (!cmpxchg(&rvv_hint_queue[i], NULL, task)) {
			irq_work_queue(&rvv_hint_irq_work);
			return;
		}
	}
	put_task_struct(task);
	rvv_hint_event(RVVSTAT_HEV_DROPPED);
}

void rvv_hints_vector_use(struct task_struct *task)
{
	if (READ_ONCE(rvv_hints_live))
		rvv_hint_enqueue(task);
}

/* sched_process_fork: a new thread of a hinted process. */
void rvv_hints_fork(struct task_struct *child)
{
	struct rvv_hint *template;
	unsigned long flags;

	if (!READ_ONCE(rvv_hints_live) || child->group_leader == child)
		return;
	spin_lock_irqsave(&rvv_hints_lock, flags);
	template = rvv_hint_find(child->group_leader, true);
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
	if (template)
		rvv_hint_enqueue(child);
}

void rvv_hints_exec(struct task_struct *task, const struct linux_binprm *bprm)
{
}

void rvv_hints_task_free(struct task_struct *task)
{
	unsigned long flags;
	unsigned int i;

	if (!READ_ONCE(rvv_hints_live))
		return;
	spin_lock_irqsave(&rvv_hints_lock, flags);
	for (i = 0; i < rvv_hints_high; i++) {
		struct rvv_hint *e = &rvv_hints[i];

		if (e->key != task)
			continue;
		if (!e->template)
			rvv_hint_event(RVVSTAT_HEV_EXPIRED);
		rvv_hint_release_all_locked(e);
	}
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
}

void rvv_hints_snapshot(u64 events[RVVSTAT_NR_HINT_EVENTS],
			unsigned int *live)
{
	int i;

	for (i = 0; i < RVVSTAT_NR_HINT_EVENTS; i++)
		events[i] = atomic64_read(&rvv_hint_events[i]);
	*live = READ_ONCE(rvv_hints_live);
}

void rvv_hints_zero_events(void)
{
	int i;

	for (i = 0; i < RVVSTAT_NR_HINT_EVENTS; i++)
		atomic64_set(&rvv_hint_events[i], 0);
}

unsigned int rvv_hints_capacity(void)
{
	return rvv_hints_cap;
}

static const char *rvv_policy_name(unsigned int policy)
{
	static const char *const names[] = {
		[SCHED_NORMAL] = "normal", [SCHED_FIFO] = "fifo",
		[SCHED_RR] = "rr", [SCHED_BATCH] = "batch",
		[SCHED_IDLE] = "idle", [SCHED_DEADLINE] = "deadline",
	};

	return policy < ARRAY_SIZE(names) && names[policy] ? names[policy] : "?";
}

static void rvv_describe_request(struct seq_file *m,
				 const struct rvv_hint_request *req)
{
	const struct sched_attr *attr = &req->attr;

	if (req->flags & RVVSTAT_HINT_CPUS)
		seq_printf(m, " cpus %*pbl", cpumask_pr_args(req->cpus));
	if (req->flags & RVVSTAT_HINT_POLICY) {
		seq_printf(m, " policy %s", rvv_policy_name(attr->sched_policy));
		if (attr->sched_policy == SCHED_DEADLINE)
			seq_printf(m, " runtime %llu deadline %llu period %llu",
				   attr->sched_runtime, attr->sched_deadline,
				   attr->sched_period);
		else if (attr->sched_priority)
			seq_printf(m, " priority %u", attr->sched_priority);
		else
			seq_printf(m, " nice %d", attr->sched_nice);
	}
	seq_puts(m, req->flags & RVVSTAT_HINT_ON_VECTOR_USE ?
		 " at first vector use" : " now");
}

void rvv_hints_describe(struct seq_file *m)
{
	static const char *const names[] = RVVSTAT_HINT_EVENT_NAMES;
	u64 events[RVVSTAT_NR_HINT_EVENTS];
	unsigned int i, live;

	rvv_hints_snapshot(events, &live);
	seq_printf(m, "\nhints: %u of %u entries hold a hint\n", live,
		   rvv_hints_cap);
	for (i = 0; i < RVVSTAT_NR_HINT_EVENTS; i++)
		seq_printf(m, "%s%s %llu", i ? ", " : "  ", names[i], events[i]);
	seq_putc(m, '\n');
	mutex_lock(&rvv_hints_mutex);
	for (i = 0; i < rvv_hints_high; i++) {
		const struct rvv_hint *e = &rvv_hints[i];

		if (!READ_ONCE(e->key) || e->template || !e->version)
			continue;
		seq_printf(m, "  %s %d:", e->process ? "tgid" : "tid", e->pid);
		rvv_describe_request(m, &e->req);
		seq_printf(m, ", applied %u, last error %d\n", e->applied,
			   e->last_error);
	}
	mutex_unlock(&rvv_hints_mutex);
}

static void rvv_hints_free_table(void)
{
	unsigned int i;

	for (i = 0; i < rvv_hints_cap; i++) {
		rvv_hint_request_free(&rvv_hints[i].req);
		free_cpumask_var(rvv_hints[i].baseline_cpus);
	}
	kvfree(rvv_hints);
	rvv_hint_request_free(&rvv_hints_undo);
	free_cpumask_var(rvv_hints_scratch);
}

int rvv_hints_init(unsigned int capacity)
{
	unsigned int i;

	rvv_hints = kvcalloc(capacity, sizeof(*rvv_hints), GFP_KERNEL);
	if (!rvv_hints)
		return -ENOMEM;
	rvv_hints_cap = capacity;
	for (i = 0; i < capacity; i++)
		if (rvv_hint_request_alloc(&rvv_hints[i].req) ||
		    !zalloc_cpumask_var(&rvv_hints[i].baseline_cpus, GFP_KERNEL))
			goto nomem;
	if (rvv_hint_request_alloc(&rvv_hints_undo) ||
	    !zalloc_cpumask_var(&rvv_hints_scratch, GFP_KERNEL))
		goto nomem;
	init_irq_work(&rvv_hint_irq_work, rvv_hint_kick);
	INIT_WORK(&rvv_hint_work, rvv_hint_drain);
	rvv_hints_zero_events();
	return 0;
nomem:
	rvv_hints_free_table();
	return -ENOMEM;
}

void rvv_hints_exit(void)
{
	unsigned int i;

	irq_work_sync(&rvv_hint_irq_work);
	cancel_work_sync(&rvv_hint_work);
	for (i = 0; i < RVV_HINT_QUEUE; i++)
		if (rvv_hint_queue[i])
			put_task_struct(xchg(&rvv_hint_queue[i], NULL));
	rvv_hints_free_table();
}
