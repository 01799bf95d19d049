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
 * found the server's vector threads. Prints TAP lines
 * ("ok N llama.NAME") that tests/run counts, and "# LLAMA ..." lines with
 * the figures (tok/s, /health time, saves per thread): printed, never
 * asserted, as every guest runs under QEMU's TCG.
 *
 * HTTP/1.1 by hand over plain sockets: Debian 12 has no riscv64 libcurl
 * (no riscv64 userland packages at all) to link statically, and the guest
 * has no shell or curl. (rvvtop links dynamically to Debian 13's, which
 * tests/rig/riscv64-sysroot fetches; this program stays static and small.)
 *
 *   llama-run [-s SERVER] [-m MODEL] [-t RVVTOP] [-n REQUESTS] [-k TOKENS]
 *             [-p PORT] [-w HEALTH_SECONDS] [-l LOG] [-x]
 * Defaults: /bin/llama-server, /tiny.gguf (the riscv64 initramfs),
 * /bin/rvvtop, 6 requests of 16 tokens, port 8080, 600 s for /health,
 * /tmp/llama-server.log.
 * -x: no module (for trying the client against a server on a host).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/rvvstat.h>

#include "guest-util.h"
#include "vector-arch.h"

/* What ggml's system_info line says when its vector kernels are compiled in. */
#if defined(__riscv)
#define VECTOR_FEATURE	"RISCV_V = 1"
#else
#define VECTOR_FEATURE	"AVX2 = 1"
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define CONCURRENCY	2	/* client threads, one per server slot */
#define MAX_REQUESTS	64
#define MAX_THREADS	128	/* of the server; it runs about a dozen */
#define SSE_LINE_MAX	(64 << 10)
/*
 * Longer than the server's 30 s SSE keep-alive, so a live but slow server
 * (a TCG guest on a loaded host) never trips it; a hung one does.
 */
#define RECV_TIMEOUT_S	120

static struct options {
	const char *server, *model, *rvvtop, *log;
	int requests, tokens, port, health_s;
	bool no_module;
} opt = {
	.server = "/bin/llama-server", .model = "/tiny.gguf", .rvvtop = "/bin/rvvtop",
	.log = "/tmp/llama-server.log", .requests = 6, .tokens = 16,
	.port = 8080, .health_s = 600,
};

/* ---- TAP --------------------------------------------------------------- */

/*
 * Every check, in order. A run that cannot go on reports the rest as failed,
 * so a broken server shows as the same number of lines, not fewer.
 */
static const char *const check_names[] = {
	"module_loads", "server_healthy", "system_info_vector",
	"streams_complete", "metrics_agree", "slots_live", "rvvtop_tokens",
	"rvvtop_threads", "vector_threads", "plain_threads", "server_stops", "module_unloads",
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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- HTTP/1.1 client --------------------------------------------------- */

/* Receives a response body in pieces of any size. 0, or -1 to stop. */
typedef int (*sink_fn)(void *ctx, const char *data, size_t len);

struct conn {
	int fd;
	size_t start, end;
	char buf[16 << 10];
};

struct http {
	int status;
	char error[200];	/* why the exchange failed, for the report */
};

static int http_fail(struct http *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->error, sizeof(h->error), fmt, ap);
	va_end(ap);
	return -1;
}

/* Buffered bytes, reading more if there are none: the count, 0 at EOF, -1. */
static ssize_t conn_fill(struct conn *c)
{
	ssize_t n;

	if (c->start < c->end)
		return c->end - c->start;
	do
		n = read(c->fd, c->buf, sizeof(c->buf));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	c->start = 0;
	c->end = n;
	return n;
}

/* One CRLF-terminated header or chunk-size line, without its CRLF. */
static int conn_line(struct conn *c, char *line, size_t size, struct http *h)
{
	size_t len = 0;
	ssize_t n;
	char ch;

	for (;;) {
		n = conn_fill(c);
		if (n <= 0)
			return http_fail(h, "reading a line: %s",
					 n ? strerror(errno) : "connection closed");
		ch = c->buf[c->start++];
		if (ch == '\n')
			break;
		if (len + 1 >= size)
			return http_fail(h, "line longer than %zu bytes", size);
		line[len++] = ch;
	}
	if (len && line[len - 1] == '\r')
		len--;
	line[len] = '\0';
	return 0;
}

