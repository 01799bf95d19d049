// SPDX-License-Identifier: GPL-2.0
/*
 * rvvbench's pure parts (cmocka): the SSE splitter fed the same stream at
 * every split point, the endpoints' event classifiers on events written as
 * llama-server writes them, linear and nearest-rank percentiles and a
 * cell's summary on hand-computed records, the seeded prompts and the --slo
 * parser; the statistics across trials (mean, sd, the paired t interval) on
 * numbers worked by hand (the paired interval also with missing trials),
 * the arms' grammar (two tiers too) and rotation, a two-tier arm read back
 * by tier, CSV quoting and the CPU lists; the hog's threads (no wake-ups at
 * duty 0, SCHED_OTHER under another policy), a window's run-queue wait
 * without schedstat, the server's launch options from its command line and
 * the refusal of a hint left on the server.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tool/rvvbench/arm.h"
#include "../../tool/rvvbench/arrivals.h"
#include "../../tool/rvvbench/bootstrap.h"
#include "../../tool/rvvbench/dataset.h"
#include "../../tool/rvvbench/endpoint.h"
#include "../../tool/rvvbench/hog.h"
#include "../../tool/rvvbench/launch.h"
#include "../../tool/rvvbench/options.h"
#include "../../tool/rvvbench/prompt.h"
#include "../../tool/rvvbench/sse.h"
#include "../../tool/rvvbench/stats.h"
#include "../../tool/rvvbench/trials.h"
#include "../../tool/rvvbench/window.h"
#include "../../tool/lib/http.h"
#include "../../tool/lib/rows.h"

/* window.c's mark readers are not run here: what they would call, refused. */
int rvv_client_get_summary(struct rvv_client *c, struct rvv_summary *s, struct rvv_error *err)
{
	(void)c, (void)s;
	return rvv_fail(err, -ENOSYS, "not in the unit tests");
}

int rvv_collect_tasks(struct rvv_client *c, uint32_t tgid, struct rvv_task_row **rows, size_t *nr,
		      struct rvv_error *err)
{
	(void)c, (void)tgid, (void)rows, (void)nr;
	return rvv_fail(err, -ENOSYS, "not in the unit tests");
}

int rvv_http_get(const char *base_url, const char *path, long timeout_ms, const char *api_key,
		 struct rvv_http_reply *reply, struct rvv_error *err)
{
	(void)base_url, (void)path, (void)timeout_ms, (void)api_key, (void)reply;
	return rvv_fail(err, -ENOSYS, "not in the unit tests");
}

void rvv_http_free(struct rvv_http_reply *reply)
{
	(void)reply;
}

int rvv_llama_parse_metrics(const char *text, struct rvv_llama_metrics *m, struct rvv_error *err)
{
	(void)text, (void)m;
	return rvv_fail(err, -ENOSYS, "not in the unit tests");
}

/* What the splitter delivered: "D:text|" or "E:text|" per event. */
struct seen {
	char text[1024];
};

static int collect(void *ctx, enum sse_field field, const char *data, size_t length,
		   struct rvv_error *err)
{
	struct seen *s = ctx;
	size_t len = strlen(s->text);

	(void)err;
	assert_int_equal(strlen(data), length);
	snprintf(s->text + len, sizeof(s->text) - len, "%c:%s|", field == SSE_ERROR ? 'E' : 'D',
		 data);
	return 0;
}

static const char stream[] =
	": keep-alive\n\n"
	"data: {\"content\":\"a\"}\n\n"
	"data: {\"content\":\"b\"}\r\n\r\n"	/* CRLF line ends */
	"event: message\nid: 7\ndata: one\ndata: two\n\n"	/* two data lines join with \n */
	": keep-alive\n"
	"error: {\"code\":500}\n\n"		/* llama-server's older error field */
	"data: [DONE]\n\n"
	"data: cut off";			/* never ended: not an event */
static const char expected[] =
	"D:{\"content\":\"a\"}|D:{\"content\":\"b\"}|D:one\ntwo|E:{\"code\":500}|D:[DONE]|";

/* Feeds @len bytes of @in in three pieces, cut at @cut and @cut2. */
static void feed_in_three(struct sse_parser *p, struct seen *s, const char *in, size_t len,
			  size_t cut, size_t cut2)
{
	sse_init(p);
	assert_int_equal(sse_feed(p, in, cut, collect, s, NULL), 0);
	assert_int_equal(sse_feed(p, in + cut, cut2 - cut, collect, s, NULL), 0);
	assert_int_equal(sse_feed(p, in + cut2, len - cut2, collect, s, NULL), 0);
}

static void sse_same_events_at_every_split(void **state)
{
	(void)state;
	for (size_t cut = 0; cut <= sizeof(stream) - 1; cut++) {
		for (size_t cut2 = cut; cut2 <= sizeof(stream) - 1; cut2 += 7) {
			struct sse_parser p;
			struct seen s = { "" };

			feed_in_three(&p, &s, stream, sizeof(stream) - 1, cut, cut2);
			assert_string_equal(s.text, expected);
			assert_int_equal(p.comments, 2);
			assert_int_equal(p.events, 5);
			sse_free(&p);
		}
	}
}

static void sse_byte_at_a_time(void **state)
{
	struct sse_parser p;
	struct seen s = { "" };

	(void)state;
	sse_init(&p);
	for (size_t i = 0; i < sizeof(stream) - 1; i++)
		assert_int_equal(sse_feed(&p, stream + i, 1, collect, &s, NULL), 0);
	assert_string_equal(s.text, expected);
	sse_free(&p);
}

/* A byte-order mark, bare CRs (one split from its LF-less neighbour), an empty data: event. */
static const char odd_stream[] =
	"\xef\xbb\xbf"
	"data: a\r\r"
	"data: b\r\n\r\n"
	"data:\n\n"
	"data: c\rdata: d\r\n\n"
	"data: \xef\xbb\xbf" "e\n\n";	/* a mark inside the stream is text */
static const char odd_expected[] = "D:a|D:b|D:c\nd|D:\xef\xbb\xbf" "e|";

static void sse_cr_bom_and_empty_data(void **state)
{
	(void)state;
	for (size_t cut = 0; cut <= sizeof(odd_stream) - 1; cut++) {
		for (size_t cut2 = cut; cut2 <= sizeof(odd_stream) - 1; cut2++) {
			struct sse_parser p;
			struct seen s = { "" };

			feed_in_three(&p, &s, odd_stream, sizeof(odd_stream) - 1, cut, cut2);
			assert_string_equal(s.text, odd_expected);
			sse_free(&p);
		}
	}
}

/* A stream that never ends a line is refused past the bound, not buffered for ever. */
static void sse_lines_are_bounded(void **state)
{
	static char chunk[1 << 16];
	struct sse_parser p;
	struct seen s = { "" };
	struct rvv_error err = { 0 };
	int rc = 0;

	(void)state;
	memset(chunk, 'x', sizeof(chunk));
	memcpy(chunk, "data: ", 6);
	sse_init(&p);
	for (size_t fed = 0; !rc && fed <= 2 * SSE_MAX_LINE; fed += sizeof(chunk))
		rc = sse_feed(&p, chunk, sizeof(chunk), collect, &s, &err);
	assert_int_equal(rc, -EMSGSIZE);
	assert_non_null(strstr(err.message, "an SSE line over"));
	assert_true(p.line_cap <= SSE_MAX_LINE);
	sse_free(&p);
}

static int stop_at_first(void *ctx, enum sse_field field, const char *data, size_t length,
			 struct rvv_error *err)
{
	(void)field, (void)data, (void)length;
	++*(int *)ctx;
	return rvv_fail(err, -EPROTO, "stop");
}

static void sse_callback_error_stops_the_feed(void **state)
{
	struct sse_parser p;
	struct rvv_error err = { 0 };
	int calls = 0;

	(void)state;
	sse_init(&p);
	assert_int_equal(sse_feed(&p, stream, sizeof(stream) - 1, stop_at_first, &calls, &err),
			 -EPROTO);
	assert_int_equal(calls, 1);
	assert_string_equal(err.message, "stop");
	sse_free(&p);
}

static void classify(const char *endpoint, const char *data, struct bench_event *ev)
{
	const struct bench_endpoint *e = bench_endpoint_find(endpoint);

	assert_non_null(e);
	assert_int_equal(e->classify(SSE_DATA, data, strlen(data), ev, NULL), 0);
}

