// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <ncurses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "interactive.h"
#include "keys.h"
#include "panel.h"
#include "screen.h"

#define HISTORY		512	/* tok/s intervals kept for the sparkline */
#define MAX_DELAY_S	3600
#define KEY_ESCAPE	27
#define CTRL_U		21	/* clears the prompt, as in a shell */

struct ui {
	struct screen sc;
	struct table_options options;
	char filter[64];
	char search[64];
	char input[64];
	char message[400];
	char replay_at[48];		/* the title's "replay 3/120 15:00:01" */
	uint32_t selected_id;		/* follows its row across refreshes */
	bool has_selection;
	double history[HISTORY];
	size_t history_len;
	bool quit;
};

struct live {
	struct sampler sr;
	struct view v;			/* a replay's is borrowed from it */
	struct table t;
	double next_s;			/* when the next sample is due */
	FILE *record;
	const struct recording *replay;	/* NULL: live */
	size_t at;			/* the replayed interval */
};

/* The sample the title shows: the newest, or the replayed interval's. */
static const struct sample *shown_sample(const struct live *l)
{
	return l->replay ? &l->replay->at[l->at].s : sampler_newest(&l->sr);
}

static void drop_view(struct live *l)
{
	if (l->replay)
		memset(&l->v, 0, sizeof(l->v));
	else
		view_free(&l->v);
}

static void history_add(struct ui *ui, double tokens_per_s)
{
	if (ui->history_len == HISTORY) {
		memmove(ui->history, ui->history + 1, (HISTORY - 1) * sizeof(*ui->history));
		ui->history_len--;
	}
	ui->history[ui->history_len++] = tokens_per_s;
}

/*
 * The selection's row in the new table; if its thread went, the row now at
 * its place (as htop does), clamped to the table.
 */
static void reselect(struct ui *ui, const struct table *t)
{
	long at = ui->has_selection ? table_index_of(t, ui->selected_id) : -1;

	if (at < 0)
		at = ui->sc.selected < 0 ? 0 : ui->sc.selected;
	if (at >= (long)t->nr)
		at = (long)t->nr - 1;
	if (at >= 0)
		ui->selected_id = t->rows[at].t.tid;
	ui->sc.selected = at;
}

static void select_row(struct ui *ui, const struct table *t, long at)
{
	if (!t->nr)
		return;
	if (at < 0)
		at = 0;
	if (at >= (long)t->nr)
		at = (long)t->nr - 1;
	ui->sc.selected = at;
	ui->selected_id = t->rows[at].t.tid;
	ui->has_selection = true;
}

static int rebuild_table(struct ui *ui, struct live *l)
{
	const struct task_view *tasks;
	size_t nr;
	int status;

	table_free(&l->t);
	ui->options.filter = ui->filter;
	tasks = view_tasks(&l->v, &nr);
	status = table_build(tasks, nr, &ui->options, &l->t);
	if (!status)
		reselect(ui, &l->t);
	return status;
}

static int refresh_sample(struct ui *ui, struct live *l)
{
	double tokens_per_s;
	int status;

	drop_view(l);
	status = sampler_next(&l->sr, &l->v);
	if (!status && l->record)
		status = record_write(l->record, sampler_newest(&l->sr), &l->v);
	if (status)
		return status;
	if (view_tokens_per_s(&l->v, &tokens_per_s))
		history_add(ui, tokens_per_s);
	return rebuild_table(ui, l);
}

/*
 * The replay's interval @at, with the tok/s history of the intervals up to
 * it; the first or last one says so instead of moving past it.
 */
static void replay_seek(struct ui *ui, struct live *l, long at)
{
	const struct sample *s;
	double tokens_per_s;
	struct tm tm;
	time_t when;
	size_t i;

	if (at < 0 || at >= (long)l->replay->n) {
		snprintf(ui->message, sizeof(ui->message), "the %s interval of the recording",
			 at < 0 ? "first" : "last");
		return;
	}
	l->at = (size_t)at;
	drop_view(l);
	l->v = l->replay->at[at].v;
	ui->history_len = 0;
	for (i = 0; i <= l->at; i++)
		if (view_tokens_per_s(&l->replay->at[i].v, &tokens_per_s))
			history_add(ui, tokens_per_s);
	s = shown_sample(l);
	when = (time_t)s->wall;
	snprintf(ui->replay_at, sizeof(ui->replay_at), "replay %zu/%zu", l->at + 1, l->replay->n);
	if (localtime_r(&when, &tm))
		strftime(ui->replay_at + strlen(ui->replay_at),
			 sizeof(ui->replay_at) - strlen(ui->replay_at), " %T", &tm);
	rebuild_table(ui, l);
}

