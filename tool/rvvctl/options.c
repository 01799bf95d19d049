// SPDX-License-Identifier: GPL-2.0
/* rvvctl's options, as a table: a new option is a parse function and a line. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../lib/parse.h"
#include "../lib/usage.h"
#include "options.h"

#define PROGRAM	"rvvctl"
#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))
/* getopt's value for the option of output format i, and of long-only option i. */
#define FORMAT_OPTION	0x100
#define LONG_OPTION	0x200

static int parse_tgid(struct options *o, const char *arg)
{
	if (rvv_parse_uint(arg, INT32_MAX, &o->tgid) || !o->tgid)
		return rvv_bad_usage(PROGRAM, "--tgid: \"%s\" is not a process id", arg);
	return 0;
}

static int parse_cpu(struct options *o, const char *arg)
{
	uint64_t cpu;

	if (rvv_parse_uint(arg, INT32_MAX, &cpu))
		return rvv_bad_usage(PROGRAM, "--cpu: \"%s\" is not a CPU number", arg);
	o->cpu = (int64_t)cpu;
	return 0;
}

static int parse_sort(struct options *o, const char *arg)
{
	if (!strcmp(arg, "saves"))
		o->order = ORDER_SAVES;
	else if (!strcmp(arg, "bytes"))
		o->order = ORDER_BYTES;
	else if (!strcmp(arg, "p99"))
		o->order = ORDER_P99;
	else
		return rvv_bad_usage(PROGRAM, "--sort: \"%s\" is not saves, bytes or p99", arg);
	return 0;
}

/* A flag: given is all it says. */
static int parse_flag(struct options *o, const char *arg)
{
	(void)o;
	(void)arg;
	return 0;
}

static int parse_output(struct options *o, const char *arg)
{
	if (!*arg)
		return rvv_bad_usage(PROGRAM, "%s", "--output needs a file name");
	o->output = arg;
	return 0;
}

static int parse_top_tasks(struct options *o, const char *arg)
{
	uint64_t top;

	if (rvv_parse_uint(arg, RVV_EXPOSITION_MAX_TOP_TASKS, &top))
		return rvv_bad_usage(PROGRAM, "--top-tasks: \"%s\" is not a count from 0 to 1000",
				     arg);
	o->exposition.top_tasks = (unsigned int)top;
	return 0;
}

static int parse_target(struct options *o, const char *arg, bool process)
{
	uint64_t target;

	if (rvv_parse_uint(arg, INT32_MAX, &target) || !target)
		return rvv_bad_usage(PROGRAM, "\"%s\" is not a thread or process id", arg);
	o->hint.target = (int32_t)target;
	o->hint.process = process;
	return 0;
}

static int parse_tid(struct options *o, const char *arg)
{
	return parse_target(o, arg, false);
}

static int parse_pid(struct options *o, const char *arg)
{
	return parse_target(o, arg, true);
}

static int parse_cpus(struct options *o, const char *arg)
{
	int status = rvv_parse_cpulist(arg, o->hint.cpus, sizeof(o->hint.cpus));

	if (status)
		return rvv_bad_usage(PROGRAM, status == -ERANGE ?
				     "--cpus: \"%s\" names a CPU past 1023" :
				     "--cpus: \"%s\" is not a CPU list such as 0-3,6", arg);
	o->hint.has_cpus = true;
	return 0;
}

static int parse_policy(struct options *o, const char *arg)
{
	int status = rvv_parse_policy(arg, &o->hint.policy);

	if (status)
		return rvv_bad_usage(PROGRAM, status == -ERANGE ?
				     "--policy: \"%s\" is out of range (nice -20..19, priority 1..99, runtime <= deadline <= period)" :
				     "--policy: \"%s\" is not normal[:NICE], batch[:NICE], idle, fifo:PRIO, rr:PRIO or deadline:RUNTIME/DEADLINE/PERIOD", arg);
	o->hint.has_policy = true;
	return 0;
}

static int parse_on_vector(struct options *o, const char *arg)
{
	(void)arg;
	o->hint.on_vector = true;
	return 0;
}

static int parse_interval(struct options *o, const char *arg)
{
	if (rvv_parse_uint(arg, 86400, &o->interval) || !o->interval)
		return rvv_bad_usage(PROGRAM, "-d: \"%s\" is not a number of seconds from 1 to 86400", arg);
	return 0;
}

static int parse_count(struct options *o, const char *arg)
{
	if (rvv_parse_uint(arg, UINT32_MAX, &o->count) || !o->count)
		return rvv_bad_usage(PROGRAM, "-n: \"%s\" is not a count of at least 1", arg);
	return 0;
}

