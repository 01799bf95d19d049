// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong-bench: what rvvstat costs a context switch (`make bench`).
 *
 * Two threads pinned to CPU 0 pass a byte back and forth through two pipes,
 * so every round trip is two context switches on one CPU. Both threads have
 * executed a vector instruction, and every syscall leaves their vector state
 * dirty (x86: the kernel saves every user thread's state anyway), so each of
 * those switches saves the vector registers.
 *
 * The time per round trip is measured without any module ("none"), with
 * tests/refmod's reference probes on sched_switch (an empty one, the floor
 * and resolution of the run, and a plain per-CPU and per-task counter), with
 * rvvstat in several configurations and, on x86_64, with bpftrace doing the
 * same counting. Every round measures every mode once, the order rotated by
 * one mode per round, so that drift of the host and the position in a round
 * spread over all modes. Each mode's figure is the median over the rounds of
 * its ratio to "none" in the same round, with the order-statistic 95 %
 * confidence interval of that median (bench-stats.c). Beside the whole-run
 * figure go the same of each run's fastest chunk of 20 round trips, which
 * leaves out the host's stalls. A line "bench-ratio ARCH MODE MEDIAN CI_LOW
 * CI_HIGH" per mode (the whole runs' figure) is for programs.
 *
 * With -i the leader executes tests/bench/insn-marks.h's marks around each
 * timed run and prints "bench-insn-window MODE ROUND ROUND_TRIPS" after it,
 * in the order of the windows, for tests/bench/insn-count.c's counts (the
 * guest then runs under icount with that plugin: tests/bench/run --only
 * cost-insn), and before it, per timing source of rvvstat's, what the
 * source timed between the marks (print_sampled()). Its times are then
 * instruction counts, so it prints no bench-ratio lines; tracer modes,
 * which need the real clock, are left out.
 *
 * Build with -march=rv64gc: C code must never touch a vector register, as
 * GCC 12 cannot be told that inline asm clobbers them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-stats.h"
#include "guest-util.h"
#include "insn-marks.h"
#include "vector-arch.h"

#if defined(__riscv)
#define ARCH_NAME	"riscv64"
#elif defined(__x86_64__)
#define ARCH_NAME	"x86_64"
#endif

/*
 * About 3 s per measurement under QEMU TCG (riscv64: ~125-160 us per round
 * trip on an idle host; x86_64: ~20-40 us): 7 modes x 15 rounds take 5-6
 * minutes, and stay under 12 when the host's other work halves the guest's
 * speed.
 */
#if defined(__riscv)
#define DEFAULT_ROUND_TRIPS	20000UL
#else
#define DEFAULT_ROUND_TRIPS	80000UL
#endif
#define DEFAULT_ROUNDS		15
#define MAX_ROUNDS		99
/* Before the clock starts: first-use traps, page faults, wakeup paths warm. */
#define WARMUP_ROUND_TRIPS	200
/*
 * -i: also past rvvstat's sampling windows at load (each source's first
 * times up to 2048 events a CPU), so that its runs see the schedule that a
 * long-running load does.
 */
#define MARKED_WARMUP_ROUND_TRIPS	4096
/* Timed apart inside each run; the fastest one is the run's least disturbed. */
#define CHUNK_ROUND_TRIPS	20
#define CI_LEVEL		0.95
#define BPFTRACE		"bpftrace"

enum kind { PLAIN, REF, RVVSTAT, TRACER };

struct mode {
	const char *token;	/* for bench-ratio lines and -m */
	const char *title;	/* for people */
	enum kind kind;
	const char *params;	/* module parameters, or the bpftrace program */
	double ns[MAX_ROUNDS];		/* per round trip, the whole run */
	double chunk_ns[MAX_ROUNDS];	/* per round trip, its fastest chunk */
};

#define MODE(tok, what, how, with) \
	{ .token = tok, .title = what, .kind = how, .params = with }

/* Both architectures measure these. */
#define NONE		MODE("none", "no module", PLAIN, NULL)
#define REF_EMPTY	MODE("ref-empty", "rvvref, empty probe", REF, "mode=empty")
#define REF_COUNT	MODE("ref-count", "rvvref, per-CPU and per-task counts", \
			     REF, "mode=count")
