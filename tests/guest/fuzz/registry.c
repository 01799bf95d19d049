// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz, registry.c: the registry of interfaces and its callers, one per
 * CPU, each drawing calls by weight; the module's hint events sampled as
 * coverage.
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

const struct iface registry[] = {
	{ "ioctl-edges",	CAT_IOCTL,	30, ioctl_edges },
	{ "ioctl-random",	CAT_IOCTL,	10, ioctl_random_bytes },
	{ "ioctl-misencoded",	CAT_IOCTL,	 8, ioctl_misencoded },
	{ "ioctl-unknown",	CAT_IOCTL,	 4, ioctl_unknown },
	{ "ioctl-bad-pointer",	CAT_IOCTL,	10, ioctl_bad_pointer },
	{ "netlink-request",	CAT_NETLINK,	18, nl_request },
	{ "netlink-malformed",	CAT_NETLINK,	10, nl_malformed },
	{ "netlink-cut-dump",	CAT_NETLINK,	 4, nl_cut_dump },
	{ "debugfs-read",	CAT_DEBUGFS,	12, debugfs_read },
	{ "debugfs-write",	CAT_DEBUGFS,	 4, debugfs_write },
};
_Static_assert(ARRAY_SIZE(registry) == NR_IFACES, "NR_IFACES: the registry's size");

static const struct iface *pick_iface(struct ctx *c)
{
	unsigned int total = 0, r, i;

	for (i = 0; i < ARRAY_SIZE(registry); i++)
		total += registry[i].weight;
	r = below(c, total);
	for (i = 0; r >= registry[i].weight; i++)
		r -= registry[i].weight;
	return &registry[i];
}

/*
 * The module's own counters as coverage: which hint outcomes (set, applied,
 * refused for each reason, ...) the calls reached. A reset zeroes them, so
 * they are sampled as the calls go.
 */
void hint_events_sample(void)
{
	struct rvvstat_snapshot s = { .size = sizeof(s) };
	unsigned int i;

	if (ioctl(env.dev[0], RVVSTAT_IOC_SNAPSHOT, &s))
		return;
	for (i = 0; i < s.nr_hint_events && i < RVVSTAT_MAX_HINT_EVENTS; i++)
		if (s.hint_events[i])
			__atomic_fetch_or(&shared->hint_events_seen, 1ULL << i, __ATOMIC_RELAXED);
}

static void run_registry(struct ctx *c)
{
	static int slow_printed;
	const struct iface *f;
	uint64_t t;
	int err;

	while (budget_take()) {
		f = pick_iface(c);
		c->desc[0] = '\0';
		t = now_ns();
		err = f->call(c);
		t = now_ns() - t;
		/* The outliers by name: what a profile of the phase would miss. */
		if (t > SLOW_MS * MS && slow_printed++ < 20)
			printf("soak-fuzz: slow %llu ms: %s\n", (unsigned long long)(t / MS), c->desc);
		__atomic_fetch_add(&shared->iface_ns[f - registry], t, __ATOMIC_RELAXED);
		__atomic_fetch_add(&shared->iface_calls[f - registry], 1, __ATOMIC_RELAXED);
		record(c, f->cat, err);
		if (c->nobody && c->ncalls % CHECK_EVERY == 0) {
			victims_check(c);
			reset_check(c);
		}
		if (!c->nobody && c->ncalls % 500 == 0 && gettid() == getpid())
			dead_refresh();
		if (c->ncalls % 20 == 0)
			hint_events_sample();
	}
}

static void *registry_thread(void *arg)
{
	struct ctx *c = arg;

	current_ctx = c;
	run_registry(c);
	nl_drop(c);
	return NULL;
}

/*
 * The registry from a caller per CPU, @c one of them: a call is a syscall or
 * two of a KASAN kernel under TCG, CPU-bound, so one caller leaves the other
 * CPUs idle. Each caller's choices replay from the seed; their interleaving
 * does not.
 */
void run_registry_parallel(struct ctx *c)
{
	static struct ctx ctxs[MAX_CALLERS - 1];
	static pthread_t threads[MAX_CALLERS - 1];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int i, n = cpus < 1 ? 0 : cpus > MAX_CALLERS ? MAX_CALLERS - 1 : cpus - 1;

	for (i = 0; i < n; i++) {
		ctx_init(&ctxs[i], 200 + 2 * i + c->nobody, c->nobody);
		ctxs[i].last_elapsed = c->last_elapsed;
		if (pthread_create(&threads[i], NULL, registry_thread, &ctxs[i]))
			break;
	}
	n = i;
	current_ctx = c;
	run_registry(c);
	for (i = 0; i < n; i++)
		if (join_within(threads[i], 31000))
			failure("caller thread %d did not end", i + 1);
}
