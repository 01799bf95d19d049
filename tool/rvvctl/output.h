/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What rvvctl prints, in whichever format was asked for. A command says
 * what it prints once, and the format decides what reaches the output (the
 * way iproute2's print_*() serve both `ip` and `ip -j`):
 *  - a document: objects and arrays of named values, each value with the
 *    printf() format of its human text; out_text() is text that only human
 *    formats print, out_data() a value that only data formats keep;
 *  - a table: a header of column names, then rows of cells (text rows as
 *    the debugfs files have them, CSV, or a JSON array of objects).
 * A new format is one file defining a struct output_format, and a line in
 * formats[] in output.c.
 */
#ifndef RVVCTL_OUTPUT_H
#define RVVCTL_OUTPUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum out_type { OUT_TYPE_U64, OUT_TYPE_I64, OUT_TYPE_REAL, OUT_TYPE_STRING, OUT_TYPE_BOOL };

/* A value of a document; a NULL string is missing (null, "-" in text). */
struct out_value {
	enum out_type type;
	union {
		uint64_t u64;
		int64_t i64;
		double real;
		const char *string;
		bool flag;
	};
};

#define OUT_U64(v)	((struct out_value){ .type = OUT_TYPE_U64, .u64 = (v) })
#define OUT_I64(v)	((struct out_value){ .type = OUT_TYPE_I64, .i64 = (v) })
#define OUT_REAL(v)	((struct out_value){ .type = OUT_TYPE_REAL, .real = (v) })
#define OUT_STRING(v)	((struct out_value){ .type = OUT_TYPE_STRING, .string = (v) })
#define OUT_BOOL(v)	((struct out_value){ .type = OUT_TYPE_BOOL, .flag = (v) })

/*
 * A cell after a table row's counters: @text, or if it is NULL @number,
 * which is missing if negative ("-" in text and CSV, null in JSON). An
 * @untrusted text (a thread's name) is made safe by the format, each its way.
 * A @number with a @human text is printed as that text by the formats for
 * people (a figure shown at the resolution it has), as the number by the
 * formats for programs.
 */
struct table_cell {
	const char *name;
	const char *text;
	int64_t number;
	const char *human;
	bool untrusted;
};

/* The deepest nesting of a document. */
#define OUTPUT_DEPTH	4
/* The most formats there may be (each has a bit in a mask, an option in main.c). */
#define OUTPUT_MAX_FORMATS	8

struct output;

/* A format: every operation may be NULL (it prints nothing of that kind). */
struct output_format {
	const char *option;	/* --OPTION asks for it; NULL: the default */
	const char *help;	/* its line in --help */
	bool documents;		/* prints documents too, not only tables */
	/* Sets up o->state; 0 or -errno. */
	int (*begin)(struct output *o);
	void (*text)(struct output *o, const char *fmt, va_list ap);
	void (*data)(struct output *o, const char *key, const struct out_value *v);
	/* Opens an object (or an array) as member @key of what is open. */
	void (*open)(struct output *o, const char *key, bool array);
	void (*close)(struct output *o);
	void (*table_begin)(struct output *o, const char *const *names, int nr,
			    const char *const *tail_names, int nr_tail);
	void (*table_row)(struct output *o, const char *const *names,
			  const uint64_t *v, int nr, const struct table_cell *tail,
			  int nr_tail);
	/* Prints what it holds unless @status, frees o->state; 0 or -errno. */
	int (*end)(struct output *o, int status);
};

struct output {
	const struct output_format *format;
	FILE *out;
	bool stream;		/* a document per line, printed as each closes */
	int depth;		/* of the open objects and arrays */
	int status;		/* the first failure, -errno */
	void *state;		/* the format's */
};

/* The formats, the default first; *@nr of them. */
const struct output_format *const *output_formats(int *nr);
/* The format asked for by --@option. */
const struct output_format *output_format_named(const char *option);

/*
 * Starts printing to @out in @format; a @stream is a sequence of
 * documents, each printed when it closes. 0 or -errno.
 */
int output_begin(struct output *o, const struct output_format *format,
		 FILE *out, bool stream);
/*
 * Ends the output: prints what is held unless @status or an earlier
 * failure (no half document); @status, or the first failure to print.
 */
int output_end(struct output *o, int status);
/* 0, or the first failure to print so far. */
int output_status(const struct output *o);

void out_open_object(struct output *o, const char *key);
void out_open_array(struct output *o, const char *key);
void out_close(struct output *o);
/* Text only human formats print. */
void out_text(struct output *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A value only data formats keep. */
void out_data(struct output *o, const char *key, struct out_value v);
/* An object of counters @names, for data formats. */
void out_counters(struct output *o, const char *key, const char *const *names,
		  const uint64_t *v, int nr);
/* A value, as @key in data and printed by @fmt in text. */
void out_value(struct output *o, const char *key, struct out_value v,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define out_u64(o, key, fmt, v)	out_value(o, key, OUT_U64(v), fmt, (uint64_t)(v))
#define out_i64(o, key, fmt, v)	out_value(o, key, OUT_I64(v), fmt, (int64_t)(v))
#define out_real(o, key, fmt, v) out_value(o, key, OUT_REAL(v), fmt, (double)(v))
/* Text shows a missing (NULL) string as "-". */
static inline const char *out_shown(const char *s)
{
	return s ? s : "-";
}

#define out_string(o, key, fmt, s) \
	out_value(o, key, OUT_STRING(s), fmt, out_shown(s))
/* Text says yes or no. */
#define out_bool(o, key, fmt, b) \
	out_value(o, key, OUT_BOOL(b), fmt, (b) ? "yes" : "no")

/* A table whose columns are @names, then the @nr_tail of @tail_names. */
void table_begin(struct output *o, const char *const *names, int nr,
		 const char *const *tail_names, int nr_tail);
/*
 * One row: @v[i] under @names[i], then the cells of @tail; only the last
 * may contain spaces in text.
 */
void table_row(struct output *o, const char *const *names, const uint64_t *v,
	       int nr, const struct table_cell *tail, int nr_tail);

/*
 * Flushes @out: 0, or -errno of the failed write (-EIO if the stream
 * failed earlier), for main() to name the output.
 */
int output_flush(FILE *out);

#endif /* RVVCTL_OUTPUT_H */
