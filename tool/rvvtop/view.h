/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What rvvtop shows for one interval: the module's rates between two
 * samples, and each panel's part (per CPU, per task, llama-server).
 */
#ifndef RVVTOP_VIEW_H
#define RVVTOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

struct rates {
	uint64_t saved;			/* saves in the interval */
	uint64_t involuntary;		/* of them, at involuntary switches */
	double saves, restores, bytes;	/* per second */
	double involuntary_pct;		/* of the saves */
};

/* The most panels a view has room for (panel.c lists them). */
#define VIEW_MAX_PANELS	8

struct view {
	double seconds;
	bool has_module;
	const char *module_why;
	bool module_reset;		/* counters went back: no rates this time */
	struct rates total;
	/*
	 * Each panel's part, by its place in panels[]: what its build or
	 * read made, its own to free (NULL: nothing this interval).
	 */
	void *parts[VIEW_MAX_PANELS];
};

/* Rates from two counter arrays and bytes; false if anything went back. */
bool view_rates(const uint64_t *a, const uint64_t *b, uint64_t bytes_a,
		uint64_t bytes_b, double seconds, struct rates *r);

/*
 * From @prev (may be NULL: no rates yet) to @cur over @seconds; llama-server's
 * rates from @llama_before (may be NULL) to @cur's reading.
 */
int view_build(const struct sample *prev, const struct sample *cur,
	       double seconds, const struct llama_reading *llama_before, struct view *v);
/* Frees the panels' parts. */
void view_free(struct view *v);

#endif /* RVVTOP_VIEW_H */
