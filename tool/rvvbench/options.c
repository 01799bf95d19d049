// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "prompt.h"

void bench_usage(FILE *f)
{
	fprintf(f,
"usage: rvvbench [options]\n"
"Streams requests to a running llama-server and measures, per request on\n"
"CLOCK_MONOTONIC: TTFT (send, or the due time in an open loop, to the first\n"
"token event), E2E (to the last token event), TPOT = (E2E - TTFT)/(N - 1) with\n"
"N the server's own output token count, and every inter-token gap (ITL).\n"
"Percentiles interpolate linearly as numpy's default (vLLM, AIPerf) does.\n"
"  --url URL            the server (default http://127.0.0.1:8080)\n"
"  --endpoint NAME      %s (default completion)\n"
"  --concurrency N,...  requests in flight, closed loop; a list sweeps (default 1);\n"
"                       with --rate: the most in flight (default 256)\n"
"  --rate R             open loop: Poisson arrivals at R requests/s\n"
"  --burstiness B       with --rate: gamma gaps of shape B (default 1, Poisson;\n"
"                       below 1 bursty, above 1 even), as vLLM's bench\n"
"  --ramp-up-strategy linear|exponential  instead of --rate: an open loop whose\n"
"                       rate goes from --ramp-up-start-rps R to --ramp-up-end-rps R\n"
"                       over --requests\n"
"  --requests N         requests per cell (default 16), or\n"
"  --duration S         no new request after S seconds\n"
"  --n-predict N        tokens to generate (default 32; -1: the server's choice)\n"
"  --ignore-eos         generate all of them\n"
"  --prompt-words N     words after each prompt's unique prefix (default 32, at most 500)\n"
"  --prompts FILE       prompts from FILE instead: JSON Lines {\"prompt\": TEXT,\n"
"                       \"output_len\": N} or a ShareGPT array, in order\n"
"  --seed N             prompts and arrivals (default 1)\n"
"  --timeout S          per request (default 60; 500ms works too)\n"
"  --slo ttft=500ms,tpot=50ms[,e2e=2s]  goodput and attainment; errors miss\n"
"  --jsonl FILE         one record per request, warm-up included and tagged\n"
"  --percentiles HOW    linear (default) or nearest: the value at rank\n"
"                       ceil(p/100 * n), a latency some request had\n"
"  --hog-duty P,...     the CPU hog's duty in percent (0-100), a list sweeps\n"
"                       (default 0: it sleeps); busy P %% of every period,\n"
"                       scalar integer work, one pinned thread per CPU\n"
"  --hog-cpus LIST      its CPUs, like 0-3,6 (default: every CPU we may use)\n"
"  --hog-period S       its period (default 100ms)\n"
"  --policy ARM         an arm beside \"none\" (repeat for more, up to %d in all):\n"
"                       affinity:CPUS and/or a policy (normal[:NICE], batch[:NICE],\n"
"                       idle, fifo:PRIO, rr:PRIO, deadline:RUNTIME/DEADLINE/PERIOD)\n"
"                       joined by +, then @on-vector (at each thread's first vector\n"
"                       use) or @now (default): fifo:10@on-vector, affinity:2-3.\n"
"                       Two tiers: the threads that use vector state on their own,\n"
"                       after ,vector= (at first vector use): fifo:11,vector=fifo:10\n"
"                       Set on the server's process through /dev/rvvstat for each\n"
"                       window, read back per thread and cleared after it.\n"
"  --server-pid PID     the server (default: the process listening on the URL's port)\n"
"  --trials N           repeat the sweep N times (default 1); arms rotate\n"
"  --csv FILE           one row per arm x duty x concurrency x trial\n"
"  --ratios FILE        per arm, duty and concurrency, tok/s and TTFT p95 over\n"
"                       \"none\" with 95 %% intervals, one serve-ratio line each\n"
"  --json               the summary as JSON on stdout (else a table)\n"
"  --md                 the per-cell summary as a Markdown table\n"
"  --plot DIR           tok/s, TTFT p95 and V saves per 1000 tokens against hog\n"
"                       duty, a line per arm, as SVG and PNG (gnuplot)\n"
"  -h, --help           this text\n"
"  --version            its release and the module ABI it was built for\n"
"The first wave (the first N requests at concurrency N; the first request of\n"
"an open loop) is warm-up: in the records, not in the statistics.\n"
"A cell is hog duty x concurrency x arm; the arms run in a rotated order\n"
"within each trial, all with the same seed. Per cell: mean +- sample sd across\n"
"trials, and with two or more arms the paired difference against \"none\" with\n"
"a two-sided 95 %% Student t interval. With the rvvstat module loaded, each\n"
"window also reports the vector-state saves and restores of the server's\n"
"vector threads, its other threads and everything else, and with /metrics\n"
"the server's own token and decode counts over the window.\n"
"Exit status: 0 done, 1 the server or the module failed it (no server at\n"
"the URL: start llama-server or give --url), 2 bad usage.\n"
"Example, against llama-server started with --metrics on port 8080:\n"
"  rvvbench --url http://127.0.0.1:8080 --concurrency 1,2,4 --requests 32 \\\n"
"      --n-predict 64 --ignore-eos --slo ttft=500ms,tpot=50ms\n"
"More in rvvbench(1): man -l tool/rvvbench/rvvbench.1 in the source tree.\n",
		bench_endpoint_names(), BENCH_MAX_ARMS);
}

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

