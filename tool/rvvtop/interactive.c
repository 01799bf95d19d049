// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <ncurses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "interactive.h"
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

static void key(struct ui *ui, struct live *l, int k)
{
	long page = ui->sc.table_lines ? (long)ui->sc.table_lines : 1;

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
	switch (k) {
	case 'q':
	case KEY_F(10):
		ui->quit = true;
		break;
	case 'h':
	case '?':
	case KEY_F(1):
		ui->sc.help = true;
		break;
	case '/':
		open_prompt(ui, PROMPT_SEARCH, "");
		break;
	case 'n':
	case KEY_F(3):
		next_match(ui, l);
		break;
	case '\\':
	case KEY_F(4):
		open_prompt(ui, PROMPT_FILTER, ui->filter);
		break;
	case KEY_F(6):
		ui->sc.prompt = PROMPT_SORT;
		ui->sc.sort_choice = ui->options.sort;
		break;
	case '>':
	case '.':
		sort_step(ui, l, 1);
		break;
	case '<':
	case ',':
		sort_step(ui, l, -1);
		break;
	case 'I':
		ui->options.ascending = !ui->options.ascending;
		rebuild_table(ui, l);
		break;
	case 'H':
		ui->options.fold = !ui->options.fold;
		ui->has_selection = false;
		rebuild_table(ui, l);
		break;
	case ' ':
		if (replay_moves_by_keys(ui, l))
			break;
		ui->sc.paused = !ui->sc.paused;
		l->next_s = monotonic_s() + (double)ui->sc.delay_s;
		break;
	case 'r':
		ui->sc.prompt = PROMPT_RESET;
		break;
	case '+':
	case '=':
	case '-':
		if (!replay_moves_by_keys(ui, l))
			change_delay(ui, l, k == '-' ? -1 : 1);
		break;
	case KEY_UP:
		select_row(ui, &l->t, ui->sc.selected - 1);
		break;
	case KEY_DOWN:
		select_row(ui, &l->t, ui->sc.selected + 1);
		break;
	case KEY_PPAGE:
		select_row(ui, &l->t, ui->sc.selected - page);
		break;
	case KEY_NPAGE:
		select_row(ui, &l->t, ui->sc.selected + page);
		break;
	case KEY_HOME:
		select_row(ui, &l->t, 0);
		break;
	case KEY_END:
		select_row(ui, &l->t, (long)l->t.nr - 1);
		break;
	case 't':		/* below's keys for time */
	case KEY_RIGHT:
	case 'T':
	case KEY_LEFT:
		if (l->replay)
			replay_seek(ui, l, (long)l->at + (k == 't' || k == KEY_RIGHT ? 1 : -1));
		else
			snprintf(ui->message, sizeof(ui->message), "t and T move in a replay (--replay FILE)");
		break;
	case KEY_RESIZE:	/* curses has the new size; the redraw uses it */
		break;
	default:
		snprintf(ui->message, sizeof(ui->message), "unknown key: F1 or h for help");
	}
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
