// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz, ioctl.c: the ioctls of /dev/rvvstat: every number at its edges,
 * random bytes, misencoded sizes and directions, unknown numbers and bad
 * pointers.
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

static pid_t pick_target(struct ctx *c)
{
	static const pid_t odd[] = { -1, INT_MIN, INT_MAX, 0x40000000 };

	switch (below(c, 12)) {
	case 0: case 1:
		return 0;
	case 2: case 3:
		return env.nown ? env.own[below(c, env.nown)] : 0;
	case 4: case 5: case 6:
		return env.nothers ? env.others[below(c, env.nothers)] : 1;
	case 7:
		return 1;
	case 8:
		return 2;	/* kthreadd */
	case 9:
		return env.dead[below(c, NR_DEAD)];
	case 10:
		return PICK(c, odd);
	default:
		return 1 + below(c, env.pid_max);
	}
}

/* ---- ioctls ---- */

const struct ioc iocs[] = {
	{ "GET_INFO", RVVSTAT_IOC_GET_INFO, sizeof(struct rvvstat_info) },
	{ "SET_HINT", RVVSTAT_IOC_SET_HINT, sizeof(struct rvvstat_hint) },
	{ "GET_HINT", RVVSTAT_IOC_GET_HINT, sizeof(struct rvvstat_hint) },
	{ "CLEAR_HINT", RVVSTAT_IOC_CLEAR_HINT, sizeof(struct rvvstat_hint) },
	{ "GET_TASK_STATS", RVVSTAT_IOC_GET_TASK_STATS, sizeof(struct rvvstat_task_stats) },
	{ "SNAPSHOT", RVVSTAT_IOC_SNAPSHOT, sizeof(struct rvvstat_snapshot) },
	{ "RESET", RVVSTAT_IOC_RESET, 0 },
};
_Static_assert(ARRAY_SIZE(iocs) == NR_IOC_CMDS, "NR_IOC_CMDS: the ioctls' number");

static const struct ioc *pick_ioc(struct ctx *c, bool with_arg)
{
	const struct ioc *k = &iocs[below(c, ARRAY_SIZE(iocs))];

	/* RESET stops every CPU, and ignores its argument. */
	if (!k->size && (with_arg || !reset_due(c)))
		k = &iocs[1 + below(c, 3)];
	return k;
}

/* A CPU mask: a non-empty subset of the allowed CPUs, or (!@valid) odd ones. */
void fill_mask(struct ctx *c, uint8_t *mask, size_t cap, bool valid)
{
	unsigned int cpu, n = env.nr_cpu_ids, set = 0;

	memset(mask, 0, cap);
	switch (valid ? 9 : below(c, 10)) {
	case 0:
		return;		/* empty */
	case 1:
		memset(mask, 0xff, cap);
		return;
	case 2:			/* the first CPU number past nr_cpu_ids */
		if (n / 8 < cap)
			mask[n / 8] |= 1 << (n % 8);
		return;
	case 3:
		rnd_fill(c, mask, 8 + below(c, 120));
		return;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && cpu / 8 < cap; cpu++)
		if (CPU_ISSET(cpu, &env.allowed) && (chance(c, 60) || !set++))
			mask[cpu / 8] |= 1 << (cpu % 8);
}

static const uint32_t policies[] = {
	SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR,
	SCHED_DEADLINE, 4, 7, UINT32_MAX,
};
static const int32_t nices[] = { 0, 0, 1, -1, 5, 19, -20, 20, -21, INT32_MAX, INT32_MIN };
static const uint32_t rt_prios[] = { 0, 1, 2, 10, 98, 99, 100, UINT32_MAX };
static const uint64_t dl_times[] = {
	0, 1023, 1024, 100000, 1000000, 10000000, 100000000, 4000000000ULL,
	INT64_MAX, UINT64_MAX,
};
static const uint32_t mask_sizes[] = {
	sizeof(cpu_set_t), sizeof(cpu_set_t), 8, 8, 1, 0, 4, 4096, 8192, 8193, UINT32_MAX,
};

