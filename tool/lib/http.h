/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small GET over libcurl, for llama-server's /metrics, /slots, /health:
 * one at a time, or in a session that keeps its connection between GETs
 * and that another thread can interrupt.
 */
#ifndef RVVSTAT_HTTP_H
#define RVVSTAT_HTTP_H

#include <stddef.h>

#include "error.h"

struct rvv_http_reply {
	long status;		/* HTTP status; 0 if no answer */
	char *body;		/* NUL-terminated, malloc'd; NULL if none */
	size_t length;
};

/*
 * GETs @base_url + @path within @timeout_ms, with "Authorization: Bearer
 * @api_key" unless it is NULL. 0 with the reply (any HTTP status), or
 * -errno with @err saying why no answer came (refused, timed out, too big:
 * bodies are capped at 4 MiB). Free with rvv_http_free().
 */
int rvv_http_get(const char *base_url, const char *path, long timeout_ms,
		 const char *api_key, struct rvv_http_reply *reply,
		 struct rvv_error *err);
void rvv_http_free(struct rvv_http_reply *reply);

/*
 * Whether a connection to @url's host and port (TLS too for https) opens
 * within @timeout_ms; nothing is sent. 0, or -errno with @err saying
 * "cannot connect to URL: why".
 */
int rvv_http_connect(const char *url, long timeout_ms, struct rvv_error *err);

struct rvv_http;

/*
 * A session with @base_url: each GET within @timeout_ms, with @api_key as
 * rvv_http_get() sends it (both strings are copied). 0, or -errno with @err.
 */
int rvv_http_open(struct rvv_http **session, const char *base_url, long timeout_ms,
		  const char *api_key, struct rvv_error *err);
/* As rvv_http_get(), on the session's connection; -EINTR once interrupted. */
int rvv_http_fetch(struct rvv_http *session, const char *path,
		   struct rvv_http_reply *reply, struct rvv_error *err);
/*
 * From any thread: the GET under way, and every later one, end at once
 * with -EINTR.
 */
void rvv_http_interrupt(struct rvv_http *session);
void rvv_http_close(struct rvv_http *session);

#endif /* RVVSTAT_HTTP_H */
