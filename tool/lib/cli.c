// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* getopt_long()'s value for row i of a table without a short form. */
#define LONG_ONLY	0x100

int rvv_option_flag(void *ctx, const struct rvv_option *opt, const char *arg,
		    struct rvv_error *err)
{
	(void)arg;
	(void)err;
	*(bool *)((char *)ctx + opt->offset) = true;
	return 0;
}

int rvv_option_text(void *ctx, const struct rvv_option *opt, const char *arg,
		    struct rvv_error *err)
{
	(void)err;
	*(const char **)((char *)ctx + opt->offset) = arg;
	return 0;
}

int rvv_option_help(void *ctx, const struct rvv_option *opt, const char *arg,
		    struct rvv_error *err)
{
	(void)ctx, (void)opt, (void)arg, (void)err;
	return RVV_CLI_HELP;
}

int rvv_option_version(void *ctx, const struct rvv_option *opt, const char *arg,
		       struct rvv_error *err)
{
	(void)ctx, (void)opt, (void)arg, (void)err;
	return RVV_CLI_VERSION;
}

void rvv_option_shown(const struct rvv_option *opt, char *buf, size_t size)
{
	if (opt->letter)
		snprintf(buf, size, "-%c", opt->letter);
	else
		snprintf(buf, size, "--%s", opt->name);
}

unsigned long rvv_cli_bits(const struct rvv_cli *cli, rvv_cli_given given)
{
	unsigned long bits = 0;

	for (int i = 0; i < cli->nr_options; i++)
		if (given & (1ull << i))
			bits |= cli->options[i].bits;
	return bits;
}

const struct rvv_option *rvv_cli_find(const struct rvv_cli *cli, rvv_cli_given given,
				      unsigned long bits)
{
	for (int i = 0; i < cli->nr_options; i++)
		if ((given & (1ull << i)) && (cli->options[i].bits & bits))
			return &cli->options[i];
	return NULL;
}

/* The row getopt_long() answered @value for, or NULL. */
static const struct rvv_option *row_of(const struct rvv_cli *cli, int value)
{
	for (int i = 0; i < cli->nr_options; i++) {
		const struct rvv_option *opt = &cli->options[i];

		if (value == (opt->letter ? opt->letter : LONG_ONLY + i))
			return opt;
	}
	return NULL;
}

/* getopt_long()'s refusal, naming the option as it was written. */
static int refuse_option(int value, char **argv, struct rvv_error *err)
{
	if (value == ':')
		return rvv_fail(err, -EINVAL, "%s needs a value", argv[optind - 1]);
	return rvv_fail(err, -EINVAL, "unknown option %s", argv[optind - 1]);
}

int rvv_cli_parse(const struct rvv_cli *cli, int argc, char **argv, void *ctx,
		  rvv_cli_given *given, struct rvv_error *err)
{
	struct option *longs = calloc((size_t)cli->nr_options + 1, sizeof(*longs));
	char *shorts = calloc(2 * (size_t)cli->nr_options + 2, 1);
	size_t len = 0;
	int value, status = 0;

	if (cli->nr_options > RVV_CLI_MAX_OPTIONS) {
		status = rvv_fail(err, -E2BIG, "%s: more than %d options in its table", cli->program,
				  RVV_CLI_MAX_OPTIONS);
		goto out;
	}
	if (!longs || !shorts) {
		status = rvv_fail(err, -ENOMEM, "%s", "out of memory reading the options");
		goto out;
	}
	shorts[len++] = ':';
	for (int i = 0; i < cli->nr_options; i++) {
		const struct rvv_option *opt = &cli->options[i];

		longs[i] = (struct option){ opt->name, opt->arg ? required_argument : no_argument,
					    NULL, opt->letter ? opt->letter : LONG_ONLY + i };
		if (opt->letter) {
			shorts[len++] = opt->letter;
			if (opt->arg)
				shorts[len++] = ':';
		}
	}
	/* 0, not 1: glibc forgets a previous reading stopped midway. */
	optind = 0;
	opterr = 0;
	while (!status && (value = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct rvv_option *opt = row_of(cli, value);

		if (!opt) {
			status = refuse_option(value, argv, err);
			break;
		}
		status = opt->parse(ctx, opt, optarg, err);
		if (status >= 0)
			*given |= 1ull << (opt - cli->options);
	}
out:
	free(longs);
	free(shorts);
	return status;
}

void rvv_cli_help(const struct rvv_cli *cli, FILE *f)
{
	for (int i = 0; i < cli->nr_options; i++) {
		const struct rvv_option *opt = &cli->options[i];
		const char *line = opt->help;
		int width, indent;

		if (!line)
			continue;
		width = fprintf(f, "  ");
		if (opt->letter)
			width += fprintf(f, "-%c, ", opt->letter);
		width += fprintf(f, "--%s", opt->name);
		if (opt->arg)
			width += fprintf(f, " %s", opt->arg);
		/* A long name and value take the room and push the help along. */
		indent = 2;
		if (width < cli->help_column)
			indent = cli->help_column - width;
		for (; *line; indent = cli->help_column) {
			size_t n = strcspn(line, "\n");

			fprintf(f, "%*s%.*s\n", indent, "", (int)n, line);
			line += n + (line[n] == '\n');
		}
	}
}

int rvv_bad_usage(const char *program, const char *fmt, const char *what)
{
	fprintf(stderr, "%s: ", program);
	fprintf(stderr, fmt, what);
	fprintf(stderr, "\nTry '%s --help'.\n", program);
	return 2;
}

int rvv_cli_finish(const struct rvv_cli *cli, int status, const struct rvv_error *err)
{
	switch (status) {
	case 0:
		return -1;
	case RVV_CLI_HELP:
		cli->usage(cli, stdout);
		return fflush(stdout) ? 1 : 0;
	case RVV_CLI_VERSION:
		return cli->version(stdout, cli->program) ? 1 : 0;
	default:
		return rvv_bad_usage(cli->program, "%s", err->message);
	}
}
