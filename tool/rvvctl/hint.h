/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RVVCTL_HINT_H
#define RVVCTL_HINT_H

#include <stdbool.h>
#include <stdint.h>

#include "../lib/error.h"
#include "../lib/parse.h"
#include "output.h"

/* CPU masks of up to 1024 CPUs. */
#define RVVCTL_MASK_BYTES	128

enum hint_action { HINT_SET, HINT_GET, HINT_CLEAR };

struct hint_request {
	enum hint_action action;
	int32_t target;			/* tid, or tgid with @process */
	bool process;
	bool has_cpus, has_policy, on_vector;
	uint8_t cpus[RVVCTL_MASK_BYTES];
	struct rvv_policy policy;
};

/* Runs @r against /dev/rvvstat; get prints the hint. */
int rvvctl_hint(const struct hint_request *r, struct output *o,
		struct rvv_error *err);

#endif /* RVVCTL_HINT_H */