static void completion_events(void **state)
{
	struct bench_event ev;

	(void)state;
	classify("completion", "{\"index\":0,\"content\":\" Hello\",\"tokens\":[15043],\"stop\":false,"
		 "\"id_slot\":0,\"tokens_predicted\":1,\"tokens_evaluated\":9}", &ev);
	assert_true(ev.token);
	assert_false(ev.end);
	assert_false(ev.error);
	assert_int_equal(ev.output_tokens, -1);	/* a running count is not the total */
	/* A token the server holds back (part of a stop word): content "", still a token. */
	classify("completion", "{\"content\":\"\",\"stop\":false,\"tokens_predicted\":4}", &ev);
	assert_true(ev.token);
	classify("completion", "{\"content\":\"\",\"stop\":false,\"tokens_predicted\":0}", &ev);
	assert_false(ev.token);
	classify("completion", "{\"index\":0,\"content\":\"\",\"tokens\":[],\"id_slot\":0,\"stop\":true,"
		 "\"model\":\"m\",\"tokens_predicted\":32,\"tokens_evaluated\":9,\"stop_type\":\"limit\","
		 "\"timings\":{\"prompt_n\":9,\"prompt_ms\":41.25,\"prompt_per_token_ms\":4.58,"
		 "\"predicted_n\":32,\"predicted_ms\":812.5}}", &ev);
	assert_false(ev.token);
	assert_true(ev.end);
	assert_int_equal(ev.output_tokens, 32);
	assert_int_equal(ev.prompt_tokens, 9);
	assert_true(ev.prompt_ms == 41.25);
	assert_true(ev.predicted_ms == 812.5);
}

static void chat_events(void **state)
{
	struct bench_event ev;

	(void)state;
	classify("chat", "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"role\":"
		 "\"assistant\",\"content\":null}}],\"object\":\"chat.completion.chunk\"}", &ev);
	assert_false(ev.token);	/* role only */
	classify("chat", "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
		 &ev);
	assert_false(ev.token);
	classify("chat", "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"content\":"
		 "\" Hi\"}}],\"object\":\"chat.completion.chunk\"}", &ev);
	assert_true(ev.token);
	assert_false(ev.end);
	classify("chat", "{\"choices\":[{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}]}", &ev);
	assert_false(ev.token);
	assert_false(ev.end);
	classify("chat", "{\"choices\":[],\"usage\":{\"completion_tokens\":16,\"prompt_tokens\":12,"
		 "\"total_tokens\":28},\"timings\":{\"prompt_n\":12,\"prompt_ms\":20.5,"
		 "\"predicted_n\":16,\"predicted_ms\":300}}", &ev);
	assert_false(ev.token);
	assert_false(ev.end);
	assert_int_equal(ev.output_tokens, 16);
	assert_true(ev.prompt_ms == 20.5);
	classify("chat", "[DONE]", &ev);
	assert_true(ev.end);
	assert_false(ev.token);
}

/* The first token of a reasoning model or a tool call is not in "content": TTFT counts it. */
static void chat_reasoning_and_tool_calls_are_tokens(void **state)
{
	struct bench_event ev;

	(void)state;
	classify("chat", "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Let\"}}]}",
		 &ev);
	assert_true(ev.token);
	classify("chat", "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
		 "\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\","
		 "\"arguments\":\"\"}}]}}]}", &ev);
	assert_true(ev.token);
	classify("chat", "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"\","
		 "\"tool_calls\":[]}}]}", &ev);
	assert_false(ev.token);
}

static void error_events(void **state)
{
	const struct bench_endpoint *e = bench_endpoint_find("completion");
	struct rvv_error err = { 0 };
	struct bench_event ev;
	const char *old = "{\"code\":500,\"message\":\"slot unavailable\",\"type\":\"server_error\"}";

	(void)state;
	classify("chat", "{\"error\":{\"code\":500,\"message\":\"context full\",\"type\":\"x\"}}", &ev);
	assert_true(ev.error);
	assert_string_equal(ev.message, "context full");
	assert_int_equal(e->classify(SSE_ERROR, old, strlen(old), &ev, NULL), 0);
	assert_true(ev.error);
	assert_string_equal(ev.message, "slot unavailable");
	assert_int_equal(e->classify(SSE_DATA, "{\"content\":", 11, &ev, &err), -EPROTO);
	assert_non_null(strstr(err.message, "not a JSON object"));
	assert_null(bench_endpoint_find("completions"));
}

static void request_bodies(void **state)
{
	struct bench_request_spec spec = { .prompt = "Request 1-0: x", .n_predict = 16, .ignore_eos = true };
	char *body;

	(void)state;
	body = bench_endpoint_find("completion")->body(&spec, NULL);
	assert_non_null(strstr(body, "\"prompt\":\"Request 1-0: x\""));
	assert_non_null(strstr(body, "\"stream\":true"));
	assert_non_null(strstr(body, "\"cache_prompt\":false"));
	assert_non_null(strstr(body, "\"n_predict\":16"));
	assert_non_null(strstr(body, "\"ignore_eos\":true"));
	free(body);
	body = bench_endpoint_find("chat")->body(&spec, NULL);
	assert_non_null(strstr(body, "\"messages\":[{\"role\":\"user\",\"content\":\"Request 1-0: x\"}]"));
	assert_non_null(strstr(body, "\"stream_options\":{\"include_usage\":true}"));
	free(body);
}

/* numpy's default ("linear", method 7), as vLLM's and AIPerf's reports use: rank p/100 * (n - 1). */
static void linear_percentiles_as_numpy(void **state)
{
	double v[] = { 7, 3, 10, 1, 9, 2, 8, 4, 6, 5 };	/* 1..10 shuffled */
	double one[] = { 42 }, w[200];
	struct bench_dist d;

	(void)state;
	bench_dist_of(v, 10, BENCH_PCT_LINEAR, &d);
	assert_int_equal(d.n, 10);
	/* np.percentile(range(1, 11), [50, 90, 95, 99]) = 5.5, 9.1, 9.55, 9.91 */
	assert_true(fabs(d.p50 - 5.5) < 1e-9 && fabs(d.p90 - 9.1) < 1e-9);
	assert_true(fabs(d.p95 - 9.55) < 1e-9 && fabs(d.p99 - 9.91) < 1e-9 && d.max == 10);
	/* mean 5.5, sample sd sqrt(82.5 / 9) */
	assert_true(d.mean == 5.5 && fabs(d.sd - sqrt(82.5 / 9)) < 1e-9);
	bench_dist_of(one, 1, BENCH_PCT_LINEAR, &d);
	assert_true(d.p50 == 42 && d.p99 == 42 && d.sd == 0);
	assert_true(isnan(bench_percentile(v, 0, 50, BENCH_PCT_LINEAR)));
	/* 1..200: np.percentile gives 198.01, 190.05, 100.5 */
	for (int i = 0; i < 200; i++)
		w[i] = 200 - i;
	bench_dist_of(w, 200, BENCH_PCT_LINEAR, &d);
	assert_true(fabs(d.p99 - 198.01) < 1e-9 && fabs(d.p95 - 190.05) < 1e-9);
	assert_true(fabs(d.p50 - 100.5) < 1e-9);
}

/* --percentiles nearest: the value at rank ceil(p/100 * n), a latency some request had. */
static void nearest_rank_percentiles(void **state)
{
	double v[] = { 7, 3, 10, 1, 9, 2, 8, 4, 6, 5 };
	double w[200];
	struct bench_dist d;

	(void)state;
	bench_dist_of(v, 10, BENCH_PCT_NEAREST, &d);
	/* ranks ceil(0.5*10)=5, ceil(0.9*10)=9, ceil(0.95*10)=10, ceil(0.99*10)=10 */
	assert_true(d.p50 == 5 && d.p90 == 9 && d.p95 == 10 && d.p99 == 10 && d.max == 10);
	assert_true(isnan(bench_percentile(v, 0, 50, BENCH_PCT_NEAREST)));
	/* 200 values 1..200: p99 is rank 198, p95 rank 190 */
	for (int i = 0; i < 200; i++)
		w[i] = 200 - i;
	bench_dist_of(w, 200, BENCH_PCT_NEAREST, &d);
	assert_true(d.p99 == 198 && d.p95 == 190 && d.p50 == 100);
}

