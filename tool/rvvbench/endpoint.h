/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The streaming endpoints rvvbench speaks, as a table: each one builds its
 * request body and says what one SSE event of its stream means. Adding an
 * endpoint is one entry in endpoint.c.
 */
#ifndef RVVBENCH_ENDPOINT_H
#define RVVBENCH_ENDPOINT_H

#include <stdbool.h>
#include <stddef.h>

#include "../lib/error.h"
#include "sse.h"

struct bench_request_spec {
	const char *prompt;
	long n_predict;
	bool ignore_eos;
};

/* What one event said. Counts the server did not send stay -1. */
struct bench_event {
	bool token;		/* it carries generated output */
	bool end;		/* the stream is complete after it */
	bool error;		/* the server reports a failure */
	long output_tokens;	/* the server's own count, where given */
	long prompt_tokens;
	double prompt_ms;	/* timings.prompt_ms */
	double predicted_ms;	/* timings.predicted_ms */
	long slot;		/* id_slot, the server's slot (/completion only) */
	char message[160];	/* with error: the server's words */
};

struct bench_endpoint {
	const char *name;	/* for --endpoint */
	const char *path;
	/* A malloc'd JSON body, or NULL with @err. */
	char *(*body)(const struct bench_request_spec *spec, struct rvv_error *err);
	/* 0 with @ev filled, or -EPROTO with @err if the event is not JSON. */
	int (*classify)(enum sse_field field, const char *data, size_t length,
			struct bench_event *ev, struct rvv_error *err);
};

/* The entry called @name, or NULL. */
const struct bench_endpoint *bench_endpoint_find(const char *name);
/* The names and their paths, for messages and --help. */
#define BENCH_ENDPOINT_NAMES	"completion (/completion), chat (/v1/chat/completions)"

#endif /* RVVBENCH_ENDPOINT_H */