static void fill_policy(struct ctx *c, struct rvvstat_hint *h, bool valid)
{
	h->policy = valid ? policies[below(c, 6)] : chance(c, 90) ? PICK(c, policies) : edge32(c);
	if (h->policy == SCHED_FIFO || h->policy == SCHED_RR) {
		h->rt_priority = valid ? 1 + below(c, 99) : PICK(c, rt_prios);
	} else if (h->policy == SCHED_DEADLINE && valid) {
		h->dl_runtime = (1 + below(c, 3)) * MS;
		h->dl_deadline = 10 * MS;
		h->dl_period = chance(c, 50) ? 0 : 10 * MS;
	} else if (h->policy == SCHED_DEADLINE) {
		h->dl_runtime = PICK(c, dl_times);
		h->dl_deadline = PICK(c, dl_times);
		h->dl_period = chance(c, 50) ? 0 : PICK(c, dl_times);
	} else if (h->policy != SCHED_IDLE || !valid) {
		h->nice = valid ? (int)below(c, 40) - 20 : PICK(c, nices);
	}
	if (!valid && chance(c, 10)) {	/* fields the policy does not take */
		h->nice = PICK(c, nices);
		h->rt_priority = PICK(c, rt_prios);
		h->dl_period = PICK(c, dl_times);
	}
}

/*
 * A deadline hint the module accepts with a tiny runtime would starve the
 * thread it lands on: root's own, or one it must reap. Root gets 1/4 of the
 * period at least; what validation refuses anyway stays as it is.
 */
static void tame_deadline(struct rvvstat_hint *h)
{
	uint64_t span = h->dl_period ? h->dl_period : h->dl_deadline;

	if (h->policy != SCHED_DEADLINE || h->dl_runtime < 1024 ||
	    h->dl_deadline < h->dl_runtime ||
	    (h->dl_period && h->dl_period < h->dl_deadline))
		return;
	if (h->dl_runtime < span / 4)
		h->dl_runtime = span / 4;
}

/* Hint fields at their edges; 40 % valid, to reach the hint table. */
static void fill_hint(struct ctx *c, struct rvvstat_hint *h, unsigned long nr)
{
	bool valid = chance(c, 40);

	h->target = pick_target(c);
	if (nr == RVVSTAT_IOC_SET_HINT && valid)
		h->flags = (1 + below(c, 3)) << 1 |
			   (chance(c, 30) ? RVVSTAT_HINT_PROCESS : 0) |
			   (chance(c, 30) ? RVVSTAT_HINT_ON_VECTOR_USE : 0);
	else if (nr == RVVSTAT_IOC_SET_HINT)
		h->flags = chance(c, 70) ? below(c, 16) :
			   chance(c, 50) ? 1U << below(c, 32) : edge32(c);
	else
		h->flags = valid || chance(c, 85) ?
			   (chance(c, 50) ? RVVSTAT_HINT_PROCESS : 0) : edge32(c);
	if (nr != RVVSTAT_IOC_CLEAR_HINT &&
	    ((h->flags & RVVSTAT_HINT_CPUS) || nr == RVVSTAT_IOC_GET_HINT || chance(c, 10))) {
		fill_mask(c, page_at(c, PG_CPUS), 2 * env.page, valid);
		h->cpus = (uintptr_t)hostile(c, page_at(c, PG_CPUS), page_at(c, PG_GUARD2),
					     sizeof(cpu_set_t), valid ? 100 : 75);
		h->cpus_size = valid ? sizeof(cpu_set_t) :
			       chance(c, 85) ? PICK(c, mask_sizes) : edge32(c);
	}
	if ((h->flags & RVVSTAT_HINT_POLICY) || (!valid && chance(c, 10)))
		fill_policy(c, h, valid);
	if (!c->nobody)
		tame_deadline(h);
	if (!valid && chance(c, 5)) {	/* output fields set on input */
		h->applied = edge32(c);
		h->last_error = (int32_t)edge32(c);
	}
}