/* @len bytes of body to @sink; @len < 0: up to EOF. */
static int conn_body(struct conn *c, long long len, sink_fn sink, void *ctx,
		     struct http *h)
{
	ssize_t n;
	size_t take;

	while (len) {
		n = conn_fill(c);
		if (n < 0)
			return http_fail(h, "reading the body: %s", strerror(errno));
		if (n == 0) {
			if (len < 0)
				return 0;
			return http_fail(h, "connection closed with %lld body bytes to come", len);
		}
		take = len < 0 || n < len ? (size_t)n : (size_t)len;
		if (sink(ctx, c->buf + c->start, take))
			return http_fail(h, "the body could not be parsed");
		c->start += take;
		if (len > 0)
			len -= take;
	}
	return 0;
}

/* Transfer-Encoding: chunked, as cpp-httplib streams every SSE response. */
static int conn_chunked(struct conn *c, sink_fn sink, void *ctx, struct http *h)
{
	char line[256];
	long long size;
	char *end;

	for (;;) {
		if (conn_line(c, line, sizeof(line), h))
			return -1;
		errno = 0;
		size = strtoll(line, &end, 16);
		if (errno || end == line || size < 0)
			return http_fail(h, "bad chunk size line '%.40s'", line);
		if (size == 0)
			break;
		if (conn_body(c, size, sink, ctx, h) || conn_line(c, line, sizeof(line), h))
			return -1;
		if (line[0])
			return http_fail(h, "chunk not followed by CRLF");
	}
	do	/* trailers, up to the empty line */
		if (conn_line(c, line, sizeof(line), h))
			return -1;
	while (line[0]);
	return 0;
}

static int connect_local(int port, struct http *h)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct timeval tv = { .tv_sec = RECV_TIMEOUT_S };
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return http_fail(h, "socket: %s", strerror(errno));
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		http_fail(h, "connect to 127.0.0.1:%d: %s", port, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int write_all(int fd, const char *data, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		data += n;
		len -= n;
	}
	return 0;
}

/*
 * One request on its own connection (Connection: close, so that a body of
 * neither length nor chunks ends at EOF). 0 when a whole response came,
 * whatever its status; -1 with h->error set otherwise.
 */
static int http_do(const char *method, const char *path, const char *body,
		   sink_fn sink, void *ctx, struct http *h)
{
	static const char te[] = "transfer-encoding:", cl[] = "content-length:";
	bool chunked = false;
	long long length = -1;
	char line[1024], *req;
	struct conn *c;
	int ret = -1, n;

	memset(h, 0, sizeof(*h));
	c = malloc(sizeof(*c));
	if (!c)
		return http_fail(h, "out of memory");
	c->start = c->end = 0;
	c->fd = connect_local(opt.port, h);
	if (c->fd < 0)
		goto out_free;
	n = asprintf(&req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n"
		     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
		     method, path, opt.port, body ? strlen(body) : 0, body ? body : "");
	if (n < 0) {
		http_fail(h, "out of memory");
		goto out_close;
	}
	ret = write_all(c->fd, req, n);
	free(req);
	if (ret) {
		http_fail(h, "sending %s %s: %s", method, path, strerror(errno));
		goto out_close;
	}
	ret = -1;
	if (conn_line(c, line, sizeof(line), h))
		goto out_close;
	if (sscanf(line, "HTTP/1.%*d %d", &h->status) != 1) {
		http_fail(h, "bad status line '%.60s'", line);
		goto out_close;
	}
	for (;;) {
		if (conn_line(c, line, sizeof(line), h))
			goto out_close;
		if (!line[0])
			break;
		if (!strncasecmp(line, te, sizeof(te) - 1))
			chunked = strcasestr(line, "chunked");
		else if (!strncasecmp(line, cl, sizeof(cl) - 1))
			length = strtoll(line + sizeof(cl) - 1, NULL, 10);
	}
	if (chunked)
		ret = conn_chunked(c, sink, ctx, h);
	else
		ret = conn_body(c, length, sink, ctx, h);
out_close:
	close(c->fd);
out_free:
	free(c);
	if (ret && !h->error[0])
		http_fail(h, "%s %s failed", method, path);
	return ret;
}

