// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/cli.h"
#include "options.h"
#include "prompt.h"

int bench_parse_ms(const char *text, double *ms)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || v < 0)
		return -EINVAL;
	if (!strcmp(end, "ms"))
		*ms = v;
	else if (!strcmp(end, "s") || !*end)
		*ms = v * 1000;
	else
		return -EINVAL;
	return 0;
}

int bench_slo_parse(const char *text, struct bench_slo *slo, struct rvv_error *err)
{
	char buf[256], *save, *item, *eq;
	double *slot, ms;

	memset(slo, 0, sizeof(*slo));
	if (snprintf(buf, sizeof(buf), "%s", text) >= (int)sizeof(buf))
		return rvv_fail(err, -EINVAL, "--slo %.40s...: too long", text);
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		eq = strchr(item, '=');
		if (eq)
			*eq = '\0';
		slot = !strcmp(item, "ttft") ? &slo->ttft_ms : !strcmp(item, "tpot") ? &slo->tpot_ms :
		       !strcmp(item, "e2e") ? &slo->e2e_ms : NULL;
		if (!eq || !slot || bench_parse_ms(eq + 1, &ms) || ms <= 0)
			return rvv_fail(err, -EINVAL,
					"--slo %s: write NAME=TIME[,...] with NAME ttft, tpot or e2e and TIME like 500ms or 2s",
					text);
		*slot = ms;
	}
	return 0;
}

static int parse_long(const char *opt, const char *text, long min, long *out, struct rvv_error *err)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min)
		return rvv_fail(err, -EINVAL, "%s %s: give a whole number of at least %ld", opt, text,
				min);
	*out = v;
	return 0;
}

/* "1,2,4" into @out (at most @max values in [@min, @max_value]); the count, or -EINVAL. */
static int parse_list(const char *opt, const char *text, long min, long max_value, int *out,
		      size_t max, struct rvv_error *err)
{
	char buf[256], *save, *item;
	size_t n = 0;
	long v;

	if (snprintf(buf, sizeof(buf), "%s", text) >= (int)sizeof(buf))
		return rvv_fail(err, -EINVAL, "%s %.40s...: too long", opt, text);
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (n == max)
			return rvv_fail(err, -EINVAL, "%s: at most %zu values", opt, max);
		if (parse_long(opt, item, min, &v, err))
			return -EINVAL;
		if (v > max_value)
			return rvv_fail(err, -EINVAL, "%s %s: give at most %ld", opt, item, max_value);
		out[n++] = (int)v;
	}
	if (!n)
		return rvv_fail(err, -EINVAL, "%s: give N or a list like 1,2,4", opt);
	return (int)n;
}

static int parse_concurrency(const char *text, struct bench_options *o, struct rvv_error *err)
{
	int v[BENCH_MAX_CELLS], n = parse_list("--concurrency", text, 1, 4096, v, BENCH_MAX_CELLS, err);

	if (n < 0)
		return n;
	o->n_cells = (size_t)n;
	for (int i = 0; i < n; i++)
		o->cells[i].concurrency = v[i];
	return 0;
}

static int parse_percentiles(const char *text, enum bench_pct *how, struct rvv_error *err)
{
	if (!strcmp(text, "linear"))
		*how = BENCH_PCT_LINEAR;
	else if (!strcmp(text, "nearest"))
		*how = BENCH_PCT_NEAREST;
	else
		return rvv_fail(err, -EINVAL, "--percentiles %s: give linear or nearest", text);
	return 0;
}

static int add_arm(const char *text, struct bench_options *o, struct rvv_error *err)
{
	struct bench_arm arm;
	int rc = bench_arm_parse(text, &arm, err);

	if (rc)
		return rc;
	for (size_t i = 0; i < o->n_arms; i++)
		if (!strcmp(o->arms[i].name, arm.name))
			return i ? rvv_fail(err, -EINVAL, "--policy %s: given twice", text) : 0;
	if (o->n_arms == BENCH_MAX_ARMS)
		return rvv_fail(err, -EINVAL, "--policy %s: at most %d arms with \"none\"", text,
				BENCH_MAX_ARMS);
	o->arms[o->n_arms++] = arm;
	return 0;
}

