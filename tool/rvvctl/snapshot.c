// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON form of a summary: written by "summary --json" and "snapshot",
 * read back by "delta", which prints what happened between two of them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../lib/delta.h"
#include "commands.h"

static const char *const counter_names[] = RVVSTAT_COUNTER_NAMES;
static const char *const cpu_event_names[] = RVVSTAT_CPU_EVENT_NAMES;
static const char *const hint_event_names[] = RVVSTAT_HINT_EVENT_NAMES;
static const char *const latency_names[] = RVVSTAT_LATENCY_NAMES;

#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))

static json_object *latency_json(const struct rvv_latency *l)
{
	const char *const names[] = {
		"count", "sum_ns", "min_ns", "max_ns", "p50_ns", "p95_ns", "p99_ns",
	};
	const uint64_t v[] = {
		l->count, l->sum_ns, l->min_ns, l->max_ns, l->p50_ns, l->p95_ns,
		l->p99_ns,
	};

	return json_counters(names, v, NR(v));
}

json_object *rvvctl_summary_json(const struct rvv_summary *s)
{
	json_object *obj = json_object_new_object();
	json_object *latency = json_object_new_object();
	int i;

	json_object_object_add(obj, "time_ns", json_object_new_uint64(s->time_ns));
	json_object_object_add(obj, "elapsed_ns", json_object_new_uint64(s->elapsed_ns));
	json_object_object_add(obj, "tasks_live", json_object_new_int64(s->tasks_live));
	json_object_object_add(obj, "table_capacity", json_object_new_int64(s->table_capacity));
	json_object_object_add(obj, "hints_live", json_object_new_int64(s->hints_live));
	json_object_object_add(obj, "bytes", json_object_new_uint64(s->bytes));
	json_object_object_add(obj, "counters",
			       json_counters(counter_names, s->counters, NR(counter_names)));
	json_object_object_add(obj, "exited",
			       json_counters(counter_names, s->exited, NR(counter_names)));
	json_object_object_add(obj, "cpu_events",
			       json_counters(cpu_event_names, s->cpu_events, NR(cpu_event_names)));
	json_object_object_add(obj, "hint_events",
			       json_counters(hint_event_names, s->hint_events, NR(hint_event_names)));
	for (i = 0; i < NR(latency_names); i++)
		json_object_object_add(latency, latency_names[i],
				       latency_json(&s->latency[i]));
	json_object_object_add(obj, "latency", latency);
	return obj;
}

/*
 * A counter of @obj: 0, -ENOENT if it is missing or not an integer,
 * -ERANGE if it is negative.
 */
static int json_u64(json_object *obj, const char *key, uint64_t *v)
{
	json_object *member;

	if (!json_object_object_get_ex(obj, key, &member) ||
	    !json_object_is_type(member, json_type_int))
		return -ENOENT;
	if (json_object_get_int64(member) < 0)
		return -ERANGE;
	*v = json_object_get_uint64(member);
	return 0;
}

/* The JSON document in @path, or NULL with @err saying why not. */
static json_object *snapshot_parse(const char *path, struct rvv_error *err)
{
	enum json_tokener_error why = json_tokener_success;
	json_tokener *tok = json_tokener_new();
	json_object *root = NULL;
	char buf[4096];
	size_t n = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f || !tok) {
		rvv_fail(err, f ? -ENOMEM : -errno, "delta: cannot read %s: %s", path,
			 strerror(f ? ENOMEM : errno));
		goto out;
	}
	while (!root && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		root = json_tokener_parse_ex(tok, buf, (int)n);
		why = json_tokener_get_error(tok);
		if (why != json_tokener_continue && why != json_tokener_success)
			break;
	}
	if (ferror(f))
		rvv_fail(err, -EIO, "delta: cannot read %s", path);
	else if (!root && why == json_tokener_continue)
		rvv_fail(err, -EINVAL, "delta: %s ends before its JSON does: a snapshot cut short?", path);
	else if (!root)
		rvv_fail(err, -EINVAL, "delta: %s is not JSON (%s at byte %zu)", path,
			 json_tokener_error_desc(why), json_tokener_get_parse_end(tok));
out:
	if (f)
		fclose(f);
	if (tok)
		json_tokener_free(tok);
	return root;
}

/* What delta needs of a snapshot: the clock, the counters and bytes. */
static int snapshot_read(const char *path, struct rvv_summary *s,
			 struct rvv_error *err)
{
	json_object *root = snapshot_parse(path, err);
	json_object *counters;
	int i, status = 0, elapsed, bytes;

	memset(s, 0, sizeof(*s));
	if (!root)
		return err->code;
	elapsed = json_u64(root, "elapsed_ns", &s->elapsed_ns);
	bytes = json_u64(root, "bytes", &s->bytes);
	if (elapsed == -ENOENT || bytes == -ENOENT ||
	    !json_object_object_get_ex(root, "counters", &counters))
		status = rvv_fail(err, -EINVAL,
				  "delta: %s is not an rvvctl snapshot (no elapsed_ns, bytes or counters)",
				  path);
	else if (elapsed || bytes)
		status = rvv_fail(err, -EINVAL, "delta: %s has a negative %s", path,
				  elapsed ? "elapsed_ns" : "bytes");
	for (i = 0; !status && i < NR(counter_names); i++) {
		status = json_u64(counters, counter_names[i], &s->counters[i]);
		if (status)
			status = rvv_fail(err, -EINVAL, "delta: %s %s counter %s", path,
					  status == -ERANGE ? "has a negative" : "has no",
					  counter_names[i]);
	}
	json_object_put(root);
	return status;
}

int rvvctl_delta(const char *earlier, const char *later,
		 enum output_format format, struct rvv_error *err)
{
	struct rvv_error why = { 0 };
	struct rvv_summary a, b;
	struct rvv_delta d;
	json_object *obj;
	int status, i;

	status = snapshot_read(earlier, &a, err);
	if (!status)
		status = snapshot_read(later, &b, err);
	if (!status && rvv_delta(&a, &b, &d, &why))
		status = rvv_fail(err, why.code, "delta %s %s: %s", earlier, later,
				  why.message);
	if (status)
		return status;
	if (format == OUTPUT_JSON) {
		obj = json_object_new_object();
		json_object_object_add(obj, "seconds", json_object_new_double(d.seconds));
		json_object_object_add(obj, "bytes", json_object_new_uint64(d.bytes));
		json_object_object_add(obj, "counters",
				       json_counters(counter_names, d.counters, NR(counter_names)));
		return json_print(obj, stdout);
	}
	printf("over %.3f s\n%-20s %16s %14s\n", d.seconds, "counter", "delta",
	       "per second");
	for (i = 0; i < NR(counter_names); i++)
		printf("%-20s %16" PRIu64 " %14.1f\n", counter_names[i],
		       d.counters[i], rvv_delta_rate(&d, d.counters[i]));
	printf("%-20s %16" PRIu64 " %14.1f\n", "bytes", d.bytes,
	       rvv_delta_rate(&d, d.bytes));
	return output_flush(stdout);
}
