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
 * What the hosts lend the panels is in their own headers: the screen's
 * drawing (screen.h), -b's text (batch.h) and the record's JSON (record.h).
 */
#ifndef RVVTOP_PANEL_H
#define RVVTOP_PANEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "view.h"

struct json_object;
struct record_reader;
struct replayed;
struct screen;
struct table;

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
	void (*json)(struct json_object *record, const struct view *v, const void *part);
	/*
	 * Its members read back into *@part (and @e's sample); 0, -ENOMEM, or
	 * @rd's refusal.
	 */
	int (*read)(struct record_reader *rd, struct json_object *record, struct replayed *e,
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

#endif /* RVVTOP_PANEL_H */