#define REF_DECODE	MODE("ref-decode", "rvvref, rvvstat's decoding of both tasks", \
			     REF, "mode=decode")
#define COUNTING	MODE("counting", "rvvstat, counting only", RVVSTAT, \
			     "switch_sample=0 probe_sample=0")
#define SWITCH_TIMING	MODE("switch-timing", "rvvstat, every switch timed", \
			     RVVSTAT, "switch_sample=1 probe_sample=0")
#define DEFAULTS	MODE("defaults", "rvvstat, defaults", RVVSTAT, "")
#define EVERY_SAVE	MODE("every-save", "rvvstat, probes on every save", \
			     RVVSTAT, "probe_sample=1")

#if defined(__riscv)
static struct mode all_modes[] = {
	NONE, REF_EMPTY, REF_COUNT, REF_DECODE, COUNTING, SWITCH_TIMING,
	DEFAULTS, EVERY_SAVE,
};
#else
/*
 * bpftrace: BEGIN says when every probe is attached (bpftrace fires it after
 * attaching them; its "Attaching N probes..." comes before). The latency is
 * from sched_switch to the end of the switch in the next task, at
 * finish_task_switch (kprobe: it has no tracepoint, and GCC renames it
 * finish_task_switch.isra.0, hence the wildcard); @n counts what @lat holds.
 * END clears @start so that only the results print at exit.
 */
#define BPF_BEGIN	"BEGIN { printf(\"bench-attached\\n\"); } "
#define BPF_COUNT	"tracepoint:sched:sched_switch { @s[cpu] = count(); " \
			"@t[args->prev_pid] = count(); "
#define BPF_HIST	"@start[cpu] = nsecs; } " \
			"kprobe:finish_task_switch* /@start[cpu]/ { " \
			"@lat = hist(nsecs - @start[cpu]); @n = count(); " \
			"delete(@start[cpu]); } END { clear(@start); }"

static struct mode all_modes[] = {
	NONE, REF_EMPTY, REF_COUNT, REF_DECODE, COUNTING, SWITCH_TIMING,
	DEFAULTS, EVERY_SAVE,
	MODE("bpftrace-count", "bpftrace, per-CPU and per-task counts", TRACER,
	     BPF_BEGIN BPF_COUNT "}"),
	MODE("bpftrace-hist", "bpftrace, counts and switch latency histogram",
	     TRACER, BPF_BEGIN BPF_COUNT BPF_HIST),
};
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_MODES	ARRAY_SIZE(all_modes)
static const unsigned int nr_all_modes = MAX_MODES;

/* The modes measured, "none" first: the baseline of every ratio. */
static struct mode *modes[MAX_MODES];
static unsigned int nr_modes;

/* One line of rvvstat's debugfs sampling file: a timing source's counts. */
struct sampled {
	char source[16];
	unsigned long long timed, events;
};

#define MAX_SOURCES	4

/* What each timing source timed, and of how many events, at one moment. */
struct sampling {
	struct sampled src[MAX_SOURCES];
	unsigned int n;		/* 0: no module with a sampling file, or no source */
};

struct side {
	pthread_t thread;
	bool leads;		/* writes first, and times the run */
	int in, out;
	long long ns;		/* the leader's whole timed run */
	long long chunk_ns;	/* its fastest chunk */
	/* -i: the sources' counts right before and after the marks */
	struct sampling before, after;
};

static unsigned long round_trips = DEFAULT_ROUND_TRIPS;
static unsigned int rounds = DEFAULT_ROUNDS;
/* -i: each run a window that tests/bench/insn-count.c counts. */
static bool marked;

static void die_err(const char *what, int err)
{
	die_with(1, "bench: error", what, err);
}

static void die(const char *what)
{
	die_err(what, errno);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pingpong-bench [-i] [-n ROUND_TRIPS (>= %d)] [-r ROUNDS (1..%d)] [-m MODE]...\n"
		"modes on " ARCH_NAME ":", CHUNK_ROUND_TRIPS, MAX_ROUNDS);
	for (unsigned int i = 0; i < nr_all_modes; i++)
		fprintf(stderr, " %s", all_modes[i].token);
	fprintf(stderr, " (none is always measured)\n");
	exit(2);
}

/* -m: the modes asked for, by token (none comes anyway); no -m: all. */
static bool wanted[MAX_MODES], picked;