#define MS 1000000LL

static struct bench_record rec(long index, bool warmup, enum bench_status st, int64_t sched,
			       int64_t first, int64_t last, long tokens)
{
	struct bench_record r = { .index = index, .warmup = warmup, .status = st,
				  .sched_ns = sched, .send_ns = sched, .first_ns = first,
				  .last_ns = last, .end_ns = last + MS, .output_tokens = tokens,
				  .prompt_tokens = -1, .prompt_ms = -1, .predicted_ms = -1 };
	return r;
}

static void summary_of_a_cell(void **state)
{
	double gaps_a[] = { 20, 30 }, gaps_b[] = { 10, 10, 10, 10 }, gaps_w[] = { 999 };
	struct bench_record r[5];
	struct bench_slo slo = { .ttft_ms = 150, .tpot_ms = 30 };
	struct bench_summary s;

	(void)state;
	/* warm-up: excluded everywhere, even with a huge gap */
	r[0] = rec(0, true, BENCH_OK, 0, 900 * MS, 1899 * MS, 2);
	r[0].gaps_ms = gaps_w, r[0].n_gaps = 1;
	/* ok: TTFT 100, E2E 150, 6 tokens by the server's count (3 events): TPOT 50/5 = 10 */
	r[1] = rec(1, false, BENCH_OK, 1000 * MS, 1100 * MS, 1150 * MS, 6);
	r[1].gaps_ms = gaps_a, r[1].n_gaps = 2, r[1].prompt_ms = 40;
	/* ok, misses the TTFT SLO: TTFT 200, E2E 240, 5 tokens: TPOT 10 */
	r[2] = rec(2, false, BENCH_OK, 1000 * MS, 1200 * MS, 1240 * MS, 5);
	r[2].gaps_ms = gaps_b, r[2].n_gaps = 4;
	/* errors: misses, in no latency */
	r[3] = rec(3, false, BENCH_HTTP_ERROR, 1100 * MS, 0, 0, -1);
	r[3].end_ns = 1101 * MS;
	r[4] = rec(4, false, BENCH_TRUNCATED, 1150 * MS, 1190 * MS, 1190 * MS, -1);
	r[4].end_ns = 1999 * MS;
	assert_int_equal(bench_summarize(r, 5, &slo, BENCH_PCT_NEAREST, &s, NULL), 0);
	assert_int_equal(s.warmup, 1);
	assert_int_equal(s.requests, 4);
	assert_int_equal(s.status[BENCH_OK], 2);
	assert_int_equal(s.status[BENCH_HTTP_ERROR], 1);
	assert_int_equal(s.status[BENCH_TRUNCATED], 1);
	assert_int_equal(s.output_tokens, 11);
	assert_int_equal(s.ttft.n, 2);
	assert_true(s.ttft.p50 == 100 && s.ttft.max == 200);
	assert_true(s.e2e.p50 == 150 && s.e2e.max == 240);
	assert_int_equal(s.tpot.n, 2);
	assert_true(fabs(s.tpot.max - 10) < 1e-9);
	assert_int_equal(s.itl.n, 6);	/* 2 + 4 gaps; the warm-up's 999 is not among them */
	assert_true(s.itl.max == 30 && s.itl.p50 == 10);
	assert_int_equal(s.queue_share.n, 1);
	assert_true(s.queue_share.p50 == 60);	/* TTFT 100 - prompt_ms 40 */
	/* window: first measured schedule 1000 ms to last end 1999 ms */
	assert_true(fabs(s.window_s - 0.999) < 1e-9);
	assert_true(fabs(s.req_per_s - 2 / 0.999) < 1e-9);
	/*
	 * In flight in the window, sent to ended: the warm-up 1000-1900, then
	 * 151, 241, 1 and 849 ms: 2142 ms over 999. At 1100 and at 1150 four
	 * are in flight (the warm-up, 1, 2 and the one just sent).
	 */
	assert_true(fabs(s.concurrency_mean - 2142.0 / 999) < 1e-9);
	assert_int_equal(s.concurrency_peak, 4);
	assert_true(fabs(s.tok_per_s - 11 / 0.999) < 1e-9);
	assert_int_equal(s.slo_met, 1);	/* only r[1]; errors count as misses */
	assert_true(s.attainment == 0.25);
	assert_true(fabs(s.goodput - 1 / 0.999) < 1e-9);
}

/*
 * Throughput while requests are still being sent: from the first measured
 * schedule to the last measured send, with each event carrying its
 * request's tokens spread evenly; the drain tail after the last send is out.
 */
static void sending_throughput_leaves_the_drain_tail_out(void **state)
{
	double gaps_a[] = { 100, 100, 100 }, gaps_b[] = { 100, 100 };
	struct bench_record r[3];
	struct bench_summary s;

	(void)state;
	r[0] = rec(0, true, BENCH_OK, 0, 50 * MS, 50 * MS, 1);
	/* A: sent at 0, events at 100, 200, 300, 400 ms, 4 tokens */
	r[1] = rec(1, false, BENCH_OK, 0, 100 * MS, 400 * MS, 4);
	r[1].token_events = 4, r[1].gaps_ms = gaps_a, r[1].n_gaps = 3;
	/* B: sent at 250 ms, events at 350, 450, 550 ms, 6 tokens (2 an event) */
	r[2] = rec(2, false, BENCH_OK, 250 * MS, 350 * MS, 550 * MS, 6);
	r[2].token_events = 3, r[2].gaps_ms = gaps_b, r[2].n_gaps = 2;
	assert_int_equal(bench_summarize(r, 3, NULL, BENCH_PCT_LINEAR, &s, NULL), 0);
	/* [0, 250 ms]: A's events at 100 and 200, 2 tokens: 8 tok/s; all 10 over 0.551 s */
	assert_true(fabs(s.sending_tok_per_s - 8) < 1e-9);
	assert_true(fabs(s.tok_per_s - 10 / 0.551) < 1e-9);
	/* One measured request: no time between first schedule and last send, no figure. */
	assert_int_equal(bench_summarize(r, 2, NULL, BENCH_PCT_LINEAR, &s, NULL), 0);
	assert_true(isnan(s.sending_tok_per_s));
}

static void tpot_needs_two_tokens(void **state)
{
	struct bench_record r = rec(0, false, BENCH_OK, 0, 10 * MS, 10 * MS, 1);

	(void)state;
	assert_true(bench_tpot_ms(&r) < 0);
	r.output_tokens = 3, r.last_ns = 30 * MS;
	assert_true(bench_tpot_ms(&r) == 10);
}

static void prompts_are_seeded_and_unique(void **state)
{
	char a[256], b[256], c[256];

	(void)state;
	bench_prompt(7, 3, 12, a, sizeof(a));
	bench_prompt(7, 3, 12, b, sizeof(b));
	bench_prompt(7, 4, 12, c, sizeof(c));
	assert_string_equal(a, b);
	assert_true(strncmp(a, "Request 7-3:", 12) == 0);
	assert_true(strncmp(c, "Request 7-4:", 12) == 0);
	assert_true(strcmp(a + 12, c + 12) != 0);
	assert_int_equal(bench_prompt(7, 3, 400, a, 40), 39);	/* truncated to fit */
	assert_int_equal(strlen(a), 39);
}

static void slo_and_durations_parse(void **state)
{
	struct bench_slo slo;
	struct rvv_error err = { 0 };
	double ms;

	(void)state;
	assert_int_equal(bench_slo_parse("ttft=500ms,tpot=0.05s,e2e=2", &slo, NULL), 0);
	assert_true(slo.ttft_ms == 500 && slo.tpot_ms == 50 && slo.e2e_ms == 2000);
	assert_int_equal(bench_slo_parse("ttft=fast", &slo, &err), -EINVAL);
	assert_non_null(strstr(err.message, "NAME=TIME"));
	assert_int_equal(bench_slo_parse("itl=5ms", &slo, NULL), -EINVAL);
	assert_int_equal(bench_parse_ms("1.5s", &ms), 0);
	assert_true(ms == 1500);
	assert_int_equal(bench_parse_ms("5min", &ms), -EINVAL);
}

