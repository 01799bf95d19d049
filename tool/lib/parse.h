/* SPDX-License-Identifier: GPL-2.0 */
/* Parsers of what people type on a command line. */
#ifndef RVVSTAT_PARSE_H
#define RVVSTAT_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A decimal number from 0 to @max, the whole of @text (no sign, no spaces,
 * no leading zeros but "0"): 0, -EINVAL if it is not one, -ERANGE if above.
 */
int rvv_parse_uint(const char *text, uint64_t max, uint64_t *out);
/* The index of @name in @names[@nr], or -EINVAL. */
int rvv_parse_name(const char *name, const char *const *names, int nr);

/*
 * A CPU list as in /sys/devices/system/cpu/online ("0-3,6") into the bitmap
 * @mask of @bytes bytes (the sched_setaffinity(2) layout); -EINVAL if
 * malformed or empty, -ERANGE for a CPU past the bitmap. @mask is written
 * only on success.
 */
int rvv_parse_cpulist(const char *text, uint8_t *mask, size_t bytes);

/* A duration with its unit: "250us", "2ms", "1s", "1500ns". */
int rvv_parse_duration_ns(const char *text, uint64_t *ns);

/* A scheduling policy as sched_setattr(2) takes it. */
struct rvv_policy {
	uint32_t policy;		/* SCHED_* */
	int32_t nice;			/* NORMAL, BATCH */
	uint32_t rt_priority;		/* FIFO, RR */
	uint64_t runtime_ns, deadline_ns, period_ns;	/* DEADLINE */
};

/* What follows a policy's name and a colon. */
enum rvv_policy_arg {
	RVV_POLICY_NO_ARG,	/* idle */
	RVV_POLICY_NICE,	/* normal, batch: optional */
	RVV_POLICY_PRIORITY,	/* fifo, rr */
	RVV_POLICY_DEADLINE,	/* RUNTIME/DEADLINE/PERIOD */
};

/* How a policy is written: the one table the parser and rvv_format_policy() read. */
struct rvv_policy_syntax {
	const char *name;
	uint32_t policy;		/* SCHED_* */
	enum rvv_policy_arg arg;
};

/* The syntax of SCHED_* @policy (its first name), or NULL. */
const struct rvv_policy_syntax *rvv_policy_syntax(uint32_t policy);

/*
 * "normal[:NICE]" (or "other"), "batch[:NICE]", "idle", "fifo:PRIO",
 * "rr:PRIO" or "deadline:RUNTIME/DEADLINE/PERIOD"; NICE -20..19, PRIO
 * 1..99, durations with units. -EINVAL if malformed, -ERANGE out of range;
 * @p is written only on success.
 */
int rvv_parse_policy(const char *text, struct rvv_policy *p);

#endif /* RVVSTAT_PARSE_H */
