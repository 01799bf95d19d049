/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one refresh of rvvtop reads: the module's summary, CPUs and tasks
 * over netlink, and llama-server's /health, /metrics and /slots.
 */
#ifndef RVVTOP_SAMPLE_H
#define RVVTOP_SAMPLE_H

#include "../lib/client.h"
#include "../lib/llama.h"

struct view;

enum llama_state {
	LLAMA_UP,
	LLAMA_LOADING,
	LLAMA_DOWN,		/* no answer */
	LLAMA_NO_METRICS,	/* up, but started without --metrics */
	LLAMA_METRICS_FAILED,	/* up, but /metrics failed or was not readable */
	LLAMA_NR_STATES
};

struct llama_reading {
	enum llama_state state;
	bool has_metrics, has_slots;
	struct rvv_llama_metrics metrics;
	struct rvv_llama_slots *slots;	/* NULL without /slots (--no-slots) */
	char why[sizeof(((struct rvv_error *)0)->message)];	/* for the panel */
};

struct sample {
	bool has_module;
	char module_why[320];		/* why there are no module numbers */
	struct rvv_info info;
	struct rvv_summary summary;
	struct rvv_cpu_row *cpus;
	uint64_t *cpu_p99_ns;		/* per CPU row: its saving switches' p99 */
	int nr_cpus;
	struct rvv_task_row *tasks;		/* in tid order */
	size_t nr_tasks;
	bool has_llama;			/* a URL was given */
	struct llama_reading llama;
};

/* The llama-server to poll, and how long one request may take. */
struct llama_source {
	const char *url;		/* NULL: none */
	long timeout_ms;
	const char *api_key;		/* NULL: none (llama-server's --api-key) */
};

/*
 * Takes a sample. *@client is opened if it is NULL and closed again when
 * the module stops answering, so a reloaded module is found again. Tasks
 * of process @tgid only if it is not 0. 0, or -ENOMEM.
 */
int sample_take(struct sample *s, struct rvv_client **client, uint32_t tgid,
		const struct llama_source *llama);
void sample_free(struct sample *s);

/* CLOCK_MONOTONIC in seconds: when samples are taken and refreshes are due. */
double monotonic_s(void);

/* Samples in turn, each the previous one's successor. */
struct sampler {
	struct sample samples[2];
	double taken[2];		/* CLOCK_MONOTONIC seconds */
	unsigned int n;			/* samples taken */
	struct rvv_client *client;
	uint32_t tgid;
	struct llama_source llama;
};

/* Takes the first sample. 0, or -ENOMEM. */
int sampler_start(struct sampler *sr, uint32_t tgid, const struct llama_source *llama);
/* Takes the next sample and builds @v from the one before. 0, or -ENOMEM. */
int sampler_next(struct sampler *sr, struct view *v);
/* The newest sample. */
const struct sample *sampler_newest(const struct sampler *sr);
/* The client, if the module answered the newest sample (for reset). */
struct rvv_client *sampler_client(const struct sampler *sr);
void sampler_stop(struct sampler *sr);

#endif /* RVVTOP_SAMPLE_H */
