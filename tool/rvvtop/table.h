/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The task table as the interactive view shows it: rows of one interval,
 * filtered by name or id, optionally folded into their processes, sorted
 * on any column. No drawing here, so it can be tested on its own.
 */
#ifndef RVVTOP_TABLE_H
#define RVVTOP_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "view.h"

/* A thread's row in the tasks panel (panel-tasks.c). */
struct task_view {
	uint32_t tid, tgid;
	char comm[16];
	struct rates r;
	int32_t cpu;			/* last CPU it ran on; -1 unknown */
	uint32_t hint;			/* enum rvvstat_task_hint */
	uint64_t switch_saved_p99_ns;	/* of all its saving switches so far */
	bool gained_vector;		/* first_use grew in this interval */
};

enum column {
	COL_TID,	/* the process id when folded */
	COL_TGID,
	COL_COMM,
	COL_CPU,
	COL_SAVES,
	COL_RESTORES,
	COL_BYTES,
	COL_INVOLUNTARY,
	COL_P99,
	COL_HINT,
	NR_COLUMNS
};

/* Header text of each column, as the table and the help show it. */
extern const char *const column_names[NR_COLUMNS];

struct table_options {
	enum column sort;
	bool ascending;
	bool fold;		/* one row per process */
	const char *filter;	/* "" or NULL: every row */
};

struct table_row {
	struct task_view t;	/* a folded row: the sums of its threads */
	unsigned int threads;	/* how many threads a folded row holds */
};

struct table {
	struct table_row *rows;
	size_t nr;
};

/*
 * Rows of the @nr @tasks under @o. A filter of digits only keeps the
 * thread or process with that id; other text keeps rows whose comm
 * contains it (any case). 0 or -ENOMEM.
 */
int table_build(const struct task_view *tasks, size_t nr,
		const struct table_options *o, struct table *t);
void table_free(struct table *t);

/* Index of the first row from @from on (wrapping) whose comm holds @text. */
long table_find(const struct table *t, size_t from, const char *text);
/* Index of the row of thread (or folded process) @id, or -1. */
long table_index_of(const struct table *t, uint32_t id);

#endif /* RVVTOP_TABLE_H */
