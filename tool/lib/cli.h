/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tools' command lines as tables: one row per option (its names, its
 * value, its help, what it sets), from which getopt_long()'s arrays, the
 * options in --help and the refusals of a bad command line are all made.
 * An option is one row; a tool adds its usage lines and notes around them.
 */
#ifndef RVVSTAT_CLI_H
#define RVVSTAT_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

struct rvv_option;

/*
 * Sets what @opt says in @ctx (the tool's options) from @arg (NULL for an
 * option without a value): 0, RVV_CLI_HELP or RVV_CLI_VERSION to stop
 * reading, or -EINVAL with @err saying what to give instead.
 */
typedef int rvv_option_parse_fn(void *ctx, const struct rvv_option *opt, const char *arg,
				struct rvv_error *err);

/* Defines parser @fn, a file's own: RVV_OPTION_PARSER(parse_delay) { ... }. */
#define RVV_OPTION_PARSER(fn) \
	static int fn(void *ctx, const struct rvv_option *opt, const char *arg, \
		      struct rvv_error *err)

struct rvv_option {
	const char *name;		/* --name */
	char letter;			/* -l too; 0: none */
	const char *arg;		/* its value as --help names it; NULL: it takes none */
	const char *help;		/* its lines in --help, '\n' between; NULL: unlisted */
	rvv_option_parse_fn *parse;
	size_t offset;			/* where the stock parsers store, in ctx */
	unsigned long bits;		/* the tool's own classes of option */
};

struct rvv_cli {
	const char *program;
	const struct rvv_option *options;
	int nr_options;			/* at most RVV_CLI_MAX_OPTIONS */
	int help_column;		/* where help text starts in --help */
	/* What rvv_cli_finish() does for --help and --version. */
	void (*usage)(const struct rvv_cli *cli, FILE *f);
	int (*version)(FILE *f, const char *program);
};

/* The rows a command line gave: bit i for options[i]. */
typedef uint64_t rvv_cli_given;
#define RVV_CLI_MAX_OPTIONS	64

/* What a parser returns to stop the reading there. */
enum { RVV_CLI_HELP = 1, RVV_CLI_VERSION };

/* The stock parsers: bool at @offset made true; const char * at @offset set to the value. */
rvv_option_parse_fn rvv_option_flag, rvv_option_text;
/* -h, --help and --version, the same in every tool. */
rvv_option_parse_fn rvv_option_help, rvv_option_version;
#define RVV_OPTION_HELP \
	{ .name = "help", .letter = 'h', .help = "this text", .parse = rvv_option_help }
#define RVV_OPTION_VERSION(help_text) \
	{ .name = "version", .help = (help_text), .parse = rvv_option_version }

/*
 * Reads the options of @argv into @ctx in getopt_long()'s order (the other
 * words are left at argv[optind...]) until one fails or asks to stop, and
 * says in *@given which were given. 0 once all are read, RVV_CLI_HELP or
 * RVV_CLI_VERSION, or -EINVAL with @err filled.
 */
int rvv_cli_parse(const struct rvv_cli *cli, int argc, char **argv, void *ctx,
		  rvv_cli_given *given, struct rvv_error *err);

/* The rows that have help: "  -d, --delay S", then the help at the column. */
void rvv_cli_help(const struct rvv_cli *cli, FILE *f);

/* The bits of the rows in @given, together. */
unsigned long rvv_cli_bits(const struct rvv_cli *cli, rvv_cli_given given);
/* The first row in @given with one of @bits, or NULL. */
const struct rvv_option *rvv_cli_find(const struct rvv_cli *cli, rvv_cli_given given,
				      unsigned long bits);

/* How a refusal names @opt: -d where it has a short form, else --name. */
void rvv_option_shown(const struct rvv_option *opt, char *buf, size_t size);

/*
 * Prints "@program: " and @fmt with @what, then where help is; returns 2,
 * the exit status of a bad command line.
 */
int rvv_bad_usage(const char *program, const char *fmt, const char *what);

/*
 * After rvv_cli_parse(): its refusal said, 2; --help or --version done by
 * @cli's usage or version, 0 (1 if the output failed); -1 if the options
 * were all read and the tool goes on.
 */
int rvv_cli_finish(const struct rvv_cli *cli, int status, const struct rvv_error *err);

#endif /* RVVSTAT_CLI_H */
