// SPDX-License-Identifier: GPL-2.0
/*
 * The hint queue: a fixed array of task references, claimed by cmpxchg(),
 * so that a probe handler (NMI-like on riscv) can queue a thread without a
 * lock or an allocation. An irq_work wakes the worker: queue_work() is not
 * safe from every context a handler runs in.
 */
#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/sched/task.h>
#include <linux/workqueue.h>

#include "hint-queue.h"

/* Threads awaiting the worker (first vector use, new thread of a process). */
#define RVV_HINT_QUEUE	128

static struct task_struct *rvv_hint_queue[RVV_HINT_QUEUE];
static void (*rvv_hint_queue_apply)(struct task_struct *task);
static struct irq_work rvv_hint_irq_work;
static struct work_struct rvv_hint_work;

/* Worker: every queued thread, with the reference the queuer took. */
static void rvv_hint_drain(struct work_struct *work)
{
	struct task_struct *task;
	unsigned int i;

	for (i = 0; i < RVV_HINT_QUEUE; i++) {
		task = xchg(&rvv_hint_queue[i], NULL);
		if (!task)
			continue;
		rvv_hint_queue_apply(task);
		put_task_struct(task);
	}
}

/* Hard IRQ: the first context from which a worker may be woken. */
static void rvv_hint_kick(struct irq_work *work)
{
	queue_work(system_unbound_wq, &rvv_hint_work);
}

/* The reference dropped when the queue is full is never the last one. */
bool rvv_hint_queue_add(struct task_struct *task)
{
	unsigned int i;

	get_task_struct(task);
	for (i = 0; i < RVV_HINT_QUEUE; i++) {
		if (!cmpxchg(&rvv_hint_queue[i], NULL, task)) {
			irq_work_queue(&rvv_hint_irq_work);
			return true;
		}
	}
	put_task_struct(task);
	return false;
}

void rvv_hint_queue_init(void (*apply)(struct task_struct *task))
{
	rvv_hint_queue_apply = apply;
	init_irq_work(&rvv_hint_irq_work, rvv_hint_kick);
	INIT_WORK(&rvv_hint_work, rvv_hint_drain);
}

void rvv_hint_queue_exit(void)
{
	unsigned int i;

	irq_work_sync(&rvv_hint_irq_work);
	cancel_work_sync(&rvv_hint_work);
	for (i = 0; i < RVV_HINT_QUEUE; i++)
		if (rvv_hint_queue[i])
			put_task_struct(xchg(&rvv_hint_queue[i], NULL));
}
