// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdio.h>

#include "usage.h"

int rvv_bad_usage(const char *program, const char *fmt, const char *what)
{
	fprintf(stderr, "%s: ", program);
	fprintf(stderr, fmt, what);
	fprintf(stderr, "\nTry '%s --help'.\n", program);
	return 2;
}

int rvv_bad_option(const char *program, int opt, char *const argv[])
{
	return rvv_bad_usage(program, opt == ':' ? "%s needs a value" : "unknown option %s",
			     argv[optind - 1]);
}