static int parse_ramp(const char *text, enum bench_ramp_how *how, struct rvv_error *err)
{
	for (enum bench_ramp_how h = BENCH_RAMP_LINEAR; h <= BENCH_RAMP_EXPONENTIAL; h++) {
		if (!strcmp(text, bench_ramp_name(h))) {
			*how = h;
			return 0;
		}
	}
	return rvv_fail(err, -EINVAL, "--ramp-up-strategy %s: give linear or exponential", text);
}

static int parse_rps(const char *name, const char *text, double *rps, struct rvv_error *err)
{
	char *end;

	*rps = strtod(text, &end);
	if (!(*rps > 0) || !isfinite(*rps) || *end)
		return rvv_fail(err, -EINVAL, "%s %s: give requests per second, above 0", name, text);
	return 0;
}

/* A ramp-up needs both rates and a count of requests, and replaces --rate. */
static int check_ramp(const struct bench_config *cfg, double rate, struct rvv_error *err)
{
	const struct bench_ramp *r = &cfg->ramp;

	if (r->how == BENCH_RAMP_NONE) {
		if (r->start > 0 || r->end > 0)
			return rvv_fail(err, -EINVAL, "--ramp-up-start-rps and --ramp-up-end-rps need --ramp-up-strategy linear or exponential");
		return 0;
	}
	if (!(r->start > 0) || !(r->end > 0))
		return rvv_fail(err, -EINVAL, "--ramp-up-strategy %s: give --ramp-up-start-rps and --ramp-up-end-rps",
				bench_ramp_name(r->how));
	if (rate > 0)
		return rvv_fail(err, -EINVAL, "--ramp-up-strategy and --rate: the ramp sets the rate; give one of them");
	if (!(cfg->requests > 0))
		return rvv_fail(err, -EINVAL, "--ramp-up-strategy needs --requests: the ramp runs over a count of requests");
	return 0;
}

/* The options given that later checks weigh together. */
enum {
	GIVEN_CONCURRENCY = 1 << 0,
	GIVEN_BURSTINESS = 1 << 1,
	GIVEN_PROMPT_WORDS = 1 << 2,
};

RVV_OPTION_PARSER(set_endpoint)
{
	struct bench_options *o = ctx;

	(void)opt;
	o->cfg.endpoint = bench_endpoint_find(arg);
	if (!o->cfg.endpoint)
		return rvv_fail(err, -EINVAL, "--endpoint %s: choose one of %s", arg,
				BENCH_ENDPOINT_NAMES);
	return 0;
}

RVV_OPTION_PARSER(set_concurrency)
{
	(void)opt;
	return parse_concurrency(arg, ctx, err);
}

RVV_OPTION_PARSER(set_rate)
{
	struct bench_options *o = ctx;
	char *end;

	(void)opt;
	o->rate = strtod(arg, &end);
	if (!(o->rate > 0) || *end)
		return rvv_fail(err, -EINVAL, "--rate %s: give requests per second, above 0", arg);
	return 0;
}

RVV_OPTION_PARSER(set_burstiness)
{
	struct bench_options *o = ctx;
	char *end;

	(void)opt;
	o->cfg.burstiness = strtod(arg, &end);
	if (!(o->cfg.burstiness > 0) || !isfinite(o->cfg.burstiness) || *end)
		return rvv_fail(err, -EINVAL, "--burstiness %s: give the gamma shape, above 0 (1 is Poisson)",
				arg);
	return 0;
}

RVV_OPTION_PARSER(set_ramp)
{
	(void)opt;
	return parse_ramp(arg, &((struct bench_options *)ctx)->cfg.ramp.how, err);
}

