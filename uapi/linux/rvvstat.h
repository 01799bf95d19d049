/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rvvstat: vector-register state switching statistics.
 *
 * The one contract between rvvstat.ko and its tools. Versioned and
 * append-only: new counters go at the end of a list and bump
 * RVVSTAT_ABI_VERSION; existing names and positions never change. Layout
 * and constants only: the math on the histogram layout is in the
 * project's include/rvvstat/hist.h.
 *
 * Two transports, one role each: the generic netlink family is the read
 * API (info, summary, CPUs, tasks, histograms; reset), the one the tools
 * use; /dev/rvvstat is the hint API (SET_HINT, GET_HINT, CLEAR_HINT). The
 * device's GET_INFO, GET_TASK_STATS, SNAPSHOT and RESET came before the
 * family and stay for this ABI, but get nothing new: a new read is a
 * netlink command.
 */
#ifndef _UAPI_LINUX_RVVSTAT_H
#define _UAPI_LINUX_RVVSTAT_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#define RVVSTAT_ABI_VERSION	6
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
 * restores_loaded        x86: deferred restores that reloaded the registers
 *                        (XRSTOR), on return to user mostly (or at a signal
 *                        frame, a fork); the rest of restores_performed
 *                        found them still valid. Always 0 on RISC-V, where
 *                        every performed restore reloads.
 */
enum rvvstat_cpu_event {
	RVVSTAT_CPU_UNTRACKED,
	RVVSTAT_CPU_TABLE_FULL,
	RVVSTAT_CPU_VERIFY_SWITCH_SAVES,
	RVVSTAT_CPU_RESTORES_LOADED,
	RVVSTAT_NR_CPU_EVENTS
};

#define RVVSTAT_CPU_EVENT_NAMES {					\
	"untracked", "table_full", "verify_switch_saves",		\
	"restores_loaded"						\
}

/*
 * Latency histograms, one per kind. RVVSTAT_LATENCY_NAMES gives, in enum
 * order, the kind names of the debugfs hist file and the summary.
 *
 * switch_saved     context switch that saved vector state: time from the
 *                  sched_switch tracepoint to finish_task_switch()
 * switch_restore   the same for switches that saved nothing but armed a
 *                  deferred restore for the next task
 * switch_plain     the same for switches that did neither
 * save_user        user-state save in __schedule, between instruction probes
 * save_kernel      in-kernel preempt-V save in __schedule, the same way
 * save_kernel_v    save in kernel_vector_begin(), the same way
 * probe_bias       the instruction-probe pair around an empty stretch: what
 *                  is subtracted from the three save_* kinds
 * calib_save       one save of the whole register file, timed in the module
 *                  without probes (kernel_vector_begin() held)
 * calib_restore    one restore, timed the same way
 * restore_user     x86: the reload of a deferred restore on return to user
 *                  (restore_fpregs_from_fpstate() from switch_fpu_return()),
 *                  between kretprobe entry and return, less probe_bias
 *
 * probe_bias and calib_* describe the machine and are measured again only at
 * load and by calibrate; a reset clears every other kind.
 */
enum rvvstat_latency {
	RVVSTAT_LAT_SWITCH_SAVED,
	RVVSTAT_LAT_SWITCH_RESTORE,
	RVVSTAT_LAT_SWITCH_PLAIN,
	RVVSTAT_LAT_SAVE_USER,
	RVVSTAT_LAT_SAVE_KERNEL,
	RVVSTAT_LAT_SAVE_KERNEL_V,
	RVVSTAT_LAT_PROBE_BIAS,
	RVVSTAT_LAT_CALIB_SAVE,
	RVVSTAT_LAT_CALIB_RESTORE,
	RVVSTAT_LAT_RESTORE_USER,
	RVVSTAT_NR_LATENCIES
};

#define RVVSTAT_LATENCY_NAMES {						\
	"switch_saved", "switch_restore", "switch_plain", "save_user",	\
	"save_kernel", "save_kernel_v", "probe_bias", "calib_save",	\
	"calib_restore", "restore_user"					\
}