#define assert_near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/* {2,4,4,4,5,5,7,9}: mean 5, squared deviations 32, sample sd sqrt(32/7). */
/* A sample against itself: the p95 ratio is 1, inside its interval. */
static void p95_ratio_of_a_sample_to_itself(void **state)
{
	double v[21];
	struct bench_ratio r;

	(void)state;
	for (int i = 0; i < 21; i++)
		v[i] = 1000 + 10 * i;
	assert_int_equal(bench_percentile_ratio(v, 21, v, 21, 95, BENCH_PCT_LINEAR, 1, &r), 0);
	assert_true(r.ratio == 1);
	assert_true(r.low < 1 && r.high > 1);
}

/*
 * a = 0.4 b, b from 1000 to 1200 ms: the ratio is 0.4, and no resample's
 * can leave [400/1200, 480/1000]. One seed gives one interval.
 */
static void p95_ratio_of_samples_apart(void **state)
{
	double a[21], b[21];
	struct bench_ratio r, again;

	(void)state;
	for (int i = 0; i < 21; i++) {
		b[i] = 1000 + 10 * i;
		a[i] = 0.4 * b[i];
	}
	assert_int_equal(bench_percentile_ratio(a, 21, b, 21, 95, BENCH_PCT_LINEAR, 7, &r), 0);
	assert_true(fabs(r.ratio - 0.4) < 1e-12);
	assert_true(r.low >= 400.0 / 1200 && r.high <= 480.0 / 1000 && r.low <= r.high);
	assert_int_equal(bench_percentile_ratio(a, 21, b, 21, 95, BENCH_PCT_LINEAR, 7, &again), 0);
	assert_true(again.low == r.low && again.high == r.high);
}

/* Too few requests on a side, or a baseline of 0 ms: no ratio. */
static void p95_ratio_needs_two_values_and_a_baseline(void **state)
{
	double one[1] = { 5 }, two[2] = { 5, 6 }, zero[2] = { 0, 0 };
	struct bench_ratio r;

	(void)state;
	assert_int_equal(bench_percentile_ratio(one, 1, two, 2, 95, BENCH_PCT_LINEAR, 1, &r), -EINVAL);
	assert_int_equal(bench_percentile_ratio(two, 2, one, 1, 95, BENCH_PCT_LINEAR, 1, &r), -EINVAL);
	assert_int_equal(bench_percentile_ratio(two, 2, zero, 2, 95, BENCH_PCT_LINEAR, 1, &r), -EINVAL);
}

static void mean_and_sample_sd(void **state)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct bench_mean_sd m;

	(void)state;
	bench_mean_sd_of(v, 8, &m);
	assert_int_equal(m.n, 8);
	assert_near(m.mean, 5.0, 1e-12);
	assert_near(m.sd, 2.138089935, 1e-9);
	bench_mean_sd_of(v + 7, 1, &m);
	assert_near(m.mean, 9.0, 0);
	assert_near(m.sd, 0.0, 0);
	bench_mean_sd_of(v, 0, &m);
	assert_int_equal(m.n, 0);
}

static void t_quantiles_from_the_table(void **state)
{
	(void)state;
	/* Printed tables of t(0.975, df). */
	assert_near(bench_t975(1), 12.706, 1e-9);
	assert_near(bench_t975(2), 4.303, 1e-9);
	assert_near(bench_t975(3), 3.182, 1e-9);
	assert_near(bench_t975(10), 2.228, 1e-9);
	assert_near(bench_t975(30), 2.042, 1e-9);
	/* Between rows the smaller df: wider, never narrower. */
	assert_near(bench_t975(45), 2.021, 1e-9);
	assert_near(bench_t975(100000), 1.960, 1e-9);
}

/*
 * a - b = {2, 3, 1, 2}: mean 2, squared deviations 0+1+1+0 = 2, sd
 * sqrt(2/3) = 0.8164966, standard error 0.8164966/2 = 0.4082483, t(3) 3.182:
 * half width 1.2990460, so [0.7009540, 3.2990460].
 */
static void paired_interval_by_hand(void **state)
{
	const double a[] = { 10, 12, 9, 11 }, b[] = { 8, 9, 8, 9 };
	const double a2[] = { 5, 7 }, b2[] = { 4, 4 };
	struct bench_interval ci;

	(void)state;
	assert_int_equal(bench_paired_interval(a, b, 4, &ci), 0);
	assert_int_equal(ci.n, 4);
	assert_near(ci.mean, 2.0, 1e-12);
	assert_near(ci.low, 0.7009540, 1e-6);
	assert_near(ci.high, 3.2990460, 1e-6);
	/* Pairing matters: unpaired, a's own spread would widen it. */
	assert_int_equal(bench_paired_interval(b, a, 4, &ci), 0);
	assert_near(ci.mean, -2.0, 1e-12);
	assert_near(ci.high, -0.7009540, 1e-6);
	/* {1, 3}: mean 2, sd sqrt(2), se 1, t(1) 12.706: [-10.706, 14.706]. */
	assert_int_equal(bench_paired_interval(a2, b2, 2, &ci), 0);
	assert_near(ci.low, -10.706, 1e-9);
	assert_near(ci.high, 14.706, 1e-9);
	/* One pair has no spread to estimate. */
	assert_int_equal(bench_paired_interval(a, b, 1, &ci), -EINVAL);
}

/* A trial where either arm has no value (all its requests failed) is left out as a pair. */
static void paired_interval_skips_missing_trials(void **state)
{
	const double a[] = { 10, NAN, 12, 9, 11 }, b[] = { 8, 5, NAN, 8, 9 };
	const double a3[] = { 10, 9, 11 }, b3[] = { 8, 8, 9 };
	const double a1[] = { NAN, 3, 4 }, b1[] = { 1, 2, NAN };
	struct bench_interval ci, want;

	(void)state;
	assert_int_equal(bench_paired_interval(a3, b3, 3, &want), 0);
	assert_int_equal(bench_paired_interval(a, b, 5, &ci), 0);
	assert_int_equal(ci.n, 3);
	assert_near(ci.mean, 5.0 / 3, 1e-12);
	assert_near(ci.low, want.low, 1e-12);
	assert_near(ci.high, want.high, 1e-12);
	assert_int_equal(bench_paired_interval(a1, b1, 3, &ci), -EINVAL);
}

/*
 * a / b = {2, 4, 2}: log2 of them {1, 2, 1}, mean 4/3, sd sqrt(1/3), se 1/3,
 * t(2) 4.303: in powers of 2, the geometric mean 2^(4/3) = 2.5198421 and
 * [2^(4/3 - 4.303/3), 2^(4/3 + 4.303/3)] = [0.9323865, 6.8100560].
 */
static void paired_ratio_by_hand(void **state)
{
	const double a[] = { 2, 8, 4, 7, NAN }, b[] = { 1, 2, 2, 0, 3 };
	struct bench_interval ci;

	(void)state;
	/* The 4th pair (b = 0) and the 5th (a missing) have no ratio: left out. */
	assert_int_equal(bench_paired_ratio(a, b, 5, &ci), 0);
	assert_int_equal(ci.n, 3);
	assert_near(ci.mean, 2.5198421, 1e-6);
	assert_near(ci.low, 0.9323865, 1e-6);
	assert_near(ci.high, 6.8100560, 1e-6);
	assert_int_equal(bench_paired_ratio(a, b, 1, &ci), -EINVAL);
}

static void arms_rotate_per_trial(void **state)
{
	const size_t want[4][3] = { { 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 0, 1, 2 } };

	(void)state;
	for (size_t t = 0; t < 4; t++)
		for (size_t k = 0; k < 3; k++)
			assert_int_equal(bench_arm_order(t, k, 3), want[t][k]);
	for (size_t t = 0; t < 3; t++)
		assert_int_equal(bench_arm_order(t, 0, 1), 0);
}

