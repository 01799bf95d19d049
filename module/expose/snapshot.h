/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RVVSTAT_SNAPSHOT_H
#define _RVVSTAT_SNAPSHOT_H

#include <linux/sched.h>
#include <linux/types.h>
#include <uapi/linux/rvvstat.h>

/* What GET_INFO and SNAPSHOT return, and netlink's GET_INFO and GET_TOTALS. */
void rvv_fill_info(struct rvvstat_info *info);
void rvv_fill_snapshot(struct rvvstat_snapshot *s);
/* The bytes that these counters' saves wrote: full register files. */
u64 rvv_bytes_of(const u64 counters[RVVSTAT_NR_COUNTERS]);

/* A comm with every byte escaped: "\xNN" is four. */
#define RVV_COMM_SHOWN	(4 * TASK_COMM_LEN)

/*
 * @comm as debugfs shows it, control bytes and backslashes escaped (any
 * user can name a thread); returns @out.
 */
const char *rvv_comm_shown(char out[RVV_COMM_SHOWN], const char *comm);

#endif /* _RVVSTAT_SNAPSHOT_H */
