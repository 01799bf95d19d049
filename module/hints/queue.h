/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Threads waiting for a hint to be applied to them, which may sleep: queued
 * from any context, handed one at a time to a worker.
 */
#ifndef _RVVSTAT_HINT_QUEUE_H
#define _RVVSTAT_HINT_QUEUE_H

#include <linux/sched.h>

/* @apply runs in the worker, in process context, once per queued thread. */
void rvv_hint_queue_init(void (*apply)(struct task_struct *task));
/* Waits for the worker and drops what is still queued. */
void rvv_hint_queue_exit(void);
/*
 * Any context, even a kprobe handler: no locks, no allocation. @task is
 * current or a task its creator still holds. False if the queue, or its
 * owner's share of it, was full and @task was not queued.
 */
bool rvv_hint_queue_add(struct task_struct *task);

#endif /* _RVVSTAT_HINT_QUEUE_H */
