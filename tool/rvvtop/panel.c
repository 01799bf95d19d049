// SPDX-License-Identifier: GPL-2.0
#include "panel.h"

/* In the order of -b and the records; on the screen, the one that fills goes last. */
const struct panel *const panels[] = {
	&cpus_panel,
	&tasks_panel,
	&llama_panel,
};

const size_t nr_panels = sizeof(panels) / sizeof(*panels);

_Static_assert(sizeof(panels) / sizeof(*panels) <= VIEW_MAX_PANELS,
	       "a view has a part for each panel");

const void *view_part(const struct view *v, const struct panel *p)
{
	size_t i;

	for (i = 0; i < nr_panels; i++)
		if (panels[i] == p)
			return v->parts[i];
	return NULL;
}
