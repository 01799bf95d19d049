/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How llama-server was launched, as far as it shapes scheduling: its
 * threads, batch threads, parallel slots, poll, prio and context size, from
 * its command line, kept with every sweep beside the line itself. An option
 * the command line does not give is absent (null in the JSON): the server's
 * default, or its LLAMA_ARG_* environment, holds, and rvvbench does not
 * guess which.
 */
#ifndef RVVBENCH_LAUNCH_H
#define RVVBENCH_LAUNCH_H

#include <json-c/json.h>

enum bench_launch_option {
	BENCH_LAUNCH_THREADS,
	BENCH_LAUNCH_THREADS_BATCH,
	BENCH_LAUNCH_PARALLEL,
	BENCH_LAUNCH_POLL,
	BENCH_LAUNCH_PRIO,
	BENCH_LAUNCH_CTX,
	BENCH_NR_LAUNCH
};

struct bench_launch {
	long value[BENCH_NR_LAUNCH];
	unsigned int given;	/* a bit per option the command line gives */
};

/*
 * From @cmdline, the server's arguments joined by spaces (as
 * bench_proc_cmdline() reads them): each option's last whole-number value,
 * as llama-server takes the last.
 */
void bench_launch_parse(const char *cmdline, struct bench_launch *l);

/* {"threads": 2, "threads_batch": null, "parallel": 2, "poll": ..., "prio": ..., "ctx": ...} */
struct json_object *bench_launch_json(const struct bench_launch *l);

#endif /* RVVBENCH_LAUNCH_H */
