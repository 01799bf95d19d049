// SPDX-License-Identifier: GPL-2.0
/*
 * What hint-tests exec after hinting a process, to see whether a hint set
 * before the exec reaches the program: it watches its CPUs for about 2 s.
 *   exec-probe setuid   run setuid root: uses vector state first, as a
 *                       hinted program would
 *   exec-probe scalar   never uses vector state
 * Once running it writes a byte to EXEC_PROBE_READY_FD, if that is a pipe,
 * for a parent waiting until the exec is done.
 * Exit 0: its CPUs never changed; 1: they changed (a hint reached it);
 * 2: setuid but not running as root; 3: bad usage.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest-util.h"
#include "vector-arch.h"

#define WATCH_STEPS	40
#define STEP_US		50000

int main(int argc, char **argv)
{
	cpu_set_t start, now;
	struct stat ready;
	int i;

	if (argc != 2 || (strcmp(argv[1], "setuid") && strcmp(argv[1], "scalar")))
		return 3;
	if (!fstat(EXEC_PROBE_READY_FD, &ready) && S_ISFIFO(ready.st_mode) &&
	    write(EXEC_PROBE_READY_FD, "", 1) == 1)
		close(EXEC_PROBE_READY_FD);
	CPU_ZERO(&start);
	sched_getaffinity(0, sizeof(start), &start);
	if (!strcmp(argv[1], "setuid")) {
		if (geteuid() != 0)
			return 2;
		arch_touch_vector();
	}
	for (i = 0; i < WATCH_STEPS; i++) {
		usleep(STEP_US);
		CPU_ZERO(&now);
		sched_getaffinity(0, sizeof(now), &now);
		if (!CPU_EQUAL(&start, &now))
			return 1;
	}
	return 0;
}