/*
 * Histogram layout, log-linear in nanoseconds. With S sub-bucket bits,
 * values below 2^S have a bucket each; from there every power of two is
 * split into 2^S equal buckets, so a bucket is at most 1/2^S of its lower
 * bound wide. The last bucket also holds every larger value.
 * include/rvvstat/hist.h maps values to buckets and back.
 *
 * Per-CPU histograms: S = 3 (12.5 %), up to 2^34 ns (17 s).
 * Per-task histograms: S = 0 (one bucket per power of two), up to 2^24 ns.
 */
#define RVVSTAT_CPU_HIST_SUB_BITS	3
#define RVVSTAT_CPU_HIST_MAX_SHIFT	34
#define RVVSTAT_CPU_HIST_BUCKETS					\
	((RVVSTAT_CPU_HIST_MAX_SHIFT - RVVSTAT_CPU_HIST_SUB_BITS + 1) <<	\
	 RVVSTAT_CPU_HIST_SUB_BITS)
#define RVVSTAT_TASK_HIST_SUB_BITS	0
#define RVVSTAT_TASK_HIST_MAX_SHIFT	24
#define RVVSTAT_TASK_HIST_BUCKETS					\
	((RVVSTAT_TASK_HIST_MAX_SHIFT - RVVSTAT_TASK_HIST_SUB_BITS + 1) <<	\
	 RVVSTAT_TASK_HIST_SUB_BITS)

/*
 * What happened to hints, counted since load or reset; the "hints" section of
 * the summary and rvvstat_snapshot.hint_events, named by RVVSTAT_HINT_EVENT_NAMES.
 * A refusal is counted once, whether SET_HINT returned it or a deferred
 * application met it (then it is also the hint's last_error).
 *
 * set              hints accepted by SET_HINT (a replacement counts again)
 * applied          applications of a hint to one thread
 * cleared          hints removed by CLEAR_HINT (baseline restored)
 * expired          hints that ended with their thread or process
 * refused_perm     -EPERM: the caller may not change the target this way
 * refused_gone     -ESRCH: no such thread, or it exited first
 * refused_invalid  -EINVAL: flags, mask, policy or target not acceptable
 * refused_busy     -EBUSY: deadline admission (or a deadline task's mask)
 * refused_full     -ENOSPC or -EDQUOT: the hint table, or the setter's share, was full
 * refused_other    any other error of the scheduler
 * dropped          vector-use or new-thread events lost: the queue to the
 *                  applying worker, or the thread owner's quarter of it,
 *                  was full
 */
enum rvvstat_hint_event {
	RVVSTAT_HEV_SET,
	RVVSTAT_HEV_APPLIED,
	RVVSTAT_HEV_CLEARED,
	RVVSTAT_HEV_EXPIRED,
	RVVSTAT_HEV_REFUSED_PERM,
	RVVSTAT_HEV_REFUSED_GONE,
	RVVSTAT_HEV_REFUSED_INVALID,
	RVVSTAT_HEV_REFUSED_BUSY,
	RVVSTAT_HEV_REFUSED_FULL,
	RVVSTAT_HEV_REFUSED_OTHER,
	RVVSTAT_HEV_DROPPED,
	RVVSTAT_NR_HINT_EVENTS
};

#define RVVSTAT_HINT_EVENT_NAMES {					\
	"set", "applied", "cleared", "expired", "refused_perm",		\
	"refused_gone", "refused_invalid", "refused_busy",		\
	"refused_full", "refused_other", "dropped"			\
}

/*
 * ioctls of /dev/rvvstat. Every argument starts with a __u64 size: the caller
 * sets it to sizeof the struct it was built with. Fields the module does not
 * know must be zero (else -E2BIG); fields the caller does not know are taken
 * as zero. Output is written up to the smaller of the two sizes. The size
 * encoded in the ioctl number is ignored, so a struct can grow at its end.
 * Layouts are the same on 32- and 64-bit callers; pointers travel as __u64.
 */
#define RVVSTAT_IOC_MAGIC	0xB9

enum rvvstat_backend {
	RVVSTAT_BACKEND_RISCV_V = 1,	/* RISC-V V extension */
	RVVSTAT_BACKEND_X86_FPU = 2,	/* x86 FPU/SSE/AVX xstate */
};

