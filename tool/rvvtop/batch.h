/* SPDX-License-Identifier: GPL-2.0 */
/* rvvtop -b: one interval as plain text (--json: record.h). */
#ifndef RVVTOP_BATCH_H
#define RVVTOP_BATCH_H

#include <stdio.h>

#include "view.h"

/* 0, or -EIO if @out could not be written. */
int batch_text(FILE *out, const struct sample *s, const struct view *v);

#endif /* RVVTOP_BATCH_H */
