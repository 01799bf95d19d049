// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "../lib/format.h"
#include "record.h"

static int write_line(FILE *out, json_object *obj)
{
	int status = fprintf(out, "%s\n", json_object_to_json_string_ext(obj,
				JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));

	return status < 0 || fflush(out) ? -EIO : 0;
}

static json_object *json_rates(const struct rates *r)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "saves", json_object_new_uint64(r->saved));
	json_object_object_add(obj, "involuntary_saves", json_object_new_uint64(r->involuntary));
	json_object_object_add(obj, "saves_per_s", json_object_new_double(r->saves));
	json_object_object_add(obj, "restores_per_s", json_object_new_double(r->restores));
	json_object_object_add(obj, "bytes_per_s", json_object_new_double(r->bytes));
	json_object_object_add(obj, "involuntary_pct", json_object_new_double(r->involuntary_pct));
	return obj;
}

/* A p99 in ns: null while no saving switch was timed (0). */
static json_object *json_p99(uint64_t ns)
{
	return ns ? json_object_new_uint64(ns) : NULL;
}

static json_object *json_llama(const struct llama_view *l)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "state", json_object_new_string(llama_state_name(l->state)));
	json_object_object_add(obj, "why", l->why ? json_object_new_string(l->why) : NULL);
	json_object_object_add(obj, "slots_why",
			       l->slots_why ? json_object_new_string(l->slots_why) : NULL);
	json_object_object_add(obj, "reading", l->reading_to ?
			       json_object_new_uint64(l->reading_to) : NULL);
	json_object_object_add(obj, "since_reading", l->reading_from ?
			       json_object_new_uint64(l->reading_from) : NULL);
	json_object_object_add(obj, "seconds", l->reading_from ?
			       json_object_new_double(l->seconds) : NULL);
	json_object_object_add(obj, "reading_monotonic", l->reading_to ?
			       json_object_new_double(l->reading_taken) : NULL);
	json_object_object_add(obj, "slots", l->has_slots ? json_object_new_int(l->slots) : NULL);
	json_object_object_add(obj, "busy_slots",
			       l->has_slots ? json_object_new_int(l->busy_slots) : NULL);
	json_object_object_add(obj, "decoded", l->has_live ? json_object_new_uint64(l->decoded) : NULL);
	json_object_object_add(obj, "tokens_per_s",
			       l->has_live ? json_object_new_double(l->tokens_per_s) : NULL);
	json_object_object_add(obj, "restarted", json_object_new_boolean(l->restarted));
	json_object_object_add(obj, "prompt_tokens_done",
			       l->has_metrics ? json_object_new_double(l->prompt_done) : NULL);
	json_object_object_add(obj, "generated_tokens_done",
			       l->has_metrics ? json_object_new_double(l->predicted_done) : NULL);
	json_object_object_add(obj, "requests_processing",
			       l->has_gauges ? json_object_new_double(l->processing) : NULL);
	json_object_object_add(obj, "requests_deferred",
			       l->has_gauges ? json_object_new_double(l->deferred) : NULL);
	json_object_object_add(obj, "saves_per_token",
			       l->has_join ? json_object_new_double(l->saves_per_token) : NULL);
	json_object_object_add(obj, "saves_per_generating_s",
			       l->has_join ? json_object_new_double(l->saves_per_generating_s) : NULL);
	return obj;
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
	json_object *cpus = json_object_new_array();
	json_object *tasks = json_object_new_array();
	size_t t;
	int i, status;

	json_object_object_add(obj, "time", json_object_new_double(s->wall));
	json_object_object_add(obj, "monotonic", json_object_new_double(s->taken));
	json_object_object_add(obj, "seconds", json_object_new_double(v->seconds));
	json_object_object_add(obj, "module", json_object_new_boolean(v->has_module));
	json_object_object_add(obj, "module_why",
			       v->has_module ? NULL : json_object_new_string(v->module_why));
	json_object_object_add(obj, "rvvstat", v->has_module ? json_module(s) : NULL);
	json_object_object_add(obj, "reset", json_object_new_boolean(v->module_reset));
	json_object_object_add(obj, "total", v->has_module && !v->module_reset ?
			       json_rates(&v->total) : NULL);
	for (i = 0; i < v->nr_cpus; i++) {
		json_object *cpu = json_rates(&v->cpus[i].r);

		json_object_object_add(cpu, "cpu", json_object_new_int64(v->cpus[i].cpu));
		json_object_object_add(cpu, RVV_SWITCH_SAVED_P99_NAME,
				       json_p99(v->cpus[i].switch_saved_p99_ns));
		json_object_array_add(cpus, cpu);
	}
	json_object_object_add(obj, "cpus", cpus);
	for (t = 0; t < v->nr_tasks; t++) {
		const struct task_view *tv = &v->tasks[t];
		json_object *task = json_rates(&tv->r);
		char comm[RVV_COMM_SAFE_SIZE];

		json_object_object_add(task, "tid", json_object_new_int64(tv->tid));
		json_object_object_add(task, "tgid", json_object_new_int64(tv->tgid));
		rvv_format_untrusted(tv->comm, RVV_UNTRUSTED_JSON, comm, sizeof(comm));
		json_object_object_add(task, "comm", json_object_new_string(comm));
		json_object_object_add(task, "cpu", tv->cpu < 0 ? NULL : json_object_new_int(tv->cpu));
		json_object_object_add(task, "hint", json_object_new_string(rvv_format_task_hint(tv->hint)));
		json_object_object_add(task, RVV_SWITCH_SAVED_P99_NAME,
				       json_p99(tv->switch_saved_p99_ns));
		json_object_object_add(task, "gained_vector",
				       json_object_new_boolean(tv->gained_vector));
		json_object_array_add(tasks, task);
	}
	json_object_object_add(obj, "tasks", tasks);
	json_object_object_add(obj, "llama", v->has_llama ? json_llama(&v->llama) : NULL);
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
struct reader {
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

/*
 * Member @key of @o if it is of @type (an integer will do for a double),
 * NULL if it is null and @nullable; otherwise NULL and a refusal.
 */
static json_object *member(struct reader *rd, json_object *o, const char *key,
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

static double number(struct reader *rd, json_object *o, const char *key)
{
	return json_object_get_double(member(rd, o, key, json_type_double, false));
}

/* A number or null: whether it is there. */
static bool maybe_number(struct reader *rd, json_object *o, const char *key, double *v)
{
	json_object *m = member(rd, o, key, json_type_double, true);

	*v = m ? json_object_get_double(m) : 0;
	return m;
}

static uint64_t count(struct reader *rd, json_object *o, const char *key)
{
	return json_object_get_uint64(member(rd, o, key, json_type_int, false));
}

/* A count or null (0: what null stood for). */
static uint64_t maybe_count(struct reader *rd, json_object *o, const char *key)
{
	return json_object_get_uint64(member(rd, o, key, json_type_int, true));
}

static bool flag(struct reader *rd, json_object *o, const char *key)
{
	return json_object_get_boolean(member(rd, o, key, json_type_boolean, false));
}

/* A copy of a string member, NULL if null; *@copy owns it. */
static const char *text(struct reader *rd, json_object *o, const char *key, char **copy)
{
	json_object *m = member(rd, o, key, json_type_string, true);

	if (!m)
		return NULL;
	*copy = strdup(json_object_get_string(m));
	if (!*copy && !rd->status)
		rd->status = rvv_fail(rd->err, -ENOMEM, "%s: no memory to read it", rd->path);
	return *copy;
}

/* @name's index among the @n that @name_of names, or a refusal. */
static unsigned int named(struct reader *rd, const char *key, const char *name,
			  const char *(*name_of)(unsigned int), unsigned int n)
{
	unsigned int i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(name_of(i), name))
			return i;
	if (!rd->status)
		rd->status = rvv_fail(rd->err, -EINVAL, "%s:%zu: \"%s\" is not a %s this rvvtop knows",
				      rd->path, rd->line, name ? name : "null", key);
	return 0;
}

static const char *hint_name(unsigned int i)
{
	return rvv_format_task_hint(i);
}

static const char *backend_name(unsigned int i)
{
	return rvv_format_backend_name(i);
}

static const char *state_name(unsigned int i)
{
	return llama_state_name((enum llama_state)i);
}

static void read_rates(struct reader *rd, json_object *o, struct rates *r)
{
	r->saved = count(rd, o, "saves");
	r->involuntary = count(rd, o, "involuntary_saves");
	r->saves = number(rd, o, "saves_per_s");
	r->restores = number(rd, o, "restores_per_s");
	r->bytes = number(rd, o, "bytes_per_s");
	r->involuntary_pct = number(rd, o, "involuntary_pct");
}

static void read_module(struct reader *rd, json_object *o, struct sample *s)
{
	json_object *m = member(rd, o, "rvvstat", json_type_object, true);

	if (!m)
		return;
	s->info.backend = named(rd, "backend", json_object_get_string(
				member(rd, m, "backend", json_type_string, false)), backend_name, 16);
	s->info.vector_bits = (uint32_t)count(rd, m, "vector_bits");
	s->info.bytes_per_save = (uint32_t)count(rd, m, "bytes_per_save");
	s->info.features = count(rd, m, "features");
	s->summary.elapsed_ns = count(rd, m, "since_reset_ns");
	s->summary.tasks_live = (uint32_t)count(rd, m, "tasks_live");
	s->summary.table_capacity = (uint32_t)count(rd, m, "table_capacity");
	s->summary.hints_live = (uint32_t)count(rd, m, "hints_live");
}

/* The array member @key in *@a, and room for its *@n elements of @size. */
static void *array_room(struct reader *rd, json_object *o, const char *key,
			size_t size, json_object **a, size_t *n)
{
	*a = member(rd, o, key, json_type_array, false);
	*n = *a ? json_object_array_length(*a) : 0;
	return calloc(*n ? *n : 1, size);
}

static int read_cpus(struct reader *rd, json_object *o, struct view *v)
{
	json_object *a;
	size_t i, n;

	v->cpus = array_room(rd, o, "cpus", sizeof(*v->cpus), &a, &n);
	if (!v->cpus)
		return -ENOMEM;
	for (i = 0; i < n && !rd->status; i++) {
		json_object *c = json_object_array_get_idx(a, i);
		struct cpu_view *cv = &v->cpus[v->nr_cpus++];

		cv->cpu = (uint32_t)count(rd, c, "cpu");
		read_rates(rd, c, &cv->r);
		cv->switch_saved_p99_ns = maybe_count(rd, c, RVV_SWITCH_SAVED_P99_NAME);
	}
	return 0;
}

static int read_tasks(struct reader *rd, json_object *o, struct view *v)
{
	json_object *a;
	size_t i, n;

	v->tasks = array_room(rd, o, "tasks", sizeof(*v->tasks), &a, &n);
	if (!v->tasks)
		return -ENOMEM;
	for (i = 0; i < n && !rd->status; i++) {
		json_object *t = json_object_array_get_idx(a, i);
		struct task_view *tv = &v->tasks[v->nr_tasks++];
		const char *comm;
		double cpu;

		tv->tid = (uint32_t)count(rd, t, "tid");
		tv->tgid = (uint32_t)count(rd, t, "tgid");
		comm = json_object_get_string(member(rd, t, "comm", json_type_string, false));
		/* As --json wrote it (U+FFFD for bytes that were not UTF-8), cut to fit. */
		snprintf(tv->comm, sizeof(tv->comm), "%s", comm ? comm : "");
		tv->cpu = maybe_number(rd, t, "cpu", &cpu) ? (int32_t)cpu : -1;
		tv->hint = named(rd, "hint", json_object_get_string(
				 member(rd, t, "hint", json_type_string, false)), hint_name, 8);
		tv->switch_saved_p99_ns = maybe_count(rd, t, RVV_SWITCH_SAVED_P99_NAME);
		tv->gained_vector = flag(rd, t, "gained_vector");
		read_rates(rd, t, &tv->r);
	}
	return 0;
}

static void read_llama(struct reader *rd, json_object *o, struct replayed *e)
{
	json_object *m = member(rd, o, "llama", json_type_object, true);
	struct llama_view *l = &e->v.llama;
	double slots, busy;

	if (!m)
		return;
	e->v.has_llama = true;
	l->state = (enum llama_state)named(rd, "state", json_object_get_string(
		member(rd, m, "state", json_type_string, false)), state_name, LLAMA_NR_STATES);
	l->why = text(rd, m, "why", &e->texts[1]);
	l->slots_why = text(rd, m, "slots_why", &e->texts[2]);
	l->reading_to = maybe_count(rd, m, "reading");
	l->reading_from = maybe_count(rd, m, "since_reading");
	l->no_new_reading = l->reading_from && l->reading_from == l->reading_to;
	maybe_number(rd, m, "seconds", &l->seconds);
	maybe_number(rd, m, "reading_monotonic", &l->reading_taken);
	l->has_slots = maybe_number(rd, m, "slots", &slots);
	maybe_number(rd, m, "busy_slots", &busy);
	l->slots = (int)slots;
	l->busy_slots = (int)busy;
	l->has_live = maybe_number(rd, m, "tokens_per_s", &l->tokens_per_s);
	l->decoded = maybe_count(rd, m, "decoded");
	l->restarted = flag(rd, m, "restarted");
	l->has_metrics = maybe_number(rd, m, "generated_tokens_done", &l->predicted_done);
	maybe_number(rd, m, "prompt_tokens_done", &l->prompt_done);
	l->has_gauges = maybe_number(rd, m, "requests_processing", &l->processing);
	maybe_number(rd, m, "requests_deferred", &l->deferred);
	l->has_join = maybe_number(rd, m, "saves_per_token", &l->saves_per_token);
	maybe_number(rd, m, "saves_per_generating_s", &l->saves_per_generating_s);
}

/* One record into @e. 0, or -errno with the refusal in @rd. */
static int read_record(struct reader *rd, json_object *o, struct replayed *e)
{
	json_object *total;
	int status;

	e->s.wall = number(rd, o, "time");
	e->s.taken = number(rd, o, "monotonic");
	e->v.seconds = number(rd, o, "seconds");
	e->s.has_module = e->v.has_module = flag(rd, o, "module");
	e->v.module_why = text(rd, o, "module_why", &e->texts[0]);
	e->v.module_reset = flag(rd, o, "reset");
	read_module(rd, o, &e->s);
	total = member(rd, o, "total", json_type_object, true);
	if (total)
		read_rates(rd, total, &e->v.total);
	status = read_cpus(rd, o, &e->v);
	if (!status)
		status = read_tasks(rd, o, &e->v);
	if (status)
		return rvv_fail(rd->err, status, "%s: no memory to read it", rd->path);
	e->s.nr_cpus = e->v.nr_cpus;
	read_llama(rd, o, e);
	e->s.has_llama = e->v.has_llama;
	return rd->status;
}

static void replayed_free(struct replayed *e)
{
	size_t i;

	view_free(&e->v);
	for (i = 0; i < sizeof(e->texts) / sizeof(*e->texts); i++)
		free(e->texts[i]);
}

/* Line 1: a recording of this version. */
static int read_header(struct reader *rd, json_object *o)
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
	struct reader rd = { .path = path, .err = err };
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
