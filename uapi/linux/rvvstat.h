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
 * Counters kept per task and per CPU. RVVSTAT_COUNTER_NAMES gives, in enum
 * order, the column names of the debugfs cpus, tasks and totals files.
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
 * kernel_v_saves      of those, calls that saved vector state (counted at the
 *                     save instructions; predicted at entry only where they
 *                     cannot be probed, see summary "methods")
 */
enum rvvstat_counter {
	RVVSTAT_SWITCHES,
	RVVSTAT_SAVES_USER,
	RVVSTAT_SAVES_KERNEL,
	RVVSTAT_SAVES_INVOLUNTARY,
	RVVSTAT_SAVES_DISCARDED,
	RVVSTAT_RESTORES_SCHEDULED,
	RVVSTAT_RESTORES_COALESCED,
	RVVSTAT_RESTORES_PERFORMED,
	RVVSTAT_RESTORES_CANCELLED,
	RVVSTAT_RESTORES_KERNEL,
	RVVSTAT_FIRST_USE,
	RVVSTAT_KERNEL_V,
	RVVSTAT_KERNEL_V_SAVES,
	RVVSTAT_NR_COUNTERS
};

#define RVVSTAT_COUNTER_NAMES {						\
	"switches", "saves_user", "saves_kernel", "saves_involuntary",	\
	"saves_discarded", "restores_scheduled", "restores_coalesced",	\
	"restores_performed", "restores_cancelled", "restores_kernel",	\
	"first_use", "kernel_v", "kernel_v_saves"			\
}

/*
 * Events that belong to a CPU but to no task in the table; extra columns of
 * debugfs cpus, named by RVVSTAT_CPU_EVENT_NAMES in enum order.
 *
 * untracked              switch-outs of tasks missing from the task table
 *                        (idle tasks have no row and are not counted here)
 * table_full             tasks that could not be entered: the table was full
 * verify_switch_saves    saves executed at the context-switch save sites,
 *                        counted by instruction probes (verification mode)
 */
enum rvvstat_cpu_event {
	RVVSTAT_CPU_UNTRACKED,
	RVVSTAT_CPU_TABLE_FULL,
	RVVSTAT_CPU_VERIFY_SWITCH_SAVES,
	RVVSTAT_NR_CPU_EVENTS
};

#define RVVSTAT_CPU_EVENT_NAMES {					\
	"untracked", "table_full", "verify_switch_saves"		\
}

#endif /* _UAPI_LINUX_RVVSTAT_H */