/* --ramp-up-start-rps and --ramp-up-end-rps, at their offsets. */
RVV_OPTION_PARSER(set_rps)
{
	char name[64];

	snprintf(name, sizeof(name), "--%s", opt->name);
	return parse_rps(name, arg, (double *)((char *)ctx + opt->offset), err);
}

/* The long at @opt's offset, at least @min. */
static int set_long_min(void *ctx, const struct rvv_option *opt, const char *arg, long min,
			struct rvv_error *err)
{
	char name[64];

	snprintf(name, sizeof(name), "--%s", opt->name);
	return parse_long(name, arg, min, (long *)((char *)ctx + opt->offset), err);
}

RVV_OPTION_PARSER(set_count)
{
	return set_long_min(ctx, opt, arg, 1, err);
}

RVV_OPTION_PARSER(set_n_predict)
{
	return set_long_min(ctx, opt, arg, -1, err);
}

RVV_OPTION_PARSER(set_duration)
{
	struct bench_options *o = ctx;
	double ms;

	(void)opt;
	if (bench_parse_ms(arg, &ms) || ms <= 0)
		return rvv_fail(err, -EINVAL, "--duration %s: give seconds, like 30 or 1.5s", arg);
	o->cfg.duration_s = ms / 1000;
	return 0;
}

RVV_OPTION_PARSER(set_prompt_words)
{
	struct bench_options *o = ctx;
	long v;
	int rc;

	(void)opt;
	rc = parse_long("--prompt-words", arg, 0, &v, err);
	if (rc)
		return rc;
	if (v > BENCH_MAX_PROMPT_WORDS)
		return rvv_fail(err, -EINVAL, "--prompt-words %ld: at most %d", v,
				BENCH_MAX_PROMPT_WORDS);
	o->cfg.prompt_words = (int)v;
	return 0;
}

RVV_OPTION_PARSER(set_seed)
{
	struct bench_options *o = ctx;
	long v;
	int rc;

	(void)opt;
	rc = parse_long("--seed", arg, 0, &v, err);
	if (rc)
		return rc;
	o->cfg.seed = (uint64_t)v;
	return 0;
}

RVV_OPTION_PARSER(set_timeout)
{
	struct bench_options *o = ctx;
	double ms;

	(void)opt;
	if (bench_parse_ms(arg, &ms) || ms < 1)
		return rvv_fail(err, -EINVAL, "--timeout %s: give seconds, like 60 or 500ms", arg);
	o->cfg.timeout_ms = (long)ms;
	return 0;
}

RVV_OPTION_PARSER(set_slo)
{
	(void)opt;
	return bench_slo_parse(arg, &((struct bench_options *)ctx)->slo, err);
}

RVV_OPTION_PARSER(set_duties)
{
	struct bench_options *o = ctx;
	int n;

	(void)opt;
	n = parse_list("--hog-duty", arg, 0, 100, o->duties, BENCH_MAX_DUTIES, err);
	if (n < 0)
		return n;
	o->n_duties = (size_t)n;
	return 0;
}

RVV_OPTION_PARSER(set_hog_cpus)
{
	struct bench_options *o = ctx;
	int n;

	(void)opt;
	n = bench_cpu_list_parse(arg, o->hog_cpus, BENCH_HOG_MAX_CPUS);
	if (n < 0)
		return rvv_fail(err, -EINVAL, "--hog-cpus %s: give CPUs like 0-3,6", arg);
	o->n_hog_cpus = (size_t)n;
	return 0;
}

RVV_OPTION_PARSER(set_hog_period)
{
	struct bench_options *o = ctx;

	(void)opt;
	if (bench_parse_ms(arg, &o->hog_period_ms) || o->hog_period_ms < 1)
		return rvv_fail(err, -EINVAL, "--hog-period %s: give at least 1ms, like 100ms", arg);
	return 0;
}

RVV_OPTION_PARSER(set_policy)
{
	(void)opt;
	return add_arm(arg, ctx, err);
}

