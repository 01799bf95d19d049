// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/format.h"
#include "table.h"

const char *const column_names[NR_COLUMNS] = {
	[COL_TID] = "TID",
	[COL_TGID] = "TGID",
	[COL_COMM] = "COMM",
	[COL_CPU] = "CPU",
	[COL_SAVES] = "SAVES/s",
	[COL_RESTORES] = "RSTOR/s",
	[COL_BYTES] = "MB/s",
	[COL_INVOLUNTARY] = "INV%",
	[COL_P99] = RVV_SWITCH_SAVED_P99_ABBREV,
	[COL_HINT] = "HINT",
};

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static bool comm_holds(const char *comm, const char *text)
{
	return strcasestr(comm, text) != NULL;
}

static bool kept(const struct task_view *t, const char *filter)
{
	if (!filter || !*filter)
		return true;
	if (all_digits(filter)) {
		unsigned long id = strtoul(filter, NULL, 10);

		return t->tid == id || t->tgid == id;
	}
	return comm_holds(t->comm, filter);
}

/* Hint states by how much they need a look: failed, applied, waiting. */
static unsigned int hint_weight(uint32_t hint)
{
	static const unsigned int weight[] = {
		[RVVSTAT_TASK_HINT_NONE] = 0,
		[RVVSTAT_TASK_HINT_WAITING] = 1,
		[RVVSTAT_TASK_HINT_APPLIED] = 2,
		[RVVSTAT_TASK_HINT_FAILED] = 3,
	};

	return hint < sizeof(weight) / sizeof(*weight) ? weight[hint] : 0;
}

/* Adds thread @t to its process row @p. */
static void fold_in(struct table_row *p, const struct task_view *t)
{
	struct rates *r = &p->t.r;

	r->saved += t->r.saved;
	r->involuntary += t->r.involuntary;
	r->saves += t->r.saves;
	r->restores += t->r.restores;
	r->bytes += t->r.bytes;
	r->involuntary_pct = r->saved ? 100.0 * (double)r->involuntary / (double)r->saved : 0;
	if (t->switch_saved_p99_ns > p->t.switch_saved_p99_ns)
		p->t.switch_saved_p99_ns = t->switch_saved_p99_ns;
	if (hint_weight(t->hint) > hint_weight(p->t.hint))
		p->t.hint = t->hint;
	p->t.gained_vector |= t->gained_vector;
	if (t->tid == t->tgid) {	/* a process is named after its leader */
		memcpy(p->t.comm, t->comm, sizeof(p->t.comm));
		p->t.cpu = t->cpu;
	}
	p->threads++;
}

static int by_process(const void *a, const void *b)
{
	const struct task_view *x = &((const struct table_row *)a)->t;
	const struct task_view *y = &((const struct table_row *)b)->t;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* One row per process, from thread rows: grouped by tgid, summed in place. */
static void fold(struct table *t)
{
	size_t i, n = 0;

	qsort(t->rows, t->nr, sizeof(*t->rows), by_process);
	for (i = 0; i < t->nr; i++) {
		struct table_row *p = n ? &t->rows[n - 1] : NULL;

		if (p && p->t.tgid == t->rows[i].t.tgid) {
			fold_in(p, &t->rows[i].t);
			continue;
		}
		t->rows[n] = t->rows[i];
		t->rows[n].t.tid = t->rows[n].t.tgid;
		n++;
	}
	t->nr = n;
}

static double sort_key(const struct task_view *t, enum column c)
{
	switch (c) {
	case COL_TID:
		return t->tid;
	case COL_TGID:
		return t->tgid;
	case COL_CPU:
		return t->cpu;
	case COL_SAVES:
		return t->r.saves;
	case COL_RESTORES:
		return t->r.restores;
	case COL_BYTES:
		return t->r.bytes;
	case COL_INVOLUNTARY:
		return t->r.involuntary_pct;
	case COL_P99:
		return (double)t->switch_saved_p99_ns;
	case COL_HINT:
		return hint_weight(t->hint);
	default:
		return 0;
	}
}

static int by_column(const void *a, const void *b, void *arg)
{
	const struct task_view *x = &((const struct table_row *)a)->t;
	const struct task_view *y = &((const struct table_row *)b)->t;
	const struct table_options *o = arg;
	int order;

	if (o->sort == COL_COMM) {
		order = strcasecmp(x->comm, y->comm);
	} else {
		double kx = sort_key(x, o->sort), ky = sort_key(y, o->sort);

		order = kx < ky ? -1 : kx > ky;
	}
	if (!order)	/* equal keys stay in id order either way */
		return x->tid < y->tid ? -1 : x->tid > y->tid;
	return o->ascending ? order : -order;
}

int table_build(const struct task_view *tasks, size_t nr,
		const struct table_options *o, struct table *t)
{
	size_t i;

	t->nr = 0;
	t->rows = calloc(nr ? nr : 1, sizeof(*t->rows));
	if (!t->rows)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		if (!kept(&tasks[i], o->filter))
			continue;
		t->rows[t->nr].t = tasks[i];
		t->rows[t->nr++].threads = 1;
	}
	if (o->fold)
		fold(t);
	qsort_r(t->rows, t->nr, sizeof(*t->rows), by_column, (void *)o);
	return 0;
}

void table_free(struct table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->nr = 0;
}

long table_find(const struct table *t, size_t from, const char *text)
{
	size_t i, at;

	if (!text || !*text)
		return -1;
	for (i = 0; i < t->nr; i++) {
		at = (from + i) % t->nr;
		if (comm_holds(t->rows[at].t.comm, text))
			return (long)at;
	}
	return -1;
}

long table_index_of(const struct table *t, uint32_t id)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->rows[i].t.tid == id)
			return (long)i;
	return -1;
}
