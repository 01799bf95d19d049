// SPDX-License-Identifier: GPL-2.0
/*
 * rvvref: reference probes on sched_switch for `make bench` (pingpong-bench).
 *
 * Not part of rvvstat. It shows what any probe on the context switch costs,
 * so that rvvstat's own cost can be told from the tracepoint's:
 *   mode=empty  a probe that does nothing: the floor, and the resolution of
 *               the run
 *   mode=count  a reference counter: a per-CPU switch counter and a per-task
 *               one in an open-addressing table preallocated at load (keyed
 *               by the task_struct pointer, hash_ptr and linear probing)
 *   mode=decode rvvstat's own decoders of both tasks' vector state (its
 *               backend's switch header) and a per-CPU count of the
 *               switches with vector work: the floor of any probe that
 *               tells what a switch saves and restores
 * The read-only parameters switches, tasks and unplaced report the totals,
 * so a bench can show that the probe really ran.
 */
#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

/* mode=decode: the backend's switch header, as rvvstat's core reaches it. */
#include "arch/arch.h"

/* Enough for a bench guest's tasks; a full table only counts in unplaced. */
#define REF_TABLE_BITS	12
#define REF_TABLE_SIZE	BIT(REF_TABLE_BITS)

struct ref_slot {
	struct task_struct *task;	/* the key; NULL while free */
	unsigned long switches;
};

static char *mode = "empty";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "empty: a probe that does nothing; count: per-CPU and per-task switch counters; decode: rvvstat's decoding of the switch's vector work");

static DEFINE_PER_CPU(unsigned long, ref_cpu_switches);
static struct ref_slot *ref_table;
static atomic_long_t ref_unplaced;
static struct tracepoint *ref_tp;
static void *ref_probe;

/* Hot path, as rvvstat's: IRQs off, rq lock held. */
static void ref_on_switch_empty(void *data, bool preempt,
				struct task_struct *prev,
				struct task_struct *next,
				unsigned int prev_state)
{
}

/*
 * The slot of @task, claimed if it has none. Slots are never freed: a freed
 * task_struct reused by a new task inherits its count, which a reference for
 * the cost of counting may do. The cmpxchg makes two CPUs agree on a key.
 */
static struct ref_slot *ref_slot_of(struct task_struct *task)
{
	unsigned long i, h = hash_ptr(task, REF_TABLE_BITS);
	struct ref_slot *slot;
	struct task_struct *key;

	for (i = 0; i < REF_TABLE_SIZE; i++) {
		slot = &ref_table[(h + i) & (REF_TABLE_SIZE - 1)];
		key = READ_ONCE(slot->task);
		if (!key)
			key = cmpxchg(&slot->task, NULL, task) ?: task;
		if (key == task)
			return slot;
	}
	return NULL;
}

/* Every field is read, as rvvstat's counting reads them. */
static void ref_on_switch_decode(void *data, bool preempt,
				 struct task_struct *prev,
				 struct task_struct *next,
				 unsigned int prev_state)
{
	struct rvv_switch_vstate vs = {};

	rvv_arch_decode_prev(prev, &vs);
	rvv_arch_decode_next(next, &vs);
	if (vs.save_user | vs.save_kernel | vs.discarded | vs.prev_armed |
	    vs.next_armed | vs.restore_user | vs.restore_kernel)
		this_cpu_inc(ref_cpu_switches);
}

static void ref_on_switch_count(void *data, bool preempt,
				struct task_struct *prev,
				struct task_struct *next,
				unsigned int prev_state)
{
	struct ref_slot *slot;

	this_cpu_inc(ref_cpu_switches);
	slot = ref_slot_of(prev);
	/* A task is switched out on one CPU at a time, under its rq lock. */
	if (slot)
		WRITE_ONCE(slot->switches, slot->switches + 1);
	else
		atomic_long_inc(&ref_unplaced);
}

static int ref_refuse(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static int ref_get_switches(char *buf, const struct kernel_param *kp)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(ref_cpu_switches, cpu);
	return sysfs_emit(buf, "%lu\n", sum);
}

static int ref_get_tasks(char *buf, const struct kernel_param *kp)
{
	unsigned long i, used = 0;

	for (i = 0; ref_table && i < REF_TABLE_SIZE; i++)
		used += !!READ_ONCE(ref_table[i].task);
	return sysfs_emit(buf, "%lu\n", used);
}

static int ref_get_unplaced(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&ref_unplaced));
}

static const struct kernel_param_ops ref_switches_ops = {
	.set = ref_refuse,
	.get = ref_get_switches,
};

static const struct kernel_param_ops ref_tasks_ops = {
	.set = ref_refuse,
	.get = ref_get_tasks,
};

static const struct kernel_param_ops ref_unplaced_ops = {
	.set = ref_refuse,
	.get = ref_get_unplaced,
};

module_param_cb(switches, &ref_switches_ops, NULL, 0444);
MODULE_PARM_DESC(switches, "mode=count: switches counted on all CPUs; mode=decode: those with vector work (read-only)");
module_param_cb(tasks, &ref_tasks_ops, NULL, 0444);
MODULE_PARM_DESC(tasks, "mode=count: tasks given a table slot (read-only)");
module_param_cb(unplaced, &ref_unplaced_ops, NULL, 0444);
MODULE_PARM_DESC(unplaced, "mode=count: switches of tasks the full table had no slot for (read-only)");

static void ref_find_switch(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		ref_tp = tp;
}

static int __init ref_init(void)
{
	int err;

	if (!strcmp(mode, "empty")) {
		ref_probe = ref_on_switch_empty;
	} else if (!strcmp(mode, "count")) {
		ref_table = kvcalloc(REF_TABLE_SIZE, sizeof(*ref_table),
				     GFP_KERNEL);
		if (!ref_table)
			return -ENOMEM;
		ref_probe = ref_on_switch_count;
	} else if (!strcmp(mode, "decode")) {
		ref_probe = ref_on_switch_decode;
	} else {
		pr_err("rvvref: mode=%s: not empty, count or decode\n", mode);
		return -EINVAL;
	}
	/* Not exported to modules: found by name, as rvvstat does. */
	for_each_kernel_tracepoint(ref_find_switch, NULL);
	err = ref_tp ? tracepoint_probe_register(ref_tp, ref_probe, NULL) :
		       -ENOENT;
	if (err) {
		pr_err("rvvref: cannot attach to sched_switch (%d)\n", err);
		kvfree(ref_table);
		ref_table = NULL;
	}
	return err;
}

static void __exit ref_exit(void)
{
	tracepoint_probe_unregister(ref_tp, ref_probe, NULL);
	/* No CPU may still be inside a probe when its table goes. */
	tracepoint_synchronize_unregister();
	/* Nor a reader of the parameters, which runs under this lock. */
	kernel_param_lock(THIS_MODULE);
	kvfree(ref_table);
	ref_table = NULL;
	kernel_param_unlock(THIS_MODULE);
}

module_init(ref_init);
module_exit(ref_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rvvstat's bench reference: empty, counting and decoding probes on sched_switch");
