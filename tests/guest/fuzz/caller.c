// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz, caller.c: a caller's frame: its PRNG and edge values, the budget
 * of calls it draws from, hostile argument pointers, and the pacing of what
 * stops the machine.
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

__thread struct ctx *current_ctx;

uint8_t *page_at(struct ctx *c, int i)
{
	return c->pages + i * env.page;
}

uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

void sleep_ns(uint64_t ns)
{
	struct timespec t = { ns / 1000000000ULL, ns % 1000000000ULL };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

void sleep_ms(unsigned int ms)
{
	sleep_ns(ms * MS);
}

/* splitmix64: one stream per thread, from SEED and the thread's number. */
uint64_t mix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t rnd(struct ctx *c)
{
	return mix64(&c->rng);
}

uint32_t below(struct ctx *c, uint32_t n)
{
	return n ? (uint32_t)(rnd(c) % n) : 0;
}

bool chance(struct ctx *c, unsigned int percent)
{
	return below(c, 100) < percent;
}

/* Eight bytes a draw: a page took 160 to 260 us byte by byte under TCG, 8 to 40 so. */
void rnd_fill(struct ctx *c, void *buf, size_t len)
{
	uint8_t *p = buf;
	uint64_t r;

	for (; len >= 8; len -= 8, p += 8) {
		r = rnd(c);
		memcpy(p, &r, 8);
	}
	r = rnd(c);
	memcpy(p, &r, len);
}

const uint64_t edges64[] = {
	0, 1, 2, 7, 8, 4095, 4096, 4097, INT32_MAX, (uint64_t)INT32_MAX + 1,
	UINT32_MAX, (uint64_t)UINT32_MAX + 1, INT64_MAX, (uint64_t)INT64_MAX + 1,
	UINT64_MAX,
};
_Static_assert(ARRAY_SIZE(edges64) == NR_EDGES64, "NR_EDGES64: the edges' number");

uint64_t edge64(struct ctx *c)
{
	return chance(c, 80) ? PICK(c, edges64) : rnd(c);
}

uint32_t edge32(struct ctx *c)
{
	return (uint32_t)edge64(c);
}

void ctx_init(struct ctx *c, uint64_t stream, bool nobody)
{
	memset(c, 0, sizeof(*c));
	c->rng = cfg.seed ^ (stream * 0xd1342543de82ef95ULL);
	mix64(&c->rng);
	c->nobody = nobody;
	c->nl_fd = -1;
	c->cmd = CMD_NONE;
	c->seq = (uint32_t)stream << 24;
	c->io = calloc(1, IO_BUF);
	c->nl = calloc(1, NL_BUF);
	if (!c->io || !c->nl)
		die_with(1, "soak-fuzz", "calloc", ENOMEM);
	c->pages = mmap(NULL, NR_PAGES * env.page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->pages == MAP_FAILED ||
	    mprotect(page_at(c, PG_GUARD1), env.page, PROT_NONE) ||
	    mprotect(page_at(c, PG_GUARD2), env.page, PROT_NONE) ||
	    mprotect(page_at(c, PG_RO), env.page, PROT_READ))
		die_with(1, "soak-fuzz", "hazard pages", errno);
	current_ctx = c;
}

/* Takes one call from the current phase's budget; false once it is spent. */
bool budget_take(void)
{
	unsigned long used = __atomic_load_n(&shared->used, __ATOMIC_RELAXED);

	if (now_ns() >= phase_end_ns)
		return false;
	do {
		if (used >= phase_calls_end)
			return false;
	} while (!__atomic_compare_exchange_n(&shared->used, &used, used + 1, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

bool budget_left(void)
{
	return now_ns() < phase_end_ns &&
	       __atomic_load_n(&shared->used, __ATOMIC_RELAXED) < phase_calls_end;
}

/*
 * @good mostly; else NULL, no access, read-only, across a guard, unmapped,
 * or kernel. Never a random user address: the kernel may write there.
 */
void *hostile(struct ctx *c, void *good, uint8_t *guard, size_t len,
	      unsigned int percent_good)
{
	if (chance(c, percent_good))
		return good;
	switch (below(c, 7)) {
	case 0:
		return NULL;
	case 1:
		return guard;
	case 2:
		return page_at(c, PG_RO);
	case 3:	/* the last bytes before the guard: a copy runs into it */
		return guard - 1 - below(c, len < env.page ? len : env.page - 1);
	case 4:
		return (void *)(uintptr_t)0xffffffffff600000ULL;
	case 5:
		return (void *)(uintptr_t)(1ULL << 46 | (rnd(c) & 0xfffff000));
	default:
		return (void *)(uintptr_t)(rnd(c) | 1ULL << 63);
	}
}

/*
 * True once every @every_ms across all callers: for what stops the machine.
 * A reset (stop_machine) takes both CPUs for 80 ms under KASAN and TCG, a
 * calibration one for 1.6 s: at the share of calls chance gives them they
 * took most of the run. Nobody's are refused, cheap, and not limited.
 */
bool due(struct ctx *c, uint64_t *last, unsigned int every_ms)
{
	uint64_t now = now_ns(), seen = __atomic_load_n(last, __ATOMIC_RELAXED);

	if (c->nobody)
		return true;
	if (seen && now - seen < every_ms * MS)
		return false;
	return __atomic_compare_exchange_n(last, &seen, now, false, __ATOMIC_RELAXED,
					   __ATOMIC_RELAXED);
}

static uint64_t last_reset;

bool reset_due(struct ctx *c)
{
	return due(c, &last_reset, RESET_EVERY_MS);
}