static void reset_counters(struct ui *ui, struct live *l)
{
	struct rvv_client *c = l->replay ? NULL : sampler_client(&l->sr);
	struct rvv_error err = { 0 };

	if (l->replay)
		snprintf(ui->message, sizeof(ui->message), "reset: a replay has no module to reset");
	else if (!c)
		snprintf(ui->message, sizeof(ui->message), "reset: the module is not answering");
	else if (rvv_client_reset(c, &err))
		snprintf(ui->message, sizeof(ui->message), "%s", err.message);
	else
		snprintf(ui->message, sizeof(ui->message), "counters and histograms reset");
}

/* A key typed at the filter or search prompt. */
static void prompt_key(struct ui *ui, struct live *l, int key)
{
	size_t len = strlen(ui->input);
	bool filter = ui->sc.prompt == PROMPT_FILTER;
	long at;

	if (key == '\n' || key == KEY_ENTER || key == KEY_ESCAPE) {
		if (key == KEY_ESCAPE)
			ui->input[0] = '\0';
		snprintf(filter ? ui->filter : ui->search, sizeof(ui->filter), "%s", ui->input);
		ui->sc.prompt = PROMPT_NONE;
		if (filter) {
			rebuild_table(ui, l);
			return;
		}
		at = table_find(&l->t, 0, ui->search);
		if (at >= 0)
			select_row(ui, &l->t, at);
		else if (ui->search[0])
			snprintf(ui->message, sizeof(ui->message), "no thread named like \"%s\"",
				 ui->search);
		return;
	}
	if ((key == KEY_BACKSPACE || key == 127 || key == '\b') && len) {
		ui->input[len - 1] = '\0';
	} else if (key == CTRL_U) {
		ui->input[0] = '\0';
	} else if (key >= 0 && key < 256 && isprint(key) && len + 1 < sizeof(ui->input)) {
		ui->input[len] = (char)key;
		ui->input[len + 1] = '\0';
	}
	if (filter) {	/* filter as it is typed, as htop does */
		snprintf(ui->filter, sizeof(ui->filter), "%s", ui->input);
		rebuild_table(ui, l);
	}
}

static void open_prompt(struct ui *ui, enum prompt p, const char *start)
{
	ui->sc.prompt = p;
	snprintf(ui->input, sizeof(ui->input), "%s", start);
}

static void next_match(struct ui *ui, struct live *l)
{
	long at;

	if (!ui->search[0]) {
		open_prompt(ui, PROMPT_SEARCH, "");
		return;
	}
	at = table_find(&l->t, (size_t)(ui->sc.selected + 1), ui->search);
	if (at >= 0)
		select_row(ui, &l->t, at);
}

static void sort_by(struct ui *ui, struct live *l, enum column column)
{
	ui->options.sort = column;
	/* Names and ids read best ascending, rates and costs descending. */
	ui->options.ascending = column <= COL_CPU;
	rebuild_table(ui, l);
}

static void sort_step(struct ui *ui, struct live *l, int step)
{
	sort_by(ui, l, (enum column)((ui->options.sort + NR_COLUMNS + step) % NR_COLUMNS));
}

/* The F6 list: Up and Down move, Enter sorts, anything else leaves it. */
static void sort_menu_key(struct ui *ui, struct live *l, int k)
{
	enum column *c = &ui->sc.sort_choice;

	if (k == KEY_UP || k == KEY_DOWN) {
		*c = (enum column)((*c + NR_COLUMNS + (k == KEY_UP ? -1 : 1)) % NR_COLUMNS);
		return;
	}
	ui->sc.prompt = PROMPT_NONE;
	if (k == '\n' || k == KEY_ENTER)
		sort_by(ui, l, *c);
}

/* A replay has no refresh to pause or pace: says how it moves instead. */
static bool replay_moves_by_keys(struct ui *ui, const struct live *l)
{
	if (l->replay)
		snprintf(ui->message, sizeof(ui->message),
			 "a replay moves with t and T (or Right and Left)");
	return l->replay != NULL;
}

