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
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <linux/sched.h>

#include "../../tool/lib/stats.h"
#include "../../tool/lib/format.h"
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

static void cpulist_sets_the_listed_bits(void **state)
{
	static const struct {
		const char *text;
		uint8_t want[4];
	} cases[] = {
		{ "0", { 0x01 } },
		{ "0-3,6", { 0x4f } },
		{ "7,8", { 0x80, 0x01 } },
		{ "31", { 0, 0, 0, 0x80 } },
		{ "2-2", { 0x04 } },
		{ "1,1,0-1", { 0x03 } },
		{ "8-15,24", { 0, 0xff, 0, 0x01 } },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uint8_t mask[4];

		memset(mask, 0xa5, sizeof(mask));
		assert_int_equal(0, rvv_parse_cpulist(cases[i].text, mask, sizeof(mask)));
		assert_memory_equal(cases[i].want, mask, sizeof(mask));
	}
}

static void cpulist_refuses_bad_lists(void **state)
{
	static const struct {
		const char *text;
		int error;
	} cases[] = {
		{ "", -EINVAL }, { ",", -EINVAL }, { "0,", -EINVAL },
		{ ",1", -EINVAL }, { "3-1", -EINVAL }, { "1-", -EINVAL },
		{ "-1", -EINVAL }, { "0-3-5", -EINVAL }, { "a", -EINVAL },
		{ "1 ,2", -EINVAL }, { "01", -EINVAL }, { "32", -ERANGE },
		{ "0-32", -ERANGE }, { "99999999999999999999999999999999999", -ERANGE },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uint8_t mask[4] = { 0x5a, 0x5a, 0x5a, 0x5a };
		static const uint8_t untouched[4] = { 0x5a, 0x5a, 0x5a, 0x5a };

		assert_int_equal(cases[i].error,
				 rvv_parse_cpulist(cases[i].text, mask, sizeof(mask)));
		assert_memory_equal(untouched, mask, sizeof(mask));
	}
}

static void durations_need_a_unit(void **state)
{
	uint64_t ns = UNTOUCHED;

	(void)state;
	assert_int_equal(0, rvv_parse_duration_ns("1500ns", &ns));
	assert_true(ns == 1500);
	assert_int_equal(0, rvv_parse_duration_ns("250us", &ns));
	assert_true(ns == 250000);
	assert_int_equal(0, rvv_parse_duration_ns("2ms", &ns));
	assert_true(ns == 2000000);
	assert_int_equal(0, rvv_parse_duration_ns("18446744073s", &ns));
	assert_true(ns == 18446744073000000000ULL);
	ns = UNTOUCHED;
	assert_int_equal(-ERANGE, rvv_parse_duration_ns("18446744074s", &ns));
	assert_int_equal(-EINVAL, rvv_parse_duration_ns("10", &ns));
	assert_int_equal(-EINVAL, rvv_parse_duration_ns("ms", &ns));
	assert_int_equal(-EINVAL, rvv_parse_duration_ns("1.5ms", &ns));
	assert_int_equal(-EINVAL, rvv_parse_duration_ns("2 ms", &ns));
	assert_int_equal(-EINVAL, rvv_parse_duration_ns("2min", &ns));
	assert_true(ns == UNTOUCHED);
}

static void policies_parse_with_their_parameters(void **state)
{
	struct rvv_policy p;

	(void)state;
	assert_int_equal(0, rvv_parse_policy("fifo:50", &p));
	assert_int_equal(SCHED_FIFO, p.policy);
	assert_int_equal(50, p.rt_priority);
	assert_int_equal(0, rvv_parse_policy("rr:99", &p));
	assert_int_equal(SCHED_RR, p.policy);
	assert_int_equal(99, p.rt_priority);
	assert_int_equal(0, rvv_parse_policy("other", &p));
	assert_int_equal(SCHED_NORMAL, p.policy);
	assert_int_equal(0, p.nice);
	assert_int_equal(0, rvv_parse_policy("normal:-20", &p));
	assert_int_equal(-20, p.nice);
	assert_int_equal(0, rvv_parse_policy("batch:19", &p));
	assert_int_equal(SCHED_BATCH, p.policy);
	assert_int_equal(19, p.nice);
	assert_int_equal(0, rvv_parse_policy("idle", &p));
	assert_int_equal(SCHED_IDLE, p.policy);
	assert_int_equal(0, rvv_parse_policy("deadline:2ms/10ms/10ms", &p));
	assert_int_equal(SCHED_DEADLINE, p.policy);
	assert_true(p.runtime_ns == 2000000 && p.deadline_ns == 10000000 &&
		    p.period_ns == 10000000);
	assert_int_equal(0, rvv_parse_policy("deadline:500us/1ms/2s", &p));
	assert_true(p.runtime_ns == 500000 && p.deadline_ns == 1000000 &&
		    p.period_ns == 2000000000);
}