static void arms_parse(void **state)
{
	struct rvv_error err;
	struct bench_arm a;
	const struct bench_tier *p = &a.tier[BENCH_TIER_PROCESS];
	static const struct {
		const char *text;
		int rc;
	} bad[] = {
		{ "fifo", -EINVAL }, { "fifo:100", -ERANGE }, { "fifo:0", -ERANGE },
		{ "warp@on-vector", -EINVAL }, { "fifo:10@later", -EINVAL },
		{ "fifo:1+rr:2", -EINVAL }, { "affinity:", -EINVAL },
		{ "affinity:1+affinity:2", -EINVAL }, { "", -EINVAL }, { "@on-vector", -EINVAL },
		{ "affinity:2000", -ERANGE }, { "batch:20", -ERANGE },
	};

	(void)state;
	assert_int_equal(bench_arm_parse("fifo:10@on-vector", &a, &err), 0);
	assert_true(p->has_policy && !p->has_cpus && p->on_vector);
	assert_int_equal(p->policy.policy, 1 /* SCHED_FIFO */);
	assert_int_equal(p->policy.rt_priority, 10);
	assert_string_equal(a.name, "fifo:10@on-vector");
	assert_int_equal(bench_arm_parse("affinity:0-1,3", &a, &err), 0);
	assert_true(p->has_cpus && !p->has_policy && !p->on_vector);
	assert_int_equal(p->cpus[0], 0x0b);
	assert_int_equal(bench_arm_parse("affinity:1+deadline:2ms/10ms/10ms@now", &a, &err), 0);
	assert_true(p->has_cpus && p->has_policy && !p->on_vector);
	assert_int_equal(p->cpus[0], 0x02);
	assert_int_equal(p->policy.runtime_ns, 2000000);
	assert_int_equal(p->policy.period_ns, 10000000);
	assert_int_equal(bench_arm_parse("none", &a, &err), 0);
	assert_true(!p->has_cpus && !p->has_policy && !a.tiered);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.message[0] = '\0';
		assert_int_equal(bench_arm_parse(bad[i].text, &a, &err), bad[i].rc);
		assert_non_null(strstr(err.message, "--policy"));
	}
}

/*
 * Two tiers in one arm: a process hint for every thread, and a thread's
 * own hint, at its first vector use, for each thread that uses vector
 * state. Each refusal says what to write.
 */
static void arms_parse_tiers(void **state)
{
	struct rvv_error err;
	struct bench_arm a;
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "fifo:11@on-vector,vector=fifo:10", "write fifo:11,vector=fifo:10" },
		{ "fifo:11,vector=fifo:10@now", "write vector=fifo:10 or vector=fifo:10@on-vector" },
		{ "fifo:11,hot=fifo:10", "write ,vector=" },
		{ "fifo:11,vector=", "after vector=, write affinity:CPUS" },
		{ "fifo:11,vector=fifo:10@later", "(@on-vector is implied)" },
		{ "fifo:11,vector=fifo:10,vector=fifo:9", "one vector tier" },
		{ "none,vector=fifo:10", "none has no tiers" },
		{ ",vector=fifo:10", "the process tier" },
		{ "fifo:11,vector=fifo:100", "out of range" },
	};

	(void)state;
	assert_int_equal(bench_arm_parse("fifo:11,vector=fifo:10", &a, &err), 0);
	assert_true(a.tiered);
	assert_string_equal(a.name, "fifo:11,vector=fifo:10");
	assert_true(a.tier[BENCH_TIER_PROCESS].has_policy && !a.tier[BENCH_TIER_PROCESS].on_vector);
	assert_int_equal(a.tier[BENCH_TIER_PROCESS].policy.rt_priority, 11);
	assert_true(a.tier[BENCH_TIER_VECTOR].has_policy && a.tier[BENCH_TIER_VECTOR].on_vector);
	assert_int_equal(a.tier[BENCH_TIER_VECTOR].policy.policy, 1 /* SCHED_FIFO */);
	assert_int_equal(a.tier[BENCH_TIER_VECTOR].policy.rt_priority, 10);
	/* Spelled out, the same arm. */
	assert_int_equal(bench_arm_parse("fifo:11@now,vector=fifo:10@on-vector", &a, &err), 0);
	assert_true(a.tiered && a.tier[BENCH_TIER_VECTOR].on_vector);
	assert_false(a.tier[BENCH_TIER_PROCESS].on_vector);
	/* A CPU split, each list with its commas: the tiers part at ",vector=". */
	assert_int_equal(bench_arm_parse("affinity:0,1+fifo:11,vector=affinity:1,3", &a, &err), 0);
	assert_int_equal(a.tier[BENCH_TIER_PROCESS].cpus[0], 0x03);
	assert_true(a.tier[BENCH_TIER_VECTOR].has_cpus && !a.tier[BENCH_TIER_VECTOR].has_policy);
	assert_int_equal(a.tier[BENCH_TIER_VECTOR].cpus[0], 0x0a);
	/* One tier: not tiered. */
	assert_int_equal(bench_arm_parse("fifo:10@on-vector", &a, &err), 0);
	assert_false(a.tiered);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.message[0] = '\0';
		assert_int_not_equal(bench_arm_parse(bad[i].text, &a, &err), 0);
		if (!strstr(err.message, bad[i].says) || !strstr(err.message, "--policy"))
			fail_msg("%s: %s", bad[i].text, err.message);
	}
}

/* A second thread of the test, on SCHED_BATCH, until released. */
struct batch_thread {
	pthread_barrier_t ready, done;
	int tid;
};

static void *run_batch(void *arg)
{
	struct sched_param param = { .sched_priority = 0 };
	struct batch_thread *b = arg;

	b->tid = (int)gettid();
	if (sched_setscheduler(0, SCHED_BATCH, &param))
		b->tid = -errno;
	pthread_barrier_wait(&b->ready);
	pthread_barrier_wait(&b->done);
	return NULL;
}

/* The module's word for each thread, as the window's closing mark gives it. */
struct hint_words {
	int waiting_tid;	/* "waiting"; every other thread "applied" */
};

static const char *word_of(void *ctx, int tid)
{
	const struct hint_words *w = ctx;

	return tid == w->waiting_tid ? "waiting" : "applied";
}

static const struct bench_thread_state *state_of(const struct bench_arm_state *st, int tid)
{
	for (size_t i = 0; i < st->n; i++)
		if (st->threads[i].tid == tid)
			return &st->threads[i];
	return NULL;
}

/*
 * A two-tier arm read back on this process: its main thread as the
 * process tier (SCHED_OTHER), a thread on SCHED_BATCH as the vector tier.
 * A thread is held to the vector tier where its own hint was applied, to
 * the process tier where it waits (unless it took its own since), and a
 * vector tier that reached no thread, or a thread in neither, is refused.
 */
static void two_tier_arms_read_back_by_tier(void **state)
{
	int me = (int)gettid(), nice_now = getpriority(PRIO_PROCESS, 0), both[2];
	struct bench_arm_held held = { .tids = both };
	const struct bench_thread_state *t;
	struct bench_arm_state st;
	struct hint_words words = { 0 };
	struct batch_thread b;
	struct rvv_error err;
	struct bench_arm arm;
	char text[64];
	pthread_t thread;

	(void)state;
	snprintf(text, sizeof(text), "normal:%d,vector=batch:%d", nice_now, nice_now);
	assert_int_equal(bench_arm_parse(text, &arm, &err), 0);
	pthread_barrier_init(&b.ready, NULL, 2);
	pthread_barrier_init(&b.done, NULL, 2);
	assert_int_equal(pthread_create(&thread, NULL, run_batch, &b), 0);
	pthread_barrier_wait(&b.ready);
	assert_true(b.tid > 0);
	both[0] = b.tid;
	both[1] = me;

	/* Both hinted: the main thread's own hint waits, the other's applied. */
	held.n = 2;
	words.waiting_tid = me;
	assert_int_equal(bench_arm_check(-1, &arm, getpid(), &held, word_of, &words, &st, &err), 0);
	t = state_of(&st, me);
	assert_non_null(t);
	assert_string_equal(t->tier, "process");
	assert_true(t->matches);
	t = state_of(&st, b.tid);
	assert_non_null(t);
	assert_string_equal(t->tier, "vector");
	assert_true(t->matches);
	bench_arm_state_free(&st);

	/* Its own hint "waiting" in the rows, applied since: the vector tier. */
	held.n = 1;
	words.waiting_tid = b.tid;
	assert_int_equal(bench_arm_check(-1, &arm, getpid(), &held, word_of, &words, &st, &err), 0);
	assert_string_equal(state_of(&st, b.tid)->tier, "vector");
	bench_arm_state_free(&st);

	/* The main thread's own hint applied, yet it runs as the process tier. */
	held.n = 2;
	words.waiting_tid = 0;
	assert_int_equal(bench_arm_check(-1, &arm, getpid(), &held, word_of, &words, &st, &err),
			 -EPROTO);
	assert_non_null(strstr(err.message, "not what the vector tier asked"));

	/* The batch thread without its own hint: the process tier, which it lacks. */
	held = (struct bench_arm_held){ .tids = &both[1], .n = 1 };
	words.waiting_tid = me;
	assert_int_equal(bench_arm_check(-1, &arm, getpid(), &held, word_of, &words, &st, &err),
			 -EPROTO);
	assert_non_null(strstr(err.message, "not what the process tier asked"));

	pthread_barrier_wait(&b.done);
	pthread_join(thread, NULL);
	pthread_barrier_destroy(&b.ready);
	pthread_barrier_destroy(&b.done);
	/* Only the main thread, waiting: the vector tier reached nobody. */
	assert_int_equal(bench_arm_check(-1, &arm, getpid(), &held, word_of, &words, &st, &err),
			 -EPROTO);
	assert_non_null(strstr(err.message, "its vector tier reached no thread"));
}

