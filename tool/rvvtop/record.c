// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "../lib/format.h"
#include "panel.h"
#include "record.h"

static int write_line(FILE *out, json_object *obj)
{
	int status = fprintf(out, "%s\n", json_object_to_json_string_ext(obj,
				JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));

	return status < 0 || fflush(out) ? -EIO : 0;
}

/* A rates object's keys, for its writer and its reader alike. */
static const struct {
	const char *key;
	size_t offset;
	bool count;			/* a uint64_t; else a double */
} rate_keys[] = {
	{ "saves", offsetof(struct rates, saved), true },
	{ "involuntary_saves", offsetof(struct rates, involuntary), true },
	{ "saves_per_s", offsetof(struct rates, saves), false },
	{ "restores_per_s", offsetof(struct rates, restores), false },
	{ "bytes_per_s", offsetof(struct rates, bytes), false },
	{ "involuntary_pct", offsetof(struct rates, involuntary_pct), false },
};

json_object *record_rates(const struct rates *r)
{
	json_object *obj = json_object_new_object();
	size_t i;

	for (i = 0; i < sizeof(rate_keys) / sizeof(*rate_keys); i++) {
		const char *field = (const char *)r + rate_keys[i].offset;

		json_object_object_add(obj, rate_keys[i].key, rate_keys[i].count ?
				       json_object_new_uint64(*(const uint64_t *)field) :
				       json_object_new_double(*(const double *)field));
	}
	return obj;
}

json_object *record_p99(uint64_t ns)
{
	return ns ? json_object_new_uint64(ns) : NULL;
}

/* What the live view's title says of the module: backend, table, hints. */
static json_object *json_module(const struct sample *s)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "backend",
			       json_object_new_string(rvv_format_backend_name(s->info.backend)));
	json_object_object_add(obj, "vector_bits", json_object_new_int64(s->info.vector_bits));
	json_object_object_add(obj, "bytes_per_save", json_object_new_int64(s->info.bytes_per_save));
	json_object_object_add(obj, "features", json_object_new_uint64(s->info.features));
	json_object_object_add(obj, "since_reset_ns", json_object_new_uint64(s->summary.elapsed_ns));
	json_object_object_add(obj, "tasks_live", json_object_new_int64(s->summary.tasks_live));
	json_object_object_add(obj, "table_capacity",
			       json_object_new_int64(s->summary.table_capacity));
	json_object_object_add(obj, "hints_live", json_object_new_int64(s->summary.hints_live));
	return obj;
}

int record_write(FILE *out, const struct sample *s, const struct view *v)
{
	json_object *obj = json_object_new_object();
	size_t i;
	int status;

	json_object_object_add(obj, "time", json_object_new_double(s->wall));
	json_object_object_add(obj, "monotonic", json_object_new_double(s->taken));
	json_object_object_add(obj, "seconds", json_object_new_double(v->seconds));
	json_object_object_add(obj, "module", json_object_new_boolean(v->has_module));
	json_object_object_add(obj, "module_why",
			       v->has_module ? NULL : json_object_new_string(v->module_why));
	json_object_object_add(obj, "rvvstat", v->has_module ? json_module(s) : NULL);
	json_object_object_add(obj, "reset", json_object_new_boolean(v->module_reset));
	for (i = 0; i < nr_panels; i++)
		panels[i]->json(obj, v, v->parts[i]);
	status = write_line(out, obj);
	json_object_put(obj);
	return status;
}

int recording_begin(FILE *out)
{
	json_object *obj = json_object_new_object();
	int status;

	json_object_object_add(obj, "rvvtop_recording", json_object_new_int(RECORDING_VERSION));
	json_object_object_add(obj, "rvvtop", json_object_new_string(RVVSTAT_VERSION));
	json_object_object_add(obj, "abi", json_object_new_int(RVVSTAT_ABI_VERSION));
	status = write_line(out, obj);
	json_object_put(obj);
	return status;
}

/* Reading back: where, and the first refusal (later ones are not looked at). */
struct record_reader {
	const char *path;
	size_t line;
	struct rvv_error *err;
	int status;
};

