// SPDX-License-Identifier: GPL-2.0
/* rvvctl's options, as a table: a new option is a parse function and a row. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../lib/parse.h"
#include "options.h"

#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))

RVV_OPTION_PARSER(parse_tgid)
{
	struct options *o = ctx;

	(void)opt;
	if (rvv_parse_uint(arg, INT32_MAX, &o->tgid) || !o->tgid)
		return rvv_fail(err, -EINVAL, "--tgid: \"%s\" is not a process id", arg);
	return 0;
}

RVV_OPTION_PARSER(parse_cpu)
{
	struct options *o = ctx;
	uint64_t cpu;

	(void)opt;
	if (rvv_parse_uint(arg, INT32_MAX, &cpu))
		return rvv_fail(err, -EINVAL, "--cpu: \"%s\" is not a CPU number", arg);
	o->cpu = (int64_t)cpu;
	return 0;
}

RVV_OPTION_PARSER(parse_sort)
{
	struct options *o = ctx;

	(void)opt;
	if (!strcmp(arg, "saves"))
		o->order = ORDER_SAVES;
	else if (!strcmp(arg, "bytes"))
		o->order = ORDER_BYTES;
	else if (!strcmp(arg, "p99"))
		o->order = ORDER_P99;
	else
		return rvv_fail(err, -EINVAL, "--sort: \"%s\" is not saves, bytes or p99", arg);
	return 0;
}

/* --openmetrics, --prometheus: given is all they say. */
RVV_OPTION_PARSER(parse_given)
{
	(void)ctx, (void)opt, (void)arg, (void)err;
	return 0;
}

RVV_OPTION_PARSER(parse_output)
{
	struct options *o = ctx;

	(void)opt;
	if (!*arg)
		return rvv_fail(err, -EINVAL, "%s", "--output needs a file name");
	o->output = arg;
	return 0;
}

/* --tid and --pid: the hint's target, a thread or a whole process. */
RVV_OPTION_PARSER(parse_target)
{
	struct options *o = ctx;
	uint64_t target;

	if (rvv_parse_uint(arg, INT32_MAX, &target) || !target)
		return rvv_fail(err, -EINVAL, "\"%s\" is not a thread or process id", arg);
	o->hint.target = (int32_t)target;
	o->hint.process = opt->bits == OPT_PID;
	return 0;
}

RVV_OPTION_PARSER(parse_cpus)
{
	struct options *o = ctx;
	int status = rvv_parse_cpulist(arg, o->hint.cpus, sizeof(o->hint.cpus));

	(void)opt;
	if (status == -ERANGE)
		return rvv_fail(err, -EINVAL, "--cpus: \"%s\" names a CPU past 1023", arg);
	if (status)
		return rvv_fail(err, -EINVAL, "--cpus: \"%s\" is not a CPU list such as 0-3,6", arg);
	o->hint.has_cpus = true;
	return 0;
}

RVV_OPTION_PARSER(parse_policy)
{
	struct options *o = ctx;
	int status = rvv_parse_policy(arg, &o->hint.policy);

	(void)opt;
	if (status == -ERANGE)
		return rvv_fail(err, -EINVAL, "--policy: \"%s\" is out of range (nice -20..19, priority 1..99, runtime <= deadline <= period)",
				arg);
	if (status)
		return rvv_fail(err, -EINVAL, "--policy: \"%s\" is not normal[:NICE], batch[:NICE], idle, fifo:PRIO, rr:PRIO or deadline:RUNTIME/DEADLINE/PERIOD",
				arg);
	o->hint.has_policy = true;
	return 0;
}

RVV_OPTION_PARSER(parse_interval)
{
	struct options *o = ctx;

	(void)opt;
	if (rvv_parse_uint(arg, 86400, &o->interval) || !o->interval)
		return rvv_fail(err, -EINVAL, "-d: \"%s\" is not a number of seconds from 1 to 86400", arg);
	return 0;
}

