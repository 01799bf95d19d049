// SPDX-License-Identifier: GPL-2.0
/*
 * llama-run: the real llama-server under rvvstat, in a guest.
 *
 * Loads the module, starts llama-server on the tiny model, waits for
 * /health, streams requests on /completion at concurrency 2, and checks that
 * the streams' timings.predicted_n add up to what /metrics counted, that
 * /slots followed the generation, then that the module's rows for the
 * server's threads show vector use (GET_TASK_STATS on /dev/rvvstat for each
 * thread in /proc/PID/task: ggml names no thread), and that rvvtop --json,
 * run beside the server through the requests, counted the same tokens and
 * found the server's vector threads, and that rvvbench's short sweep (no
 * hint, then a FIFO hint at first vector use) measured the vector-state
 * cost of the server's vector threads in each window. Prints TAP lines
 * ("ok N llama.NAME") that tests/run counts, and "# LLAMA ..." lines with
 * the figures (tok/s, /health time, saves per thread): printed, never
 * asserted, as every guest runs under QEMU's TCG. The server itself is
 * llama-client.c's.
 *
 *   llama-run [-s SERVER] [-m MODEL] [-t RVVTOP] [-b RVVBENCH] [-e EXPORTER]
 *             [-n REQUESTS] [-k TOKENS] [-p PORT] [-w HEALTH_SECONDS] [-l LOG] [-x]
 * Defaults: /bin/llama-server, /tiny.gguf (the riscv64 initramfs), /bin/rvvtop,
 * /bin/rvvbench, /bin/rvvstat-exporter, 6 requests of 16 tokens, port 8080, 600 s for /health,
 * /tmp/llama-server.log.
 * -x: no module (for trying the client against a server on a host).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest-util.h"
#include "llama-client.h"
#include "vector-arch.h"

/* What ggml's system_info line says when its vector kernels are compiled in. */
#if defined(__riscv)
#define VECTOR_FEATURE	"RISCV_V = 1"
#define BACKEND_LABEL	"backend=\"riscv_v\""
#else
#define VECTOR_FEATURE	"AVX2 = 1"
#define BACKEND_LABEL	"backend=\"x86_fpu\""
#endif
#define EXPORTER_PORT	10951

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define CONCURRENCY	2	/* client threads, one per server slot */
#define MAX_REQUESTS	64
#define MAX_THREADS	128	/* of the server; it runs about a dozen */

static struct options {
	const char *rvvtop, *rvvbench, *exporter;
	int requests, tokens, health_s;
	bool no_module;
} opt = {
	.rvvtop = "/bin/rvvtop", .rvvbench = "/bin/rvvbench",
	.exporter = "/bin/rvvstat-exporter", .requests = 6, .tokens = 16, .health_s = 600,
};

static struct llama_server server = {
	.path = "/bin/llama-server", .model = "/tiny.gguf", .log = "/tmp/llama-server.log",
	.port = 8080,
};

/* ---- TAP --------------------------------------------------------------- */

/*
 * Every check, in order. A run that cannot go on reports the rest as failed,
 * so a broken server shows as the same number of lines, not fewer.
 */
static const char *const check_names[] = {
	"module_loads", "server_healthy", "system_info_vector",
	"streams_complete", "metrics_agree", "slots_live", "rvvtop_tokens",
	"rvvtop_threads", "rvvtop_not_vector", "vector_threads", "plain_threads",
	"rvvbench_vector_cost", "exporter_sees_server", "server_stops", "module_unloads",
};
static unsigned int checks_done;
static bool any_failed;

