// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdarg.h>
#include <ncurses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <wchar.h>

#include "../lib/format.h"
#include "panel.h"
#include "screen.h"

attr_t screen_attr(const struct screen *sc, enum pair p)
{
	static const attr_t mono[] = {
		[PAIR_LABEL] = A_BOLD,
		[PAIR_BAR] = A_REVERSE,
		[PAIR_GAINED] = A_BOLD,
		[PAIR_WARN] = A_BOLD | A_UNDERLINE,
		[PAIR_METER] = A_NORMAL,
	};

	return sc->colour ? (attr_t)COLOR_PAIR(p) | (p == PAIR_LABEL ? A_BOLD : 0) : mono[p];
}

int screen_start(bool colour, struct screen *sc)
{
	const char *no_color = getenv("NO_COLOR");

	/* newterm, not initscr: that would exit on a terminal it cannot use. */
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || !newterm(NULL, stdout, stdin))
		return -ENOTTY;
	cbreak();
	noecho();
	set_escdelay(25);	/* Esc at a prompt acts now, not after a second */
	keypad(stdscr, TRUE);
	curs_set(0);
	sc->colour = colour && has_colors() && !(no_color && no_color[0]);
	if (sc->colour) {
		start_color();
		use_default_colors();
		init_pair(PAIR_LABEL, COLOR_CYAN, -1);
		init_pair(PAIR_BAR, COLOR_BLACK, COLOR_CYAN);
		init_pair(PAIR_GAINED, COLOR_GREEN, -1);
		init_pair(PAIR_WARN, COLOR_RED, -1);
		init_pair(PAIR_METER, COLOR_GREEN, -1);
	}
	return 0;
}

void screen_stop(void)
{
	endwin();
}

void screen_put(int y, int x, const char *fmt, ...)
{
	char line[512];
	va_list args;

	if (y < 0 || y >= LINES || x >= COLS)
		return;
	va_start(args, fmt);
	vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	mvaddnstr(y, x, line, COLS - x);
}

/* Not past the screen's last line but one: the status line's. */
int screen_put_wrapped(int y, int x, const char *text, int lines)
{
	const char *next;
	size_t len;

	for (; *text && lines > 0 && y < LINES - 1; y++, lines--, text = next) {
		len = rvv_format_wrap(text, COLS > x + 1 ? (size_t)(COLS - x - 1) : 1, &next);
		screen_put(y, x, "%.*s", (int)len, text);
	}
	return y;
}

/* @v in at most 7 characters: 12.3, 12345, 1.2M. */
static const char *compact(double v, char *buf, size_t size)
{
	if (v < 9999.95)
		snprintf(buf, size, "%.1f", v);
	else if (v < 999999.5)
		snprintf(buf, size, "%.0f", v);
	else if (v < 999.95e6)
		snprintf(buf, size, "%.1fM", v / 1e6);
	else
		snprintf(buf, size, "%.1fG", v / 1e9);
	return buf;
}

const char *screen_duration(uint64_t ns, char *buf, size_t size)
{
	if (!ns)
		snprintf(buf, size, "-");
	else if (ns < 1000)
		snprintf(buf, size, "%" PRIu64 "ns", ns);
	else if (ns < 999950)
		snprintf(buf, size, "%.1fus", (double)ns / 1e3);
	else if (ns < 999950000)
		snprintf(buf, size, "%.1fms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.1fs", (double)ns / 1e9);
	return buf;
}

void screen_rates_cells(const struct rates *r, char cells[4][16])
{
	compact(r->saves, cells[0], sizeof(cells[0]));
	compact(r->restores, cells[1], sizeof(cells[1]));
	compact(r->bytes / 1e6, cells[2], sizeof(cells[2]));
	snprintf(cells[3], sizeof(cells[3]), "%.0f", r->involuntary_pct);
}

static int draw_title(const struct screen *sc, const struct sample *s,
		      const struct view *v, int y)
{
	const struct table_options *o = sc->options;
	char every[32];
	uint64_t up;

	attron(screen_attr(sc, PAIR_LABEL));
	screen_put(y, 0, "rvvtop");
	attroff(screen_attr(sc, PAIR_LABEL));
	if (!v->has_module) {
		if (sc->replay)
			screen_put_on("  %s: no numbers from rvvstat", sc->replay);
		else
			screen_put_on("  no numbers from rvvstat; trying again every %" PRIu64 " s",
			       sc->delay_s);
		attron(screen_attr(sc, PAIR_WARN));
		y = screen_put_wrapped(y + 1, 0, v->module_why ? v->module_why : "", LINES);
		attroff(screen_attr(sc, PAIR_WARN));
		return y + 1;
	}
	if (sc->paused) {
		attron(screen_attr(sc, PAIR_WARN));
		screen_put_on(" PAUSED");
		attroff(screen_attr(sc, PAIR_WARN));
	}
	up = s->summary.elapsed_ns / 1000000000;
	snprintf(every, sizeof(every), "every %" PRIu64 " s", sc->delay_s);
	screen_put_on("  %s %" PRIu32 "-bit %" PRIu32 " B/save  up %" PRIu64 ":%02" PRIu64 ":%02" PRIu64
	       "  %s", rvv_format_backend_title(s->info.backend),
	       s->info.vector_bits, s->info.bytes_per_save, up / 3600, up / 60 % 60,
	       up % 60, sc->replay ? sc->replay : every);
	screen_put(y + 1, 0, "sort %s %s%s%s%s%s  tasks %" PRIu32 "/%" PRIu32 "  hints %" PRIu32
	    "  methods:%s%s%s%s",
	    column_names[o->sort], o->ascending ? "up" : "down", o->fold ? "  folded" : "",
	    o->filter && o->filter[0] ? "  filter \"" : "", o->filter ? o->filter : "",
	    o->filter && o->filter[0] ? "\"" : "", s->summary.tasks_live,
	    s->summary.table_capacity, s->summary.hints_live,
	    s->info.features & RVVSTAT_FEATURE_SWITCH_TIMING ? " switch-timing" : "",
	    s->info.features & RVVSTAT_FEATURE_SAVE_PROBES ? " save-probes" : "",
	    s->info.features & RVVSTAT_FEATURE_RESTORE_PROBES ? " restore-probes" : "",
	    s->info.features & RVVSTAT_FEATURE_VECTOR_USE ? " first-use-trap" : "");
	return y + 2;
}

