/* SPDX-License-Identifier: GPL-2.0 */
/* A small GET over libcurl, for llama-server's /metrics, /slots, /health. */
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

#endif /* RVVSTAT_HTTP_H */