static void check(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (checks_done >= ARRAY_SIZE(check_names) ||
	    strcmp(check_names[checks_done], name)) {
		fprintf(stderr, "llama-run: check %s out of order\n", name);
		exit(2);
	}
	checks_done++;
	any_failed |= !ok;
	printf("%sok %u llama.%s", ok ? "" : "not ", checks_done, name);
	if (fmt) {
		printf(" # ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
}

static void skip(const char *name, const char *why)
{
	check(true, name, "SKIP %s", why);
}

/* The checks that can no longer run fail, with @why. */
static void abandon(const char *why)
{
	while (checks_done < ARRAY_SIZE(check_names))
		check(false, check_names[checks_done], "not run: %s", why);
}

/*
 * /slots, polled while the requests stream. A slot shows its task's
 * n_decoded only while it processes it: the server zeroes the count when it
 * releases the slot, in the same step as the last token, so a poll never
 * sees a finished task's full count (the live view trails by at least one
 * token per task). What a poll can be held to: every slot listed, counts
 * that only grow within a task and never pass n_predict.
 */
struct slot_seen {
	double task, decoded;	/* task -1: none seen processing yet */
};

static struct slots_watch {
	int polls, failed, wrong_count, progress, violations, tasks;
	double seen_tokens;	/* per task, the largest n_decoded seen */
	struct slot_seen slot[CONCURRENCY];
	char error[200];
} watch;
static atomic_bool streams_done;

/* One poll: each slot's state, checked against the last; the slots processing. */
static int watch_poll(void)
{
	const char *at, *start = NULL, *end = NULL;
	struct slot_seen *seen;
	double task, decoded;
	bool processing;
	struct http h;
	struct text t;
	int n = 0, busy = 0, status = http_get(server.port, "/slots", &t, &h);

	watch.polls++;
	if (status != 200) {
		if (!watch.failed++)
			snprintf(watch.error, sizeof(watch.error), "GET /slots: %.150s",
				 status < 0 ? h.error : "not 200");
		free(t.data);
		return -1;
	}
	at = strchr(t.data, '[');
	for (at = at ? at + 1 : ""; next_object(&at, &start, &end); n++) {
		if (n >= CONCURRENCY)
			continue;
		seen = &watch.slot[n];
		processing = memmem(start, end - start, "\"is_processing\":true", 20);
		busy += processing;
		if (!processing || !field(start, end, "id_task", &task) ||
		    !field(start, end, "n_decoded", &decoded))
			continue;
		if (task != seen->task) {
			watch.tasks++;
			seen->task = task;
			seen->decoded = 0;
		}
		if (decoded > opt.tokens || decoded < seen->decoded) {
			if (!watch.violations++)
				snprintf(watch.error, sizeof(watch.error),
					 "slot %d task %.0f: n_decoded %.0f after %.0f, n_predict %d",
					 n, task, decoded, seen->decoded, opt.tokens);
		} else {
			watch.seen_tokens += decoded - seen->decoded;
		}
		watch.progress += decoded > 0;
		seen->decoded = decoded;
	}
	watch.wrong_count += n != CONCURRENCY;
	free(t.data);
	return busy;
}

/* Every 100 ms while the requests stream: often enough to see each task. */
static void *slots_watcher(void *unused)
{
	int i;

	(void)unused;
	for (i = 0; i < CONCURRENCY; i++)
		watch.slot[i].task = -1;
	while (!atomic_load(&streams_done)) {
		watch_poll();
		usleep(100 * 1000);
	}
	return NULL;
}

/* The server's log, its last lines as TAP comments: why it failed. */
static void show_log_tail(int lines)
{
	static char log[1 << 20];
	ssize_t len = read_file(server.log, log, sizeof(log));
	char *at;

	if (len < 0) {
		printf("# cannot read %s: %s\n", server.log, strerror(-len));
		return;
	}
	for (at = log + len; at > log && lines >= 0; at--)
		if (at[-1] == '\n')
			lines--;
	printf("# last lines of %s:\n", server.log);
	for (; *at; at = strchr(at, '\n') + 1) {
		if (!strchr(at, '\n')) {
			printf("#   %s\n", at);
			break;
		}
		printf("#   %.*s\n", (int)(strchr(at, '\n') - at), at);
	}
}

/* The first line of the server's log that holds @what, printed; whether there is one. */
static bool log_shows(const char *what)
{
	static char log[4 << 20];
	const char *at, *start, *end;

	if (read_file(server.log, log, sizeof(log)) < 0 || !(at = strstr(log, what)))
		return false;
	for (start = at; start > log && start[-1] != '\n'; start--)
		;
	end = strchrnul(at, '\n');
	printf("# LLAMA %.*s\n", (int)(end - start), start);
	return true;
}

/* ---- rvvtop beside the server --------------------------------------------- */

#define RVVTOP_LINES	1024	/* one a second: 17 minutes of requests */
#define RVVTOP_WAIT_S	60	/* for one line; an interval is 1 s plus the polls */

/* rvvtop --json: one line per interval, collected by rvvtop_reader. */
static struct rvvtop_run {
	pid_t pid;
	pthread_t reader;
	FILE *out;
	char *line[RVVTOP_LINES];
	atomic_int lines;
	int first;		/* the first line up, before any request */
	char error[200];
} top;

static void *rvvtop_reader(void *unused)
{
	size_t size = 0;
	char *buf = NULL;
	int n;

	(void)unused;
	while (getline(&buf, &size, top.out) > 0) {
		n = atomic_load(&top.lines);
		if (n < RVVTOP_LINES && (top.line[n] = strdup(buf)))
			atomic_store(&top.lines, n + 1);
	}
	free(buf);
	return NULL;
}

/*
 * rvvtop --json -d 1 on the server's URL, its output into top.line. A
 * request may take 10 s: under TCG, with both compute threads busy, the
 * server's HTTP thread can take over a second to answer /metrics, and an
 * interval that sees it down loses the completed tokens of two intervals.
 */
static int rvvtop_start(void)
{
	char url[64];
	const char *const argv[] = {
		opt.rvvtop, "--json", "-d", "1", "--llama", url, "--llama-timeout", "10000", NULL
	};
	int fds[2];

	snprintf(url, sizeof(url), "http://127.0.0.1:%d", server.port);
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(top.error, sizeof(top.error), "pipe: %s", strerror(errno));
		return -1;
	}
	top.pid = spawn(argv, fds[1], -1);
	close(fds[1]);
	if (top.pid < 0) {
		snprintf(top.error, sizeof(top.error), "fork: %s", strerror(-top.pid));
		close(fds[0]);
		return -1;
	}
	top.out = fdopen(fds[0], "r");
	if (!top.out || pthread_create(&top.reader, NULL, rvvtop_reader, NULL))
		die_with(1, "llama-run", "rvvtop's output", errno);
	return 0;
}

/*
 * Until the last line rvvtop printed satisfies @holds(line, @arg): false
 * (and top.error) if it exits or prints no line for RVVTOP_WAIT_S.
 */
static bool rvvtop_wait_until(bool (*holds)(const char *line, double arg), double arg)
{
	double deadline = now_s() + RVVTOP_WAIT_S;
	int status, seen = 0, n;
	char how[64];

	while (!(n = atomic_load(&top.lines)) || !holds(top.line[n - 1], arg)) {
		if (waitpid(top.pid, &status, WNOHANG) == top.pid) {
			describe_exit(status, how, sizeof(how));
			snprintf(top.error, sizeof(top.error), "rvvtop %s after %d lines", how, n);
			top.pid = 0;
			return false;
		}
		if (n > seen) {
			seen = n;
			deadline = now_s() + RVVTOP_WAIT_S;
		}
		if (now_s() > deadline) {
			snprintf(top.error, sizeof(top.error), "rvvtop printed no line in %d s",
				 RVVTOP_WAIT_S);
			return false;
		}
		usleep(100 * 1000);
	}
	return true;
}

/* The server up, with a rate between two readings. */
static bool rvvtop_line_up(const char *line, double unused)
{
	double since;

	(void)unused;
	return strstr(line, "\"state\":\"up\"") && json_number(line, "since_reading", &since);
}

/* llama-server read after CLOCK_MONOTONIC @t (the clock rvvtop stamps readings with). */
static bool rvvtop_line_read_after(const char *line, double t)
{
	double taken;

	return json_number(line, "reading_monotonic", &taken) && taken > t;
}

static void rvvtop_stop(void)
{
	int status;

	if (top.pid > 0) {
		kill(top.pid, SIGTERM);
		waitpid(top.pid, &status, 0);
		top.pid = 0;
	}
	if (top.out) {
		pthread_join(top.reader, NULL);
		fclose(top.out);
		top.out = NULL;
	}
}

/*
 * Every interval's llama panel: the server up, never seen to restart, and
 * the completed tokens (from /metrics) adding up to what the streams got.
 * The live count from /slots cannot: the server zeroes a slot's n_decoded
 * when the task ends, so the tokens after rvvtop's last poll of a task are
 * never seen. It must be seen, and never more than the streams got.
 */
static void check_rvvtop_tokens(double tokens)
{
	double done = 0, decoded = 0, interval_done, interval_decoded, per_token;
	int i, n = atomic_load(&top.lines), bad = 0, first_bad = -1;
	const char *llama;

	for (i = top.first; i < n; i++) {
		llama = strstr(top.line[i], "\"llama\":{");
		if (!llama || !strstr(llama, "\"state\":\"up\"") ||
		    !strstr(llama, "\"restarted\":false") ||
		    !json_number(llama, "generated_tokens_done", &interval_done)) {
			if (!bad++)
				first_bad = i;
			continue;
		}
		done += interval_done;
		if (!json_number(llama, "decoded", &interval_decoded))
			interval_decoded = 0;
		decoded += interval_decoded;
		if (json_number(llama, "saves_per_token", &per_token))
			printf("# LLAMA rvvtop interval %d: %.0f tokens completed, %.0f seen decoding, "
			       "%.2f vector saves per token decoded\n", i, interval_done,
			       interval_decoded, per_token);
	}
	printf("# LLAMA rvvtop: %d intervals, %.0f tokens completed (/metrics), %.0f seen "
	       "decoding (/slots), %.0f streamed\n", n - top.first, done, decoded, tokens);
	if (bad)
		check(false, "rvvtop_tokens", "%d of %d intervals without an up server's "
		      "completed tokens, first: %.300s", bad, n - top.first,
		      strstr(top.line[first_bad], "\"llama\":") ?: top.line[first_bad]);
	else
		check(n > 0 && done == tokens && decoded > 0 && decoded <= tokens,
		      "rvvtop_tokens", "%.0f tokens completed over %d intervals, %.0f streamed; "
		      "%.0f seen decoding", done, n - top.first, tokens, decoded);
}

/* The server's threads in rvvtop's task rows: some saved vector state. */
static void check_rvvtop_threads(double tokens)
{
	const char *at, *start = NULL, *end = NULL;
	int i, n = atomic_load(&top.lines), listed = 0;
	double tgid, tid, saves, total = 0;

	for (i = 0; i < n; i++) {
		at = strstr(top.line[i], "\"tasks\":[");
		for (at = at ? at + 9 : ""; next_object(&at, &start, &end);) {
			if (!field(start, end, "tgid", &tgid) || tgid != server.pid ||
			    !field(start, end, "tid", &tid) || !field(start, end, "saves", &saves))
				continue;
			listed++;
			total += saves;
		}
	}
	if (tokens > 0)
		printf("# LLAMA rvvtop: the server's threads saved vector state %.0f times, "
		       "%.1f per generated token\n", total, total / tokens);
	check(total > 0, "rvvtop_threads", "%d rows of llama-server %d's threads over %d "
	      "intervals, %.0f saves in all", listed, server.pid, n, total);
}

/*
 * rvvtop itself must not be a vector thread: once a thread has used V, every
 * syscall leaves its registers dirty and every switch saves them, so the
 * monitor would add to what it measures (and top its own table).
 */
static void check_rvvtop_not_vector(const struct thread_row *rows, int n)
{
	__u64 saves = 0, first_use = 0;
	int i;

	if (ARCH_SAVES_EVERY_THREAD) {
		skip("rvvtop_not_vector", "this architecture saves every user thread");
		return;
	}
	for (i = 0; i < n; i++) {
		saves += rows[i].saves;
		first_use += rows[i].first_use;
	}
	check(n > 0 && !saves && !first_use, "rvvtop_not_vector",
	      "%d threads of rvvtop: %llu vector saves, %llu first uses", n,
	      (unsigned long long)saves, (unsigned long long)first_use);
}

/* ---- The run ------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr, "usage: llama-run [-s SERVER] [-m MODEL] [-t RVVTOP] [-b RVVBENCH] [-e EXPORTER] [-n REQUESTS]"
		" [-k TOKENS] [-p PORT] [-w HEALTH_SECONDS] [-l LOG] [-x]\n");
	exit(2);
}

static void parse_options(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "s:m:t:b:e:n:k:p:w:l:x")) != -1) {
		switch (c) {
		case 's': server.path = optarg; break;
		case 'm': server.model = optarg; break;
		case 't': opt.rvvtop = optarg; break;
		case 'b': opt.rvvbench = optarg; break;
		case 'e': opt.exporter = optarg; break;
		case 'n': opt.requests = count_arg(optarg, MAX_REQUESTS, usage); break;
		case 'k': opt.tokens = count_arg(optarg, 200, usage); break;
		case 'p': server.port = count_arg(optarg, 65535, usage); break;
		case 'w': opt.health_s = count_arg(optarg, 3600, usage); break;
		case 'l': server.log = optarg; break;
		case 'x': opt.no_module = true; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
}

#define BENCH_CSV	"/tmp/rvvbench.csv"
#define BENCH_LOG	"/tmp/rvvbench.log"

/* The index of column @name in the CSV header @head (commas, no quotes), or -1. */
static int csv_column(const char *head, const char *name)
{
	size_t len = strlen(name);
	int i = 0;

	for (const char *p = head; p; p = strchr(p, ','), p = p ? p + 1 : NULL, i++)
		if (!strncmp(p, name, len) && (p[len] == ',' || p[len] == '\0'))
			return i;
	return -1;
}

/* Field @col of CSV line @line into @buf (no quoted fields in these columns). */
static void csv_field(const char *line, int col, char *buf, size_t size)
{
	const char *p = line;

	for (int i = 0; i < col && p; i++)
		p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
	snprintf(buf, size, "%.*s", p ? (int)strcspn(p, ",") : 0, p ? p : "");
}

/* The last @lines lines of @path as TAP comments. */
static void show_file_tail(const char *path, int lines)
{
	static char text[1 << 16];
	ssize_t len = read_file(path, text, sizeof(text));
	char *at;

	if (len < 0)
		return;
	for (at = text + len; at > text && lines >= 0; at--)
		if (at[-1] == '\n')
			lines--;
	for (char *end; *at; at = end + 1) {
		end = strchrnul(at, '\n');
		printf("#   %.*s\n", (int)(end - at), at);
		if (!*end)
			break;
	}
}

/*
 * rvvbench on this server: "none" and fifo:10 at first vector use, 4
 * requests each at concurrency 2. It exits 1 if the hint did not hold on
 * the threads the module applied it to; each CSV row must show the
 * server's vector threads and their saves per 1000 tokens above 0.
 */
static void check_rvvbench(void)
{
	static const char *const names[] = {
		"arm", "v_saves_per_ktok", "server_vector_threads", "server_vector_saves",
	};
	char url[48], line[4096], head[4096] = "", f[4][64], what[160];
	const char *argv[] = {
		opt.rvvbench, "--url", url, "--policy", "fifo:10@on-vector", "--concurrency", "2",
		"--requests", "4", "--n-predict", "8", "--ignore-eos", "--csv", BENCH_CSV, NULL,
	};
	int col[4], rows = 0, good = 0, status = -1, out;
	bool ok;
	FILE *csv;
	pid_t pid;

	snprintf(url, sizeof(url), "http://127.0.0.1:%d", server.port);
	out = open(BENCH_LOG, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	pid = spawn(argv, out, out);
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (out >= 0)
		close(out);
	describe_exit(status, what, sizeof(what));
	csv = fopen(BENCH_CSV, "re");
	if (csv && fgets(head, sizeof(head), csv))
		head[strcspn(head, "\r\n")] = '\0';
	for (int i = 0; i < 4; i++)
		col[i] = csv_column(head, names[i]);
	while (csv && col[3] >= 0 && fgets(line, sizeof(line), csv)) {
		line[strcspn(line, "\r\n")] = '\0';
		for (int i = 0; i < 4; i++)
			csv_field(line, col[i], f[i], sizeof(f[i]));
		printf("# LLAMA rvvbench %s: %s V saves/ktok, %s vector threads, %s saves\n",
		       f[0], f[1], f[2], f[3]);
		rows++;
		good += atof(f[1]) > 0 && atoi(f[2]) >= 1 && atoll(f[3]) > 0;
	}
	if (csv)
		fclose(csv);
	ok = rows == 2 && good == 2 && pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status);
	if (!ok)
		show_file_tail(BENCH_LOG, 10);
	check(ok, "rvvbench_vector_cost", "%s; %d rows, %d with the server's vector saves", what,
	      rows, good);
}

/* The value of the first line of @body that starts with @prefix; -1 if none. */
static double line_value(const char *body, const char *prefix)
{
	const char *line = strstr(body, prefix);
	const char *space = line ? strchr(line, ' ') : NULL;

	return space ? atof(space + 1) : -1;
}

/*
 * rvvstat-exporter on this architecture, beside the server: a scrape (the
 * Prometheus text format) is up, names this backend and, among the top
 * threads, has one of the server's with vector saves. SIGTERM stops it.
 */
static void check_exporter(void)
{
	char listen[32], what[96] = "no answer";
	const char *argv[] = {
		opt.exporter, "--listen", listen, "--top-tasks", "8", NULL,
	};
	struct text t = { 0 };
	struct http h;
	int i, code = -1, status = -1;
	double saves = -1;
	bool ok;
	pid_t pid;

	snprintf(listen, sizeof(listen), "127.0.0.1:%d", EXPORTER_PORT);
	pid = spawn(argv, -1, -1);
	for (i = 0; pid > 0 && i < 300 && code != 200; i++) {
		free(t.data);
		t.data = NULL;
		code = http_get(EXPORTER_PORT, "/metrics", &t, &h);
		if (code != 200)
			usleep(100000);
	}
	/* Any of the server's threads: the main one may not be the busiest. */
	if (code == 200) {
		const char *row = strstr(t.data, "rvvstat_task_saves_total{");

		for (; row; row = strstr(row + 1, "rvvstat_task_saves_total{")) {
			const char *pidl = strstr(row, ",pid=\"");

			if (pidl && atoi(pidl + 6) == server.pid) {
				saves = line_value(row, "rvvstat_task_saves_total{");
				break;
			}
		}
	}
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, &status, 0);
		describe_exit(status, what, sizeof(what));
	}
	ok = code == 200 && line_value(t.data, "rvvstat_up ") == 1 &&
	     strstr(t.data, BACKEND_LABEL) && saves > 0 &&
	     WIFEXITED(status) && !WEXITSTATUS(status);
	check(ok, "exporter_sees_server", "GET /metrics %d, rvvstat_up %.0f, %s, a server thread's "
	      "saves %.0f; on SIGTERM %s", code, code == 200 ? line_value(t.data, "rvvstat_up ") : -1,
	      code == 200 && strstr(t.data, BACKEND_LABEL) ? BACKEND_LABEL : "other backend",
	      saves, what);
	free(t.data);
}

