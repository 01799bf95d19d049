// SPDX-License-Identifier: GPL-2.0
/*
 * The output formats, and what every format's output goes through: the
 * nesting, the first failure, and the flush after each document of a stream.
 */
#include <errno.h>
#include <string.h>

#include "output.h"

extern const struct output_format output_text, output_json, output_csv;

static const struct output_format *const formats[] = {
	&output_text,	/* the default */
	&output_json,
	&output_csv,
};

#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))

_Static_assert(NR(formats) <= OUTPUT_MAX_FORMATS, "main.c has an option for each format");

const struct output_format *const *output_formats(int *nr)
{
	*nr = NR(formats);
	return formats;
}

const struct output_format *output_format_named(const char *option)
{
	int i;

	for (i = 0; i < NR(formats); i++)
		if (formats[i]->option && !strcmp(formats[i]->option, option))
			return formats[i];
	return NULL;
}

int output_flush(FILE *out)
{
	errno = 0;
	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

static void output_fail(struct output *o, int status)
{
	if (!o->status)
		o->status = status;
}

int output_begin(struct output *o, const struct output_format *format,
		 FILE *out, bool stream)
{
	*o = (struct output){ .format = format, .out = out, .stream = stream };
	return format->begin ? format->begin(o) : 0;
}

int output_end(struct output *o, int status)
{
	int failed = status ? status : o->status;
	int ended = o->format->end ? o->format->end(o, failed) : 0;

	if (failed)
		return failed;
	return ended ? ended : output_flush(o->out);
}

int output_status(const struct output *o)
{
	return o->status;
}

static void out_open(struct output *o, const char *key, bool array)
{
	if (o->depth == OUTPUT_DEPTH) {
		output_fail(o, -E2BIG);	/* a command nested too deep: a bug */
		return;
	}
	o->depth++;
	if (o->format->open)
		o->format->open(o, key, array);
}

void out_open_object(struct output *o, const char *key)
{
	out_open(o, key, false);
}

void out_open_array(struct output *o, const char *key)
{
	out_open(o, key, true);
}

void out_close(struct output *o)
{
	if (!o->depth)
		return;
	if (o->format->close)
		o->format->close(o);
	if (!--o->depth && o->stream)
		output_fail(o, output_flush(o->out));
}

void out_text(struct output *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->format->text)
		return;
	va_start(ap, fmt);
	o->format->text(o, fmt, ap);
	va_end(ap);
}

void out_data(struct output *o, const char *key, struct out_value v)
{
	if (o->format->data)
		o->format->data(o, key, &v);
}

void out_counters(struct output *o, const char *key, const char *const *names,
		  const uint64_t *v, int nr)
{
	int i;

	if (!o->format->data)
		return;
	out_open_object(o, key);
	for (i = 0; i < nr; i++)
		out_data(o, names[i], OUT_U64(v[i]));
	out_close(o);
}

void out_value(struct output *o, const char *key, struct out_value v,
	       const char *fmt, ...)
{
	va_list ap;

	out_data(o, key, v);
	if (!o->format->text)
		return;
	va_start(ap, fmt);
	o->format->text(o, fmt, ap);
	va_end(ap);
}

void table_begin(struct output *o, const char *const *names, int nr,
		 const char *const *tail_names, int nr_tail)
{
	if (o->format->table_begin)
		o->format->table_begin(o, names, nr, tail_names, nr_tail);
}

void table_row(struct output *o, const char *const *names, const uint64_t *v,
	       int nr, const struct table_cell *tail, int nr_tail)
{
	if (o->format->table_row)
		o->format->table_row(o, names, v, nr, tail, nr_tail);
}
