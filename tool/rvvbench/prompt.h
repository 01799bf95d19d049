/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seeded randomness: the prompts (a unique prefix per request, then words
 * drawn from the seed) and the open loop's Poisson arrivals. The state is
 * the caller's, so a test or a later arm can restart it with the same seed.
 */
#ifndef RVVBENCH_PROMPT_H
#define RVVBENCH_PROMPT_H

#include <stddef.h>
#include <stdint.h>

struct bench_rng {
	uint64_t state;
};

void bench_rng_seed(struct bench_rng *rng, uint64_t seed);
uint64_t bench_rng_next(struct bench_rng *rng);
/* Uniform in (0, 1]: log() never sees 0. */
double bench_rng_uniform(struct bench_rng *rng);
/* An exponentially distributed gap in seconds at @rate per second. */
double bench_rng_exp(struct bench_rng *rng, double rate);
/* The most words --prompt-words takes, and a buffer that holds any prompt of them. */
#define BENCH_MAX_PROMPT_WORDS 500
#define BENCH_PROMPT_SIZE (64 + 10 * BENCH_MAX_PROMPT_WORDS)	/* no word is over 9 bytes */

/*
 * Writes request @index's prompt of @words words into @buf (@size bytes):
 * the same for the same seed and index, never the same prefix for two
 * indexes. Returns its length (truncated to fit).
 */
size_t bench_prompt(uint64_t seed, long index, int words, char *buf, size_t size);

#endif /* RVVBENCH_PROMPT_H */