RVV_OPTION_PARSER(parse_count)
{
	struct options *o = ctx;

	(void)opt;
	if (rvv_parse_uint(arg, UINT32_MAX, &o->count) || !o->count)
		return rvv_fail(err, -EINVAL, "-n: \"%s\" is not a count of at least 1", arg);
	return 0;
}

/* --FORMAT, one for each output format but the default. */
RVV_OPTION_PARSER(parse_format)
{
	struct options *o = ctx;

	(void)arg, (void)err;
	o->format = output_format_named(opt->name);
	return 0;
}

/*
 * The options but --FORMAT, each with the OPT_* bit by which the command
 * table says which commands take it (0: every command). The commands' help
 * describes them, so they have none of their own.
 */
static const struct rvv_option option_rows[] = {
	{ .name = "tgid", .arg = "N", .parse = parse_tgid, .bits = OPT_TGID },
	{ .name = "cpu", .arg = "N", .parse = parse_cpu, .bits = OPT_CPU },
	{ .name = "sort", .arg = "KEY", .parse = parse_sort, .bits = OPT_SORT },
	{ .name = "openmetrics", .parse = parse_given, .bits = OPT_OPENMETRICS },
	{ .name = "prometheus", .parse = parse_given, .bits = OPT_PROMETHEUS },
	{ .name = "output", .arg = "FILE", .parse = parse_output, .bits = OPT_OUTPUT },
	{ .name = "top-tasks", .arg = "N", .parse = rvv_exposition_top_tasks_option,
	  .bits = OPT_TOP_TASKS, .offset = offsetof(struct options, exposition.top_tasks) },
	{ .name = "tid", .arg = "N", .parse = parse_target, .bits = OPT_TID },
	{ .name = "pid", .arg = "N", .parse = parse_target, .bits = OPT_PID },
	{ .name = "cpus", .arg = "LIST", .parse = parse_cpus, .bits = OPT_CPUS },
	{ .name = "policy", .arg = "SPEC", .parse = parse_policy, .bits = OPT_POLICY },
	{ .name = "on-vector", .parse = rvv_option_flag, .bits = OPT_ON_VECTOR,
	  .offset = offsetof(struct options, hint.on_vector) },
	{ .name = "interval", .letter = 'd', .arg = "SECONDS", .parse = parse_interval,
	  .bits = OPT_INTERVAL },
	{ .name = "count", .letter = 'n', .arg = "COUNT", .parse = parse_count, .bits = OPT_COUNT },
};

_Static_assert(NR(option_rows) + 2 <= OPTION_ROWS, "options.h: OPTION_ROWS holds them and help");

void options_table(struct option_table *t, format_note_fn *note)
{
	const struct output_format *const *formats;
	int nr, n = 0;

	memcpy(t->rows, option_rows, sizeof(option_rows));
	n += NR(option_rows);
	formats = output_formats(&nr);
	for (int i = 1; i < nr; i++, n++) {
		note(formats[i], t->format_help[i], sizeof(t->format_help[i]));
		t->rows[n] = (struct rvv_option){
			.name = formats[i]->option, .help = t->format_help[i],
			.parse = parse_format, .bits = OPT_FORMAT,
		};
	}
	t->rows[n++] = (struct rvv_option)RVV_OPTION_HELP;
	t->rows[n++] = (struct rvv_option)RVV_OPTION_VERSION(
		"its release, the ABI it was built for and the\nloaded module's");
	t->cli = (struct rvv_cli){
		.program = "rvvctl", .options = t->rows, .nr_options = n, .help_column = 27,
	};
}

int options_parse(const struct rvv_cli *cli, int argc, char **argv, struct options *o,
		  struct rvv_error *err)
{
	int status;

	*o = (struct options){ .cpu = -1, .interval = 1, .format = output_formats(&status)[0] };
	status = rvv_cli_parse(cli, argc, argv, o, &o->given_rows, err);
	o->given = rvv_cli_bits(cli, o->given_rows);
	return status;
}
