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
#include "screen.h"

enum pair {
	PAIR_LABEL = 1,		/* column heads and panel names */
	PAIR_BAR,		/* the table's head and the status line */
	PAIR_GAINED,		/* threads that gained vector state */
	PAIR_WARN,		/* failures and states that need a look */
	PAIR_METER,
};

/* Attributes of each role, with and without colour. */
static attr_t role_attr(const struct screen *sc, enum pair p)
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

/* printf at (@y, @x), cut at the right edge instead of wrapping. */
__attribute__((format(printf, 3, 4)))
static void put(int y, int x, const char *fmt, ...)
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

/* The same where the cursor is. */
#define put_on(...)	do { int y_, x_; getyx(stdscr, y_, x_); put(y_, x_, __VA_ARGS__); } while (0)

/* The most lines a reason about llama-server takes: URL, what failed, what to do. */
#define LLAMA_WHY_LINES	3

/*
 * @text from line @y, column @x on, wrapped at words, not cut, on at most
 * @lines lines (and above the last of the screen). The line after it.
 */
static int put_wrapped(int y, int x, const char *text, int lines)
{
	const char *next;
	size_t len;

	for (; *text && lines > 0 && y < LINES - 1; y++, lines--, text = next) {
		len = rvv_format_wrap(text, COLS > x + 1 ? (size_t)(COLS - x - 1) : 1, &next);
		put(y, x, "%.*s", (int)len, text);
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

/* Nanoseconds in at most 7 characters: 850ns, 12.3us, 4.1ms; "-" for 0. */
static const char *duration(uint64_t ns, char *buf, size_t size)
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

static void rates_cells(const struct rates *r, char cells[4][16])
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

	attron(role_attr(sc, PAIR_LABEL));
	put(y, 0, "rvvtop");
	attroff(role_attr(sc, PAIR_LABEL));
	if (!v->has_module) {
		if (sc->replay)
			put_on("  %s: no numbers from rvvstat", sc->replay);
		else
			put_on("  no numbers from rvvstat; trying again every %" PRIu64 " s",
			       sc->delay_s);
		attron(role_attr(sc, PAIR_WARN));
		y = put_wrapped(y + 1, 0, v->module_why ? v->module_why : "", LINES);
		attroff(role_attr(sc, PAIR_WARN));
		return y + 1;
	}
	if (sc->paused) {
		attron(role_attr(sc, PAIR_WARN));
		put_on(" PAUSED");
		attroff(role_attr(sc, PAIR_WARN));
	}
	up = s->summary.elapsed_ns / 1000000000;
	snprintf(every, sizeof(every), "every %" PRIu64 " s", sc->delay_s);
	put_on("  %s %" PRIu32 "-bit %" PRIu32 " B/save  up %" PRIu64 ":%02" PRIu64 ":%02" PRIu64
	       "  %s", rvv_format_backend_title(s->info.backend),
	       s->info.vector_bits, s->info.bytes_per_save, up / 3600, up / 60 % 60,
	       up % 60, sc->replay ? sc->replay : every);
	put(y + 1, 0, "sort %s %s%s%s%s%s  tasks %" PRIu32 "/%" PRIu32 "  hints %" PRIu32
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

/* One CPU line: its rates, p99 and a meter of saves/s against @most. */
static void draw_cpu_line(const struct screen *sc, int y, const char *name,
			  const struct rates *r, uint64_t p99, double most)
{
	char cells[4][16], p99_text[16];
	int width = COLS - 45, bar, i;	/* what the 41 columns of text leave */

	rates_cells(r, cells);
	put(y, 0, "%-4s %7s %7s %6s %5s %7s", name, cells[0], cells[1], cells[2],
	    cells[3], p99 ? duration(p99, p99_text, sizeof(p99_text)) : "");
	if (width < 2 || most <= 0)
		return;
	bar = (int)((double)width * r->saves / most + 0.5);
	addstr(" [");
	attron(role_attr(sc, PAIR_METER));
	for (i = 0; i < width; i++)
		addch(i < bar ? '|' : ' ');
	attroff(role_attr(sc, PAIR_METER));
	addch(']');
}

/* The CPUs in at most @lines lines (head and total included). */
static int draw_cpus(const struct screen *sc, const struct view *v, int y,
		     int lines)
{
	double most = 0;
	char name[16];
	int i, shown;

	if (!v->has_module)
		return y;
	attron(role_attr(sc, PAIR_LABEL));
	put(y++, 0, "%-4s %7s %7s %6s %5s %7s", "CPU", "SAVES/s", "RSTOR/s", "MB/s",
	    "INV%", column_names[COL_P99]);
	attroff(role_attr(sc, PAIR_LABEL));
	if (v->module_reset) {
		put(y++, 0, "counters were reset or the module reloaded: rates resume next interval");
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
		put(y++, 0, "  ... %d more CPUs: a taller terminal, or rvvtop -b", v->nr_cpus - shown);
	return y;
}

/* tok/s history in the characters left on the line, newest on the right. */
static void draw_sparkline(const struct screen *sc, int width)
{
	static const char levels[] = " _.-=+*#";
	double most = 0;
	size_t i, first;

	if (width < 4 || !sc->history_len)
		return;
	first = sc->history_len > (size_t)width ? sc->history_len - (size_t)width : 0;
	for (i = first; i < sc->history_len; i++)
		if (sc->history[i] > most)
			most = sc->history[i];
	attron(role_attr(sc, PAIR_METER));
	for (i = first; i < sc->history_len; i++)
		addch(most > 0 ? levels[(int)(sc->history[i] / most * 7 + 0.5)] : ' ');
	attroff(role_attr(sc, PAIR_METER));
}

static int draw_llama(const struct screen *sc, const struct view *v, int y)
{
	const struct llama_view *l = &v->llama;
	int x, unused;

	if (!v->has_llama)
		return y;
	attron(role_attr(sc, PAIR_LABEL));
	put(y, 0, "llama-server");
	attroff(role_attr(sc, PAIR_LABEL));
	if (l->state != LLAMA_UP)
		attron(role_attr(sc, PAIR_WARN));
	put_on(" %s", llama_state_name(l->state));
	if (l->state != LLAMA_UP)
		attroff(role_attr(sc, PAIR_WARN));
	if (l->state == LLAMA_WAITING || l->state == LLAMA_DOWN || l->state == LLAMA_LOADING) {
		put_on(": %s", llama_state_advice(l->state));
		return put_wrapped(y + 1, 2, l->why ? l->why : "", LLAMA_WHY_LINES);
	}
	if (l->no_new_reading)
		put_on("  no new reading: slow to answer  ");
	else if (l->has_live)
		put_on("  %.1f tok/s  %d/%d slots busy  ", l->tokens_per_s, l->busy_slots, l->slots);
	else if (l->has_slots)
		put_on("  no live rate yet: two readings needed  ");
	else if (l->slots_why)
		put_on("  /slots failed: no live rate  ");
	else
		put_on("  --no-slots: no live rate  ");
	getyx(stdscr, unused, x);
	(void)unused;
	draw_sparkline(sc, COLS - x - 1);
	y++;
	if (l->restarted)
		put(y++, 2, "restarted: its counters went back; completed counts resume next time");
	else if (l->has_metrics)
		put(y++, 2, "completed %.0f generated, %.0f prompt tokens; %.0f processing, %.0f deferred",
		    l->predicted_done, l->prompt_done, l->processing, l->deferred);
	/* Why there are no counts, or what else went wrong (a key /slots wants). */
	y = put_wrapped(y, 2, l->why ? l->why : l->state != LLAMA_UP ?
			llama_state_advice(l->state) : "", LLAMA_WHY_LINES);
	y = put_wrapped(y, 2, l->slots_why ? l->slots_why : "", LLAMA_WHY_LINES);
	if (l->has_join)
		put(y, 2, "vector saves: %.2f per generated token, %.1f per second of generation",
		    l->saves_per_token, l->saves_per_generating_s);
	else
		put(y, 2, "vector saves per token: when tokens are generated");
	return y + 1;
}

static void draw_table_head(const struct screen *sc, int y)
{
	const struct table_options *o = sc->options;
	const char *first = o->fold ? "PROCS" : column_names[COL_TID];

	attron(role_attr(sc, PAIR_BAR));
	move(y, 0);
	hline(' ', COLS);
	put(y, 0, "%7s %7s %-15s %3s %7s %7s %6s %5s %7s %-7s", first,
	    column_names[COL_TGID], column_names[COL_COMM], column_names[COL_CPU],
	    column_names[COL_SAVES], column_names[COL_RESTORES], column_names[COL_BYTES],
	    column_names[COL_INVOLUNTARY], column_names[COL_P99], column_names[COL_HINT]);
	attroff(role_attr(sc, PAIR_BAR));
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
		attr |= role_attr(sc, PAIR_GAINED);
	rates_cells(&t->r, cells);
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
	put(y, 0, "%7s %7" PRIu32 " %s %3s %7s %7s %6s %5s %7s ", tid, t->tgid,
	    comm, task_cpu_text(t, cpu, sizeof(cpu)), cells[0], cells[1], cells[2], cells[3],
	    duration(t->switch_saved_p99_ns, p99, sizeof(p99)));
	if (t->hint == RVVSTAT_TASK_HINT_FAILED)
		attron(role_attr(sc, PAIR_WARN));
	put_on("%s", t->hint ? rvv_format_task_hint(t->hint) : "-");
	if (t->hint == RVVSTAT_TASK_HINT_FAILED)
		attroff(role_attr(sc, PAIR_WARN));
	attroff(attr);
}

static void draw_table(struct screen *sc, const struct table *t, int y)
{
	int lines = LINES - 1 - (y + 1);
	size_t i;

	draw_table_head(sc, y++);
	sc->table_lines = lines > 0 ? (size_t)lines : 0;
	if (sc->selected >= 0 && (size_t)sc->selected < sc->top)
		sc->top = (size_t)sc->selected;
	if (sc->selected >= 0 && (size_t)sc->selected >= sc->top + sc->table_lines)
		sc->top = (size_t)sc->selected - sc->table_lines + 1;
	if (sc->top > t->nr)
		sc->top = 0;
	for (i = sc->top; i < t->nr && i < sc->top + sc->table_lines; i++)
		draw_row(sc, y++, &t->rows[i], (long)i == sc->selected);
}

static void draw_status(const struct screen *sc)
{
	static const char *const keys[][2] = {
		{ "F1", "Help" }, { "F3", "Search" }, { "F4", "Filter" }, { "F6", "Sort" },
		{ "H", "Fold" }, { "Spc", "Pause" }, { "r", "Reset" }, { "+-", "Delay" },
		{ "q", "Quit" },
	};
	size_t i;

	move(LINES - 1, 0);
	clrtoeol();
	if (sc->prompt == PROMPT_RESET) {
		attron(role_attr(sc, PAIR_WARN));
		put(LINES - 1, 0, "Reset every counter and histogram of rvvstat? (y/N) ");
		attroff(role_attr(sc, PAIR_WARN));
		return;
	}
	if (sc->prompt == PROMPT_SORT) {
		put(LINES - 1, 0, "Sort by: Up Down choose  Enter: sort  Esc: cancel");
		return;
	}
	if (sc->prompt != PROMPT_NONE) {
		put(LINES - 1, 0, "%s: %s_   Enter: done  Esc: %s",
		    sc->prompt == PROMPT_FILTER ? "Filter (name or id)" : "Search", sc->input,
		    sc->prompt == PROMPT_FILTER ? "clear" : "cancel");
		return;
	}
	if (sc->message[0]) {
		put(LINES - 1, 0, "%s", sc->message);
		return;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		put_on("%s", keys[i][0]);
		attron(role_attr(sc, PAIR_BAR));
		put_on("%-7s", keys[i][1]);
		attroff(role_attr(sc, PAIR_BAR));
	}
}

/* htop's F6 panel: the columns, over the table's left side from row @y. */
static void draw_sort_menu(const struct screen *sc, int y)
{
	int i;

	attron(role_attr(sc, PAIR_BAR));
	put(y, 0, "%-12s", "Sort by");
	attroff(role_attr(sc, PAIR_BAR));
	for (i = 0; i < NR_COLUMNS && y + 1 + i < LINES - 1; i++) {
		attr_t attr = i == (int)sc->sort_choice ? A_REVERSE : A_NORMAL;

		attron(attr);
		put(y + 1 + i, 0, "%c %-10s", i == (int)sc->options->sort ? '*' : ' ',
		    column_names[i]);
		attroff(attr);
	}
}

static void draw_help(const struct screen *sc)
{
	static const char *const lines[] = {
		"rvvtop: vector-state switching beside llama-server's throughput",
		"",
		"Keys",
		"  F1 h ?     this help; any key returns",
		"  F3 /       search a name; F3 or n again: the next match",
		"  F4 \\       filter: a name (part of comm, any case) or a thread/process id",
		"  F6         sort by a column from a list; > < the next / previous column",
		"  I          invert the order",
		"  H          fold threads into their process (PROCS: how many threads)",
		"  Up Down PgUp PgDn Home End   move the selection",
		"  Space      pause (the numbers stay; keys still work); + - the refresh delay",
		"  r          reset the module's counters and histograms (asks first; root)",
		"  t T        a replay's next / previous interval (also Right, Left)",
		"  q F10      quit",
		"",
		"Columns (rates are over the last interval)",
		"  SAVES/s RSTOR/s  vector-state saves and restores per second",
		"  MB/s     bytes of register state saved per second",
		"  INV%     share of the saves made at involuntary (preempting) switches",
		"  " RVV_SWITCH_SAVED_P99_ABBREV "    p99 of the switches that saved vector state, since reset,",
		"           of the thread or CPU (" RVV_SWITCH_SAVED_P99_NAME " in -b, --json)",
		"  CPU      where the thread last ran",
		"  HINT     its rvvctl hint: waiting (for first vector use), applied, failed",
		"  green or bold rows: threads that first used vector state this interval",
	};
	size_t i;

	erase();
	for (i = 0; i < sizeof(lines) / sizeof(*lines) && (int)i < LINES; i++) {
		if (!lines[i][0] || lines[i][0] != ' ')
			attron(role_attr(sc, PAIR_LABEL));
		put((int)i, 0, "%s", lines[i]);
		attroff(role_attr(sc, PAIR_LABEL));
	}
}

void screen_draw(struct screen *sc, const struct sample *s,
		 const struct view *v, const struct table *t)
{
	int y, cpu_lines;

	if (sc->help) {
		draw_help(sc);
		refresh();
		return;
	}
	erase();
	y = draw_title(sc, s, v, 0);
	/* Leave the table at least 5 rows under the llama-server panel. */
	cpu_lines = LINES - y - (v->has_llama ? 3 : 0) - 2 - 5;
	y = draw_cpus(sc, v, y, cpu_lines < 3 ? 3 : cpu_lines);
	y = draw_llama(sc, v, y);
	if (y < LINES - 1)
		draw_table(sc, t, y);
	if (sc->prompt == PROMPT_SORT && y < LINES - 1)
		draw_sort_menu(sc, y);
	draw_status(sc);
	refresh();
}
