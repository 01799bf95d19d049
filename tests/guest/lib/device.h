/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /dev/rvvstat's ioctls as the guest tests call them: each returns 0 or
 * -errno, with the size field filled; and SET_HINT arguments built.
 */
#ifndef RVVSTAT_GUEST_DEVICE_H
#define RVVSTAT_GUEST_DEVICE_H

/* Needs _GNU_SOURCE, for cpu_set_t. */
#include <sched.h>
#include <sys/types.h>
#include <linux/rvvstat.h>

int dev_ioctl(int fd, unsigned long req, void *arg);
int dev_info(int fd, struct rvvstat_info *info);
int dev_snapshot(int fd, struct rvvstat_snapshot *s);
int dev_task_stats(int fd, pid_t tid, struct rvvstat_task_stats *ts);

/* SET_HINT arguments for @target, with @flags added. */
struct rvvstat_hint hint_for(pid_t target, __u32 flags);
struct rvvstat_hint cpus_hint(pid_t target, __u32 flags, const cpu_set_t *set);
struct rvvstat_hint policy_hint(pid_t target, __u32 flags, __u32 policy, int nice,
				__u32 rt_priority);
struct rvvstat_hint deadline_hint(pid_t target, __u64 runtime, __u64 deadline,
				  __u64 period);

int dev_set_hint(int fd, struct rvvstat_hint h);
/* GET_HINT of @target into @h, and its mask into @cpus unless NULL. */
int dev_get_hint(int fd, pid_t target, __u32 flags, struct rvvstat_hint *h,
		 cpu_set_t *cpus);
/* The hint's applied count; -1 if it has none. */
long dev_hint_applied(int fd, pid_t target, __u32 flags);
int dev_clear_hint(int fd, pid_t target, __u32 flags);

#endif /* RVVSTAT_GUEST_DEVICE_H */
