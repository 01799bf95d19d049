/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What llama.cpp's llama-server tells about its throughput: /metrics
 * (Prometheus text, counters that move only when a request finishes),
 * /slots (per-slot tokens decoded so far, the only live rate) and /health.
 * Parsers only: fetching is the caller's.
 */
#ifndef RVVSTAT_LLAMA_H
#define RVVSTAT_LLAMA_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

/* The /metrics series rvvtop uses; a missing one keeps its bit clear. */
enum rvv_llama_series {
	RVV_LLAMA_PROMPT_TOKENS,	/* llamacpp:prompt_tokens_total */
	RVV_LLAMA_PREDICTED_TOKENS,	/* llamacpp:tokens_predicted_total */
	RVV_LLAMA_DECODE_CALLS,		/* llamacpp:n_decode_total */
	RVV_LLAMA_REQUESTS_PROCESSING,	/* llamacpp:requests_processing */
	RVV_LLAMA_REQUESTS_DEFERRED,	/* llamacpp:requests_deferred */
	RVV_LLAMA_NR_SERIES
};

struct rvv_llama_metrics {
	double value[RVV_LLAMA_NR_SERIES];
	unsigned int present;		/* bit per enum rvv_llama_series */
};

/*
 * Parses a /metrics body: "name[{labels}] value [timestamp]" lines, with
 * HELP/TYPE comments and unknown series skipped; values may be written as
 * doubles ("1.23457e+06"). -EINVAL, with @err saying which series and why,
 * if a sample of a known series is malformed or not a finite count >= 0,
 * or no known series is there at all.
 */
int rvv_llama_parse_metrics(const char *text, struct rvv_llama_metrics *m,
			    struct rvv_error *err);

#define RVV_LLAMA_MAX_SLOTS	256

struct rvv_llama_slot {
	int64_t id;
	bool processing;
	bool has_task;			/* it has served a request */
	int64_t id_task;
	uint64_t n_decoded;		/* of the current task */
};

struct rvv_llama_slots {
	int nr;
	struct rvv_llama_slot slot[RVV_LLAMA_MAX_SLOTS];
};

/*
 * Parses a /slots body (a JSON array). Slots that have not served a
 * request yet have no task; -EINVAL if it is not an array of objects with
 * an "id".
 */
int rvv_llama_parse_slots(const char *json, struct rvv_llama_slots *s);

/*
 * Tokens generated between two /slots readings, summed over the slots: the
 * growth of n_decoded while a slot keeps its task, and the new task's
 * n_decoded when it took another (what the old task decoded after the
 * earlier reading is not seen). A slot missing from @earlier counts whole.
 */
uint64_t rvv_llama_decoded_between(const struct rvv_llama_slots *earlier,
				   const struct rvv_llama_slots *later);

/* Slots processing a request now. */
int rvv_llama_busy_slots(const struct rvv_llama_slots *s);

enum rvv_llama_health {
	RVV_LLAMA_DOWN,			/* no answer, or an unexpected one */
	RVV_LLAMA_LOADING,		/* 503 "Loading model" */
	RVV_LLAMA_UP,			/* 200 {"status":"ok"} */
};

/* What a /health answer (HTTP status, 0 if none, and body) means. */
enum rvv_llama_health rvv_llama_health_of(long http_status, const char *body);

#endif /* RVVSTAT_LLAMA_H */
