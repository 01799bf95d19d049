// SPDX-License-Identifier: GPL-2.0
/*
 * The llama-server parsers of tool/lib (cmocka), on bodies written the way
 * llama-server writes them (shared/notes/llama-server.md): HELP/TYPE lines,
 * doubles in default stream precision, slots before and after their first
 * request, next_token as an object or an array of one.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../tool/lib/error.h"
#include "../../tool/lib/llama.h"

static const char metrics_body[] =
	"# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.\n"
	"# TYPE llamacpp:prompt_tokens_total counter\n"
	"llamacpp:prompt_tokens_total 1.23457e+06\n"
	"# HELP llamacpp:prompt_seconds_total Prompt process time\n"
	"# TYPE llamacpp:prompt_seconds_total counter\n"
	"llamacpp:prompt_seconds_total 812.5\n"
	"# HELP llamacpp:tokens_predicted_total Number of generation tokens processed.\n"
	"# TYPE llamacpp:tokens_predicted_total counter\n"
	"llamacpp:tokens_predicted_total 345\n"
	"llamacpp:n_decode_total{model=\"llama-3.2-1b\"} 1020 1764460800000\n"
	"llamacpp:spec_decode_accepted_total 7\n"
	"# TYPE llamacpp:requests_processing gauge\n"
	"llamacpp:requests_processing 2\n"
	"llamacpp:requests_deferred\t0\r\n";

static void metrics_parse_known_series(void **state)
{
	struct rvv_llama_metrics m;

	(void)state;
	assert_int_equal(0, rvv_llama_parse_metrics(metrics_body, &m, NULL));
	assert_true(m.value[RVV_LLAMA_PROMPT_TOKENS] == 1234570.0);
	assert_true(m.value[RVV_LLAMA_PREDICTED_TOKENS] == 345.0);
	assert_true(m.value[RVV_LLAMA_DECODE_CALLS] == 1020.0);
	assert_true(m.value[RVV_LLAMA_REQUESTS_PROCESSING] == 2.0);
	assert_true(m.value[RVV_LLAMA_REQUESTS_DEFERRED] == 0.0);
	assert_int_equal((1U << RVV_LLAMA_NR_SERIES) - 1, m.present);
}

static void metrics_tolerate_missing_series(void **state)
{
	struct rvv_llama_metrics m;

	(void)state;
	assert_int_equal(0, rvv_llama_parse_metrics(
		"llamacpp:tokens_predicted_total 10\nsomething_else 3\n", &m, NULL));
	assert_int_equal(1U << RVV_LLAMA_PREDICTED_TOKENS, m.present);
	assert_true(m.value[RVV_LLAMA_PREDICTED_TOKENS] == 10.0);
}

static void metrics_refuse_malformed_samples(void **state)
{
	static const char *const bodies[] = {
		"", "# only comments\n", "other_series 5\n",
		"llamacpp:tokens_predicted_total abc\n",
		"llamacpp:tokens_predicted_total\n",
		"llamacpp:tokens_predicted_total{x=\"1\" 5\n",
		"llamacpp:tokens_predicted_total 5x\n",
		"llamacpp:tokens_predicted_total nan\n",
		"llamacpp:tokens_predicted_total{} \n",
		/* Not a count: out of a double's range, infinite, negative. */
		"llamacpp:tokens_predicted_total 1e400\n",
		"llamacpp:tokens_predicted_total +Inf\n",
		"llamacpp:tokens_predicted_total -3\n",
		"llamacpp:requests_processing -1\n",
		/* A label value left open. */
		"llamacpp:tokens_predicted_total{a=\"x} 5\n",
	};
	struct rvv_llama_metrics m = { .present = 99 };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bodies) / sizeof(*bodies); i++) {
		assert_int_equal(-EINVAL, rvv_llama_parse_metrics(bodies[i], &m, NULL));
		assert_int_equal(99, m.present);
	}
}

/* The exposition format lets a label value hold "}", "," and escapes. */
static void metrics_take_any_label_value(void **state)
{
	struct rvv_llama_metrics m;

	(void)state;
	assert_int_equal(0, rvv_llama_parse_metrics(
		"llamacpp:tokens_predicted_total{model=\"a}b\",path=\"C:\\\\m\\\"q\\\"}\\n\"} 42\n"
		"llamacpp:requests_processing{x=\"}\"} 1\n", &m, NULL));
	assert_true(m.value[RVV_LLAMA_PREDICTED_TOKENS] == 42.0);
	assert_true(m.value[RVV_LLAMA_REQUESTS_PROCESSING] == 1.0);
}

/* A refusal says which series and what was wrong with it. */
static void metrics_say_what_is_wrong(void **state)
{
	struct rvv_llama_metrics m;
	struct rvv_error err = { 0 };

	(void)state;
	assert_int_equal(-EINVAL, rvv_llama_parse_metrics(
		"llamacpp:prompt_tokens_total 3\nllamacpp:tokens_predicted_total 1e400\n", &m, &err));
	assert_non_null(strstr(err.message, "llamacpp:tokens_predicted_total"));
	assert_non_null(strstr(err.message, "1e400"));
	assert_int_equal(-EINVAL, rvv_llama_parse_metrics("other 1\n", &m, &err));
	assert_non_null(strstr(err.message, "no llamacpp: series"));
	/* The server's bytes are quoted: none reaches a terminal raw. */
	assert_int_equal(-EINVAL, rvv_llama_parse_metrics(
		"llamacpp:tokens_predicted_total \x1b]0;pwned\a\xff" "1\n", &m, &err));
	assert_string_equal("/metrics: llamacpp:tokens_predicted_total is \\x1b]0;pwned\\x07\\xff1, "
			    "not a finite count", err.message);
}