static const char *type_words(json_type type)
{
	switch (type) {
	case json_type_double:
		return "a number";
	case json_type_int:
		return "a whole number";
	case json_type_boolean:
		return "true or false";
	case json_type_string:
		return "a string";
	case json_type_array:
		return "an array";
	default:
		return "an object";
	}
}

/* An integer will do for a double. */
json_object *record_member(struct record_reader *rd, json_object *o, const char *key,
			   json_type type, bool nullable)
{
	json_object *m = NULL;
	bool ok;

	if (rd->status)
		return NULL;
	ok = json_object_object_get_ex(o, key, &m);
	if (ok && m)
		ok = json_object_is_type(m, type) ||
		     (type == json_type_double && json_object_is_type(m, json_type_int));
	else if (ok)
		ok = nullable;
	if (!ok)
		rd->status = rvv_fail(rd->err, -EINVAL, "%s:%zu: \"%s\" is missing or not %s%s",
				      rd->path, rd->line, key, type_words(type),
				      nullable ? " or null" : "");
	return ok ? m : NULL;
}

double record_number(struct record_reader *rd, json_object *o, const char *key)
{
	return json_object_get_double(record_member(rd, o, key, json_type_double, false));
}

bool record_maybe_number(struct record_reader *rd, json_object *o, const char *key, double *v)
{
	json_object *m = record_member(rd, o, key, json_type_double, true);

	*v = m ? json_object_get_double(m) : 0;
	return m;
}

uint64_t record_count(struct record_reader *rd, json_object *o, const char *key)
{
	return json_object_get_uint64(record_member(rd, o, key, json_type_int, false));
}

uint64_t record_maybe_count(struct record_reader *rd, json_object *o, const char *key)
{
	return json_object_get_uint64(record_member(rd, o, key, json_type_int, true));
}

bool record_flag(struct record_reader *rd, json_object *o, const char *key)
{
	return json_object_get_boolean(record_member(rd, o, key, json_type_boolean, false));
}

const char *record_text(struct record_reader *rd, json_object *o, const char *key, char **copy)
{
	json_object *m = record_member(rd, o, key, json_type_string, true);

	if (!m)
		return NULL;
	*copy = strdup(json_object_get_string(m));
	if (!*copy && !rd->status)
		rd->status = rvv_fail(rd->err, -ENOMEM, "%s: no memory to read it", rd->path);
	return *copy;
}

unsigned int record_named(struct record_reader *rd, json_object *o, const char *key,
			  const char *(*name_of)(unsigned int), unsigned int n)
{
	const char *name = json_object_get_string(record_member(rd, o, key, json_type_string, false));
	unsigned int i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(name_of(i), name))
			return i;
	if (!rd->status)
		rd->status = rvv_fail(rd->err, -EINVAL, "%s:%zu: \"%s\" is not a %s this rvvtop knows",
				      rd->path, rd->line, name ? name : "null", key);
	return 0;
}

static const char *backend_name(unsigned int i)
{
	return rvv_format_backend_name(i);
}

void record_read_rates(struct record_reader *rd, json_object *o, struct rates *r)
{
	size_t i;

	for (i = 0; i < sizeof(rate_keys) / sizeof(*rate_keys); i++) {
		char *field = (char *)r + rate_keys[i].offset;

		if (rate_keys[i].count)
			*(uint64_t *)field = record_count(rd, o, rate_keys[i].key);
		else
			*(double *)field = record_number(rd, o, rate_keys[i].key);
	}
}

static void read_module(struct record_reader *rd, json_object *o, struct sample *s)
{
	json_object *m = record_member(rd, o, "rvvstat", json_type_object, true);

	if (!m)
		return;
	s->info.backend = record_named(rd, m, "backend", backend_name, 16);
	s->info.vector_bits = (uint32_t)record_count(rd, m, "vector_bits");
	s->info.bytes_per_save = (uint32_t)record_count(rd, m, "bytes_per_save");
	s->info.features = record_count(rd, m, "features");
	s->summary.elapsed_ns = record_count(rd, m, "since_reset_ns");
	s->summary.tasks_live = (uint32_t)record_count(rd, m, "tasks_live");
	s->summary.table_capacity = (uint32_t)record_count(rd, m, "table_capacity");
	s->summary.hints_live = (uint32_t)record_count(rd, m, "hints_live");
}

