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
#include "record.h"
#include "view.h"

#define DEFAULT_LLAMA	"http://127.0.0.1:8080"
#define DEFAULT_LLAMA_TIMEOUT_MS	800

#define PROGRAM	"rvvtop"

static const char usage[] =
	"usage: rvvtop [-b | --json] [-d SECONDS] [-n ITERATIONS] [-p PID]\n"
	"              [--llama URL | --no-llama] [--llama-timeout MS]\n"
	"              [--llama-key KEY] [--record FILE] [-C]\n"
	"       rvvtop [-b | --json] [-C] --replay FILE\n"
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
	"  --record FILE      each interval into FILE too, a recording (rvvtop(1) has\n"
	"                     its format)\n"
	"  --replay FILE      show a recording: the live view (t and T move), or -b or\n"
	"                     --json print it\n"
	"  -C, --no-color     the live view in monochrome (also if NO_COLOR is set)\n"
	"  -h, --help         this text\n"
	"  --version          its release, the ABI it was built for and the module's\n";

struct options {
	bool batch, json, no_colour;
	const char *record, *replay;
	char live_only[32];		/* an option given that --replay does not take */
	uint64_t delay, iterations, pid;
	struct llama_source llama;
	char env_key[512];	/* LLAMA_API_KEY's first key */
};

/* How @opt is written: -d, or --llama where it has no short form. */
static void option_name(int opt, const struct option *longopts, char *buf, size_t size)
{
	for (; longopts->name; longopts++)
		if (longopts->val == opt)
			break;
	if (strchr("dnp", opt) || !longopts->name)
		snprintf(buf, size, "-%c", opt);
	else
		snprintf(buf, size, "--%s", longopts->name);
}

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
		{ "record", required_argument, NULL, 'R' },
		{ "replay", required_argument, NULL, 'P' },
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
		if (strchr("dnplLTKR", opt))
			option_name(opt, longopts, o->live_only, sizeof(o->live_only));
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
		case 'R':
			o->record = optarg;
			break;
		case 'P':
			o->replay = optarg;
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
	if (o->replay && o->live_only[0])
		return rvv_bad_usage(PROGRAM, "--replay shows what was recorded: %s is for a live run",
				     o->live_only);
	if (o->llama.api_key && !o->llama.api_key[0])	/* LLAMA_API_KEY= */
		o->llama.api_key = NULL;
	return 0;
}

/* -b or --json: one interval as the options ask. */
static int print_interval(const struct options *o, const struct sample *s, const struct view *v)
{
	return o->json ? record_write(stdout, s, v) : batch_text(stdout, s, v);
}

/*
 * Samples every delay seconds, on a fixed beat, and prints each interval
 * (into @record too unless it is NULL).
 */
static int run_batch(const struct options *o, FILE *record, struct rvv_error *err)
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
			status = print_interval(o, sampler_newest(&sr), &v);
		if (!status && record)
			status = record_write(record, sampler_newest(&sr), &v);
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

/* The recording, in the live view or printed with -b or --json. */
static int run_replay(const struct options *o, struct rvv_error *err)
{
	struct recording r;
	size_t i;
	int status;

	status = recording_load(o->replay, &r, err);
	if (status)
		return status;
	if (o->batch || o->json) {
		for (i = 0; !status && i < r.n; i++)
			status = print_interval(o, &r.at[i].s, &r.at[i].v);
	} else {
		struct interactive_options io = { .colour = !o->no_colour, .replay = &r };

		status = interactive_run(&io, err);
	}
	recording_free(&r);
	return status;
}

static int run_live(const struct options *o, FILE *record, struct rvv_error *err)
{
	struct interactive_options io = {
		.delay = o->delay, .iterations = o->iterations, .pid = (uint32_t)o->pid,
		.llama = o->llama, .colour = !o->no_colour, .record = record,
	};

	return interactive_run(&io, err);
}

static int say_no_terminal(void)
{
	fprintf(stderr, "rvvtop: the live view needs a terminal: %s; -b or --json print to a pipe\n",
		!isatty(STDIN_FILENO) ? "standard input is not one" :
		!isatty(STDOUT_FILENO) ? "standard output is not one" :
		!getenv("TERM") ? "TERM is not set" :
		"ncurses does not know this TERM");
	return 2;
}

/* --record FILE: created (emptied) with the header line; NULL with @err if not. */
static FILE *open_record(const char *path, struct rvv_error *err)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		rvv_fail(err, -errno, "--record %s: cannot create it: %s", path, strerror(errno));
		return NULL;
	}
	if (recording_begin(f)) {
		rvv_fail(err, -EIO, "--record %s: cannot write it: %s", path, strerror(errno));
		fclose(f);
		return NULL;
	}
	return f;
}

/* Closes --record's FILE; a write that failed on the way is said here. */
static int close_record(FILE *f, const char *path, int status, struct rvv_error *err)
{
	bool failed = ferror(f);

	if (fclose(f) || failed) {
		if (!err->code)
			rvv_fail(err, -EIO, "--record %s: cannot write all of it: %s", path,
				 strerror(errno));
		return -EIO;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct rvv_error err = { 0 };
	FILE *record = NULL;
	struct options o;
	int status;

	status = parse_options(argc, argv, &o);
	if (status)
		return status;
	/* Names in UTF-8 as themselves (the live view); numbers stay in the C locale. */
	if (!o.batch && !o.json)
		setlocale(LC_CTYPE, "");
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (o.replay) {
		status = run_replay(&o, &err);
	} else if (o.record && !(record = open_record(o.record, &err))) {
		status = err.code;
	} else {
		status = o.batch || o.json ? run_batch(&o, record, &err) :
					     run_live(&o, record, &err);
		if (record)
			status = close_record(record, o.record, status, &err);
	}
	curl_global_cleanup();
	if (status == -ENODEV)	/* said why */
		return 1;
	if (status == -ENOTTY)
		return say_no_terminal();
	if (status) {
		fprintf(stderr, "rvvtop: %s\n", err.code ? err.message : strerror(-status));
		return 1;
	}
	return 0;
}
