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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../lib/exposition.h"
#include "../lib/parse.h"
#include "../lib/usage.h"
#include "../lib/version.h"
#include "serve.h"

#define PROGRAM		"rvvstat-exporter"
/* Outside the exporters' long-taken 9100-9999: see rvvstat-exporter(1), PORT. */
#define DEFAULT_LISTEN	"127.0.0.1:10951"
/* 200 scrapes arriving at once wait here, not in SYN retries. */
#define LISTEN_BACKLOG	256

static void print_usage(void)
{
	fputs("usage: rvvstat-exporter [--listen ADDR:PORT] [--top-tasks N]\n\n"
	      "Serves the rvvstat module's counters and latency histograms to Prometheus:\n"
	      "/metrics in OpenMetrics (when asked for) or the Prometheus text format.\n\n"
	      "  --listen ADDR:PORT       where to listen (default " DEFAULT_LISTEN ";\n"
	      "                           [::]:PORT or 0.0.0.0:PORT for every address)\n"
	      "  --top-tasks N            per-thread series for the N threads that saved\n"
	      "                           most (default 0, at most 1000)\n"
	      "  -h, --help               this text\n"
	      "  --version                its release and the ABIs\n"
	      "\nMore in rvvstat-exporter(1).\n", stdout);
}

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
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "top-tasks", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	struct exporter e = { 0 };
	struct rvv_error err = { 0 };
	const char *listen_spec = DEFAULT_LISTEN;
	sigset_t stop;
	uint64_t top;
	int opt, sig;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			listen_spec = optarg;
			break;
		case 'k':
			if (rvv_parse_uint(optarg, RVV_EXPOSITION_MAX_TOP_TASKS, &top))
				return rvv_bad_usage(PROGRAM, "--top-tasks: \"%s\" is not a count from 0 to 1000",
						     optarg);
			e.top_tasks = (unsigned int)top;
			break;
		case 'h':
			print_usage();
			return 0;
		case 'V':
			return rvv_print_version(stdout, PROGRAM) ? 1 : 0;
		default:
			return rvv_bad_option(PROGRAM, opt, argv);
		}
	}
	if (optind < argc)
		return rvv_bad_usage(PROGRAM, "unexpected argument \"%s\"", argv[optind]);

	/* Blocked before any thread starts, so that only sigwait() takes them. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);

	e.listen_fd = listen_on(listen_spec, &err);
	if (e.listen_fd < 0 && err.code == -EINVAL)
		return rvv_bad_usage(PROGRAM, "%s", err.message);
	if (e.listen_fd < 0 || exporter_start(&e, &err)) {
		fprintf(stderr, PROGRAM ": %s\n", err.message);
		if (e.listen_fd >= 0)
			close(e.listen_fd);
		return 1;
	}
	fprintf(stderr, PROGRAM ": serving http://%s/metrics\n", listen_spec);
	sigwait(&stop, &sig);
	exporter_stop(&e);
	fprintf(stderr, PROGRAM ": stopped by %s\n", sig == SIGTERM ? "SIGTERM" : "SIGINT");
	return 0;
}