static void options_take_arms(void **state)
{
	char *twice[] = { "rvvbench", "--policy", "batch", "--policy", "batch", NULL };
	char *many[] = { "rvvbench", "--policy", "batch", "--policy", "fifo:1", "--policy", "fifo:2",
			 "--policy", "fifo:3", "--policy", "fifo:4", "--policy", "fifo:5",
			 "--policy", "fifo:6", "--policy", "fifo:7", NULL };
	char *ok[] = { "rvvbench", "--policy", "fifo:10@on-vector", "--policy", "none",
		       "--policy", "affinity:0", "--server-pid", "42", NULL };
	struct bench_options o;
	struct rvv_error err;

	(void)state;
	assert_int_equal(bench_options_parse(9, ok, &o, &err), 0);
	assert_int_equal(o.n_arms, 3);
	assert_string_equal(o.arms[0].name, "none");
	assert_string_equal(o.arms[1].name, "fifo:10@on-vector");
	assert_string_equal(o.arms[2].name, "affinity:0");
	assert_int_equal(o.server_pid, 42);
	assert_int_equal(bench_options_parse(5, twice, &o, &err), -EINVAL);
	assert_non_null(strstr(err.message, "given twice"));
	assert_int_equal(bench_options_parse(17, many, &o, &err), -EINVAL);
	assert_non_null(strstr(err.message, "at most 8 arms"));
	/* Without --policy: "none" alone. */
	assert_int_equal(bench_options_parse(1, ok, &o, &err), 0);
	assert_int_equal(o.n_arms, 1);
}

/*
 * Gamma gaps of shape B and scale 1/(R B): mean B/(R B) = 1/R, variance
 * B/(R B)^2, so a coefficient of variation of 1/sqrt(B). Over 40000 gaps
 * the sample mean is within 6 of its standard errors and the CV within 5 %.
 */
static void gamma_gaps_have_the_asked_mean_and_spread(void **state)
{
	const double shapes[] = { 0.25, 1, 4 }, rate = 10;
	enum { N = 40000 };

	(void)state;
	for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
		struct bench_rng rng;
		double sum = 0, sq = 0, mean, cv;

		bench_rng_seed(&rng, 3);
		for (int i = 0; i < N; i++) {
			double g = bench_arrival_gap(&rng, rate, shapes[k]);

			assert_true(g > 0);
			sum += g;
			sq += g * g;
		}
		mean = sum / N;
		cv = sqrt(sq / N - mean * mean) / mean;
		assert_true(fabs(mean - 1 / rate) < 0.03 / rate / sqrt(shapes[k]));
		assert_true(fabs(cv - 1 / sqrt(shapes[k])) < 0.05 / sqrt(shapes[k]));
	}
}

/* 9 arrivals at 20/s: the first at 0, the last at 8/20 s exactly, in order; one seed one plan. */
static void arrival_plans_keep_the_rate(void **state)
{
	int64_t due[9], again[9], other[9];
	struct bench_rng rng;

	(void)state;
	bench_rng_seed(&rng, 5);
	bench_arrival_plan(&rng, 20, 0.5, NULL, 9, due);
	assert_int_equal(due[0], 0);
	assert_true(llabs(due[8] - 400000000) <= 1);
	for (int i = 1; i < 9; i++)
		assert_true(due[i] >= due[i - 1]);
	bench_rng_seed(&rng, 5);
	bench_arrival_plan(&rng, 20, 0.5, NULL, 9, again);
	assert_memory_equal(due, again, sizeof(due));
	bench_rng_seed(&rng, 6);
	bench_arrival_plan(&rng, 20, 0.5, NULL, 9, other);
	assert_true(llabs(other[8] - 400000000) <= 1 && memcmp(due, other, sizeof(due)));
}

/* A ramp from 2 to 32 requests/s over 5 requests: linear, and exponential (doubling each step). */
static void ramps_reach_their_rates(void **state)
{
	struct bench_ramp lin = { BENCH_RAMP_LINEAR, 2, 32 }, exp = { BENCH_RAMP_EXPONENTIAL, 2, 32 };

	(void)state;
	assert_true(bench_ramp_rate(&lin, 0, 5) == 2 && bench_ramp_rate(&lin, 4, 5) == 32);
	assert_true(bench_ramp_rate(&lin, 2, 5) == 17);
	for (size_t i = 0; i < 5; i++)
		assert_true(fabs(bench_ramp_rate(&exp, i, 5) - 2 * pow(2, (double)i)) < 1e-9);
}

/* The ramp's options: both rates, a count of requests, not --rate; the cells' rate is its end. */
static void ramp_options_parse(void **state)
{
	static const struct {
		int argc;
		char *argv[9];
		const char *says;
	} bad[] = {
		{ 3, { "rvvbench", "--ramp-up-strategy", "linear" }, "give --ramp-up-start-rps" },
		{ 3, { "rvvbench", "--ramp-up-strategy", "cubic" }, "give linear or exponential" },
		{ 3, { "rvvbench", "--ramp-up-end-rps", "4" }, "need --ramp-up-strategy" },
		{ 9, { "rvvbench", "--ramp-up-strategy", "linear", "--ramp-up-start-rps", "1",
		       "--ramp-up-end-rps", "4", "--rate", "2" }, "give one of them" },
		{ 9, { "rvvbench", "--ramp-up-strategy", "linear", "--ramp-up-start-rps", "1",
		       "--ramp-up-end-rps", "4", "--duration", "5" }, "needs --requests" },
		{ 7, { "rvvbench", "--ramp-up-strategy", "linear", "--ramp-up-start-rps", "0",
		       "--ramp-up-end-rps", "4" }, "above 0" },
	};
	char *ok[] = { "rvvbench", "--ramp-up-strategy", "exponential", "--ramp-up-start-rps", "1",
		       "--ramp-up-end-rps", "4", NULL };
	struct bench_options o;
	struct rvv_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(bench_options_parse(bad[i].argc, (char **)bad[i].argv, &o, &err), -EINVAL);
		if (!strstr(err.message, bad[i].says))
			fail_msg("case %zu: \"%s\", not \"%s\"", i, err.message, bad[i].says);
	}
	assert_int_equal(bench_options_parse(7, ok, &o, &err), 0);
	assert_int_equal(o.cfg.ramp.how, BENCH_RAMP_EXPONENTIAL);
	assert_true(o.cells[0].rate == 4 && o.cfg.requests == 16);
}

/* --burstiness needs --rate and a shape above 0. */
static void burstiness_parses(void **state)
{
	char *ok[] = { "rvvbench", "--rate", "5", "--burstiness", "0.5", NULL };
	char *alone[] = { "rvvbench", "--burstiness", "0.5", NULL };
	char *zero[] = { "rvvbench", "--rate", "5", "--burstiness", "0", NULL };
	struct bench_options o;
	struct rvv_error err;

	(void)state;
	assert_int_equal(bench_options_parse(5, ok, &o, &err), 0);
	assert_true(o.cfg.burstiness == 0.5);
	assert_int_equal(bench_options_parse(3, ok, &o, &err), 0);
	assert_true(o.cfg.burstiness == 1);
	assert_int_equal(bench_options_parse(3, alone, &o, &err), -EINVAL);
	assert_non_null(strstr(err.message, "give --rate too"));
	assert_int_equal(bench_options_parse(5, zero, &o, &err), -EINVAL);
	assert_non_null(strstr(err.message, "above 0"));
}

