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

#include "keys.h"
#include "table.h"

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

#endif /* RVVTOP_SCREEN_H */
