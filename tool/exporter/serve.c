// SPDX-License-Identifier: GPL-2.0
/*
 * Each scrape opens its own netlink client, renders into memory and closes
 * it (rvv_scrape()): nothing is cached, nothing runs between scrapes, and a
 * module that was unloaded and loaded again is simply found again. While
 * the module cannot be read, /metrics answers 503 (Prometheus marks the
 * target down) with rvvstat_up 0 as its body.
 */
#include <errno.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/exposition.h"
#include "serve.h"

static const char index_page[] =
	"<!DOCTYPE html><html><head><title>rvvstat exporter</title></head>"
	"<body><h1>rvvstat exporter</h1><p><a href=\"/metrics\">Metrics</a></p>"
	"</body></html>\n";

static enum MHD_Result respond(struct MHD_Connection *conn, unsigned int code,
			       const char *type, char *body, size_t len,
			       enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result respond_text(struct MHD_Connection *conn, unsigned int code,
				    const char *text)
{
	return respond(conn, code, "text/plain; charset=utf-8", (char *)text,
		       strlen(text), MHD_RESPMEM_PERSISTENT);
}

/* OpenMetrics when the scraper lists it (Prometheus does), else text 0.0.4. */
static enum rvv_exposition_format negotiated(struct MHD_Connection *conn)
{
	const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);

	return accept && strstr(accept, "application/openmetrics-text") ?
	       RVV_OPENMETRICS : RVV_PROMETHEUS_TEXT;
}

/* Logs the module going away and coming back, not every scrape meanwhile. */
static void note_module(struct exporter *e, bool down, const char *why)
{
	if (atomic_exchange(&e->module_down, down) == down)
		return;
	if (down)
		fprintf(stderr, "rvvstat-exporter: answering 503: %s\n", why);
	else
		fprintf(stderr, "rvvstat-exporter: the module answers again\n");
}

static enum MHD_Result scrape(struct exporter *e, struct MHD_Connection *conn)
{
	struct rvv_exposition how = {
		.format = negotiated(conn), .top_tasks = e->top_tasks,
	};
	struct rvv_error err = { 0 };
	char *body;
	size_t len;
	int status;

	status = rvv_scrape(&how, &body, &len, &err);
	if (!body)
		return respond_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
				    "rvvstat-exporter: no memory for a scrape\n");
	note_module(e, status != 0, err.message);
	return respond(conn, status ? MHD_HTTP_SERVICE_UNAVAILABLE : MHD_HTTP_OK,
		       how.format == RVV_OPENMETRICS ? RVV_OPENMETRICS_CONTENT_TYPE :
						       RVV_PROMETHEUS_TEXT_CONTENT_TYPE,
		       body, len, MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version,
			      const char *upload_data, size_t *upload_data_size,
			      void **req_cls)
{
	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)req_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return respond_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				    "rvvstat-exporter answers GET and HEAD only\n");
	if (!strcmp(url, "/metrics"))
		return scrape(cls, conn);
	if (!strcmp(url, "/"))
		return respond(conn, MHD_HTTP_OK, "text/html; charset=utf-8",
			       (char *)index_page, sizeof(index_page) - 1,
			       MHD_RESPMEM_PERSISTENT);
	return respond_text(conn, MHD_HTTP_NOT_FOUND,
			    "rvvstat-exporter: nothing here; the metrics are at /metrics\n");
}

int exporter_start(struct exporter *e, struct rvv_error *err)
{
	e->daemon = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG,
				     0, NULL, NULL, answer, e,
				     MHD_OPTION_LISTEN_SOCKET, e->listen_fd,
				     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)EXPORTER_THREADS,
				     MHD_OPTION_CONNECTION_TIMEOUT, 30u,
				     MHD_OPTION_END);
	if (!e->daemon)
		return rvv_fail(err, -EIO, "libmicrohttpd could not start its threads");
	return 0;
}

/* MHD_stop_daemon() closes the listening socket it was given. */
void exporter_stop(struct exporter *e)
{
	if (e->daemon)
		MHD_stop_daemon(e->daemon);
	else
		close(e->listen_fd);
	e->daemon = NULL;
}
