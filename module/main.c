// SPDX-License-Identifier: GPL-2.0
/*
 * rvvstat: counts what vector-register state switching costs. Wiring only:
 * the parts live in core/, timing/, hints/, expose/ and the arch backend.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/threads.h>

#include "core/accounting.h"
#include "arch/arch.h"
#include "expose/expose.h"
#include "core/events.h"
#include "hints/hints.h"
#include "timing/latency.h"
#include "expose/taskview.h"
#include "timing/windows.h"

#define RVV_TABLE_MIN	64U
#define RVV_TABLE_MAX	((unsigned int)PID_MAX_LIMIT)	/* no more tasks can exist */
#define RVV_HINTS_MIN	16U
#define RVV_HINTS_MAX	65536U

static unsigned int table_size = 65536;
module_param(table_size, uint, 0444);
MODULE_PARM_DESC(table_size, "tasks tracked at once (64..4194304, rounded up to a power of two)");

static unsigned int hint_table_size = 256;
module_param(hint_table_size, uint, 0444);
MODULE_PARM_DESC(hint_table_size, "hints held at once: thread hints, process hints and the threads they reached (16..65536)");

static bool verify;
module_param(verify, bool, 0444);
MODULE_PARM_DESC(verify, "also count the saves the CPU executes with instruction probes (slow; for testing)");

static unsigned int switch_sample = 64;
module_param(switch_sample, uint, 0444);
MODULE_PARM_DESC(switch_sample, "time context switches by their vector work, from sched_switch to finish_task_switch() (an ftrace callback, else a kprobe): 0 off, 1 every switch, N (default) in windows of up to 2048 switches per CPU, at most 1 in N switches");

static unsigned int probe_sample = 256;
module_param(probe_sample, uint, 0444);
MODULE_PARM_DESC(probe_sample, "time about 1 in N saves between instruction probes, in windows of up to 2048 saves per CPU (0: off, 1: every save)");

static int __init rvv_init(void)
{
	struct rvv_arch_options options = {
		.verify = verify,
		.probe_sample = probe_sample,
		.first_use = rvv_event_first_use,
	};
	int err;

	if (table_size < RVV_TABLE_MIN || table_size > RVV_TABLE_MAX) {
		pr_err("table_size=%u is out of range %u..%u\n",
		       table_size, RVV_TABLE_MIN, RVV_TABLE_MAX);
		return -EINVAL;
	}
	if (hint_table_size < RVV_HINTS_MIN || hint_table_size > RVV_HINTS_MAX) {
		pr_err("hint_table_size=%u is out of range %u..%u\n",
		       hint_table_size, RVV_HINTS_MIN, RVV_HINTS_MAX);
		return -EINVAL;
	}
	err = rvv_arch_init(&options);
	if (err)
		return err;
	err = rvv_accounting_init(table_size);
	if (err)
		return err;
	err = rvv_hints_init(hint_table_size);
	if (err)
		goto free_accounting;
	err = rvv_latency_init(switch_sample);
	if (err)
		goto free_hints;
	rvv_latency_start();
	err = rvv_events_start();
	if (err)
		goto stop_latency;
	err = rvv_arch_start();
	if (err)
		goto stop_events;
	/* Once every sampled source is registered and the bias known. */
	err = rvv_windows_start();
	if (err)
		goto stop_windows;
	rvv_taskview_init();
	/* What userspace can reach comes last, once everything behind it runs. */
	err = rvv_netlink_init();
	if (err)
		goto stop_windows;
	rvv_debugfs_init();
	err = rvv_device_init();
	if (err)
		goto remove_debugfs;
	return 0;

remove_debugfs:
	rvv_debugfs_exit();
	rvv_netlink_exit();
stop_windows:
	rvv_windows_stop();
	rvv_arch_stop();
stop_events:
	rvv_events_stop();
stop_latency:
	rvv_latency_stop();
	rvv_latency_exit();
free_hints:
	rvv_hints_exit();
free_accounting:
	rvv_accounting_exit();
	return err;
}

/* The reverse of rvv_init(): what userspace can reach goes first. */
static void __exit rvv_exit(void)
{
	rvv_device_exit();
	rvv_debugfs_exit();
	rvv_netlink_exit();
	rvv_windows_stop();
	rvv_arch_stop();
	rvv_events_stop();
	rvv_latency_stop();
	rvv_latency_exit();
	rvv_hints_exit();
	rvv_accounting_exit();
}

module_init(rvv_init);
module_exit(rvv_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Vector-register state save/restore statistics");
MODULE_AUTHOR("The rvvstat developers");
