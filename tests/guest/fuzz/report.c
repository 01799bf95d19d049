// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz, report.c: what the calls leave: each one counted with its
 * outcome, a finding or a helper's failure, and the closing report (per phase,
 * interface, command and hint event).
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

static const char *const category_names[NR_CATS] = {
	"ioctl", "netlink", "debugfs", "race", "nobody"
};
char fail_reason[160];

static const char *errno_name(int slot, char buf[16])
{
	const char *name = slot > 0 && slot < ERR_OTHER ? strerrorname_np(slot) : NULL;

	if (!slot)
		return "ok";
	if (slot == ERR_NOREPLY)
		return "noreply";
	if (slot == ERR_OTHER)
		return "other";
	if (name)
		return name;
	snprintf(buf, 16, "E%d", slot);
	return buf;
}

void __attribute__((format(printf, 2, 3)))
describe(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->desc, DESC, fmt, ap);
	va_end(ap);
}

/* Counts a call and its outcome: 0, an errno, or ERR_NOREPLY. */
void record(struct ctx *c, enum category cat, int err)
{
	int slot = err == ERR_NOREPLY ? err : err < 0 || err >= ERR_OTHER ? ERR_OTHER : err;
	char name[16];

	__atomic_fetch_add(&shared->calls[c->nobody ? CAT_NOBODY : cat], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&shared->errnos[slot], 1, __ATOMIC_RELAXED);
	if (c->cmd != CMD_NONE) {
		__atomic_fetch_add(&shared->cmds[c->cmd].calls, 1, __ATOMIC_RELAXED);
		__atomic_fetch_or(&shared->cmds[c->cmd].errnos[slot / 64], 1ULL << (slot % 64),
				  __ATOMIC_RELAXED);
		c->cmd = CMD_NONE;
	}
	if (c->nobody)
		snprintf(c->log[c->ncalls % CHECK_EVERY], DESC, "%.160s = %.24s", c->desc,
			 errno_name(slot, name));
	c->ncalls++;
}

/* A privilege escalation (or a reset nobody made): fails the run. */
void __attribute__((format(printf, 2, 3)))
finding(struct ctx *c, const char *fmt, ...)
{
	unsigned long n, first;
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	__atomic_fetch_add(&shared->findings, 1, __ATOMIC_RELAXED);
	printf("soak: finding: %s\n", what);
	printf("soak:   after: %s\n", c->desc);
	first = c->ncalls > CHECK_EVERY ? c->ncalls - CHECK_EVERY : 0;
	for (n = first; c->nobody && n < c->ncalls; n++)
		printf("soak:   call %lu: %s\n", n, c->log[n % CHECK_EVERY]);
	fflush(stdout);
}

