/* SPDX-License-Identifier: GPL-2.0 */
/* Why rvvstat's netlink family is missing, as far as userspace can tell. */
#ifndef RVVSTAT_DIAGNOSE_H
#define RVVSTAT_DIAGNOSE_H

#include "error.h"

/*
 * The one place that says why the module is not there: a CPU without the
 * vector state it counts (-ENODEV), or not loaded (-ENOENT) and how to
 * build and load it, in @err.
 */
int rvv_diagnose_not_loaded(struct rvv_error *err);
/*
 * No netlink family: the module loaded but older than this tool
 * (-EPROTONOSUPPORT), else as rvv_diagnose_not_loaded().
 */
int rvv_diagnose_missing(struct rvv_error *err);
/* No device node at @path: the module loaded without it, else as above. */
int rvv_diagnose_no_device(const char *path, struct rvv_error *err);

#endif /* RVVSTAT_DIAGNOSE_H */
