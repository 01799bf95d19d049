// SPDX-License-Identifier: GPL-2.0
/*
 * rvvctl: the numbers of rvvstat.ko from its generic netlink family.
 * Options may come anywhere; the first other word is the command. Each
 * command says in the table below which options and formats it takes, so a
 * command line is refused rather than half obeyed.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/parse.h"
#include "../lib/cli.h"
#include "../lib/version.h"
#include "commands.h"
#include "hint.h"
#include "options.h"

#define PROGRAM	"rvvctl"
#define NR(a)	((int)(sizeof(a) / sizeof(*(a))))

/* What a command prints, and so the formats it takes. */
enum shape {
	PRINTS_TEXT,		/* text of its own, or nothing */
	PRINTS_TABLE,		/* a table: any format */
	PRINTS_DOCUMENT,	/* a document: the formats that print them */
	PRINTS_JSON,		/* a document, always as JSON (text accepted) */
};

struct command {
	const char *name;
	const char *help;		/* its lines in --help */
	unsigned int options;		/* OPT_* it takes */
	enum shape shape;
	bool stream;			/* a document per line, as they come */
	/*
	 * Takes the words after the name (argv[optind...]) and checks what
	 * the options alone cannot; 0 or the exit status of a bad command
	 * line. NULL: it takes no words.
	 */
	int (*words)(struct options *o, int argc, char **argv);
	bool netlink;			/* run gets a client, else NULL */
	int (*run)(struct rvv_client *c, const struct options *o,
		   struct output *out, struct rvv_error *err);
};

static int words_hist(struct options *o, int argc, char **argv)
{
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
	if ((o->given & OPT_TID) && kind != RVVSTAT_LAT_SWITCH_SAVED)
		return rvv_bad_usage(PROGRAM, "hist --tid: a thread keeps only switch_saved, not %s",
				     kinds[kind]);
	if ((o->given & OPT_TID) && (o->given & OPT_CPU))
		return rvv_bad_usage(PROGRAM, "%s", "hist: give one of --cpu and --tid");
	return 0;
}

static int words_hint(struct options *o, int argc, char **argv)
{
	static const char *const actions[] = { "set", "get", "clear" };
	int action = optind < argc ? rvv_parse_name(argv[optind], actions, NR(actions)) : -1;

	if (action < 0)
		return rvv_bad_usage(PROGRAM, "%s", "hint needs set, get or clear");
	optind++;
	o->hint.action = action;
	if (!(o->given & (OPT_TID | OPT_PID)))
		return rvv_bad_usage(PROGRAM, "%s", "hint needs --tid N or --pid N");
	if ((o->given & OPT_TID) && (o->given & OPT_PID))
		return rvv_bad_usage(PROGRAM, "%s", "give one of --tid and --pid");
	if (action == HINT_SET && !(o->given & (OPT_CPUS | OPT_POLICY)))
		return rvv_bad_usage(PROGRAM, "%s", "hint set needs --cpus, --policy or both");
	if (action != HINT_SET && (o->given & (OPT_CPUS | OPT_POLICY | OPT_ON_VECTOR)))
		return rvv_bad_usage(PROGRAM, "%s", "--cpus, --policy and --on-vector are for hint set");
	return 0;
}

static int words_delta(struct options *o, int argc, char **argv)
{
	if (argc - optind != 2)
		return rvv_bad_usage(PROGRAM, "%s", "delta needs two snapshot files");
	o->files[0] = argv[optind++];
	o->files[1] = argv[optind++];
	return 0;
}

static int words_export(struct options *o, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!(o->given & (OPT_OPENMETRICS | OPT_PROMETHEUS)))
		return rvv_bad_usage(PROGRAM, "%s", "export needs its format: --openmetrics or --prometheus");
	if ((o->given & OPT_OPENMETRICS) && (o->given & OPT_PROMETHEUS))
		return rvv_bad_usage(PROGRAM, "%s", "give one of --openmetrics and --prometheus");
	o->exposition.format = o->given & OPT_OPENMETRICS ? RVV_OPENMETRICS : RVV_PROMETHEUS_TEXT;
	return 0;
}

