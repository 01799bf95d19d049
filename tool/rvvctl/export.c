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

/* Puts the staged file in place, or removes it if it cannot be written whole. */
static int stage_close(const char *path, struct staged *s, struct rvv_error *err)
{
	int e = 0;

	errno = EIO;
	if (fflush(s->f) || ferror(s->f) || fsync(fileno(s->f)))
		e = errno;
	if (fclose(s->f) && !e)
		e = errno;
	if (!e && rename(s->tmp, path))
		e = errno;
	if (e)
		unlink(s->tmp);
	free(s->tmp);
	return e ? rvv_fail(err, -e, "export: cannot write %s: %s", path, strerror(e)) : 0;
}

int rvvctl_export(const struct rvv_exposition *how, const char *path,
		  struct rvv_error *err)
{
	struct rvv_error scraped = { 0 };
	struct staged s;
	size_t len;
	char *body;
	int status, written;

	status = rvv_scrape(how, &body, &len, &scraped);
	if (!body) {
		*err = scraped;
		return status;
	}
	if (!path) {
		fwrite(body, 1, len, stdout);
		written = output_flush(stdout);
	} else {
		/* A module that cannot be read still gets its file: rvvstat_up 0. */
		written = stage_open(path, &s, err);
		if (!written) {
			fwrite(body, 1, len, s.f);
			written = stage_close(path, &s, err);
		}
	}
	free(body);
	if (written)
		return written;
	if (status)
		*err = scraped;
	return status;
}
