// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sse.h"

void sse_init(struct sse_parser *p)
{
	memset(p, 0, sizeof(*p));
}

void sse_free(struct sse_parser *p)
{
	free(p->line);
	free(p->data);
	sse_init(p);
}

static int grow(char **buf, size_t *cap, size_t need, struct rvv_error *err)
{
	size_t cap2 = *cap ? *cap : 256;
	char *b;

	if (need <= *cap)
		return 0;
	while (cap2 < need)
		cap2 *= 2;
	b = realloc(*buf, cap2);
	if (!b)
		return rvv_fail(err, -ENOMEM, "SSE buffer of %zu bytes: out of memory", cap2);
	*buf = b;
	*cap = cap2;
	return 0;
}

/* One whole line, without its end. */
static int sse_line(struct sse_parser *p, const char *s, size_t n, sse_event_fn fn, void *ctx,
		    struct rvv_error *err)
{
	enum sse_field field;
	size_t name;
	int rc;

	if (n == 0) {
		if (!p->has_data)
			return 0;
		p->has_data = 0;
		p->events++;
		rc = fn(ctx, p->field, p->data, p->data_len, err);
		p->data_len = 0;
		return rc;
	}
	if (s[0] == ':') {
		p->comments++;
		return 0;
	}
	name = 0;
	while (name < n && s[name] != ':')
		name++;
	if (name == 4 && !memcmp(s, "data", 4))
		field = SSE_DATA;
	else if (name == 5 && !memcmp(s, "error", 5))
		field = SSE_ERROR;
	else
		return 0;	/* event:, id:, retry: and unknown fields */
	s += name + (name < n);
	n -= name + (name < n);
	if (n && s[0] == ' ') {
		s++;
		n--;
	}
	/* Several data lines join with '\n', as the SSE specification says. */
	rc = grow(&p->data, &p->data_cap, p->data_len + n + 2, err);
	if (rc)
		return rc;
	if (p->has_data)
		p->data[p->data_len++] = '\n';
	memcpy(p->data + p->data_len, s, n);
	p->data_len += n;
	p->data[p->data_len] = '\0';
	if (!p->has_data || field == SSE_ERROR)
		p->field = field;
	p->has_data = 1;
	return 0;
}

int sse_feed(struct sse_parser *p, const char *bytes, size_t n, sse_event_fn fn, void *ctx,
	     struct rvv_error *err)
{
	const char *end = bytes + n, *nl;
	size_t len;
	int rc;

	while (bytes < end) {
		nl = memchr(bytes, '\n', (size_t)(end - bytes));
		len = nl ? (size_t)(nl - bytes) : (size_t)(end - bytes);
		rc = grow(&p->line, &p->line_cap, p->line_len + len + 1, err);
		if (rc)
			return rc;
		memcpy(p->line + p->line_len, bytes, len);
		p->line_len += len;
		if (!nl)
			return 0;
		bytes = nl + 1;
		len = p->line_len;
		if (len && p->line[len - 1] == '\r')
			len--;
		p->line_len = 0;
		rc = sse_line(p, p->line, len, fn, ctx, err);
		if (rc)
			return rc;
	}
	return 0;
}
