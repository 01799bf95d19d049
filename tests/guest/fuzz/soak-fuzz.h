/* SPDX-License-Identifier: GPL-2.0 */
/*
 * soak-fuzz's pieces share this: its bounds, the state of a caller and of
 * the run, and what each file gives the others (soak-fuzz.c says what the
 * fuzzer does).
 */
#ifndef SOAK_FUZZ_H
#define SOAK_FUZZ_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rvvstat.h>
#include <linux/sched.h>

#include "device.h"
#include "genl-raw.h"
#include "guest-util.h"
#include "parked.h"
#include "vector-arch.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

#define NOBODY		65534
#define NR_DEV_FDS	4
#define NR_WORKERS	2	/* parked threads of this process; [1] late */
#define NR_TARGETS	4	/* threads of the target process; [3] late */
#define MAX_VICTIMS	(NR_WORKERS + NR_TARGETS + 2)
#define NR_DEAD		6
#define MAX_FILES	16
#define SLOW_MS		250	/* a call this long is named */
#define CALIBRATE_EVERY_MS 20000
#define RESET_EVERY_MS	1000
#define MAX_CALLERS	4	/* threads of the fuzz and nobody phases */
#define CHECK_EVERY	50	/* nobody's calls between victim checks */
#define DESC		192
#define IO_BUF		65536
#define NL_BUF		65536
#define NL_MSG		4096
#define ERRNO_SLOTS	600	/* past 512: kernel-internal errnos that leak */
#define ERR_OTHER	(ERRNO_SLOTS - 2)
#define ERR_NOREPLY	(ERRNO_SLOTS - 1)	/* netlink: nothing came back */
#define REAP_MS		10000
#define UNLOAD_MS	10000
#define MS		1000000ULL
#define CGROUP_ROOT	"/sys/fs/cgroup"
#define CGROUP_SOAK	CGROUP_ROOT "/soak-fuzz"
#define EXEC_PROBE	"/bin/exec-probe"
/* What the module matches: the number without its size. */
#define NR_IFACES	10	/* the registry's entries */
#define CMD_OF(nr)	((unsigned long)(nr) & ~(unsigned long)IOCSIZE_MASK)

enum category { CAT_IOCTL, CAT_NETLINK, CAT_DEBUGFS, CAT_RACE, CAT_NOBODY, NR_CATS };

/*
 * The commands counted apart: each ioctl and one slot for numbers the module
 * does not have, each generic-netlink command and one for those past the
 * last, then each debugfs file read and written.
 */
#define NR_IOC_CMDS	7
#define CMD_IOC_UNKNOWN	NR_IOC_CMDS
#define CMD_NL		(CMD_IOC_UNKNOWN + 1)
#define CMD_NL_OTHER	(CMD_NL + RVVSTAT_CMD_MAX + 1)
#define CMD_DEBUGFS	(CMD_NL_OTHER + 1)
#define NR_CMDS		(CMD_DEBUGFS + 2 * MAX_FILES)
#define CMD_NONE	(-1)

struct cmd_stat {
	unsigned long calls;
	uint64_t errnos[(ERRNO_SLOTS + 63) / 64];	/* a bit per slot seen */
};

struct victim {
	pid_t tid;
	cpu_set_t cpus;
	struct sched_attr attr;
};

/* Counted by every process of the run: MAP_SHARED, mapped first. */
struct shared {
	unsigned long calls[NR_CATS];
	unsigned long errnos[ERRNO_SLOTS];
	unsigned long findings, failures;
	unsigned long used;		/* calls taken from the budget */
	struct victim victims[MAX_VICTIMS];
	int nvictims;
	unsigned long iface_calls[NR_IFACES], iface_ns[NR_IFACES];
	struct cmd_stat cmds[NR_CMDS];
	uint64_t hint_events_seen;	/* bit per enum rvvstat_hint_event */
};

/* One caller's state: its PRNG, its socket, what it is doing. */
struct ctx {
	uint64_t rng;
	bool nobody;
	int nl_fd;
	uint32_t seq, reset_seq;
	unsigned long ncalls;
	int cmd;			/* of the call being made, or CMD_NONE */
	uint64_t last_elapsed;
	uint64_t burst_start;		/* race threads: pacing */
	unsigned int burst;
	pid_t tids[64], tids_of;	/* race threads: the child's, lately */
	int ntids;
	unsigned int tids_age;
	uint8_t *io, *nl;
	uint8_t *pages;			/* its hazard pages, NR_PAGES of them */
	char desc[DESC];
	char log[CHECK_EVERY][DESC];	/* nobody's last calls, for findings */
};

struct dbg_file {
	char name[64];
	int rfd, wfd;		/* kept open by root, for nobody too */
};

struct cfg {
	uint64_t seed;
	unsigned long calls, seconds;
	const char *params;
};

struct env {
	int dev[NR_DEV_FDS];
	struct dbg_file files[MAX_FILES];
	int nfiles;
	size_t page;
	cpu_set_t allowed;
	unsigned int nr_cpu_ids;
	uint32_t pid_max;
	uint16_t family;
	pid_t own[NR_WORKERS + 3];	/* the caller's own threads */
	int nown;
	pid_t others[MAX_VICTIMS];	/* threads of another process */
	int nothers;
	pid_t dead[NR_DEAD];
	struct sched_attr init_attr;
	cpu_set_t init_cpus;
	bool cpuset;
};

