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

/* Room for @need bytes of a line or an event (@what), within SSE_MAX_LINE. */
static int grow(char **buf, size_t *cap, size_t need, const char *what, struct rvv_error *err)
{
	size_t cap2 = *cap ? *cap : 256;
	char *b;

	if (need <= *cap)
		return 0;
	if (need > SSE_MAX_LINE)
		return rvv_fail(err, -EMSGSIZE, "an SSE %s over %d bytes: not a llama-server stream",
				what, SSE_MAX_LINE);
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
		if (!p->data_len)	/* "data:" alone: nothing to deliver, not a broken event */
			return 0;
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
	rc = grow(&p->data, &p->data_cap, p->data_len + n + 2, "event", err);
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

/* Adds @n bytes to the unfinished line, within the bound. */
static int append(struct sse_parser *p, const char *s, size_t n, struct rvv_error *err)
{
	int rc = grow(&p->line, &p->line_cap, p->line_len + n + 1, "line", err);

	if (rc)
		return rc;
	memcpy(p->line + p->line_len, s, n);
	p->line_len += n;
	return 0;
}

/* UTF-8's byte-order mark: the stream may open with one, which is not part of it. */
static const char bom[3] = { '\xef', '\xbb', '\xbf' };

int sse_feed(struct sse_parser *p, const char *bytes, size_t n, sse_event_fn fn, void *ctx,
	     struct rvv_error *err)
{
	const char *end = bytes + n, *eol;
	size_t len;
	int rc;

	while (!p->bom_done && bytes < end) {
		if (*bytes == bom[p->bom_len]) {
			bytes++;
			p->bom_done = ++p->bom_len == sizeof(bom);
			continue;
		}
		p->bom_done = 1;	/* not a mark: what matched of it is text */
		rc = append(p, bom, p->bom_len, err);
		if (rc)
			return rc;
	}
	while (bytes < end) {
		/* A line ends at CRLF, LF or a bare CR; the LF of a CRLF split across feeds too. */
		if (p->after_cr) {
			p->after_cr = 0;
			if (*bytes == '\n') {
				bytes++;
				continue;
			}
		}
		for (eol = bytes; eol < end && *eol != '\n' && *eol != '\r'; eol++)
			;
		rc = append(p, bytes, (size_t)(eol - bytes), err);
		if (rc || eol == end)
			return rc;
		p->after_cr = *eol == '\r';
		bytes = eol + 1;
		len = p->line_len;
		p->line_len = 0;
		rc = sse_line(p, p->line, len, fn, ctx, err);
		if (rc)
			return rc;
	}
	return 0;
}
