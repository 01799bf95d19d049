// SPDX-License-Identifier: GPL-2.0
/*
 * rvvctl export: one scrape (lib/exposition.c) to standard output, or to a
 * file replaced whole, for node_exporter's textfile collector: a reader
 * sees the last scrape or the one before, never half of one. While the
 * module cannot be read the file still changes, to rvvstat_up 0, rather
 * than going on showing the last numbers as if they were current.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"

/* A temporary beside @path (same directory, so rename() is atomic). */
struct staged {
	char *tmp;
	FILE *f;
};

static int stage_open(const char *path, struct staged *s, struct rvv_error *err)
{
	int fd;

	if (asprintf(&s->tmp, "%s.XXXXXX", path) < 0)
		return rvv_fail(err, -ENOMEM, "export: no memory");
	fd = mkstemp(s->tmp);
	if (fd < 0) {
		int e = errno;

		free(s->tmp);
		return rvv_fail(err, -e, "export: cannot create a file beside %s: %s",
				path, strerror(e));
	}
	/* Readable by node_exporter, which runs as its own user. */
	if (fchmod(fd, 0644) || !(s->f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(s->tmp);
		free(s->tmp);
		return rvv_fail(err, -e, "export: %s: %s", path, strerror(e));
	}
	return 0;
}

/* Puts the staged file in place if @status is 0, else removes it. */
static int stage_close(const char *path, struct staged *s, int status,
		       struct rvv_error *err)
{
	int e = 0;

	errno = EIO;
	if (fflush(s->f) || ferror(s->f) || fsync(fileno(s->f)))
		e = errno;
	if (fclose(s->f) && !e)
		e = errno;
	if (!status && !e && rename(s->tmp, path))
		e = errno;
	if (status || e)
		unlink(s->tmp);
	free(s->tmp);
	if (!status && e)
		status = rvv_fail(err, -e, "export: cannot write %s: %s", path, strerror(e));
	return status;
}

/* The scrape into @out: the module's, or rvvstat_up 0 and why not. */
static int scrape(FILE *out, const struct rvv_exposition *how, struct rvv_error *err)
{
	struct rvv_client *c;
	int status;

	status = rvv_client_open(&c, err);
	if (!status) {
		status = rvv_expose(out, c, how, err);
		rvv_client_close(c);
	}
	if (status && err->code)
		rvv_expose_down(out, how->format, err->message);
	return status;
}

int rvvctl_export(const struct rvv_exposition *how, const char *path,
		  struct rvv_error *err)
{
	struct rvv_error scraped = { 0 };
	struct staged s;
	int status;

	if (!path) {
		int flushed;

		status = scrape(stdout, how, err);
		flushed = output_flush(stdout);
		return flushed ? flushed : status;
	}
	status = stage_open(path, &s, err);
	if (status)
		return status;
	status = scrape(s.f, how, &scraped);
	/* A module that cannot be read still gets its file: rvvstat_up 0. */
	if (stage_close(path, &s, 0, err))
		return err->code;
	if (status)
		*err = scraped;
	return status;
}
