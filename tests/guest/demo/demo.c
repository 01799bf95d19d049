// SPDX-License-Identifier: GPL-2.0
/*
 * The guest side of `make demo`: the real llama-server, computing with RVV,
 * under rvvstat. Loads the module, starts llama-server on the tiny model,
 * runs `rvvtop -b` on it while requests stream at concurrency 2, then
 * prints the module's summary and what the server's threads cost.
 *
 *   demo [-s SERVER] [-m MODEL] [-t RVVTOP] [-n REQUESTS] [-k TOKENS]
 * Defaults: the riscv64 initramfs's /bin/llama-server, /tiny.gguf and
 * /bin/rvvtop, 6 requests of 24 tokens.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/rvvstat.h>

#include "guest-util.h"
#include "llama-client.h"

#define CONCURRENCY	2
#define MAX_REQUESTS	32
#define MAX_THREADS	128

static struct llama_server server = {
	.path = "/bin/llama-server", .model = "/tiny.gguf", .log = "/tmp/llama-server.log",
	.port = 8080,
};
static const char *rvvtop = "/bin/rvvtop";
static int nr_requests = 6, tokens_each = 24;

static char summary[1 << 16];

static void usage(void)
{
	fprintf(stderr, "usage: demo [-s SERVER] [-m MODEL] [-t RVVTOP] [-n REQUESTS] [-k TOKENS]\n");
	exit(2);
}

static void parse_options(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "s:m:t:n:k:")) != -1) {
		switch (c) {
		case 's': server.path = optarg; break;
		case 'm': server.model = optarg; break;
		case 't': rvvtop = optarg; break;
		case 'n': nr_requests = count_arg(optarg, MAX_REQUESTS, usage); break;
		case 'k': tokens_each = count_arg(optarg, 200, usage); break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
}

static void fail(const char *what, const char *why)
{
	char how[64];

	fprintf(stderr, "demo: %s: %s\n", what, why);
	if (server.pid > 0)
		llama_stop(&server, how, sizeof(how));
	exit(1);
}

/* The tokens the streams got; a request that failed ends the demo. */
static double tokens_streamed(const struct request *requests)
{
	double tokens = 0;
	int i;

	for (i = 0; i < nr_requests; i++) {
		if (requests[i].ret)
			fail("a request", requests[i].http.error);
		if (requests[i].http.status != 200 || requests[i].stream.predicted_n < 0)
			fail("a request", "no complete stream");
		tokens += requests[i].stream.predicted_n;
	}
	return tokens;
}

/* What the server's threads cost, in one sentence. */
static void explain(int dev, const struct thread_row *before, int nbefore, double tokens)
{
	static struct thread_row rows[MAX_THREADS];
	struct rvvstat_info info = { .size = sizeof(info) };
	int i, n = thread_rows(dev, server.pid, rows, MAX_THREADS), vector = 0;
	__u64 saves = 0, delta;

	if (n < 0 || ioctl(dev, RVVSTAT_IOC_GET_INFO, &info))
		fail("the server's threads", strerror(n < 0 ? -n : errno));
	for (i = 0; i < n; i++) {
		delta = rows[i].saves - saves_before(before, nbefore, rows[i].tid);
		vector += delta > 0;
		saves += delta;
	}
	printf("\ndemo: llama-server generated %.0f tokens. While it did, %d of its %d threads"
	       " (ggml's compute threads) held live vector state, and the kernel saved their"
	       " %u bytes of vector registers %llu times when it switched them out: %.1f saves,"
	       " %.1f KiB, per token. Its other %d threads saved none: they never used V.\n",
	       tokens, vector, n, info.bytes_per_save, (unsigned long long)saves, saves / tokens,
	       saves * info.bytes_per_save / tokens / 1024, n - vector);
}

int main(int argc, char **argv)
{
	static struct request requests[MAX_REQUESTS];
	static struct thread_row before[MAX_THREADS];
	/* A long timeout: under QEMU the busy server can answer slowly. */
	const char *top_argv[] = {
		rvvtop, "-b", "-d", "2", "-p", NULL, "--llama", NULL, "--llama-timeout", "10000", NULL
	};
	char why[200], how[64], pid[16], url[64];
	double health_s, tokens;
	int dev, err, nbefore;
	pid_t top;

	parse_options(argc, argv);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	err = module_load("");
	dev = err ? err : device_open();
	if (dev < 0)
		fail(MODULE_PATH, strerror(-dev));
	err = llama_start(&server);
	if (err)
		fail(server.path, strerror(-err));
	printf("demo: rvvstat loaded; llama-server %s on %s, pid %d (log %s)\n", server.path,
	       server.model, server.pid, server.log);
	if (llama_wait_healthy(&server, 600, &health_s, why, sizeof(why)))
		fail("llama-server", why);
	printf("demo: /health answered 200 after %.1f s; streaming %d requests of %d tokens,"
	       " %d at a time, with rvvtop -b on the server's threads every 2 s\n\n", health_s,
	       nr_requests, tokens_each, CONCURRENCY);

	snprintf(pid, sizeof(pid), "%d", server.pid);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", server.port);
	top_argv[5] = pid;
	top_argv[7] = url;
	top = spawn(top_argv, -1, -1);
	if (top < 0)
		fail(rvvtop, strerror(-top));
	nbefore = thread_rows(dev, server.pid, before, MAX_THREADS);
	if (nbefore < 0)
		fail("the server's threads", strerror(-nbefore));
	stream_requests(server.port, requests, nr_requests, tokens_each, CONCURRENCY);
	tokens = tokens_streamed(requests);
	sleep(3);	/* rvvtop's interval that sees the last request end */
	kill(top, SIGTERM);
	waitpid(top, NULL, 0);

	/* Read while the server lives, so its threads are the top tasks. */
	if (read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)) < 0)
		fail(DEBUGFS_DIR "summary", "cannot read it");
	printf("\n$ cat " DEBUGFS_DIR "summary\n%s", summary);
	explain(dev, before, nbefore, tokens);

	err = llama_stop(&server, how, sizeof(how));
	if (err)
		fprintf(stderr, "demo: llama-server %s\n", how);
	close(dev);
	return err || module_unload() ? 1 : 0;
}
