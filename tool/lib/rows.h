/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole dumps collected into arrays, for callers that sort, join or walk
 * the rows more than once. The arrays are the caller's to free().
 */
#ifndef RVVSTAT_ROWS_H
#define RVVSTAT_ROWS_H

#include <stddef.h>

#include "client.h"

/* Every CPU row into *@rows (*@nr of them); 0 or -errno with @err filled. */
int rvv_collect_cpus(struct rvv_client *c, struct rvv_cpu_row **rows,
		     size_t *nr, struct rvv_error *err);
/* Every task row (of process @tgid if it is not 0), likewise. */
int rvv_collect_tasks(struct rvv_client *c, uint32_t tgid,
		      struct rvv_task_row **rows, size_t *nr,
		      struct rvv_error *err);

/* qsort() order of task rows: most vector-state saves first. */
int rvv_task_by_saves_desc(const void *a, const void *b);

#endif /* RVVSTAT_ROWS_H */
