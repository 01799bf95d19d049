/* SPDX-License-Identifier: GPL-2.0 */
/* rvvtop -b: one interval as plain text (--json: record.h). */
#ifndef RVVTOP_BATCH_H
#define RVVTOP_BATCH_H

#include <stdio.h>

#include "view.h"

/* 0, or -EIO if @out could not be written. */
int batch_text(FILE *out, const struct sample *s, const struct view *v);

/* What -b lends the panels (panel.h) to write with. */

/* @text within 80 columns, @lead before its first line, two spaces before the rest. */
void batch_wrapped(FILE *out, const char *lead, const char *text);
/* Saves/s, restores/s, MB/s and INV% as -b's columns. */
void batch_rates(FILE *out, const struct rates *r);

#endif /* RVVTOP_BATCH_H */
