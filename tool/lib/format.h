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
/*
 * The p99 of a task's or CPU's switches that saved vector state (the
 * switch_saved latency), as every output names it, and the live view's
 * abbreviation of it.
 */
#define RVV_SWITCH_SAVED_P99_NAME	"switch_saved_p99_ns"
#define RVV_SWITCH_SAVED_P99_ABBREV	"P99sw"
/*
 * A task's p99 for people. A task's histogram has one bucket per power of
 * two and its p99 is the upper bound of one (the lower bound of the last,
 * open one), so a figure to the nanosecond would claim a resolution it does
 * not have: the bucket in nanoseconds, "524k-1.05M" (">=8.39M" for the
 * last), or for a narrow column the bound in time units, "<1.05ms"
 * (">8.39ms"). "-" for 0, no switch that saved. Programs read the number.
 */
const char *rvv_format_task_p99(uint64_t ns, char *buf, size_t size);
const char *rvv_format_task_p99_bound(uint64_t ns, char *buf, size_t size);
/* A backend (enum rvvstat_backend): its name for programs, and for people. */
const char *rvv_format_backend_name(uint32_t backend);
const char *rvv_format_backend_title(uint32_t backend);

/*
 * Text another party controls, made safe for one kind of output: a task's
 * comm, which any local user may set (prctl(PR_SET_NAME)), or what
 * llama-server sent. The one place that decides it: every program prints
 * such text through this.
 *   RVV_UNTRUSTED_TEXT  terminals, text tables, CSV: control bytes
 *       (0x00-0x1f), DEL, C1 controls (U+0080-U+009F) and each byte that is
 *       not part of valid UTF-8 as "\xNN" (lowercase hex), a backslash as
 *       "\\"; valid UTF-8 kept as itself. No byte below 0x20.
 *   RVV_UNTRUSTED_JSON  a JSON string's content before json-c escapes it
 *       (json-c escapes control characters itself): valid UTF-8 kept, each
 *       invalid byte replaced by U+FFFD, so the document is UTF-8.
 * Writes a NUL-terminated result into @buf (@size bytes), cut before an
 * escape or character that would not fit, never inside one; returns its
 * length. RVV_COMM_SAFE_SIZE holds any comm of the kernel (15 bytes).
 */
enum rvv_untrusted_form { RVV_UNTRUSTED_TEXT, RVV_UNTRUSTED_JSON };
#define RVV_COMM_SAFE_SIZE	64
size_t rvv_format_untrusted(const char *text, enum rvv_untrusted_form form, char *buf,
			    size_t size);

/*
 * The first line of @text in @width columns (ASCII prose, a message): its
 * length, cut after the last word that fits, or inside a word longer than
 * the line. *@next is where the next line starts (its spaces skipped).
 */
size_t rvv_format_wrap(const char *text, size_t width, const char **next);

#endif /* RVVSTAT_FORMAT_H */
