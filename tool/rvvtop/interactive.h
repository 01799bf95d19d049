/* SPDX-License-Identifier: GPL-2.0 */
/* rvvtop's interactive view: keys, refreshes and what they change. */
#ifndef RVVTOP_INTERACTIVE_H
#define RVVTOP_INTERACTIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "record.h"
#include "sample.h"

struct interactive_options {
	uint64_t delay;			/* seconds */
	uint64_t iterations;		/* quit after this many; 0: at q */
	uint32_t pid;			/* 0: every thread */
	struct llama_source llama;	/* url NULL: no panel */
	bool colour;
	FILE *record;			/* each interval into it too; NULL: none */
	const struct recording *replay;	/* shows it instead of sampling; NULL: live */
};

/*
 * Until q (or the iterations); 0, -ENOTTY if the terminal cannot be used,
 * or -errno (with @err if it says more).
 */
int interactive_run(const struct interactive_options *o, struct rvv_error *err);

#endif /* RVVTOP_INTERACTIVE_H */
