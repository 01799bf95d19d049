// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"

#define STEM_MAX 64
#define QUOTE_MAX 200
#define TEXT_MAX 8192

/* The stem goes into file names and, unquoted, into the script. */
static int stem_ok(const char *stem)
{
	size_t len = stem ? strlen(stem) : 0;

	if (len == 0 || len > STEM_MAX)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_-", stem[i]))
			return 0;
	return 1;
}

static int has_point(const struct bench_plot_series *s, size_t i)
{
	return isfinite(s->x[i]) && isfinite(s->y[i]);
}

static size_t points_of(const struct bench_plot_series *s)
{
	size_t n = 0;

	for (size_t i = 0; s->x && s->y && i < s->n; i++)
		n += has_point(s, i);
	return n;
}

/* Error bars only where some point has an sd: yerrorlines wants the column. */
static int has_sd(const struct bench_plot_series *s)
{
	for (size_t i = 0; s->sd && i < s->n; i++)
		if (has_point(s, i) && isfinite(s->sd[i]))
			return 1;
	return 0;
}

static int path_of(char *buf, const char *dir, const char *stem, const char *ext,
		   struct rvv_error *err)
{
	int len = snprintf(buf, PATH_MAX, "%s/%s.%s", dir, stem, ext);

	if (len < 0 || len >= PATH_MAX)
		return rvv_fail(err, -ENAMETOOLONG, "plot directory %.80s...: name too long", dir);
	return 0;
}

/*
 * A gnuplot single-quoted string: nothing in it is special but '' for a
 * quote. A line end would end the command, so control characters become
 * spaces and a name cannot add commands of its own.
 */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '\'')
			fputs("''", f);
		else
			fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
	}
	fputc('\'', f);
}

static int close_checked(FILE *f, const char *path, struct rvv_error *err)
{
	int bad = ferror(f), e = errno;

	if (fclose(f) && !bad)
		bad = 1, e = errno;
	if (!bad)
		return 0;
	e = e ? e : EIO;
	return rvv_fail(err, -e, "%s: cannot write: %s", path, strerror(e));
}

/* One block per series with points, two blank lines apart, for "index". */
static int write_data(const char *path, const struct bench_plot *p, struct rvv_error *err)
{
	FILE *f = fopen(path, "we");
	int first = 1;

	if (!f)
		return rvv_fail(err, -errno, "%s: cannot create: %s", path, strerror(errno));
	errno = 0;
	for (size_t k = 0; k < p->n_series; k++) {
		const struct bench_plot_series *s = &p->series[k];

		if (!points_of(s))
			continue;
		fputs(first ? "" : "\n\n", f);
		first = 0;
		fputs("# ", f);
		gp_string(f, s->name);
		fputs("\n# x y sd\n", f);
		for (size_t i = 0; i < s->n; i++) {
			double sd = s->sd ? s->sd[i] : NAN;

			if (!has_point(s, i))
				continue;
			/* NaN, not 0: the file says what was measured */
			if (isfinite(sd))
				fprintf(f, "%.15g %.15g %.15g\n", s->x[i], s->y[i], sd);
			else
				fprintf(f, "%.15g %.15g NaN\n", s->x[i], s->y[i]);
		}
	}
	return close_checked(f, path, err);
}

/*
 * Every series gets a legend entry, an empty one too (NaN draws nothing),
 * so the colours follow the series' order from plot to plot.
 */
static void write_plot(FILE *f, const struct bench_plot *p)
{
	size_t block = 0;

	fputs("plot", f);
	for (size_t k = 0; k < p->n_series; k++) {
		const struct bench_plot_series *s = &p->series[k];

		fputs(k ? ", \\\n     " : " ", f);
		if (!points_of(s))
			fputs("NaN with linespoints", f);
		else
			fprintf(f, "'%s.dat' index %zu using %s with %s", p->stem, block++,
				has_sd(s) ? "1:2:(valid(3) ? $3 : 0)" : "1:2",
				has_sd(s) ? "yerrorlines" : "linespoints");
		fputs(" title ", f);
		gp_string(f, s->name);
		fputs(" noenhanced", f);
	}
	fputs("\n", f);
}

static void write_label(FILE *f, const char *what, const char *text)
{
	if (!text)
		return;
	fprintf(f, "set %s ", what);
	gp_string(f, text);
	fputs(" noenhanced\n", f);
}

