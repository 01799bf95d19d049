// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "rows.h"

/* An array of rows of one size, doubled as rows come. */
struct growing {
	void *data;
	size_t nr, capacity, size;
};

static int grow_add(struct growing *g, const void *row)
{
	if (g->nr == g->capacity) {
		size_t capacity = g->capacity ? 2 * g->capacity : 64;
		void *data = realloc(g->data, capacity * g->size);

		if (!data)
			return -ENOMEM;
		g->data = data;
		g->capacity = capacity;
	}
	memcpy((char *)g->data + g->nr++ * g->size, row, g->size);
	return 0;
}

static int add_cpu(const struct rvv_cpu_row *row, void *arg)
{
	return grow_add(arg, row);
}

static int add_task(const struct rvv_task_row *row, void *arg)
{
	return grow_add(arg, row);
}

/* Hands the rows over on success, frees them on failure. */
static int collected(struct growing *g, int status, void **rows, size_t *nr,
		     struct rvv_error *err, const char *what)
{
	if (status) {
		free(g->data);
		if (status == -ENOMEM)
			return rvv_fail(err, status, "%s: no memory for %zu rows", what, g->nr);
		return status;
	}
	*rows = g->data;
	*nr = g->nr;
	return 0;
}

int rvv_collect_cpus(struct rvv_client *c, struct rvv_cpu_row **rows,
		     size_t *nr, struct rvv_error *err)
{
	struct growing g = { .size = sizeof(**rows) };
	int status = rvv_client_dump_cpus(c, add_cpu, &g, err);

	return collected(&g, status, (void **)rows, nr, err, "cpus");
}

int rvv_collect_tasks(struct rvv_client *c, uint32_t tgid,
		      struct rvv_task_row **rows, size_t *nr,
		      struct rvv_error *err)
{
	struct growing g = { .size = sizeof(**rows) };
	int status = rvv_client_dump_tasks(c, tgid, add_task, &g, err);

	return collected(&g, status, (void **)rows, nr, err, "tasks");
}

int rvv_task_by_saves_desc(const void *a, const void *b)
{
	uint64_t x = rvv_saves(((const struct rvv_task_row *)a)->counters),
		 y = rvv_saves(((const struct rvv_task_row *)b)->counters);

	return x < y ? 1 : x > y ? -1 : 0;
}
