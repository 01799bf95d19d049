/* SPDX-License-Identifier: GPL-2.0 */
/* Probes on kernel tracepoints, found by name: most are not exported. */
#ifndef _RVVSTAT_TRACEPOINTS_H
#define _RVVSTAT_TRACEPOINTS_H

#include <linux/types.h>

struct tracepoint;

struct rvv_tracepoint {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool registered;
};

/* Attaches each of @tps in order; stops at the first that fails, logged. */
int rvv_tracepoints_attach(struct rvv_tracepoint *tps, int nr);
/*
 * Detaches those attached. The caller waits for running probes with
 * tracepoint_synchronize_unregister() before their code or data goes.
 */
void rvv_tracepoints_detach(struct rvv_tracepoint *tps, int nr);

#endif /* _RVVSTAT_TRACEPOINTS_H */