/* Streams every request at CONCURRENCY; checks them; the tokens generated. */
static double stream_all(double *seconds)
{
	static struct request requests[MAX_REQUESTS];
	double tokens = 0, start = now_s();
	int i, bad = 0, keepalives = 0, partials = 0;
	char first_bad[200] = "";
	pthread_t watcher;

	if (pthread_create(&watcher, NULL, slots_watcher, NULL))
		die_with(1, "llama-run", "pthread_create", errno);
	stream_requests(server.port, requests, opt.requests, opt.tokens, CONCURRENCY);
	*seconds = now_s() - start;
	atomic_store(&streams_done, true);
	pthread_join(watcher, NULL);

	for (i = 0; i < opt.requests; i++) {
		struct request *r = &requests[i];
		struct stream *s = &r->stream;
		char why[200] = "";

		if (r->ret)
			snprintf(why, sizeof(why), "%s", r->http.error);
		else if (r->http.status != 200)
			snprintf(why, sizeof(why), "HTTP %d", r->http.status);
		else if (s->errors)
			snprintf(why, sizeof(why), "%d error events, first %.100s", s->errors, s->error);
		else if (s->finals != 1 || s->others)
			snprintf(why, sizeof(why), "%d final events, %d unknown lines",
				 s->finals, s->others);
		/* The tiny model cannot stop early: no EOS, no invalid UTF-8. */
		else if (s->predicted_n != opt.tokens)
			snprintf(why, sizeof(why), "timings.predicted_n %.0f, n_predict %d",
				 s->predicted_n, opt.tokens);
		printf("# LLAMA request %d: HTTP %d, %d partial events, predicted_n %.0f, "
		       "%.2f tok/s by the server, %.1f s%s%s\n", i, r->http.status, s->partials,
		       s->predicted_n, s->predicted_per_second, r->seconds,
		       why[0] ? ": " : "", why);
		if (why[0] && !bad++)
			snprintf(first_bad, sizeof(first_bad), "request %d: %s", i, why);
		if (s->predicted_n > 0)
			tokens += s->predicted_n;
		keepalives += s->keepalives;
		partials += s->partials;
	}
	check(!bad, "streams_complete", "%d requests, %d failed%s%s; %d partial events, "
	      "%d keep-alives", opt.requests, bad, bad ? ": " : "", first_bad, partials,
	      keepalives);
	return tokens;
}

