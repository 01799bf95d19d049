/* SPDX-License-Identifier: GPL-2.0 */
/* What the programs say about a command line they cannot take. */
#ifndef RVVSTAT_USAGE_H
#define RVVSTAT_USAGE_H

/*
 * Prints "@program: " and @fmt with @what, then where help is; returns 2,
 * the exit status of a bad command line.
 */
int rvv_bad_usage(const char *program, const char *fmt, const char *what);
/* The same for getopt_long()'s ':' (no value) and '?' (unknown option). */
int rvv_bad_option(const char *program, int opt, char *const argv[]);

#endif /* RVVSTAT_USAGE_H */