/* Hazard pages for arguments: data, then no access, and one read-only. */
enum { PG_ARG, PG_GUARD1, PG_CPUS, PG_CPUS2, PG_GUARD2, PG_RO, NR_PAGES };

/* Where a phase's time went: the fuzzer's CPU and the whole guest's. */
struct usage {
	uint64_t wall_ns, user_ns, sys_ns;
	unsigned long calls;
	unsigned long long busy, total;	/* /proc/stat ticks of every CPU */
};

#define NR_EDGES64	15	/* edges64[]: values at the edges of a field */
#define PICK(c, a)	((a)[below((c), ARRAY_SIZE(a))])

struct ioc {
	const char *name;
	unsigned long nr;
	size_t size;
};

struct iface {
	const char *name;
	enum category cat;
	unsigned int weight;
	int (*call)(struct ctx *c);	/* 0, an errno, or ERR_NOREPLY */
};

struct nlreq {
	uint8_t b[NL_MSG] __attribute__((aligned(8)));
	size_t len;
};

enum { ATTRS_NONE, ATTRS_CLEAN, ATTRS_RANDOM };

/* soak-fuzz.c */
extern struct cfg cfg;
extern struct env env;
extern struct shared *shared;
extern uint64_t phase_end_ns;		/* the current phase's end */
extern uint64_t phase_share_ns;		/* its own part of -t */
extern unsigned long phase_calls_end;

/* caller.c */
extern __thread struct ctx *current_ctx;
extern const uint64_t edges64[NR_EDGES64];
uint8_t *page_at(struct ctx *c, int i);
uint64_t now_ns(void);
void sleep_ns(uint64_t ns);
void sleep_ms(unsigned int ms);
uint64_t mix64(uint64_t *s);
uint64_t rnd(struct ctx *c);
uint32_t below(struct ctx *c, uint32_t n);
bool chance(struct ctx *c, unsigned int percent);
void rnd_fill(struct ctx *c, void *buf, size_t len);
uint64_t edge64(struct ctx *c);
uint32_t edge32(struct ctx *c);
void ctx_init(struct ctx *c, uint64_t stream, bool nobody);
bool budget_take(void);
bool budget_left(void);
void *hostile(struct ctx *c, void *good, uint8_t *guard, size_t len,
	      unsigned int percent_good);
bool due(struct ctx *c, uint64_t *last, unsigned int every_ms);
bool reset_due(struct ctx *c);

/* report.c */
extern char fail_reason[160];
void __attribute__((format(printf, 2, 3)))
describe(struct ctx *c, const char *fmt, ...);
void record(struct ctx *c, enum category cat, int err);
void __attribute__((format(printf, 2, 3)))
finding(struct ctx *c, const char *fmt, ...);
void __attribute__((format(printf, 1, 2))) failure(const char *fmt, ...);
void usage_now(struct usage *u);
void usage_print(const char *phase, const struct usage *a, const struct usage *b);
int report(void);

/* threads.c */
extern struct parked workers[NR_WORKERS], targets[NR_TARGETS];
int sched_get(pid_t tid, struct sched_attr *a);
void sched_normal(pid_t tid);
int reap(pid_t pid, unsigned int ms, int *status);
void check_helper(const char *what, pid_t pid, int reaped, int status);
long euid_of(pid_t pid);
void dead_refresh(void);
void close_env_fds(void);
int target_start(void);
void target_stop(void);
int workers_start(struct parked *w, int n);
void workers_stop(struct parked *w, int n);
void restore_init(void);
int hints_quiesce(pid_t *tids);

/* ioctl.c */
extern const struct ioc iocs[NR_IOC_CMDS];
void fill_mask(struct ctx *c, uint8_t *mask, size_t cap, bool valid);
int counted_ioctl(struct ctx *c, int fd, unsigned long nr, void *arg);
int ioctl_edges(struct ctx *c);
int ioctl_random_bytes(struct ctx *c);
int ioctl_misencoded(struct ctx *c);
int ioctl_unknown(struct ctx *c);
int ioctl_bad_pointer(struct ctx *c);

/* netlink.c */
void nl_drop(struct ctx *c);
int nl_collect(struct ctx *c, unsigned int max, bool cut);
int nl_send(struct ctx *c, const void *buf, size_t len);
void nl_request_into(struct ctx *c, struct nlreq *m, uint8_t cmd,
		     uint16_t flags, int attrs);
int nl_request(struct ctx *c);
int nl_malformed(struct ctx *c);
int nl_cut_dump(struct ctx *c);
int nl_resolve(void);

/* debugfs.c */
void debugfs_scan(void);
int dbg_cmd_named(const char *name, bool write);
int debugfs_read(struct ctx *c);
int debugfs_write(struct ctx *c);

/* registry.c */
extern const struct iface registry[NR_IFACES];
void hint_events_sample(void);
void run_registry_parallel(struct ctx *c);

/* race.c */
extern pid_t race_child;		/* the churning target; 0 between lives */
int churn_main(int argc, char **argv);
void phase_race(struct ctx *root);

/* nobody.c */
void victims_check(struct ctx *c);
void reset_check(struct ctx *c);
void phase_nobody(struct ctx *root);

#endif
