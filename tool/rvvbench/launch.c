// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

/* Each option's JSON key and its names in llama.cpp's common/arg.cpp. */
static const struct {
	const char *key, *short_name, *long_name;
} options[BENCH_NR_LAUNCH] = {
	[BENCH_LAUNCH_THREADS] = { "threads", "-t", "--threads" },
	[BENCH_LAUNCH_THREADS_BATCH] = { "threads_batch", "-tb", "--threads-batch" },
	[BENCH_LAUNCH_PARALLEL] = { "parallel", "-np", "--parallel" },
	[BENCH_LAUNCH_POLL] = { "poll", NULL, "--poll" },
	[BENCH_LAUNCH_PRIO] = { "prio", NULL, "--prio" },
	[BENCH_LAUNCH_CTX] = { "ctx", "-c", "--ctx-size" },
};

static bool names(int i, const char *word)
{
	return (options[i].short_name && !strcmp(word, options[i].short_name)) ||
	       !strcmp(word, options[i].long_name);
}

void bench_launch_parse(const char *cmdline, struct bench_launch *l)
{
	char *copy = strdup(cmdline), *save = NULL, *word, *prev = NULL;

	memset(l, 0, sizeof(*l));
	if (!copy)
		return;		/* nothing known, as without a command line */
	for (word = strtok_r(copy, " ", &save); word; prev = word, word = strtok_r(NULL, " ", &save))
		for (int i = 0; prev && i < BENCH_NR_LAUNCH; i++) {
			char *end;
			long v;

			if (!names(i, prev))
				continue;
			errno = 0;
			v = strtol(word, &end, 10);
			if (!errno && end != word && !*end) {
				l->value[i] = v;
				l->given |= 1u << i;
			}
		}
	free(copy);
}

struct json_object *bench_launch_json(const struct bench_launch *l)
{
	struct json_object *o = json_object_new_object();

	for (int i = 0; i < BENCH_NR_LAUNCH; i++)
		json_object_object_add(o, options[i].key, l->given & (1u << i) ?
				       json_object_new_int64(l->value[i]) : NULL);
	return o;
}