static void policies_refuse_bad_specs(void **state)
{
	static const struct {
		const char *text;
		int error;
	} cases[] = {
		{ "", -EINVAL }, { "fifo", -EINVAL }, { "fifo:", -EINVAL },
		{ "fifo:0", -ERANGE }, { "fifo:100", -ERANGE }, { "rr:-1", -EINVAL },
		{ "FIFO:5", -EINVAL }, { "realtime:5", -EINVAL }, { "idle:3", -EINVAL },
		{ "normal:20", -ERANGE }, { "normal:-21", -ERANGE }, { "batch:x", -EINVAL },
		{ "normal:", -EINVAL }, { "deadline", -EINVAL },
		{ "deadline:2ms/10ms", -EINVAL }, { "deadline:2ms/10ms/10ms/1", -EINVAL },
		{ "deadline:2/10/10", -EINVAL }, { "deadline:20ms/10ms/10ms", -ERANGE },
		{ "deadline:2ms/20ms/10ms", -ERANGE }, { "deadline:0ms/1ms/1ms", -ERANGE },
		{ "fifo:50:1", -EINVAL },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct rvv_policy p = { .policy = 77 };

		assert_int_equal(cases[i].error, rvv_parse_policy(cases[i].text, &p));
		assert_int_equal(77, p.policy);
	}
}

static void cpulists_format_collapsed(void **state)
{
	static const struct {
		uint8_t mask[4];
		const char *want;
	} cases[] = {
		{ { 0 }, "" }, { { 0x01 }, "0" }, { { 0x4f }, "0-3,6" },
		{ { 0x80, 0x01 }, "7-8" }, { { 0xff, 0xff, 0xff, 0xff }, "0-31" },
		{ { 0x55 }, "0,2,4,6" }, { { 0, 0, 0, 0x80 }, "31" },
	};
	unsigned int i;
	char buf[64], small[4];
	uint8_t back[4];

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		assert_int_equal(0, rvv_format_cpulist(cases[i].mask, 4, buf, sizeof(buf)));
		assert_string_equal(cases[i].want, buf);
		if (!buf[0])
			continue;
		assert_int_equal(0, rvv_parse_cpulist(buf, back, sizeof(back)));
		assert_memory_equal(cases[i].mask, back, sizeof(back));
	}
	assert_int_equal(-ENOSPC, rvv_format_cpulist(cases[5].mask, 4, small, sizeof(small)));
}

static void policies_format_as_they_parse(void **state)
{
	static const char *const specs[] = {
		"normal:0", "normal:-20", "batch:19", "idle", "fifo:1", "rr:99",
		"deadline:2ms/10ms/1s", "deadline:1500ns/3us/7ms",
	};
	struct rvv_policy p;
	unsigned int i;
	char buf[64];

	(void)state;
	for (i = 0; i < sizeof(specs) / sizeof(*specs); i++) {
		assert_int_equal(0, rvv_parse_policy(specs[i], &p));
		assert_int_equal(0, rvv_format_policy(&p, buf, sizeof(buf)));
		assert_string_equal(specs[i], buf);
	}
	assert_int_equal(-ENOSPC, rvv_format_policy(&p, buf, 8));
}