/* One -m: a token or several, comma-separated (tests/bench/run splits at commas). */
static void want_modes(char *list)
{
	char *token, *save;
	unsigned int i;

	for (token = strtok_r(list, ",", &save); token;
	     token = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < nr_all_modes; i++)
			if (!strcmp(token, all_modes[i].token))
				break;
		if (i == nr_all_modes)
			usage();
		wanted[i] = true;
	}
	picked = true;
}

/* The modes to measure, in the order of the full set; -i leaves tracers out. */
static void pick_modes(void)
{
	unsigned int i;

	for (i = 0; i < nr_all_modes; i++)
		if ((!picked || !i || wanted[i]) &&
		    !(marked && all_modes[i].kind == TRACER))
			modes[nr_modes++] = &all_modes[i];
}

/*
 * Makes vector state live in this thread. On RISC-V every syscall then marks
 * it dirty, so every switch away from the thread saves it.
 */
static void vector_on(void)
{
	arch_touch_vector();
}

static void pass_byte(int in, int out, bool leads)
{
	char byte = 0;
	ssize_t n;

	if (leads && write(out, &byte, 1) != 1)
		die("write to pipe");
	n = read(in, &byte, 1);
	if (n != 1)
		die_err("read from pipe", n < 0 ? errno : EPIPE);
	if (!leads && write(out, &byte, 1) != 1)
		die("write to pipe");
}

static long long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000LL + b->tv_nsec - a->tv_nsec;
}

/*
 * Reads the sampling file ("source windows patches armed timed events" per
 * line after a header) into @s; none read if the module has no such file.
 */
static void read_sampling(struct sampling *s)
{
	static char text[4096];
	char *line, *save;
	struct sampled *d;

	s->n = 0;
	if (read_file(DEBUGFS_DIR "sampling", text, sizeof(text)) < 0)
		return;
	line = strtok_r(text, "\n", &save);	/* the header */
	while (s->n < MAX_SOURCES && (line = strtok_r(NULL, "\n", &save))) {
		d = &s->src[s->n];
		if (sscanf(line, "%15s %*u %*u %*u %llu %llu", d->source,
			   &d->timed, &d->events) != 3)
			die_err("rvvstat's sampling file: a line does not parse",
				EPROTO);
		s->n++;
	}
}

/*
 * The leader times every chunk of CHUNK_ROUND_TRIPS besides the whole run;
 * the follower only answers, so both do the same syscalls per round trip.
 */
