// SPDX-License-Identifier: GPL-2.0
/*
 * The hint queue: a fixed array of task references, claimed by cmpxchg(),
 * so that a probe handler (NMI-like on riscv) can queue a thread without a
 * lock or an allocation. An irq_work wakes the worker: queue_work() is not
 * safe from every context a handler runs in. One user's threads may hold a
 * quarter of it, so that one user's thread storm cannot crowd out the first
 * uses of everyone else's hinted threads; threads with CAP_SYS_NICE are not
 * counted, as their owner may change any thread anyway.
 */
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/irq_work.h>
#include <linux/rcupdate.h>
#include <linux/sched/task.h>
#include <linux/workqueue.h>

#include "hints/internal.h"

/* Threads awaiting the worker (first vector use, new thread of a process). */
#define RVV_HINT_QUEUE		128
#define RVV_HINT_QUEUE_USER	(RVV_HINT_QUEUE / 4)
/* The owner of a slot's thread when it is not counted. */
#define RVV_HINT_QUEUE_FREE	((uid_t)-1)

static struct task_struct *rvv_hint_queue[RVV_HINT_QUEUE];
/*
 * The real uid of each slot's thread, written just after the claim: a
 * count may miss a slot being claimed, so a user may briefly exceed its
 * share by the CPUs queueing at that moment.
 */
static uid_t rvv_hint_queue_uid[RVV_HINT_QUEUE];
static void (*rvv_hint_queue_apply)(struct task_struct *task);
static struct irq_work rvv_hint_irq_work;
static struct delayed_work rvv_hint_work;

/*
 * Worker: every queued thread, with the reference the queuer took. A thread
 * queued at its fork and not woken yet keeps its slot for the next pass, a
 * tick later; only the worker empties a slot.
 */
static void rvv_hint_drain(struct work_struct *work)
{
	struct task_struct *task;
	bool unwoken = false;
	unsigned int i;

	for (i = 0; i < RVV_HINT_QUEUE; i++) {
		task = READ_ONCE(rvv_hint_queue[i]);
		if (!task)
			continue;
		if (rvv_hint_unwoken(task)) {
			unwoken = true;
			continue;
		}
		WRITE_ONCE(rvv_hint_queue[i], NULL);
		WRITE_ONCE(rvv_hint_queue_uid[i], RVV_HINT_QUEUE_FREE);
		rvv_hint_queue_apply(task);
		put_task_struct(task);
	}
	if (unwoken)
		queue_delayed_work(system_unbound_wq, &rvv_hint_work, 1);
}

/* Hard IRQ: the first context from which a worker may be woken. */
static void rvv_hint_kick(struct irq_work *work)
{
	mod_delayed_work(system_unbound_wq, &rvv_hint_work, 0);
}

/* The uid @task's slot counts under, or RVV_HINT_QUEUE_FREE if none. */
static uid_t rvv_hint_queue_owner(struct task_struct *task)
{
	const struct cred *cred;
	uid_t uid;

	rcu_read_lock();
	cred = __task_cred(task);
	uid = cap_raised(cred->cap_effective, CAP_SYS_NICE) ?
	      RVV_HINT_QUEUE_FREE : __kuid_val(cred->uid);
	rcu_read_unlock();
	return uid;
}

/* Whether @uid's threads hold their whole share of the queue. */
static bool rvv_hint_queue_share_full(uid_t uid)
{
	unsigned int i, held = 0;

	if (uid == RVV_HINT_QUEUE_FREE)
		return false;
	for (i = 0; i < RVV_HINT_QUEUE; i++)
		if (READ_ONCE(rvv_hint_queue_uid[i]) == uid &&
		    READ_ONCE(rvv_hint_queue[i]))
			held++;
	return held >= RVV_HINT_QUEUE_USER;
}

/* The reference dropped when the queue is full is never the last one. */
bool rvv_hint_queue_add(struct task_struct *task)
{
	uid_t uid = rvv_hint_queue_owner(task);
	unsigned int i;

	if (rvv_hint_queue_share_full(uid))
		return false;
	get_task_struct(task);
	for (i = 0; i < RVV_HINT_QUEUE; i++) {
		if (!cmpxchg(&rvv_hint_queue[i], NULL, task)) {
			WRITE_ONCE(rvv_hint_queue_uid[i], uid);
			irq_work_queue(&rvv_hint_irq_work);
			return true;
		}
	}
	put_task_struct(task);
	return false;
}

void rvv_hint_queue_init(void (*apply)(struct task_struct *task))
{
	unsigned int i;

	for (i = 0; i < RVV_HINT_QUEUE; i++)
		rvv_hint_queue_uid[i] = RVV_HINT_QUEUE_FREE;
	rvv_hint_queue_apply = apply;
	init_irq_work(&rvv_hint_irq_work, rvv_hint_kick);
	INIT_DELAYED_WORK(&rvv_hint_work, rvv_hint_drain);
}

void rvv_hint_queue_exit(void)
{
	unsigned int i;

	irq_work_sync(&rvv_hint_irq_work);
	cancel_delayed_work_sync(&rvv_hint_work);
	for (i = 0; i < RVV_HINT_QUEUE; i++)
		if (rvv_hint_queue[i])
			put_task_struct(xchg(&rvv_hint_queue[i], NULL));
}
