// SPDX-License-Identifier: GPL-2.0
/*
 * The hint table and the applying of hints.
 *
 * Entries are preallocated and found by key through a hash of the task
 * pointer, so fork and exit cost the same however many hints are live. A
 * thread hint has one entry keyed by the thread; a process hint has a
 * template keyed by the group leader plus one entry per thread it was
 * applied to (or failed on), listed on the template, which holds that
 * thread's baseline (its affinity and policy before the hint), what the hint
 * set there (for CLEAR_HINT) and what became of the hint there.
 *
 * A hint keeps the credentials of whoever set it: every application, at
 * SET, at first vector use or to a new thread, runs with them and changes
 * the thread through sched.c, the kernel's own syscall paths, which
 * decide against the thread as it is then (rules.c checks early); the
 * threads that wait for an application wait in queue.c.
 *
 * One user cannot fill the table for everyone: entries are charged to the
 * real uid of whoever set the hint (a process hint's thread entries too),
 * and a user may hold a quarter of the table; all users together may hold
 * three quarters, the rest is for setters with CAP_SYS_NICE, who are not
 * charged. Entries go back when their hint or thread ends.
 *
 * Keys are task pointers, written under rvv_hints_lock: sched_process_free
 * (an RCU callback, before the task_struct can be reused) drops the entries
 * of the task it frees. Everything else, and every sleeping call, runs under
 * rvv_hints_mutex, which also serialises the ioctls with the worker. A task
 * dump and the summary only read, under rvv_hints_lock: what they read is
 * written under it too, or is one word (WRITE_ONCE()).
 */
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "arch/arch.h"
#include "hints/internal.h"
#include "hints/hints.h"
#include "core/threads.h"

struct rvv_hint {
	/* Under rvv_hints_lock. NULL: free, and node is on the free list. */
	struct task_struct *key;	/* the thread, or the group leader */
	bool process;			/* a process template */
	struct rvv_hint *template;	/* a thread entry made from it */
	struct hlist_node node;		/* in its key's bucket */
	struct list_head threads;	/* a template's thread entries */
	struct list_head sibling;	/* in its template's threads */
	const struct rvv_hint *counted_by;	/* whose "applied" counts it */
	const struct cred *cred;	/* who set req; NULL if template-made */
	struct rvv_hint_user *charged;	/* the share it counts in, or NULL */
	pid_t pid;			/* key's tid (tgid), for the summary */
	struct rvv_hint_request req;	/* own request; unused if template */
	u64 version;			/* of req; 0 for template-made entries */
	/* The rest under rvv_hints_mutex, words read under rvv_hints_lock. */
	u64 applied_version;		/* the request version in effect */
	u64 failed_version;		/* the version that last failed here */
	u64 set_ns;			/* boot time of a template's first set */
	cpumask_var_t baseline_cpus;
	struct sched_attr baseline_attr;
	u32 touched;			/* RVVSTAT_HINT_CPUS/POLICY changed */
	cpumask_var_t applied_cpus;	/* the mask the hint last set */
	struct sched_attr applied_attr;	/* the policy the hint last set */
	u32 applied;			/* threads it reached */
	int last_error;
};

/* A user holding entries, under rvv_hints_lock; one per entry at most. */
struct rvv_hint_user {
	kuid_t uid;
	unsigned int entries;
	struct hlist_node node;		/* in its uid's bucket, or free */
};

/*
 * Lock order, outermost first:
 *   rvv_hints_mutex, taken only by the ioctls and the hint worker, with
 *     nothing else held (but the worker's work): a task dump, under
 *     genl_mutex, and the summary, under its seq_file's lock, read under
 *     rvv_hints_lock instead. So no cycle can close through it, whatever
 *     the kernel takes under it
 *   -> whatever the kernel's sched_setaffinity() and sched_setattr() take,
 *      called under it: cpuset_mutex (sched_setattr() to or from
 *      SCHED_DEADLINE), callback_lock, p->pi_lock, the runqueue locks and
 *      a CPU's stopper lock (a migration), and slab/KASAN locks (kvmalloc)
 *   -> rvv_hints_lock (irqsave; innermost: nothing is taken under it but
 *      put_cred()'s RCU callback queueing)
 * So nothing that holds cpuset_mutex, cpu_hotplug_lock or a scheduler lock
 * may take rvv_hints_mutex: event handlers only queue (queue.c).
 */
