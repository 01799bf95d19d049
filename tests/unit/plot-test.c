// SPDX-License-Identifier: GPL-2.0
/*
 * rvvbench's plots (cmocka), drawn by the real gnuplot into a fresh
 * directory: legend names with the characters that break naive quoting, the
 * SVG and PNG checked for what they must hold; the refusals (a bad stem,
 * nothing to plot, no gnuplot on PATH); and gnuplot failing or writing
 * nothing, played by a stand-in script named gnuplot, quoted in the error.
 * Every run must leave no child and no descriptor behind.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tool/rvvbench/plot.h"

static const double xs[] = { 1, 2, 4, 8 };
static const double ya[] = { 10.5, 12, 15.25, 30 };
static const double sda[] = { 0.5, NAN, 1, 2 };
static const double yb[] = { 9, NAN, 14, 28 };	/* x = 2: no point */

/* A quote, a comma, an underscore and a newline; and what breaks markup. */
static const struct bench_plot_series two[] = {
	{ "it's, fifo_10\non-vector", 4, xs, ya, sda },
	{ "rr:10@off <&> \"dq\" \\ bs", 4, xs, yb, NULL },
};

static char *read_all(const char *dir, const char *name, size_t *size)
{
	char path[4096];
	char *buf;
	FILE *f;
	long len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	buf = malloc(len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), len);
	buf[len] = '\0';
	fclose(f);
	*size = len;
	return buf;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		assert_int_equal(unlink(path), 0);
	}
	closedir(d);
	assert_int_equal(rmdir(dir), 0);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* No zombie: every child was waited for. */
static void assert_no_child(void)
{
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void draws_svg_and_png(void **state)
{
	char dir[] = "/tmp/plot-test-XXXXXX";
	struct bench_plot p = { "ttft_p99", "TTFT p99 (ms) vs. rate_hz", "requests/s", "ms",
				2, two };
	struct rvv_error err = { 0 };
	size_t size;
	char *svg, *png, *dat, *gp;
	int fds = open_fds();

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(bench_plot_write(dir, &p, &err), 0);
	assert_int_equal(open_fds(), fds);
	assert_no_child();

	svg = read_all(dir, "ttft_p99.svg", &size);
	assert_true(size > 0);
	assert_true(!strncmp(svg, "<?xml", 5) || strstr(svg, "<svg"));
	/* The newline became a space; gnuplot leaves ' and " as they are. */
	assert_non_null(strstr(svg, "<text>it's, fifo_10 on-vector</text>"));
	/* It escapes & and < but not > (legal in XML text). */
	assert_non_null(strstr(svg, "<text>rr:10@off &lt;&amp;> \"dq\" \\ bs</text>"));
	assert_non_null(strstr(svg, "<text>TTFT p99 (ms) vs. rate_hz</text>"));
	free(svg);

	png = read_all(dir, "ttft_p99.png", &size);
	assert_true(size > 8);
	assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
	free(png);

	/* Two blocks for "index", x = 2 of the second left out, NaN for no sd. */
	dat = read_all(dir, "ttft_p99.dat", &size);
	assert_non_null(strstr(dat, "\n2 12 NaN\n"));
	assert_non_null(strstr(dat, "\n8 30 2\n\n\n# "));
	assert_null(strstr(dat, "\n2 nan"));
	assert_null(strstr(dat, "\n\n\n\n"));
	free(dat);

	/* Quoted the gnuplot way, one line each: no name can end a command. */
	gp = read_all(dir, "ttft_p99.gp", &size);
	assert_non_null(strstr(gp, "title 'it''s, fifo_10 on-vector' noenhanced, \\\n"));
	assert_non_null(strstr(gp, "title 'rr:10@off <&> \"dq\" \\ bs' noenhanced\n"));
	free(gp);
	remove_dir(dir);
}

static void refuses_bad_stems(void **state)
{
	char too_long[66];
	const char *const bad[] = { "", "../up", "Caps", "a b", "x.svg", "semi;colon", too_long };
	struct rvv_error err = { 0 };

	(void)state;
	memset(too_long, 'a', 65);	/* one more than a stem may have */
	too_long[65] = '\0';
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct bench_plot p = { bad[i], NULL, NULL, NULL, 2, two };

		assert_int_equal(bench_plot_write("/tmp", &p, &err), -EINVAL);
	}
	assert_int_equal(bench_plot_write("/tmp", &(struct bench_plot){ NULL }, &err), -EINVAL);
}

static void refuses_nothing_to_plot(void **state)
{
	static const double nans[] = { NAN, NAN };
	const struct bench_plot_series empty[] = {
		{ "a", 2, xs, nans, NULL },
		{ "b", 0, NULL, NULL, NULL },
	};
	struct bench_plot none = { "none", NULL, NULL, NULL, 0, NULL };
	struct bench_plot blank = { "blank", NULL, NULL, NULL, 2, empty };
	struct rvv_error err = { 0 };

	(void)state;
	assert_int_equal(bench_plot_write("/tmp", &none, &err), -EINVAL);
	assert_non_null(strstr(err.message, "nothing to plot"));
	err.message[0] = '\0';
	assert_int_equal(bench_plot_write("/tmp", &blank, &err), -EINVAL);
	assert_non_null(strstr(err.message, "nothing to plot"));
}

