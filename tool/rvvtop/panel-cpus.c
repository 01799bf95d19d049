// SPDX-License-Identifier: GPL-2.0
/* The CPUs panel: saves, restores and bytes per CPU and for all, with a meter. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "../lib/format.h"
#include "batch.h"
#include "panel.h"
#include "record.h"
#include "screen.h"

struct cpu_view {
	uint32_t cpu;
	struct rates r;
	uint64_t switch_saved_p99_ns;	/* since reset; 0: none yet */
};

/* The panel's part of a view. */
struct cpus_part {
	struct cpu_view *cpus;
	int nr;
};

static const struct rvv_cpu_row *cpu_in(const struct sample *s, uint32_t cpu)
{
	int i;

	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

/* @part, or an empty one for an interval without rates. */
static const struct cpus_part *cpus_of(const void *part)
{
	static const struct cpus_part none;

	return part ? part : &none;
}

/* A part with room for @n CPUs, or NULL. */
static struct cpus_part *cpus_alloc(size_t n)
{
	struct cpus_part *p = calloc(1, sizeof(*p));

	if (p)
		p->cpus = calloc(n ? n : 1, sizeof(*p->cpus));
	if (p && !p->cpus) {
		free(p);
		return NULL;
	}
	return p;
}

static void cpus_free(void *part)
{
	struct cpus_part *p = part;

	free(p->cpus);
	free(p);
}

static int cpus_build(const struct sample *prev, const struct sample *cur,
		      const struct llama_reading *llama_before, const struct view *v,
		      void **part)
{
	struct cpus_part *p;
	int i;

	(void)llama_before;
	if (!prev)
		return 0;
	p = cpus_alloc((size_t)cur->nr_cpus);
	if (!p)
		return -ENOMEM;
	for (i = 0; i < cur->nr_cpus; i++) {
		const struct rvv_cpu_row *was = cpu_in(prev, cur->cpus[i].cpu);
		struct cpu_view *cv = &p->cpus[p->nr];

		if (!was || !view_rates(was->counters, cur->cpus[i].counters,
					was->bytes, cur->cpus[i].bytes, v->seconds, &cv->r))
			continue;
		cv->cpu = cur->cpus[i].cpu;
		cv->switch_saved_p99_ns = cur->cpu_p99_ns[i];
		p->nr++;
	}
	*part = p;
	return 0;
}

/* The head, the line of all CPUs and one CPU at the least. */
static int cpus_reserve(const struct view *v, const void *part)
{
	(void)part;
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
static int cpus_draw(struct screen *sc, const struct view *v, const void *part,
		     const struct table *t, int y, int lines)
{
	const struct cpus_part *p = cpus_of(part);
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
	for (i = 0; i < p->nr; i++)
		if (p->cpus[i].r.saves > most)
			most = p->cpus[i].r.saves;
	draw_cpu_line(sc, y++, "all", &v->total, 0, 0);
	shown = p->nr <= lines - 2 ? p->nr : lines - 3;
	for (i = 0; i < shown; i++) {
		snprintf(name, sizeof(name), "%" PRIu32, p->cpus[i].cpu);
		draw_cpu_line(sc, y++, name, &p->cpus[i].r, p->cpus[i].switch_saved_p99_ns, most);
	}
	if (shown < p->nr)
		screen_put(y++, 0, "  ... %d more CPUs: a taller terminal, or rvvtop -b",
			   p->nr - shown);
	return y;
}

static void cpus_text(FILE *out, const struct view *v, const void *part)
{
	const struct cpus_part *p = cpus_of(part);
	int i;

	if (!v->has_module || v->module_reset)
		return;
	fprintf(out, "%-6s %10s %10s %10s %6s %19s\n%-6s ", "cpu", "saves/s",
		"restores/s", "MB/s", "invol%", RVV_SWITCH_SAVED_P99_NAME, "all");
	batch_rates(out, &v->total);
	fputc('\n', out);
	for (i = 0; i < p->nr; i++) {
		fprintf(out, "%-6" PRIu32 " ", p->cpus[i].cpu);
		batch_rates(out, &p->cpus[i].r);
		fprintf(out, " %19" PRIu64 "\n", p->cpus[i].switch_saved_p99_ns);
	}
}

static void cpus_json(json_object *record, const struct view *v, const void *part)
{
	const struct cpus_part *p = cpus_of(part);
	json_object *cpus = json_object_new_array();
	int i;

	json_object_object_add(record, "total", v->has_module && !v->module_reset ?
			       record_rates(&v->total) : NULL);
	for (i = 0; i < p->nr; i++) {
		json_object *cpu = record_rates(&p->cpus[i].r);

		json_object_object_add(cpu, "cpu", json_object_new_int64(p->cpus[i].cpu));
		json_object_object_add(cpu, RVV_SWITCH_SAVED_P99_NAME,
				       record_p99(p->cpus[i].switch_saved_p99_ns));
		json_object_array_add(cpus, cpu);
	}
	json_object_object_add(record, "cpus", cpus);
}

static int cpus_read(struct record_reader *rd, json_object *record, struct replayed *e,
		     void **part)
{
	json_object *total = record_member(rd, record, "total", json_type_object, true);
	struct cpus_part *p = calloc(1, sizeof(*p));
	json_object *a;
	size_t i, n;

	if (!p)
		return -ENOMEM;
	*part = p;
	if (total)
		record_read_rates(rd, total, &e->v.total);
	p->cpus = record_array(rd, record, "cpus", sizeof(*p->cpus), &a, &n);
	if (!p->cpus)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(a, i);
		struct cpu_view *cv = &p->cpus[p->nr++];

		cv->cpu = (uint32_t)record_count(rd, c, "cpu");
		record_read_rates(rd, c, &cv->r);
		cv->switch_saved_p99_ns = record_maybe_count(rd, c, RVV_SWITCH_SAVED_P99_NAME);
	}
	e->s.nr_cpus = p->nr;
	return 0;
}

const struct panel cpus_panel = {
	.build = cpus_build,
	.free = cpus_free,
	.reserve = cpus_reserve,
	.draw = cpus_draw,
	.text = cpus_text,
	.json = cpus_json,
	.read = cpus_read,
};