RVV_OPTION_PARSER(set_server_pid)
{
	struct bench_options *o = ctx;
	long v;
	int rc;

	(void)opt;
	rc = parse_long("--server-pid", arg, 1, &v, err);
	if (rc)
		return rc;
	o->server_pid = (int)(v < INT32_MAX ? v : INT32_MAX);
	return 0;
}

RVV_OPTION_PARSER(set_percentiles)
{
	(void)opt;
	return parse_percentiles(arg, &((struct bench_options *)ctx)->pct, err);
}

#define AT(field)	.offset = offsetof(struct bench_options, field)
#define STR(x)		#x
#define NUMBER(x)	STR(x)

static const struct rvv_option option_rows[] = {
	{ .name = "url", .arg = "URL", .help = "the server (default http://127.0.0.1:8080)",
	  .parse = rvv_option_text, AT(cfg.url) },
	{ .name = "endpoint", .arg = "NAME",
	  .help = BENCH_ENDPOINT_NAMES " (default completion)", .parse = set_endpoint },
	{ .name = "concurrency", .arg = "N,...",
	  .help = "requests in flight, closed loop; a list sweeps (default 1);\n"
		  "with --rate: the most in flight (default 256)",
	  .parse = set_concurrency, .bits = GIVEN_CONCURRENCY },
	{ .name = "rate", .arg = "R", .help = "open loop: Poisson arrivals at R requests/s",
	  .parse = set_rate },
	{ .name = "burstiness", .arg = "B",
	  .help = "with --rate: gamma gaps of shape B (default 1, Poisson;\n"
		  "below 1 bursty, above 1 even), as vLLM's bench",
	  .parse = set_burstiness, .bits = GIVEN_BURSTINESS },
	{ .name = "ramp-up-strategy", .arg = "linear|exponential",
	  .help = "instead of --rate: an open loop whose\n"
		  "rate goes from --ramp-up-start-rps R to --ramp-up-end-rps R\n"
		  "over --requests",
	  .parse = set_ramp },
	{ .name = "ramp-up-start-rps", .arg = "R", .parse = set_rps, AT(cfg.ramp.start) },
	{ .name = "ramp-up-end-rps", .arg = "R", .parse = set_rps, AT(cfg.ramp.end) },
	{ .name = "requests", .arg = "N", .help = "requests per cell (default 16), or",
	  .parse = set_count, AT(cfg.requests) },
	{ .name = "duration", .arg = "S", .help = "no new request after S seconds",
	  .parse = set_duration },
	{ .name = "n-predict", .arg = "N",
	  .help = "tokens to generate (default 32; -1: the server's choice)",
	  .parse = set_n_predict, AT(cfg.n_predict) },
	{ .name = "ignore-eos", .help = "generate all of them",
	  .parse = rvv_option_flag, AT(cfg.ignore_eos) },
	{ .name = "prompt-words", .arg = "N",
	  .help = "words after each prompt's unique prefix (default 32, at most "
		  NUMBER(BENCH_MAX_PROMPT_WORDS) ")",
	  .parse = set_prompt_words, .bits = GIVEN_PROMPT_WORDS },
	{ .name = "prompts", .arg = "FILE",
	  .help = "prompts from FILE instead: JSON Lines {\"prompt\": TEXT,\n"
		  "\"output_len\": N} or a ShareGPT array, in order",
	  .parse = rvv_option_text, AT(prompts_path) },
	{ .name = "seed", .arg = "N", .help = "prompts and arrivals (default 1)",
	  .parse = set_seed },
	{ .name = "timeout", .arg = "S", .help = "per request (default 60; 500ms works too)",
	  .parse = set_timeout },
	{ .name = "slo", .arg = "ttft=500ms,tpot=50ms[,e2e=2s]",
	  .help = "goodput and attainment; errors miss", .parse = set_slo },
	{ .name = "jsonl", .arg = "FILE",
	  .help = "one record per request, warm-up included and tagged",
	  .parse = rvv_option_text, AT(jsonl) },
	{ .name = "percentiles", .arg = "HOW",
	  .help = "linear (default) or nearest: the value at rank\n"
		  "ceil(p/100 * n), a latency some request had",
	  .parse = set_percentiles },
	{ .name = "hog-duty", .arg = "P,...",
	  .help = "the CPU hog's duty in percent (0-100), a list sweeps\n"
		  "(default 0: it sleeps); busy P % of every period,\n"
		  "scalar integer work, one pinned thread per CPU",
	  .parse = set_duties },
	{ .name = "hog-cpus", .arg = "LIST",
	  .help = "its CPUs, like 0-3,6 (default: every CPU we may use)", .parse = set_hog_cpus },
	{ .name = "hog-period", .arg = "S", .help = "its period (default 100ms)",
	  .parse = set_hog_period },
	{ .name = "policy", .arg = "ARM",
	  .help = "an arm beside \"none\" (repeat for more, up to " NUMBER(BENCH_MAX_ARMS) " in all):\n"
		  "affinity:CPUS and/or a policy (normal[:NICE], batch[:NICE],\n"
		  "idle, fifo:PRIO, rr:PRIO, deadline:RUNTIME/DEADLINE/PERIOD)\n"
		  "joined by +, then @on-vector (at each thread's first vector\n"
		  "use) or @now (default): fifo:10@on-vector, affinity:2-3.\n"
		  "Two tiers: the threads that use vector state on their own,\n"
		  "after ,vector= (at first vector use): fifo:11,vector=fifo:10\n"
		  "Set on the server's process through /dev/rvvstat for each\n"
		  "window, read back per thread and cleared after it.",
	  .parse = set_policy },
	{ .name = "server-pid", .arg = "PID",
	  .help = "the server (default: the process listening on the URL's port)",
	  .parse = set_server_pid },
	{ .name = "trials", .arg = "N", .help = "repeat the sweep N times (default 1); arms rotate",
	  .parse = set_count, AT(trials) },
	{ .name = "csv", .arg = "FILE", .help = "one row per arm x duty x concurrency x trial",
	  .parse = rvv_option_text, AT(csv) },
	{ .name = "ratios", .arg = "FILE",
	  .help = "per arm, duty and concurrency, tok/s and TTFT p95 over\n"
		  "\"none\" with 95 % intervals, one serve-ratio line each",
	  .parse = rvv_option_text, AT(ratios) },
	{ .name = "json", .help = "the summary as JSON on stdout (else a table)",
	  .parse = rvv_option_flag, AT(json) },
	{ .name = "md", .help = "the per-cell summary as a Markdown table",
	  .parse = rvv_option_flag, AT(md) },
	{ .name = "plot", .arg = "DIR",
	  .help = "tok/s, TTFT p95 and V saves per 1000 tokens against hog\n"
		  "duty, a line per arm, as SVG and PNG (gnuplot)",
	  .parse = rvv_option_text, AT(plot_dir) },
	RVV_OPTION_HELP,
	RVV_OPTION_VERSION("its release and the module ABI it was built for"),
};

