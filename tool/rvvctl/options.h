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

#include "../lib/exposition.h"
#include "commands.h"
#include "hint.h"
#include "output.h"

/* The options that belong to some commands only: bits of options.given. */
enum {
	OPT_TGID = 1 << 0, OPT_CPU = 1 << 1, OPT_SORT = 1 << 2,
	OPT_OPENMETRICS = 1 << 3, OPT_TID = 1 << 4, OPT_PID = 1 << 5,
	OPT_CPUS = 1 << 6, OPT_POLICY = 1 << 7, OPT_ON_VECTOR = 1 << 8,
	OPT_INTERVAL = 1 << 9, OPT_COUNT = 1 << 10, OPT_PROMETHEUS = 1 << 11,
	OPT_OUTPUT = 1 << 12, OPT_TOP_TASKS = 1 << 13,
};
struct options {
	const struct output_format *format;
	unsigned int given;		/* OPT_* */
	unsigned int formats_given;	/* 1 << the formats' index */
	uint64_t tgid;
	int64_t cpu;
	enum task_order order;
	struct hint_request hint;
	uint64_t interval, count;
	const char *files[2];		/* delta */
	uint32_t kind;			/* enum rvvstat_latency, for hist */
	struct rvv_exposition exposition;
	const char *output;		/* export --output */
	bool help, version;		/* given: nothing else is read */
};


/*
 * Reads the options anywhere in @argv (getopt_long's order: the words come
 * after them, from optind), up to --help or --version, which end the
 * reading; 0 or the exit status of a bad command line.
 */
int options_parse(int argc, char **argv, struct options *o);

/* How a refusal names the option of OPT_* @bit: its short form if it has one. */
void option_shown(unsigned int bit, char *buf, size_t size);

#endif /* RVVCTL_OPTIONS_H */
