// SPDX-License-Identifier: GPL-2.0
/*
 * llama-server's two streaming formats (tools/server in llama.cpp):
 * /completion sends {"content", "tokens_predicted", "stop": false, ...} per
 * token and a last {"stop": true, "tokens_predicted", "timings": {...}};
 * /v1/chat/completions sends chunks whose choices[0].delta.content is the
 * text (the first carries only the role; reasoning_content and tool_calls
 * deltas are tokens too), a chunk with "usage" (asked for
 * with stream_options.include_usage) and "timings", then "data: [DONE]".
 * An error after the headers is "data: {"error": ...}" or, in older
 * servers, an "error: {...}" field.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "endpoint.h"

static void event_reset(struct bench_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->output_tokens = ev->prompt_tokens = -1;
	ev->prompt_ms = ev->predicted_ms = -1;
	ev->slot = -1;
}

static char *body_finish(struct json_object *req, const struct bench_request_spec *spec,
			 struct rvv_error *err)
{
	const char *text;
	char *body;

	json_object_object_add(req, "stream", json_object_new_boolean(1));
	json_object_object_add(req, "cache_prompt", json_object_new_boolean(0));
	if (spec->n_predict >= 0)
		json_object_object_add(req, "n_predict", json_object_new_int64(spec->n_predict));
	if (spec->ignore_eos)
		json_object_object_add(req, "ignore_eos", json_object_new_boolean(1));
	text = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	body = text ? strdup(text) : NULL;
	json_object_put(req);
	if (!body)
		rvv_fail(err, -ENOMEM, "request body: out of memory");
	return body;
}

static char *completion_body(const struct bench_request_spec *spec, struct rvv_error *err)
{
	struct json_object *req = json_object_new_object();

	json_object_object_add(req, "prompt", json_object_new_string(spec->prompt));
	return body_finish(req, spec, err);
}

static char *chat_body(const struct bench_request_spec *spec, struct rvv_error *err)
{
	struct json_object *req = json_object_new_object();
	struct json_object *msgs = json_object_new_array(), *msg = json_object_new_object();
	struct json_object *opts = json_object_new_object();

	json_object_object_add(msg, "role", json_object_new_string("user"));
	json_object_object_add(msg, "content", json_object_new_string(spec->prompt));
	json_object_array_add(msgs, msg);
	json_object_object_add(req, "messages", msgs);
	/* max_tokens for OpenAI clients; llama-server also reads n_predict. */
	if (spec->n_predict >= 0)
		json_object_object_add(req, "max_tokens", json_object_new_int64(spec->n_predict));
	json_object_object_add(opts, "include_usage", json_object_new_boolean(1));
	json_object_object_add(req, "stream_options", opts);
	return body_finish(req, spec, err);
}

static long get_long(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -1;
	return (long)json_object_get_int64(v);
}

static double get_double(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return -1;
	return json_object_get_double(v);
}

static bool nonempty_string(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) &&
	       json_object_get_string_len(v) > 0;
}

static void read_timings(struct json_object *o, struct bench_event *ev)
{
	struct json_object *t;

	if (!json_object_object_get_ex(o, "timings", &t))
		return;
	ev->prompt_ms = get_double(t, "prompt_ms");
	ev->predicted_ms = get_double(t, "predicted_ms");
	if (ev->output_tokens < 0)
		ev->output_tokens = get_long(t, "predicted_n");
	if (ev->prompt_tokens < 0)
		ev->prompt_tokens = get_long(t, "prompt_n");
}

/*
 * Parses @data into *@root (NULL if it is no JSON object) and fills @ev's
 * error fields if it reports a failure. 0, or -EPROTO for a data event
 * that is not JSON.
 */
