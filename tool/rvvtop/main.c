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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <curl/curl.h>

#include "../lib/cli.h"
#include "../lib/parse.h"
#include "../lib/version.h"
#include "batch.h"
#include "interactive.h"
#include "record.h"
#include "view.h"

#define DEFAULT_LLAMA	"http://127.0.0.1:8080"
#define DEFAULT_LLAMA_TIMEOUT_MS	800

#define PROGRAM	"rvvtop"

/* The options a recording does not take: --replay refuses them. */
#define LIVE_ONLY	1ul

struct options {
	bool batch, json, no_colour;
	const char *record, *replay;
	uint64_t delay, iterations, pid;
	struct llama_source llama;
	char env_key[512];	/* LLAMA_API_KEY's first key */
};

RVV_OPTION_PARSER(parse_delay)
{
	struct options *o = ctx;

	(void)opt;
	if (rvv_parse_uint(arg, 3600, &o->delay) || !o->delay)
		return rvv_fail(err, -EINVAL, "-d: \"%s\" is not a number of seconds from 1 to 3600", arg);
	return 0;
}

RVV_OPTION_PARSER(parse_iterations)
{
	struct options *o = ctx;

	(void)opt;
	if (rvv_parse_uint(arg, UINT32_MAX, &o->iterations) || !o->iterations)
		return rvv_fail(err, -EINVAL, "-n: \"%s\" is not a count of at least 1", arg);
	return 0;
}

RVV_OPTION_PARSER(parse_pid)
{
	struct options *o = ctx;

	(void)opt;
	if (rvv_parse_uint(arg, INT32_MAX, &o->pid) || !o->pid)
		return rvv_fail(err, -EINVAL, "-p: \"%s\" is not a process id", arg);
	return 0;
}

RVV_OPTION_PARSER(parse_llama)
{
	struct options *o = ctx;

	(void)opt;
	if (strncmp(arg, "http://", 7) && strncmp(arg, "https://", 8))
		return rvv_fail(err, -EINVAL, "--llama: \"%s\" is not an http:// or https:// URL", arg);
	o->llama.url = arg;
	return 0;
}

RVV_OPTION_PARSER(parse_no_llama)
{
	struct options *o = ctx;

	(void)opt, (void)arg, (void)err;
	o->llama.url = NULL;
	return 0;
}

RVV_OPTION_PARSER(parse_llama_timeout)
{
	struct options *o = ctx;
	uint64_t ms;

	(void)opt;
	if (rvv_parse_uint(arg, 60000, &ms) || !ms)
		return rvv_fail(err, -EINVAL, "--llama-timeout: \"%s\" is not a number of milliseconds from 1 to 60000", arg);
	o->llama.timeout_ms = (long)ms;
	return 0;
}

static const struct rvv_option option_rows[] = {
	{
		.name = "batch", .letter = 'b', .help = "plain text, one block per interval",
		.parse = rvv_option_flag, .offset = offsetof(struct options, batch),
	},
	{
		.name = "json", .help = "one JSON object per line per interval",
		.parse = rvv_option_flag, .offset = offsetof(struct options, json),
	},
	{
		.name = "delay", .letter = 'd', .arg = "S",
		.help = "seconds between refreshes (1..3600, default 1)",
		.parse = parse_delay, .bits = LIVE_ONLY,
	},
	{
		.name = "iterations", .letter = 'n', .arg = "N",
		.help = "stop after N intervals (default: until interrupted)",
		.parse = parse_iterations, .bits = LIVE_ONLY,
	},
	{
		.name = "pid", .letter = 'p', .arg = "PID", .help = "only the threads of process PID",
		.parse = parse_pid, .bits = LIVE_ONLY,
	},
	{
		.name = "llama", .arg = "URL", .help = "llama-server to poll (default " DEFAULT_LLAMA ")",
		.parse = parse_llama, .bits = LIVE_ONLY,
	},
	{
		.name = "no-llama", .help = "no llama-server panel",
		.parse = parse_no_llama, .bits = LIVE_ONLY,
	},
	{
		.name = "llama-timeout", .arg = "MS",
		.help = "how long one request to llama-server may take before it\n"
			"counts as down (1..60000, default 800)",
		.parse = parse_llama_timeout, .bits = LIVE_ONLY,
	},
	{
		.name = "llama-key", .arg = "KEY",
		.help = "llama-server's --api-key, for /metrics and /slots (default:\n"
			"$LLAMA_API_KEY, which ps does not show)",
		.parse = rvv_option_text, .offset = offsetof(struct options, llama.api_key),
		.bits = LIVE_ONLY,
	},
	{
		.name = "record", .arg = "FILE",
		.help = "each interval into FILE too, a recording (rvvtop(1) has\n"
			"its format)",
		.parse = rvv_option_text, .offset = offsetof(struct options, record),
		.bits = LIVE_ONLY,
	},
	{
		.name = "replay", .arg = "FILE",
		.help = "show a recording: the live view (t and T move), or -b or\n"
			"--json print it",
		.parse = rvv_option_text, .offset = offsetof(struct options, replay),
	},
	{
		.name = "no-color", .letter = 'C',
		.help = "the live view in monochrome (also if NO_COLOR is set)",
		.parse = rvv_option_flag, .offset = offsetof(struct options, no_colour),
	},
	RVV_OPTION_HELP,
	RVV_OPTION_VERSION("its release, the ABI it was built for and the module's"),
};

static void print_usage(const struct rvv_cli *cli, FILE *f)
{
	fputs("usage: rvvtop [-b | --json] [-d SECONDS] [-n ITERATIONS] [-p PID]\n"
	      "              [--llama URL | --no-llama] [--llama-timeout MS]\n"
	      "              [--llama-key KEY] [--record FILE] [-C]\n"
	      "       rvvtop [-b | --json] [-C] --replay FILE\n"
	      "\n"
	      "Without -b or --json, a live view on the terminal (F1 or h there for help).\n"
	      "\n", f);
	rvv_cli_help(cli, f);
}

static const struct rvv_cli cli = {
	.program = PROGRAM, .options = option_rows,
	.nr_options = sizeof(option_rows) / sizeof(*option_rows), .help_column = 21,
	.usage = print_usage, .version = rvv_print_version,
};

/* -1 if the tool goes on with @o, else its exit status. */
static int parse_options(int argc, char **argv, struct options *o)
{
	const struct rvv_option *live;
	struct rvv_error err = { 0 };
	rvv_cli_given given = 0;
	char shown[32];
	int status;

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
	status = rvv_cli_parse(&cli, argc, argv, o, &given, &err);
	status = rvv_cli_finish(&cli, status, &err);
	if (status >= 0)
		return status;
	if (optind < argc)
		return rvv_bad_usage(PROGRAM, "unexpected argument \"%s\"", argv[optind]);
	if (o->batch && o->json)
		return rvv_bad_usage(PROGRAM, "%s", "choose one of -b and --json");
	live = rvv_cli_find(&cli, given, LIVE_ONLY);
	if (o->replay && live) {
		rvv_option_shown(live, shown, sizeof(shown));
		return rvv_bad_usage(PROGRAM, "--replay shows what was recorded: %s is for a live run",
				     shown);
	}
	if (o->llama.api_key && !o->llama.api_key[0])	/* LLAMA_API_KEY= */
		o->llama.api_key = NULL;
	return -1;
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
	if (status >= 0)
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