static void draw_status(const struct screen *sc)
{
	size_t i;

	move(LINES - 1, 0);
	clrtoeol();
	if (sc->prompt == PROMPT_RESET) {
		attron(screen_attr(sc, PAIR_WARN));
		screen_put(LINES - 1, 0, "Reset every counter and histogram of rvvstat? (y/N) ");
		attroff(screen_attr(sc, PAIR_WARN));
		return;
	}
	if (sc->prompt == PROMPT_SORT) {
		screen_put(LINES - 1, 0, "Sort by: Up Down choose  Enter: sort  Esc: cancel");
		return;
	}
	if (sc->prompt != PROMPT_NONE) {
		screen_put(LINES - 1, 0, "%s: %s_   Enter: done  Esc: %s",
		    sc->prompt == PROMPT_FILTER ? "Filter (name or id)" : "Search", sc->input,
		    sc->prompt == PROMPT_FILTER ? "clear" : "cancel");
		return;
	}
	if (sc->message[0]) {
		screen_put(LINES - 1, 0, "%s", sc->message);
		return;
	}
	for (i = 0; i < sc->nr_keys; i++) {
		if (!sc->keys[i].bar_key)
			continue;
		screen_put_on("%s", sc->keys[i].bar_key);
		attron(screen_attr(sc, PAIR_BAR));
		screen_put_on("%-7s", sc->keys[i].bar_label);
		attroff(screen_attr(sc, PAIR_BAR));
	}
}

/* A heading of the help page, in the label colour. */
static void help_heading(const struct screen *sc, int y, const char *text)
{
	attron(screen_attr(sc, PAIR_LABEL));
	screen_put(y, 0, "%s", text);
	attroff(screen_attr(sc, PAIR_LABEL));
}

static void draw_help(const struct screen *sc)
{
	static const char *const columns[] = {
		"  SAVES/s RSTOR/s  vector-state saves and restores per second",
		"  MB/s     bytes of register state saved per second",
		"  INV%     share of the saves made at involuntary (preempting) switches",
		"  " RVV_SWITCH_SAVED_P99_ABBREV "    p99 of the switches that saved vector state, since reset,",
		"           of the thread or CPU (" RVV_SWITCH_SAVED_P99_NAME " in -b, --json)",
		"  CPU      where the thread last ran",
		"  HINT     its rvvctl hint: waiting (for first vector use), applied, failed",
		"  green or bold rows: threads that first used vector state this interval",
	};
	int y = 0;
	size_t i;

	erase();
	help_heading(sc, y++, "rvvtop: vector-state switching beside llama-server's throughput");
	y++;
	help_heading(sc, y++, "Keys");
	for (i = 0; i < sc->nr_keys && y < LINES; i++)
		if (sc->keys[i].help)
			screen_put(y++, 0, "  %-10s %s", sc->keys[i].names, sc->keys[i].help);
	y++;
	help_heading(sc, y++, "Columns (rates are over the last interval)");
	for (i = 0; i < sizeof(columns) / sizeof(*columns) && y < LINES; i++)
		screen_put(y++, 0, "%s", columns[i]);
}

/*
 * Lines kept under panel @i of pass @fills for the panels drawn after it
 * and the status line.
 */
static int kept_below(const struct view *v, bool fills, size_t i)
{
	int lines = 1;
	size_t j;

	for (j = 0; j < nr_panels; j++)
		if (panels[j]->fills == fills ? j > i : !fills)
			lines += panels[j]->reserve(v, v->parts[j]);
	return lines;
}

void screen_draw(struct screen *sc, const struct sample *s,
		 const struct view *v, const struct table *t)
{
	int pass, y;
	size_t i;

	if (sc->help) {
		draw_help(sc);
		refresh();
		return;
	}
	erase();
	y = draw_title(sc, s, v, 0);
	/* The panels top down; the one that fills takes what the others leave. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < nr_panels; i++)
			if (panels[i]->fills == (pass == 1))
				y = panels[i]->draw(sc, v, v->parts[i], t, y,
						    LINES - y - kept_below(v, pass == 1, i));
	draw_status(sc);
	refresh();
}
