// SPDX-License-Identifier: GPL-2.0
/*
 * Run setuid root by hint-tests after a nobody process hinted itself at
 * first vector use: it uses vector state, as a hinted program would, and
 * watches its CPUs for about 2 s. Exit 0: it ran as root and its CPUs never
 * changed; 1: they changed (a hint reached it); 2: it did not run as root.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>

#include "vector-arch.h"

#define WATCH_STEPS	40
#define STEP_US		50000

int main(void)
{
	cpu_set_t start, now;
	int i;

	if (geteuid() != 0)
		return 2;
	CPU_ZERO(&start);
	sched_getaffinity(0, sizeof(start), &start);
	arch_touch_vector();
	for (i = 0; i < WATCH_STEPS; i++) {
		usleep(STEP_US);
		CPU_ZERO(&now);
		sched_getaffinity(0, sizeof(now), &now);
		if (!CPU_EQUAL(&start, &now))
			return 1;
	}
	return 0;
}