/*
 * What the polls saw, and one more poll now that every request has ended:
 * both slots listed and idle.
 */
static void check_slots(double tokens)
{
	int busy;

	printf("# LLAMA /slots: %d polls during the requests, %d samples of a slot generating, %d tasks;"
	       " the n_decoded they saw add up to %.0f of the %.0f tokens\n", watch.polls,
	       watch.progress, watch.tasks, watch.seen_tokens, tokens);
	busy = watch_poll();
	if (watch.failed || watch.violations || watch.wrong_count)
		check(false, "slots_live", "%d failed polls, %d with a slot count other than %d,"
		      " %d counts out of order: %s", watch.failed, watch.wrong_count, CONCURRENCY,
		      watch.violations, watch.error);
	else
		check(watch.progress > 0 && !busy, "slots_live",
		      "%d samples of a slot generating, n_decoded growing within %d tasks up to n_predict %d;"
		      " %d slots busy at the end", watch.progress, watch.tasks, opt.tokens, busy);
}

static void show_rows(const struct thread_row *before, int nbefore, const struct thread_row *rows,
		      int n, double tokens)
{
	__u64 delta, total = 0;
	int i;

	printf("# LLAMA threads of llama-server %d (saves: saves_user; run: during the requests)\n",
	       server.pid);
	printf("# LLAMA %8s %-15s %9s %9s %9s %9s\n", "tid", "comm", "switches", "saves",
	       "run", "first_use");
	for (i = 0; i < n; i++) {
		delta = rows[i].saves - saves_before(before, nbefore, rows[i].tid);
		total += delta;
		printf("# LLAMA %8d %-15s %9llu %9llu %9llu %9llu\n", rows[i].tid, rows[i].comm,
		       (unsigned long long)rows[i].switches, (unsigned long long)rows[i].saves,
		       (unsigned long long)delta, (unsigned long long)rows[i].first_use);
	}
	if (tokens > 0)
		printf("# LLAMA %llu saves during the requests, %.1f per generated token\n",
		       (unsigned long long)total, total / tokens);
}

