// SPDX-License-Identifier: GPL-2.0
/* The tasks panel: a row per thread (or process), htop's process list. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../lib/format.h"
#include "batch.h"
#include "panel.h"
#include "record.h"
#include "screen.h"

/* The panel's part of a view. */
struct tasks_part {
	struct task_view *tasks;
	size_t nr;
};

/* @t's last CPU as text into @buf: its number, or "-" if never seen. */
static const char *task_cpu_text(const struct task_view *t, char *buf, size_t size)
{
	if (t->cpu < 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%" PRId32, t->cpu);
	return buf;
}

/*
 * The same thread (tid and tgid) in @s, or NULL. Both samples are in tid
 * order and asked in that order: *@from walks @s once per interval.
 */
static const struct rvv_task_row *task_in(const struct sample *s, size_t *from,
					  const struct rvv_task_row *t)
{
	while (*from < s->nr_tasks && s->tasks[*from].tid < t->tid)
		(*from)++;
	if (*from < s->nr_tasks && s->tasks[*from].tid == t->tid &&
	    s->tasks[*from].tgid == t->tgid)
		return &s->tasks[*from];
	return NULL;
}

/* @part, or an empty one for an interval without rates. */
static const struct tasks_part *tasks_of(const void *part)
{
	static const struct tasks_part none;

	return part ? part : &none;
}

const struct task_view *view_tasks(const struct view *v, size_t *nr)
{
	const struct tasks_part *p = tasks_of(view_part(v, &tasks_panel));

	*nr = p->nr;
	return p->tasks;
}

static void tasks_free(void *part)
{
	struct tasks_part *p = part;

	free(p->tasks);
	free(p);
}

static int tasks_build(const struct sample *prev, const struct sample *cur,
		       const struct llama_reading *llama_before, const struct view *v,
		       void **part)
{
	struct tasks_part *p;
	size_t i, from = 0;

	(void)llama_before;
	if (!prev)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	*part = p;
	p->tasks = calloc(cur->nr_tasks ? cur->nr_tasks : 1, sizeof(*p->tasks));
	if (!p->tasks)
		return -ENOMEM;
	for (i = 0; i < cur->nr_tasks; i++) {
		const struct rvv_task_row *t = &cur->tasks[i];
		const struct rvv_task_row *was = task_in(prev, &from, t);
		struct task_view *tv = &p->tasks[p->nr];
		static const uint64_t zero[RVVSTAT_MAX_COUNTERS];

		/* A thread new in this interval counts from zero. */
		if (!view_rates(was ? was->counters : zero, t->counters,
				was ? was->bytes : 0, t->bytes, v->seconds, &tv->r))
			continue;	/* a reset in between: no rate */
		tv->tid = t->tid;
		tv->tgid = t->tgid;
		memcpy(tv->comm, t->comm, sizeof(tv->comm));
		tv->cpu = t->cpu;
		tv->hint = t->hint;
		tv->switch_saved_p99_ns = t->switch_saved_p99_ns;
		tv->gained_vector = t->counters[RVVSTAT_FIRST_USE] >
				    (was ? was->counters[RVVSTAT_FIRST_USE] : 0);
		p->nr++;
	}
	return 0;
}

/* The head and five rows under the panels above. */
static int tasks_reserve(const struct view *v, const void *part)
{
	(void)v, (void)part;
	return 6;
}

static void draw_table_head(const struct screen *sc, int y)
{
	const struct table_options *o = sc->options;
	const char *first = o->fold ? "PROCS" : column_names[COL_TID];

	attron(screen_attr(sc, PAIR_BAR));
	move(y, 0);
	hline(' ', COLS);
	screen_put(y, 0, "%7s %7s %-15s %3s %7s %7s %6s %5s %7s %-7s", first,
		   column_names[COL_TGID], column_names[COL_COMM], column_names[COL_CPU],
		   column_names[COL_SAVES], column_names[COL_RESTORES], column_names[COL_BYTES],
		   column_names[COL_INVOLUNTARY], column_names[COL_P99], column_names[COL_HINT]);
	attroff(screen_attr(sc, PAIR_BAR));
}

/*
 * Pads @text in @buf (@size bytes) with spaces to @columns columns on the
 * terminal: a UTF-8 name ("сервер", "推理") is fewer columns than bytes.
 * Bytes the locale cannot read count one column each.
 */
static void pad_to_columns(char *buf, size_t size, int columns)
{
	wchar_t wide[RVV_COMM_SAFE_SIZE];
	size_t n = mbstowcs(wide, buf, RVV_COMM_SAFE_SIZE);
	size_t len = strlen(buf);
	int width = n == (size_t)-1 ? -1 : wcswidth(wide, n);

	if (width < 0)
		width = (int)len;
	for (; width < columns && len + 1 < size; width++)
		buf[len++] = ' ';
	buf[len] = '\0';
}

static void draw_row(const struct screen *sc, int y, const struct table_row *row,
		     bool selected)
{
	const struct task_view *t = &row->t;
	char cells[4][16], tid[16], cpu[16], p99[16], comm[RVV_COMM_SAFE_SIZE];
	attr_t attr = selected ? A_REVERSE : A_NORMAL;

	if (t->gained_vector)
		attr |= screen_attr(sc, PAIR_GAINED);
	screen_rates_cells(&t->r, cells);
	/* The column's 15 bytes, cut between escapes and characters. */
	rvv_format_untrusted(t->comm, RVV_UNTRUSTED_TEXT, comm, 16);
	pad_to_columns(comm, sizeof(comm), 15);
	if (sc->options->fold)
		snprintf(tid, sizeof(tid), "%u", row->threads);
	else
		snprintf(tid, sizeof(tid), "%" PRIu32, t->tid);
	attron(attr);
	if (selected) {
		move(y, 0);
		hline(' ', COLS);
	}
	screen_put(y, 0, "%7s %7" PRIu32 " %s %3s %7s %7s %6s %5s %7s ", tid, t->tgid,
		   comm, task_cpu_text(t, cpu, sizeof(cpu)), cells[0], cells[1], cells[2],
		   cells[3], rvv_format_task_p99_bound(t->switch_saved_p99_ns, p99, sizeof(p99)));
	if (t->hint == RVVSTAT_TASK_HINT_FAILED)
		attron(screen_attr(sc, PAIR_WARN));
	screen_put_on("%s", t->hint ? rvv_format_task_hint(t->hint) : "-");
	if (t->hint == RVVSTAT_TASK_HINT_FAILED)
		attroff(screen_attr(sc, PAIR_WARN));
	attroff(attr);
}

/* htop's F6 panel: the columns, over the table's left side from row @y. */
static void draw_sort_menu(const struct screen *sc, int y)
{
	int i;

	attron(screen_attr(sc, PAIR_BAR));
	screen_put(y, 0, "%-12s", "Sort by");
	attroff(screen_attr(sc, PAIR_BAR));
	for (i = 0; i < NR_COLUMNS && y + 1 + i < LINES - 1; i++) {
		attr_t attr = i == (int)sc->sort_choice ? A_REVERSE : A_NORMAL;

		attron(attr);
		screen_put(y + 1 + i, 0, "%c %-10s", i == (int)sc->options->sort ? '*' : ' ',
			   column_names[i]);
		attroff(attr);
	}
}

/* The head, then the rows from sc->top that fit in @lines, the selection among them. */
static int tasks_draw(struct screen *sc, const struct view *v, const void *part,
		      const struct table *t, int y, int lines)
{
	int top = y;
	size_t i;

	(void)v, (void)part;	/* the screen's table is of the part's rows */
	if (y >= LINES - 1)
		return y;
	draw_table_head(sc, y++);
	sc->table_lines = lines > 1 ? (size_t)(lines - 1) : 0;
	if (sc->selected >= 0 && (size_t)sc->selected < sc->top)
		sc->top = (size_t)sc->selected;
	if (sc->selected >= 0 && (size_t)sc->selected >= sc->top + sc->table_lines)
		sc->top = (size_t)sc->selected - sc->table_lines + 1;
	if (sc->top > t->nr)
		sc->top = 0;
	for (i = sc->top; i < t->nr && i < sc->top + sc->table_lines; i++)
		draw_row(sc, y++, &t->rows[i], (long)i == sc->selected);
	if (sc->prompt == PROMPT_SORT)
		draw_sort_menu(sc, top);
	return y;
}

static void tasks_text(FILE *out, const struct view *v, const void *part)
{
	const struct tasks_part *p = tasks_of(part);
	size_t t;

	if (!v->has_module || v->module_reset)
		return;
	fprintf(out, "%8s %8s %-16s %3s %10s %10s %10s %6s %19s %s\n", "tid", "tgid",
		"comm", "cpu", "saves/s", "restores/s", "MB/s", "invol%",
		RVV_SWITCH_SAVED_P99_NAME, "hint");
	for (t = 0; t < p->nr; t++) {
		const struct task_view *tv = &p->tasks[t];
		char cpu[16], p99[24], comm[RVV_COMM_SAFE_SIZE];

		if (!tv->r.saved && !tv->gained_vector)
			continue;
		rvv_format_untrusted(tv->comm, RVV_UNTRUSTED_TEXT, comm, sizeof(comm));
		fprintf(out, "%8" PRIu32 " %8" PRIu32 " %-16s %3s ", tv->tid, tv->tgid,
			comm, task_cpu_text(tv, cpu, sizeof(cpu)));
		batch_rates(out, &tv->r);
		fprintf(out, " %19s %s%s\n",
			rvv_format_task_p99(tv->switch_saved_p99_ns, p99, sizeof(p99)),
			rvv_format_task_hint(tv->hint), tv->gained_vector ? " +V" : "");
	}
}

static void tasks_json(json_object *record, const struct view *v, const void *part)
{
	const struct tasks_part *p = tasks_of(part);
	json_object *tasks = json_object_new_array();
	size_t t;

	(void)v;
	for (t = 0; t < p->nr; t++) {
		const struct task_view *tv = &p->tasks[t];
		json_object *task = record_rates(&tv->r);
		char comm[RVV_COMM_SAFE_SIZE];

		json_object_object_add(task, "tid", json_object_new_int64(tv->tid));
		json_object_object_add(task, "tgid", json_object_new_int64(tv->tgid));
		rvv_format_untrusted(tv->comm, RVV_UNTRUSTED_JSON, comm, sizeof(comm));
		json_object_object_add(task, "comm", json_object_new_string(comm));
		json_object_object_add(task, "cpu", tv->cpu < 0 ? NULL : json_object_new_int(tv->cpu));
		json_object_object_add(task, "hint", json_object_new_string(rvv_format_task_hint(tv->hint)));
		json_object_object_add(task, RVV_SWITCH_SAVED_P99_NAME,
				       record_p99(tv->switch_saved_p99_ns));
		json_object_object_add(task, "gained_vector",
				       json_object_new_boolean(tv->gained_vector));
		json_object_array_add(tasks, task);
	}
	json_object_object_add(record, "tasks", tasks);
}

static const char *hint_name(unsigned int i)
{
	return rvv_format_task_hint(i);
}

static int tasks_read(struct record_reader *rd, json_object *record, struct replayed *e,
		      void **part)
{
	struct tasks_part *p = calloc(1, sizeof(*p));
	json_object *a;
	size_t i, n;

	(void)e;
	if (!p)
		return -ENOMEM;
	*part = p;
	p->tasks = record_array(rd, record, "tasks", sizeof(*p->tasks), &a, &n);
	if (!p->tasks)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(a, i);
		struct task_view *tv = &p->tasks[p->nr++];
		const char *comm;
		double cpu;

		tv->tid = (uint32_t)record_count(rd, t, "tid");
		tv->tgid = (uint32_t)record_count(rd, t, "tgid");
		comm = json_object_get_string(record_member(rd, t, "comm", json_type_string, false));
		/* As --json wrote it (U+FFFD for bytes that were not UTF-8), cut to fit. */
		snprintf(tv->comm, sizeof(tv->comm), "%s", comm ? comm : "");
		tv->cpu = record_maybe_number(rd, t, "cpu", &cpu) ? (int32_t)cpu : -1;
		tv->hint = record_named(rd, t, "hint", hint_name, 8);
		tv->switch_saved_p99_ns = record_maybe_count(rd, t, RVV_SWITCH_SAVED_P99_NAME);
		tv->gained_vector = record_flag(rd, t, "gained_vector");
		record_read_rates(rd, t, &tv->r);
	}
	return 0;
}

const struct panel tasks_panel = {
	.build = tasks_build,
	.free = tasks_free,
	.reserve = tasks_reserve,
	.draw = tasks_draw,
	.fills = true,
	.text = tasks_text,
	.json = tasks_json,
	.read = tasks_read,
};
