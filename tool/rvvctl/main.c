// SPDX-License-Identifier: GPL-2.0
/*
 * rvvctl: the numbers of rvvstat.ko from its generic netlink family.
 * Options may come anywhere; the first other word is the command.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/parse.h"
#include "../lib/usage.h"
#include "commands.h"
#include "hint.h"

#define PROGRAM	"rvvctl"

static const char usage[] =
	"usage: rvvctl [--json | --csv] COMMAND [OPTIONS]\n"
	"\n"
	"commands:\n"
	"  info                     module, backend, register size and features\n"
	"  summary                  totals, rates and latency percentiles\n"
	"  cpus                     one row per CPU\n"
	"  tasks [--tgid N] [--sort saves|bytes|p99]\n"
	"                           one row per thread (of process N); p99 is of\n"
	"                           its switches that saved vector state, cpu the\n"
	"                           last it ran on, hint none|waiting|applied|failed\n"
	"  hist KIND [--cpu N]      one latency histogram, of CPU N or all\n"
	"  reset                    zero the counters and event histograms (root)\n"
	"  export --openmetrics     counters per CPU and latency histograms for a\n"
	"                           scraper (node_exporter's textfile collector)\n"
	"  snapshot                 the summary as JSON, to keep (> a.json)\n"
	"  delta A.json B.json      what happened between two snapshots, per second\n"
	"  watch [-d SECONDS] [-n COUNT]\n"
	"                           rates per interval (default 1 s, until ^C)\n"
	"  hint set (--tid N | --pid N) [--cpus LIST] [--policy SPEC] [--on-vector]\n"
	"                           give a thread (or every thread of a process) a\n"
	"                           CPU list such as 0-3,6 and a policy: normal[:NICE],\n"
	"                           batch[:NICE], idle, fifo:PRIO, rr:PRIO or\n"
	"                           deadline:RUNTIME/DEADLINE/PERIOD (2ms/10ms/10ms);\n"
	"                           now, or at its first vector instruction\n"
	"  hint get (--tid N | --pid N)      the hint and where it was applied\n"
	"  hint clear (--tid N | --pid N)    remove it and restore the baseline\n"
	"\n"
	"  --json                   JSON instead of text\n"
	"  --csv                    CSV (cpus, tasks and hist)\n"
	"  -h, --help               this text\n"
	"\n"
	"More in rvvctl(1): man -l tool/rvvctl/rvvctl.1 in the source tree.\n";

struct options {
	enum output_format format;
	uint64_t tgid;
	int64_t cpu;
	enum task_order order;
	bool openmetrics;
	struct hint_request hint;
	bool has_target;
	uint64_t interval, count;
	const char *files[2];		/* delta */
	const char *command;
	uint32_t kind;		/* enum rvvstat_latency, for hist */
};

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "tgid", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "sort", required_argument, NULL, 's' },
		{ "openmetrics", no_argument, NULL, 'o' },
		{ "tid", required_argument, NULL, 'T' },
		{ "pid", required_argument, NULL, 'P' },
		{ "cpus", required_argument, NULL, 'm' },
		{ "policy", required_argument, NULL, 'p' },
		{ "on-vector", no_argument, NULL, 'v' },
		{ "interval", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	uint64_t cpu, target;
	int opt, status;

	*o = (struct options){ .cpu = -1, .interval = 1 };
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":hd:n:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			o->format = OUTPUT_JSON;
			break;
		case 'c':
			o->format = OUTPUT_CSV;
			break;
		case 't':
			if (rvv_parse_uint(optarg, INT32_MAX, &o->tgid) || !o->tgid)
				return rvv_bad_usage(PROGRAM, "--tgid: \"%s\" is not a process id", optarg);
			break;
		case 'C':
			if (rvv_parse_uint(optarg, INT32_MAX, &cpu))
				return rvv_bad_usage(PROGRAM, "--cpu: \"%s\" is not a CPU number", optarg);
			o->cpu = (int64_t)cpu;
			break;
		case 's':
			if (!strcmp(optarg, "saves"))
				o->order = ORDER_SAVES;
			else if (!strcmp(optarg, "bytes"))
				o->order = ORDER_BYTES;
			else if (!strcmp(optarg, "p99"))
				o->order = ORDER_P99;
			else
				return rvv_bad_usage(PROGRAM, "--sort: \"%s\" is not saves, bytes or p99", optarg);
			break;
		case 'o':
			o->openmetrics = true;
			break;
		case 'T':
		case 'P':
			if (o->has_target)
				return rvv_bad_usage(PROGRAM, "%s", "give one of --tid and --pid");
			if (rvv_parse_uint(optarg, INT32_MAX, &target) || !target)
				return rvv_bad_usage(PROGRAM, "\"%s\" is not a thread or process id", optarg);
			o->has_target = true;
			o->hint.target = (int32_t)target;
			o->hint.process = opt == 'P';
			break;
		case 'm':
			status = rvv_parse_cpulist(optarg, o->hint.cpus, sizeof(o->hint.cpus));
			if (status)
				return rvv_bad_usage(PROGRAM, status == -ERANGE ?
						 "--cpus: \"%s\" names a CPU past 1023" :
						 "--cpus: \"%s\" is not a CPU list such as 0-3,6", optarg);
			o->hint.has_cpus = true;
			break;
		case 'p':
			status = rvv_parse_policy(optarg, &o->hint.policy);
			if (status)
				return rvv_bad_usage(PROGRAM, status == -ERANGE ?
						 "--policy: \"%s\" is out of range (nice -20..19, priority 1..99, runtime <= deadline <= period)" :
						 "--policy: \"%s\" is not normal[:NICE], batch[:NICE], idle, fifo:PRIO, rr:PRIO or deadline:RUNTIME/DEADLINE/PERIOD", optarg);
			o->hint.has_policy = true;
			break;
		case 'v':
			o->hint.on_vector = true;
			break;
		case 'd':
			if (rvv_parse_uint(optarg, 86400, &o->interval) || !o->interval)
				return rvv_bad_usage(PROGRAM, "-d: \"%s\" is not a number of seconds from 1 to 86400", optarg);
			break;
		case 'n':
			if (rvv_parse_uint(optarg, UINT32_MAX, &o->count) || !o->count)
				return rvv_bad_usage(PROGRAM, "-n: \"%s\" is not a count of at least 1", optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			return rvv_bad_option(PROGRAM, opt, argv);
		}
	}
	if (optind == argc)
		return rvv_bad_usage(PROGRAM, "%s", "no command given");
	o->command = argv[optind++];
	if (!strcmp(o->command, "hist")) {
		const char *const *kinds;
		int nr_kinds, kind;

		if (optind == argc)
			return rvv_bad_usage(PROGRAM, "%s", "hist needs a KIND (switch_saved, save_user, ...)");
		kinds = rvvctl_latency_names(&nr_kinds);
		kind = rvv_parse_name(argv[optind], kinds, nr_kinds);
		if (kind < 0)
			return rvv_bad_usage(PROGRAM, "hist: no latency kind \"%s\" (the kinds are in rvvctl summary)",
					 argv[optind]);
		o->kind = kind;
		optind++;
	}
	if (!strcmp(o->command, "hint")) {
		static const char *const actions[] = { "set", "get", "clear" };
		int action = optind < argc ?
			     rvv_parse_name(argv[optind], actions,
					    (int)(sizeof(actions) / sizeof(*actions))) : -1;

		if (action < 0)
			return rvv_bad_usage(PROGRAM, "%s", "hint needs set, get or clear");
		optind++;
		o->hint.action = action;
		if (!o->has_target)
			return rvv_bad_usage(PROGRAM, "%s", "hint needs --tid N or --pid N");
		if (action == HINT_SET && !o->hint.has_cpus && !o->hint.has_policy)
			return rvv_bad_usage(PROGRAM, "%s", "hint set needs --cpus, --policy or both");
	}
	if (strcmp(o->command, "hint") || o->hint.action != HINT_SET) {
		if (o->hint.has_cpus || o->hint.has_policy || o->hint.on_vector)
			return rvv_bad_usage(PROGRAM, "%s", "--cpus, --policy and --on-vector are for hint set");
	}
	if (!strcmp(o->command, "delta")) {
		if (argc - optind != 2)
			return rvv_bad_usage(PROGRAM, "%s", "delta needs two snapshot files");
		o->files[0] = argv[optind++];
		o->files[1] = argv[optind++];
	}
	if (strcmp(o->command, "watch") && (o->interval != 1 || o->count))
		return rvv_bad_usage(PROGRAM, "%s", "-d and -n are for watch");
	if (strcmp(o->command, "hint") && o->has_target)
		return rvv_bad_usage(PROGRAM, "%s", "--tid and --pid are for hint (tasks takes --tgid)");
	if (optind < argc)
		return rvv_bad_usage(PROGRAM, "unexpected argument \"%s\"", argv[optind]);
	if (!strcmp(o->command, "export") != o->openmetrics)
		return rvv_bad_usage(PROGRAM, "%s", o->openmetrics ? "--openmetrics is for export" :
				 "export needs its format: --openmetrics");
	if (o->openmetrics && o->format != OUTPUT_TEXT)
		return rvv_bad_usage(PROGRAM, "%s", "export prints OpenMetrics: --json and --csv do not apply");
	if (o->format == OUTPUT_CSV && strcmp(o->command, "cpus") &&
	    strcmp(o->command, "tasks") && strcmp(o->command, "hist"))
		return rvv_bad_usage(PROGRAM, "--csv is for cpus, tasks and hist, not %s", o->command);
	return 0;
}