void *record_array(struct record_reader *rd, json_object *o, const char *key,
			size_t size, json_object **a, size_t *n)
{
	*a = record_member(rd, o, key, json_type_array, false);
	*n = *a ? json_object_array_length(*a) : 0;
	return calloc(*n ? *n : 1, size);
}

/* One record into @e. 0, or -errno with the refusal in @rd. */
static int read_record(struct record_reader *rd, json_object *o, struct replayed *e)
{
	size_t i;
	int status;

	e->s.wall = record_number(rd, o, "time");
	e->s.taken = record_number(rd, o, "monotonic");
	e->v.seconds = record_number(rd, o, "seconds");
	e->s.has_module = e->v.has_module = record_flag(rd, o, "module");
	e->v.module_why = record_text(rd, o, "module_why", &e->module_why);
	e->v.module_reset = record_flag(rd, o, "reset");
	read_module(rd, o, &e->s);
	for (i = 0; i < nr_panels; i++) {
		status = panels[i]->read(rd, o, e, &e->v.parts[i]);
		if (status)
			return rvv_fail(rd->err, status, "%s: no memory to read it", rd->path);
	}
	return rd->status;
}

static void replayed_free(struct replayed *e)
{
	view_free(&e->v);
	free(e->module_why);
}

/* Line 1: a recording of this version. */
static int read_header(struct record_reader *rd, json_object *o)
{
	json_object *version;

	if (!o || !json_object_object_get_ex(o, "rvvtop_recording", &version) ||
	    !json_object_is_type(version, json_type_int))
		return rvv_fail(rd->err, -EINVAL, "%s: not a recording of rvvtop (--record FILE writes one)",
				rd->path);
	if (json_object_get_int64(version) != RECORDING_VERSION)
		return rvv_fail(rd->err, -EPROTO, "%s: a recording of version %" PRId64 "; this rvvtop reads version %d",
				rd->path, json_object_get_int64(version), RECORDING_VERSION);
	return 0;
}

int recording_load(const char *path, struct recording *r, struct rvv_error *err)
{
	struct record_reader rd = { .path = path, .err = err };
	size_t size = 0, room = 0;
	char *line = NULL;
	FILE *f;

	memset(r, 0, sizeof(*r));
	f = fopen(path, "r");
	if (!f)
		return rvv_fail(err, -errno, "%s: %s", path, strerror(errno));
	while (!rd.status && getline(&line, &size, f) >= 0) {
		json_object *o = json_tokener_parse(line);

		rd.line++;
		if (rd.line == 1) {
			rd.status = read_header(&rd, o);
		} else if (!o || !json_object_is_type(o, json_type_object)) {
			rd.status = rvv_fail(err, -EINVAL, "%s:%zu: not a JSON record (cut short?)",
					     path, rd.line);
		} else if (r->n == room) {
			struct replayed *more = realloc(r->at, (room * 2 + 16) * sizeof(*more));

			if (more) {
				room = room * 2 + 16;
				r->at = more;
			} else {
				rd.status = rvv_fail(err, -ENOMEM, "%s: no memory to read it", path);
			}
		}
		if (!rd.status && rd.line > 1) {
			memset(&r->at[r->n], 0, sizeof(*r->at));
			rd.status = read_record(&rd, o, &r->at[r->n]);
			r->n++;
		}
		json_object_put(o);
	}
	free(line);
	if (!rd.status && ferror(f))
		rd.status = rvv_fail(err, -EIO, "%s: %s", path, strerror(errno));
	fclose(f);
	if (!rd.status && !r->n)
		rd.status = rvv_fail(err, -ENODATA, "%s: %s", path, rd.line ?
				     "no interval was recorded" : "empty: not a recording of rvvtop");
	if (rd.status)
		recording_free(r);
	return rd.status;
}

void recording_free(struct recording *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		replayed_free(&r->at[i]);
	free(r->at);
	memset(r, 0, sizeof(*r));
}
