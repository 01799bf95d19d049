// SPDX-License-Identifier: GPL-2.0
/*
 * The formats for people and spreadsheets. Text: each value by its printf()
 * format, and tables as the debugfs files print them (a header line, then
 * rows separated by spaces). CSV: tables only, comma-separated and quoted.
 */
#include <inttypes.h>
#include <string.h>

#include "../lib/format.h"
#include "output.h"

static void text_print(struct output *o, const char *fmt, va_list ap)
{
	vfprintf(o->out, fmt, ap);
}

/* A table's header: @sep between the names. */
static void delimited_begin(struct output *o, char sep, const char *const *names,
			    int nr, const char *const *tail_names, int nr_tail)
{
	int i;

	for (i = 0; i < nr + nr_tail; i++) {
		if (i)
			fputc(sep, o->out);
		fputs(i < nr ? names[i] : tail_names[i - nr], o->out);
	}
	fputc('\n', o->out);
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

static void delimited_cell(const struct output *o, bool csv,
			   const struct table_cell *c)
{
	char safe[RVV_COMM_SAFE_SIZE];
	const char *text = c->text;

	if (!text && c->human && !csv) {
		fputs(c->human, o->out);
		return;
	}
	if (!text && c->number < 0) {
		fputc('-', o->out);
		return;
	}
	if (!text) {
		fprintf(o->out, "%" PRId64, c->number);
		return;
	}
	/* Text and CSV alike: no control byte reaches a terminal from a name. */
	if (c->untrusted) {
		rvv_format_untrusted(text, RVV_UNTRUSTED_TEXT, safe, sizeof(safe));
		text = safe;
	}
	if (csv)
		csv_text(o->out, text);
	else
		fputs(text, o->out);
}

/* A row: the numbers, then the cells, separated by a comma if @csv. */
static void delimited_row(struct output *o, bool csv, const uint64_t *v, int nr,
			  const struct table_cell *tail, int nr_tail)
{
	int i;

	for (i = 0; i < nr; i++)
		fprintf(o->out, "%s%" PRIu64, i ? (csv ? "," : " ") : "", v[i]);
	for (i = 0; i < nr_tail; i++) {
		fputc(csv ? ',' : ' ', o->out);
		delimited_cell(o, csv, &tail[i]);
	}
	fputc('\n', o->out);
}

static void text_table_begin(struct output *o, const char *const *names, int nr,
			     const char *const *tail_names, int nr_tail)
{
	delimited_begin(o, ' ', names, nr, tail_names, nr_tail);
}

static void text_table_row(struct output *o, const char *const *names,
			   const uint64_t *v, int nr, const struct table_cell *tail,
			   int nr_tail)
{
	(void)names;
	delimited_row(o, false, v, nr, tail, nr_tail);
}

static void csv_table_begin(struct output *o, const char *const *names, int nr,
			    const char *const *tail_names, int nr_tail)
{
	delimited_begin(o, ',', names, nr, tail_names, nr_tail);
}

static void csv_table_row(struct output *o, const char *const *names,
			  const uint64_t *v, int nr, const struct table_cell *tail,
			  int nr_tail)
{
	(void)names;
	delimited_row(o, true, v, nr, tail, nr_tail);
}

const struct output_format output_text = {
	.documents = true,
	.text = text_print,
	.table_begin = text_table_begin,
	.table_row = text_table_row,
};

const struct output_format output_csv = {
	.option = "csv",
	.help = "CSV",
	.table_begin = csv_table_begin,
	.table_row = csv_table_row,
};
