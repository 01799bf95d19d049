/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An error as the library reports it: a negative errno for programs and a
 * sentence for people that says what failed and, where it can, what to do.
 */
#ifndef RVVSTAT_ERROR_H
#define RVVSTAT_ERROR_H

struct rvv_error {
	int code;		/* -errno; 0 if nothing failed */
	char message[320];
};

/* Fills @err (if not NULL) and returns @code, for "return rvv_fail(...)". */
int rvv_fail(struct rvv_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* RVVSTAT_ERROR_H */