/* Writes @text to a new file under /tmp; its path in @path. */
static void scratch_file(char *path, const char *text)
{
	int fd;

	strcpy(path, "/tmp/rvvbench-test-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* What a --prompts file may not be, each refused with what to write. */
static void prompt_files_refused(void **state)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "", "no prompt in it" },
		{ "\n  \n", "no prompt in it" },
		{ "{\"question\": \"q\"}\n", "line 1: no prompt" },
		{ "{\"prompt\": \"p\", \"output_len\": 0}\n", "line 1: the output length" },
		{ "{\"prompt\": \"p\", \"max_tokens\": \"8\"}\n", "line 1: the output length" },
		{ "{\"prompt\": \"p\"}\n[1, 2]\n", "line 2: no prompt" },
		{ "[{\"prompt\": \"p\"}, 3]", "entry 2: no prompt" },
		{ "[{\"prompt\": \"p\"}", "not a JSON array" },
		{ "[{\"conversations\": [{\"from\": \"gpt\", \"value\": \"v\"}]}]", "entry 1: no prompt" },
	};
	struct bench_dataset ds;
	struct rvv_error err;
	char path[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		scratch_file(path, bad[i].text);
		assert_int_equal(bench_dataset_load(path, &ds, &err), -EINVAL);
		if (!strstr(err.message, bad[i].says))
			fail_msg("%s: \"%s\", not \"%s\"", bad[i].text, err.message, bad[i].says);
		assert_null(ds.entries);
		unlink(path);
	}
	assert_int_equal(bench_dataset_load("/nonexistent/p.jsonl", &ds, &err), -ENOENT);
}

/* JSON Lines with each key it reads, and a ShareGPT entry's first human turn. */
static void prompt_files_read(void **state)
{
	struct bench_dataset ds;
	struct rvv_error err;
	char path[64];

	(void)state;
	scratch_file(path, "{\"prompt\": \"a\", \"output_len\": 7}\n"
			   "{\"text\": \"b\", \"max_tokens\": 8}\r\n"
			   "{\"prompt\": \"c\", \"output_length\": 9}\n"
			   "{\"conversations\": [{\"from\": \"system\", \"value\": \"s\"},"
			   " {\"from\": \"human\", \"value\": \"d\"}]}\n");
	assert_int_equal(bench_dataset_load(path, &ds, &err), 0);
	assert_int_equal(ds.n, 4);
	assert_string_equal(ds.entries[0].prompt, "a");
	assert_int_equal(ds.entries[0].output_len, 7);
	assert_string_equal(ds.entries[1].prompt, "b");
	assert_int_equal(ds.entries[1].output_len, 8);
	assert_int_equal(ds.entries[2].output_len, 9);
	assert_string_equal(ds.entries[3].prompt, "d");
	assert_int_equal(ds.entries[3].output_len, -1);
	bench_dataset_free(&ds);
	unlink(path);
}

/* --prompt-words above the most a prompt holds is refused, not cut; the most fits whole. */
static void prompt_words_are_not_clamped(void **state)
{
	char *most[] = { "rvvbench", "--prompt-words", "500", NULL };
	char *over[] = { "rvvbench", "--prompt-words", "501", NULL };
	char buf[BENCH_PROMPT_SIZE];
	struct bench_options o;
	struct rvv_error err;
	size_t len, words = 0;

	(void)state;
	assert_int_equal(bench_options_parse(3, most, &o, &err), 0);
	assert_int_equal(o.cfg.prompt_words, 500);
	assert_int_equal(bench_options_parse(3, over, &o, &err), -EINVAL);
	assert_string_equal(err.message, "--prompt-words 501: at most 500");
	/* Every word drawn (the longest each time would still fit): 1 space after the prefix's colon each. */
	len = bench_prompt(18446744073709551615ull, 2147483647, 500, buf, sizeof(buf));
	assert_int_equal(len, strlen(buf));
	for (size_t i = 0; i < len; i++)
		words += buf[i] == ' ';
	assert_int_equal(words, 500 + 1);	/* "Request S-I:" has one space of its own */
}

static void csv_fields_quote_as_rfc4180(void **state)
{
	const char *in[] = { "plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", "" };
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	(void)state;
	assert_non_null(f);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		bench_csv_field(f, in[i]);
		fputc('|', f);
	}
	fclose(f);
	assert_string_equal(buf, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"|\"cr\r\"||");
	free(buf);
}

static void cpu_lists_parse(void **state)
{
	int cpus[8];

	(void)state;
	assert_int_equal(bench_cpu_list_parse("0-3,6", cpus, 8), 5);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[3], 3);
	assert_int_equal(cpus[4], 6);
	assert_int_equal(bench_cpu_list_parse("5", cpus, 8), 1);
	assert_int_equal(cpus[0], 5);
	for (const char *const *bad = (const char *const[]){ "", "3-1", "1,", "1,,2", "x", "-1",
							      "0-8", NULL }; *bad; bad++)
		assert_int_equal(bench_cpu_list_parse(*bad, cpus, 8), -EINVAL);
}

/* The threads of this process other than the caller (the hog's): how many, into @tids. */
static size_t other_threads(int *tids, size_t max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) && n < max)
		if (e->d_name[0] != '.' && atoi(e->d_name) != gettid())
			tids[n++] = atoi(e->d_name);
	closedir(d);
	return n;
}