/* A whole body in memory, NUL-terminated. */
struct text {
	char *data;
	size_t len, cap;
};

static int text_sink(void *ctx, const char *data, size_t len)
{
	struct text *t = ctx;
	char *grown;

	if (t->len + len + 1 > t->cap) {
		t->cap = (t->len + len + 1) * 2;
		grown = realloc(t->data, t->cap);
		if (!grown)
			return -1;
		t->data = grown;
	}
	memcpy(t->data + t->len, data, len);
	t->len += len;
	t->data[t->len] = '\0';
	return 0;
}

/* GET @path into @t (freed by the caller); its status, or -1 with h->error. */
static int http_get(const char *path, struct text *t, struct http *h)
{
	memset(t, 0, sizeof(*t));
	if (text_sink(t, "", 0) || http_do("GET", path, NULL, text_sink, t, h))
		return -1;
	return h->status;
}

/* ---- The server's answers ---------------------------------------------- */

/*
 * The number after "@key": in compact JSON (the server's nlohmann dump()).
 * A string value containing the key is escaped (\"key\"), so it cannot match.
 */
static bool json_number(const char *json, const char *key, double *val)
{
	char pattern[64], *end;
	const char *at;

	snprintf(pattern, sizeof(pattern), "\"%s\":", key);
	at = strstr(json, pattern);
	if (!at)
		return false;
	*val = strtod(at + strlen(pattern), &end);
	return end != at + strlen(pattern);
}

/* A Prometheus sample by its full name (no labels), from /metrics. */
static bool metric(const char *body, const char *name, double *val)
{
	size_t len = strlen(name);
	const char *line;
	char *end;

	for (line = body; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, name, len) || line[len] != ' ')
			continue;
		*val = strtod(line + len + 1, &end);
		return end != line + len + 1;
	}
	return false;
}

static int tokens_predicted_total(double *val, char *why, size_t size)
{
	struct http h;
	struct text t;
	int status = http_get("/metrics", &t, &h);

	if (status != 200)
		snprintf(why, size, "GET /metrics: %.150s", status < 0 ? h.error : "not 200 (--metrics?)");
	else if (!metric(t.data, "llamacpp:tokens_predicted_total", val))
		snprintf(why, size, "/metrics has no llamacpp:tokens_predicted_total");
	free(t.data);
	return status == 200 && !why[0] ? 0 : -1;
}

/* One streamed /completion, as the client saw it. */
struct stream {
	char line[SSE_LINE_MAX];
	size_t len;
	bool overlong;
	int partials;		/* data events before the last */
	int finals;		/* events with "stop":true */
	int errors;		/* data: {"error":...} events */
	int keepalives;		/* ":" comment lines */
	int others;		/* lines that are none of these */
	double predicted_n, predicted_per_second;
	char error[120];	/* the first error event */
};

static void sse_line(struct stream *s)
{
	const char *data = s->line + 6;

	if (!s->len)
		return;		/* the blank line that ends an event */
	if (s->line[0] == ':') {
		s->keepalives++;	/* comments: keep-alive pings */
		return;
	}
	if (strncmp(s->line, "data: ", 6)) {
		s->others++;
		return;
	}
	if (!strncmp(data, "{\"error\"", 8)) {
		if (!s->errors++)
			snprintf(s->error, sizeof(s->error), "%s", data);
	} else if (strstr(data, "\"stop\":true")) {
		s->finals++;
		if (!json_number(data, "predicted_n", &s->predicted_n))
			s->predicted_n = -1;
		json_number(data, "predicted_per_second", &s->predicted_per_second);
	} else {
		s->partials++;
	}
}

