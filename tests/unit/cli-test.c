// SPDX-License-Identifier: GPL-2.0
/*
 * tool/lib/cli.c, the tools' option tables (cmocka): a table of three
 * options read from command lines written out by hand, its --help laid
 * out as written here, and the refusals as a user sees them.
 */
#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tool/lib/cli.h"

#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))

struct opts {
	bool batch;
	const char *record;
	int level;
};

static int parse_level(void *ctx, const struct rvv_option *opt, const char *arg,
		       struct rvv_error *err)
{
	struct opts *o = ctx;

	(void)opt;
	if (strcmp(arg, "1") && strcmp(arg, "2"))
		return rvv_fail(err, -EINVAL, "-l: \"%s\" is not 1 or 2", arg);
	o->level = arg[0] - '0';
	return 0;
}

enum { LIVE = 1, LEVEL = 2 };

static const struct rvv_option rows[] = {
	{ .name = "batch", .letter = 'b', .help = "plain text",
	  .parse = rvv_option_flag, .offset = offsetof(struct opts, batch) },
	{ .name = "record", .arg = "FILE", .help = "into FILE too,\nline two",
	  .parse = rvv_option_text, .offset = offsetof(struct opts, record), .bits = LIVE },
	{ .name = "level", .letter = 'l', .arg = "N", .parse = parse_level, .bits = LIVE | LEVEL },
	{ .name = "a-very-long-name", .arg = "VALUE", .help = "pushed along",
	  .parse = rvv_option_flag, .offset = offsetof(struct opts, batch) },
	RVV_OPTION_HELP,
	RVV_OPTION_VERSION("its release"),
};

static const struct rvv_cli cli = {
	.program = "prog", .options = rows, .nr_options = NR(rows), .help_column = 20,
};

/* Parses the words of @line (split at spaces) into @o. */
static int parse_line(const char *line, struct opts *o, rvv_cli_given *given,
		      struct rvv_error *err)
{
	static char buf[256];
	char *argv[16], *save;
	int argc = 0;

	snprintf(buf, sizeof(buf), "prog %s", line);
	for (char *w = strtok_r(buf, " ", &save); w && argc < 15; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	*o = (struct opts){ 0 };
	*given = 0;
	memset(err, 0, sizeof(*err));
	return rvv_cli_parse(&cli, argc, argv, o, given, err);
}

static void reads_short_long_and_clustered_forms(void **state)
{
	struct rvv_error err;
	rvv_cli_given given;
	struct opts o;

	(void)state;
	assert_int_equal(parse_line("-bl2 --record out.json word", &o, &given, &err), 0);
	assert_true(o.batch);
	assert_int_equal(o.level, 2);
	assert_string_equal(o.record, "out.json");
	assert_true(given == 0x7);	/* rows 0, 1 and 2 */
	assert_int_equal(rvv_cli_bits(&cli, given), LIVE | LEVEL);
	assert_ptr_equal(rvv_cli_find(&cli, given, LEVEL), &rows[2]);
	assert_ptr_equal(rvv_cli_find(&cli, given & 0x1, LIVE), NULL);

	assert_int_equal(parse_line("--level=1", &o, &given, &err), 0);
	assert_int_equal(o.level, 1);
	assert_false(o.batch);
}

static void refuses_as_the_user_wrote_it(void **state)
{
	static const struct {
		const char *line, *says;
	} cases[] = {
		{ "--bogus", "unknown option --bogus" },
		{ "--record", "--record needs a value" },
		{ "-l", "-l needs a value" },
		{ "-l 3", "-l: \"3\" is not 1 or 2" },
		{ "--level 3 -b", "-l: \"3\" is not 1 or 2" },
	};
	struct rvv_error err;
	rvv_cli_given given;
	struct opts o;

	(void)state;
	for (int i = 0; i < NR(cases); i++) {
		assert_int_equal(parse_line(cases[i].line, &o, &given, &err), -EINVAL);
		assert_string_equal(err.message, cases[i].says);
	}
	/* The reading stopped at the bad one: -b after it is not read. */
	assert_false(o.batch);
}

static void help_and_version_stop_the_reading(void **state)
{
	struct rvv_error err;
	rvv_cli_given given;
	struct opts o;

	(void)state;
	assert_int_equal(parse_line("-h --bogus", &o, &given, &err), RVV_CLI_HELP);
	assert_int_equal(parse_line("--version -b", &o, &given, &err), RVV_CLI_VERSION);
	assert_false(o.batch);
}

static void help_lines_up_at_the_column(void **state)
{
	static const char want[] =
		"  -b, --batch       plain text\n"
		"  --record FILE     into FILE too,\n"
		"                    line two\n"
		"  --a-very-long-name VALUE  pushed along\n"
		"  -h, --help        this text\n"
		"  --version         its release\n";
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	(void)state;
	assert_non_null(f);
	rvv_cli_help(&cli, f);
	fclose(f);
	assert_string_equal(text, want);
	free(text);
}

static void option_shown_prefers_the_short_form(void **state)
{
	char buf[32];

	(void)state;
	rvv_option_shown(&rows[2], buf, sizeof(buf));
	assert_string_equal(buf, "-l");
	rvv_option_shown(&rows[1], buf, sizeof(buf));
	assert_string_equal(buf, "--record");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_short_long_and_clustered_forms),
		cmocka_unit_test(refuses_as_the_user_wrote_it),
		cmocka_unit_test(help_and_version_stop_the_reading),
		cmocka_unit_test(help_lines_up_at_the_column),
		cmocka_unit_test(option_shown_prefers_the_short_form),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
