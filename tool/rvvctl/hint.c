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

static void hint_print(struct output *o, const struct rvvstat_hint *h,
		       const uint8_t *mask)
{
	struct rvv_policy p = {
		.policy = h->policy, .nice = h->nice,
		.rt_priority = h->rt_priority, .runtime_ns = h->dl_runtime,
		.deadline_ns = h->dl_deadline, .period_ns = h->dl_period,
	};
	bool process = h->flags & RVVSTAT_HINT_PROCESS;
	char cpus[4096] = "", policy[96] = "";

	/* cpus_size says how much the module has; we read what fit. */
	if (h->flags & RVVSTAT_HINT_CPUS)
		rvv_format_cpulist(mask, h->cpus_size < RVVCTL_MASK_BYTES ?
				   h->cpus_size : RVVCTL_MASK_BYTES, cpus, sizeof(cpus));
	if (h->flags & RVVSTAT_HINT_POLICY)
		rvv_format_policy(&p, policy, sizeof(policy));
	out_open_object(o, NULL);
	out_i64(o, "target", "target %" PRId64, h->target);
	out_data(o, "process", OUT_BOOL(process));
	out_text(o, " %s\n", process ? "process" : "thread");
	out_string(o, "cpus", "cpus %s\n", cpus[0] ? cpus : NULL);
	out_string(o, "policy", "policy %s\n", policy[0] ? policy : NULL);
	out_bool(o, "on_vector_use", "on_vector_use %s\n",
		 (bool)(h->flags & RVVSTAT_HINT_ON_VECTOR_USE));
	out_u64(o, "applied", "applied %" PRIu64 "\n", h->applied);
	out_i64(o, "last_error", "last_error %" PRId64 "\n", h->last_error);
	out_close(o);
}

int rvvctl_hint(const struct hint_request *r, struct output *o,
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
			hint_print(o, &h, mask);
		break;
	default:
		status = rvv_hint_clear(fd, &h, err);
	}
	close(fd);
	return status;
}