/* Slot 0 has served nothing yet; 1 is generating; 2 has finished. */
static const char slots_body[] =
	"[{\"id\":0,\"n_ctx\":2048,\"speculative\":false,\"is_processing\":false},"
	"{\"id\":1,\"id_task\":17,\"n_ctx\":2048,\"is_processing\":true,"
	"\"params\":{\"n_predict\":-1},\"next_token\":{\"has_next_token\":true,"
	"\"n_remain\":-1,\"n_decoded\":42}},"
	"{\"id\":2,\"id_task\":9,\"n_ctx\":2048,\"is_processing\":false,"
	"\"next_token\":[{\"has_next_token\":false,\"n_remain\":0,\"n_decoded\":128}]}]";

static void slots_parse_fresh_and_served(void **state)
{
	struct rvv_llama_slots s;

	(void)state;
	assert_int_equal(0, rvv_llama_parse_slots(slots_body, &s));
	assert_int_equal(3, s.nr);
	assert_false(s.slot[0].has_task);
	assert_true(s.slot[1].has_task && s.slot[1].id_task == 17 &&
		    s.slot[1].n_decoded == 42 && s.slot[1].processing);
	assert_true(s.slot[2].n_decoded == 128 && !s.slot[2].processing);
	assert_int_equal(1, rvv_llama_busy_slots(&s));
}

static void slots_refuse_what_is_not_slots(void **state)
{
	static const char *const bodies[] = {
		"", "{}", "[1]", "[{\"n_ctx\":1}]", "[{\"id\":\"0\"}]", "not json",
		"[{\"id\":1,\"id_task\":2,\"next_token\":{\"n_decoded\":-3}}]",
	};
	struct rvv_llama_slots s = { .nr = 77 };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bodies) / sizeof(*bodies); i++) {
		assert_int_equal(-EINVAL, rvv_llama_parse_slots(bodies[i], &s));
		assert_int_equal(77, s.nr);
	}
}

static struct rvv_llama_slot task(int64_t id, int64_t id_task, uint64_t decoded)
{
	return (struct rvv_llama_slot){
		.id = id, .has_task = true, .id_task = id_task,
		.n_decoded = decoded, .processing = true,
	};
}

static void decoded_counts_growth_and_new_tasks(void **state)
{
	struct rvv_llama_slots a = { .nr = 3 }, b = { .nr = 4 };

	(void)state;
	a.slot[0] = task(0, 17, 42);	/* keeps its task: 42 -> 50 */
	a.slot[1] = task(1, 9, 128);	/* takes task 10, now at 5 */
	a.slot[2] = (struct rvv_llama_slot){ .id = 2 };	/* idle, then task 3 at 7 */
	b.slot[0] = task(0, 17, 50);
	b.slot[1] = task(1, 10, 5);
	b.slot[2] = task(2, 3, 7);
	b.slot[3] = task(3, 4, 11);	/* not there before */
	assert_true(rvv_llama_decoded_between(&a, &b) == 8 + 5 + 7 + 11);
	/* Same task, count went back (a restarted server reusing ids). */
	a.slot[0] = task(0, 17, 60);
	assert_true(rvv_llama_decoded_between(&a, &b) == 50 + 5 + 7 + 11);
	/* Nothing moved. */
	assert_true(rvv_llama_decoded_between(&b, &b) == 0);
}

static void health_reads_status_and_body(void **state)
{
	(void)state;
	assert_int_equal(RVV_LLAMA_UP, rvv_llama_health_of(200, "{\"status\":\"ok\"}"));
	assert_int_equal(RVV_LLAMA_LOADING, rvv_llama_health_of(503,
			 "{\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}"));
	assert_int_equal(RVV_LLAMA_DOWN, rvv_llama_health_of(503, "busy"));
	assert_int_equal(RVV_LLAMA_DOWN, rvv_llama_health_of(500, "{\"status\":\"ok\"}"));
	assert_int_equal(RVV_LLAMA_DOWN, rvv_llama_health_of(0, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(metrics_parse_known_series),
		cmocka_unit_test(metrics_tolerate_missing_series),
		cmocka_unit_test(metrics_refuse_malformed_samples),
		cmocka_unit_test(metrics_take_any_label_value),
		cmocka_unit_test(metrics_say_what_is_wrong),
		cmocka_unit_test(slots_parse_fresh_and_served),
		cmocka_unit_test(slots_refuse_what_is_not_slots),
		cmocka_unit_test(decoded_counts_growth_and_new_tasks),
		cmocka_unit_test(health_reads_status_and_body),
	};

	return cmocka_run_group_tests_name("llama", tests, NULL, NULL);
}