static void change_delay(struct ui *ui, struct live *l, int step)
{
	uint64_t d = ui->sc.delay_s;

	if (step < 0 && d > 1)
		d--;
	else if (step > 0 && d < MAX_DELAY_S)
		d++;
	l->next_s += (double)d - (double)ui->sc.delay_s;
	ui->sc.delay_s = d;
	sampler_set_delay(&l->sr, (double)d);
	snprintf(ui->message, sizeof(ui->message), "refresh every %llu s", (unsigned long long)d);
}

static void key_quit(const struct keypress *kp)
{
	kp->ui->quit = true;
}

static void key_help(const struct keypress *kp)
{
	kp->ui->sc.help = true;
}

static void key_search(const struct keypress *kp)
{
	open_prompt(kp->ui, PROMPT_SEARCH, "");
}

static void key_search_again(const struct keypress *kp)
{
	next_match(kp->ui, kp->l);
}

static void key_filter(const struct keypress *kp)
{
	open_prompt(kp->ui, PROMPT_FILTER, kp->ui->filter);
}

static void key_sort_menu(const struct keypress *kp)
{
	kp->ui->sc.prompt = PROMPT_SORT;
	kp->ui->sc.sort_choice = kp->ui->options.sort;
}

static void key_sort_next(const struct keypress *kp)
{
	sort_step(kp->ui, kp->l, kp->key == '>' || kp->key == '.' ? 1 : -1);
}

static void key_invert(const struct keypress *kp)
{
	kp->ui->options.ascending = !kp->ui->options.ascending;
	rebuild_table(kp->ui, kp->l);
}

static void key_fold(const struct keypress *kp)
{
	kp->ui->options.fold = !kp->ui->options.fold;
	kp->ui->has_selection = false;
	rebuild_table(kp->ui, kp->l);
}

static void key_move(const struct keypress *kp)
{
	long page = kp->ui->sc.table_lines ? (long)kp->ui->sc.table_lines : 1;
	long to = kp->ui->sc.selected;

	switch (kp->key) {
	case KEY_UP:
		to--;
		break;
	case KEY_DOWN:
		to++;
		break;
	case KEY_PPAGE:
		to -= page;
		break;
	case KEY_NPAGE:
		to += page;
		break;
	case KEY_HOME:
		to = 0;
		break;
	case KEY_END:
		to = (long)kp->l->t.nr - 1;
		break;
	}
	select_row(kp->ui, &kp->l->t, to);
}

static void key_pause(const struct keypress *kp)
{
	if (replay_moves_by_keys(kp->ui, kp->l))
		return;
	kp->ui->sc.paused = !kp->ui->sc.paused;
	kp->l->next_s = monotonic_s() + (double)kp->ui->sc.delay_s;
}

static void key_delay(const struct keypress *kp)
{
	if (!replay_moves_by_keys(kp->ui, kp->l))
		change_delay(kp->ui, kp->l, kp->key == '-' ? -1 : 1);
}

static void key_reset(const struct keypress *kp)
{
	kp->ui->sc.prompt = PROMPT_RESET;
}

/* below's keys for time. */
static void key_replay(const struct keypress *kp)
{
	if (kp->l->replay)
		replay_seek(kp->ui, kp->l, (long)kp->l->at + (kp->key == 't' || kp->key == KEY_RIGHT ? 1 : -1));
	else
		snprintf(kp->ui->message, sizeof(kp->ui->message), "t and T move in a replay (--replay FILE)");
}

/* Every key of the view, in the order of the help page and the function bar. */
static const struct binding bindings[] = {
	{ { KEY_F(1), 'h', '?' }, key_help, "F1 h ?", "this help; any key returns", "F1", "Help" },
	{ { '/' }, key_search, "/", "search a name", NULL, NULL },
	{ { KEY_F(3), 'n' }, key_search_again, "F3 n", "the next match (a new search if there is none)",
	  "F3", "Search" },
	{ { KEY_F(4), '\\' }, key_filter, "F4 \\",
	  "filter: a name (part of comm, any case) or a thread/process id", "F4", "Filter" },
	{ { KEY_F(6) }, key_sort_menu, "F6", "sort by a column from a list", "F6", "Sort" },
	{ { '>', '.', '<', ',' }, key_sort_next, "> <", "sort by the next / previous column", NULL, NULL },
	{ { 'I' }, key_invert, "I", "invert the order", NULL, NULL },
	{ { 'H' }, key_fold, "H", "fold threads into their process (PROCS: how many threads)", "H", "Fold" },
	{ { KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END }, key_move,
	  "Up Down PgUp PgDn Home End", "move the selection", NULL, NULL },
	{ { ' ' }, key_pause, "Space", "pause (the numbers stay; keys still work)", "Spc", "Pause" },
	{ { 'r' }, key_reset, "r", "reset the module's counters and histograms (asks first; root)",
	  "r", "Reset" },
	{ { '+', '=', '-' }, key_delay, "+ -", "the refresh delay", "+-", "Delay" },
	{ { 't', KEY_RIGHT, 'T', KEY_LEFT }, key_replay, "t T",
	  "a replay's next / previous interval (also Right, Left)", NULL, NULL },
	{ { 'q', KEY_F(10) }, key_quit, "q F10", "quit", "q", "Quit" },
	/* curses has the new size; the redraw uses it. */
	{ { KEY_RESIZE }, NULL, NULL, NULL, NULL, NULL },
};

