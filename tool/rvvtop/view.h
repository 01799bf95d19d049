/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What rvvtop shows for one interval: rates between two samples, per CPU,
 * per task and for llama-server, and the join of the two.
 */
#ifndef RVVTOP_VIEW_H
#define RVVTOP_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample.h"

struct rates {
	uint64_t saved;			/* saves in the interval */
	uint64_t involuntary;		/* of them, at involuntary switches */
	double saves, restores, bytes;	/* per second */
	double involuntary_pct;		/* of the saves */
};

struct cpu_view {
	uint32_t cpu;
	struct rates r;
	uint64_t switch_saved_p99_ns;	/* since reset; 0: none yet */
};

struct task_view {
	uint32_t tid, tgid;
	char comm[16];
	struct rates r;
	int32_t cpu;			/* last CPU it ran on; -1 unknown */
	uint32_t hint;			/* enum rvvstat_task_hint */
	uint64_t switch_saved_p99_ns;	/* of all its saving switches so far */
	bool gained_vector;		/* first_use grew in this interval */
};

struct llama_view {
	enum llama_state state;
	const char *why;
	const char *slots_why;		/* NULL: slots, or --no-slots */
	unsigned long reading_from, reading_to;	/* the poller's readings; from 0: one */
	double seconds;			/* between them; 0 with one reading */
	double reading_taken;		/* CLOCK_MONOTONIC s of reading_to */
	bool no_new_reading;		/* the same reading as the interval before */
	bool has_live;			/* /slots in both readings */
	uint64_t decoded;		/* tokens generated between the readings */
	double tokens_per_s;
	bool has_slots;			/* /slots in the last reading */
	int busy_slots, slots;
	bool has_gauges;		/* /metrics in the last reading */
	bool has_metrics;		/* /metrics in both readings */
	bool restarted;			/* its counters went back */
	double prompt_done, predicted_done;	/* completed between the readings */
	double processing, deferred;
	bool has_join;			/* tokens were generated */
	double saves_per_token;
	double saves_per_generating_s;	/* saves/s while a slot was busy */
};

struct view {
	double seconds;
	bool has_module;
	const char *module_why;
	bool module_reset;		/* counters went back: no rates this time */
	struct rates total;
	struct cpu_view *cpus;
	int nr_cpus;
	struct task_view *tasks;
	size_t nr_tasks;
	bool has_llama;
	struct llama_view llama;
};

/* Rates from two counter arrays and bytes; false if anything went back. */
bool view_rates(const uint64_t *a, const uint64_t *b, uint64_t bytes_a,
		uint64_t bytes_b, double seconds, struct rates *r);

/* A state's name ("up", "metrics disabled", ...), as --json writes it. */
const char *llama_state_name(enum llama_state state);
/* What a state means or what to do about it; "" for up. */
const char *llama_state_advice(enum llama_state state);

/* @t's last CPU as text into @buf: its number, or "-" if never seen. */
const char *task_cpu_text(const struct task_view *t, char *buf, size_t size);

/*
 * From @prev (may be NULL: no rates yet) to @cur over @seconds; llama-server's
 * rates from @llama_before (may be NULL) to @cur's reading.
 */
int view_build(const struct sample *prev, const struct sample *cur,
	       double seconds, const struct llama_reading *llama_before, struct view *v);
void view_free(struct view *v);

#endif /* RVVTOP_VIEW_H */