/*
 * Each backend's name for programs (RVVSTAT_BACKEND_NAMES: metrics labels,
 * JSON) and for people (RVVSTAT_BACKEND_TITLES: summaries), indexed by
 * enum rvvstat_backend; an index past the end or a NULL entry is unknown.
 */
#define RVVSTAT_BACKEND_NAMES {						\
	[RVVSTAT_BACKEND_RISCV_V] = "riscv_v",				\
	[RVVSTAT_BACKEND_X86_FPU] = "x86_fpu",				\
}

#define RVVSTAT_BACKEND_TITLES {					\
	[RVVSTAT_BACKEND_RISCV_V] = "RISC-V V",				\
	[RVVSTAT_BACKEND_X86_FPU] = "x86 xstate",			\
}

/* rvvstat_info.features */
#define RVVSTAT_FEATURE_SWITCH_TIMING	_BITULL(0)	/* switch_* latency kinds */
#define RVVSTAT_FEATURE_SAVE_PROBES	_BITULL(1)	/* save_* latency kinds */
#define RVVSTAT_FEATURE_VERIFY		_BITULL(2)	/* verify_switch_saves */
#define RVVSTAT_FEATURE_VECTOR_USE	_BITULL(3)	/* RVVSTAT_HINT_ON_VECTOR_USE */
#define RVVSTAT_FEATURE_RESTORE_PROBES	_BITULL(4)	/* restores_loaded counted */

/*
 * GET_INFO reads only size: every other field is output. bytes_per_save on
 * x86 is the kernel's default user XSAVE size (fpu_user_cfg.default_size),
 * the same for every thread and every reader.
 */
struct rvvstat_info {
	__u64 size;
	__u32 abi_version;	/* RVVSTAT_ABI_VERSION of the module */
	__u32 backend;		/* enum rvvstat_backend */
	__u32 vector_bits;	/* VLEN, or the widest vector register (x86) */
	__u32 bytes_per_save;	/* register state saved per switch (above) */
	__u64 features;		/* RVVSTAT_FEATURE_* */
	__u32 nr_cpu_ids;	/* CPU numbers go up to this, exclusive */
	__u32 hint_capacity;	/* entries of the hint table */
	__u32 nr_counters;	/* RVVSTAT_NR_COUNTERS of the module */
	__u32 nr_hint_events;	/* RVVSTAT_NR_HINT_EVENTS of the module */
};

/* rvvstat_hint.flags */
#define RVVSTAT_HINT_PROCESS		_BITUL(0)	/* target is a tgid */
#define RVVSTAT_HINT_CPUS		_BITUL(1)	/* set the affinity */
#define RVVSTAT_HINT_POLICY		_BITUL(2)	/* set the policy */
#define RVVSTAT_HINT_ON_VECTOR_USE	_BITUL(3)	/* at first vector use */

/*
 * A hint for one thread (target = tid) or, with RVVSTAT_HINT_PROCESS, for
 * every current and future thread of a process (target = tgid); 0 = caller.
 * Ids are in the caller's pid namespace.
 *
 * RVVSTAT_HINT_CPUS: cpus points to a CPU bitmap of cpus_size bytes, laid
 * out as for sched_setaffinity(2). It must be a non-empty set of online
 * CPUs within the thread's baseline: its allowed CPUs when it got its first
 * hint; each application narrows it to the thread's cpuset of the moment.
 * Every application is checked, with the credentials of whoever set the
 * hint, against the rules of sched_setaffinity(2) and sched_setattr(2) for
 * that thread at that moment; reset-on-fork is kept. CLEAR_HINT restores
 * the baseline affinity and policy, each only if it is still what the hint
 * set and the clearer may set the baseline by syscall. A hint ends with its
 * thread (process) and at an exec that changes credentials (AT_SECURE). A
 * process hint outlives its main thread's pthread_exit(): its process is
 * there while any thread of it runs, as for kill(2).
 * RVVSTAT_HINT_POLICY: policy is a SCHED_* value of <linux/sched.h> (NORMAL,
 * FIFO, RR, BATCH, IDLE, DEADLINE) with nice (NORMAL, BATCH), rt_priority
 * (FIFO, RR: 1..99) or dl_* in ns (DEADLINE), as sched_setattr(2) takes them.
 * RVVSTAT_HINT_ON_VECTOR_USE: apply when a thread first uses vector state
 * (at once to threads that already have); without it, apply now. Needs
 * RVVSTAT_FEATURE_VECTOR_USE, else EOPNOTSUPP.
 *
 * GET_HINT reads target and flags (only RVVSTAT_HINT_PROCESS counts) and
 * fills in the rest; if cpus is non-zero the mask is written there (up to
 * cpus_size bytes, which is set to the bytes the module has). A target the
 * caller may not read, as GET_TASK_STATS says (below), is ESRCH.
 */
