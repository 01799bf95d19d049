/* SPDX-License-Identifier: GPL-2.0 */
/* What --version prints: the tool's release and both ABIs. */
#ifndef RVVSTAT_VERSION_H
#define RVVSTAT_VERSION_H

#include <stdio.h>

/*
 * "@program VERSION (rvvstat ABI N)" and a line on the module: its ABI and
 * backend, or why it does not answer. Returns 0 or -EIO (output failed).
 */
int rvv_print_version(FILE *out, const char *program);

#endif /* RVVSTAT_VERSION_H */
