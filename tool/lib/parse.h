/* SPDX-License-Identifier: GPL-2.0 */
/* Parsers of what people type on a command line. */
#ifndef RVVSTAT_PARSE_H
#define RVVSTAT_PARSE_H

#include <stdint.h>

/*
 * A decimal number from 0 to @max, the whole of @text (no sign, no spaces,
 * no leading zeros but "0"): 0, -EINVAL if it is not one, -ERANGE if above.
 */
int rvv_parse_uint(const char *text, uint64_t max, uint64_t *out);
/* The index of @name in @names[@nr], or -EINVAL. */
int rvv_parse_name(const char *name, const char *const *names, int nr);

#endif /* RVVSTAT_PARSE_H */
