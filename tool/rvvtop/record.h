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

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "view.h"

struct record_reader;

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

/* What the records lend the panels (panel.h) to write and read with. */

/* Rates as a JSON object; a p99 (null while none was timed). */
json_object *record_rates(const struct rates *r);
json_object *record_p99(uint64_t ns);

/*
 * Reading back: each gives the member @key of @o, or 0/NULL and
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

#endif /* RVVTOP_RECORD_H */
