/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rows of named numbers in the three output formats: text (a header line
 * and space-separated rows, as the debugfs files), CSV, and JSON (an array
 * of objects, or one object).
 */
#ifndef RVVCTL_OUTPUT_H
#define RVVCTL_OUTPUT_H

#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

enum output_format { OUTPUT_TEXT, OUTPUT_CSV, OUTPUT_JSON };

struct table {
	enum output_format format;
	FILE *out;
	json_object *rows;	/* JSON: the array being built */
};

/*
 * A cell after the counters: @text, or if it is NULL @number, which is
 * missing if negative ("-" in text and CSV, null in JSON).
 */
struct table_cell {
	const char *name;
	const char *text;
	int64_t number;
};

/* A table whose columns are @names, then the @nr_tail of @tail_names. */
void table_begin(struct table *t, enum output_format format, FILE *out,
		 const char *const *names, int nr,
		 const char *const *tail_names, int nr_tail);
/*
 * One row: @v[i] under @names[i], then the cells of @tail; only the last
 * may contain spaces in text.
 */
void table_row(struct table *t, const char *const *names, const uint64_t *v,
	       int nr, const struct table_cell *tail, int nr_tail);
/* Ends the table; 0 or output_flush()'s error. */
int table_end(struct table *t);
/*
 * Flushes @out: 0, or -errno of the failed write (-EIO if the stream
 * failed earlier), for main() to name the output.
 */
int output_flush(FILE *out);

/* @v as a JSON object of @names. */
json_object *json_counters(const char *const *names, const uint64_t *v, int nr);
/* Prints @obj (and drops it); 0 or output_flush()'s error. */
int json_print(json_object *obj, FILE *out);

#endif /* RVVCTL_OUTPUT_H */
