/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one refresh of rvvtop reads: the module's summary, CPUs and tasks
 * over netlink, and the latest reading of llama-server (poller.h).
 */
#ifndef RVVTOP_SAMPLE_H
#define RVVTOP_SAMPLE_H

#include "../lib/client.h"
#include "poller.h"

struct view;

struct sample {
	double taken, wall;		/* CLOCK_MONOTONIC, CLOCK_REALTIME seconds */
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
	struct llama_reading llama;	/* the poller's latest */
};

void sample_free(struct sample *s);

/* Samples in turn, each the previous one's successor. */
struct sampler {
	struct sample samples[2];
	unsigned int n;			/* samples taken */
	struct rvv_client *client;
	uint32_t tgid;
	struct llama_poller *poller;	/* NULL: no llama-server */
	/* The reading before the newest sample's, for llama-server's rates. */
	struct llama_reading llama_before;
};

/*
 * Takes the first sample, refreshed every @delay_s from then on; polls
 * @llama if its url is set. *@client is opened if it is NULL and closed again when
 * the module stops answering, so a reloaded module is found again. Tasks
 * of process @tgid only if it is not 0. 0, or -errno with @err.
 */
int sampler_start(struct sampler *sr, uint32_t tgid, const struct llama_source *llama,
		  double delay_s, struct rvv_error *err);
void sampler_set_delay(struct sampler *sr, double delay_s);
/* Takes the next sample and builds @v from the one before. 0, or -ENOMEM. */
int sampler_next(struct sampler *sr, struct view *v);
/* The newest sample. */
const struct sample *sampler_newest(const struct sampler *sr);
/* The client, if the module answered the newest sample (for reset). */
struct rvv_client *sampler_client(const struct sampler *sr);
void sampler_stop(struct sampler *sr);

#endif /* RVVTOP_SAMPLE_H */