static DEFINE_SPINLOCK(rvv_hints_lock);
static DEFINE_MUTEX(rvv_hints_mutex);
static struct rvv_hint *rvv_hints;
static unsigned int rvv_hints_cap;
static struct hlist_head *rvv_hint_buckets;	/* by key, hash_ptr() */
static unsigned int rvv_hint_bits;
static HLIST_HEAD(rvv_hint_free);
static struct rvv_hint_user *rvv_hint_users;
static struct hlist_head *rvv_hint_user_buckets;	/* by uid */
static HLIST_HEAD(rvv_hint_user_free);
static unsigned int rvv_hints_charged;	/* entries of all charged users */
static unsigned int rvv_hints_live;	/* own hints and templates */
static u64 rvv_hints_version;
static struct rvv_hint_request rvv_hints_undo;	/* a replaced request */
/* Scratch mask for applying and restoring, under rvv_hints_mutex. */
static cpumask_var_t rvv_cpus_before;

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
	case -EDQUOT:
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

static struct hlist_head *rvv_hint_bucket(const struct task_struct *key)
{
	return &rvv_hint_buckets[hash_ptr(key, rvv_hint_bits)];
}

/* Under rvv_hints_lock. */
static struct rvv_hint *rvv_hint_find(struct task_struct *key, bool process)
{
	struct rvv_hint *e;

	hlist_for_each_entry(e, rvv_hint_bucket(key), node)
		if (e->key == key && e->process == process)
			return e;
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

/*
 * Under rvv_hints_lock; a second release of the same entry does nothing.
 * Its other fields stay as they were until rvv_hint_alloc() hands it out.
 */
static void rvv_hint_release_locked(struct rvv_hint *e)
{
	if (!e->key)
		return;
	if (e->template)
		list_del_init(&e->sibling);
	else
		rvv_hints_live--;
	hlist_del(&e->node);
	hlist_add_head(&e->node, &rvv_hint_free);
	e->key = NULL;
	e->template = NULL;
	if (e->charged && !--e->charged->entries) {
		hlist_del(&e->charged->node);
		hlist_add_head(&e->charged->node, &rvv_hint_user_free);
	}
	if (e->charged)
		rvv_hints_charged--;
	e->charged = NULL;
	if (e->cred)
		put_cred(e->cred);
	e->cred = NULL;
}

/* Under rvv_hints_lock: @e, and if it is a process hint its thread entries. */
static void rvv_hint_release_all_locked(struct rvv_hint *e)
{
	struct rvv_hint *t, *next;

	if (e->process)
		list_for_each_entry_safe(t, next, &e->threads, sibling)
			rvv_hint_release_locked(t);
	rvv_hint_release_locked(e);
}

/* Whether @cred's entries are charged: not with CAP_SYS_NICE. */
static bool rvv_hint_chargeable(const struct cred *cred)
{
	const struct cred *caller = override_creds(cred);
	bool capable = ns_capable_noaudit(&init_user_ns, CAP_SYS_NICE);

	revert_creds(caller);
	return !capable;
}

/*
 * Under rvv_hints_lock: one more entry for @uid, or -EDQUOT past its share
 * or -ENOSPC past what all users may hold.
 */
static struct rvv_hint_user *rvv_hint_charge_locked(kuid_t uid)
{
	struct hlist_head *bucket;
	struct rvv_hint_user *u;