/* A valid-looking argument of @k in the argument page; the bytes that count. */
static size_t build_arg(struct ctx *c, const struct ioc *k, uint8_t *arg)
{
	const uint64_t sizes[] = {
		k->size + 8, 4096, 0, 1, 8, k->size - 1, 4097, UINT64_MAX,
		1ULL << 32 | k->size,
	};
	uint64_t size = chance(c, 75) ? k->size : chance(c, 90) ? PICK(c, sizes) : rnd(c);
	size_t used = size > k->size && size <= env.page ? size : k->size;

	memset(arg, 0, env.page);
	if (k->size == sizeof(struct rvvstat_hint))
		fill_hint(c, (struct rvvstat_hint *)arg, k->nr);
	else if (k->nr == RVVSTAT_IOC_GET_TASK_STATS)
		((struct rvvstat_task_stats *)arg)->tid = pick_target(c);
	else if (chance(c, 10))	/* garbage where only output goes */
		rnd_fill(c, arg + 8, k->size - 8);
	memcpy(arg, &size, sizeof(size));
	/* A field this module does not know, set: E2BIG. */
	if (used > k->size && chance(c, 20))
		arg[k->size + below(c, used - k->size)] = 1 + below(c, 255);
	return used;
}

static void describe_ioctl(struct ctx *c, const char *how, const struct ioc *k,
			   unsigned long nr, const uint8_t *arg, const void *where)
{
	const struct rvvstat_hint *h = (const void *)arg;
	uint64_t size;

	memcpy(&size, arg, sizeof(size));
	if (k->size == sizeof(*h))
		describe(c, "ioctl %s %s nr %#lx arg %p size %llu target %d flags %#x "
			 "policy %u/%d/%u/%llu cpus %#llx/%u", how, k->name, nr, where,
			 (unsigned long long)size, h->target, h->flags, h->policy, h->nice,
			 h->rt_priority, (unsigned long long)h->dl_runtime,
			 (unsigned long long)h->cpus, h->cpus_size);
	else
		describe(c, "ioctl %s %s nr %#lx arg %p size %llu", how, k->name, nr,
			 where, (unsigned long long)size);
}

/* The module matches the number without its size: so does the count. */
static int ioc_cmd(unsigned long nr)
{
	unsigned int i;

	for (i = 0; i < NR_IOC_CMDS; i++)
		if (CMD_OF(nr) == CMD_OF(iocs[i].nr))
			return i;
	return CMD_IOC_UNKNOWN;
}

/* An ioctl on one of the device's fds; 0 or its errno. */
int counted_ioctl(struct ctx *c, int fd, unsigned long nr, void *arg)
{
	c->cmd = ioc_cmd(nr);
	return ioctl(fd, nr, arg) < 0 ? errno : 0;
}

static int fuzz_dev_ioctl(struct ctx *c, unsigned long nr, void *arg)
{
	return counted_ioctl(c, env.dev[below(c, NR_DEV_FDS)], nr, arg);
}

/*
 * After an ioctl with the argument @arg held: root puts back its own thread,
 * which a hint may have pinned or made real-time; nobody's success at
 * changing another owner's hints, or at a reset, is a finding.
 */
static void after_ioctl(struct ctx *c, unsigned long nr, const uint8_t *arg, int err)
{
	const struct rvvstat_hint *h = (const void *)arg;
	unsigned long cmd = CMD_OF(nr);
	long euid;

	if (!c->nobody) {
		if (cmd == CMD_OF(RVVSTAT_IOC_SET_HINT))
			sched_normal(0);
		return;
	}
	if (err)
		return;
	if (cmd == CMD_OF(RVVSTAT_IOC_RESET))
		finding(c, "nobody's RESET ioctl succeeded");
	if ((cmd == CMD_OF(RVVSTAT_IOC_SET_HINT) || cmd == CMD_OF(RVVSTAT_IOC_CLEAR_HINT)) &&
	    h->target > 0 && (euid = euid_of(h->target)) >= 0 && euid != NOBODY)
		finding(c, "nobody's hint ioctl %#lx on task %d (euid %ld) succeeded",
			nr, h->target, euid);
}

/* Every known number with a valid-looking argument, fields at their edges. */
int ioctl_edges(struct ctx *c)
{
	const struct ioc *k = pick_ioc(c, false);
	uint8_t *arg = page_at(c, PG_ARG);
	void *where = arg;
	int err;

	if (k->size)
		build_arg(c, k, arg);
	else
		where = (void *)(uintptr_t)edge64(c);
	describe_ioctl(c, "edges", k, k->nr, arg, where);
	err = fuzz_dev_ioctl(c, k->nr, where);
	after_ioctl(c, k->nr, arg, err);
	return err;
}

