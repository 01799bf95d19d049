// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "dataset.h"

#define SHAPES "give JSON Lines like {\"prompt\": \"...\", \"output_len\": 64} or a ShareGPT array"

/* The string member @key of @o, or NULL. */
static const char *string_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* ShareGPT: the first turn "from" a human (or "user"). */
static const char *sharegpt_prompt(struct json_object *o)
{
	struct json_object *turns;

	if (!json_object_object_get_ex(o, "conversations", &turns) ||
	    !json_object_is_type(turns, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(turns); i++) {
		struct json_object *turn = json_object_array_get_idx(turns, i);
		const char *from = string_of(turn, "from");

		if (from && (!strcmp(from, "human") || !strcmp(from, "user")))
			return string_of(turn, "value");
	}
	return NULL;
}

/* Its output length in tokens, -1 if it gives none; -EINVAL if not a count above 0. */
static long output_len_of(struct json_object *o)
{
	static const char *const keys[] = { "output_len", "max_tokens", "output_length" };
	struct json_object *v;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!json_object_object_get_ex(o, keys[i], &v))
			continue;
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 1)
			return -EINVAL;
		return (long)json_object_get_int64(v);
	}
	return -1;
}

/* Appends entry @o (from @where) to @ds; 0 or -errno with @err. */
static int add(struct bench_dataset *ds, struct json_object *o, const char *where,
	       struct rvv_error *err)
{
	const char *prompt = NULL;
	struct bench_prompt_entry *more;
	long len;

	if (json_object_is_type(o, json_type_object))
		prompt = string_of(o, "prompt") ? string_of(o, "prompt") : string_of(o, "text");
	if (!prompt && json_object_is_type(o, json_type_object))
		prompt = sharegpt_prompt(o);
	if (!prompt || !*prompt)
		return rvv_fail(err, -EINVAL, "--prompts %s: no prompt; " SHAPES, where);
	len = output_len_of(o);
	if (len == -EINVAL)
		return rvv_fail(err, -EINVAL, "--prompts %s: the output length is not a count of tokens above 0",
				where);
	more = realloc(ds->entries, sizeof(*more) * (ds->n + 1));
	if (!more)
		return rvv_fail(err, -ENOMEM, "--prompts %s: out of memory", where);
	ds->entries = more;
	ds->entries[ds->n].prompt = strdup(prompt);
	ds->entries[ds->n].output_len = len;
	if (!ds->entries[ds->n].prompt)
		return rvv_fail(err, -ENOMEM, "--prompts %s: out of memory", where);
	ds->n++;
	return 0;
}

static int load_array(const char *path, struct json_object *all, struct bench_dataset *ds,
		      struct rvv_error *err)
{
	char where[320];
	int rc = 0;

	for (size_t i = 0; !rc && i < json_object_array_length(all); i++) {
		snprintf(where, sizeof(where), "%.280s entry %zu", path, i + 1);
		rc = add(ds, json_object_array_get_idx(all, i), where, err);
	}
	return rc;
}

static int load_lines(const char *path, FILE *f, struct bench_dataset *ds, struct rvv_error *err)
{
	char *line = NULL, where[320];
	size_t cap = 0, lineno = 0;
	int rc = 0;

	while (!rc && getline(&line, &cap, f) >= 0) {
		struct json_object *o;

		lineno++;
		if (strspn(line, " \t\r\n") == strlen(line))
			continue;
		snprintf(where, sizeof(where), "%.280s line %zu", path, lineno);
		o = json_tokener_parse(line);
		if (!o) {
			rc = rvv_fail(err, -EINVAL, "--prompts %s: not JSON; " SHAPES, where);
			break;
		}
		rc = add(ds, o, where, err);
		json_object_put(o);
	}
	free(line);
	return rc;
}

int bench_dataset_load(const char *path, struct bench_dataset *ds, struct rvv_error *err)
{
	FILE *f = fopen(path, "re");
	struct json_object *all;
	int rc, first;

	memset(ds, 0, sizeof(*ds));
	if (!f)
		return rvv_fail(err, -errno, "--prompts %s: %s", path, strerror(errno));
	while ((first = getc(f)) == ' ' || first == '\t' || first == '\r' || first == '\n')
		;
	if (first == '[') {
		all = json_object_from_file(path);
		if (all && json_object_is_type(all, json_type_array))
			rc = load_array(path, all, ds, err);
		else
			rc = rvv_fail(err, -EINVAL, "--prompts %s: not a JSON array; " SHAPES, path);
		json_object_put(all);
	} else {
		rewind(f);
		rc = load_lines(path, f, ds, err);
	}
	fclose(f);
	if (!rc && !ds->n)
		rc = rvv_fail(err, -EINVAL, "--prompts %s: no prompt in it; " SHAPES, path);
	if (rc)
		bench_dataset_free(ds);
	return rc;
}

void bench_dataset_free(struct bench_dataset *ds)
{
	for (size_t i = 0; i < ds->n; i++)
		free(ds->entries[i].prompt);
	free(ds->entries);
	memset(ds, 0, sizeof(*ds));
}