static void deltas_count_and_rate(void **state)
{
	struct rvv_summary a = { .elapsed_ns = 1000000000, .bytes = 1024 };
	struct rvv_summary b = { .elapsed_ns = 3000000000ULL, .bytes = 5120 };
	struct rvv_error err = { 0 };
	struct rvv_delta d;

	(void)state;
	a.counters[RVVSTAT_SAVES_USER] = 10;
	b.counters[RVVSTAT_SAVES_USER] = 14;
	b.counters[RVVSTAT_FIRST_USE] = 3;
	assert_int_equal(0, rvv_delta(&a, &b, &d, &err));
	assert_true(d.seconds == 2.0);
	assert_true(d.counters[RVVSTAT_SAVES_USER] == 4);
	assert_true(d.counters[RVVSTAT_FIRST_USE] == 3);
	assert_true(d.counters[RVVSTAT_SWITCHES] == 0);
	assert_true(d.bytes == 4096);
	assert_true(rvv_delta_rate(&d, d.bytes) == 2048.0);
	assert_true(rvv_delta_rate(&d, 1) == 0.5);
}

/*
 * A task histogram (one bucket per power of two): 98 switches of 1-2 us
 * (bucket 11: 1024..2047 ns) and 2 of 4-8 us (bucket 13). The p99 is the
 * 99th of the 100, in bucket 13: its upper bound. The last bucket has no
 * upper bound, so a p99 there reads as its lower one, 2^23 ns.
 */
static void percentiles_read_bucket_bounds(void **state)
{
	uint64_t counts[RVVSTAT_TASK_HIST_BUCKETS] = { [11] = 98, [13] = 2 };
	const unsigned int nr = RVVSTAT_TASK_HIST_BUCKETS, bits = RVVSTAT_TASK_HIST_SUB_BITS;

	(void)state;
	assert_int_equal(8191, rvv_hist_percentile_ns(counts, nr, bits, 990));
	assert_int_equal(2047, rvv_hist_percentile_ns(counts, nr, bits, 500));
	assert_int_equal(2047, rvv_hist_percentile_ns(counts, nr, bits, 980));
	memset(counts, 0, sizeof(counts));
	assert_int_equal(0, rvv_hist_percentile_ns(counts, nr, bits, 990));
	counts[nr - 1] = 1;
	assert_int_equal(1 << 23, rvv_hist_percentile_ns(counts, nr, bits, 990));
}

static void deltas_refuse_resets_and_no_time(void **state)
{
	struct rvv_summary a = { .elapsed_ns = 5000 }, b = { .elapsed_ns = 4000 };
	struct rvv_error err = { 0 };
	struct rvv_delta d = { .seconds = 7 };

	(void)state;
	assert_int_equal(-ERANGE, rvv_delta(&a, &b, &d, &err));
	assert_non_null(strstr(err.message, "reset"));
	b.elapsed_ns = 5000;
	assert_int_equal(-EINVAL, rvv_delta(&a, &b, &d, &err));
	b.elapsed_ns = 6000;
	a.counters[RVVSTAT_SWITCHES] = 9;
	b.counters[RVVSTAT_SWITCHES] = 8;
	assert_int_equal(-ERANGE, rvv_delta(&a, &b, &d, &err));
	assert_non_null(strstr(err.message, "switches"));
	b.counters[RVVSTAT_SWITCHES] = 9;
	a.bytes = 1;
	assert_int_equal(-ERANGE, rvv_delta(&a, &b, &d, &err));
	assert_true(d.seconds == 7);	/* untouched by every refusal */
}

/*
 * Thread names as a local user may set them (prctl(PR_SET_NAME)): the text
 * form shows control bytes, DEL, C1 controls and bytes that are not UTF-8
 * as \xNN and a backslash as \\, keeps valid UTF-8; the JSON form keeps
 * valid UTF-8 (json-c escapes controls) and puts U+FFFD for each invalid byte.
 */
