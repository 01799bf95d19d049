// SPDX-License-Identifier: GPL-2.0
/*
 * rvvstat-exporter: the module's numbers over HTTP for Prometheus, read at
 * each scrape. It binds the socket itself, so that a port in use or an
 * address that is not this machine's is said as such, then serves until
 * SIGTERM or SIGINT, which it waits for with every thread's copy blocked.
 */
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../lib/cli.h"
#include "../lib/exposition.h"
#include "../lib/version.h"
#include "serve.h"

#define PROGRAM		"rvvstat-exporter"
/* Outside the exporters' long-taken 9100-9999: see rvvstat-exporter(1), PORT. */
#define DEFAULT_LISTEN	"127.0.0.1:10951"
/* 200 scrapes arriving at once wait here, not in SYN retries. */
#define LISTEN_BACKLOG	256

struct exporter_options {
	const char *listen;
	unsigned int top_tasks;
};

static const struct rvv_option options[] = {
	{
		.name = "listen", .arg = "ADDR:PORT",
		.help = "where to listen (default " DEFAULT_LISTEN ";\n"
			"[::]:PORT or 0.0.0.0:PORT for every address)",
		.parse = rvv_option_text, .offset = offsetof(struct exporter_options, listen),
	},
	{
		.name = "top-tasks", .arg = "N",
		.help = "per-thread series for the N threads that saved\n"
			"most (default 0, at most 1000)",
		.parse = rvv_exposition_top_tasks_option,
		.offset = offsetof(struct exporter_options, top_tasks),
	},
	RVV_OPTION_HELP,
	RVV_OPTION_VERSION("its release and the ABIs"),
};

static void print_usage(const struct rvv_cli *cli, FILE *f)
{
	fputs("usage: rvvstat-exporter [--listen ADDR:PORT] [--top-tasks N]\n\n"
	      "Serves the rvvstat module's counters and latency histograms to Prometheus:\n"
	      "/metrics in OpenMetrics (when asked for) or the Prometheus text format.\n\n", f);
	rvv_cli_help(cli, f);
	fputs("\nMore in rvvstat-exporter(1).\n", f);
}

static const struct rvv_cli cli = {
	.program = PROGRAM, .options = options,
	.nr_options = sizeof(options) / sizeof(*options), .help_column = 27,
	.usage = print_usage, .version = rvv_print_version,
};

/*
 * A socket listening on @spec ("HOST:PORT", "[V6]:PORT"); -1 with @err
 * filled, -EINVAL if @spec names no address.
 */
static int listen_on(const char *spec, struct rvv_error *err)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	};
	struct addrinfo *res;
	char host[256];
	const char *colon = strrchr(spec, ':');
	size_t len;
	int fd, one = 1, rc;

	len = colon ? (size_t)(colon - spec) : 0;
	if (!colon || !colon[1] || len >= sizeof(host)) {
		rvv_fail(err, -EINVAL, "--listen: \"%s\" is not ADDR:PORT", spec);
		return -1;
	}
	memcpy(host, spec, len);
	host[len] = '\0';
	if (len >= 2 && host[0] == '[' && host[len - 1] == ']') {
		memmove(host, host + 1, len - 2);
		host[len - 2] = '\0';
	}
	rc = getaddrinfo(host[0] ? host : NULL, colon + 1, &hints, &res);
	if (rc) {
		rvv_fail(err, -EINVAL, "--listen: \"%s\": %s", spec, gai_strerror(rc));
		return -1;
	}
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, res->ai_addr, res->ai_addrlen) || listen(fd, LISTEN_BACKLOG)) {
		rvv_fail(err, -errno, "cannot listen on %s: %s", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd;
}

int main(int argc, char **argv)
{
	struct exporter_options o = { .listen = DEFAULT_LISTEN };
	struct exporter e = { 0 };
	struct rvv_error err = { 0 };
	rvv_cli_given given = 0;
	sigset_t stop;
	int status, sig;

	status = rvv_cli_parse(&cli, argc, argv, &o, &given, &err);
	status = rvv_cli_finish(&cli, status, &err);
	if (status >= 0)
		return status;
	if (optind < argc)
		return rvv_bad_usage(PROGRAM, "unexpected argument \"%s\"", argv[optind]);
	e.top_tasks = o.top_tasks;

	/* Blocked before any thread starts, so that only sigwait() takes them. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);

	e.listen_fd = listen_on(o.listen, &err);
	if (e.listen_fd < 0 && err.code == -EINVAL)
		return rvv_bad_usage(PROGRAM, "%s", err.message);
	if (e.listen_fd < 0 || exporter_start(&e, &err)) {
		fprintf(stderr, PROGRAM ": %s\n", err.message);
		if (e.listen_fd >= 0)
			close(e.listen_fd);
		return 1;
	}
	fprintf(stderr, PROGRAM ": serving http://%s/metrics\n", o.listen);
	sigwait(&stop, &sig);
	exporter_stop(&e);
	fprintf(stderr, PROGRAM ": stopped by %s\n", sig == SIGTERM ? "SIGTERM" : "SIGINT");
	return 0;
}
