// SPDX-License-Identifier: GPL-2.0
/*
 * rvvctl hint set|get|clear: CPU masks and scheduling policies through
 * /dev/rvvstat, applied now or at a thread's first vector use.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../lib/device.h"
#include "../lib/format.h"
#include "hint.h"

static int hint_print(const struct rvvstat_hint *h, const uint8_t *mask,
		      enum output_format format)
{
	struct rvv_policy p = {
		.policy = h->policy, .nice = h->nice,
		.rt_priority = h->rt_priority, .runtime_ns = h->dl_runtime,
		.deadline_ns = h->dl_deadline, .period_ns = h->dl_period,
	};
	char cpus[4096] = "", policy[96] = "";
	json_object *obj;

	/* cpus_size says how much the module has; we read what fit. */
	if (h->flags & RVVSTAT_HINT_CPUS)
		rvv_format_cpulist(mask, h->cpus_size < RVVCTL_MASK_BYTES ?
				   h->cpus_size : RVVCTL_MASK_BYTES, cpus, sizeof(cpus));
	if (h->flags & RVVSTAT_HINT_POLICY)
		rvv_format_policy(&p, policy, sizeof(policy));
	if (format != OUTPUT_JSON) {
		printf("target %" PRId32 " %s\ncpus %s\npolicy %s\non_vector_use %s\n"
		       "applied %" PRIu32 "\nlast_error %" PRId32 "\n", h->target,
		       h->flags & RVVSTAT_HINT_PROCESS ? "process" : "thread",
		       cpus[0] ? cpus : "-", policy[0] ? policy : "-",
		       h->flags & RVVSTAT_HINT_ON_VECTOR_USE ? "yes" : "no",
		       h->applied, h->last_error);
		return output_flush(stdout);
	}
	obj = json_object_new_object();
	json_object_object_add(obj, "target", json_object_new_int(h->target));
	json_object_object_add(obj, "process",
			       json_object_new_boolean(h->flags & RVVSTAT_HINT_PROCESS));
	json_object_object_add(obj, "cpus", cpus[0] ? json_object_new_string(cpus) : NULL);
	json_object_object_add(obj, "policy", policy[0] ? json_object_new_string(policy) : NULL);
	json_object_object_add(obj, "on_vector_use",
			       json_object_new_boolean(h->flags & RVVSTAT_HINT_ON_VECTOR_USE));
	json_object_object_add(obj, "applied", json_object_new_int64(h->applied));
	json_object_object_add(obj, "last_error", json_object_new_int(h->last_error));
	return json_print(obj, stdout);
}

int rvvctl_hint(const struct hint_request *r, enum output_format format,
		struct rvv_error *err)
{
	uint8_t mask[RVVCTL_MASK_BYTES] = { 0 };
	struct rvvstat_hint h;
	int fd, status;

	status = rvv_device_open(&fd, err);
	if (status)
		return status;
	rvv_hint_fill(&h, r->target, r->process, NULL, 0, NULL, false);
	switch (r->action) {
	case HINT_SET:
		rvv_hint_fill(&h, r->target, r->process, r->has_cpus ? r->cpus : NULL,
			      sizeof(r->cpus), r->has_policy ? &r->policy : NULL,
			      r->on_vector);
		status = rvv_hint_set(fd, &h, err);
		break;
	case HINT_GET:
		h.cpus = (uintptr_t)mask;
		h.cpus_size = sizeof(mask);
		status = rvv_hint_get(fd, &h, err);
		if (!status)
			status = hint_print(&h, mask, format);
		break;
	default:
		status = rvv_hint_clear(fd, &h, err);
	}
	close(fd);
	return status;
}
