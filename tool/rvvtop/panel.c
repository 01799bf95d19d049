// SPDX-License-Identifier: GPL-2.0
#include "panel.h"

/* In the order of -b and the records; on the screen, the one that fills goes last. */
const struct panel *const panels[] = {
	&cpus_panel,
	&tasks_panel,
	&llama_panel,
};

const size_t nr_panels = sizeof(panels) / sizeof(*panels);