/* SSE lines may come split at any byte and several to a piece. */
static int sse_sink(void *ctx, const char *data, size_t len)
{
	struct stream *s = ctx;
	size_t i;

	for (i = 0; i < len; i++) {
		if (data[i] == '\n') {
			if (s->len && s->line[s->len - 1] == '\r')
				s->len--;
			s->line[s->len] = '\0';
			if (!s->overlong)
				sse_line(s);
			s->len = 0;
			s->overlong = false;
		} else if (s->len + 1 < sizeof(s->line)) {
			s->line[s->len++] = data[i];
		} else if (!s->overlong) {
			s->overlong = true;
			s->others++;
		}
	}
	return 0;
}

struct request {
	struct stream stream;
	struct http http;
	int ret;
	double seconds;
};

static struct request requests[MAX_REQUESTS];
static int next_request;
static pthread_mutex_t next_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * cache_prompt false: each request computes its prompt, as a new user's
 * would; the prompts differ anyway.
 */
static void *client(void *unused)
{
	char body[256];
	struct request *r;
	double start;
	int i;

	(void)unused;
	for (;;) {
		pthread_mutex_lock(&next_lock);
		i = next_request < opt.requests ? next_request++ : -1;
		pthread_mutex_unlock(&next_lock);
		if (i < 0)
			return NULL;
		r = &requests[i];
		snprintf(body, sizeof(body),
			 "{\"prompt\":\"Request %d: once upon a time\",\"n_predict\":%d,"
			 "\"stream\":true,\"cache_prompt\":false}", i, opt.tokens);
		start = now_s();
		r->ret = http_do("POST", "/completion", body, sse_sink, &r->stream, &r->http);
		r->seconds = now_s() - start;
	}
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

/*
 * The objects of a JSON array one by one, from @at inside the array: the
 * next one's bounds, @at moved past it.
 */
static bool next_object(const char **at, const char **start, const char **end)
{
	bool quoted = false;
	int depth = 1;
	const char *p;

	for (p = *at; *p; p++) {
		if (quoted) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				quoted = false;
		} else if (*p == '"') {
			quoted = true;
		} else if (*p == '{' || *p == '[') {
			if (depth++ == 1 && *p == '{')
				*start = p;
		} else if (*p == '}' || *p == ']') {
			if (--depth == 1 && *p == '}') {
				*end = p + 1;
				*at = p + 1;
				return true;
			}
		}
	}
	return false;
}

/* The number after "@key": between @start and @end; false if absent. */
static bool field(const char *start, const char *end, const char *key, double *val)
{
	char pattern[64];
	const char *at;

	snprintf(pattern, sizeof(pattern), "\"%s\":", key);
	at = memmem(start, end - start, pattern, strlen(pattern));
	if (!at)
		return false;
	*val = strtod(at + strlen(pattern), NULL);
	return true;
}

