/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A llama-server in a guest, for llama-run (the checks) and demo (`make
 * demo`): the server process, HTTP/1.1 to it on 127.0.0.1, /completion
 * streams, the scraps of its JSON and /metrics that the programs read, and
 * its threads as the module counts them.
 */
#ifndef RVVSTAT_LLAMA_CLIENT_H
#define RVVSTAT_LLAMA_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#define SSE_LINE_MAX	(64 << 10)
#define MAX_CONCURRENCY	8

/* Seconds on the monotonic clock. */
double now_s(void);

/* ---- HTTP ---- */

/* Receives a response body in pieces of any size. 0, or -1 to stop. */
typedef int (*sink_fn)(void *ctx, const char *data, size_t len);

struct http {
	int status;
	char error[200];	/* why the exchange failed, for the report */
};

/* A whole body in memory, NUL-terminated. */
struct text {
	char *data;
	size_t len, cap;
};

/*
 * One request to 127.0.0.1:@port on its own connection. 0 when a whole
 * response came, whatever its status; -1 with h->error set otherwise.
 */
int http_do(int port, const char *method, const char *path, const char *body,
	    sink_fn sink, void *ctx, struct http *h);
/* GET @path into @t (freed by the caller); its status, or -1 with h->error. */
int http_get(int port, const char *path, struct text *t, struct http *h);

/* ---- What the server says ---- */

/* The number after "@key": in compact JSON; false if absent or not a number. */
bool json_number(const char *json, const char *key, double *val);
/* The objects of a JSON array one by one, from @at inside it; @at moves past each. */
bool next_object(const char **at, const char **start, const char **end);
/* The number after "@key": between @start and @end; false if absent. */
bool field(const char *start, const char *end, const char *key, double *val);
/* A Prometheus sample by its full name (no labels). */
bool metric(const char *body, const char *name, double *val);
/* llamacpp:tokens_predicted_total from /metrics; 0, or -1 with @why. */
int tokens_predicted_total(int port, double *val, char *why, size_t size);

/* ---- Streamed /completion requests ---- */

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

struct request {
	struct stream stream;
	struct http http;
	int ret;		/* http_do()'s */
	double seconds;
};

/* @n requests of @tokens tokens each, @concurrency at a time; returns when all ended. */
void stream_requests(int port, struct request *requests, int n, int tokens, int concurrency);

/* ---- Processes ---- */

/* argv[0] run with stdout/stderr on the fds (-1: inherited); the pid or -errno. */
pid_t spawn(const char *const argv[], int out_fd, int err_fd);
/* "exit status N" or "killed by signal N". */
void describe_exit(int status, char *buf, size_t size);

struct llama_server {
	const char *path, *model, *log;
	int port;
	pid_t pid;		/* 0 once it has exited */
};

/* Starts it on its model, its output into its log; 0 or -errno. */
int llama_start(struct llama_server *s);
/* Whether it has exited (waitpid @flags); its status into *status. */
bool llama_exited(struct llama_server *s, int *status, int flags);
/* GET /health until 200 or @limit_s; 0, or -1 with @why. */
int llama_wait_healthy(struct llama_server *s, int limit_s, double *seconds, char *why,
		       size_t size);
/*
 * SIGTERM, and SIGKILL if it is not gone after 60 s. 0 when it exited with
 * status 0, as llama-server does when it shuts down cleanly on SIGTERM.
 */
int llama_stop(struct llama_server *s, char *how, size_t size);

/* ---- Its threads, as the module counts them ---- */

struct thread_row {
	pid_t tid;
	char comm[16];
	__u64 switches, saves, first_use;	/* saves: saves_user */
};

/* Every thread of @pid, read with GET_TASK_STATS on @dev; the count or -errno. */
int thread_rows(int dev, pid_t pid, struct thread_row *rows, int max);
/* @tid's saves in an earlier reading; 0 for a thread started since. */
__u64 saves_before(const struct thread_row *before, int n, pid_t tid);

#endif
