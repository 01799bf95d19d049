// SPDX-License-Identifier: GPL-2.0
/*
 * rvvtop: the module's vector-state numbers beside llama-server's
 * throughput, refreshed every interval. Batch (-b) and JSON (--json)
 * modes print one interval at a time.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <curl/curl.h>

#include "../lib/parse.h"
#include "../lib/usage.h"
#include "../lib/version.h"
#include "batch.h"
#include "interactive.h"
#include "view.h"

#define DEFAULT_LLAMA	"http://127.0.0.1:8080"
#define DEFAULT_LLAMA_TIMEOUT_MS	800

#define PROGRAM	"rvvtop"

static const char usage[] =
	"usage: rvvtop [-b | --json] [-d SECONDS] [-n ITERATIONS] [-p PID]\n"
	"              [--llama URL | --no-llama] [--llama-timeout MS]\n"
	"              [--llama-key KEY] [-C]\n"
	"\n"
	"Without -b or --json, a live view on the terminal (F1 or h there for help).\n"
	"\n"
	"  -b, --batch        plain text, one block per interval\n"
	"  --json             one JSON object per line per interval\n"
	"  -d, --delay S      seconds between refreshes (1..3600, default 1)\n"
	"  -n, --iterations N stop after N intervals (default: until interrupted)\n"
	"  -p, --pid PID      only the threads of process PID\n"
	"  --llama URL        llama-server to poll (default " DEFAULT_LLAMA ")\n"
	"  --no-llama         no llama-server panel\n"
	"  --llama-timeout MS how long one request to llama-server may take before it\n"
	"                     counts as down (1..60000, default 800)\n"
	"  --llama-key KEY    llama-server's --api-key, for /metrics and /slots (default:\n"
	"                     $LLAMA_API_KEY, which ps does not show)\n"
	"  -C, --no-color     the live view in monochrome (also if NO_COLOR is set)\n"
	"  -h, --help         this text\n"
	"  --version          its release, the ABI it was built for and the module's\n";

struct options {
	bool batch, json, no_colour;
	uint64_t delay, iterations, pid;
	struct llama_source llama;
	char env_key[512];	/* LLAMA_API_KEY's first key */
};

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "pid", required_argument, NULL, 'p' },
		{ "llama", required_argument, NULL, 'l' },
		{ "no-llama", no_argument, NULL, 'L' },
		{ "llama-timeout", required_argument, NULL, 'T' },
		{ "llama-key", required_argument, NULL, 'K' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	uint64_t timeout_ms;
	int opt;

	*o = (struct options){
		.delay = 1,
		.llama = { .url = DEFAULT_LLAMA, .timeout_ms = DEFAULT_LLAMA_TIMEOUT_MS },
	};
	/* llama-server takes a comma-separated list there; any one will do. */
	if (getenv("LLAMA_API_KEY")) {
		snprintf(o->env_key, sizeof(o->env_key), "%.*s",
			 (int)strcspn(getenv("LLAMA_API_KEY"), ","), getenv("LLAMA_API_KEY"));
		o->llama.api_key = o->env_key;
	}
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":bd:n:p:hC", longopts, NULL)) != -1) {
		switch (opt) {
		case 'b':
			o->batch = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'd':
			if (rvv_parse_uint(optarg, 3600, &o->delay) || !o->delay)
				return rvv_bad_usage(PROGRAM, "-d: \"%s\" is not a number of seconds from 1 to 3600", optarg);
			break;
		case 'n':
			if (rvv_parse_uint(optarg, UINT32_MAX, &o->iterations) || !o->iterations)
				return rvv_bad_usage(PROGRAM, "-n: \"%s\" is not a count of at least 1", optarg);
			break;
		case 'p':
			if (rvv_parse_uint(optarg, INT32_MAX, &o->pid) || !o->pid)
				return rvv_bad_usage(PROGRAM, "-p: \"%s\" is not a process id", optarg);
			break;
		case 'l':
			if (strncmp(optarg, "http://", 7) && strncmp(optarg, "https://", 8))
				return rvv_bad_usage(PROGRAM, "--llama: \"%s\" is not an http:// or https:// URL", optarg);
			o->llama.url = optarg;
			break;
		case 'L':
			o->llama.url = NULL;
			break;
		case 'T':
			if (rvv_parse_uint(optarg, 60000, &timeout_ms) || !timeout_ms)
				return rvv_bad_usage(PROGRAM, "--llama-timeout: \"%s\" is not a number of milliseconds from 1 to 60000", optarg);
			o->llama.timeout_ms = (long)timeout_ms;
			break;
		case 'K':
			o->llama.api_key = optarg;
			break;
		case 'C':
			o->no_colour = true;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case 'V':
			exit(rvv_print_version(stdout, PROGRAM) ? 1 : 0);
		default:
			return rvv_bad_option(PROGRAM, opt, argv);
		}
	}
	if (optind < argc)
		return rvv_bad_usage(PROGRAM, "unexpected argument \"%s\"", argv[optind]);
	if (o->batch && o->json)
		return rvv_bad_usage(PROGRAM, "%s", "choose one of -b and --json");
	if (o->llama.api_key && !o->llama.api_key[0])	/* LLAMA_API_KEY= */
		o->llama.api_key = NULL;
	return 0;
}