static int write_script(const char *path, const struct bench_plot *p, struct rvv_error *err)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return rvv_fail(err, -errno, "%s: cannot create: %s", path, strerror(errno));
	errno = 0;
	fprintf(f, "# rvvbench: redraw with \"gnuplot %s.gp\" in this directory.\n", p->stem);
	fputs("set encoding utf8\n", f);
	write_label(f, "title", p->title);
	write_label(f, "xlabel", p->xlabel);
	write_label(f, "ylabel", p->ylabel);
	fputs("set key outside right top vertical Left reverse\n"
	      "set grid\n"
	      "set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05\n", f);
	fputs("set terminal svg size 800,500 dynamic enhanced font 'sans,11'\n", f);
	fprintf(f, "set output '%s.svg'\n", p->stem);
	write_plot(f, p);
	fputs("unset output\n", f);
	fputs("set terminal pngcairo size 800,500 font 'sans,11'\n", f);
	fprintf(f, "set output '%s.png'\n", p->stem);
	write_plot(f, p);
	fputs("unset output\n", f);
	return close_checked(f, path, err);
}

/*
 * gnuplot's own diagnostics start with "FILE" line N:, and the last is why
 * it stopped; the lines between echo the command and point a caret at it.
 * Those diagnostics (without any, every non-blank line) joined with "; ",
 * the tail kept if long.
 */
static void quote_stderr(char *text, char *out, size_t size)
{
	char joined[2 * TEXT_MAX] = "", *save = NULL;
	size_t len = 0;
	int diagnostics = text[0] == '"' || strstr(text, "\n\"");

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (!line[strspn(line, " \t\r^")] || (diagnostics && line[0] != '"'))
			continue;
		for (char *c = line; *c; c++)
			*c = (unsigned char)*c < 0x20 ? ' ' : *c;
		/* a warning comes again on the next reading of the data */
		if (strstr(joined, line))
			continue;
		len += snprintf(joined + len, sizeof(joined) - len, "%s%s", len ? "; " : "", line);
	}
	if (len < size)
		snprintf(out, size, "%s", len ? joined : "(it said nothing)");
	else
		snprintf(out, size, "...%s", joined + len - (size - 4));
}

struct child_report {
	int chdir_failed;	/* else exec failed */
	int error;
};

static void child(int in, int out, int report, const char *dir, const char *script)
{
	char prog[] = "gnuplot", defaults[] = "-d";
	char *argv[] = { prog, defaults, (char *)script, NULL };
	struct child_report r = { .chdir_failed = 0 };

	/* dup2 clears close-on-exec on the copies; the originals close at exec */
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) {
		r.error = errno;
	} else if (chdir(dir) < 0) {
		r.chdir_failed = 1;
		r.error = errno;
	} else {
		execvp(argv[0], argv);
		r.error = errno;
	}
	if (write(report, &r, sizeof(r)) < 0)
		_exit(126);
	_exit(127);
}