/* A helper that crashed or hung: not a finding, but the run fails. */
void __attribute__((format(printf, 1, 2))) failure(const char *fmt, ...)
{
	char what[sizeof(fail_reason)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	__atomic_fetch_add(&shared->failures, 1, __ATOMIC_RELAXED);
	if (!fail_reason[0])
		memcpy(fail_reason, what, sizeof(what));
	printf("soak: failure: %s\n", what);
	fflush(stdout);
}

void usage_now(struct usage *u)
{
	unsigned long long v[8] = { 0 };
	struct rusage self, children;
	char buf[256];

	u->wall_ns = now_ns();
	u->calls = __atomic_load_n(&shared->used, __ATOMIC_RELAXED);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	if (read_file("/proc/stat", buf, sizeof(buf)) > 0)
		sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		       &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	u->user_ns = (self.ru_utime.tv_sec + children.ru_utime.tv_sec) * 1000000000ULL +
		     (self.ru_utime.tv_usec + children.ru_utime.tv_usec) * 1000ULL;
	u->sys_ns = (self.ru_stime.tv_sec + children.ru_stime.tv_sec) * 1000000000ULL +
		    (self.ru_stime.tv_usec + children.ru_stime.tv_usec) * 1000ULL;
	u->total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	u->busy = u->total - v[3] - v[4];
}

void usage_print(const char *phase, const struct usage *a, const struct usage *b)
{
	uint64_t wall = b->wall_ns - a->wall_ns ?: 1;
	unsigned long calls = b->calls - a->calls;

	printf("soak: phase %s calls %lu wall_ms %llu calls_per_s %llu fuzzer_user_ms %llu "
	       "fuzzer_sys_ms %llu guest_busy_pct %llu\n", phase, calls,
	       (unsigned long long)(wall / MS), (unsigned long long)(calls * 1000000000ULL / wall),
	       (unsigned long long)((b->user_ns - a->user_ns) / MS),
	       (unsigned long long)((b->sys_ns - a->sys_ns) / MS),
	       b->total > a->total ? (b->busy - a->busy) * 100 / (b->total - a->total) : 0);
}

static void cmd_name(int i, char *buf, size_t size)
{
	static const char *const nl_names[] = {
		"UNSPEC", "GET_INFO", "GET_SUMMARY", "GET_CPUS", "GET_TASKS", "GET_HIST", "RESET",
	};
	_Static_assert(ARRAY_SIZE(nl_names) == RVVSTAT_CMD_MAX + 1, "a name per command");

	if (i < NR_IOC_CMDS)
		snprintf(buf, size, "ioctl %s", iocs[i].name);
	else if (i == CMD_IOC_UNKNOWN)
		snprintf(buf, size, "ioctl unknown");
	else if (i < CMD_NL_OTHER)
		snprintf(buf, size, "netlink %s", nl_names[i - CMD_NL]);
	else if (i == CMD_NL_OTHER)
		snprintf(buf, size, "netlink other");
	else
		snprintf(buf, size, "debugfs %s %s", (i - CMD_DEBUGFS) % 2 ? "write" : "read",
			 env.files[(i - CMD_DEBUGFS) / 2].name);
}

/*
 * Per command its calls and the errnos it gave. Every command must have been
 * called, every debugfs file read and each writable one written: else the
 * run has not covered what it claims.
 */
static void report_commands(void)
{
	char name[48], err[16], list[512];
	const struct cmd_stat *s;
	int i, slot, distinct;
	size_t len;

	for (i = 0; i < CMD_DEBUGFS + 2 * env.nfiles; i++) {
		s = &shared->cmds[i];
		cmd_name(i, name, sizeof(name));
		len = 0;
		list[0] = '\0';
		for (slot = distinct = 0; slot < ERRNO_SLOTS; slot++) {
			if (!(s->errnos[slot / 64] & 1ULL << (slot % 64)))
				continue;
			distinct++;
			if (len < sizeof(list) - 20)
				len += snprintf(list + len, sizeof(list) - len, " %s",
						errno_name(slot, err));
		}
		printf("soak: command %s calls %lu errnos %d:%s\n", name, s->calls, distinct, list);
		if (!s->calls && (i < CMD_DEBUGFS || !((i - CMD_DEBUGFS) % 2) ||
				  env.files[(i - CMD_DEBUGFS) / 2].wfd >= 0))
			failure("%s was never called", name);
	}
}

static void report_hint_events(void)
{
	static const char *const names[] = RVVSTAT_HINT_EVENT_NAMES;
	char list[256] = "";
	size_t len = 0;
	unsigned int i, n = 0;

	hint_events_sample();
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!(shared->hint_events_seen & 1ULL << i))
			continue;
		n++;
		len += snprintf(list + len, sizeof(list) - len, " %s", names[i]);
	}
	printf("soak: coverage hint_events %u of %zu:%s\n", n, ARRAY_SIZE(names), list);
}

int report(void)
{
	char name[16];
	int i, distinct = 0;

	for (i = 0; i < NR_CATS; i++)
		printf("soak: calls %s %lu\n", category_names[i], shared->calls[i]);
	for (i = 0; i < NR_IFACES; i++)
		printf("soak: iface %s calls %lu us_per_call %lu\n", registry[i].name,
		       shared->iface_calls[i],
		       shared->iface_ns[i] / 1000 / (shared->iface_calls[i] ?: 1));
	report_commands();
	report_hint_events();
	for (i = 0; i < ERRNO_SLOTS; i++)
		distinct += !!shared->errnos[i];
	printf("soak: errnos distinct %d\n", distinct);
	for (i = 0; i < ERRNO_SLOTS; i++)
		if (shared->errnos[i])
			printf("soak: errno %s %lu\n", errno_name(i, name), shared->errnos[i]);
	printf("soak: findings %lu\n", shared->findings);
	if (!fail_reason[0] && shared->findings)
		snprintf(fail_reason, sizeof(fail_reason), "%lu findings", shared->findings);
	if (!fail_reason[0] && shared->failures)
		snprintf(fail_reason, sizeof(fail_reason), "%lu helper failures",
			 shared->failures);
	if (fail_reason[0])
		printf("soak-fuzz: FAIL (%s)\n", fail_reason);
	else
		printf("soak-fuzz: PASS\n");
	fflush(stdout);
	return fail_reason[0] ? 1 : 0;
}
