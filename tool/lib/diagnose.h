/* SPDX-License-Identifier: GPL-2.0 */
/* Why rvvstat's netlink family is missing, as far as userspace can tell. */
#ifndef RVVSTAT_DIAGNOSE_H
#define RVVSTAT_DIAGNOSE_H

#include "error.h"

/*
 * The module loaded but older than this tool (-EPROTONOSUPPORT), a CPU
 * without the vector state it counts (-ENODEV), or not loaded (-ENOENT),
 * said in @err with what to do.
 */
int rvv_diagnose_missing(struct rvv_error *err);

#endif /* RVVSTAT_DIAGNOSE_H */
