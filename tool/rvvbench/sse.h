/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A Server-Sent Events splitter: bytes in, in whatever pieces the socket
 * gave them, whole events out. Fields "data" and llama-server's "error"
 * are delivered; ":" comments (keep-alives) are counted; an event is
 * dispatched at the blank line that ends it, so an event cut off by a
 * closed connection is never delivered. As the specification has it, lines
 * end at CRLF, LF or a bare CR, and a UTF-8 byte-order mark opening the
 * stream is dropped; an event whose data is empty ("data:" alone) is not
 * delivered. A line or an event over SSE_MAX_LINE bytes ends the stream
 * with -EMSGSIZE instead of growing without bound.
 */
#ifndef RVVBENCH_SSE_H
#define RVVBENCH_SSE_H

#include <stddef.h>

#include "../lib/error.h"

enum sse_field { SSE_DATA, SSE_ERROR };

#define SSE_MAX_LINE (4 << 20)

/* Returns 0 to go on, or -errno (with @err filled) to stop the stream. */
typedef int (*sse_event_fn)(void *ctx, enum sse_field field, const char *data,
			    size_t length, struct rvv_error *err);

struct sse_parser {
	char *line;		/* the unfinished line */
	size_t line_len, line_cap;
	char *data;		/* the event's data so far, NUL-terminated */
	size_t data_len, data_cap;
	enum sse_field field;
	int has_data;
	int after_cr;		/* the last line ended at a CR: an LF next is its end too */
	unsigned int bom_len;	/* bytes of a byte-order mark seen at the start */
	int bom_done;		/* past where a byte-order mark may be */
	long comments;		/* ":" lines seen */
	long events;		/* events dispatched */
};

void sse_init(struct sse_parser *p);
void sse_free(struct sse_parser *p);
/* Feeds @n bytes; calls @fn for each event they complete. 0 or -errno. */
int sse_feed(struct sse_parser *p, const char *bytes, size_t n, sse_event_fn fn, void *ctx,
	     struct rvv_error *err);

#endif /* RVVBENCH_SSE_H */
