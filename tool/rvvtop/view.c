// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panel.h"
#include "view.h"

/* Counter growth; false if it went back (a reset or a reload). */
static bool grew(uint64_t before, uint64_t after, uint64_t *delta)
{
	*delta = after - before;
	return after >= before;
}

bool view_rates(const uint64_t *a, const uint64_t *b, uint64_t bytes_a,
		uint64_t bytes_b, double seconds, struct rates *r)
{
	uint64_t user, kernel, saved, invol, restores, bytes;

	/* Each counter on its own: one going back means a reset in between. */
	if (!grew(a[RVVSTAT_SAVES_USER], b[RVVSTAT_SAVES_USER], &user) ||
	    !grew(a[RVVSTAT_SAVES_KERNEL], b[RVVSTAT_SAVES_KERNEL], &kernel) ||
	    !grew(a[RVVSTAT_SAVES_INVOLUNTARY], b[RVVSTAT_SAVES_INVOLUNTARY], &invol) ||
	    !grew(a[RVVSTAT_RESTORES_PERFORMED], b[RVVSTAT_RESTORES_PERFORMED], &restores) ||
	    !grew(bytes_a, bytes_b, &bytes))
		return false;
	saved = user + kernel;	/* rvv_saves() of the growth */
	r->saved = saved;
	r->involuntary = invol;
	r->saves = (double)saved / seconds;
	r->restores = (double)restores / seconds;
	r->bytes = (double)bytes / seconds;
	r->involuntary_pct = saved ? 100.0 * (double)invol / (double)saved : 0;
	return true;
}

int view_build(const struct sample *prev, const struct sample *cur,
	       double seconds, const struct llama_reading *llama_before, struct view *v)
{
	size_t i;

	memset(v, 0, sizeof(*v));
	v->seconds = seconds;
	v->has_module = cur->has_module;
	v->module_why = cur->module_why;
	if (cur->has_module && prev && prev->has_module) {
		const struct rvv_summary *a = &prev->summary, *b = &cur->summary;

		v->module_reset = b->elapsed_ns < a->elapsed_ns ||
				  !view_rates(a->counters, b->counters, a->bytes,
					      b->bytes, seconds, &v->total);
	}
	/* Rates only between two samples of the module, none across a reset. */
	if (!cur->has_module || !prev || !prev->has_module || v->module_reset)
		prev = NULL;
	for (i = 0; i < nr_panels; i++)
		if (panels[i]->build(prev, cur, llama_before, v, &v->parts[i]))
			return -ENOMEM;
	return 0;
}

void view_free(struct view *v)
{
	size_t i;

	for (i = 0; i < nr_panels; i++)
		if (v->parts[i])
			panels[i]->free(v->parts[i]);
	memset(v, 0, sizeof(*v));
}