/* Random bytes; half the time with the size that gets past the size check. */
int ioctl_random_bytes(struct ctx *c)
{
	const struct ioc *k = pick_ioc(c, true);
	uint8_t *arg = page_at(c, PG_ARG);
	uint64_t size = k->size;
	int err;

	rnd_fill(c, arg, env.page);
	if (chance(c, 50))
		memcpy(arg, &size, sizeof(size));
	describe_ioctl(c, "random", k, k->nr, arg, arg);
	err = fuzz_dev_ioctl(c, k->nr, arg);
	after_ioctl(c, k->nr, arg, err);
	return err;
}

/* The known numbers with a wrong size, a wrong direction, or both. */
int ioctl_misencoded(struct ctx *c)
{
	const struct ioc *k = pick_ioc(c, false);
	uint8_t *arg = page_at(c, PG_ARG);
	unsigned long nr = k->nr, dir = _IOC_DIR(nr), size = _IOC_SIZE(nr);
	int err, how = below(c, 3);

	if (k->size)
		build_arg(c, k, arg);
	if (how != 1)
		size = (chance(c, 50) ? rnd(c) : PICK(c, edges64)) & _IOC_SIZEMASK;
	if (how != 0)
		dir = (dir + 1 + below(c, 3)) & _IOC_DIRMASK;
	nr = _IOC(dir, RVVSTAT_IOC_MAGIC, _IOC_NR(nr), size);
	describe_ioctl(c, "misencoded", k, nr, arg, arg);
	err = fuzz_dev_ioctl(c, nr, arg);
	after_ioctl(c, nr, arg, err);
	return err;
}

/* Numbers the module does not have: its magic with other numbers, or VFS ones. */
int ioctl_unknown(struct ctx *c)
{
	static const unsigned long generic[] = {
		FIONREAD, FIONBIO, FIOCLEX, FIOASYNC, TCGETS, 0, ~0UL,
	};
	uint8_t *arg = page_at(c, PG_ARG);
	unsigned long nr;

	rnd_fill(c, arg, env.page);
	if (chance(c, 75))
		nr = _IOC(below(c, 4), RVVSTAT_IOC_MAGIC,
			  chance(c, 10) ? 0 : 8 + below(c, 248), below(c, _IOC_SIZEMASK + 1));
	else
		nr = chance(c, 50) ? PICK(c, generic) : (uint32_t)rnd(c);
	/* FIONCLEX would hand the device to exec'd children. */
	if (nr == FIONCLEX)
		nr = FIOCLEX;
	describe(c, "ioctl unknown nr %#lx", nr);
	return fuzz_dev_ioctl(c, nr, arg);
}

/* Arguments at NULL, no access, read-only, across a guard, unmapped. */
int ioctl_bad_pointer(struct ctx *c)
{
	const struct ioc *k = pick_ioc(c, true);
	uint8_t *arg = page_at(c, PG_ARG), *ro = page_at(c, PG_RO);
	size_t used = build_arg(c, k, arg), tail;
	struct rvvstat_hint sent;	/* the moves below may overwrite @arg */
	void *where;
	int err;

	memcpy(&sent, arg, sizeof(sent));
	switch (below(c, 6)) {
	case 0:
		where = NULL;
		break;
	case 1:
		where = page_at(c, PG_GUARD1);
		break;
	case 2:		/* the kernel reads it and cannot write back */
		mprotect(ro, env.page, PROT_READ | PROT_WRITE);
		memcpy(ro, arg, used);
		mprotect(ro, env.page, PROT_READ);
		where = ro;
		break;
	case 3:		/* its first @tail bytes before the guard */
		tail = chance(c, 70) ? 8 + below(c, used - 8) : 1 + below(c, used - 1);
		memmove(arg + env.page - tail, arg, tail);
		where = arg + env.page - tail;
		break;
	case 4:
		where = (void *)(uintptr_t)0xffffffffff600000ULL;
		break;
	default:
		where = (void *)(uintptr_t)(1ULL << 46 | (rnd(c) & 0xfffff000));
	}
	describe_ioctl(c, "bad-pointer", k, k->nr, (uint8_t *)&sent, where);
	err = fuzz_dev_ioctl(c, k->nr, where);
	after_ioctl(c, k->nr, (uint8_t *)&sent, err);
	return err;
}