static int run(struct rvv_client *c, const struct options *o,
	       struct rvv_error *err)
{
	if (!strcmp(o->command, "info"))
		return rvvctl_info(c, o->format, err);
	if (!strcmp(o->command, "summary"))
		return rvvctl_summary(c, o->format, err);
	if (!strcmp(o->command, "cpus"))
		return rvvctl_cpus(c, o->format, err);
	if (!strcmp(o->command, "tasks"))
		return rvvctl_tasks(c, o->format, o->tgid, o->order, err);
	if (!strcmp(o->command, "reset"))
		return rvv_client_reset(c, err);
	if (!strcmp(o->command, "export"))
		return rvvctl_export(c, err);
	if (!strcmp(o->command, "snapshot"))
		return rvvctl_summary(c, OUTPUT_JSON, err);
	if (!strcmp(o->command, "watch"))
		return rvvctl_watch(c, (double)o->interval, o->count, o->format, err);
	return rvvctl_hist(c, o->format, o->kind, o->cpu, err);
}

int main(int argc, char **argv)
{
	static const char *const commands[] = {
		"info", "summary", "cpus", "tasks", "hist", "reset", "export", "hint",
		"snapshot", "delta", "watch",
	};
	struct rvv_error err = { 0 };
	struct rvv_client *client;
	struct options o;
	int status;

	status = parse_options(argc, argv, &o);
	if (status)
		return status;
	if (rvv_parse_name(o.command, commands,
			   (int)(sizeof(commands) / sizeof(*commands))) < 0)
		return rvv_bad_usage(PROGRAM, "unknown command \"%s\"", o.command);
	if (!strcmp(o.command, "hint")) {	/* the device, not netlink */
		status = rvvctl_hint(&o.hint, o.format, &err);
	} else if (!strcmp(o.command, "delta")) {	/* files only */
		status = rvvctl_delta(o.files[0], o.files[1], o.format, &err);
	} else {
		status = rvv_client_open(&client, &err);
		if (!status) {
			status = run(client, &o, &err);
			rvv_client_close(client);
		}
	}
	if (status) {
		fprintf(stderr, "rvvctl: %s\n", err.code ? err.message :
			strerror(-status));
		return 1;
	}
	return 0;
}
