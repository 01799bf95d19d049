// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>

#include "http.h"

#define RVV_HTTP_MAX_BODY	(4 << 20)
#define AUTH_PREFIX		"Authorization: Bearer "

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

int rvv_http_get(const char *base_url, const char *path, long timeout_ms,
		 const char *api_key, struct rvv_http_reply *reply,
		 struct rvv_error *err)
{
	struct curl_slist *headers = NULL;
	char url[1024], auth[1024];
	CURLcode code;
	CURL *curl;

	memset(reply, 0, sizeof(*reply));
	if ((size_t)snprintf(url, sizeof(url), "%s%s", base_url, path) >= sizeof(url))
		return rvv_fail(err, -ENAMETOOLONG, "%s%s: URL too long", base_url, path);
	if (api_key && (size_t)snprintf(auth, sizeof(auth), AUTH_PREFIX "%s",
					api_key) >= sizeof(auth))
		return rvv_fail(err, -E2BIG, "the API key is over %zu bytes",
				sizeof(auth) - sizeof(AUTH_PREFIX));
	curl = curl_easy_init();
	if (!curl)
		return rvv_fail(err, -ENOMEM, "%s: cannot start libcurl", url);
	if (api_key) {
		headers = curl_slist_append(NULL, auth);
		if (!headers) {
			curl_easy_cleanup(curl);
			return rvv_fail(err, -ENOMEM, "%s: no memory for the API key", url);
		}
		curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	}
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, rvv_http_append);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, reply);
	code = curl_easy_perform(curl);
	if (code == CURLE_OK)
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &reply->status);
	curl_easy_cleanup(curl);
	curl_slist_free_all(headers);
	if (code == CURLE_OK)
		return 0;
	rvv_http_free(reply);
	if (code == CURLE_WRITE_ERROR && reply->status == -1)
		return rvv_fail(err, -EFBIG, "%s: the answer is over %d MiB, rvvtop's cap",
				url, RVV_HTTP_MAX_BODY >> 20);
	return rvv_fail(err, code == CURLE_OPERATION_TIMEDOUT ? -ETIMEDOUT :
			code == CURLE_COULDNT_CONNECT ? -ECONNREFUSED :
			code == CURLE_WRITE_ERROR ? -EFBIG : -EIO,
			"%s: %s", url, curl_easy_strerror(code));
}

void rvv_http_free(struct rvv_http_reply *reply)
{
	free(reply->body);
	reply->body = NULL;
	reply->length = 0;
}
