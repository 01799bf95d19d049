// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "device.h"
#include "diagnose.h"
#include "parse.h"

int rvv_device_open(int *fd, struct rvv_error *err)
{
	*fd = open(RVV_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	/* Read-only access (a mode of 0640) still reads; changes say EBADF. */
	if (*fd < 0 && errno == EACCES)
		*fd = open(RVV_DEVICE_PATH, O_RDONLY | O_CLOEXEC);
	if (*fd >= 0)
		return 0;
	switch (errno) {
	case ENOENT:
		return rvv_diagnose_no_device(RVV_DEVICE_PATH, err);
	case EACCES:
		return rvv_fail(err, -EACCES, "%s is root-only (mode 0600): run as root, or let a group use it with a udev rule KERNEL==\"rvvstat\", GROUP=\"rvvstat\", MODE=\"0660\"",
				RVV_DEVICE_PATH);
	default:
		return rvv_fail(err, -errno, "cannot open %s: %s",
				RVV_DEVICE_PATH, strerror(errno));
	}
}

const char *rvv_hint_strerror(int error, bool set)
{
	switch (error) {
	case ESRCH:
		return set ? "no such thread or process (ids are in your pid namespace)" :
			     "no such thread or process, or not yours to read (ids are in your pid namespace)";
	case EBADF:
		return "you may read /dev/rvvstat but not write it: changing hints needs write access (a udev rule with MODE=\"0660\" for your group)";
	case EPERM:
		return "not permitted: another user's thread, or a policy or priority above your limits (CAP_SYS_NICE, RLIMIT_RTPRIO, RLIMIT_NICE)";
	case EBUSY:
		return "the kernel's deadline admission control refused the bandwidth";
	case ENOSPC:
		return "the hint table is full (module parameter hint_table_size)";
	case EDQUOT:
		return "your share of the hint table is used up (a quarter of hint_table_size per user; clear hints you hold)";
	case ENOENT:
		return "no hint for that thread or process";
	case EINVAL:
		return set ? "refused: the CPUs must be online and within the thread's baseline (its affinity at its first hint), the policy valid, and the target not a kernel thread" :
			     "invalid request";
	default:
		return strerror(error);
	}
}

void rvv_hint_fill(struct rvvstat_hint *h, int32_t target, bool process,
		   const uint8_t *cpus, size_t cpus_size,
		   const struct rvv_policy *policy, bool on_vector)
{
	memset(h, 0, sizeof(*h));
	h->target = target;
	if (process)
		h->flags |= RVVSTAT_HINT_PROCESS;
	if (on_vector)
		h->flags |= RVVSTAT_HINT_ON_VECTOR_USE;
	if (cpus) {
		h->flags |= RVVSTAT_HINT_CPUS;
		h->cpus = (uintptr_t)cpus;
		h->cpus_size = cpus_size;
	}
	if (policy) {
		h->flags |= RVVSTAT_HINT_POLICY;
		h->policy = policy->policy;
		h->nice = policy->nice;
		h->rt_priority = policy->rt_priority;
		h->dl_runtime = policy->runtime_ns;
		h->dl_deadline = policy->deadline_ns;
		h->dl_period = policy->period_ns;
	}
}

static int hint_ioctl(int fd, unsigned long cmd, struct rvvstat_hint *h,
		      const char *what, bool set, struct rvv_error *err)
{
	h->size = sizeof(*h);
	if (!ioctl(fd, cmd, h))
		return 0;
	return rvv_fail(err, -errno, "%s %s %d: %s", what,
			h->flags & RVVSTAT_HINT_PROCESS ? "process" : "thread",
			h->target, rvv_hint_strerror(errno, set));
}

int rvv_hint_set(int fd, struct rvvstat_hint *h, struct rvv_error *err)
{
	return hint_ioctl(fd, RVVSTAT_IOC_SET_HINT, h, "hint set", true, err);
}

int rvv_hint_get(int fd, struct rvvstat_hint *h, struct rvv_error *err)
{
	return hint_ioctl(fd, RVVSTAT_IOC_GET_HINT, h, "hint get", false, err);
}

int rvv_hint_clear(int fd, struct rvvstat_hint *h, struct rvv_error *err)
{
	return hint_ioctl(fd, RVVSTAT_IOC_CLEAR_HINT, h, "hint clear", false, err);
}
