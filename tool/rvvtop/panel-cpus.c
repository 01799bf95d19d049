// SPDX-License-Identifier: GPL-2.0
/* The CPUs panel: saves, restores and bytes per CPU and for all, with a meter. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "../lib/format.h"
#include "panel.h"

static const struct rvv_cpu_row *cpu_in(const struct sample *s, uint32_t cpu)
{
	int i;

	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

static int cpus_build(const struct sample *prev, const struct sample *cur,
		      const struct llama_reading *llama_before, struct view *v)
{
	int i;

	(void)llama_before;
	if (!prev)
		return 0;
	v->cpus = calloc(cur->nr_cpus ? cur->nr_cpus : 1, sizeof(*v->cpus));
	if (!v->cpus)
		return -ENOMEM;
	for (i = 0; i < cur->nr_cpus; i++) {
		const struct rvv_cpu_row *was = cpu_in(prev, cur->cpus[i].cpu);
		struct cpu_view *cv = &v->cpus[v->nr_cpus];

		if (!was || !view_rates(was->counters, cur->cpus[i].counters,
					was->bytes, cur->cpus[i].bytes, v->seconds, &cv->r))
			continue;
		cv->cpu = cur->cpus[i].cpu;
		cv->switch_saved_p99_ns = cur->cpu_p99_ns[i];
		v->nr_cpus++;
	}
	return 0;
}

/* The head, the line of all CPUs and one CPU at the least. */
static int cpus_reserve(const struct view *v)
{
	return v->has_module ? 3 : 0;
}

/* One CPU line: its rates, p99 and a meter of saves/s against @most. */
static void draw_cpu_line(const struct screen *sc, int y, const char *name,
			  const struct rates *r, uint64_t p99, double most)
{
	char cells[4][16], p99_text[16];
	int width = COLS - 45, bar, i;	/* what the 41 columns of text leave */

	screen_rates_cells(r, cells);
	screen_put(y, 0, "%-4s %7s %7s %6s %5s %7s", name, cells[0], cells[1], cells[2],
		   cells[3], p99 ? screen_duration(p99, p99_text, sizeof(p99_text)) : "");
	if (width < 2 || most <= 0)
		return;
	bar = (int)((double)width * r->saves / most + 0.5);
	addstr(" [");
	attron(screen_attr(sc, PAIR_METER));
	for (i = 0; i < width; i++)
		addch(i < bar ? '|' : ' ');
	attroff(screen_attr(sc, PAIR_METER));
	addch(']');
}

/* The CPUs in at most @lines lines (head and total included), 3 at the least. */
static int cpus_draw(struct screen *sc, const struct view *v, const struct table *t,
		     int y, int lines)
{
	double most = 0;
	char name[16];
	int i, shown;

	(void)t;
	if (!v->has_module)
		return y;
	if (lines < 3)
		lines = 3;
	attron(screen_attr(sc, PAIR_LABEL));
	screen_put(y++, 0, "%-4s %7s %7s %6s %5s %7s", "CPU", "SAVES/s", "RSTOR/s", "MB/s",
		   "INV%", column_names[COL_P99]);
	attroff(screen_attr(sc, PAIR_LABEL));
	if (v->module_reset) {
		screen_put(y++, 0, "counters were reset or the module reloaded: rates resume next interval");
		return y;
	}
	for (i = 0; i < v->nr_cpus; i++)
		if (v->cpus[i].r.saves > most)
			most = v->cpus[i].r.saves;
	draw_cpu_line(sc, y++, "all", &v->total, 0, 0);
	shown = v->nr_cpus <= lines - 2 ? v->nr_cpus : lines - 3;
	for (i = 0; i < shown; i++) {
		snprintf(name, sizeof(name), "%" PRIu32, v->cpus[i].cpu);
		draw_cpu_line(sc, y++, name, &v->cpus[i].r, v->cpus[i].switch_saved_p99_ns, most);
	}
	if (shown < v->nr_cpus)
		screen_put(y++, 0, "  ... %d more CPUs: a taller terminal, or rvvtop -b",
			   v->nr_cpus - shown);
	return y;
}

static void cpus_text(FILE *out, const struct view *v)
{
	int i;

	if (!v->has_module || v->module_reset)
		return;
	fprintf(out, "%-6s %10s %10s %10s %6s %19s\n%-6s ", "cpu", "saves/s",
		"restores/s", "MB/s", "invol%", RVV_SWITCH_SAVED_P99_NAME, "all");
	batch_rates(out, &v->total);
	fputc('\n', out);
	for (i = 0; i < v->nr_cpus; i++) {
		fprintf(out, "%-6" PRIu32 " ", v->cpus[i].cpu);
		batch_rates(out, &v->cpus[i].r);
		fprintf(out, " %19" PRIu64 "\n", v->cpus[i].switch_saved_p99_ns);
	}
}

static void cpus_json(json_object *record, const struct view *v)
{
	json_object *cpus = json_object_new_array();
	int i;

	json_object_object_add(record, "total", v->has_module && !v->module_reset ?
			       record_rates(&v->total) : NULL);
	for (i = 0; i < v->nr_cpus; i++) {
		json_object *cpu = record_rates(&v->cpus[i].r);

		json_object_object_add(cpu, "cpu", json_object_new_int64(v->cpus[i].cpu));
		json_object_object_add(cpu, RVV_SWITCH_SAVED_P99_NAME,
				       record_p99(v->cpus[i].switch_saved_p99_ns));
		json_object_array_add(cpus, cpu);
	}
	json_object_object_add(record, "cpus", cpus);
}

static int cpus_read(struct record_reader *rd, json_object *record, struct replayed *e)
{
	json_object *total = record_member(rd, record, "total", json_type_object, true);
	struct view *v = &e->v;
	json_object *a;
	size_t i, n;

	if (total)
		record_read_rates(rd, total, &v->total);
	v->cpus = record_array(rd, record, "cpus", sizeof(*v->cpus), &a, &n);
	if (!v->cpus)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(a, i);
		struct cpu_view *cv = &v->cpus[v->nr_cpus++];

		cv->cpu = (uint32_t)record_count(rd, c, "cpu");
		record_read_rates(rd, c, &cv->r);
		cv->switch_saved_p99_ns = record_maybe_count(rd, c, RVV_SWITCH_SAVED_P99_NAME);
	}
	e->s.nr_cpus = v->nr_cpus;
	return 0;
}

const struct panel cpus_panel = {
	.build = cpus_build,
	.reserve = cpus_reserve,
	.draw = cpus_draw,
	.text = cpus_text,
	.json = cpus_json,
	.read = cpus_read,
};