	if (rvv_hints_charged >= rvv_hints_cap - rvv_hints_cap / 4)
		return ERR_PTR(-ENOSPC);
	bucket = &rvv_hint_user_buckets[hash_32(__kuid_val(uid), rvv_hint_bits)];
	hlist_for_each_entry(u, bucket, node)
		if (uid_eq(u->uid, uid))
			goto found;
	u = hlist_entry(rvv_hint_user_free.first, struct rvv_hint_user, node);
	hlist_del(&u->node);
	hlist_add_head(&u->node, bucket);
	u->uid = uid;
	u->entries = 0;
found:
	if (u->entries >= rvv_hints_cap / 4)
		return ERR_PTR(-EDQUOT);
	u->entries++;
	rvv_hints_charged++;
	return u;
}

/*
 * Under rvv_hints_mutex (which alone hands out entries). -ENOSPC if the table
 * is full, -EDQUOT past the setter's share, -ESRCH if the task already passed
 * sched_process_free, which would never drop the entry: its pid is detached
 * before that, so check after publishing. -EEXIST if @key has a process
 * template already: look it up again.
 */
static struct rvv_hint *rvv_hint_alloc(struct task_struct *key, bool process,
				       struct rvv_hint *template,
				       const struct cred *setter)
{
	struct rvv_hint_user *charged = NULL;
	bool chargeable = rvv_hint_chargeable(setter);
	struct rvv_hint *e = NULL;
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	if (template && !template->key) {
		e = ERR_PTR(-ESRCH);	/* the process hint ended meanwhile */
	} else if (process && rvv_hint_find(key, true)) {
		/* Moved here meanwhile from the main thread an exec replaced. */
		e = ERR_PTR(-EEXIST);
	} else if (!hlist_empty(&rvv_hint_free) && chargeable) {
		charged = rvv_hint_charge_locked(setter->uid);
		if (IS_ERR(charged))
			e = ERR_CAST(charged);
	}
	if (!e && !hlist_empty(&rvv_hint_free)) {
		e = hlist_entry(rvv_hint_free.first, struct rvv_hint, node);
		hlist_del(&e->node);
		hlist_add_head(&e->node, rvv_hint_bucket(key));
		e->key = key;
		e->process = process;
		e->template = template;
		e->charged = charged;
		/* What a reader under the lock takes for a hint of this key. */
		e->pid = process ? task_tgid_nr(key) : task_pid_nr(key);
		e->req.flags = 0;
		e->version = 0;
		e->applied_version = 0;
		e->failed_version = 0;
		e->applied = 0;
		e->last_error = 0;
		if (template)
			list_add(&e->sibling, &template->threads);
		else
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
	e->counted_by = NULL;
	e->touched = 0;
	e->set_ns = ktime_get_boottime_ns();
	rvv_sched_read_cpus(key, e->baseline_cpus);
	rvv_sched_read_attr(key, &e->baseline_attr);
	return e;
}

/* The credentials a hint was set with, referenced; NULL if it ended. */
static const struct cred *rvv_hint_setter(struct rvv_hint *src)
{
	const struct cred *cred = NULL;
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	if (src->key && src->cred)
		cred = get_cred(src->cred);
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
	return cred;
}

/* Replaces who set @e's request; takes over the reference to @cred. */
static void rvv_hint_set_setter(struct rvv_hint *e, const struct cred *cred)
{
	const struct cred *old;
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	old = e->cred;
	e->cred = e->key ? cred : NULL;
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
	if (old)
		put_cred(old);
	if (cred && !e->cred)
		put_cred(cred);
}

/*
 * Puts @req into effect on @p, or nothing: a policy the scheduler refuses
 * undoes the affinity just set. Records what it set in @e, for CLEAR_HINT.
 * Process context, rvv_hints_mutex held, the rules already checked.
 */
static int rvv_hint_apply(struct task_struct *p,
			  const struct rvv_hint_request *req,
			  struct rvv_hint *e)
{
	int err;

	if (req->flags & RVVSTAT_HINT_CPUS) {
		if (!cpumask_subset(req->cpus, e->baseline_cpus))
			return -EINVAL;
		/* sched_setaffinity(): deadline tasks span their root domain. */
		if (p->policy == SCHED_DEADLINE)
			return -EBUSY;
		rvv_sched_read_cpus(p, rvv_cpus_before);
		err = rvv_sched_set_cpus(p, req->cpus);
		if (err)
			return err;
	}
	if (req->flags & RVVSTAT_HINT_POLICY) {
		err = rvv_sched_set_policy(p, &req->attr);
		/* Back through the syscall path too: within the cpuset now. */
		if (err && (req->flags & RVVSTAT_HINT_CPUS))
			rvv_sched_set_cpus(p, rvv_cpus_before);
		if (err)
			return err;
		rvv_sched_read_attr(p, &e->applied_attr);
	}
	if (req->flags & RVVSTAT_HINT_CPUS)
		rvv_sched_read_cpus(p, e->applied_cpus);
	e->touched |= req->flags & (RVVSTAT_HINT_CPUS | RVVSTAT_HINT_POLICY);
	return 0;
}

/*
 * CLEAR_HINT on one thread, with the caller's credentials: each part the
 * hint changed goes back to the baseline if it is still what the hint set
 * (else someone changed it since, and that stays) and the caller may set
 * the baseline by syscall now (else it stays too). The mask goes first, as
 * a deadline baseline needs its full mask back before the kernel takes it,
 * so a mask the scheduler refuses leaves the policy as it is too.
 */
static void rvv_hint_restore(struct rvv_hint *e, struct task_struct *p)
{
	struct rvv_hint_request *back = &rvv_hints_undo;
	struct sched_attr now;
	int err = 0;

	if (e->touched & RVVSTAT_HINT_CPUS) {
		rvv_sched_read_cpus(p, rvv_cpus_before);
		back->flags = RVVSTAT_HINT_CPUS;
		if (cpumask_equal(rvv_cpus_before, e->applied_cpus) &&
		    !rvv_hint_permitted(p, false, back))
			err = rvv_sched_set_cpus(p, e->baseline_cpus);
	}
	if (!err && (e->touched & RVVSTAT_HINT_POLICY)) {
		rvv_sched_read_attr(p, &now);
		back->flags = RVVSTAT_HINT_POLICY;
		back->attr = e->baseline_attr;
		if (!memcmp(&now, &e->applied_attr, sizeof(now)) &&
		    !rvv_hint_permitted(p, false, back))
			rvv_sched_set_policy(p, &e->baseline_attr);
	}
}

/*
 * Under rvv_hints_lock: the hint that covers @task, its own, else its
 * process's (@template); NULL if none. *@own is its entry, if it has one.
 */
static struct rvv_hint *rvv_hint_cover_locked(struct task_struct *task,
					      struct rvv_hint **own,
					      struct rvv_hint **template)
{
	struct rvv_hint *src;

	*own = rvv_hint_find(task, false);
	*template = rvv_hint_find(READ_ONCE(task->group_leader), true);
	src = *own && !(*own)->template ? *own : *template;
	return src && src->version ? src : NULL;
}

/* As rvv_hint_cover_locked(), rvv_hints_mutex held. */
static struct rvv_hint *rvv_hint_cover(struct task_struct *task,
				       struct rvv_hint **own,
				       struct rvv_hint **template)
{
	struct rvv_hint *src;
	unsigned long flags;

	lockdep_assert_held(&rvv_hints_mutex);
	spin_lock_irqsave(&rvv_hints_lock, flags);
	src = rvv_hint_cover_locked(task, own, template);
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
	return src;
}

/*
 * Whether @src's request may reach @task now and, if so, applies it: the
 * rules are checked with the credentials of whoever set the hint against
 * @task as it is at this moment (its owner, capabilities, limits, cpuset).
 */
static int rvv_hint_reach(struct task_struct *task, struct rvv_hint *src,
			  struct rvv_hint *e, const struct cred *setter)
{
	const struct cred *caller = override_creds(setter);
	int err;

	err = rvv_hint_permitted(task, false, &src->req);
	if (!err)
		err = rvv_hint_apply(task, &src->req, e);
	revert_creds(caller);
	return err;
}

/* Any context: see rvv_hint_queue_add(). */
static void rvv_hint_enqueue(struct task_struct *task)
{
	if (!rvv_hint_queue_add(task))
		rvv_hint_event(RVVSTAT_HEV_DROPPED);
}

/*
 * Applies to @task whatever hint is due and not yet in effect: its own, else
 * its process's. Returns what applying gave, 0 if nothing was due. A thread
 * a process hint failed on keeps its entry, to say so (rvv_hint_state()).
 */
static int rvv_hint_consider(struct task_struct *task)
{
	struct rvv_hint *own, *template, *src, *e;
	const struct cred *setter;
	u64 version;
	int err;

	src = rvv_hint_cover(task, &own, &template);
	if (!src)
		return 0;
	/* The queue holds it until its fork wakes it. */
	if (rvv_hint_unwoken(task)) {
		rvv_hint_enqueue(task);
		return 0;
	}
	if ((src->req.flags & RVVSTAT_HINT_ON_VECTOR_USE) &&
	    !rvv_arch_task_used_vector(task))
		return 0;
	version = src->version;
	if (own && own->applied_version == version)
		return 0;
	setter = rvv_hint_setter(src);
	if (!setter)
		return 0;	/* it ended meanwhile */
	e = own;
	if (!e) {
		e = rvv_hint_alloc(task, false, template, setter);
		if (IS_ERR(e)) {
			put_cred(setter);
			WRITE_ONCE(src->last_error, PTR_ERR(e));
			rvv_hint_count_outcome(PTR_ERR(e));
			return PTR_ERR(e);
		}
		/* A thread born after the hint starts from its creator's. */
		if (task->start_boottime > template->set_ns) {
			cpumask_copy(e->baseline_cpus, template->baseline_cpus);
			e->baseline_attr = template->baseline_attr;
		}
	}
	err = rvv_hint_reach(task, src, e, setter);
	put_cred(setter);
	WRITE_ONCE(src->last_error, err);
	rvv_hint_count_outcome(err);
	if (err) {
		WRITE_ONCE(e->failed_version, version);
		return err;
	}
	WRITE_ONCE(e->applied_version, version);
	if (e->counted_by != src) {
		e->counted_by = src;
		WRITE_ONCE(src->applied, src->applied + 1);
	}
	return 0;
}

/* Under rvv_hints_lock only: a task dump holds genl_mutex. */
enum rvvstat_task_hint rvv_hint_state(struct task_struct *task)
{
	enum rvvstat_task_hint state = RVVSTAT_TASK_HINT_NONE;
	struct rvv_hint *own, *template, *src;
	unsigned long flags;

	if (!READ_ONCE(rvv_hints_live))
		return state;
	spin_lock_irqsave(&rvv_hints_lock, flags);
	src = rvv_hint_cover_locked(task, &own, &template);
	if (src && own && READ_ONCE(own->applied_version) == src->version)
		state = RVVSTAT_TASK_HINT_APPLIED;
	else if (src && own && READ_ONCE(own->failed_version) == src->version)
		state = RVVSTAT_TASK_HINT_FAILED;
	else if (src)
		state = RVVSTAT_TASK_HINT_WAITING;
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
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
	rvv_for_each_thread_rcu(leader, t)
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

/* @e's request and its version, as readers under rvv_hints_lock see them. */
static void rvv_hint_put_request(struct rvv_hint *e,
				 const struct rvv_hint_request *req, u64 version)
{
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	rvv_hint_request_copy(&e->req, req);
	e->version = version;
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
}

/* A thread entry's owner: its own hint (NULL) or a template. */
static void rvv_hint_set_template(struct rvv_hint *e, struct rvv_hint *template)
{
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	if (e->key && template && !template->key) {
		/* That process hint ended meanwhile, and with it this entry. */
		rvv_hint_release_locked(e);
	} else if (e->key) {
		if (!e->template != !template)
			rvv_hints_live += template ? -1 : 1;
		if (e->template)
			list_del_init(&e->sibling);
		if (template)
			list_add(&e->sibling, &template->threads);
		e->template = template;
	}
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
}

int rvv_hint_set(struct task_struct *target, bool process,
		 const struct rvv_hint_request *req)
{
	struct rvv_hint *e, *old_template = NULL;
	const struct cred *old_setter = NULL;
	u64 old_version = 0, old_applied = 0;
	bool fresh, counted = false;
	unsigned long flags;
	int err;

	mutex_lock(&rvv_hints_mutex);
	do {
		e = rvv_hint_lookup(target, process);
		fresh = !e;
		if (fresh)
			e = rvv_hint_alloc(target, process, NULL, current_cred());
	} while (e == ERR_PTR(-EEXIST));
	if (IS_ERR(e)) {
		err = PTR_ERR(e);
		goto out;
	}
	if (!fresh) {
		rvv_hint_request_copy(&rvv_hints_undo, &e->req);
		old_version = e->version;
		old_applied = e->applied_version;
		old_template = e->template;
		old_setter = rvv_hint_setter(e);
	}
	err = -EINVAL;
	if ((req->flags & RVVSTAT_HINT_CPUS) &&
	    !cpumask_subset(req->cpus, e->baseline_cpus))
		goto undo;
	rvv_hint_put_request(e, req, ++rvv_hints_version);
	rvv_hint_set_setter(e, get_current_cred());
	/* A thread hint outranks the process hint the thread had. */
	rvv_hint_set_template(e, NULL);
	err = 0;
	/* A leader gone by pthread_exit() leaves the hint to the others. */
	if (!process || !(target->flags & PF_EXITING))
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
		rvv_hint_put_request(e, &rvv_hints_undo, old_version);
		WRITE_ONCE(e->applied_version, old_applied);
		rvv_hint_set_setter(e, old_setter);
		old_setter = NULL;
		rvv_hint_set_template(e, old_template);
	}
out:
	mutex_unlock(&rvv_hints_mutex);
	if (old_setter)
		put_cred(old_setter);
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

/*
 * Releases @e and restores its thread where the rules let the clearer: a
 * part the kernel or the rules refuse to restore stays, as one someone
 * changed since does, and the hint is gone either way.
 */
static void rvv_hint_end(struct rvv_hint *e)
{
	struct task_struct *p = NULL;
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	if (e->key && e->touched)
		p = tryget_task_struct(e->key);
	rvv_hint_release_locked(e);
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
	/* Released, but unchanged while we hold rvv_hints_mutex. */
	if (p) {
		rvv_hint_restore(e, p);
		put_task_struct(p);
	}
}

/* A template's first thread entry, NULL if none is left. */
static struct rvv_hint *rvv_hint_first_thread(struct rvv_hint *template)
{
	struct rvv_hint *t;
	unsigned long flags;

	spin_lock_irqsave(&rvv_hints_lock, flags);
	t = list_first_entry_or_null(&template->threads, struct rvv_hint,
				     sibling);
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
	return t;
}

int rvv_hint_clear(struct task_struct *target, bool process)
{
	struct rvv_hint *e, *t;

	mutex_lock(&rvv_hints_mutex);
	e = rvv_hint_lookup(target, process);
	if (!e || e->template) {
		mutex_unlock(&rvv_hints_mutex);
		return -ENOENT;
	}
	/* A process hint's threads first; their entries point to it. */
	while (process && (t = rvv_hint_first_thread(e)))
		rvv_hint_end(t);
	rvv_hint_end(e);
	rvv_hint_event(RVVSTAT_HEV_CLEARED);
	mutex_unlock(&rvv_hints_mutex);
	return 0;
}

/* The worker, for a thread it dequeued. */
static void rvv_hint_consider_queued(struct task_struct *task)
{
	mutex_lock(&rvv_hints_mutex);
	rvv_hint_consider(task);
	mutex_unlock(&rvv_hints_mutex);
}

/*
 * Lock-free, for any context: whether a hint may concern @task, its own or
 * its process's, as a key is in @task's or its leader's bucket. A bucket
 * shared with another key costs a queue slot, never a hint.
 */
static bool rvv_hint_may_concern(struct task_struct *task)
{
	return !hlist_empty(rvv_hint_bucket(task)) ||
	       !hlist_empty(rvv_hint_bucket(READ_ONCE(task->group_leader)));
}

/* Only the threads a hint may concern take a queue slot. */
void rvv_hints_vector_use(struct task_struct *task)
{
	if (READ_ONCE(rvv_hints_live) && rvv_hint_may_concern(task))
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

/*
 * Under rvv_hints_lock: process template @e, keyed by a main thread that
 * de_thread() replaced (an exec by another thread), is keyed by the new
 * main thread, which has the process's pid now. A process has one hint: if
 * one was set since the takeover (keyed by the new main thread already),
 * that later one replaces @e, as a second SET_HINT would have.
 */
static void rvv_hint_rekey_locked(struct rvv_hint *e, struct task_struct *leader)
{
	if (rvv_hint_find(leader, true)) {
		rvv_hint_release_all_locked(e);
		return;
	}
	hlist_del(&e->node);
	e->key = leader;
	hlist_add_head(&e->node, rvv_hint_bucket(leader));
}

/*
 * Under rvv_hints_lock, from the free of the main thread that another thread's
 * exec replaced: whether @leader, that thread, still has the pid of template
 * @e's process, so that its own free is still to come. Found by pid, never
 * read through: an exec that fails past the point of no return sends no exec
 * event and kills @leader, which another CPU may free first.
 */
static bool rvv_hint_leader_lives(const struct rvv_hint *e,
				  const struct task_struct *leader)
{
	bool lives;

	rcu_read_lock();
	lives = pid_task(find_pid_ns(e->pid, &init_pid_ns), PIDTYPE_PID) == leader;
	rcu_read_unlock();
	return lives;
}

/* The hints keyed by @task (own, or its process's) end, counted as expired. */
static void rvv_hints_expire(struct task_struct *task)
{
	struct rvv_hint *e;
	unsigned long flags;
	int process;

	if (!READ_ONCE(rvv_hints_live))
		return;
	spin_lock_irqsave(&rvv_hints_lock, flags);
	for (process = 0; process < 2; process++) {
		e = rvv_hint_find(task, process);
		if (!e)
			continue;
		/*
		 * A main thread released by another thread's exec, before
		 * the exec's own event moved the hint: the process lives on
		 * in its new main thread, which is still in that exec (or
		 * the exec event would have moved the hint already), unless
		 * that exec failed and the process ended with it.
		 */
		if (process && task->group_leader != task &&
		    rvv_hint_leader_lives(e, task->group_leader)) {
			rvv_hint_rekey_locked(e, task->group_leader);
			continue;
		}
		if (!e->template)
			rvv_hint_event(RVVSTAT_HEV_EXPIRED);
		rvv_hint_release_all_locked(e);
	}
	spin_unlock_irqrestore(&rvv_hints_lock, flags);
}

/*
 * @task took its process over by exec (de_thread()): the process hint keyed
 * by the old main thread, if that is not freed yet, now follows @task. The
 * table is scanned without the lock for templates, each checked under it:
 * a key under rvv_hints_lock is a task not yet freed.
 */
static void rvv_hints_follow_exec(struct task_struct *task)
{
	struct rvv_hint *e;
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < rvv_hints_cap; i++) {
		e = &rvv_hints[i];
		if (!READ_ONCE(e->key) || !READ_ONCE(e->process))
			continue;
		spin_lock_irqsave(&rvv_hints_lock, flags);
		if (e->key && e->process && e->key != task &&
		    READ_ONCE(e->key->group_leader) == task)
			rvv_hint_rekey_locked(e, task);
		spin_unlock_irqrestore(&rvv_hints_lock, flags);
	}
}

/*
 * A setuid, setgid or file-capability exec (what AT_SECURE marks) makes a
 * new owner: hints set for the old one end. Other execs keep them, also
 * when a thread other than the main one execs and takes the process over.
 */
void rvv_hints_exec(struct task_struct *task, pid_t old_pid,
		    const struct linux_binprm *bprm)
{
	if (!READ_ONCE(rvv_hints_live))
		return;
	if (old_pid != task->pid)
		rvv_hints_follow_exec(task);
	if (bprm->secureexec)
		rvv_hints_expire(task);
}

void rvv_hints_task_free(struct task_struct *task)
{
	rvv_hints_expire(task);
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

/*
 * Each entry under rvv_hints_lock, taken for that entry alone: a summary
 * read holds its seq_file's lock, so it may not take rvv_hints_mutex.
 */
void rvv_hints_for_each(void (*fn)(const struct rvv_hint_view *hint, void *arg),
			void *arg)
{
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < rvv_hints_cap; i++) {
		const struct rvv_hint *e = &rvv_hints[i];
		struct rvv_hint_view v = { .req = &e->req };

		if (!READ_ONCE(e->key))
			continue;
		spin_lock_irqsave(&rvv_hints_lock, flags);
		v.pid = e->pid;
		v.process = e->process;
		v.applied = READ_ONCE(e->applied);
		v.last_error = READ_ONCE(e->last_error);
		if (e->key && !e->template && e->version)
			fn(&v, arg);
		spin_unlock_irqrestore(&rvv_hints_lock, flags);
	}
}

static void rvv_hints_free_table(void)
{
	unsigned int i;

	for (i = 0; rvv_hints && i < rvv_hints_cap; i++) {
		rvv_hint_request_free(&rvv_hints[i].req);
		free_cpumask_var(rvv_hints[i].baseline_cpus);
		free_cpumask_var(rvv_hints[i].applied_cpus);
	}
	kvfree(rvv_hints);
	kvfree(rvv_hint_buckets);
	kvfree(rvv_hint_users);
	kvfree(rvv_hint_user_buckets);
	rvv_hints = NULL;
	rvv_hint_buckets = NULL;
	rvv_hint_users = NULL;
	rvv_hint_user_buckets = NULL;
	rvv_hint_request_free(&rvv_hints_undo);
	free_cpumask_var(rvv_cpus_before);
}

int rvv_hints_init(unsigned int capacity)
{
	unsigned int i;

	rvv_hint_bits = ilog2(roundup_pow_of_two(capacity));
	rvv_hints = kvcalloc(capacity, sizeof(*rvv_hints), GFP_KERNEL);
	rvv_hint_buckets = kvcalloc(1U << rvv_hint_bits,
				    sizeof(*rvv_hint_buckets), GFP_KERNEL);
	rvv_hint_users = kvcalloc(capacity, sizeof(*rvv_hint_users), GFP_KERNEL);
	rvv_hint_user_buckets = kvcalloc(1U << rvv_hint_bits,
					 sizeof(*rvv_hint_user_buckets),
					 GFP_KERNEL);
	if (!rvv_hints || !rvv_hint_buckets || !rvv_hint_users ||
	    !rvv_hint_user_buckets)
		goto nomem;
	rvv_hints_cap = capacity;
	INIT_HLIST_HEAD(&rvv_hint_free);
	INIT_HLIST_HEAD(&rvv_hint_user_free);
	rvv_hints_charged = 0;
	for (i = 0; i < capacity; i++)
		hlist_add_head(&rvv_hint_users[i].node, &rvv_hint_user_free);
	for (i = 0; i < capacity; i++) {
		struct rvv_hint *e = &rvv_hints[capacity - 1 - i];

		INIT_LIST_HEAD(&e->threads);
		INIT_LIST_HEAD(&e->sibling);
		hlist_add_head(&e->node, &rvv_hint_free);
		if (rvv_hint_request_alloc(&e->req) ||
		    !zalloc_cpumask_var(&e->baseline_cpus, GFP_KERNEL) ||
		    !zalloc_cpumask_var(&e->applied_cpus, GFP_KERNEL))
			goto nomem;
	}
	if (rvv_hint_request_alloc(&rvv_hints_undo) ||
	    !zalloc_cpumask_var(&rvv_cpus_before, GFP_KERNEL))
		goto nomem;
	rvv_sched_init();
	rvv_hint_queue_init(rvv_hint_consider_queued);
	rvv_hints_zero_events();
	return 0;
nomem:
	rvv_hints_free_table();
	return -ENOMEM;
}

void rvv_hints_exit(void)
{
	unsigned int i;

	rvv_hint_queue_exit();
	/* The setters' credentials of the hints still live. */
	for (i = 0; i < rvv_hints_cap; i++)
		if (rvv_hints[i].cred)
			put_cred(rvv_hints[i].cred);
	rvv_hints_free_table();
}
