// SPDX-License-Identifier: GPL-2.0
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/stop_machine.h>
#include <linux/user_namespace.h>

#include "core/accounting.h"
#include "arch/arch.h"
#include "core/control.h"
#include "hints/hints.h"
#include "timing/latency.h"

/*
 * The caller's capability, and the opener's, as netlink_capable() asks: a
 * privileged program handed an unprivileged opener's descriptor is not a
 * way in. Only a user's socket or file is asked about.
 */
static bool rvv_control_allowed(const struct file *via)
{
	return via && file_ns_capable(via, &init_user_ns, CAP_SYS_ADMIN) &&
	       capable(CAP_SYS_ADMIN);
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
int rvv_control_reset(const struct file *via)
{
	if (!rvv_control_allowed(via))
		return -EPERM;
	return stop_machine(rvv_zero_all, NULL, NULL);
}

int rvv_control_calibrate(const struct file *via)
{
	if (!rvv_control_allowed(via))
		return -EPERM;
	return rvv_arch_calibrate();
}
