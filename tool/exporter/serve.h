/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rvvstat-exporter's HTTP side (libmicrohttpd): /metrics is one scrape of
 * the module, read when asked; / a page pointing at it; anything else 404.
 */
#ifndef RVVSTAT_EXPORTER_SERVE_H
#define RVVSTAT_EXPORTER_SERVE_H

#include <stdatomic.h>
#include <stdbool.h>

#include "../lib/error.h"

struct MHD_Daemon;

/* Scrapes handled at once; more wait their turn on the listening socket. */
#define EXPORTER_THREADS	4

struct exporter {
	int listen_fd;			/* bound and listening */
	unsigned int top_tasks;		/* per-thread series, see lib/exposition.h */
	atomic_bool module_down;	/* as of the last scrape: log changes only */
	struct MHD_Daemon *daemon;
};

/* Serves on @e->listen_fd from threads of its own; 0 or -errno with @err. */
int exporter_start(struct exporter *e, struct rvv_error *err);
/* Waits for the scrapes under way and closes the socket. */
void exporter_stop(struct exporter *e);

#endif /* RVVSTAT_EXPORTER_SERVE_H */
