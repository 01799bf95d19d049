// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include "device.h"

int dev_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

int dev_info(int fd, struct rvvstat_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return dev_ioctl(fd, RVVSTAT_IOC_GET_INFO, info);
}

int dev_snapshot(int fd, struct rvvstat_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	return dev_ioctl(fd, RVVSTAT_IOC_SNAPSHOT, s);
}

int dev_task_stats(int fd, pid_t tid, struct rvvstat_task_stats *ts)
{
	memset(ts, 0, sizeof(*ts));
	ts->size = sizeof(*ts);
	ts->tid = tid;
	return dev_ioctl(fd, RVVSTAT_IOC_GET_TASK_STATS, ts);
}

struct rvvstat_hint hint_for(pid_t target, __u32 flags)
{
	struct rvvstat_hint h;

	memset(&h, 0, sizeof(h));
	h.size = sizeof(h);
	h.target = target;
	h.flags = flags;
	return h;
}

struct rvvstat_hint cpus_hint(pid_t target, __u32 flags, const cpu_set_t *set)
{
	struct rvvstat_hint h = hint_for(target, flags | RVVSTAT_HINT_CPUS);

	h.cpus = (uintptr_t)set;
	h.cpus_size = sizeof(*set);
	return h;
}

struct rvvstat_hint policy_hint(pid_t target, __u32 flags, __u32 policy, int nice,
				__u32 rt_priority)
{
	struct rvvstat_hint h = hint_for(target, flags | RVVSTAT_HINT_POLICY);

	h.policy = policy;
	h.nice = nice;
	h.rt_priority = rt_priority;
	return h;
}

struct rvvstat_hint deadline_hint(pid_t target, __u64 runtime, __u64 deadline,
				  __u64 period)
{
	struct rvvstat_hint h = policy_hint(target, 0, SCHED_DEADLINE, 0, 0);

	h.dl_runtime = runtime;
	h.dl_deadline = deadline;
	h.dl_period = period;
	return h;
}

int dev_set_hint(int fd, struct rvvstat_hint h)
{
	return dev_ioctl(fd, RVVSTAT_IOC_SET_HINT, &h);
}

int dev_get_hint(int fd, pid_t target, __u32 flags, struct rvvstat_hint *h,
		 cpu_set_t *cpus)
{
	*h = hint_for(target, flags);
	if (cpus) {
		CPU_ZERO(cpus);
		h->cpus = (uintptr_t)cpus;
		h->cpus_size = sizeof(*cpus);
	}
	return dev_ioctl(fd, RVVSTAT_IOC_GET_HINT, h);
}

long dev_hint_applied(int fd, pid_t target, __u32 flags)
{
	struct rvvstat_hint h;

	return dev_get_hint(fd, target, flags, &h, NULL) ? -1 : (long)h.applied;
}

int dev_clear_hint(int fd, pid_t target, __u32 flags)
{
	struct rvvstat_hint h = hint_for(target, flags);

	return dev_ioctl(fd, RVVSTAT_IOC_CLEAR_HINT, &h);
}