static const struct rvv_cli cli = {
	.program = "rvvbench", .options = option_rows,
	.nr_options = sizeof(option_rows) / sizeof(*option_rows), .help_column = 23,
};

static void set_defaults(struct bench_options *o)
{
	memset(o, 0, sizeof(*o));
	o->cfg.url = "http://127.0.0.1:8080";
	o->cfg.endpoint = bench_endpoint_find("completion");
	o->cfg.seed = 1;
	o->cfg.burstiness = 1;
	o->cfg.n_predict = 32;
	o->cfg.prompt_words = 32;
	o->cfg.timeout_ms = 60000;
	o->cells[0].concurrency = 1;
	o->n_cells = 1;
	o->n_duties = 1;
	o->hog_period_ms = 100;
	o->trials = 1;
	snprintf(o->arms[0].name, sizeof(o->arms[0].name), "none");
	o->n_arms = 1;
}

int bench_options_parse(int argc, char **argv, struct bench_options *o, struct rvv_error *err)
{
	rvv_cli_given given_rows = 0;
	unsigned long given;
	double rate;
	int rc;

	set_defaults(o);
	rc = rvv_cli_parse(&cli, argc, argv, o, &given_rows, err);
	o->help = rc == RVV_CLI_HELP;
	o->version = rc == RVV_CLI_VERSION;
	if (rc)
		return rc < 0 ? rc : 0;
	given = rvv_cli_bits(&cli, given_rows);
	if (optind < argc)
		return rvv_fail(err, -EINVAL, "%s: rvvbench takes no operands",
				argv[optind]);
	if (o->cfg.requests && o->cfg.duration_s > 0)
		return rvv_fail(err, -EINVAL, "--requests and --duration: give one of them");
	if (!o->cfg.requests && !(o->cfg.duration_s > 0))
		o->cfg.requests = 16;
	rc = check_ramp(&o->cfg, o->rate, err);
	if (rc)
		return rc;
	/* The open loop's cells say the rate the ramp ends at. */
	rate = o->rate;
	if (o->cfg.ramp.how != BENCH_RAMP_NONE)
		rate = o->cfg.ramp.end;
	if ((given & GIVEN_BURSTINESS) && !(rate > 0))
		return rvv_fail(err, -EINVAL, "--burstiness shapes an open loop's arrivals: give --rate too");
	if (o->prompts_path && (given & GIVEN_PROMPT_WORDS))
		return rvv_fail(err, -EINVAL, "--prompts and --prompt-words: give one of them");
	if (o->json && o->md)
		return rvv_fail(err, -EINVAL, "--json and --md: give one of them");
	if (!o->n_hog_cpus)
		o->n_hog_cpus = bench_hog_default_cpus(o->hog_cpus, BENCH_HOG_MAX_CPUS);
	for (size_t i = 0; i < o->n_cells; i++) {
		o->cells[i].rate = rate;
		if (rate > 0 && !(given & GIVEN_CONCURRENCY))
			o->cells[i].concurrency = 256;
	}
	if (!o->prompts_path)
		return 0;
	rc = bench_dataset_load(o->prompts_path, &o->prompts, err);
	if (!rc)
		o->cfg.prompts = &o->prompts;
	return rc;
}

