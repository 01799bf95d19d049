// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "interrupt.h"

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	caught = sig;
}

int bench_interrupt_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;	/* a second one is not caught */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -errno;
	return 0;
}

int bench_interrupted(void)
{
	return caught;
}

void bench_interrupt_reset(void)
{
	caught = 0;
}
