// SPDX-License-Identifier: GPL-2.0
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/stop_machine.h>

#include "accounting.h"
#include "arch.h"
#include "control.h"
#include "hints.h"
#include "latency.h"

/* The rule of the ioctl since the first release: the caller's capability. */
static bool rvv_control_allowed(void)
{
	return capable(CAP_SYS_ADMIN);
}

static int rvv_zero_all(void *unused)
{
	int cpu;

	rvv_accounting_zero();
	for_each_possible_cpu(cpu)
		rvv_latency_zero_cpu(cpu);
	rvv_hints_zero_events();
	return 0;
}

/* Every CPU is stopped meanwhile, so no increment is half-lost or survives. */
int rvv_control_reset(void)
{
	if (!rvv_control_allowed())
		return -EPERM;
	return stop_machine(rvv_zero_all, NULL, NULL);
}

int rvv_control_calibrate(void)
{
	if (!rvv_control_allowed())
		return -EPERM;
	return rvv_arch_calibrate();
}