#define FFFD	"\xef\xbf\xbd"
static const struct {
	const char *comm, *text, *json;
} comm_cases[] = {
	{ "", "", "" },
	{ "vecload", "vecload", "vecload" },
	{ "\x1b[2J\x1b]0;pwned\x07", "\\x1b[2J\\x1b]0;pwned\\x07", "\x1b[2J\x1b]0;pwned\x07" },
	{ "row\nforged", "row\\x0aforged", "row\nforged" },
	{ "a\tb\rc", "a\\x09b\\x0dc", "a\tb\rc" },
	{ "del\x7f", "del\\x7f", "del\x7f" },
	{ "say \"hi\", 'x'", "say \"hi\", 'x'", "say \"hi\", 'x'" },
	{ "back\\slash", "back\\\\slash", "back\\slash" },
	{ "\x80lone", "\\x80lone", FFFD "lone" },
	{ "cut\xe2\x82", "cut\\xe2\\x82", "cut" FFFD FFFD },
	{ "\xe2\x82(", "\\xe2\\x82(", FFFD FFFD "(" },
	{ "over\xc0\xaf", "over\\xc0\\xaf", "over" FFFD FFFD },
	{ "\xe0\x80\xaf", "\\xe0\\x80\\xaf", FFFD FFFD FFFD },
	{ "sur\xed\xa0\x80", "sur\\xed\\xa0\\x80", "sur" FFFD FFFD FFFD },
	{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80", FFFD FFFD FFFD FFFD },
	{ "\xff\xfe", "\\xff\\xfe", FFFD FFFD },
	{ "csi\xc2\x9b" "2J", "csi\\xc2\\x9b" "2J", "csi\xc2\x9b" "2J" },
	{ "сервер", "сервер", "сервер" },
	{ "€𝄞é", "€𝄞é", "€𝄞é" },
	/* "ZZсерверы" cut at 15 bytes by the kernel, in the middle of "ы". */
	{ "ZZсервер\xd1", "ZZсервер\\xd1", "ZZсервер" FFFD },
};

static void comms_are_escaped_for_text_and_json(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(comm_cases) / sizeof(*comm_cases); i++) {
		char text[RVV_COMM_SAFE_SIZE], json[RVV_COMM_SAFE_SIZE];

		assert_int_equal(strlen(comm_cases[i].text),
				 rvv_format_untrusted(comm_cases[i].comm, RVV_UNTRUSTED_TEXT,
						      text, sizeof(text)));
		assert_string_equal(comm_cases[i].text, text);
		assert_int_equal(strlen(comm_cases[i].json),
				 rvv_format_untrusted(comm_cases[i].comm, RVV_UNTRUSTED_JSON,
						      json, sizeof(json)));
		assert_string_equal(comm_cases[i].json, json);
	}
}

/* The longest comm (15 bytes), each byte escaped, fits RVV_COMM_SAFE_SIZE. */
static void comms_fit_the_safe_size(void **state)
{
	char buf[RVV_COMM_SAFE_SIZE];

	(void)state;
	assert_int_equal(60, rvv_format_untrusted("\x01\x02\x03\x04\x05\x06\x07\x08"
						  "\x09\x0a\x0b\x0c\x0d\x0e\x0f",
						  RVV_UNTRUSTED_TEXT, buf, sizeof(buf)));
	assert_int_equal(45, rvv_format_untrusted("\xff\xff\xff\xff\xff\xff\xff\xff"
						  "\xff\xff\xff\xff\xff\xff\xff",
						  RVV_UNTRUSTED_JSON, buf, sizeof(buf)));
}

/* A short buffer ends at a whole escape or character, never inside one. */
static void comms_are_cut_between_characters(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(5, rvv_format_untrusted("\x1b" "ab", RVV_UNTRUSTED_TEXT, buf, 6));
	assert_string_equal("\\x1ba", buf);
	assert_int_equal(0, rvv_format_untrusted("\x1b" "ab", RVV_UNTRUSTED_TEXT, buf, 4));
	assert_string_equal("", buf);
	assert_int_equal(2, rvv_format_untrusted("сервер", RVV_UNTRUSTED_TEXT, buf, 4));
	assert_string_equal("с", buf);
	assert_int_equal(1, rvv_format_untrusted("a\xff", RVV_UNTRUSTED_JSON, buf, 4));
	assert_string_equal("a", buf);
	buf[0] = 'x';
	assert_int_equal(0, rvv_format_untrusted("abc", RVV_UNTRUSTED_TEXT, buf, 0));
	assert_int_equal('x', buf[0]);
}

/*
 * A thread's p99 is the upper bound of a bucket one power of two wide: shown
 * as that bucket, never as a figure to the nanosecond.
 */
