// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "output.h"

static char table_separator(const struct table *t)
{
	return t->format == OUTPUT_CSV ? ',' : ' ';
}

void table_begin(struct table *t, enum output_format format, FILE *out,
		 const char *const *names, int nr,
		 const char *const *tail_names, int nr_tail)
{
	int i;

	t->format = format;
	t->out = out;
	t->rows = NULL;
	if (format == OUTPUT_JSON) {
		t->rows = json_object_new_array();
		return;
	}
	for (i = 0; i < nr; i++)
		fprintf(out, "%s%s", i ? (format == OUTPUT_CSV ? "," : " ") : "",
			names[i]);
	for (i = 0; i < nr_tail; i++)
		fprintf(out, "%c%s", table_separator(t), tail_names[i]);
	fputc('\n', out);
}

/* A CSV field, quoted if it holds a separator, quote or line break. */
static void csv_text(FILE *out, const char *text)
{
	const char *p;

	if (!text[strcspn(text, ",\"\r\n")]) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (p = text; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

static json_object *json_cell(const struct table_cell *c)
{
	if (c->text)
		return json_object_new_string(c->text);
	return c->number < 0 ? NULL : json_object_new_int64(c->number);
}

static void text_cell(const struct table *t, const struct table_cell *c)
{
	fputc(table_separator(t), t->out);
	if (!c->text && c->number < 0)
		fputc('-', t->out);
	else if (!c->text)
		fprintf(t->out, "%" PRId64, c->number);
	else if (t->format == OUTPUT_CSV)
		csv_text(t->out, c->text);
	else
		fputs(c->text, t->out);
}

void table_row(struct table *t, const char *const *names, const uint64_t *v,
	       int nr, const struct table_cell *tail, int nr_tail)
{
	int i;

	if (t->format == OUTPUT_JSON) {
		json_object *row = json_counters(names, v, nr);

		for (i = 0; i < nr_tail; i++)
			json_object_object_add(row, tail[i].name,
					       json_cell(&tail[i]));
		json_object_array_add(t->rows, row);
		return;
	}
	for (i = 0; i < nr; i++)
		fprintf(t->out, "%s%" PRIu64, i ? (t->format == OUTPUT_CSV ? "," : " ") : "",
			v[i]);
	for (i = 0; i < nr_tail; i++)
		text_cell(t, &tail[i]);
	fputc('\n', t->out);
}

int output_flush(FILE *out)
{
	errno = 0;
	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

int table_end(struct table *t)
{
	if (t->format == OUTPUT_JSON)
		return json_print(t->rows, t->out);
	return output_flush(t->out);
}

json_object *json_counters(const char *const *names, const uint64_t *v, int nr)
{
	json_object *obj = json_object_new_object();
	int i;

	for (i = 0; i < nr; i++)
		json_object_object_add(obj, names[i], json_object_new_uint64(v[i]));
	return obj;
}

int json_print(json_object *obj, FILE *out)
{
	fprintf(out, "%s\n", json_object_to_json_string_ext(obj,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(obj);
	return output_flush(out);
}