static int run_info(struct rvv_client *c, const struct options *o,
		    struct output *out, struct rvv_error *err)
{
	(void)o;
	return rvvctl_info(c, out, err);
}

static int run_summary(struct rvv_client *c, const struct options *o,
		       struct output *out, struct rvv_error *err)
{
	(void)o;
	return rvvctl_summary(c, out, err);
}

static int run_cpus(struct rvv_client *c, const struct options *o,
		    struct output *out, struct rvv_error *err)
{
	(void)o;
	return rvvctl_cpus(c, out, err);
}

static int run_tasks(struct rvv_client *c, const struct options *o,
		     struct output *out, struct rvv_error *err)
{
	return rvvctl_tasks(c, out, o->tgid, o->order, err);
}

static int run_hist(struct rvv_client *c, const struct options *o,
		    struct output *out, struct rvv_error *err)
{
	if (o->given & OPT_TID)
		return rvvctl_task_hist(c, out, (uint32_t)o->hint.target, err);
	return rvvctl_hist(c, out, o->kind, o->cpu, err);
}

static int run_reset(struct rvv_client *c, const struct options *o,
		     struct output *out, struct rvv_error *err)
{
	(void)o, (void)out;
	return rvv_client_reset(c, err);
}

static int run_export(struct rvv_client *c, const struct options *o,
		      struct output *out, struct rvv_error *err)
{
	(void)c;	/* its own: a module it cannot read is a scrape too */
	(void)out;	/* the exposition formats are the library's */
	return rvvctl_export(&o->exposition, o->output, err);
}

static int run_delta(struct rvv_client *c, const struct options *o,
		     struct output *out, struct rvv_error *err)
{
	(void)c;
	return rvvctl_delta(o->files[0], o->files[1], out, err);
}

static int run_watch(struct rvv_client *c, const struct options *o,
		     struct output *out, struct rvv_error *err)
{
	return rvvctl_watch(c, (double)o->interval, o->count, out, err);
}

static int run_hint(struct rvv_client *c, const struct options *o,
		    struct output *out, struct rvv_error *err)
{
	(void)c;	/* the device, not netlink */
	return rvvctl_hint(&o->hint, out, err);
}

static const struct command commands[] = {
	{
		.name = "info",
		.help = "  info                     module, backend, register size and features\n",
		.shape = PRINTS_DOCUMENT,
		.netlink = true,
		.run = run_info,
	},
	{
		.name = "summary",
		.help = "  summary                  totals, rates and latency percentiles\n",
		.shape = PRINTS_DOCUMENT,
		.netlink = true,
		.run = run_summary,
	},
	{
		.name = "cpus",
		.help = "  cpus                     one row per CPU\n",
		.shape = PRINTS_TABLE,
		.netlink = true,
		.run = run_cpus,
	},
	{
		.name = "tasks",
		.help = "  tasks [--tgid N] [--sort saves|bytes|p99]\n"
			"                           one row per thread (of process N); p99 is of\n"
			"                           its switches that saved vector state, cpu the\n"
			"                           last it ran on, hint none|waiting|applied|failed\n",
		.options = OPT_TGID | OPT_SORT,
		.shape = PRINTS_TABLE,
		.netlink = true,
		.run = run_tasks,
	},
	{
		.name = "hist",
		.help = "  hist KIND [--cpu N]      one latency histogram, of CPU N or all\n"
			"  hist switch_saved --tid N\n"
			"                           that of thread N's switches that saved\n",
		.options = OPT_CPU | OPT_TID,
		.shape = PRINTS_TABLE,
		.words = words_hist,
		.netlink = true,
		.run = run_hist,
	},
	{
		.name = "reset",
		.help = "  reset                    zero the counters and event histograms (root)\n",
		.shape = PRINTS_TEXT,
		.netlink = true,
		.run = run_reset,
	},
	{
		.name = "export",
		.help = "  export (--openmetrics | --prometheus) [--output FILE] [--top-tasks N]\n"
			"                           one scrape: counters per CPU and latency\n"
			"                           histograms, in OpenMetrics or the Prometheus\n"
			"                           text format; FILE replaced whole (for\n"
			"                           node_exporter's textfile collector: --prometheus);\n"
			"                           per-thread series for the N that saved most\n",
		.options = OPT_OPENMETRICS | OPT_PROMETHEUS | OPT_OUTPUT | OPT_TOP_TASKS,
		.shape = PRINTS_TEXT,
		.words = words_export,
		.run = run_export,
	},
	{
		.name = "snapshot",
		.help = "  snapshot                 the summary as JSON, to keep (> a.json)\n",
		.shape = PRINTS_JSON,
		.netlink = true,
		.run = run_summary,
	},
	{
		.name = "delta",
		.help = "  delta A.json B.json      what happened between two snapshots, per second\n",
		.shape = PRINTS_DOCUMENT,
		.words = words_delta,
		.run = run_delta,
	},
	{
		.name = "watch",
		.help = "  watch [-d SECONDS] [-n COUNT]\n"
			"                           rates per interval (default 1 s, until ^C)\n",
		.options = OPT_INTERVAL | OPT_COUNT,
		.shape = PRINTS_DOCUMENT,
		.stream = true,
		.netlink = true,
		.run = run_watch,
	},
	{
		.name = "hint",
		.help = "  hint set (--tid N | --pid N) [--cpus LIST] [--policy SPEC] [--on-vector]\n"
			"                           give a thread (or every thread of a process) a\n"
			"                           CPU list such as 0-3,6 and a policy: normal[:NICE],\n"
			"                           batch[:NICE], idle, fifo:PRIO, rr:PRIO or\n"
			"                           deadline:RUNTIME/DEADLINE/PERIOD (2ms/10ms/10ms);\n"
			"                           now, or at its first vector instruction\n"
			"  hint get (--tid N | --pid N)      the hint and where it was applied\n"
			"  hint clear (--tid N | --pid N)    remove it and restore the baseline\n",
		.options = OPT_TID | OPT_PID | OPT_CPUS | OPT_POLICY | OPT_ON_VECTOR,
		.shape = PRINTS_DOCUMENT,
		.words = words_hint,
		.run = run_hint,
	},
};