static void task_p99_shows_its_bucket(void **state)
{
	char buf[24];

	(void)state;
	assert_string_equal("524k-1.05M", rvv_format_task_p99((1 << 20) - 1, buf, sizeof(buf)));
	assert_string_equal("65.5k-131k", rvv_format_task_p99((1 << 17) - 1, buf, sizeof(buf)));
	assert_string_equal("512-1.02k", rvv_format_task_p99(1023, buf, sizeof(buf)));
	assert_string_equal("2-3", rvv_format_task_p99(3, buf, sizeof(buf)));
	assert_string_equal("1", rvv_format_task_p99(1, buf, sizeof(buf)));
	assert_string_equal("-", rvv_format_task_p99(0, buf, sizeof(buf)));
	/* The last bucket has no upper bound: its lower one is the value. */
	assert_string_equal(">=8.39M", rvv_format_task_p99(1 << 23, buf, sizeof(buf)));
	/* The live view's 7 columns: the bound, in time units. */
	assert_string_equal("<1.05ms", rvv_format_task_p99_bound((1 << 20) - 1, buf, sizeof(buf)));
	assert_string_equal("<131us", rvv_format_task_p99_bound((1 << 17) - 1, buf, sizeof(buf)));
	assert_string_equal("<32.8us", rvv_format_task_p99_bound((1 << 15) - 1, buf, sizeof(buf)));
	assert_string_equal("<8.39ms", rvv_format_task_p99_bound((1 << 23) - 1, buf, sizeof(buf)));
	assert_string_equal(">8.39ms", rvv_format_task_p99_bound(1 << 23, buf, sizeof(buf)));
	assert_string_equal("<4ns", rvv_format_task_p99_bound(3, buf, sizeof(buf)));
	assert_string_equal("-", rvv_format_task_p99_bound(0, buf, sizeof(buf)));
	/* Too small a buffer: cut, still terminated. */
	assert_string_equal("524", rvv_format_task_p99((1 << 20) - 1, buf, 4));
}

/* Lines of at most the width, cut between words, the words all kept. */
static void messages_wrap_between_words(void **state)
{
	static const char message[] =
		"the rvvstat module is not loaded (load it with \"modprobe rvvstat\" or "
		"\"insmod rvvstat.ko\")";
	const char *p = message, *next;
	char lines[4][32];
	size_t len;
	int n = 0;

	(void)state;
	while (*p && n < 4) {
		len = rvv_format_wrap(p, 30, &next);
		assert_true(len <= 30);
		snprintf(lines[n++], sizeof(lines[0]), "%.*s", (int)len, p);
		p = next;
	}
	assert_int_equal(4, n);
	assert_string_equal("the rvvstat module is not", lines[0]);
	assert_string_equal("loaded (load it with \"modprobe", lines[1]);
	assert_string_equal("rvvstat\" or \"insmod", lines[2]);
	assert_string_equal("rvvstat.ko\")", lines[3]);
	/* A word longer than the line is cut inside it; a short text is whole. */
	assert_int_equal(4, rvv_format_wrap("abcdefgh ij", 4, &next));
	assert_string_equal("efgh ij", next);
	assert_int_equal(5, rvv_format_wrap("short", 80, &next));
	assert_string_equal("", next);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uint_accepts_plain_decimals),
		cmocka_unit_test(uint_refuses_values_above_max),
		cmocka_unit_test(uint_refuses_malformed_text),
		cmocka_unit_test(name_finds_exact_matches_only),
		cmocka_unit_test(cpulist_sets_the_listed_bits),
		cmocka_unit_test(cpulist_refuses_bad_lists),
		cmocka_unit_test(durations_need_a_unit),
		cmocka_unit_test(policies_parse_with_their_parameters),
		cmocka_unit_test(policies_refuse_bad_specs),
		cmocka_unit_test(cpulists_format_collapsed),
		cmocka_unit_test(policies_format_as_they_parse),
		cmocka_unit_test(deltas_count_and_rate),
		cmocka_unit_test(deltas_refuse_resets_and_no_time),
		cmocka_unit_test(percentiles_read_bucket_bounds),
		cmocka_unit_test(comms_are_escaped_for_text_and_json),
		cmocka_unit_test(comms_fit_the_safe_size),
		cmocka_unit_test(comms_are_cut_between_characters),
		cmocka_unit_test(messages_wrap_between_words),
		cmocka_unit_test(task_p99_shows_its_bucket),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
