// SPDX-License-Identifier: GPL-2.0
/*
 * rvvtop's task table (tool/rvvtop/table.c) with cmocka: sorting on a
 * column both ways with ties in id order, filters by name (any case) and by
 * id, folding threads into processes, search and lookup. The expected rows
 * are worked out by hand from the five threads below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../tool/rvvtop/table.h"

/* tid, tgid, comm, cpu, hint, saves/s (= saved over 1 s), involuntary, p99 */
#define THREAD(id, group, name, on, h, n, invol, p99)				\
	{ .tid = id, .tgid = group, .comm = name, .cpu = on, .hint = h,		\
	  .r = { .saved = n, .involuntary = invol, .saves = n, .restores = n,	\
		 .bytes = 1024.0 * n,						\
		 .involuntary_pct = n ? 100.0 * invol / n : 0 },		\
	  .switch_saved_p99_ns = p99 }

static struct task_view threads[] = {
	THREAD(7, 7, "Vecload", 3, RVVSTAT_TASK_HINT_FAILED, 50, 10, 2000),
	THREAD(10, 10, "llama-server", 1, RVVSTAT_TASK_HINT_APPLIED, 100, 50, 1000),
	THREAD(11, 10, "llama-server", 2, RVVSTAT_TASK_HINT_WAITING, 300, 0, 5000),
	THREAD(12, 10, "ggml-worker", 0, RVVSTAT_TASK_HINT_NONE, 100, 100, 3000),
	THREAD(20, 20, "bash", -1, RVVSTAT_TASK_HINT_NONE, 0, 0, 0),
};

#define FIVE	threads, sizeof(threads) / sizeof(*threads)

/* The ids of the rows, in order, as a string: "11 10 12 7 20". */
static const char *ids(const struct table *t)
{
	static char buf[128];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < t->nr; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u", i ? " " : "",
				      t->rows[i].t.tid);
	return buf;
}

static const char *built(const struct table_options *o, struct table *t)
{
	assert_int_equal(0, table_build(FIVE, o, t));
	return ids(t);
}

static void sorts_on_numbers_both_ways(void **state)
{
	struct table_options o = { .sort = COL_SAVES };
	struct table t;

	(void)state;
	/* 10 and 12 tie at 100/s: in id order either way. */
	assert_string_equal("11 10 12 7 20", built(&o, &t));
	table_free(&t);
	o.ascending = true;
	assert_string_equal("20 7 10 12 11", built(&o, &t));
	table_free(&t);
	o = (struct table_options){ .sort = COL_CPU, .ascending = true };
	assert_string_equal("20 12 10 11 7", built(&o, &t));
	table_free(&t);
	o = (struct table_options){ .sort = COL_INVOLUNTARY };
	/* 100 %, 50 %, 20 %, then 0 % twice (11 and 20) in id order. */
	assert_string_equal("12 10 7 11 20", built(&o, &t));
	table_free(&t);
	o = (struct table_options){ .sort = COL_HINT };
	assert_string_equal("7 10 11 12 20", built(&o, &t));
	table_free(&t);
}

static void sorts_names_in_any_case(void **state)
{
	struct table_options o = { .sort = COL_COMM, .ascending = true };
	struct table t;

	(void)state;
	assert_string_equal("20 12 10 11 7", built(&o, &t));
	table_free(&t);
}

static void filters_by_name_or_id(void **state)
{
	struct table_options o = { .sort = COL_TID, .ascending = true, .filter = "LLAMA" };
	struct table t;

	(void)state;
	assert_string_equal("10 11", built(&o, &t));
	table_free(&t);
	o.filter = "10";		/* a process id: all its threads */
	assert_string_equal("10 11 12", built(&o, &t));
	table_free(&t);
	o.filter = "12";		/* a thread id */
	assert_string_equal("12", built(&o, &t));
	table_free(&t);
	o.filter = "1";			/* ids match whole, not in part */
	assert_string_equal("", built(&o, &t));
	table_free(&t);
	o.filter = "";
	assert_string_equal("7 10 11 12 20", built(&o, &t));
	table_free(&t);
}

static void folds_threads_into_processes(void **state)
{
	struct table_options o = { .sort = COL_SAVES, .fold = true };
	const struct table_row *p;
	struct table t;

	(void)state;
	assert_string_equal("10 7 20", built(&o, &t));
	p = &t.rows[0];
	assert_int_equal(3, p->threads);
	assert_int_equal(10, p->t.tgid);
	assert_string_equal("llama-server", p->t.comm);	/* its leader's */
	assert_int_equal(1, p->t.cpu);				/* its leader's */
	assert_int_equal(500, p->t.r.saved);
	assert_true(p->t.r.saves == 500.0);
	assert_true(p->t.r.bytes == 1024.0 * 500);
	assert_int_equal(150, p->t.r.involuntary);
	assert_true(p->t.r.involuntary_pct == 30.0);		/* 150 of 500 */
	assert_int_equal(5000, p->t.switch_saved_p99_ns);	/* the worst thread's */
	assert_int_equal(RVVSTAT_TASK_HINT_APPLIED, p->t.hint);	/* over waiting, none */
	assert_int_equal(1, t.rows[1].threads);
	assert_int_equal(RVVSTAT_TASK_HINT_FAILED, t.rows[1].t.hint);
	table_free(&t);
	/* A filter applies to threads before they fold. */
	o.filter = "worker";
	assert_string_equal("10", built(&o, &t));
	assert_int_equal(1, t.rows[0].threads);
	assert_int_equal(100, t.rows[0].t.r.saved);
	table_free(&t);
}

static void finds_and_looks_up(void **state)
{
	struct table_options o = { .sort = COL_TID, .ascending = true };
	struct table t;

	(void)state;
	built(&o, &t);				/* 7 10 11 12 20 */
	assert_int_equal(1, table_find(&t, 0, "server"));
	assert_int_equal(2, table_find(&t, 2, "server"));
	assert_int_equal(1, table_find(&t, 3, "server"));	/* wraps */
	assert_int_equal(0, table_find(&t, 1, "vec"));
	assert_int_equal(-1, table_find(&t, 0, "nginx"));
	assert_int_equal(-1, table_find(&t, 0, ""));
	assert_int_equal(3, table_index_of(&t, 12));
	assert_int_equal(-1, table_index_of(&t, 13));
	table_free(&t);
}

static void empty_view_builds_empty_table(void **state)
{
	struct table_options o = { .sort = COL_SAVES, .fold = true, .filter = "x" };
	struct table t;

	(void)state;
	assert_int_equal(0, table_build(NULL, 0, &o, &t));
	assert_int_equal(0, t.nr);
	assert_int_equal(-1, table_find(&t, 0, "x"));
	table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sorts_on_numbers_both_ways),
		cmocka_unit_test(sorts_names_in_any_case),
		cmocka_unit_test(filters_by_name_or_id),
		cmocka_unit_test(folds_threads_into_processes),
		cmocka_unit_test(finds_and_looks_up),
		cmocka_unit_test(empty_view_builds_empty_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
