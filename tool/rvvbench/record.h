/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One request as rvvbench measured it. Times are nanoseconds on
 * CLOCK_MONOTONIC from the start of the run; 0 where it did not happen.
 */
#ifndef RVVBENCH_RECORD_H
#define RVVBENCH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bench_status {
	BENCH_OK,
	BENCH_HTTP_ERROR,	/* a status other than 200 */
	BENCH_STREAM_ERROR,	/* an error event, or a stream that makes no sense */
	BENCH_TRUNCATED,	/* closed before its last event */
	BENCH_TIMEOUT,		/* --timeout ran out */
	BENCH_CONNECT_ERROR,	/* no connection (refused, unresolvable) */
	BENCH_STATUS_N
};

/* "ok", "http_error", ...: the names the records and summaries use. */
const char *bench_status_name(enum bench_status s);

struct bench_record {
	long index;		/* in the order requests were scheduled */
	bool warmup;		/* the first wave: kept, not counted */
	int64_t sched_ns;	/* when it was due (open loop) or sent (closed) */
	int64_t send_ns;	/* handed to libcurl */
	int64_t headers_ns;	/* the response's first byte (its status line) */
	int64_t first_ns;	/* the first token event */
	int64_t last_ns;	/* the last token event */
	int64_t end_ns;		/* the transfer finished */
	enum bench_status status;
	long http_status;
	long output_tokens;	/* the server's count; -1 if it sent none */
	long prompt_tokens;
	double prompt_ms;	/* the server's timings; -1 if absent */
	double predicted_ms;
	long slot;		/* the server's id_slot; -1 if it sent none */
	long token_events;
	long keepalives;
	double *gaps_ms;	/* every gap between token events */
	size_t n_gaps, gaps_cap;
	char error[320];
};

#endif /* RVVBENCH_RECORD_H */