static void check_rows(const struct thread_row *rows, int n)
{
	int i, vector = 0, plain = 0;

	for (i = 0; i < n; i++) {
		if (rows[i].saves > 0 && rows[i].first_use == 1)
			vector++;
		if (!rows[i].saves && !rows[i].first_use)
			plain++;
	}
	check(vector > 0, "vector_threads", "%d of %d threads with saves_user > 0 and first_use 1",
	      vector, n);
	/* x86 saves every user thread's registers, vector code or not. */
	if (ARCH_SAVES_EVERY_THREAD)
		skip("plain_threads", "this architecture saves every user thread");
	else
		check(plain > 0, "plain_threads",
		      "%d of %d threads never used vector state (HTTP and the like)", plain, n);
}

int main(int argc, char **argv)
{
	static struct thread_row before[MAX_THREADS], after[MAX_THREADS], top_rows[MAX_THREADS];
	double health_s, metrics_before = 0, metrics_after = 0, tokens, seconds;
	int dev = -1, err, nbefore = 0, nafter, ntop;
	char why[200] = "", how[64];
	bool ok, top_ok;

	parse_options(argc, argv);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%zu\n", ARRAY_SIZE(check_names));

	if (opt.no_module) {
		skip("module_loads", "-x");
	} else {
		err = module_load("");
		dev = err ? err : device_open();
		check(dev >= 0, "module_loads", dev < 0 ? "%s: %s" : NULL, MODULE_PATH,
		      strerror(-dev));
		if (dev < 0) {
			abandon("no module");
			return 1;
		}
	}

	err = llama_start(&server);
	if (err) {
		check(false, "server_healthy", "%s: %s", server.log, strerror(-err));
		abandon("no server");
		return 1;
	}
	printf("# LLAMA server: %s -m %s --port %d -t 2 --parallel 2 -c 512 --metrics -lv 4"
	       " (pid %d, log %s)\n", server.path, server.model, server.port, server.pid, server.log);
	if (llama_wait_healthy(&server, opt.health_s, &health_s, why, sizeof(why))) {
		check(false, "server_healthy", "%s", why);
		show_log_tail(20);
		if (server.pid)
			llama_stop(&server, how, sizeof(how));
		abandon("the server never became healthy");
		return 1;
	}
	check(true, "server_healthy", "/health 200 after %.1f s", health_s);
	printf("# LLAMA health %.1f s\n", health_s);
	ok = log_shows(VECTOR_FEATURE);
	check(ok, "system_info_vector", "%s %s '%s'", server.log, ok ? "says" : "never says",
	      VECTOR_FEATURE);

	/* rvvtop reads the server, up, before any request. */
	top_ok = !rvvtop_start() && rvvtop_wait_until(rvvtop_line_up, 0);
	top.first = atomic_load(&top.lines) - 1;
	if (tokens_predicted_total(server.port, &metrics_before, why, sizeof(why)))
		printf("# %s\n", why);
	if (dev >= 0)
		nbefore = thread_rows(dev, server.pid, before, MAX_THREADS);
	tokens = stream_all(&seconds);
	printf("# LLAMA %.0f tokens in %.1f s at concurrency %d: %.2f tok/s"
	       " (emulated, not asserted)\n", tokens, seconds, CONCURRENCY, tokens / seconds);

	why[0] = '\0';
	if (tokens_predicted_total(server.port, &metrics_after, why, sizeof(why)))
		check(false, "metrics_agree", "%s", why);
	else
		check(metrics_after - metrics_before == tokens, "metrics_agree",
		      "tokens_predicted_total moved %.0f, the streams' predicted_n sum to %.0f",
		      metrics_after - metrics_before, tokens);
	check_slots(tokens);

	/* A line with a reading taken after the last request ended. */
	top_ok = top_ok && rvvtop_wait_until(rvvtop_line_read_after, now_s());
	ntop = dev >= 0 && top_ok ? thread_rows(dev, top.pid, top_rows, MAX_THREADS) : 0;
	rvvtop_stop();
	if (top_ok) {
		check_rvvtop_tokens(tokens);
		if (dev >= 0) {
			check_rvvtop_threads(tokens);
			check_rvvtop_not_vector(top_rows, ntop);
		} else {
			skip("rvvtop_threads", "-x");
			skip("rvvtop_not_vector", "-x");
		}
	} else {
		check(false, "rvvtop_tokens", "%s: %s", opt.rvvtop, top.error[0] ? top.error :
		      "did not start");
		check(false, "rvvtop_threads", "no rvvtop output");
		check(false, "rvvtop_not_vector", "no rvvtop");
	}

	if (dev >= 0) {
		nafter = thread_rows(dev, server.pid, after, MAX_THREADS);
		if (nafter < 0 || nbefore < 0) {
			check(false, "vector_threads", "/proc/%d/task: %s", server.pid,
			      strerror(-(nafter < 0 ? nafter : nbefore)));
			check(false, "plain_threads", "no rows");
		} else {
			show_rows(before, nbefore, after, nafter, tokens);
			check_rows(after, nafter);
		}
	} else {
		skip("vector_threads", "-x");
		skip("plain_threads", "-x");
	}
	if (dev >= 0) {
		check_rvvbench();
		check_exporter();
	} else {
		skip("rvvbench_vector_cost", "-x");
		skip("exporter_sees_server", "-x");
	}

	err = llama_stop(&server, how, sizeof(how));
	check(!err, "server_stops", "%s", how);
	if (dev >= 0) {
		close(dev);
		err = module_unload();
		check(!err, "module_unloads", err ? "%s" : NULL, strerror(-err));
	} else {
		skip("module_unloads", "-x");
	}
	return any_failed;
}