/* Samples every delay seconds, on a fixed beat, and prints each interval. */
static int run_batch(const struct options *o, struct rvv_error *err)
{
	char module_why[160] = "";
	bool seen_module = false;
	struct timespec beat;
	struct sampler sr;
	uint64_t n;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &beat);
	status = sampler_start(&sr, (uint32_t)o->pid, &o->llama, (double)o->delay, err);
	for (n = 0; !status && (!o->iterations || n < o->iterations); n++) {
		struct view v = { 0 };
		struct timespec now;

		beat.tv_sec += (time_t)o->delay;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > beat.tv_sec)	/* fell behind: a new beat from now */
			beat = now;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &beat, NULL) == EINTR)
			;
		status = sampler_next(&sr, &v);
		if (!status)
			status = o->json ? batch_json(stdout, sampler_newest(&sr), &v) :
					   batch_text(stdout, sampler_newest(&sr), &v);
		seen_module |= v.has_module;
		if (!v.has_module && v.module_why)
			snprintf(module_why, sizeof(module_why), "%s", v.module_why);
		view_free(&v);
	}
	sampler_stop(&sr);
	/* Like rvvctl: intervals without the module are no measurement. */
	if (!status && !seen_module) {
		fprintf(stderr, "rvvtop: no interval had the module: %s\n",
			module_why[0] ? module_why : "it did not answer");
		return -ENODEV;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct rvv_error err = { 0 };
	struct options o;
	int status;

	status = parse_options(argc, argv, &o);
	if (status)
		return status;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (o.batch || o.json) {
		status = run_batch(&o, &err);
		if (status == -ENODEV) {	/* said why */
			curl_global_cleanup();
			return 1;
		}
	} else {
		struct interactive_options io = {
			.delay = o.delay, .iterations = o.iterations, .pid = (uint32_t)o.pid,
			.llama = o.llama, .colour = !o.no_colour,
		};

		/* Names in UTF-8 as themselves; numbers stay in the C locale. */
		setlocale(LC_CTYPE, "");
		status = interactive_run(&io, &err);
		if (status == -ENOTTY) {
			curl_global_cleanup();
			fprintf(stderr, "rvvtop: the live view needs a terminal: %s; -b or --json print to a pipe\n",
				!isatty(STDIN_FILENO) ? "standard input is not one" :
				!isatty(STDOUT_FILENO) ? "standard output is not one" :
				!getenv("TERM") ? "TERM is not set" :
				"ncurses does not know this TERM");
			return 2;
		}
	}
	curl_global_cleanup();
	if (status) {
		fprintf(stderr, "rvvtop: %s\n", err.code ? err.message : strerror(-status));
		return 1;
	}
	return 0;
}
