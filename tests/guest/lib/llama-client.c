// SPDX-License-Identifier: GPL-2.0
/*
 * A llama-server in a guest, for llama-run (the checks) and demo (`make
 * demo`): started and stopped, asked over HTTP/1.1 and streamed to, and its
 * threads as the module counts them. See llama-client.h.
 *
 * HTTP/1.1 by hand over plain sockets: Debian 12 has no riscv64 libcurl
 * (no riscv64 userland packages at all) to link statically, and the guest
 * has no shell or curl. (rvvtop links dynamically to Debian 13's, which
 * tests/rig/riscv64-sysroot fetches; these programs stay static and small.)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
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
#include "llama-client.h"

/*
 * Longer than the server's 30 s SSE keep-alive, so a live but slow server
 * (a TCG guest on a loaded host) never trips it; a hung one does.
 */
#define RECV_TIMEOUT_S	120

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- HTTP/1.1 client --------------------------------------------------- */

struct conn {
	int fd;
	size_t start, end;
	char buf[16 << 10];
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
int http_do(int port, const char *method, const char *path, const char *body,
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
	c->fd = connect_local(port, h);
	if (c->fd < 0)
		goto out_free;
	n = asprintf(&req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n"
		     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
		     method, path, port, body ? strlen(body) : 0, body ? body : "");
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
int http_get(int port, const char *path, struct text *t, struct http *h)
{
	memset(t, 0, sizeof(*t));
	if (text_sink(t, "", 0) || http_do(port, "GET", path, NULL, text_sink, t, h))
		return -1;
	return h->status;
}

/* ---- The server's answers ---------------------------------------------- */

/*
 * The number after "@key": in compact JSON (the server's nlohmann dump()).
 * A string value containing the key is escaped (\"key\"), so it cannot match.
 */
bool json_number(const char *json, const char *key, double *val)
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
bool metric(const char *body, const char *name, double *val)
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

int tokens_predicted_total(int port, double *val, char *why, size_t size)
{
	struct http h;
	struct text t;
	int status = http_get(port, "/metrics", &t, &h);

	if (status != 200)
		snprintf(why, size, "GET /metrics: %.150s", status < 0 ? h.error : "not 200 (--metrics?)");
	else if (!metric(t.data, "llamacpp:tokens_predicted_total", val))
		snprintf(why, size, "/metrics has no llamacpp:tokens_predicted_total");
	free(t.data);
	return status == 200 && !why[0] ? 0 : -1;
}

/*
 * The objects of a JSON array one by one, from @at inside the array: the
 * next one's bounds, @at moved past it.
 */
bool next_object(const char **at, const char **start, const char **end)
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
bool field(const char *start, const char *end, const char *key, double *val)
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

/* ---- Streamed requests ---------------------------------------------------- */

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

/* The requests of one stream_requests() call, taken in turn by its threads. */
struct batch {
	int port, tokens, n, next;
	struct request *requests;
	pthread_mutex_t lock;
};

/*
 * cache_prompt false: each request computes its prompt, as a new user's
 * would; the prompts differ anyway.
 */
static void *client(void *arg)
{
	struct batch *b = arg;
	char body[256];
	struct request *r;
	double start;
	int i;

	for (;;) {
		pthread_mutex_lock(&b->lock);
		i = b->next < b->n ? b->next++ : -1;
		pthread_mutex_unlock(&b->lock);
		if (i < 0)
			return NULL;
		r = &b->requests[i];
		snprintf(body, sizeof(body),
			 "{\"prompt\":\"Request %d: once upon a time\",\"n_predict\":%d,"
			 "\"stream\":true,\"cache_prompt\":false}", i, b->tokens);
		start = now_s();
		r->ret = http_do(b->port, "POST", "/completion", body, sse_sink, &r->stream,
				 &r->http);
		r->seconds = now_s() - start;
	}
}

void stream_requests(int port, struct request *requests, int n, int tokens, int concurrency)
{
	struct batch b = {
		.port = port, .tokens = tokens, .n = n, .requests = requests,
		.lock = PTHREAD_MUTEX_INITIALIZER,
	};
	pthread_t threads[MAX_CONCURRENCY];
	int i;

	memset(requests, 0, n * sizeof(*requests));
	for (i = 0; i < concurrency && i < MAX_CONCURRENCY; i++)
		if (pthread_create(&threads[i], NULL, client, &b))
			die_with(1, "stream_requests", "pthread_create", errno);
	while (i--)
		pthread_join(threads[i], NULL);
}

/* ---- Processes ------------------------------------------------------------- */

pid_t spawn(const char *const argv[], int out_fd, int err_fd)
{
	pid_t pid = fork();

	if (pid)
		return pid < 0 ? -errno : pid;
	if ((out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0) ||
	    (err_fd >= 0 && dup2(err_fd, STDERR_FILENO) < 0))
		die_with(127, argv[0], "dup2", errno);
	execv(argv[0], (char *const *)argv);
	die_with(127, "exec", argv[0], errno);
}

void describe_exit(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
}

/* ---- The server -------------------------------------------------------------- */

/*
 * -t 2: the main thread and one ggml worker compute (the guests have 2-4
 * vCPUs). --parallel 2: one slot per client thread, so both requests
 * decode in one batch. -c 512: 256 tokens of KV cache per slot, plenty
 * for a short prompt and n_predict, and small in a 1 GiB guest. --metrics
 * for /metrics. -lv 4: ggml prints its system_info line (the vector
 * features compiled in) only at debug verbosity.
 */
int llama_start(struct llama_server *s)
{
	char port[16];
	const char *const argv[] = {
		s->path, "-m", s->model, "--host", "127.0.0.1", "--port", port, "-t", "2",
		"--parallel", "2", "-c", "512", "--metrics", "-lv", "4", NULL
	};
	int fd;

	snprintf(port, sizeof(port), "%d", s->port);
	fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	s->pid = spawn(argv, fd, fd);
	close(fd);
	return s->pid < 0 ? s->pid : 0;
}

bool llama_exited(struct llama_server *s, int *status, int flags)
{
	if (waitpid(s->pid, status, flags) != s->pid)
		return false;
	s->pid = 0;
	return true;
}

int llama_wait_healthy(struct llama_server *s, int limit_s, double *seconds, char *why,
		       size_t size)
{
	double start = now_s();
	struct http h;
	struct text t;
	int status, exit_status;
	char how[64];

	for (;;) {
		if (llama_exited(s, &exit_status, WNOHANG)) {
			describe_exit(exit_status, how, sizeof(how));
			snprintf(why, size, "llama-server ended (%s) before /health said 200", how);
			return -1;
		}
		status = http_get(s->port, "/health", &t, &h);
		free(t.data);
		*seconds = now_s() - start;
		if (status == 200)
			return 0;
		if (*seconds > limit_s) {
			snprintf(why, size, "no 200 from /health within %d s (last: %.120s)", limit_s,
				 status < 0 ? h.error : "503, model still loading");
			return -1;
		}
		usleep(250 * 1000);
	}
}

int llama_stop(struct llama_server *s, char *how, size_t size)
{
	double deadline = now_s() + 60;
	int status;

	kill(s->pid, SIGTERM);
	while (!llama_exited(s, &status, WNOHANG)) {
		if (now_s() > deadline) {
			kill(s->pid, SIGKILL);
			llama_exited(s, &status, 0);
			snprintf(how, size, "still running 60 s after SIGTERM; killed");
			return -1;
		}
		usleep(100 * 1000);
	}
	describe_exit(status, how, size);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/* ---- The server's threads, as the module counts them ------------------------ */

int thread_rows(int dev, pid_t pid, struct thread_row *rows, int max)
{
	struct rvvstat_task_stats ts;
	pid_t *tids = calloc(max, sizeof(*tids));
	int i, nr_tids, n = 0;

	if (!tids)
		return -ENOMEM;
	nr_tids = proc_tids(pid, tids, max);
	for (i = 0; i < nr_tids; i++) {
		memset(&ts, 0, sizeof(ts));
		ts.size = sizeof(ts);
		ts.tid = tids[i];
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
	free(tids);
	return nr_tids < 0 ? nr_tids : n;
}

__u64 saves_before(const struct thread_row *before, int n, pid_t tid)
{
	int i;

	for (i = 0; i < n; i++)
		if (before[i].tid == tid)
			return before[i].saves;
	return 0;	/* a thread started since */
}
