// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "parse.h"

int rvv_parse_uint(const char *text, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	const char *p;

	if (!*text || (text[0] == '0' && text[1]))
		return -EINVAL;
	for (p = text; *p; p++)
		if (*p < '0' || *p > '9')
			return -EINVAL;
	for (p = text; *p; p++) {
		uint64_t digit = (uint64_t)(*p - '0');

		if (digit > max || v > (max - digit) / 10)
			return -ERANGE;
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

int rvv_parse_name(const char *name, const char *const *names, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -EINVAL;
}