static int parse_help(struct options *o, const char *arg)
{
	(void)arg;
	o->help = true;
	return 0;
}

static int parse_version(struct options *o, const char *arg)
{
	(void)arg;
	o->version = true;
	return 0;
}

/*
 * The options: the long name, a short letter (0: none), the OPT_* bit of
 * the commands that take it (0: every command) and what it sets, which
 * returns 0 or the exit status of a bad command line. The --FORMAT options
 * come from the formats' table.
 */
static const struct option_spec {
	const char *name;
	int has_arg;
	char letter;
	unsigned int bit;
	int (*parse)(struct options *o, const char *arg);
} option_specs[] = {
	{ "tgid", required_argument, 0, OPT_TGID, parse_tgid },
	{ "cpu", required_argument, 0, OPT_CPU, parse_cpu },
	{ "sort", required_argument, 0, OPT_SORT, parse_sort },
	{ "openmetrics", no_argument, 0, OPT_OPENMETRICS, parse_flag },
	{ "prometheus", no_argument, 0, OPT_PROMETHEUS, parse_flag },
	{ "output", required_argument, 0, OPT_OUTPUT, parse_output },
	{ "top-tasks", required_argument, 0, OPT_TOP_TASKS, parse_top_tasks },
	{ "tid", required_argument, 0, OPT_TID, parse_tid },
	{ "pid", required_argument, 0, OPT_PID, parse_pid },
	{ "cpus", required_argument, 0, OPT_CPUS, parse_cpus },
	{ "policy", required_argument, 0, OPT_POLICY, parse_policy },
	{ "on-vector", no_argument, 0, OPT_ON_VECTOR, parse_on_vector },
	{ "interval", required_argument, 'd', OPT_INTERVAL, parse_interval },
	{ "count", required_argument, 'n', OPT_COUNT, parse_count },
	{ "help", no_argument, 'h', 0, parse_help },
	{ "version", no_argument, 0, 0, parse_version },
};

/* getopt's value for option_specs[@i]. */
static int option_value(int i)
{
	return option_specs[i].letter ? option_specs[i].letter : LONG_OPTION + i;
}

void option_shown(unsigned int bit, char *buf, size_t size)
{
	int i;

	for (i = 0; i < NR(option_specs) && option_specs[i].bit != bit; i++)
		;
	if (option_specs[i].letter)
		snprintf(buf, size, "-%c", option_specs[i].letter);
	else
		snprintf(buf, size, "--%s", option_specs[i].name);
}

/* Sets @o from option @opt (getopt's value); 0 or the exit status of a bad command line. */
static int parse_option(int opt, struct options *o, char **argv)
{
	const struct output_format *const *formats = NULL;
	int i, nr, status;

	for (i = 0; i < NR(option_specs); i++) {
		if (opt != option_value(i))
			continue;
		status = option_specs[i].parse(o, optarg);
		o->given |= option_specs[i].bit;
		return status;
	}
	formats = output_formats(&nr);
	if (opt > FORMAT_OPTION && opt < FORMAT_OPTION + nr) {
		o->format = formats[opt - FORMAT_OPTION];
		o->formats_given |= 1u << (opt - FORMAT_OPTION);
		return 0;
	}
	return rvv_bad_option(PROGRAM, opt, argv);
}

int options_parse(int argc, char **argv, struct options *o)
{
	struct option longopts[NR(option_specs) + OUTPUT_MAX_FORMATS + 1] = { 0 };
	const struct output_format *const *formats;
	char shorts[2 * NR(option_specs) + 2] = ":";
	size_t len = 1;
	int opt, status = 0, i, nr;

	for (i = 0; i < NR(option_specs); i++) {
		const struct option_spec *spec = &option_specs[i];

		longopts[i] = (struct option){ spec->name, spec->has_arg, NULL, option_value(i) };
		if (spec->letter) {
			shorts[len++] = spec->letter;
			if (spec->has_arg)
				shorts[len++] = ':';
		}
	}
	/* Then --FORMAT for each format but the default. */
	formats = output_formats(&nr);
	for (i = 1; i < nr; i++)
		longopts[NR(option_specs) + i - 1] = (struct option){
			formats[i]->option, no_argument, NULL, FORMAT_OPTION + i,
		};
	*o = (struct options){ .cpu = -1, .interval = 1, .format = formats[0] };
	opterr = 0;
	while (!status && !o->help && !o->version &&
	       (opt = getopt_long(argc, argv, shorts, longopts, NULL)) != -1)
		status = parse_option(opt, o, argv);
	return status;
}