struct rvvstat_hint {
	__u64 size;
	__s32 target;
	__u32 flags;
	__u64 cpus;
	__u32 cpus_size;
	__u32 policy;
	__s32 nice;
	__u32 rt_priority;
	__u64 dl_runtime;
	__u64 dl_deadline;
	__u64 dl_period;
	__u32 applied;		/* out: threads it was applied to */
	__s32 last_error;	/* out: 0 or -errno of its last application */
};

#define RVVSTAT_MAX_COUNTERS	32
#define RVVSTAT_MAX_CPU_EVENTS	8
#define RVVSTAT_MAX_HINT_EVENTS	16

/*
 * One thread's row of the task table: tid in (0 = caller), tgid out, both
 * in the caller's pid namespace; comm NUL-terminated and zero-padded. A
 * thread the caller may not read as GET_TASKS says (below) is ESRCH, as
 * one outside its namespace.
 */
struct rvvstat_task_stats {
	__u64 size;
	__s32 tid;
	__s32 tgid;			/* out, and all below */
	char comm[16];
	__u32 nr_counters;
	__u32 reserved;
	__u64 counters[RVVSTAT_MAX_COUNTERS];	/* enum rvvstat_counter */
	/* Its switches that saved vector state, by time (task layout). */
	__u64 switch_saved_hist[RVVSTAT_TASK_HIST_BUCKETS];
};

/* Every total at one instant, for deltas around a run. */
struct rvvstat_snapshot {
	__u64 size;
	__u64 time_ns;		/* CLOCK_MONOTONIC when taken */
	__u64 elapsed_ns;	/* since load or the last reset */
	__u32 tasks_live;
	__u32 table_capacity;
	__u32 nr_counters;
	__u32 nr_cpu_events;
	__u32 nr_hint_events;
	__u32 hints_live;
	__u64 counters[RVVSTAT_MAX_COUNTERS];	/* all CPUs, live and exited */
	__u64 exited[RVVSTAT_MAX_COUNTERS];	/* of that, tasks since freed */
	__u64 cpu_events[RVVSTAT_MAX_CPU_EVENTS];
	__u64 hint_events[RVVSTAT_MAX_HINT_EVENTS];
};

/*
 * SET_HINT, CLEAR_HINT and RESET change state: on a file not opened for
 * writing they are EBADF, so the device's mode says who may read and who
 * may change. The rest read, and work on any open file.
 */
#define RVVSTAT_IOC_GET_INFO		_IOWR(RVVSTAT_IOC_MAGIC, 1, struct rvvstat_info)
#define RVVSTAT_IOC_SET_HINT		_IOW(RVVSTAT_IOC_MAGIC, 2, struct rvvstat_hint)
#define RVVSTAT_IOC_GET_HINT		_IOWR(RVVSTAT_IOC_MAGIC, 3, struct rvvstat_hint)
#define RVVSTAT_IOC_CLEAR_HINT		_IOW(RVVSTAT_IOC_MAGIC, 4, struct rvvstat_hint)
#define RVVSTAT_IOC_GET_TASK_STATS	_IOWR(RVVSTAT_IOC_MAGIC, 5, struct rvvstat_task_stats)
#define RVVSTAT_IOC_SNAPSHOT		_IOWR(RVVSTAT_IOC_MAGIC, 6, struct rvvstat_snapshot)
/*
 * Zeroes the counters and histograms, as debugfs reset; needs CAP_SYS_ADMIN
 * of the caller and of whoever opened the file.
 */
#define RVVSTAT_IOC_RESET		_IO(RVVSTAT_IOC_MAGIC, 7)

