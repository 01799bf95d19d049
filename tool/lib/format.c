// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <linux/rvvstat.h>
#include <linux/sched.h>

#include "format.h"

static bool bit(const uint8_t *mask, size_t cpu)
{
	return mask[cpu / 8] & (1U << (cpu % 8));
}

int rvv_format_cpulist(const uint8_t *mask, size_t bytes, char *buf,
		       size_t size)
{
	size_t cpu, last, used = 0;
	int n;

	if (!size)
		return -ENOSPC;
	buf[0] = '\0';
	for (cpu = 0; cpu < bytes * 8; cpu = last + 1) {
		if (!bit(mask, cpu)) {
			last = cpu;
			continue;
		}
		for (last = cpu; last + 1 < bytes * 8 && bit(mask, last + 1); last++)
			;
		n = last == cpu ?
		    snprintf(buf + used, size - used, "%s%zu", used ? "," : "", cpu) :
		    snprintf(buf + used, size - used, "%s%zu-%zu", used ? "," : "", cpu, last);
		if (n < 0 || (size_t)n >= size - used)
			return -ENOSPC;
		used += (size_t)n;
	}
	return 0;
}

/* Nanoseconds in the largest unit that holds them whole. */
static const char *duration(uint64_t ns, char *buf, size_t size)
{
	if (ns && !(ns % 1000000000))
		snprintf(buf, size, "%" PRIu64 "s", ns / 1000000000);
	else if (ns && !(ns % 1000000))
		snprintf(buf, size, "%" PRIu64 "ms", ns / 1000000);
	else if (ns && !(ns % 1000))
		snprintf(buf, size, "%" PRIu64 "us", ns / 1000);
	else
		snprintf(buf, size, "%" PRIu64 "ns", ns);
	return buf;
}

int rvv_format_policy(const struct rvv_policy *p, char *buf, size_t size)
{
	char runtime[24], deadline[24], period[24];
	int n;

	switch (p->policy) {
	case SCHED_NORMAL:
		n = snprintf(buf, size, "normal:%" PRId32, p->nice);
		break;
	case SCHED_BATCH:
		n = snprintf(buf, size, "batch:%" PRId32, p->nice);
		break;
	case SCHED_IDLE:
		n = snprintf(buf, size, "idle");
		break;
	case SCHED_FIFO:
		n = snprintf(buf, size, "fifo:%" PRIu32, p->rt_priority);
		break;
	case SCHED_RR:
		n = snprintf(buf, size, "rr:%" PRIu32, p->rt_priority);
		break;
	case SCHED_DEADLINE:
		n = snprintf(buf, size, "deadline:%s/%s/%s",
			     duration(p->runtime_ns, runtime, sizeof(runtime)),
			     duration(p->deadline_ns, deadline, sizeof(deadline)),
			     duration(p->period_ns, period, sizeof(period)));
		break;
	default:
		n = snprintf(buf, size, "policy-%" PRIu32, p->policy);
	}
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

const char *rvv_format_task_hint(uint32_t hint)
{
	static const char *const names[] = RVVSTAT_TASK_HINT_NAMES;

	return hint < sizeof(names) / sizeof(*names) ? names[hint] : "unknown";
}

static const char *backend_word(const char *const *words, size_t n, uint32_t backend)
{
	return backend < n && words[backend] ? words[backend] : "unknown";
}

const char *rvv_format_backend_name(uint32_t backend)
{
	static const char *const names[] = RVVSTAT_BACKEND_NAMES;

	return backend_word(names, sizeof(names) / sizeof(*names), backend);
}

const char *rvv_format_backend_title(uint32_t backend)
{
	static const char *const titles[] = RVVSTAT_BACKEND_TITLES;

	return backend_word(titles, sizeof(titles) / sizeof(*titles), backend);
}