static void *side_main(void *arg)
{
	struct side *s = arg;
	struct timespec start, end, c0, c1;
	unsigned long i, done, n;
	int err;

	err = pin_to_cpu(0);
	if (err)
		die_err("sched_setaffinity to CPU 0", -err);
	vector_on();
	for (i = 0; i < (marked ? MARKED_WARMUP_ROUND_TRIPS : WARMUP_ROUND_TRIPS); i++)
		pass_byte(s->in, s->out, s->leads);
	s->chunk_ns = LLONG_MAX;
	if (s->leads && marked) {
		read_sampling(&s->before);
		insn_mark(INSN_MARK_OPEN);
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (done = 0; done < round_trips; done += n) {
		n = round_trips - done < CHUNK_ROUND_TRIPS ?
			round_trips - done : CHUNK_ROUND_TRIPS;
		if (s->leads)
			clock_gettime(CLOCK_MONOTONIC, &c0);
		for (i = 0; i < n; i++)
			pass_byte(s->in, s->out, s->leads);
		if (s->leads) {
			clock_gettime(CLOCK_MONOTONIC, &c1);
			/* A short last chunk is not comparable. */
			if (n == CHUNK_ROUND_TRIPS &&
			    ns_between(&c0, &c1) < s->chunk_ns)
				s->chunk_ns = ns_between(&c0, &c1);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (s->leads && marked) {
		insn_mark(INSN_MARK_CLOSE);
		read_sampling(&s->after);
	}
	s->ns = ns_between(&start, &end);
	return NULL;
}

/*
 * -i: what each timing source timed between the marks, of how many of its
 * events, as the module counted them: "bench-insn-sampled MODE ROUND SOURCE
 * TIMED EVENTS" per source, for insn-report to print beside the cost.
 */
static void print_sampled(const struct mode *m, unsigned int r,
			  const struct sampling *before,
			  const struct sampling *after)
{
	unsigned int i;

	if (before->n != after->n)
		die_err("rvvstat's timing sources changed during a run", EPROTO);
	for (i = 0; i < after->n; i++) {
		const struct sampled *b = &before->src[i], *a = &after->src[i];

		if (strcmp(a->source, b->source))
			die_err("rvvstat's timing sources changed during a run",
				EPROTO);
		printf("bench-insn-sampled %s %u %s %llu %llu\n", m->token, r,
		       a->source, a->timed - b->timed, a->events - b->events);
	}
}

/* Fresh threads per run, so the main thread never enables V. */
static void measure(const struct mode *m, unsigned int r, int ping[2],
		    int pong[2], double *ns, double *chunk_ns)
{
	struct side sides[2] = {
		{ .leads = true, .in = pong[0], .out = ping[1] },
		{ .leads = false, .in = ping[0], .out = pong[1] },
	};
	int i, err;

	for (i = 0; i < 2; i++) {
		err = pthread_create(&sides[i].thread, NULL, side_main, &sides[i]);
		if (err)
			die_err("pthread_create", err);
	}
	for (i = 0; i < 2; i++)
		pthread_join(sides[i].thread, NULL);
	*ns = (double)sides[0].ns / round_trips;
	*chunk_ns = (double)sides[0].chunk_ns / CHUNK_ROUND_TRIPS;
	if (marked)
		print_sampled(m, r, &sides[0].before, &sides[0].after);
}

static const char *module_file(const struct mode *m)
{
	return m->kind == REF ? REF_MODULE_PATH : MODULE_PATH;
}

static void load(const struct mode *m)
{
	int err = module_load_file(module_file(m), m->params);
	char what[160];

	if (err) {
		snprintf(what, sizeof(what), "loading %s with \"%s\"",
			 module_file(m), m->params);
		die_err(what, -err);
	}
}

static void unload(const struct mode *m)
{
	const char *name = m->kind == REF ? "rvvref" : "rvvstat";
	int err = module_unload_name(name);

	if (err)
		die_err(name, -err);
}

/*
 * The module's own counts of the run, before it goes: its switches (all
 * CPUs, from load to now) show that it saw the run's switches, and its
 * sampling file, where it has one, what share of them it timed.
 */
static void print_rvvstat_counts(const struct mode *m)
{
	static struct table t;
	static char text[8192];
	char *line, *save;
	int row, err;

	err = table_read("totals", &t);
	if (err)
		die_err("reading rvvstat's totals", -err);
	row = table_row(&t, "all");
	if (row < 0)
		die_err("rvvstat's totals have no row all", ENODATA);
	printf("bench: %s: module: all switches %llu saves_user %llu\n",
	       m->token, (unsigned long long)table_get(&t, row, "switches"),
	       (unsigned long long)table_get(&t, row, "saves_user"));
	if (read_file(DEBUGFS_DIR "sampling", text, sizeof(text)) < 0)
		return;	/* an rvvstat without it */
	/* A header alone: no source samples in this mode. */
	if (!strchr(text, '\n') || !strchr(text, '\n')[1]) {
		printf("bench: %s: module: sampling: no source\n", m->token);
		return;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("bench: %s: module: %s\n", m->token, line);
}

static void print_ref_counts(const struct mode *m)
{
	static const char *const names[] = { "switches", "tasks", "unplaced" };
	char path[96], value[32];
	unsigned int i, nr_names = ARRAY_SIZE(names);
	ssize_t n;

	if (!strcmp(m->params, "mode=empty"))
		return;		/* the empty probe counts nothing */
	/* mode=decode counts only switches, those with vector work. */
	if (!strcmp(m->params, "mode=decode"))
		nr_names = 1;
	printf("bench: %s: module:", m->token);
	for (i = 0; i < nr_names; i++) {
		snprintf(path, sizeof(path), "/sys/module/rvvref/parameters/%s",
			 names[i]);
		n = read_file(path, value, sizeof(value));
		if (n < 0)
			die_err(path, -n);
		value[strcspn(value, "\n")] = '\0';
		printf(" %s %s", names[i], value);
	}
	printf("\n");
}

/* A running bpftrace, its stdout and stderr on a pipe. */
struct tracer {
	pid_t pid;
	FILE *out;
};

static void tracer_start(const struct mode *m, struct tracer *t)
{
	char line[512];
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		die("pipe");
	t->pid = fork();
	if (t->pid < 0)
		die("fork");
	if (!t->pid) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execlp(BPFTRACE, BPFTRACE, "-e", m->params, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	t->out = fdopen(fds[0], "r");
	if (!t->out)
		die("fdopen");
	while (fgets(line, sizeof(line), t->out)) {
		if (!strcmp(line, "bench-attached\n"))
			return;
		/* Its messages, should it fail, are what to look at. */
		if (strncmp(line, "Attaching ", 10))
			printf("bench: %s: bpftrace: %s", m->token, line);
	}
	die_err("bpftrace ended before its probes were attached", EPIPE);
}

/*
 * Stops it (SIGINT: it prints its maps and exits) and prints what it
 * counted: the switches in @s, the tasks in @t and, for the histogram, how
 * many latencies it recorded (@n).
 */
static void tracer_stop(const struct mode *m, struct tracer *t)
{
	unsigned long long switches = 0, tasks = 0, latencies = 0, v;
	char line[512];
	int status;

	kill(t->pid, SIGINT);
	while (fgets(line, sizeof(line), t->out)) {
		if (sscanf(line, "@s[%*u]: %llu", &v) == 1)
			switches += v;
		else if (sscanf(line, "@t[%*d]: %llu", &v) == 1)
			tasks++;
		else if (sscanf(line, "@n: %llu", &v) == 1)
			latencies = v;
	}
	fclose(t->out);
	if (waitpid(t->pid, &status, 0) < 0)
		die("waitpid bpftrace");
	printf("bench: %s: bpftrace: switches %llu tasks %llu latencies %llu (exit status %d)\n",
	       m->token, switches, tasks, latencies,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* One measurement of one mode, its module or tracer in place around it. */
static void run_mode(struct mode *m, unsigned int r, int ping[2], int pong[2])
{
	struct tracer t;

	if (m->kind == REF || m->kind == RVVSTAT)
		load(m);
	if (m->kind == TRACER)
		tracer_start(m, &t);
	measure(m, r, ping, pong, &m->ns[r], &m->chunk_ns[r]);
	if (marked)
		printf("bench-insn-window %s %u %lu\n", m->token, r, round_trips);
	if (m->kind == REF)
		print_ref_counts(m);
	if (m->kind == RVVSTAT)
		print_rvvstat_counts(m);
	if (m->kind == REF || m->kind == RVVSTAT)
		unload(m);
	if (m->kind == TRACER)
		tracer_stop(m, &t);
}

/* The module's own latency figures after a default run, for the record. */
static void print_latency(int ping[2], int pong[2])
{
	static const struct mode defaults = { .kind = RVVSTAT, .params = "" };
	static char summary[65536];
	char *line, *save;
	bool inside = false;
	double ns, chunk_ns;

	load(&defaults);
	measure(&defaults, 0, ping, pong, &ns, &chunk_ns);
	if (read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)) < 0)
		die("reading the summary");
	unload(&defaults);
	for (line = strtok_r(summary, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		inside |= !strncmp(line, "  latency", 9);
		if (inside && !strncmp(line, "  cpu ", 6))
			break;
		if (inside)
			printf("bench: %s\n", line);
	}
}

/* Round r starts at mode r mod N: each mode takes each place in turn. */
static void run_round(unsigned int r, int ping[2], int pong[2])
{
	unsigned int i;

	for (i = 0; i < nr_modes; i++)
		run_mode(modes[(r + i) % nr_modes], r, ping, pong);
	printf("bench: round %u/%u (from %s), ns per round trip, whole run/fastest chunk:",
	       r + 1, rounds, modes[r % nr_modes]->token);
	for (i = 0; i < nr_modes; i++)
		printf("%s %s %.0f/%.0f", i ? "," : "", modes[i]->token,
		       modes[i]->ns[r], modes[i]->chunk_ns[r]);
	printf("\n");
}

/* One figure of a mode over the rounds: its median and confidence interval. */
struct spread {
	double v[MAX_ROUNDS];	/* sorted */
	double median, low, high;
};

/* @lo, @hi: the interval's ranks (stats_median_ci). */
static void spread_of(struct spread *s, unsigned int lo, unsigned int hi)
{
	stats_sort(s->v, rounds);
	s->median = stats_median(s->v, rounds);
	s->low = s->v[lo];
	s->high = s->v[hi];
}

/* The per-round ratios of a mode to none, whole runs and fastest chunks. */
static void ratios_of(const struct mode *m, struct spread *whole,
		      struct spread *chunk, unsigned int lo, unsigned int hi)
{
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		whole->v[r] = m->ns[r] / modes[0]->ns[r];
		chunk->v[r] = m->chunk_ns[r] / modes[0]->chunk_ns[r];
	}
	spread_of(whole, lo, hi);
	spread_of(chunk, lo, hi);
}

static double median_of(const double *values)
{
	double v[MAX_ROUNDS];

	memcpy(v, values, rounds * sizeof(*v));
	stats_sort(v, rounds);
	return stats_median(v, rounds);
}

static void report(void)
{
	struct spread ratio, chunk;
	unsigned int i, lo, hi;
	double coverage;

	coverage = stats_median_ci(rounds, CI_LEVEL, &lo, &hi);
	printf("bench: %u rounds; ratio: a mode's time per round trip over none's in the same round, median over the rounds\n"
	       "bench: 95 %% CI of the median: sorted ratios #%u to #%u of %u (coverage %.1f %%%s)\n",
	       rounds, lo + 1, hi + 1, rounds, 100 * coverage,
	       coverage < CI_LEVEL ? ", below 95 %: too few rounds" : "");
	printf("bench: %-14s %8s %6s %13s %13s %9s %6s %13s  %s\n", "mode",
	       "ns/trip", "ratio", "95 % CI", "min-max", "chunk ns", "ratio",
	       "95 % CI", "configuration");
	for (i = 0; i < nr_modes; i++) {
		const struct mode *m = modes[i];

		ratios_of(m, &ratio, &chunk, lo, hi);
		printf("bench: %-14s %8.0f %6.3f %6.3f-%-6.3f %6.3f-%-6.3f %9.0f %6.3f %6.3f-%-6.3f  %s\n",
		       m->token, median_of(m->ns), ratio.median, ratio.low,
		       ratio.high, ratio.v[0], ratio.v[rounds - 1],
		       median_of(m->chunk_ns), chunk.median, chunk.low,
		       chunk.high, m->title);
	}
	for (i = 0; i < nr_modes && !marked; i++) {
		ratios_of(modes[i], &ratio, &chunk, lo, hi);
		printf("bench-ratio %s %s %.3f %.3f %.3f\n", ARCH_NAME,
		       modes[i]->token, ratio.median, ratio.low, ratio.high);
	}
}

int main(int argc, char **argv)
{
	int ping[2], pong[2], opt;
	unsigned int r;
	long vlenb;

	while ((opt = getopt(argc, argv, "in:r:m:")) != -1) {
		switch (opt) {
		case 'i':
			marked = true;
			break;
		case 'n':
			round_trips = count_arg(optarg, LONG_MAX, usage);
			if (round_trips < CHUNK_ROUND_TRIPS)
				usage();
			break;
		case 'r':
			rounds = count_arg(optarg, MAX_ROUNDS, usage);
			break;
		case 'm':
			want_modes(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	pick_modes();
	/* The console may be a pipe: keep lines whole and in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	vlenb = vlenb_of_cpu();
	if (vlenb < 0)
		die_err("reading vlenb", -vlenb);
	printf("bench: " ARCH_NAME ", vector registers of %ld bits, %ld CPUs, both threads on CPU 0; %lu round trips per measurement (chunks of %d timed apart), %u rounds of %u modes, each round starting one mode later\n",
	       vlenb * 8, sysconf(_SC_NPROCESSORS_ONLN), round_trips,
	       CHUNK_ROUND_TRIPS, rounds, nr_modes);
	if (pipe(ping) || pipe(pong))
		die("pipe");
	for (r = 0; r < rounds; r++)
		run_round(r, ping, pong);
	report();
	if (!marked)
		print_latency(ping, pong);
	printf("bench: done\n");
	return 0;
}