/*
 * Generic netlink family RVVSTAT_GENL_NAME, version RVVSTAT_GENL_VERSION, in
 * the initial network namespace. The reads need no privilege; RESET needs
 * CAP_SYS_ADMIN of the caller and of the socket's opener, as the ioctl
 * (netlink_capable()). Errors carry an extended-ACK message.
 *
 * GET_TASKS shows no more than /proc would with hidepid=invisible: the
 * threads of the caller's pid namespace (and of those below it), under
 * their ids there, that the caller may read as it may read /proc/PID, by
 * ptrace_may_access(PTRACE_MODE_READ_FSCREDS): its own process, those whose
 * uids and gids are all its own, and with CAP_SYS_PTRACE all of them (where
 * the module cannot find that kernel function: the same credential rule
 * without ptrace's dumpable and LSM checks). Its TGID is a process id in
 * the caller's namespace; one no pid can have (0, PID_MAX_LIMIT or more)
 * is ERANGE.
 *
 * GET_INFO     do    -> ABI_VERSION BACKEND VECTOR_BITS BYTES_PER_SAVE
 *                       FEATURES NR_CPU_IDS HINT_CAPACITY
 * GET_SUMMARY  do    -> TIME_NS ELAPSED_NS TASKS_LIVE TABLE_CAPACITY
 *                       HINTS_LIVE COUNTERS EXITED CPU_EVENTS HINT_EVENTS
 *                       BYTES, and one LATENCY per kind (no BUCKETS)
 * GET_CPUS     dump  -> per possible CPU: CPU COUNTERS CPU_EVENTS BYTES
 * GET_TASKS    dump [TGID] -> per task row the caller may see (of that
 *                       process): TID TGID COMM
 *                       COUNTERS BYTES, and LATENCY: its switch_saved
 *                       histogram in the per-task layout (SUB_BITS 0);
 *                       since ABI 6 also CPU: the CPU it was last switched
 *                       in on (absent if it has not been since the module
 *                       loaded), and TASK_HINT (enum rvvstat_task_hint)
 * GET_HIST     do KIND [CPU] -> LATENCY with BUCKETS, of one CPU or all
 * RESET        do    zeroes what the debugfs reset zeroes
 *
 * Every u64 is 64-bit aligned (a PAD attribute before it where needed).
 * COUNTERS, EXITED, CPU_EVENTS and HINT_EVENTS nest one u64 per entry of
 * their enum, type = entry + 1 (type 0 pads); BUCKETS nests the non-empty
 * buckets the same way, type = bucket index + 1. A tool ignores types it
 * does not know, so new entries do not break it.
 */
#define RVVSTAT_GENL_NAME	"rvvstat"
#define RVVSTAT_GENL_VERSION	1

enum rvvstat_genl_cmd {
	RVVSTAT_CMD_UNSPEC,
	RVVSTAT_CMD_GET_INFO,
	RVVSTAT_CMD_GET_SUMMARY,
	RVVSTAT_CMD_GET_CPUS,
	RVVSTAT_CMD_GET_TASKS,
	RVVSTAT_CMD_GET_HIST,
	RVVSTAT_CMD_RESET,
	__RVVSTAT_CMD_MAX,
	RVVSTAT_CMD_MAX = __RVVSTAT_CMD_MAX - 1
};

