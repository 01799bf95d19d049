// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "prompt.h"

void bench_rng_seed(struct bench_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

/* splitmix64 */
uint64_t bench_rng_next(struct bench_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double bench_rng_uniform(struct bench_rng *rng)
{
	/* 53 random bits, shifted off 0. */
	return ((double)(bench_rng_next(rng) >> 11) + 1.0) / 9007199254740992.0;
}

double bench_rng_exp(struct bench_rng *rng, double rate)
{
	return -log(bench_rng_uniform(rng)) / rate;
}

size_t bench_prompt(uint64_t seed, long index, int words, char *buf, size_t size)
{
	static const char *const vocab[] = {
		"vector", "register", "kernel", "thread", "switch", "context", "river", "stone",
		"cloud", "signal", "number", "garden", "lamp", "window", "engine", "story",
	};
	struct bench_rng rng;
	size_t len;
	int n;

	if (size == 0)
		return 0;
	bench_rng_seed(&rng, seed ^ ((uint64_t)index * 0xd1b54a32d192ed03ULL));
	n = snprintf(buf, size, "Request %llu-%ld:", (unsigned long long)seed, index);
	len = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	for (int w = 0; w < words && len + 1 < size; w++) {
		n = snprintf(buf + len, size - len, " %s",
			     vocab[bench_rng_next(&rng) % (sizeof(vocab) / sizeof(vocab[0]))]);
		len = (size_t)n < size - len ? len + (size_t)n : size - 1;
	}
	return len;
}
