/* SPDX-License-Identifier: GPL-2.0 */
/*
 * llama-server polled off the input path: a thread reads /health, /metrics
 * and /slots on one kept-alive connection, twice per refresh, and keeps the
 * latest reading for the sampler. A slow or silent server then delays only
 * its own numbers, never a key or the module's interval.
 */
#ifndef RVVTOP_POLLER_H
#define RVVTOP_POLLER_H

#include <stdbool.h>

#include "../lib/error.h"
#include "../lib/llama.h"

enum llama_state {
	LLAMA_WAITING,		/* the first reading is under way */
	LLAMA_UP,
	LLAMA_LOADING,
	LLAMA_DOWN,		/* no answer */
	LLAMA_NO_METRICS,	/* up, but started without --metrics */
	LLAMA_METRICS_FAILED,	/* up, but /metrics failed or was not readable */
	LLAMA_NR_STATES
};

struct llama_reading {
	unsigned long seq;		/* 1, 2, ... as taken; 0: none yet */
	double taken;			/* CLOCK_MONOTONIC s when it was complete */
	enum llama_state state;
	bool has_metrics, has_slots;
	struct rvv_llama_metrics metrics;
	struct rvv_llama_slots *slots;	/* NULL without /slots (--no-slots) */
	char why[sizeof(((struct rvv_error *)0)->message)];	/* for the panel */
	/* Why no slots, "" if none or started with --no-slots (a 501). */
	char slots_why[sizeof(((struct rvv_error *)0)->message)];
};

/* The llama-server to poll, and how long one request may take. */
struct llama_source {
	const char *url;		/* NULL: none */
	long timeout_ms;
	const char *api_key;		/* NULL: none (llama-server's --api-key) */
};

struct llama_poller;

/* Starts polling @src (its url set) every @period_s. 0, or -errno with @err. */
int llama_poller_start(struct llama_poller **p, const struct llama_source *src,
		       double period_s, struct rvv_error *err);
void llama_poller_set_period(struct llama_poller *p, double period_s);
/*
 * Copies of the latest reading into @latest and, unless @before is NULL,
 * of the one before it (seq 0 if none) into @before; free them. 0, or -ENOMEM.
 */
int llama_poller_latest(struct llama_poller *p, struct llama_reading *latest,
			struct llama_reading *before);
/* Ends the GET under way and the thread. */
void llama_poller_stop(struct llama_poller *p);

void llama_reading_free(struct llama_reading *r);

#endif /* RVVTOP_POLLER_H */
