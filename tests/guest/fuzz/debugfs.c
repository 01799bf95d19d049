// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz, debugfs.c: the debugfs files: read at odd offsets and sizes,
 * written with valid words, garbage and bad buffers.
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

static uint64_t last_calibrate;

/* ---- debugfs ---- */

static const long long offsets[] = {
	0, 0, 1, 7, 100, 4095, 4096, 65536, 1LL << 30, LLONG_MAX - 1, -1,
};
static const size_t io_sizes[] = { 0, 1, 7, 4095, 4096, 65536 };

void debugfs_scan(void)
{
	DIR *d = opendir(DEBUGFS_DIR);
	char path[PATH_MAX];
	struct dirent *e;
	struct stat st;

	while (d && (e = readdir(d)) && env.nfiles < MAX_FILES) {
		struct dbg_file *f = &env.files[env.nfiles];

		snprintf(path, sizeof(path), DEBUGFS_DIR "%s", e->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		snprintf(f->name, sizeof(f->name), "%.63s", e->d_name);
		f->rfd = st.st_mode & 0444 ? open(path, O_RDONLY | O_CLOEXEC) : -1;
		f->wfd = st.st_mode & 0222 ? open(path, O_WRONLY | O_CLOEXEC) : -1;
		env.nfiles++;
	}
	if (d)
		closedir(d);
}

static struct dbg_file *pick_file(struct ctx *c, bool writable)
{
	int i, first = below(c, env.nfiles);

	for (i = 0; writable && i < env.nfiles; i++)
		if (env.files[(first + i) % env.nfiles].wfd >= 0)
			return &env.files[(first + i) % env.nfiles];
	return &env.files[first];
}

static int dbg_cmd(const struct dbg_file *f, bool write)
{
	return CMD_DEBUGFS + 2 * (f - env.files) + write;
}

int dbg_cmd_named(const char *name, bool write)
{
	int i;

	for (i = 0; i < env.nfiles; i++)
		if (!strcmp(env.files[i].name, name))
			return dbg_cmd(&env.files[i], write);
	return CMD_NONE;
}

static int open_file(const struct dbg_file *f, int mode)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), DEBUGFS_DIR "%s", f->name);
	return open(path, mode | O_CLOEXEC);
}

/* pread at edge offsets and sizes, whole reads in chunks, reads after lseek. */
int debugfs_read(struct ctx *c)
{
	static const int whences[] = { SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE, 7 };
	struct dbg_file *f = pick_file(c, false);
	size_t size = chance(c, 80) ? PICK(c, io_sizes) : below(c, IO_BUF);
	void *buf = hostile(c, c->io, page_at(c, PG_GUARD1), size, 90);
	long long off = chance(c, 85) ? PICK(c, offsets) : (long long)(rnd(c) >> 1);
	int how = below(c, 4), whence = PICK(c, whences), fd, chunks, err = 0;
	long n;

	describe(c, "debugfs read %s how %d size %zu off %lld whence %d buf %p",
		 f->name, how, size, off, whence, buf);
	c->cmd = dbg_cmd(f, false);
	if (how < 2) {
		fd = f->rfd >= 0 ? f->rfd : f->wfd;
		return pread(fd, buf, size, off) < 0 ? errno : 0;
	}
	fd = open_file(f, O_RDONLY);
	if (fd < 0)
		return errno;
	if (how == 2) {		/* the whole file, in chunks of @size */
		for (chunks = 0; chunks < 256; chunks++)
			if ((n = read(fd, buf, size ?: 1)) <= 0)
				break;
		err = n < 0 ? errno : 0;
	} else {		/* part, an lseek (maybe refused), then on */
		if (read(fd, buf, size) < 0 || lseek(fd, off, whence) < 0)
			err = errno;
		if (read(fd, buf, size) < 0 && !err)
			err = errno;
	}
	close(fd);
	return err;
}

/* The controls' words, when not due, become near misses. */
static const char *control_word(struct ctx *c, const struct dbg_file *f, const char *word)
{
	if (!strcmp(f->name, "calibrate") && strstr(word, "calibrate") &&
	    !due(c, &last_calibrate, CALIBRATE_EVERY_MS))
		return "calibrat";
	if (!strcmp(f->name, "reset") && strchr(word, '1') && !reset_due(c))
		return "0";
	return word;
}

/* Valid words, random bytes, empty and very long writes, bad buffers. */
int debugfs_write(struct ctx *c)
{
	static const char *const words[] = {
		"1", "1\n", "0", "2", "-1", "0x1", "01", " 1", "1 ", "reset",
		"calibrate", "calibrate\n", " calibrate ", "calibrat",
		"calibrate calibrate", "\n", "",
	};
	struct dbg_file *f = pick_file(c, chance(c, 90));
	bool fresh = f->wfd < 0 || chance(c, 20);
	int how = below(c, 5), fd = fresh ? open_file(f, O_WRONLY) : f->wfd;
	int open_err = errno;
	const void *buf = c->io;
	const char *word;
	size_t len;
	long n;

	switch (how) {
	case 0:
		word = control_word(c, f, PICK(c, words));
		len = strlen(word);
		memcpy(c->io, word, len);
		break;
	case 1:
		len = 1 + below(c, 64);
		rnd_fill(c, c->io, len);
		break;
	case 2:
		len = 0;
		break;
	case 3:		/* a valid word, then a long tail of zeros, digits or noise */
		len = 4096 + below(c, IO_BUF - 4096 + 1);
		memset(c->io, chance(c, 50) ? 0 : '0', len);
		c->io[0] = *control_word(c, f, "1");
		if (chance(c, 30))
			rnd_fill(c, c->io + 1, len - 1);
		break;
	default:
		len = 1 + below(c, 32);
		buf = hostile(c, c->io, page_at(c, PG_GUARD1), len, 0);
	}
	describe(c, "debugfs write %s how %d len %zu fresh %d buf %p",
		 f->name, how, len, fresh, buf);
	c->cmd = dbg_cmd(f, true);
	if (fd < 0)
		return open_err;
	n = chance(c, 80) ? write(fd, buf, len) : pwrite(fd, buf, len, PICK(c, offsets));
	if (n < 0)
		n = -errno;
	if (fresh)
		close(fd);
	/* Every writable file here is a control that needs CAP_SYS_ADMIN. */
	if (c->nobody && n > 0)
		finding(c, "nobody's write to debugfs %s was accepted", f->name);
	return n < 0 ? (int)-n : 0;
}
