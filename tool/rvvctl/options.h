/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rvvctl's options: what each sets, and the bit by which the command table
 * says which commands take it.
 */
#ifndef RVVCTL_OPTIONS_H
#define RVVCTL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/cli.h"
#include "../lib/exposition.h"
#include "commands.h"
#include "hint.h"
#include "output.h"

/* The classes of option: bits of options.given. */
enum {
	OPT_TGID = 1 << 0, OPT_CPU = 1 << 1, OPT_SORT = 1 << 2,
	OPT_OPENMETRICS = 1 << 3, OPT_TID = 1 << 4, OPT_PID = 1 << 5,
	OPT_CPUS = 1 << 6, OPT_POLICY = 1 << 7, OPT_ON_VECTOR = 1 << 8,
	OPT_INTERVAL = 1 << 9, OPT_COUNT = 1 << 10, OPT_PROMETHEUS = 1 << 11,
	OPT_OUTPUT = 1 << 12, OPT_TOP_TASKS = 1 << 13,
	OPT_FORMAT = 1 << 14,		/* --json, --csv: every command that prints them */
};
struct options {
	const struct output_format *format;
	rvv_cli_given given_rows;	/* which rows of the table */
	unsigned long given;		/* OPT_* */
	uint64_t tgid;
	int64_t cpu;
	enum task_order order;
	struct hint_request hint;
	uint64_t interval, count;
	const char *files[2];		/* delta */
	uint32_t kind;			/* enum rvvstat_latency, for hist */
	struct rvv_exposition exposition;
	const char *output;		/* export --output */
};

/* The options' help for @format: which commands print it. */
typedef void format_note_fn(const struct output_format *format, char *buf, size_t size);

/* The table: the options, then --FORMAT for each format but the default, then help. */
#define OPTION_ROWS	16
struct option_table {
	struct rvv_option rows[OPTION_ROWS + OUTPUT_MAX_FORMATS];
	char format_help[OUTPUT_MAX_FORMATS][160];
	struct rvv_cli cli;
};

void options_table(struct option_table *t, format_note_fn *note);

/*
 * Reads the options anywhere in @argv (getopt_long()'s order: the words
 * come after them, from optind); rvv_cli_parse()'s result.
 */
int options_parse(const struct rvv_cli *cli, int argc, char **argv, struct options *o,
		  struct rvv_error *err);

#endif /* RVVCTL_OPTIONS_H */