/* One poll: each slot's state, checked against the last; the slots processing. */
static int watch_poll(void)
{
	const char *at, *start = NULL, *end = NULL;
	struct slot_seen *seen;
	double task, decoded;
	bool processing;
	struct http h;
	struct text t;
	int n = 0, busy = 0, status = http_get("/slots", &t, &h);

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

/* ---- The server process ------------------------------------------------ */

static pid_t server_pid;

/*
 * -t 2: the main thread and one ggml worker compute (the guests have 2-4
 * vCPUs). --parallel 2: one slot per client thread, so both requests
 * decode in one batch. -c 512: 256 tokens of KV cache per slot, plenty
 * for a short prompt and n_predict, and small in a 1 GiB guest. --metrics
 * for /metrics. -lv 4: ggml prints its system_info line (the vector
 * features compiled in) only at debug verbosity.
 */
static int server_start(void)
{
	char port[16];
	int fd;

	snprintf(port, sizeof(port), "%d", opt.port);
	server_pid = fork();
	if (server_pid < 0)
		return -errno;
	if (server_pid)
		return 0;
	fd = open(opt.log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
		die_with(127, "llama-run", opt.log, errno);
	execl(opt.server, opt.server, "-m", opt.model, "--host", "127.0.0.1",
	      "--port", port, "-t", "2", "--parallel", "2", "-c", "512",
	      "--metrics", "-lv", "4", (char *)NULL);
	die_with(127, "llama-run: exec", opt.server, errno);
}

/* Whether the server has exited; its status into *status. */
static bool server_exited(int *status, int flags)
{
	pid_t pid = waitpid(server_pid, status, flags);

	return pid == server_pid;
}

static void describe_exit(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
}

/* The server's log, its last lines as TAP comments: why it failed. */
static void show_log_tail(int lines)
{
	static char log[1 << 20];
	ssize_t len = read_file(opt.log, log, sizeof(log));
	char *at;

	if (len < 0) {
		printf("# cannot read %s: %s\n", opt.log, strerror(-len));
		return;
	}
	for (at = log + len; at > log && lines >= 0; at--)
		if (at[-1] == '\n')
			lines--;
	printf("# last lines of %s:\n", opt.log);
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

	if (read_file(opt.log, log, sizeof(log)) < 0 || !(at = strstr(log, what)))
		return false;
	for (start = at; start > log && start[-1] != '\n'; start--)
		;
	end = strchrnul(at, '\n');
	printf("# LLAMA %.*s\n", (int)(end - start), start);
	return true;
}

/* GET /health until 200 or the deadline; 0, or -1 with @why. */
static int wait_healthy(double *seconds, char *why, size_t size)
{
	double start = now_s();
	struct http h;
	struct text t;
	int status, exit_status;
	char how[64];

	for (;;) {
		if (server_exited(&exit_status, WNOHANG)) {
			server_pid = 0;
			describe_exit(exit_status, how, sizeof(how));
			snprintf(why, size, "llama-server ended (%s) before /health said 200", how);
			return -1;
		}
		status = http_get("/health", &t, &h);
		free(t.data);
		*seconds = now_s() - start;
		if (status == 200)
			return 0;
		if (*seconds > opt.health_s) {
			snprintf(why, size, "no 200 from /health within %d s (last: %.120s)", opt.health_s,
				 status < 0 ? h.error : "503, model still loading");
			return -1;
		}
		usleep(250 * 1000);
	}
}

/*
 * SIGTERM, and SIGKILL if it is not gone after 60 s. 0 when it exited with
 * status 0, as llama-server does when it shuts down cleanly on SIGTERM.
 */
static int server_stop(char *how, size_t size)
{
	double deadline = now_s() + 60;
	int status;

	kill(server_pid, SIGTERM);
	while (!server_exited(&status, WNOHANG)) {
		if (now_s() > deadline) {
			kill(server_pid, SIGKILL);
			server_exited(&status, 0);
			snprintf(how, size, "still running 60 s after SIGTERM; killed");
			server_pid = 0;
			return -1;
		}
		usleep(100 * 1000);
	}
	server_pid = 0;
	describe_exit(status, how, size);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* ---- The module's rows --------------------------------------------------- */

struct row {
	pid_t tid;
	char comm[16];
	__u64 switches, saves, first_use;
};

/* Every thread of @pid, read with GET_TASK_STATS; the count or -errno. */
static int task_rows(int dev, pid_t pid, struct row *rows, int max)
{
	struct rvvstat_task_stats ts;
	char dir[64];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		memset(&ts, 0, sizeof(ts));
		ts.size = sizeof(ts);
		ts.tid = atoi(e->d_name);
		/* A thread that exited meanwhile, or never switched: no row. */
		if (ioctl(dev, RVVSTAT_IOC_GET_TASK_STATS, &ts))
			continue;
		rows[n].tid = ts.tid;
		memcpy(rows[n].comm, ts.comm, sizeof(rows[n].comm));
		rows[n].comm[sizeof(rows[n].comm) - 1] = '\0';
		rows[n].switches = ts.counters[RVVSTAT_SWITCHES];
		rows[n].saves = ts.counters[RVVSTAT_SAVES_USER];
		rows[n].first_use = ts.counters[RVVSTAT_FIRST_USE];
		n++;
	}
	closedir(d);
	return n;
}

static __u64 saves_before(const struct row *before, int n, pid_t tid)
{
	int i;

	for (i = 0; i < n; i++)
		if (before[i].tid == tid)
			return before[i].saves;
	return 0;	/* a thread started since */
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

/* rvvtop --json -d 1 on the server's URL, its output into top.line. */
static int rvvtop_start(void)
{
	char url[64];
	int fds[2];

	snprintf(url, sizeof(url), "http://127.0.0.1:%d", opt.port);
	if (pipe2(fds, O_CLOEXEC) || (top.pid = fork()) < 0) {
		snprintf(top.error, sizeof(top.error), "%s", strerror(errno));
		return -1;
	}
	if (!top.pid) {
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			die_with(127, "llama-run", "dup2", errno);
		execl(opt.rvvtop, opt.rvvtop, "--json", "-d", "1", "--llama", url, (char *)NULL);
		die_with(127, "llama-run: exec", opt.rvvtop, errno);
	}
	close(fds[1]);
	top.out = fdopen(fds[0], "r");
	if (!top.out || pthread_create(&top.reader, NULL, rvvtop_reader, NULL))
		die_with(1, "llama-run", "rvvtop's output", errno);
	return 0;
}

/* Until rvvtop has printed @n lines: false (and top.error) if it exits or stalls. */
static bool rvvtop_wait_lines(int n)
{
	double deadline = now_s() + RVVTOP_WAIT_S;
	char how[64];
	int status;

	while (atomic_load(&top.lines) < n) {
		if (waitpid(top.pid, &status, WNOHANG) == top.pid) {
			describe_exit(status, how, sizeof(how));
			snprintf(top.error, sizeof(top.error), "rvvtop %s after %d lines", how,
				 atomic_load(&top.lines));
			top.pid = 0;
			return false;
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

	for (i = 0; i < n; i++) {
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
	       "decoding (/slots), %.0f streamed\n", n, done, decoded, tokens);
	if (bad)
		check(false, "rvvtop_tokens", "%d of %d intervals without an up server's "
		      "completed tokens, first: %.150s", bad, n, top.line[first_bad]);
	else
		check(n > 0 && done == tokens && decoded > 0 && decoded <= tokens,
		      "rvvtop_tokens", "%.0f tokens completed over %d intervals, %.0f streamed; "
		      "%.0f seen decoding", done, n, tokens, decoded);
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
			if (!field(start, end, "tgid", &tgid) || tgid != server_pid ||
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
	      "intervals, %.0f saves in all", listed, server_pid, n, total);
}

/* ---- The run ------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr, "usage: llama-run [-s SERVER] [-m MODEL] [-t RVVTOP] [-n REQUESTS]"
		" [-k TOKENS] [-p PORT] [-w HEALTH_SECONDS] [-l LOG] [-x]\n");
	exit(2);
}

static void parse_options(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "s:m:t:n:k:p:w:l:x")) != -1) {
		switch (c) {
		case 's': opt.server = optarg; break;
		case 'm': opt.model = optarg; break;
		case 't': opt.rvvtop = optarg; break;
		case 'n': opt.requests = count_arg(optarg, MAX_REQUESTS, usage); break;
		case 'k': opt.tokens = count_arg(optarg, 200, usage); break;
		case 'p': opt.port = count_arg(optarg, 65535, usage); break;
		case 'w': opt.health_s = count_arg(optarg, 3600, usage); break;
		case 'l': opt.log = optarg; break;
		case 'x': opt.no_module = true; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
}

/* Streams every request at CONCURRENCY; checks them; the tokens generated. */
static double stream_all(double *seconds)
{
	pthread_t threads[CONCURRENCY], watcher;
	double tokens = 0, start = now_s();
	int i, bad = 0, keepalives = 0, partials = 0;
	char first_bad[200] = "";

	if (pthread_create(&watcher, NULL, slots_watcher, NULL))
		die_with(1, "llama-run", "pthread_create", errno);
	for (i = 0; i < CONCURRENCY; i++)
		if (pthread_create(&threads[i], NULL, client, NULL))
			die_with(1, "llama-run", "pthread_create", errno);
	for (i = 0; i < CONCURRENCY; i++)
		pthread_join(threads[i], NULL);
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

static void show_rows(const struct row *before, int nbefore, const struct row *rows,
		      int n, double tokens)
{
	__u64 delta, total = 0;
	int i;

	printf("# LLAMA threads of llama-server %d (saves: saves_user; run: during the requests)\n",
	       server_pid);
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

static void check_rows(const struct row *rows, int n)
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
	static struct row before[MAX_THREADS], after[MAX_THREADS];
	double health_s, metrics_before = 0, metrics_after = 0, tokens, seconds;
	int dev = -1, err, nbefore = 0, nafter;
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

	err = server_start();
	if (err) {
		check(false, "server_healthy", "fork: %s", strerror(-err));
		abandon("no server");
		return 1;
	}
	printf("# LLAMA server: %s -m %s --port %d -t 2 --parallel 2 -c 512 --metrics -lv 4"
	       " (pid %d, log %s)\n", opt.server, opt.model, opt.port, server_pid, opt.log);
	if (wait_healthy(&health_s, why, sizeof(why))) {
		check(false, "server_healthy", "%s", why);
		show_log_tail(20);
		if (server_pid)
			server_stop(how, sizeof(how));
		abandon("the server never became healthy");
		return 1;
	}
	check(true, "server_healthy", "/health 200 after %.1f s", health_s);
	printf("# LLAMA health %.1f s\n", health_s);
	ok = log_shows(VECTOR_FEATURE);
	check(ok, "system_info_vector", "%s %s '%s'", opt.log, ok ? "says" : "never says",
	      VECTOR_FEATURE);

	/* Its first line: rvvtop has sampled the counters before any request. */
	top_ok = !rvvtop_start() && rvvtop_wait_lines(1);
	if (tokens_predicted_total(&metrics_before, why, sizeof(why)))
		printf("# %s\n", why);
	if (dev >= 0)
		nbefore = task_rows(dev, server_pid, before, MAX_THREADS);
	tokens = stream_all(&seconds);
	printf("# LLAMA %.0f tokens in %.1f s at concurrency %d: %.2f tok/s"
	       " (emulated, not asserted)\n", tokens, seconds, CONCURRENCY, tokens / seconds);

	why[0] = '\0';
	if (tokens_predicted_total(&metrics_after, why, sizeof(why)))
		check(false, "metrics_agree", "%s", why);
	else
		check(metrics_after - metrics_before == tokens, "metrics_agree",
		      "tokens_predicted_total moved %.0f, the streams' predicted_n sum to %.0f",
		      metrics_after - metrics_before, tokens);
	check_slots(tokens);

	/* Two more lines: the second sampled after the last request ended. */
	top_ok = top_ok && rvvtop_wait_lines(atomic_load(&top.lines) + 2);
	rvvtop_stop();
	if (top_ok) {
		check_rvvtop_tokens(tokens);
		if (dev >= 0)
			check_rvvtop_threads(tokens);
		else
			skip("rvvtop_threads", "-x");
	} else {
		check(false, "rvvtop_tokens", "%s: %s", opt.rvvtop, top.error[0] ? top.error :
		      "did not start");
		check(false, "rvvtop_threads", "no rvvtop output");
	}

	if (dev >= 0) {
		nafter = task_rows(dev, server_pid, after, MAX_THREADS);
		if (nafter < 0 || nbefore < 0) {
			check(false, "vector_threads", "/proc/%d/task: %s", server_pid,
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

	err = server_stop(how, sizeof(how));
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