static void says_how_to_get_gnuplot(void **state)
{
	char dir[] = "/tmp/plot-test-XXXXXX";
	char *path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	struct bench_plot p = { "nognuplot", NULL, NULL, NULL, 2, two };
	struct rvv_error err = { 0 };
	int fds = open_fds(), rc;

	(void)state;
	assert_non_null(path);
	assert_non_null(mkdtemp(dir));
	setenv("PATH", "/nonexistent", 1);
	rc = bench_plot_write(dir, &p, &err);
	setenv("PATH", path, 1);
	free(path);
	assert_int_equal(rc, -ENOPKG);
	assert_non_null(strstr(err.message, "apt-get install gnuplot-nox"));
	assert_int_equal(open_fds(), fds);
	assert_no_child();
	remove_dir(dir);
}

/* Runs the plot with a stand-in gnuplot (a shell script) first on PATH. */
static int with_fake_gnuplot(const char *script, struct rvv_error *err)
{
	char dir[] = "/tmp/plot-test-XXXXXX", bin[64], *path, *new_path;
	struct bench_plot p = { "fake", NULL, NULL, NULL, 2, two };
	FILE *f;
	int rc;

	assert_non_null(mkdtemp(dir));
	snprintf(bin, sizeof(bin), "%s/gnuplot", dir);
	f = fopen(bin, "w");
	assert_non_null(f);
	fputs(script, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(bin, 0755), 0);
	path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	assert_non_null(path);
	assert_true(asprintf(&new_path, "%s:%s", dir, path) > 0);
	setenv("PATH", new_path, 1);
	rc = bench_plot_write(dir, &p, err);
	setenv("PATH", path, 1);
	free(new_path);
	free(path);
	assert_no_child();
	remove_dir(dir);
	return rc;
}

/* gnuplot's way: the command echoed, a caret, then "FILE" line N: why. */
static const char failing[] =
	"#!/bin/sh\n"
	"[ \"$1\" = -d ] && [ \"$2\" = fake.gp ] && [ -f fake.dat ] || exit 3\n"
	"printf '\"fake.gp\" line 9: warning: odd\\n\\n"
	"plot x\\n     ^\\n\"fake.gp\" line 9: bad\\n\\n' >&2\n"
	"exit 1\n";
static const char long_winded[] =
	"#!/bin/sh\n"
	"i=0; while [ $i -lt 500 ]; do echo \"noise $i\" >&2; i=$((i+1)); done\n"
	"echo 'the reason' >&2; exit 2\n";

static void quotes_gnuplot_failing(void **state)
{
	struct rvv_error err = { 0 };

	(void)state;
	assert_int_equal(with_fake_gnuplot(failing, &err), -EIO);
	assert_non_null(strstr(err.message, "fake.gp"));
	assert_non_null(strstr(err.message, "(exit status 1): \"fake.gp\" line 9: warning: odd; "
				"\"fake.gp\" line 9: bad"));
	assert_null(strstr(err.message, "plot x"));

	/* A long message: its tail, where the reason is. */
	assert_int_equal(with_fake_gnuplot(long_winded, &err), -EIO);
	assert_non_null(strstr(err.message, "(exit status 2): ..."));
	assert_non_null(strstr(err.message, "noise 499; the reason"));
}

static void an_empty_image_is_an_error(void **state)
{
	struct rvv_error err = { 0 };

	(void)state;
	assert_int_equal(with_fake_gnuplot("#!/bin/sh\n: > fake.svg; echo 1 > fake.png\n", &err),
			 -EIO);
	assert_non_null(strstr(err.message, "left no SVG"));
	assert_non_null(strstr(err.message, "(it said nothing)"));
	assert_int_equal(with_fake_gnuplot("#!/bin/sh\necho 1 > fake.svg\n", &err), -EIO);
	assert_non_null(strstr(err.message, "left no PNG"));
}

static void missing_directory_is_an_error(void **state)
{
	struct bench_plot p = { "x", NULL, NULL, NULL, 2, two };
	struct rvv_error err = { 0 };

	(void)state;
	assert_int_equal(bench_plot_write("/nonexistent/dir", &p, &err), -ENOENT);
	assert_non_null(strstr(err.message, "/nonexistent/dir/x.dat"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(draws_svg_and_png),
		cmocka_unit_test(refuses_bad_stems),
		cmocka_unit_test(refuses_nothing_to_plot),
		cmocka_unit_test(says_how_to_get_gnuplot),
		cmocka_unit_test(quotes_gnuplot_failing),
		cmocka_unit_test(an_empty_image_is_an_error),
		cmocka_unit_test(missing_directory_is_an_error),
	};

	return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