int bench_options_parse(int argc, char **argv, struct bench_options *o, struct rvv_error *err)
{
	enum { O_URL = 256, O_ENDPOINT, O_CONC, O_RATE, O_REQUESTS, O_DURATION, O_NPREDICT,
	       O_EOS, O_WORDS, O_SEED, O_TIMEOUT, O_SLO, O_JSONL, O_JSON, O_HELP, O_DUTY,
	       O_HOGCPUS, O_PERIOD, O_TRIALS, O_CSV, O_RATIOS, O_MD, O_POLICY, O_PID, O_PLOT, O_VERSION, O_PCT,
	       O_BURST, O_PROMPTS, O_RAMP, O_RAMP_START, O_RAMP_END };
	static const struct option longs[] = {
		{ "url", 1, NULL, O_URL }, { "endpoint", 1, NULL, O_ENDPOINT },
		{ "concurrency", 1, NULL, O_CONC }, { "rate", 1, NULL, O_RATE },
		{ "requests", 1, NULL, O_REQUESTS }, { "duration", 1, NULL, O_DURATION },
		{ "n-predict", 1, NULL, O_NPREDICT }, { "ignore-eos", 0, NULL, O_EOS },
		{ "prompt-words", 1, NULL, O_WORDS }, { "seed", 1, NULL, O_SEED },
		{ "timeout", 1, NULL, O_TIMEOUT }, { "slo", 1, NULL, O_SLO },
		{ "jsonl", 1, NULL, O_JSONL }, { "json", 0, NULL, O_JSON },
		{ "help", 0, NULL, O_HELP }, { "hog-duty", 1, NULL, O_DUTY },
		{ "hog-cpus", 1, NULL, O_HOGCPUS }, { "hog-period", 1, NULL, O_PERIOD },
		{ "trials", 1, NULL, O_TRIALS }, { "csv", 1, NULL, O_CSV },
		{ "ratios", 1, NULL, O_RATIOS }, { "md", 0, NULL, O_MD },
		{ "policy", 1, NULL, O_POLICY }, { "server-pid", 1, NULL, O_PID },
		{ "plot", 1, NULL, O_PLOT }, { "version", 0, NULL, O_VERSION },
		{ "percentiles", 1, NULL, O_PCT }, { "burstiness", 1, NULL, O_BURST },
		{ "prompts", 1, NULL, O_PROMPTS }, { "ramp-up-strategy", 1, NULL, O_RAMP },
		{ "ramp-up-start-rps", 1, NULL, O_RAMP_START },
		{ "ramp-up-end-rps", 1, NULL, O_RAMP_END },
		{ NULL, 0, NULL, 0 },
	};
	bool conc_given = false, burst_given = false, words_given = false;
	double rate = 0, ms;
	char *end;
	long v;
	int c, rc = 0;

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
	optind = 1;
	opterr = 0;
	while (!rc && (c = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
		switch (c) {
		case O_URL: o->cfg.url = optarg; break;
		case O_ENDPOINT:
			o->cfg.endpoint = bench_endpoint_find(optarg);
			if (!o->cfg.endpoint)
				rc = rvv_fail(err, -EINVAL, "--endpoint %s: choose one of %s", optarg,
					      bench_endpoint_names());
			break;
		case O_CONC: conc_given = true; rc = parse_concurrency(optarg, o, err); break;
		case O_RATE:
			rate = strtod(optarg, &end);
			if (!(rate > 0) || *end)
				rc = rvv_fail(err, -EINVAL, "--rate %s: give requests per second, above 0", optarg);
			break;
		case O_BURST:
			burst_given = true;
			o->cfg.burstiness = strtod(optarg, &end);
			if (!(o->cfg.burstiness > 0) || !isfinite(o->cfg.burstiness) || *end)
				rc = rvv_fail(err, -EINVAL, "--burstiness %s: give the gamma shape, above 0 (1 is Poisson)",
					      optarg);
			break;
		case O_REQUESTS: rc = parse_long("--requests", optarg, 1, &o->cfg.requests, err); break;
		case O_DURATION:
			if (bench_parse_ms(optarg, &ms) || ms <= 0)
				rc = rvv_fail(err, -EINVAL, "--duration %s: give seconds, like 30 or 1.5s", optarg);
			o->cfg.duration_s = ms / 1000;
			break;
		case O_NPREDICT: rc = parse_long("--n-predict", optarg, -1, &o->cfg.n_predict, err); break;
		case O_EOS: o->cfg.ignore_eos = true; break;
		case O_PROMPTS: o->prompts_path = optarg; break;
		case O_RAMP: rc = parse_ramp(optarg, &o->cfg.ramp.how, err); break;
		case O_RAMP_START: rc = parse_rps("--ramp-up-start-rps", optarg, &o->cfg.ramp.start, err); break;
		case O_RAMP_END: rc = parse_rps("--ramp-up-end-rps", optarg, &o->cfg.ramp.end, err); break;
		case O_WORDS:
			words_given = true;
			rc = parse_long("--prompt-words", optarg, 0, &v, err);
			if (!rc && v > BENCH_MAX_PROMPT_WORDS)
				rc = rvv_fail(err, -EINVAL, "--prompt-words %ld: at most %d", v,
					      BENCH_MAX_PROMPT_WORDS);
			o->cfg.prompt_words = (int)v;
			break;
		case O_SEED:
			rc = parse_long("--seed", optarg, 0, &v, err);
			o->cfg.seed = (uint64_t)v;
			break;
		case O_TIMEOUT:
			if (bench_parse_ms(optarg, &ms) || ms < 1)
				rc = rvv_fail(err, -EINVAL, "--timeout %s: give seconds, like 60 or 500ms", optarg);
			o->cfg.timeout_ms = (long)ms;
			break;
		case O_SLO: rc = bench_slo_parse(optarg, &o->slo, err); break;
		case O_JSONL: o->jsonl = optarg; break;
		case O_JSON: o->json = true; break;
		case O_MD: o->md = true; break;
		case O_CSV: o->csv = optarg; break;
		case O_RATIOS: o->ratios = optarg; break;
		case O_TRIALS: rc = parse_long("--trials", optarg, 1, &o->trials, err); break;
		case O_DUTY:
			rc = parse_list("--hog-duty", optarg, 0, 100, o->duties, BENCH_MAX_DUTIES, err);
			o->n_duties = rc < 0 ? 0 : (size_t)rc;
			rc = rc < 0 ? rc : 0;
			break;
		case O_HOGCPUS:
			rc = bench_cpu_list_parse(optarg, o->hog_cpus, BENCH_HOG_MAX_CPUS);
			if (rc < 0)
				rc = rvv_fail(err, -EINVAL, "--hog-cpus %s: give CPUs like 0-3,6", optarg);
			else
				o->n_hog_cpus = (size_t)rc, rc = 0;
			break;
		case O_PERIOD:
			if (bench_parse_ms(optarg, &o->hog_period_ms) || o->hog_period_ms < 1)
				rc = rvv_fail(err, -EINVAL, "--hog-period %s: give at least 1ms, like 100ms", optarg);
			break;
		case O_POLICY: rc = add_arm(optarg, o, err); break;
		case O_PID:
			rc = parse_long("--server-pid", optarg, 1, &v, err);
			o->server_pid = (int)(v < INT32_MAX ? v : INT32_MAX);
			break;
		case O_PLOT: o->plot_dir = optarg; break;
		case O_PCT: rc = parse_percentiles(optarg, &o->pct, err); break;
		case O_VERSION: o->version = true; break;
		case 'h': case O_HELP: o->help = true; break;
		default:
			rc = rvv_fail(err, -EINVAL, "%s: unknown option or missing value; see rvvbench --help",
				      argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind < argc)
		return rvv_fail(err, -EINVAL, "%s: rvvbench takes no operands; see rvvbench --help",
				argv[optind]);
	if (o->cfg.requests && o->cfg.duration_s > 0)
		return rvv_fail(err, -EINVAL, "--requests and --duration: give one of them");
	if (!o->cfg.requests && !(o->cfg.duration_s > 0))
		o->cfg.requests = 16;
	rc = check_ramp(&o->cfg, rate, err);
	if (rc)
		return rc;
	/* The open loop's cells say the rate the ramp ends at. */
	if (o->cfg.ramp.how != BENCH_RAMP_NONE)
		rate = o->cfg.ramp.end;
	if (burst_given && !(rate > 0))
		return rvv_fail(err, -EINVAL, "--burstiness shapes an open loop's arrivals: give --rate too");
	if (o->prompts_path && words_given)
		return rvv_fail(err, -EINVAL, "--prompts and --prompt-words: give one of them");
	if (o->json && o->md)
		return rvv_fail(err, -EINVAL, "--json and --md: give one of them");
	if (!o->n_hog_cpus)
		o->n_hog_cpus = bench_hog_default_cpus(o->hog_cpus, BENCH_HOG_MAX_CPUS);
	for (size_t i = 0; i < o->n_cells; i++) {
		o->cells[i].rate = rate;
		if (rate > 0 && !conc_given)
			o->cells[i].concurrency = 256;
	}
	if (!o->prompts_path)
		return 0;
	rc = bench_dataset_load(o->prompts_path, &o->prompts, err);
	if (!rc)
		o->cfg.prompts = &o->prompts;
	return rc;
}

void bench_options_free(struct bench_options *o)
{
	bench_dataset_free(&o->prompts);
	o->cfg.prompts = NULL;
}
