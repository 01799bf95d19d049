/* SPDX-License-Identifier: GPL-2.0 */
/* The inverse of parse.h: values written the way people type them. */
#ifndef RVVSTAT_FORMAT_H
#define RVVSTAT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "parse.h"

/*
 * The bits of @mask (@bytes bytes) as a CPU list, ranges collapsed
 * ("0-3,6"); "" for no bit. -ENOSPC if it does not fit in @size.
 */
int rvv_format_cpulist(const uint8_t *mask, size_t bytes, char *buf,
		       size_t size);
/* @p as rvv_parse_policy() reads it; -ENOSPC if it does not fit. */
int rvv_format_policy(const struct rvv_policy *p, char *buf, size_t size);
/* A task row's hint state (enum rvvstat_task_hint) as a word. */
const char *rvv_format_task_hint(uint32_t hint);
/* A backend (enum rvvstat_backend): its name for programs, and for people. */
const char *rvv_format_backend_name(uint32_t backend);
const char *rvv_format_backend_title(uint32_t backend);

#endif /* RVVSTAT_FORMAT_H */