static int parse_event(enum sse_field field, const char *data, size_t length,
		       struct bench_event *ev, struct json_object **root, struct rvv_error *err)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *e, *m;

	event_reset(ev);
	*root = tok ? json_tokener_parse_ex(tok, data, (int)length) : NULL;
	if (tok)
		json_tokener_free(tok);
	if (!*root || !json_object_is_type(*root, json_type_object)) {
		json_object_put(*root);
		*root = NULL;
		if (field != SSE_ERROR)
			return rvv_fail(err, -EPROTO, "an event that is not a JSON object: %.60s",
					data);
	}
	if (field == SSE_ERROR || json_object_object_get_ex(*root, "error", &e)) {
		ev->error = true;
		ev->end = true;
		if (!*root)
			snprintf(ev->message, sizeof(ev->message), "%.150s", data);
		else if (field == SSE_ERROR)
			e = *root;
		if (*root && json_object_is_type(e, json_type_object) &&
		    json_object_object_get_ex(e, "message", &m))
			snprintf(ev->message, sizeof(ev->message), "%s", json_object_get_string(m));
		else if (*root)
			snprintf(ev->message, sizeof(ev->message), "%s",
				 json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
	}
	return 0;
}

static int completion_classify(enum sse_field field, const char *data, size_t length,
			       struct bench_event *ev, struct rvv_error *err)
{
	struct json_object *root, *stop;
	int rc = parse_event(field, data, length, ev, &root, err);

	if (rc || ev->error)
		goto out;
	ev->token = nonempty_string(root, "content");
	ev->slot = get_long(root, "id_slot");
	if (json_object_object_get_ex(root, "stop", &stop) && json_object_get_boolean(stop)) {
		ev->end = true;
		ev->output_tokens = get_long(root, "tokens_predicted");
		ev->prompt_tokens = get_long(root, "tokens_evaluated");
		read_timings(root, ev);
	} else if (get_long(root, "tokens_predicted") > 0) {
		/* A token whose text the server holds back (a partial stop word). */
		ev->token = true;
	}
out:
	json_object_put(root);
	return rc;
}

static int chat_classify(enum sse_field field, const char *data, size_t length,
			 struct bench_event *ev, struct rvv_error *err)
{
	struct json_object *root, *choices, *delta, *usage, *calls;
	int rc;

	if (field == SSE_DATA && length == 6 && !memcmp(data, "[DONE]", 6)) {
		event_reset(ev);
		ev->end = true;
		return 0;
	}
	rc = parse_event(field, data, length, ev, &root, err);
	if (rc || ev->error)
		goto out;
	/*
	 * A role-only chunk (content null or "") carries no token; a reasoning
	 * model's first tokens come as reasoning_content (llama-server's
	 * --reasoning-format) and a tool call's as tool_calls: they are tokens.
	 */
	if (json_object_object_get_ex(root, "choices", &choices) &&
	    json_object_is_type(choices, json_type_array) &&
	    json_object_array_length(choices) > 0 &&
	    json_object_object_get_ex(json_object_array_get_idx(choices, 0), "delta", &delta))
		ev->token = nonempty_string(delta, "content") ||
			    nonempty_string(delta, "reasoning_content") ||
			    (json_object_object_get_ex(delta, "tool_calls", &calls) &&
			     json_object_is_type(calls, json_type_array) &&
			     json_object_array_length(calls) > 0);
	if (json_object_object_get_ex(root, "usage", &usage) &&
	    json_object_is_type(usage, json_type_object)) {
		ev->output_tokens = get_long(usage, "completion_tokens");
		ev->prompt_tokens = get_long(usage, "prompt_tokens");
	}
	read_timings(root, ev);
out:
	json_object_put(root);
	return rc;
}

static const struct bench_endpoint endpoints[] = {
	{ "completion", "/completion", completion_body, completion_classify },
	{ "chat", "/v1/chat/completions", chat_body, chat_classify },
};

const struct bench_endpoint *bench_endpoint_find(const char *name)
{
	for (size_t i = 0; i < sizeof(endpoints) / sizeof(endpoints[0]); i++)
		if (!strcmp(endpoints[i].name, name))
			return &endpoints[i];
	return NULL;
}

