/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rvvtop's panels, as htop's meters: each is one kind of numbers (the CPUs,
 * the tasks, llama-server), built from two samples into the view and shown
 * in every form rvvtop has: drawn on the screen, written by -b, as members
 * of a --json record, and read back from a recording. The view, the
 * screen, -b and the records go through panels[] in order (the screen
 * draws the panel that fills last); each keeps what it builds or reads as
 * its part of the view. A new panel is a file of its own and a line in
 * panels[] (panel.c).
 *
 * Below the interface, what the hosts lend the panels: the screen's
 * drawing (screen.c), -b's text (batch.c) and the record's JSON (record.c).
 */
#ifndef RVVTOP_PANEL_H
#define RVVTOP_PANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>
#include <ncurses.h>

#include "record.h"
#include "screen.h"
#include "table.h"
#include "view.h"

struct record_reader;

struct panel {
	/*
	 * Its part of @v at @cur into *@part, with rates since @prev: NULL
	 * when there are none this interval (the first sample, no module in
	 * either, or its counters went back). llama-server's rates from
	 * @llama_before (may be NULL). The view's own fields (seconds,
	 * module, total) are set already. 0 or -ENOMEM.
	 */
	int (*build)(const struct sample *prev, const struct sample *cur,
		     const struct llama_reading *llama_before, const struct view *v,
		     void **part);
	/* Frees a part that build or read made. */
	void (*free)(void *part);
	/* Screen lines it keeps from the panels above it (0: it shows nothing). */
	int (*reserve)(const struct view *v, const void *part);
	/* Draws from line @y in about @lines lines; the line after it. */
	int (*draw)(struct screen *sc, const struct view *v, const void *part,
		    const struct table *t, int y, int lines);
	/* Takes the lines left under the others: drawn last. */
	bool fills;
	/* -b's lines. */
	void (*text)(FILE *out, const struct view *v, const void *part);
	/* Its members of a --json record. */
	void (*json)(json_object *record, const struct view *v, const void *part);
	/*
	 * Its members read back into *@part (and @e's sample); 0, -ENOMEM, or
	 * @rd's refusal.
	 */
	int (*read)(struct record_reader *rd, json_object *record, struct replayed *e,
		    void **part);
};

extern const struct panel *const panels[];
extern const size_t nr_panels;

/* The panels of the view: CPUs, tasks, llama-server. */
extern const struct panel cpus_panel, tasks_panel, llama_panel;

/* @p's part of @v (NULL: none). */
const void *view_part(const struct view *v, const struct panel *p);
/* panel-tasks.c: the thread rows of @v, *@nr of them. */
const struct task_view *view_tasks(const struct view *v, size_t *nr);
/* panel-llama.c: llama-server's tokens/s over @v's readings, if it has them. */
bool view_tokens_per_s(const struct view *v, double *tokens_per_s);

/* screen.c: the roles a panel draws in. */
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

/* batch.c: @text within 80 columns, @lead before its first line, two spaces before the rest. */
void batch_wrapped(FILE *out, const char *lead, const char *text);
/* Saves/s, restores/s, MB/s and INV% as -b's columns. */
void batch_rates(FILE *out, const struct rates *r);

/* record.c: rates as a JSON object; a p99 (null while none was timed). */
json_object *record_rates(const struct rates *r);
json_object *record_p99(uint64_t ns);

/*
 * record.c, reading back: each gives the member @key of @o, or 0/NULL and
 * @rd's refusal (the first one counts) if it is missing or of another
 * type. maybe_*: null is allowed, and gives false or 0.
 */
json_object *record_member(struct record_reader *rd, json_object *o, const char *key,
			   json_type type, bool nullable);
double record_number(struct record_reader *rd, json_object *o, const char *key);
bool record_maybe_number(struct record_reader *rd, json_object *o, const char *key, double *v);
uint64_t record_count(struct record_reader *rd, json_object *o, const char *key);
uint64_t record_maybe_count(struct record_reader *rd, json_object *o, const char *key);
bool record_flag(struct record_reader *rd, json_object *o, const char *key);
/* A copy of a string member, NULL if null; *@copy owns it. */
const char *record_text(struct record_reader *rd, json_object *o, const char *key, char **copy);
/* The index of @key's value among the @n names @name_of gives, or a refusal. */
unsigned int record_named(struct record_reader *rd, json_object *o, const char *key,
			  const char *(*name_of)(unsigned int), unsigned int n);
/* The array member @key in *@a, and room for its *@n elements of @size (NULL: no memory). */
void *record_array(struct record_reader *rd, json_object *o, const char *key,
		   size_t size, json_object **a, size_t *n);
void record_read_rates(struct record_reader *rd, json_object *o, struct rates *r);

#endif /* RVVTOP_PANEL_H */
