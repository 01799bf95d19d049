// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduler tracepoints: the context switch (the hot path) and task lifetime,
 * found by name as they are not exported; and a task's first vector use,
 * which the backend sees. Each event is handed to its consumers here.
 */
#include <linux/binfmts.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/tracepoint.h>

#include "core/accounting-switch.h"
#include "arch/arch.h"
#include "core/events.h"
#include "hints/hints.h"
#include "timing/latency.h"
#include "timing/windows.h"
#include "core/threads.h"
#include "attach/tracepoints.h"

/*
 * The hot path: IRQs off, rq lock held. No locks, no allocation, no printk,
 * and one probe per configuration, chosen at load: counting alone is a leaf
 * (tests/lint checks the built module for calls), and the sampling probe
 * calls out only inside a switch-timing window and when the sampling
 * windows' schedule may have something due.
 */
/*
 * Returns prev's row; *@sample: whether the sampling probe calls out now.
 * The CPU id is read once: the counters' stores would make the compiler
 * read it again.
 */
static __always_inline struct rvv_task_hot *
rvv_count_switch(bool preempt, struct task_struct *prev,
		 struct task_struct *next, unsigned int prev_state,
		 struct rvv_switch_vstate *vs, bool *sample)
{
	int id = raw_smp_processor_id();
	struct rvv_cpu_stats *cpu = rvv_switch_cpu(id);
	struct rvv_task_hot *prev_row;

	rvv_arch_decode_prev(prev, vs);
	/* User-mode preemption and yield also arrive as !preempt, RUNNING. */
	prev_row = rvv_account_switch_out(cpu, prev, vs,
					  preempt || prev_state == TASK_RUNNING);
	/* Only the CPU running a task writes its vector_used. */
	rvv_arch_switched_out(prev_row && !prev_row->vector_used ?
			      prev_row : NULL, vs);
	rvv_arch_decode_next(next, vs);
	rvv_account_switch_in(cpu, id, prev, prev_row, next, vs);
	*sample = cpu->counts.c[RVVSTAT_SWITCHES] >= cpu->sample_at;
	return prev_row;
}

static notrace void
rvv_on_switch_count(void *data, bool preempt, struct task_struct *prev,
		    struct task_struct *next, unsigned int prev_state)
{
	struct rvv_switch_vstate vs = {};
	bool sample;

	rvv_count_switch(preempt, prev, next, prev_state, &vs, &sample);
}

/*
 * The sampling probe's rare part, out of line and called last with no more
 * than it needs, so that the common path keeps to the registers counting
 * uses. The switch's vector work is decoded again (no state changed since).
 */
static noinline void rvv_switch_sample(struct task_struct *prev,
				       struct task_struct *next,
				       struct rvv_task_hot *prev_row)
{
	struct rvv_switch_vstate vs = {};

	/* While switches are timed, every switch comes here. */
	if (!rvv_latency_window_open()) {
		rvv_windows_due();
		return;
	}
	rvv_arch_decode_prev(prev, &vs);
	rvv_arch_decode_next(next, &vs);
	rvv_latency_switch_begin(prev_row, &vs);
}

static notrace void
rvv_on_switch_sampled(void *data, bool preempt, struct task_struct *prev,
		      struct task_struct *next, unsigned int prev_state)
{
	struct rvv_switch_vstate vs = {};
	struct rvv_task_hot *prev_row;
	bool sample;

	prev_row = rvv_count_switch(preempt, prev, next, prev_state, &vs,
				    &sample);
	if (unlikely(sample))
		rvv_switch_sample(prev, next, prev_row);
}

/* Before the child is first woken, so it is in the table for its first switch. */
static void rvv_on_fork(void *data, struct task_struct *parent,
			struct task_struct *child)
{
	rvv_task_enter(child);
	rvv_hints_fork(child);
}

static void rvv_on_rename(void *data, struct task_struct *task,
			  const char *comm)
{
	rvv_task_rename(task, comm);
}

static void rvv_on_exit(void *data, struct task_struct *task)
{
	rvv_account_observe(task, rvv_arch_restore_armed(task));
}

/* After the new image is in place; current is @task, with its new creds. */
static void rvv_on_exec(void *data, struct task_struct *task, pid_t old_pid,
			struct linux_binprm *bprm)
{
	rvv_task_exec(task, old_pid);
	rvv_hints_exec(task, old_pid, bprm);
}

/* RCU callback after the task's final switch. */
static void rvv_on_free(void *data, struct task_struct *task)
{
	rvv_task_free(task);
	rvv_hints_task_free(task);
}

/* Not a tracepoint: the backend's probes see it (arch.h's first_use). */
void rvv_event_first_use(struct task_struct *task)
{
	rvv_hints_vector_use(task);
}

/* Lifetime first, so that no task created during the walk is missed. */
static struct rvv_tracepoint rvv_lifetime_tps[] = {
	{ .name = "sched_process_free", .probe = rvv_on_free },
	{ .name = "sched_process_fork", .probe = rvv_on_fork },
	{ .name = "task_rename", .probe = rvv_on_rename },
	{ .name = "sched_process_exec", .probe = rvv_on_exec },
};

enum { RVV_TP_EXIT, RVV_TP_SWITCH };

static struct rvv_tracepoint rvv_event_tps[] = {
	[RVV_TP_EXIT] = { .name = "sched_process_exit", .probe = rvv_on_exit },
	/* Its probe is chosen at start. */
	[RVV_TP_SWITCH] = { .name = "sched_switch" },
};

static void rvv_enter_running_tasks(void)
{
	struct task_struct *process, *thread;

	rcu_read_lock();
	for_each_process(process)
		rvv_for_each_thread_rcu(process, thread)
			rvv_task_enter(thread);
	rcu_read_unlock();
}

int rvv_events_start(void)
{
	int err;

	rvv_event_tps[RVV_TP_SWITCH].probe = rvv_on_switch_count;
	if (rvv_latency_switch_timing() || rvv_windows_scheduled())
		rvv_event_tps[RVV_TP_SWITCH].probe = rvv_on_switch_sampled;
	err = rvv_tracepoints_attach(rvv_lifetime_tps, ARRAY_SIZE(rvv_lifetime_tps));
	if (!err) {
		rvv_enter_running_tasks();
		err = rvv_tracepoints_attach(rvv_event_tps, ARRAY_SIZE(rvv_event_tps));
	}
	if (err)
		rvv_events_stop();
	return err;
}

void rvv_events_stop(void)
{
	rvv_tracepoints_detach(rvv_event_tps, ARRAY_SIZE(rvv_event_tps));
	rvv_tracepoints_detach(rvv_lifetime_tps, ARRAY_SIZE(rvv_lifetime_tps));
	tracepoint_synchronize_unregister();
}
