/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An interval as one JSON object (a record): what --json prints, one per
 * line, and the lines of a recording. A recording (--record FILE) is a
 * header line
 *   {"rvvtop_recording":1,"rvvtop":"0.1.0","abi":3}
 * then one record per interval; --replay reads it back into the samples
 * and views it was written from. The one owner of both directions.
 */
#ifndef RVVTOP_RECORD_H
#define RVVTOP_RECORD_H

#include <stdio.h>

#include "view.h"

/* The recording format's version: a reader refuses any other. */
#define RECORDING_VERSION	1

/* One record per line. 0, or -EIO if @out could not be written. */
int record_write(FILE *out, const struct sample *s, const struct view *v);
/* A recording's header line. 0, or -EIO. */
int recording_begin(FILE *out);

/* An interval read back: what the live view draws from. */
struct replayed {
	struct sample s;		/* the title's: info, summary, times */
	struct view v;
	char *module_why;		/* v's */
};

struct recording {
	struct replayed *at;
	size_t n;
};

/*
 * Reads the recording at @path (every record after its header). 0, or
 * -errno with @err naming the file and line: not there, not a recording,
 * another version, a record cut short or not of this format.
 */
int recording_load(const char *path, struct recording *r, struct rvv_error *err);
void recording_free(struct recording *r);

#endif /* RVVTOP_RECORD_H */
