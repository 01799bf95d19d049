/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's numbers as a scrape, in the two text formats Prometheus
 * reads: OpenMetrics 1.0 and the Prometheus text format 0.0.4 (what
 * node_exporter's textfile collector parses). The one owner of the metric
 * families, their names and help: rvvctl export and rvvstat-exporter print
 * through it.
 */
#ifndef RVVSTAT_EXPOSITION_H
#define RVVSTAT_EXPOSITION_H

#include <stdio.h>

#include "cli.h"
#include "client.h"

enum rvv_exposition_format { RVV_OPENMETRICS, RVV_PROMETHEUS_TEXT };

/* The Content-Type of each format, as Prometheus's client libraries send it. */
#define RVV_OPENMETRICS_CONTENT_TYPE \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"
#define RVV_PROMETHEUS_TEXT_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

struct rvv_exposition {
	enum rvv_exposition_format format;
	/*
	 * Per-thread series for the threads that saved most, at most this
	 * many; 0 for none. Every thread is a label set of its own, so the
	 * series are bounded here rather than by the workload.
	 */
	unsigned int top_tasks;
};

#define RVV_EXPOSITION_MAX_TOP_TASKS	1000

/* --top-tasks N: into the unsigned int at @opt's offset (a top_tasks). */
rvv_option_parse_fn rvv_exposition_top_tasks_option;

/*
 * One scrape, whole, into *@body (*@len bytes, the caller's to free()): the
 * module's, read through a client of its own, or if the module cannot be
 * read, that of rvv_expose_down(). Returns 0 or the error that kept the
 * module's numbers out, @err filled; *@body is NULL only if there was no
 * memory for it.
 */
int rvv_scrape(const struct rvv_exposition *how, char **body, size_t *len,
	       struct rvv_error *err);
/* One scrape of the module through @c, as it goes; 0 or -errno with @err. */
int rvv_expose(FILE *out, struct rvv_client *c, const struct rvv_exposition *how,
	       struct rvv_error *err);
/*
 * The scrape when the module cannot be read: rvvstat_up 0, and @why as a
 * comment where the format has comments (Prometheus text).
 */
void rvv_expose_down(FILE *out, enum rvv_exposition_format format, const char *why);

#endif /* RVVSTAT_EXPOSITION_H */