static const struct binding *binding_of(int k)
{
	size_t i, j;

	for (i = 0; i < sizeof(bindings) / sizeof(*bindings); i++)
		for (j = 0; j < MAX_KEYS_PER_BINDING && bindings[i].keys[j]; j++)
			if (bindings[i].keys[j] == k)
				return &bindings[i];
	return NULL;
}

static void key(struct ui *ui, struct live *l, int k)
{
	const struct binding *b;

	ui->message[0] = '\0';
	if (ui->sc.help) {	/* any key leaves the help */
		ui->sc.help = false;
		return;
	}
	if (ui->sc.prompt == PROMPT_SORT) {
		sort_menu_key(ui, l, k);
		return;
	}
	if (ui->sc.prompt == PROMPT_RESET) {
		ui->sc.prompt = PROMPT_NONE;
		if (k == 'y' || k == 'Y')
			reset_counters(ui, l);
		return;
	}
	if (ui->sc.prompt != PROMPT_NONE) {
		prompt_key(ui, l, k);
		return;
	}
	b = binding_of(k);
	if (b && b->act)
		b->act(&(struct keypress){ .ui = ui, .l = l, .key = k });
	else if (!b)
		snprintf(ui->message, sizeof(ui->message), "unknown key: F1 or h for help");
}

static void draw(struct ui *ui, struct live *l)
{
	ui->sc.history = ui->history;
	ui->sc.history_len = ui->history_len;
	ui->sc.message = !l->replay && l->sr.n == 1 && !ui->message[0] ?
			 "measuring the first interval..." : ui->message;
	ui->sc.replay = l->replay ? ui->replay_at : NULL;
	screen_draw(&ui->sc, shown_sample(l), &l->v, &l->t);
}

int interactive_run(const struct interactive_options *o, struct rvv_error *err)
{
	struct ui ui = { .sc = { .delay_s = o->delay, .selected = -1 } };
	struct live l = { .record = o->record, .replay = o->replay };
	int status, k;

	ui.options.sort = COL_SAVES;
	ui.sc.options = &ui.options;
	ui.sc.keys = bindings;
	ui.sc.nr_keys = sizeof(bindings) / sizeof(*bindings);
	ui.sc.input = ui.input;
	status = screen_start(o->colour, &ui.sc);
	if (status)
		return status;
	if (l.replay) {
		replay_seek(&ui, &l, 0);
		status = 0;
	} else {
		status = sampler_start(&l.sr, o->pid, &o->llama, (double)ui.sc.delay_s, err);
		/* A first view without rates: what the module is, before any interval. */
		if (!status)
			status = view_build(NULL, sampler_newest(&l.sr), 0, NULL, &l.v);
	}
	l.next_s = monotonic_s() + (double)ui.sc.delay_s;
	while (!status && !ui.quit) {
		double wait_s = l.next_s - monotonic_s();

		draw(&ui, &l);
		if (!l.replay && wait_s <= 0 && !ui.sc.paused) {
			status = refresh_sample(&ui, &l);
			if (o->iterations && l.sr.n > o->iterations)
				ui.quit = true;
			l.next_s += (double)ui.sc.delay_s;
			if (l.next_s < monotonic_s())	/* fell behind: start again from now */
				l.next_s = monotonic_s() + (double)ui.sc.delay_s;
			continue;
		}
		timeout(ui.sc.paused || l.replay ? -1 : (int)(wait_s * 1000) + 1);
		k = getch();
		if (k != ERR)
			key(&ui, &l, k);
	}
	screen_stop();
	table_free(&l.t);
	drop_view(&l);
	if (!l.replay)
		sampler_stop(&l.sr);
	return status;
}
