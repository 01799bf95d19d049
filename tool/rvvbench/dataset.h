/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --prompts FILE: prompts from a file instead of generated ones. JSON
 * Lines, one object a line: {"prompt": TEXT} (or "text"), with an optional
 * output length in tokens ("output_len", "max_tokens" or "output_length");
 * or a ShareGPT-shaped JSON array, whose entries' first human turn of
 * "conversations" is the prompt. ShareGPT gives its replies as text, not
 * tokens, so their requests take --n-predict. Request i sends entry
 * i mod the count, in the file's order.
 */
#ifndef RVVBENCH_DATASET_H
#define RVVBENCH_DATASET_H

#include <stddef.h>

#include "../lib/error.h"

struct bench_prompt_entry {
	char *prompt;
	long output_len;	/* tokens; -1: --n-predict */
};

struct bench_dataset {
	struct bench_prompt_entry *entries;
	size_t n;
};

/*
 * Loads @path into @ds. 0, or -errno with @err naming the file (and the
 * line of JSON Lines) and what to write: -ENOENT and the like, -EINVAL for
 * what is not one of the shapes above or holds no prompt, -ENOMEM.
 */
int bench_dataset_load(const char *path, struct bench_dataset *ds, struct rvv_error *err);
void bench_dataset_free(struct bench_dataset *ds);

#endif /* RVVBENCH_DATASET_H */
