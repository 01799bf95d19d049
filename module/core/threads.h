/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walking a process's threads from a module. for_each_thread() names
 * tasklist_lock in its lockdep condition, and tasklist_lock is not
 * exported: on a kernel with PROVE_RCU_LIST a module using it does not
 * link. The same walk under rcu_read_lock(), which is what we hold.
 */
#ifndef _RVVSTAT_THREADS_H
#define _RVVSTAT_THREADS_H

#include <linux/rculist.h>
#include <linux/sched/signal.h>

#define rvv_for_each_thread_rcu(p, t) \
	list_for_each_entry_rcu(t, &(p)->signal->thread_head, thread_node)

#endif /* _RVVSTAT_THREADS_H */
