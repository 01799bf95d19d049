// SPDX-License-Identifier: GPL-2.0
/*
 * What the module reports, filled into the uapi structs from the owners of
 * each part (accounting, hints, the backend), for /dev/rvvstat and the
 * netlink family alike; and the figures derived from the counters.
 */
#include <linux/sched/clock.h>
#include <linux/sprintf.h>
#include <linux/timekeeping.h>

#include "core/accounting.h"
#include "arch/arch.h"
#include "hints/hints.h"
#include "timing/latency.h"
#include "expose/snapshot.h"

/* Every save of a full register file, at a switch or in kernel-mode V. */
u64 rvv_bytes_of(const u64 counters[RVVSTAT_NR_COUNTERS])
{
	return (counters[RVVSTAT_SAVES_USER] + counters[RVVSTAT_SAVES_KERNEL] +
		counters[RVVSTAT_KERNEL_V_SAVES]) * rvv_arch_bytes_per_save();
}

void rvv_fill_info(struct rvvstat_info *info)
{
	/* All of it is output: nothing the caller sent in it survives. */
	*info = (struct rvvstat_info){ .size = info->size };
	info->abi_version = RVVSTAT_ABI_VERSION;
	info->nr_cpu_ids = nr_cpu_ids;
	info->hint_capacity = rvv_hints_capacity();
	info->nr_counters = RVVSTAT_NR_COUNTERS;
	info->nr_hint_events = RVVSTAT_NR_HINT_EVENTS;
	info->bytes_per_save = rvv_arch_bytes_per_save();
	rvv_arch_info(info);
	if (rvv_latency_switch_timing())
		info->features |= RVVSTAT_FEATURE_SWITCH_TIMING;
}

void rvv_fill_snapshot(struct rvvstat_snapshot *s)
{
	struct rvv_totals totals;
	int i;

	rvv_snapshot_totals(&totals);
	s->time_ns = ktime_get_ns();
	s->elapsed_ns = local_clock() - totals.since_ns;
	s->tasks_live = totals.tasks_live;
	s->table_capacity = totals.table_capacity;
	s->nr_counters = RVVSTAT_NR_COUNTERS;
	s->nr_cpu_events = RVVSTAT_NR_CPU_EVENTS;
	s->nr_hint_events = RVVSTAT_NR_HINT_EVENTS;
	for (i = 0; i < RVVSTAT_NR_COUNTERS; i++) {
		s->counters[i] = totals.all.c[i];
		s->exited[i] = totals.exited.c[i];
	}
	for (i = 0; i < RVVSTAT_NR_CPU_EVENTS; i++)
		s->cpu_events[i] = totals.events[i];
	rvv_hints_snapshot(s->hint_events, &s->hints_live);
}

/*
 * A comm as the tasks file and the summary show it. Any user can name a
 * thread: control bytes (a newline would forge a row, ESC would reach the
 * reader's terminal) become \xNN and a backslash \\, as in rvvctl's text.
 * Other bytes pass as they are, so UTF-8 names stay legible.
 */
const char *rvv_comm_shown(char out[RVV_COMM_SHOWN], const char *comm)
{
	char *at = out;
	size_t i;

	for (i = 0; i < TASK_COMM_LEN && comm[i]; i++) {
		unsigned char c = comm[i];

		if (c < 0x20 || c == 0x7f)
			at += sprintf(at, "\\x%02x", c);
		else if (c == '\\')
			at += sprintf(at, "\\\\");
		else
			*at++ = c;
	}
	*at = '\0';
	return out;
}