void bench_usage(FILE *f)
{
	fputs(
"usage: rvvbench [options]\n"
"Streams requests to a running llama-server and measures, per request on\n"
"CLOCK_MONOTONIC: TTFT (send, or the due time in an open loop, to the first\n"
"token event), E2E (to the last token event), TPOT = (E2E - TTFT)/(N - 1) with\n"
"N the server's own output token count, and every inter-token gap (ITL).\n"
"Percentiles interpolate linearly as numpy's default (vLLM, AIPerf) does.\n", f);
	rvv_cli_help(&cli, f);
	fputs(
"The first wave (the first N requests at concurrency N; the first request of\n"
"an open loop) is warm-up: in the records, not in the statistics.\n"
"A cell is hog duty x concurrency x arm; the arms run in a rotated order\n"
"within each trial, all with the same seed. Per cell: mean +- sample sd across\n"
"trials, and with two or more arms the paired difference against \"none\" with\n"
"a two-sided 95 % Student t interval. With the rvvstat module loaded, each\n"
"window also reports the vector-state saves and restores of the server's\n"
"vector threads, its other threads and everything else, and with /metrics\n"
"the server's own token and decode counts over the window.\n"
"Exit status: 0 done, 1 the server or the module failed it (no server at\n"
"the URL: start llama-server or give --url), 2 bad usage.\n"
"Example, against llama-server started with --metrics on port 8080:\n"
"  rvvbench --url http://127.0.0.1:8080 --concurrency 1,2,4 --requests 32 \\\n"
"      --n-predict 64 --ignore-eos --slo ttft=500ms,tpot=50ms\n"
"More in rvvbench(1): man -l tool/rvvbench/rvvbench.1 in the source tree.\n", f);
}

void bench_options_free(struct bench_options *o)
{
	bench_dataset_free(&o->prompts);
	o->cfg.prompts = NULL;
}