/* Voluntary plus involuntary switches of @tids so far. */
static long switches_of(const int *tids, size_t n)
{
	long sum = 0, v;
	char path[64], line[128];

	for (size_t i = 0; i < n; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%d/status", tids[i]);
		f = fopen(path, "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
			    sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
				sum += v;
		fclose(f);
	}
	return sum;
}

/*
 * Duty 0 is idle: over 300 ms at a 1 ms period, a hog that napped between
 * busy parts would wake ~300 times; an idle one not at all (a few switches
 * of slack for its start).
 */
static void hog_duty_0_does_not_wake(void **state)
{
	struct timespec nap = { .tv_nsec = 300000000 }, settle = { .tv_nsec = 20000000 };
	struct bench_hog_result res;
	struct bench_hog hog;
	struct rvv_error err;
	int cpus[1], tids[4];
	long before, after;
	size_t n;

	(void)state;
	assert_int_equal(bench_hog_default_cpus(cpus, 1), 1);
	assert_int_equal(bench_hog_start(&hog, cpus, 1, 0, 1.0, &err), 0);
	nanosleep(&settle, NULL);
	n = other_threads(tids, 4);
	assert_int_equal(n, 1);
	before = switches_of(tids, n);
	nanosleep(&nap, NULL);
	after = switches_of(tids, n);
	bench_hog_stop(&hog, &res);
	assert_true(after - before <= 3);
	assert_int_equal(res.iterations, 0);
	assert_true(res.cpu_s < 0.02);
	assert_true(res.slept_s > 0.25);
}

/* A client at another policy (SCHED_BATCH: any user may take it) does not pass it to the hog. */
static void hog_threads_are_sched_other(void **state)
{
	struct sched_param param = { .sched_priority = 0 };
	struct bench_hog_result res;
	struct bench_hog hog;
	struct rvv_error err;
	int cpus[1], tids[4], policy[4];
	size_t n;

	(void)state;
	assert_int_equal(bench_hog_default_cpus(cpus, 1), 1);
	assert_int_equal(sched_setscheduler(0, SCHED_BATCH, &param), 0);
	for (int duty = 0; duty <= 50; duty += 50) {
		assert_int_equal(bench_hog_start(&hog, cpus, 1, duty, 5.0, &err), 0);
		n = other_threads(tids, 4);
		for (size_t i = 0; i < n; i++)
			policy[i] = sched_getscheduler(tids[i]);
		bench_hog_stop(&hog, &res);
		assert_int_equal(n, 1);
		assert_int_equal(policy[0], SCHED_OTHER);
	}
	assert_int_equal(sched_setscheduler(0, SCHED_OTHER, &param), 0);
}

/* A kernel without schedstat (no CONFIG_SCHED_INFO): run-queue wait null, not 0 ms. */
static void window_without_schedstat_has_no_wait(void **state)
{
	struct bench_thread_sched a = { .tid = 7, .voluntary = 10, .migrations = -1 };
	struct bench_thread_sched b = { .tid = 7, .voluntary = 25, .migrations = -1 };
	struct bench_mark start = { .threads = &a, .n_threads = 1 };
	struct bench_mark end = { .threads = &b, .n_threads = 1 };
	struct bench_run run = { 0 };
	struct bench_window w;
	struct json_object *o, *cls, *other, *wait;

	(void)state;
	assert_int_equal(bench_window_of(&start, &end, &run, &w, NULL), 0);
	assert_true(w.sched);
	assert_int_equal(w.cls[BENCH_SERVER_OTHER].voluntary, 15);
	o = bench_window_json(&w);
	assert_true(json_object_object_get_ex(o, "classes", &cls));
	assert_true(json_object_object_get_ex(cls, "server_other", &other));
	assert_true(json_object_object_get_ex(other, "runqueue_wait_ms", &wait));
	assert_null(wait);
	json_object_put(o);
	/* With it, the wait is the difference. */
	a.has_schedstat = b.has_schedstat = true;
	a.wait_ns = 1000000, b.wait_ns = 3500000;
	assert_int_equal(bench_window_of(&start, &end, &run, &w, NULL), 0);
	o = bench_window_json(&w);
	json_object_object_get_ex(o, "classes", &cls);
	json_object_object_get_ex(cls, "server_other", &other);
	assert_true(json_object_object_get_ex(other, "runqueue_wait_ms", &wait));
	assert_non_null(wait);
	assert_true(json_object_get_double(wait) == 2.5);
	json_object_put(o);
}

/*
 * A server thread that exits inside the window takes its row with it (the
 * module adds its counts to the system's exited total): the window says how
 * many left, so the server's figures read as what they are, a lower bound.
 */
static void threads_exiting_in_the_window_are_counted(void **state)
{
	struct bench_thread_sched a[3] = { { .tid = 7 }, { .tid = 8 }, { .tid = 9 } };
	struct bench_thread_sched b[2] = { { .tid = 7 }, { .tid = 10 } };
	struct bench_mark start = { .threads = a, .n_threads = 3 };
	struct bench_mark end = { .threads = b, .n_threads = 2 };
	struct bench_run run = { 0 };
	struct bench_window w;
	struct json_object *o, *exited;

	(void)state;
	assert_int_equal(bench_window_of(&start, &end, &run, &w, NULL), 0);
	assert_int_equal(w.server_exited, 2);	/* 8 and 9; 10 is new, not gone */
	o = bench_window_json(&w);
	assert_true(json_object_object_get_ex(o, "server_threads_exited", &exited));
	assert_int_equal(json_object_get_int(exited), 2);
	json_object_put(o);
	/* Without the server's threads at both ends, nobody is known to have left. */
	end.n_threads = 0;
	assert_int_equal(bench_window_of(&start, &end, &run, &w, NULL), 0);
	assert_int_equal(w.server_exited, 0);
}

/*
 * The server's launch options from its command line as /proc gives it:
 * the last value of each counts, as llama-server takes it; one not given,
 * or not a whole number, is null.
 */
static void launch_options_from_the_command_line(void **state)
{
	struct bench_launch l;
	struct json_object *o, *v;
	static const struct {
		const char *key;
		long value;	/* -1: null */
	} want[] = {
		{ "threads", 3 }, { "threads_batch", -1 }, { "parallel", 2 }, { "poll", 0 },
		{ "prio", -1 }, { "ctx", 512 },
	};

	(void)state;
	bench_launch_parse("/usr/bin/llama-server -m /m/tiny.gguf --host 127.0.0.1 -t 2 --parallel 2 -c 512 --poll 0 -t 3 --prio high --metrics",
			   &l);
	o = bench_launch_json(&l);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_true(json_object_object_get_ex(o, want[i].key, &v));
		if (want[i].value < 0)
			assert_null(v);
		else
			assert_int_equal(json_object_get_int64(v), want[i].value);
	}
	json_object_put(o);
	/* The long and short names alike; an option at the end has no value. */
	bench_launch_parse("llama-server --threads 4 -tb 8 -np 1 --ctx-size 4096 --prio 2 --poll", &l);
	assert_int_equal(l.value[BENCH_LAUNCH_THREADS], 4);
	assert_int_equal(l.value[BENCH_LAUNCH_THREADS_BATCH], 8);
	assert_int_equal(l.value[BENCH_LAUNCH_PARALLEL], 1);
	assert_int_equal(l.value[BENCH_LAUNCH_CTX], 4096);
	assert_int_equal(l.value[BENCH_LAUNCH_PRIO], 2);
	assert_false(l.given & (1u << BENCH_LAUNCH_POLL));
}

/* A hint left on the server (a run killed mid-window) stops rvvbench before any window. */
static void stale_hints_are_refused(void **state)
{
	struct rvv_task_row rows[2] = { { .tid = 100, .comm = "llama-server" },
					{ .tid = 101, .comm = "llama-server" } };
	struct rvv_error err;

	(void)state;
	assert_int_equal(bench_arm_stale(rows, 2, 100, &err), 0);
	rows[1].hint = RVVSTAT_TASK_HINT_APPLIED;
	assert_int_equal(bench_arm_stale(rows, 2, 100, &err), -EBUSY);
	assert_non_null(strstr(err.message, "thread 101 (llama-server) is still under a hint (applied)"));
	assert_non_null(strstr(err.message, "sudo rvvctl hint clear --pid 100"));
	assert_non_null(strstr(err.message, "\"--tid 101\" for the thread's own hint"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sse_same_events_at_every_split),
		cmocka_unit_test(sse_byte_at_a_time),
		cmocka_unit_test(sse_cr_bom_and_empty_data),
		cmocka_unit_test(sse_lines_are_bounded),
		cmocka_unit_test(sse_callback_error_stops_the_feed),
		cmocka_unit_test(completion_events),
		cmocka_unit_test(chat_events),
		cmocka_unit_test(chat_reasoning_and_tool_calls_are_tokens),
		cmocka_unit_test(error_events),
		cmocka_unit_test(request_bodies),
		cmocka_unit_test(linear_percentiles_as_numpy),
		cmocka_unit_test(nearest_rank_percentiles),
		cmocka_unit_test(summary_of_a_cell),
		cmocka_unit_test(sending_throughput_leaves_the_drain_tail_out),
		cmocka_unit_test(tpot_needs_two_tokens),
		cmocka_unit_test(prompts_are_seeded_and_unique),
		cmocka_unit_test(slo_and_durations_parse),
		cmocka_unit_test(p95_ratio_of_a_sample_to_itself),
		cmocka_unit_test(p95_ratio_of_samples_apart),
		cmocka_unit_test(p95_ratio_needs_two_values_and_a_baseline),
		cmocka_unit_test(gamma_gaps_have_the_asked_mean_and_spread),
		cmocka_unit_test(arrival_plans_keep_the_rate),
		cmocka_unit_test(burstiness_parses),
		cmocka_unit_test(ramps_reach_their_rates),
		cmocka_unit_test(ramp_options_parse),
		cmocka_unit_test(prompt_files_refused),
		cmocka_unit_test(prompt_files_read),
		cmocka_unit_test(mean_and_sample_sd),
		cmocka_unit_test(t_quantiles_from_the_table),
		cmocka_unit_test(paired_interval_by_hand),
		cmocka_unit_test(paired_interval_skips_missing_trials),
		cmocka_unit_test(paired_ratio_by_hand),
		cmocka_unit_test(arms_rotate_per_trial),
		cmocka_unit_test(arms_parse),
		cmocka_unit_test(arms_parse_tiers),
		cmocka_unit_test(two_tier_arms_read_back_by_tier),
		cmocka_unit_test(options_take_arms),
		cmocka_unit_test(prompt_words_are_not_clamped),
		cmocka_unit_test(csv_fields_quote_as_rfc4180),
		cmocka_unit_test(cpu_lists_parse),
		cmocka_unit_test(hog_duty_0_does_not_wake),
		cmocka_unit_test(hog_threads_are_sched_other),
		cmocka_unit_test(window_without_schedstat_has_no_wait),
		cmocka_unit_test(threads_exiting_in_the_window_are_counted),
		cmocka_unit_test(launch_options_from_the_command_line),
		cmocka_unit_test(stale_hints_are_refused),
	};

	return cmocka_run_group_tests_name("rvvbench", tests, NULL, NULL);
}
