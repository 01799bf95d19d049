// SPDX-License-Identifier: GPL-2.0
/*
 * The data of a summary: written by "summary --json" and "snapshot", read
 * back by "delta", which prints what happened between two of them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "../lib/stats.h"
#include "commands.h"

static const char *const counter_names[] = RVVSTAT_COUNTER_NAMES;
static const char *const cpu_event_names[] = RVVSTAT_CPU_EVENT_NAMES;
static const char *const hint_event_names[] = RVVSTAT_HINT_EVENT_NAMES;
static const char *const latency_names[] = RVVSTAT_LATENCY_NAMES;

#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))

static void latency_data(struct output *o, const char *key,
			 const struct rvv_latency *l)
{
	static const char *const names[] = {
		"count", "sum_ns", "min_ns", "max_ns", "p50_ns", "p95_ns", "p99_ns",
	};
	const uint64_t v[] = {
		l->count, l->sum_ns, l->min_ns, l->max_ns, l->p50_ns, l->p95_ns,
		l->p99_ns,
	};

	out_counters(o, key, names, v, NR(v));
}

void rvvctl_summary_data(struct output *o, const struct rvv_summary *s)
{
	int i;

	out_open_object(o, NULL);
	out_data(o, "time_ns", OUT_U64(s->time_ns));
	out_data(o, "elapsed_ns", OUT_U64(s->elapsed_ns));
	out_data(o, "tasks_live", OUT_I64(s->tasks_live));
	out_data(o, "table_capacity", OUT_I64(s->table_capacity));
	out_data(o, "hints_live", OUT_I64(s->hints_live));
	out_data(o, "bytes", OUT_U64(s->bytes));
	out_counters(o, "counters", counter_names, s->counters, NR(counter_names));
	out_counters(o, "exited", counter_names, s->exited, NR(counter_names));
	out_counters(o, "cpu_events", cpu_event_names, s->cpu_events,
		     NR(cpu_event_names));
	out_counters(o, "hint_events", hint_event_names, s->hint_events,
		     NR(hint_event_names));
	out_open_object(o, "latency");
	for (i = 0; i < NR(latency_names); i++)
		latency_data(o, latency_names[i], &s->latency[i]);
	out_close(o);
	out_close(o);
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

int rvvctl_delta(const char *earlier, const char *later, struct output *o,
		 struct rvv_error *err)
{
	struct rvv_error why = { 0 };
	struct rvv_summary a, b;
	struct rvv_delta d;
	int status, i;

	status = snapshot_read(earlier, &a, err);
	if (!status)
		status = snapshot_read(later, &b, err);
	if (!status && rvv_delta(&a, &b, &d, &why))
		status = rvv_fail(err, why.code, "delta %s %s: %s", earlier, later,
				  why.message);
	if (status)
		return status;
	out_open_object(o, NULL);
	out_real(o, "seconds", "over %.3f s\n", d.seconds);
	out_data(o, "bytes", OUT_U64(d.bytes));
	out_text(o, "%-20s %16s %14s\n", "counter", "delta", "per second");
	out_open_object(o, "counters");
	for (i = 0; i < NR(counter_names); i++) {
		out_text(o, "%-20s ", counter_names[i]);
		out_u64(o, counter_names[i], "%16" PRIu64, d.counters[i]);
		out_text(o, " %14.1f\n", rvv_delta_rate(&d, d.counters[i]));
	}
	out_close(o);
	out_text(o, "%-20s %16" PRIu64 " %14.1f\n", "bytes", d.bytes,
		 rvv_delta_rate(&d, d.bytes));
	out_close(o);
	return 0;
}
