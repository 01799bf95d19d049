// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sched.h>

#include "parse.h"

int rvv_parse_uint(const char *text, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	const char *p;

	if (!*text || (text[0] == '0' && text[1]))
		return -EINVAL;
	for (p = text; *p; p++)
		if (*p < '0' || *p > '9')
			return -EINVAL;
	for (p = text; *p; p++) {
		uint64_t digit = (uint64_t)(*p - '0');

		if (digit > max || v > (max - digit) / 10)
			return -ERANGE;
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

int rvv_parse_name(const char *name, const char *const *names, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -EINVAL;
}

/* Parses [@start, @end) as a number up to @max. */
static int parse_uint_span(const char *start, const char *end, uint64_t max,
			   uint64_t *out)
{
	size_t len = (size_t)(end - start);
	const char *p;
	char buf[32];

	if (len >= sizeof(buf)) {	/* no such number fits: why not? */
		for (p = start; p < end; p++)
			if (*p < '0' || *p > '9')
				return -EINVAL;
		return *start == '0' ? -EINVAL : -ERANGE;
	}
	memcpy(buf, start, len);
	buf[len] = '\0';
	return rvv_parse_uint(buf, max, out);
}

/* Walks "A" and "A-B" items; sets their bits if @mask is not NULL. */
static int cpulist_walk(const char *text, uint8_t *mask, size_t bytes)
{
	const char *item = text;
	uint64_t first, last, cpu;
	int status;

	for (;;) {
		const char *end = item + strcspn(item, ",");
		const char *dash = memchr(item, '-', (size_t)(end - item));

		status = parse_uint_span(item, dash ? dash : end, UINT32_MAX, &first);
		if (!status)
			status = dash ? parse_uint_span(dash + 1, end, UINT32_MAX, &last) :
				 (last = first, 0);
		if (status)
			return status;
		if (last < first)
			return -EINVAL;
		if (last >= bytes * 8)
			return -ERANGE;
		for (cpu = first; mask && cpu <= last; cpu++)
			mask[cpu / 8] |= (uint8_t)(1U << (cpu % 8));
		if (!*end)
			return 0;
		item = end + 1;
	}
}

int rvv_parse_cpulist(const char *text, uint8_t *mask, size_t bytes)
{
	int status = cpulist_walk(text, NULL, bytes);

	if (status)
		return status;
	memset(mask, 0, bytes);
	return cpulist_walk(text, mask, bytes);
}

int rvv_parse_duration_ns(const char *text, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	size_t digits = strspn(text, "0123456789");
	unsigned int i;
	uint64_t v;
	int status;

	for (i = 0; i < sizeof(units) / sizeof(*units); i++) {
		if (strcmp(text + digits, units[i].suffix))
			continue;
		status = parse_uint_span(text, text + digits,
					 UINT64_MAX / units[i].ns, &v);
		if (!status)
			*ns = v * units[i].ns;
		return status;
	}
	return -EINVAL;
}

/* "-20".."19" */
static int parse_nice(const char *text, int32_t *nice)
{
	bool negative = *text == '-';
	uint64_t v;
	int status = rvv_parse_uint(text + negative, negative ? 20 : 19, &v);

	if (!status)
		*nice = negative ? -(int32_t)v : (int32_t)v;
	return status;
}

static int parse_deadline(const char *text, struct rvv_policy *p)
{
	const char *slash1 = strchr(text, '/');
	const char *slash2 = slash1 ? strchr(slash1 + 1, '/') : NULL;
	char runtime[32], deadline[32];
	int status;

	if (!slash2 || strchr(slash2 + 1, '/') ||
	    (size_t)(slash1 - text) >= sizeof(runtime) ||
	    (size_t)(slash2 - slash1 - 1) >= sizeof(deadline))
		return -EINVAL;
	memcpy(runtime, text, (size_t)(slash1 - text));
	runtime[slash1 - text] = '\0';
	memcpy(deadline, slash1 + 1, (size_t)(slash2 - slash1 - 1));
	deadline[slash2 - slash1 - 1] = '\0';
	status = rvv_parse_duration_ns(runtime, &p->runtime_ns);
	if (!status)
		status = rvv_parse_duration_ns(deadline, &p->deadline_ns);
	if (!status)
		status = rvv_parse_duration_ns(slash2 + 1, &p->period_ns);
	if (status)
		return status;
	/* As sched_setattr(2) wants them: 0 < runtime <= deadline <= period. */
	if (!p->runtime_ns || p->runtime_ns > p->deadline_ns ||
	    p->deadline_ns > p->period_ns)
		return -ERANGE;
	return 0;
}

static const struct rvv_policy_syntax policies[] = {
	{ "normal", SCHED_NORMAL, RVV_POLICY_NICE },
	{ "other", SCHED_NORMAL, RVV_POLICY_NICE },
	{ "batch", SCHED_BATCH, RVV_POLICY_NICE },
	{ "idle", SCHED_IDLE, RVV_POLICY_NO_ARG },
	{ "fifo", SCHED_FIFO, RVV_POLICY_PRIORITY },
	{ "rr", SCHED_RR, RVV_POLICY_PRIORITY },
	{ "deadline", SCHED_DEADLINE, RVV_POLICY_DEADLINE },
};

const struct rvv_policy_syntax *rvv_policy_syntax(uint32_t policy)
{
	for (size_t i = 0; i < sizeof(policies) / sizeof(*policies); i++)
		if (policies[i].policy == policy)
			return &policies[i];
	return NULL;
}

int rvv_parse_policy(const char *text, struct rvv_policy *p)
{
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	const struct rvv_policy_syntax *syntax = NULL;
	struct rvv_policy parsed = { 0 };
	const char *arg = colon ? colon + 1 : NULL;
	uint64_t prio = 0;
	int status;

	for (size_t i = 0; i < sizeof(policies) / sizeof(*policies); i++)
		if (strlen(policies[i].name) == len && !strncmp(text, policies[i].name, len))
			syntax = &policies[i];
	if (!syntax)
		return -EINVAL;
	parsed.policy = syntax->policy;
	switch (syntax->arg) {
	case RVV_POLICY_NICE:
		status = arg ? parse_nice(arg, &parsed.nice) : 0;
		break;
	case RVV_POLICY_NO_ARG:
		status = arg ? -EINVAL : 0;
		break;
	case RVV_POLICY_PRIORITY:
		status = arg ? rvv_parse_uint(arg, 99, &prio) : -EINVAL;
		if (!status && !prio)
			status = -ERANGE;
		parsed.rt_priority = (uint32_t)prio;
		break;
	default:
		status = arg ? parse_deadline(arg, &parsed) : -EINVAL;
	}
	if (!status)
		*p = parsed;
	return status;
}
