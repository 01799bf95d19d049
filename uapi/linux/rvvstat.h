/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rvvstat: vector-register state switching statistics.
 *
 * The one contract between rvvstat.ko and its tools. Versioned and
 * append-only: new counters go at the end of a list and bump
 * RVVSTAT_ABI_VERSION; existing names and positions never change.
 */
#ifndef _UAPI_LINUX_RVVSTAT_H
#define _UAPI_LINUX_RVVSTAT_H

#define RVVSTAT_ABI_VERSION	1
#define RVVSTAT_NAME		"rvvstat"

/*
 * Counters kept per task and per CPU, as X(ENUM_SUFFIX, "column name").
 * The column names are the headers of debugfs cpus and tasks.
 *
 * switches            times the task was switched out
 * saves_user          user vector state saved at a context switch (VS dirty)
 * saves_kernel        in-kernel preempt-V state saved at a context switch
 * saves_involuntary   switch saves while the task was still runnable
 * saves_discarded     user saves of state that a syscall had discarded
 * restores_scheduled  switch-ins and kernel-V uses that armed a new deferred restore
 * restores_coalesced  switch-ins that found a restore already pending
 * restores_performed  deferred restores seen consumed on return to user
 * restores_cancelled  pending restores dropped by exec
 * restores_kernel     switch-ins that will restore in-kernel preempt-V state
 * first_use           first-use traps that enabled vector state
 * kernel_v            kernel_vector_begin() calls in the task's context
 * kernel_v_saves      of those, calls that saved vector state
 */
#define RVVSTAT_COUNTERS(X)					\
	X(SWITCHES,		"switches")			\
	X(SAVES_USER,		"saves_user")			\
	X(SAVES_KERNEL,		"saves_kernel")			\
	X(SAVES_INVOLUNTARY,	"saves_involuntary")		\
	X(SAVES_DISCARDED,	"saves_discarded")		\
	X(RESTORES_SCHEDULED,	"restores_scheduled")		\
	X(RESTORES_COALESCED,	"restores_coalesced")		\
	X(RESTORES_PERFORMED,	"restores_performed")		\
	X(RESTORES_CANCELLED,	"restores_cancelled")		\
	X(RESTORES_KERNEL,	"restores_kernel")		\
	X(FIRST_USE,		"first_use")			\
	X(KERNEL_V,		"kernel_v")			\
	X(KERNEL_V_SAVES,	"kernel_v_saves")

#define RVVSTAT_COUNTER_ENUM(id, name)	RVVSTAT_##id,
enum rvvstat_counter {
	RVVSTAT_COUNTERS(RVVSTAT_COUNTER_ENUM)
	RVVSTAT_NR_COUNTERS
};
#undef RVVSTAT_COUNTER_ENUM

/*
 * Events that belong to a CPU but to no task in the table, as
 * X(ENUM_SUFFIX, "column name"); extra columns of debugfs cpus.
 *
 * untracked            switch-outs of tasks missing from the task table
 * table_full           tasks that could not be entered because the table was full
 * verify_switch_saves  saves executed at the context-switch save sites, counted
 *                      by instruction probes (verification mode only)
 * verify_kernel_v_saves  the same at the kernel_vector_begin() save sites
 */
#define RVVSTAT_CPU_EVENTS(X)					\
	X(UNTRACKED,		"untracked")			\
	X(TABLE_FULL,		"table_full")			\
	X(VERIFY_SWITCH_SAVES,	"verify_switch_saves")		\
	X(VERIFY_KERNEL_V_SAVES, "verify_kernel_v_saves")

#define RVVSTAT_CPU_EVENT_ENUM(id, name)	RVVSTAT_CPU_##id,
enum rvvstat_cpu_event {
	RVVSTAT_CPU_EVENTS(RVVSTAT_CPU_EVENT_ENUM)
	RVVSTAT_NR_CPU_EVENTS
};
#undef RVVSTAT_CPU_EVENT_ENUM

#endif /* _UAPI_LINUX_RVVSTAT_H */
