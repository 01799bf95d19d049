/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RVVSTAT_SUMMARY_H
#define _RVVSTAT_SUMMARY_H

#include <linux/seq_file.h>

/* debugfs's summary: counts, latency, hints, CPUs and the top tasks. */
int rvv_summary_show(struct seq_file *m, void *unused);

#endif /* _RVVSTAT_SUMMARY_H */
