// SPDX-License-Identifier: GPL-2.0
/*
 * serve-bench: `make bench --only serve` inside the riscv64 guest. Loads
 * the module, starts the real llama-server (RVV) on the tiny model, and
 * runs rvvbench against it: the arms none, fifo:10 at first vector use,
 * fifo:10 on the whole process at once, the two tiers fifo:11 for the
 * process and fifo:10 for its vector threads, affinity to CPU 1 and batch,
 * under a CPU hog of 0, 50 and 100 % duty on
 * every CPU, at CONCURRENCY, TRIALS trials of REQUESTS requests of TOKENS
 * tokens per cell, rvvbench at SCHED_FIFO 50 (as chrt -f 50), above every
 * arm, so that its own wait is not in TTFT. Its Markdown table goes to the
 * console, then every file it wrote under OUTDIR (the CSV, the serve-ratio
 * lines, the per-request JSON Lines, the plots' data and gnuplot scripts:
 * the guest has no gnuplot) as "bench-file: NAME" and
 * "bench-line: LINE"s, for tests/bench/run to take back and draw. Ends with
 * "bench: done" if all ran.
 *   serve-bench OUTDIR TRIALS REQUESTS TOKENS CONCURRENCY
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest-util.h"
#include "llama-client.h"

static struct llama_server server = {
	.path = "/bin/llama-server", .model = "/tiny.gguf", .log = "/tmp/llama-server.log",
	.port = 8080,
};

/* Every regular file of @dir, as bench-file/bench-line lines. */
static void print_files(const char *dir)
{
	char path[512], line[4096];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		printf("bench-file: %s\n", e->d_name);
		while (fgets(line, sizeof(line), f))
			printf("bench-line: %s", line);
		fclose(f);
	}
	if (d)
		closedir(d);
}

int main(int argc, char **argv)
{
	char url[48], csv[256], ratios[256], jsonl[256], why[200] = "", how[64];
	int err, status = -1;
	double health_s;
	pid_t pid;

	if (argc != 6) {
		fprintf(stderr, "usage: serve-bench OUTDIR TRIALS REQUESTS TOKENS CONCURRENCY\n");
		return 2;
	}
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", server.port);
	snprintf(csv, sizeof(csv), "%s/serve.csv", argv[1]);
	snprintf(ratios, sizeof(ratios), "%s/serve-ratio.txt", argv[1]);
	snprintf(jsonl, sizeof(jsonl), "%s/serve-requests.jsonl", argv[1]);

	const char *args[] = {
		"/bin/rvvbench", "--url", url, "--policy", "fifo:10@on-vector",
		"--policy", "fifo:10", "--policy", "fifo:11,vector=fifo:10", "--policy", "affinity:1",
		"--policy", "batch", "--hog-duty", "0,50,100",
		"--concurrency", argv[5], "--trials", argv[2], "--requests", argv[3],
		"--n-predict", argv[4], "--ignore-eos", "--md", "--csv", csv, "--ratios", ratios,
		"--jsonl", jsonl, "--plot", argv[1],
		NULL,
	};

	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	mkdir(argv[1], 0755);
	err = module_load("");
	if (err) {
		printf("bench: FAIL: %s: %s\n", MODULE_PATH, strerror(-err));
		return 1;
	}
	err = llama_start(&server);
	if (err || llama_wait_healthy(&server, 600, &health_s, why, sizeof(why))) {
		printf("bench: FAIL: the server did not come up: %s\n", err ? strerror(-err) : why);
		return 1;
	}
	printf("bench: llama-server (RVV) up after %.1f s: -t 2 --parallel 2 -c 512 --metrics\n",
	       health_s);
	printf("bench: rvvbench at SCHED_FIFO 50:");
	for (int i = 1; args[i]; i++)
		printf(" %s", args[i]);
	printf("\n");
	/* Inherited by rvvbench; its hog threads stay SCHED_OTHER. */
	if (sched_setscheduler(0, SCHED_FIFO, &(struct sched_param){ .sched_priority = 50 })) {
		printf("bench: FAIL: SCHED_FIFO 50 for rvvbench: %s\n", strerror(errno));
		return 1;
	}
	pid = spawn(args, -1, -1);
	if (pid > 0)
		waitpid(pid, &status, 0);
	describe_exit(status, how, sizeof(how));
	printf("bench: rvvbench: %s\n", how);
	print_files(argv[1]);
	err = llama_stop(&server, how, sizeof(how));
	module_unload();
	if (pid <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) || err)
		return 1;
	printf("bench: done\n");
	return 0;
}
