// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "format.h"
#include "llama.h"

static const char *const series_names[RVV_LLAMA_NR_SERIES] = {
	[RVV_LLAMA_PROMPT_TOKENS] = "llamacpp:prompt_tokens_total",
	[RVV_LLAMA_PREDICTED_TOKENS] = "llamacpp:tokens_predicted_total",
	[RVV_LLAMA_DECODE_CALLS] = "llamacpp:n_decode_total",
	[RVV_LLAMA_REQUESTS_PROCESSING] = "llamacpp:requests_processing",
	[RVV_LLAMA_REQUESTS_DEFERRED] = "llamacpp:requests_deferred",
};

/* The series @line is a sample of, or -1; *@rest points past its name. */
static int series_of(const char *line, const char **rest)
{
	size_t len = strcspn(line, "{ \t");
	int i;

	for (i = 0; i < RVV_LLAMA_NR_SERIES; i++) {
		if (strlen(series_names[i]) == len &&
		    !strncmp(line, series_names[i], len)) {
			*rest = line + len;
			return i;
		}
	}
	return -1;
}

/*
 * Past a {labels} block at @p: label values are quoted and may hold "}" and
 * backslash escapes. NULL if the block does not close before @end.
 */
static const char *skip_labels(const char *p, const char *end)
{
	bool quoted = false;

	for (p++; p < end; p++) {
		if (quoted && *p == '\\')
			p++;
		else if (*p == '"')
			quoted = !quoted;
		else if (!quoted && *p == '}')
			return p + 1;
	}
	return NULL;
}

/*
 * The value of a sample of @name after its optional {labels} block: a
 * finite count, not negative (every series rvvtop reads is one).
 */
static int sample_value(const char *name, const char *rest, const char *end,
			double *value, struct rvv_error *err)
{
	char buf[64], safe[4 * sizeof(buf)], *stop;
	size_t len;

	if (*rest == '{') {
		rest = skip_labels(rest, end);
		if (!rest)
			return rvv_fail(err, -EINVAL, "/metrics: %s: its labels do not close", name);
	}
	if (rest >= end || (*rest != ' ' && *rest != '\t'))
		return rvv_fail(err, -EINVAL, "/metrics: %s: no value", name);
	rest += strspn(rest, " \t");
	len = strcspn(rest, " \t\r\n");
	if (!len || len >= sizeof(buf) || rest + len > end)
		return rvv_fail(err, -EINVAL, "/metrics: %s: no value", name);
	memcpy(buf, rest, len);
	buf[len] = '\0';
	*value = strtod(buf, &stop);
	if (*stop || !isfinite(*value) || *value < 0) {
		/* The server's bytes, quoted: a terminal shows the message. */
		rvv_format_untrusted(buf, RVV_UNTRUSTED_TEXT, safe, sizeof(safe));
		return rvv_fail(err, -EINVAL, "/metrics: %s is %s, not a finite count",
				name, safe);
	}
	return 0;
}

int rvv_llama_parse_metrics(const char *text, struct rvv_llama_metrics *m,
			    struct rvv_error *err)
{
	struct rvv_llama_metrics parsed = { 0 };
	const char *line, *end, *rest;
	int series, status;

	for (line = text; *line; line = *end ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		if (*line == '#' || line == end)
			continue;
		series = series_of(line, &rest);
		if (series < 0)
			continue;
		status = sample_value(series_names[series], rest, end,
				      &parsed.value[series], err);
		if (status)
			return status;
		parsed.present |= 1U << series;
	}
	if (!parsed.present)
		return rvv_fail(err, -EINVAL, "/metrics: no llamacpp: series rvvtop reads (%s, ...)",
				series_names[RVV_LLAMA_PREDICTED_TOKENS]);
	*m = parsed;
	return 0;
}

/* An integer member; false if absent or not an integer. */
static bool member_int(json_object *obj, const char *key, int64_t *v)
{
	json_object *member;

	if (!json_object_object_get_ex(obj, key, &member) ||
	    !json_object_is_type(member, json_type_int))
		return false;
	*v = json_object_get_int64(member);
	return true;
}

static int parse_slot(json_object *obj, struct rvv_llama_slot *slot)
{
	json_object *member, *next;
	int64_t decoded = 0;

	if (!json_object_is_type(obj, json_type_object) ||
	    !member_int(obj, "id", &slot->id))
		return -EINVAL;
	slot->processing = json_object_object_get_ex(obj, "is_processing", &member) &&
			   json_object_get_boolean(member);
	slot->has_task = member_int(obj, "id_task", &slot->id_task);
	if (json_object_object_get_ex(obj, "next_token", &next)) {
		/* An array of one object in some builds, an object in others. */
		if (json_object_is_type(next, json_type_array))
			next = json_object_array_get_idx(next, 0);
		if (next && member_int(next, "n_decoded", &decoded) && decoded < 0)
			return -EINVAL;
	}
	slot->n_decoded = (uint64_t)decoded;
	return 0;
}

int rvv_llama_parse_slots(const char *json, struct rvv_llama_slots *s)
{
	json_object *root = json_tokener_parse(json);
	struct rvv_llama_slots *parsed;
	size_t i, n;
	int status = 0;

	if (!root || !json_object_is_type(root, json_type_array)) {
		json_object_put(root);
		return -EINVAL;
	}
	parsed = calloc(1, sizeof(*parsed));
	if (!parsed) {
		json_object_put(root);
		return -ENOMEM;
	}
	n = json_object_array_length(root);
	for (i = 0; !status && i < n && i < RVV_LLAMA_MAX_SLOTS; i++)
		status = parse_slot(json_object_array_get_idx(root, i),
				    &parsed->slot[i]);
	parsed->nr = (int)i;
	if (!status)
		*s = *parsed;
	free(parsed);
	json_object_put(root);
	return status;
}

static const struct rvv_llama_slot *slot_by_id(const struct rvv_llama_slots *s,
					       int64_t id)
{
	int i;

	for (i = 0; i < s->nr; i++)
		if (s->slot[i].id == id)
			return &s->slot[i];
	return NULL;
}

uint64_t rvv_llama_decoded_between(const struct rvv_llama_slots *earlier,
				   const struct rvv_llama_slots *later)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < later->nr; i++) {
		const struct rvv_llama_slot *now = &later->slot[i];
		const struct rvv_llama_slot *was = slot_by_id(earlier, now->id);

		if (!now->has_task)
			continue;
		if (was && was->has_task && was->id_task == now->id_task &&
		    now->n_decoded >= was->n_decoded)
			sum += now->n_decoded - was->n_decoded;
		else
			sum += now->n_decoded;	/* a new task counts from 0 */
	}
	return sum;
}

int rvv_llama_busy_slots(const struct rvv_llama_slots *s)
{
	int i, busy = 0;

	for (i = 0; i < s->nr; i++)
		busy += s->slot[i].processing;
	return busy;
}

enum rvv_llama_health rvv_llama_health_of(long http_status, const char *body)
{
	if (http_status == 200 && body && strstr(body, "\"ok\""))
		return RVV_LLAMA_UP;
	if (http_status == 503 && body && strstr(body, "Loading model"))
		return RVV_LLAMA_LOADING;
	return RVV_LLAMA_DOWN;
}