/* Whether @cmd prints in @format. */
static bool takes_format(const struct command *cmd, const struct output_format *format)
{
	int nr;

	if (format == output_formats(&nr)[0])
		return true;
	switch (cmd->shape) {
	case PRINTS_TABLE:
		return true;
	case PRINTS_DOCUMENT:
		return format->documents;
	case PRINTS_JSON:
		return format == output_format_named("json");
	default:
		return false;
	}
}

/*
 * "A, B and C" into @buf: the commands that take one of @options, or
 * @format if it is not NULL.
 */
static void takers(char *buf, size_t size, unsigned int options,
		   const struct output_format *format)
{
	const char *names[NR(commands)];
	int i, n = 0;
	size_t len = 0;

	for (i = 0; i < NR(commands); i++)
		if ((commands[i].options & options) ||
		    (format && takes_format(&commands[i], format)))
			names[n++] = commands[i].name;
	buf[0] = '\0';
	for (i = 0; i < n && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s",
				!i ? "" : i == n - 1 ? " and " : ", ", names[i]);
}

/* "CSV (cpus, tasks and hist)": what --@format prints, and for which commands. */
static void format_note(const struct output_format *format, char *buf, size_t size)
{
	char list[256];

	if (format->documents) {
		snprintf(buf, size, "%s", format->help);
		return;
	}
	takers(list, sizeof(list), 0, format);
	snprintf(buf, size, "%s (%s)", format->help, list);
}

static void print_usage(const struct rvv_cli *cli, FILE *f)
{
	const struct output_format *const *formats;
	int i, nr;

	formats = output_formats(&nr);
	fputs("usage: rvvctl [", f);
	for (i = 1; i < nr; i++)
		fprintf(f, "%s--%s", i > 1 ? " | " : "", formats[i]->option);
	fputs("] COMMAND [OPTIONS]\n\ncommands:\n", f);
	for (i = 0; i < NR(commands); i++)
		fputs(commands[i].help, f);
	fputs("\n", f);
	rvv_cli_help(cli, f);
	fputs("\nMore in rvvctl(1): man -l tool/rvvctl/rvvctl.1 in the source tree.\n", f);
}

