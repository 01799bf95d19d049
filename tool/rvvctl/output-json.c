// SPDX-License-Identifier: GPL-2.0
/*
 * JSON: a document is built with json-c and printed whole (pretty) when
 * the output ends, or in a stream a line per document as it closes; a
 * table is an array of objects.
 */
#include <errno.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "../lib/format.h"
#include "output.h"

struct json_state {
	json_object *root;			/* what end() prints */
	json_object *open[OUTPUT_DEPTH];	/* the open containers, by depth - 1 */
};

static int json_begin(struct output *o)
{
	o->state = calloc(1, sizeof(struct json_state));
	return o->state ? 0 : -ENOMEM;
}

/* Adds @value to the container open at @depth (as its @key), or as the root. */
static void json_attach(struct output *o, int depth, const char *key,
			json_object *value)
{
	struct json_state *js = o->state;
	json_object *parent = depth ? js->open[depth - 1] : NULL;

	if (!parent) {
		json_object_put(js->root);
		js->root = value;
	} else if (json_object_is_type(parent, json_type_array)) {
		json_object_array_add(parent, value);
	} else {
		json_object_object_add(parent, key, value);
	}
}

static void json_open(struct output *o, const char *key, bool array)
{
	struct json_state *js = o->state;
	json_object *value = array ? json_object_new_array() : json_object_new_object();

	json_attach(o, o->depth - 1, key, value);
	js->open[o->depth - 1] = value;
}

static void json_close(struct output *o)
{
	struct json_state *js = o->state;

	js->open[o->depth - 1] = NULL;
	if (o->depth > 1 || !o->stream)
		return;
	fprintf(o->out, "%s\n", json_object_to_json_string_ext(js->root,
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(js->root);
	js->root = NULL;
}

static json_object *json_value(const struct out_value *v)
{
	switch (v->type) {
	case OUT_TYPE_U64:
		return json_object_new_uint64(v->u64);
	case OUT_TYPE_I64:
		return json_object_new_int64(v->i64);
	case OUT_TYPE_REAL:
		return json_object_new_double(v->real);
	case OUT_TYPE_BOOL:
		return json_object_new_boolean(v->flag);
	default:
		return v->string ? json_object_new_string(v->string) : NULL;
	}
}

static void json_data(struct output *o, const char *key, const struct out_value *v)
{
	json_attach(o, o->depth, key, json_value(v));
}

static void json_table_begin(struct output *o, const char *const *names, int nr,
			     const char *const *tail_names, int nr_tail)
{
	(void)names, (void)nr, (void)tail_names, (void)nr_tail;
	json_attach(o, 0, NULL, json_object_new_array());
}

static json_object *json_cell(const struct table_cell *c)
{
	char safe[RVV_COMM_SAFE_SIZE];

	if (c->text && c->untrusted) {
		rvv_format_untrusted(c->text, RVV_UNTRUSTED_JSON, safe, sizeof(safe));
		return json_object_new_string(safe);
	}
	if (c->text)
		return json_object_new_string(c->text);
	return c->number < 0 ? NULL : json_object_new_int64(c->number);
}

static void json_table_row(struct output *o, const char *const *names,
			   const uint64_t *v, int nr, const struct table_cell *tail,
			   int nr_tail)
{
	struct json_state *js = o->state;
	json_object *row = json_object_new_object();
	int i;

	for (i = 0; i < nr; i++)
		json_object_object_add(row, names[i], json_object_new_uint64(v[i]));
	for (i = 0; i < nr_tail; i++)
		json_object_object_add(row, tail[i].name, json_cell(&tail[i]));
	json_object_array_add(js->root, row);
}

static int json_end(struct output *o, int status)
{
	struct json_state *js = o->state;

	if (!js)
		return 0;
	if (!status && js->root)
		fprintf(o->out, "%s\n", json_object_to_json_string_ext(js->root,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(js->root);
	free(js);
	o->state = NULL;
	return 0;
}

const struct output_format output_json = {
	.option = "json",
	.help = "JSON instead of text",
	.documents = true,
	.begin = json_begin,
	.open = json_open,
	.close = json_close,
	.data = json_data,
	.table_begin = json_table_begin,
	.table_row = json_table_row,
	.end = json_end,
};
