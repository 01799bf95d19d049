// SPDX-License-Identifier: GPL-2.0
/*
 * The command-line parsers of tool/lib (cmocka): values worked out by
 * hand at the edges of each range, and malformed input that must be
 * refused without touching the output.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../tool/lib/parse.h"

#define UNTOUCHED	0x5a5a5a5a5a5a5a5aULL

static void uint_accepts_plain_decimals(void **state)
{
	static const struct {
		const char *text;
		uint64_t max, want;
	} cases[] = {
		{ "0", 10, 0 },
		{ "7", 7, 7 },
		{ "42", 100, 42 },
		{ "4294967295", UINT32_MAX, UINT32_MAX },
		{ "18446744073709551615", UINT64_MAX, UINT64_MAX },
		{ "18446744073709551614", UINT64_MAX, UINT64_MAX - 1 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uint64_t out = UNTOUCHED;

		assert_int_equal(0, rvv_parse_uint(cases[i].text, cases[i].max, &out));
		assert_true(out == cases[i].want);
	}
}

static void uint_refuses_values_above_max(void **state)
{
	static const struct {
		const char *text;
		uint64_t max;
	} cases[] = {
		{ "6", 5 }, { "9", 5 }, { "10", 9 }, { "4294967296", UINT32_MAX },
		{ "18446744073709551616", UINT64_MAX },
		{ "99999999999999999999999", UINT64_MAX }, { "1", 0 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uint64_t out = UNTOUCHED;

		assert_int_equal(-ERANGE, rvv_parse_uint(cases[i].text, cases[i].max, &out));
		assert_true(out == UNTOUCHED);
	}
}

static void uint_refuses_malformed_text(void **state)
{
	static const char *const cases[] = {
		"", "-1", "+1", " 1", "1 ", "0x10", "12a", "007", "00", "1e3",
		"1.0", "\t5",
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uint64_t out = UNTOUCHED;

		assert_int_equal(-EINVAL, rvv_parse_uint(cases[i], UINT64_MAX, &out));
		assert_true(out == UNTOUCHED);
	}
}

static void name_finds_exact_matches_only(void **state)
{
	static const char *const names[] = { "switch_saved", "save_user", "calib_save" };

	(void)state;
	assert_int_equal(0, rvv_parse_name("switch_saved", names, 3));
	assert_int_equal(2, rvv_parse_name("calib_save", names, 3));
	assert_int_equal(-EINVAL, rvv_parse_name("calib", names, 3));
	assert_int_equal(-EINVAL, rvv_parse_name("save_user ", names, 3));
	assert_int_equal(-EINVAL, rvv_parse_name("", names, 3));
	assert_int_equal(-EINVAL, rvv_parse_name("switch_saved", names, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uint_accepts_plain_decimals),
		cmocka_unit_test(uint_refuses_values_above_max),
		cmocka_unit_test(uint_refuses_malformed_text),
		cmocka_unit_test(name_finds_exact_matches_only),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