/* "X is for A, B and C, not @cmd": the commands that take @options or @format. */
static int not_for(const struct command *cmd, const char *what,
		   unsigned int options, const struct output_format *format)
{
	char list[256], message[320];

	takers(list, sizeof(list), options, format);
	snprintf(message, sizeof(message), "%s is for %s, not %s", what, list, cmd->name);
	return rvv_bad_usage(PROGRAM, "%s", message);
}

/* Refuses what @cmd does not take; 0 or the exit status of a bad command line. */
static int check_fits(const struct rvv_cli *cli, const struct command *cmd,
		      const struct options *o)
{
	unsigned long extra = o->given & ~cmd->options & ~(unsigned long)OPT_FORMAT;
	const struct rvv_option *first, *second;
	char message[128];

	first = rvv_cli_find(cli, o->given_rows, OPT_FORMAT);
	second = first ? rvv_cli_find(cli, o->given_rows & ~(1ull << (first - cli->options)),
				      OPT_FORMAT) : NULL;
	if (second) {
		snprintf(message, sizeof(message), "--%s and --%s: give one of them",
			 first->name, second->name);
		return rvv_bad_usage(PROGRAM, "%s", message);
	}
	if (extra) {
		first = rvv_cli_find(cli, o->given_rows, extra);
		rvv_option_shown(first, message, sizeof(message));
		return not_for(cmd, message, (unsigned int)first->bits, NULL);
	}
	if (takes_format(cmd, o->format))
		return 0;
	if (cmd->shape == PRINTS_TEXT) {
		snprintf(message, sizeof(message), "%s prints text only: drop --%s",
			 cmd->name, o->format->option);
		return rvv_bad_usage(PROGRAM, "%s", message);
	}
	snprintf(message, sizeof(message), "--%s", o->format->option);
	return not_for(cmd, message, 0, o->format);
}

/* -1 if @cmd runs with @o, else the exit status. */
static int parse_command_line(int argc, char **argv, struct options *o,
			      const struct command **cmd)
{
	struct rvv_error err = { 0 };
	struct option_table table;
	int status, i;

	options_table(&table, format_note);
	table.cli.usage = print_usage;
	table.cli.version = rvv_print_version;
	status = options_parse(&table.cli, argc, argv, o, &err);
	status = rvv_cli_finish(&table.cli, status, &err);
	if (status >= 0)
		return status;
	if (optind == argc)
		return rvv_bad_usage(PROGRAM, "%s", "no command given");
	for (i = 0; i < NR(commands) && strcmp(argv[optind], commands[i].name); i++)
		;
	if (i == NR(commands))
		return rvv_bad_usage(PROGRAM, "unknown command \"%s\"", argv[optind]);
	*cmd = &commands[i];
	optind++;
	status = check_fits(&table.cli, *cmd, o);
	if (!status && (*cmd)->words)
		status = (*cmd)->words(o, argc, argv);
	if (!status && optind < argc)
		status = rvv_bad_usage(PROGRAM, "unexpected argument \"%s\"", argv[optind]);
	return status ? status : -1;
}

int main(int argc, char **argv)
{
	struct rvv_error err = { 0 };
	const struct command *cmd = NULL;
	struct rvv_client *client = NULL;
	struct output out;
	struct options o;
	int status;

	status = parse_command_line(argc, argv, &o, &cmd);
	if (status >= 0)
		return status;
	status = output_begin(&out, cmd->shape == PRINTS_JSON ?
			      output_format_named("json") : o.format, stdout, cmd->stream);
	if (status) {
		fprintf(stderr, "rvvctl: %s: %s\n", cmd->name, strerror(-status));
		return 1;
	}
	if (cmd->netlink)
		status = rvv_client_open(&client, &err);
	if (!status)
		status = cmd->run(client, &o, &out, &err);
	status = output_end(&out, status);
	if (client)
		rvv_client_close(client);
	if (status && !err.code && ferror(stdout))
		fprintf(stderr, "rvvctl: %s: cannot write the output: %s\n", cmd->name,
			strerror(-status));
	else if (status)
		fprintf(stderr, "rvvctl: %s\n", err.code ? err.message : strerror(-status));
	return status ? 1 : 0;
}
