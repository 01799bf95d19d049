// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>

#include "http.h"

#define RVV_HTTP_MAX_BODY	(4 << 20)
#define AUTH_PREFIX		"Authorization: Bearer "

/*
 * One easy handle, reused so that libcurl keeps the connection (llama-server
 * answers HTTP/1.1 with keep-alive), driven through a multi handle so that
 * curl_multi_wakeup() can end a GET from another thread.
 */
struct rvv_http {
	CURLM *multi;
	CURL *easy;
	struct curl_slist *headers;
	char *base_url;
	atomic_bool interrupted;
};

static size_t rvv_http_append(char *data, size_t size, size_t nmemb, void *arg)
{
	struct rvv_http_reply *r = arg;
	size_t n = size * nmemb;
	char *body;

	if (r->length + n > RVV_HTTP_MAX_BODY) {
		r->status = -1;	/* over the cap: said so below */
		return 0;	/* makes curl fail with CURLE_WRITE_ERROR */
	}
	body = realloc(r->body, r->length + n + 1);
	if (!body)
		return 0;
	memcpy(body + r->length, data, n);
	r->length += n;
	body[r->length] = '\0';
	r->body = body;
	return n;
}

int rvv_http_open(struct rvv_http **session, const char *base_url, long timeout_ms,
		  const char *api_key, struct rvv_error *err)
{
	struct rvv_http *h;
	char auth[1024];

	*session = NULL;
	if (api_key && (size_t)snprintf(auth, sizeof(auth), AUTH_PREFIX "%s",
					api_key) >= sizeof(auth))
		return rvv_fail(err, -E2BIG, "the API key is over %zu bytes",
				sizeof(auth) - sizeof(AUTH_PREFIX));
	h = calloc(1, sizeof(*h));
	if (!h)
		return rvv_fail(err, -ENOMEM, "%s: no memory for an HTTP session", base_url);
	h->base_url = strdup(base_url);
	h->multi = curl_multi_init();
	h->easy = curl_easy_init();
	if (api_key)
		h->headers = curl_slist_append(NULL, auth);
	if (!h->base_url || !h->multi || !h->easy || (api_key && !h->headers)) {
		rvv_http_close(h);
		return rvv_fail(err, -ENOMEM, "%s: cannot start libcurl", base_url);
	}
	curl_easy_setopt(h->easy, CURLOPT_HTTPHEADER, h->headers);
	curl_easy_setopt(h->easy, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(h->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h->easy, CURLOPT_WRITEFUNCTION, rvv_http_append);
	*session = h;
	return 0;
}

/* Runs the easy handle to its end, or until interrupted (CURLE_ABORTED_BY_CALLBACK). */
static CURLcode rvv_http_run(struct rvv_http *h)
{
	CURLcode code = CURLE_OK;
	bool done = false;
	CURLMsg *msg;
	int running, left;

	if (curl_multi_add_handle(h->multi, h->easy) != CURLM_OK)
		return CURLE_OUT_OF_MEMORY;
	while (!done) {
		if (atomic_load(&h->interrupted)) {
			code = CURLE_ABORTED_BY_CALLBACK;
			break;
		}
		if (curl_multi_perform(h->multi, &running) != CURLM_OK) {
			code = CURLE_RECV_ERROR;
			break;
		}
		while ((msg = curl_multi_info_read(h->multi, &left)))
			if (msg->msg == CURLMSG_DONE) {
				code = msg->data.result;
				done = true;
			}
		/* The easy handle's timeout bounds the wait; 1 s is a backstop. */
		if (!done && curl_multi_poll(h->multi, NULL, 0, 1000, NULL) != CURLM_OK) {
			code = CURLE_RECV_ERROR;
			break;
		}
	}
	curl_multi_remove_handle(h->multi, h->easy);
	return code;
}

int rvv_http_fetch(struct rvv_http *h, const char *path,
		   struct rvv_http_reply *reply, struct rvv_error *err)
{
	char url[1024];
	CURLcode code;

	memset(reply, 0, sizeof(*reply));
	if ((size_t)snprintf(url, sizeof(url), "%s%s", h->base_url, path) >= sizeof(url))
		return rvv_fail(err, -ENAMETOOLONG, "%s%s: URL too long", h->base_url, path);
	curl_easy_setopt(h->easy, CURLOPT_URL, url);
	curl_easy_setopt(h->easy, CURLOPT_WRITEDATA, reply);
	code = rvv_http_run(h);
	if (code == CURLE_OK) {
		curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &reply->status);
		return 0;
	}
	rvv_http_free(reply);
	if (code == CURLE_ABORTED_BY_CALLBACK)
		return rvv_fail(err, -EINTR, "%s: interrupted", url);
	if (code == CURLE_WRITE_ERROR && reply->status == -1)
		return rvv_fail(err, -EFBIG, "%s: the answer is over %d MiB, rvvtop's cap",
				url, RVV_HTTP_MAX_BODY >> 20);
	return rvv_fail(err, code == CURLE_OPERATION_TIMEDOUT ? -ETIMEDOUT :
			code == CURLE_COULDNT_CONNECT ? -ECONNREFUSED :
			code == CURLE_WRITE_ERROR ? -EFBIG : -EIO,
			"%s: %s", url, curl_easy_strerror(code));
}

void rvv_http_interrupt(struct rvv_http *h)
{
	atomic_store(&h->interrupted, true);
	curl_multi_wakeup(h->multi);
}

void rvv_http_close(struct rvv_http *h)
{
	if (!h)
		return;
	if (h->easy)
		curl_easy_cleanup(h->easy);
	if (h->multi)
		curl_multi_cleanup(h->multi);
	curl_slist_free_all(h->headers);
	free(h->base_url);
	free(h);
}

int rvv_http_get(const char *base_url, const char *path, long timeout_ms,
		 const char *api_key, struct rvv_http_reply *reply,
		 struct rvv_error *err)
{
	struct rvv_http *h;
	int status;

	memset(reply, 0, sizeof(*reply));
	status = rvv_http_open(&h, base_url, timeout_ms, api_key, err);
	if (!status)
		status = rvv_http_fetch(h, path, reply, err);
	rvv_http_close(h);
	return status;
}

int rvv_http_connect(const char *url, long timeout_ms, struct rvv_error *err)
{
	CURL *easy = curl_easy_init();
	CURLcode code;

	if (!easy)
		return rvv_fail(err, -ENOMEM, "%s: cannot start libcurl", url);
	curl_easy_setopt(easy, CURLOPT_URL, url);
	curl_easy_setopt(easy, CURLOPT_CONNECT_ONLY, 1L);
	curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
	curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
	code = curl_easy_perform(easy);
	curl_easy_cleanup(easy);
	if (code == CURLE_OK)
		return 0;
	return rvv_fail(err, code == CURLE_OPERATION_TIMEDOUT ? -ETIMEDOUT :
			code == CURLE_COULDNT_CONNECT ? -ECONNREFUSED :
			code == CURLE_COULDNT_RESOLVE_HOST ? -EHOSTUNREACH : -EIO,
			"cannot connect to %s: %s", url, curl_easy_strerror(code));
}

void rvv_http_free(struct rvv_http_reply *reply)
{
	free(reply->body);
	reply->body = NULL;
	reply->length = 0;
}
