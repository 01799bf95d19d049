/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interactive view's drawing on ncurses: the title, the panels
 * (panel.h) top down with the task table filling the rest, and the status
 * line, or the help page. It draws what it is given and keeps no state.
 */
#ifndef RVVTOP_SCREEN_H
#define RVVTOP_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ncurses.h>

#include "keys.h"
#include "table.h"
#include "view.h"

enum prompt {
	PROMPT_NONE,
	PROMPT_FILTER,
	PROMPT_SEARCH,
	PROMPT_RESET,		/* asks y/N */
	PROMPT_SORT,		/* the column list, as htop's F6 */
};

struct screen {
	bool colour;
	bool help;
	bool paused;
	uint64_t delay_s;
	const char *replay;		/* where a replay is ("replay 3/120 15:00:01"); NULL live */
	const struct table_options *options;
	enum prompt prompt;
	const char *input;		/* typed so far at the prompt */
	enum column sort_choice;	/* PROMPT_SORT: the column under the cursor */
	const char *message;		/* for the status line; "" for none */
	const struct binding *keys;	/* the help's keys and the function bar */
	size_t nr_keys;
	long selected;			/* row index, -1 for none */
	size_t top;			/* first row shown */
	const double *history;		/* tok/s per interval, oldest first */
	size_t history_len;
	size_t table_lines;		/* out: rows the table had room for */
};

/*
 * Starts curses on the terminal; colour if it has some, @colour is set and
 * NO_COLOR is not. 0, or -ENOTTY if there is no terminal curses can use.
 */
int screen_start(bool colour, struct screen *sc);
void screen_stop(void);
void screen_draw(struct screen *sc, const struct sample *s,
		 const struct view *v, const struct table *t);

/* What the screen lends the panels (panel.h) to draw with. */

/* The roles a panel draws in. */
enum pair {
	PAIR_LABEL = 1,		/* column heads and panel names */
	PAIR_BAR,		/* the table's head and the status line */
	PAIR_GAINED,		/* threads that gained vector state */
	PAIR_WARN,		/* failures and states that need a look */
	PAIR_METER,
};

/* Attributes of role @p, with or without colour. */
attr_t screen_attr(const struct screen *sc, enum pair p);
/* printf at (@y, @x), cut at the right edge instead of wrapping. */
__attribute__((format(printf, 3, 4)))
void screen_put(int y, int x, const char *fmt, ...);
/* The same where the cursor is. */
#define screen_put_on(...)	do {					\
	int y_, x_;							\
	getyx(stdscr, y_, x_);						\
	screen_put(y_, x_, __VA_ARGS__);				\
} while (0)
/* @text from (@y, @x) on, wrapped at words, in at most @lines lines; the line after it. */
int screen_put_wrapped(int y, int x, const char *text, int lines);
/* Nanoseconds in at most 7 characters: 850ns, 12.3us, 4.1ms; "-" for 0. */
const char *screen_duration(uint64_t ns, char *buf, size_t size);
/* Saves/s, restores/s, MB/s and INV% in at most 7 characters each. */
void screen_rates_cells(const struct rates *r, char cells[4][16]);

#endif /* RVVTOP_SCREEN_H */
