/* SPDX-License-Identifier: GPL-2.0 */
/* rvvctl's commands: 0 or -errno, with @err filled on failure. */
#ifndef RVVCTL_COMMANDS_H
#define RVVCTL_COMMANDS_H

#include "../lib/client.h"
#include "../lib/exposition.h"
#include "output.h"

enum task_order { ORDER_TABLE, ORDER_SAVES, ORDER_BYTES, ORDER_P99 };

int rvvctl_info(struct rvv_client *c, struct output *o, struct rvv_error *err);
/* The report for people, and the data that "snapshot" keeps. */
int rvvctl_summary(struct rvv_client *c, struct output *o, struct rvv_error *err);
int rvvctl_cpus(struct rvv_client *c, struct output *o, struct rvv_error *err);
/* Rows of process @tgid (0: all), in @order. */
int rvvctl_tasks(struct rvv_client *c, struct output *o, uint32_t tgid,
		 enum task_order order, struct rvv_error *err);
/* The buckets of @kind on @cpu (< 0: all CPUs merged). */
int rvvctl_hist(struct rvv_client *c, struct output *o, uint32_t kind, int cpu,
		struct rvv_error *err);
/* The switch_saved histogram of thread @tid (the per-task layout). */
int rvvctl_task_hist(struct rvv_client *c, struct output *o, uint32_t tid,
		     struct rvv_error *err);
/* A summary's data, what "snapshot" keeps and "delta" reads back. */
void rvvctl_summary_data(struct output *o, const struct rvv_summary *s);
/* What happened between two snapshot files. */
int rvvctl_delta(const char *earlier, const char *later, struct output *o,
		 struct rvv_error *err);
/* Rates per @interval seconds, @count times (0: until interrupted). */
int rvvctl_watch(struct rvv_client *c, double interval, uint64_t count,
		 struct output *o, struct rvv_error *err);
/*
 * One scrape of the module as @how says, to standard output or, if @path is
 * not NULL, replacing the file @path whole (rvvstat_up 0 if the module
 * cannot be read, and the command fails).
 */
int rvvctl_export(const struct rvv_exposition *how, const char *path,
		  struct rvv_error *err);
/* The kinds a histogram may be asked for, in uapi order. */
const char *const *rvvctl_latency_names(int *nr);

#endif /* RVVCTL_COMMANDS_H */