enum rvvstat_genl_attr {
	RVVSTAT_A_UNSPEC,
	RVVSTAT_A_PAD,
	RVVSTAT_A_ABI_VERSION,		/* u32 */
	RVVSTAT_A_BACKEND,		/* u32, enum rvvstat_backend */
	RVVSTAT_A_VECTOR_BITS,		/* u32 */
	RVVSTAT_A_BYTES_PER_SAVE,	/* u32 */
	RVVSTAT_A_FEATURES,		/* u64, RVVSTAT_FEATURE_* */
	RVVSTAT_A_NR_CPU_IDS,		/* u32 */
	RVVSTAT_A_TABLE_CAPACITY,	/* u32 */
	RVVSTAT_A_HINT_CAPACITY,	/* u32 */
	RVVSTAT_A_TIME_NS,		/* u64, CLOCK_MONOTONIC when taken */
	RVVSTAT_A_ELAPSED_NS,		/* u64, since load or the last reset */
	RVVSTAT_A_TASKS_LIVE,		/* u32 */
	RVVSTAT_A_HINTS_LIVE,		/* u32 */
	RVVSTAT_A_COUNTERS,		/* nest, enum rvvstat_counter */
	RVVSTAT_A_EXITED,		/* nest, the same of exited tasks */
	RVVSTAT_A_CPU_EVENTS,		/* nest, enum rvvstat_cpu_event */
	RVVSTAT_A_HINT_EVENTS,		/* nest, enum rvvstat_hint_event */
	RVVSTAT_A_BYTES,		/* u64, bytes saved */
	RVVSTAT_A_CPU,			/* u32; in a task row its last CPU (ABI 6) */
	RVVSTAT_A_TID,			/* u32 */
	RVVSTAT_A_TGID,			/* u32 */
	RVVSTAT_A_COMM,			/* string */
	RVVSTAT_A_LATENCY,		/* nest, enum rvvstat_genl_latency_attr */
	RVVSTAT_A_KIND,			/* u32, enum rvvstat_latency */
	RVVSTAT_A_TASK_HINT,		/* u32, enum rvvstat_task_hint (ABI 6) */
	__RVVSTAT_A_MAX,
	RVVSTAT_A_MAX = __RVVSTAT_A_MAX - 1
};

/*
 * A thread's hint state in a GET_TASKS row, named by RVVSTAT_TASK_HINT_NAMES
 * in enum order. The hint that covers a thread is its own thread hint, else
 * its process's hint. Its request is the one the last accepted SET_HINT gave
 * it; a replaced request counts as new.
 *
 * NONE      no hint covers the thread
 * WAITING   a hint covers it and its request has not been applied to it yet,
 *           nor has an application of it failed: it waits for the thread's
 *           first vector use (RVVSTAT_HINT_ON_VECTOR_USE), or, for a moment,
 *           for the module's worker (a new thread of a hinted process, a
 *           first use just seen). A thread whose event the worker's queue
 *           dropped (hint event "dropped"), or that the hint table had no
 *           entry for (refused_full), stays WAITING.
 * APPLIED   the request is in effect on the thread: applying it succeeded
 * FAILED    the last application of the request to this thread failed (the
 *           hint's last_error says why if no other thread was tried since);
 *           it is tried again only when the hint is set again or a first
 *           vector use of the thread is seen again (RISC-V: after exec)
 *
 * Under WAITING and FAILED the thread keeps what it had before: its
 * baseline, or a replaced request of the same hint that was in effect.
 */
enum rvvstat_task_hint {
	RVVSTAT_TASK_HINT_NONE,
	RVVSTAT_TASK_HINT_WAITING,
	RVVSTAT_TASK_HINT_APPLIED,
	RVVSTAT_TASK_HINT_FAILED,
};

#define RVVSTAT_TASK_HINT_NAMES { "none", "waiting", "applied", "failed" }

/* One latency kind: a summary row, or with BUCKETS a whole histogram. */
enum rvvstat_genl_latency_attr {
	RVVSTAT_LAT_A_UNSPEC,
	RVVSTAT_LAT_A_PAD,
	RVVSTAT_LAT_A_KIND,		/* u32, enum rvvstat_latency */
	RVVSTAT_LAT_A_COUNT,		/* u64 samples */
	RVVSTAT_LAT_A_SUM_NS,		/* u64 ns */
	RVVSTAT_LAT_A_MIN_NS,		/* u64 ns, with COUNT > 0 */
	RVVSTAT_LAT_A_MAX_NS,		/* u64 ns, with COUNT > 0 */
	RVVSTAT_LAT_A_P50_NS,		/* u64 ns, upper bound of its bucket */
	RVVSTAT_LAT_A_P95_NS,		/* u64 ns */
	RVVSTAT_LAT_A_P99_NS,		/* u64 ns */
	RVVSTAT_LAT_A_SUB_BITS,		/* u32, the layout's S (per-CPU layout) */
	RVVSTAT_LAT_A_BUCKETS,		/* nest, GET_HIST only */
	__RVVSTAT_LAT_A_MAX,
	RVVSTAT_LAT_A_MAX = __RVVSTAT_LAT_A_MAX - 1
};

#endif /* _UAPI_LINUX_RVVSTAT_H */
