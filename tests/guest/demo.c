// SPDX-License-Identifier: GPL-2.0
/*
 * The guest side of `make demo`: load rvvstat, run a multi-threaded vector
 * workload, print what the module saw.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guest-util.h"

static char summary[1 << 16];

int main(void)
{
	static const char *const workload[] = {
		"-t", "4", "-s", "1", "-d", "4", "-m", "mixed", NULL
	};
	struct vecload v;
	int err = module_load("");

	if (err) {
		fprintf(stderr, "demo: loading %s: %s\n", MODULE_PATH, strerror(-err));
		return 1;
	}
	printf("demo: rvvstat loaded; running vecload %s %s %s %s %s %s %s %s\n",
	       workload[0], workload[1], workload[2], workload[3],
	       workload[4], workload[5], workload[6], workload[7]);
	err = vecload_start(&v, workload);
	if (err) {
		fprintf(stderr, "demo: starting vecload: %s\n", strerror(-err));
		return 1;
	}
	/* Read while the threads are alive, so they show as top tasks. */
	sleep(3);
	if (read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)) < 0) {
		fprintf(stderr, "demo: cannot read " DEBUGFS_DIR "summary\n");
		return 1;
	}
	err = vecload_wait(&v);
	if (err)
		fprintf(stderr, "demo: vecload exited with %d\n", err);
	printf("\n$ cat " DEBUGFS_DIR "summary\n%s", summary);
	return err || module_unload() ? 1 : 0;
}