/* Reads @fd to its end, keeping the last part in @buf; 0 or -errno. */
static int read_tail(int fd, char *buf, size_t size)
{
	size_t len = 0;

	for (;;) {
		ssize_t n;

		if (len == size - 1) {
			memmove(buf, buf + size / 2, len - size / 2);
			len -= size / 2;
		}
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			buf[len] = '\0';
			return -errno;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	return 0;
}

static int run_gnuplot(const char *dir, const char *stem, char *said, size_t said_size,
		       int *status, struct rvv_error *err)
{
	char script[STEM_MAX + 4], text[TEXT_MAX];
	struct child_report r = { 0 };
	int out[2], report[2], in, rc;
	ssize_t got;
	pid_t pid;

	snprintf(script, sizeof(script), "%s.gp", stem);
	if (pipe2(out, O_CLOEXEC) < 0)
		return rvv_fail(err, -errno, "cannot run gnuplot: pipe: %s", strerror(errno));
	if (pipe2(report, O_CLOEXEC) < 0) {
		rc = rvv_fail(err, -errno, "cannot run gnuplot: pipe: %s", strerror(errno));
		goto close_out;
	}
	in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		rc = rvv_fail(err, -errno, "cannot run gnuplot: /dev/null: %s", strerror(errno));
		goto close_report;
	}
	pid = fork();
	if (pid == 0)
		child(in, out[1], report[1], dir, script);
	if (pid < 0) {
		rc = rvv_fail(err, -errno, "cannot run gnuplot: fork: %s", strerror(errno));
		close(in);
		goto close_report;
	}
	close(in);
	close(out[1]);
	close(report[1]);
	out[1] = -1;
	report[1] = -1;
	/* Read to the end first: gnuplot must not block on a full pipe. */
	rc = read_tail(out[0], text, sizeof(text));
	do
		got = read(report[0], &r, sizeof(r));
	while (got < 0 && errno == EINTR);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			rc = rvv_fail(err, -errno, "gnuplot: cannot wait for it: %s",
				      strerror(errno));
			goto close_report;
		}
	}
	if (got == (ssize_t)sizeof(r) && r.chdir_failed) {
		rc = rvv_fail(err, -r.error, "%s: cannot run gnuplot there: %s", dir,
			      strerror(r.error));
	} else if (got == (ssize_t)sizeof(r) && r.error == ENOENT) {
		rc = rvv_fail(err, -ENOPKG,
			      "gnuplot is not on PATH: install gnuplot (apt-get install gnuplot-nox)");
	} else if (got == (ssize_t)sizeof(r)) {
		rc = rvv_fail(err, -r.error, "cannot run gnuplot: %s", strerror(r.error));
	} else if (rc < 0) {
		rc = rvv_fail(err, rc, "gnuplot: cannot read its messages: %s", strerror(-rc));
	} else {
		quote_stderr(text, said, said_size);
	}
close_report:
	close(report[0]);
	if (report[1] >= 0)
		close(report[1]);
close_out:
	close(out[0]);
	if (out[1] >= 0)
		close(out[1]);
	return rc;
}

static int output_ok(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
}

static int remove_old(const char *path, struct rvv_error *err)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return rvv_fail(err, -errno, "%s: cannot replace it: %s", path, strerror(errno));
	return 0;
}

int bench_plot_write(const char *dir, const struct bench_plot *p, struct rvv_error *err)
{
	char dat[PATH_MAX], gp[PATH_MAX], svg[PATH_MAX], png[PATH_MAX], said[QUOTE_MAX + 1];
	size_t points = 0;
	int status, rc;

	if (!p || !stem_ok(p->stem))
		return rvv_fail(err, -EINVAL, "plot name %.*s: use 1 to %d of a-z, 0-9, _ and -",
				STEM_MAX, p && p->stem ? p->stem : "(none)", STEM_MAX);
	for (size_t k = 0; k < p->n_series; k++)
		points += points_of(&p->series[k]);
	if (!points)
		return rvv_fail(err, -EINVAL, "plot %s: nothing to plot", p->stem);
	rc = path_of(dat, dir, p->stem, "dat", err);
	rc = rc ? rc : path_of(gp, dir, p->stem, "gp", err);
	rc = rc ? rc : path_of(svg, dir, p->stem, "svg", err);
	rc = rc ? rc : path_of(png, dir, p->stem, "png", err);
	/* Stale images would pass for new ones if gnuplot wrote nothing. */
	rc = rc ? rc : remove_old(svg, err);
	rc = rc ? rc : remove_old(png, err);
	rc = rc ? rc : write_data(dat, p, err);
	rc = rc ? rc : write_script(gp, p, err);
	rc = rc ? rc : run_gnuplot(dir, p->stem, said, sizeof(said), &status, err);
	if (rc)
		return rc;
	if (WIFSIGNALED(status))
		return rvv_fail(err, -EIO, "gnuplot %s.gp in %.60s: killed by signal %d: %s",
				p->stem, dir, WTERMSIG(status), said);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return rvv_fail(err, -EIO, "gnuplot %s.gp in %.60s failed (exit status %d): %s",
				p->stem, dir, WIFEXITED(status) ? WEXITSTATUS(status) : -1, said);
	if (!output_ok(svg) || !output_ok(png))
		return rvv_fail(err, -EIO, "gnuplot %s.gp in %.60s left no %s or an empty one: %s",
				p->stem, dir, output_ok(svg) ? "PNG" : "SVG", said);
	return 0;
}
