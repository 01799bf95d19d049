// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration: the kernel's own save and restore sequences, run on a
 * riscv_v_vsize buffer inside kernel_vector_begin()/end() on each CPU with
 * IRQs off and no probe in the way. The restore is inlined into noinstr
 * exit code, so this is the only way to time it. The empty-stretch probe
 * pair is timed on each CPU at the same time.
 */
#include <linux/cpu.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <asm/simd.h>
#include <asm/vector.h>

#include "latency.h"
#include "riscv-calibrate.h"
#include "riscv-saves.h"

#define RVV_CALIB_SAMPLES	256
/* Each sample times this many back-to-back ops: 1/16 of the clock step. */
#define RVV_CALIB_OPS		16

static DEFINE_MUTEX(rvv_calibrate_lock);

/*
 * As the kernel calls them, with datap read from the state each time: the
 * asm advances its datap register in place, so a loop must not reuse it.
 */
static void rvv_time_save_restore(struct __riscv_v_ext_state *state)
{
	unsigned long flags;
	u64 t0, t1, t2;
	int op;

	local_irq_save(flags);
	t0 = local_clock();
	for (op = 0; op < RVV_CALIB_OPS; op++)
		__riscv_v_vstate_save(state, state->datap);
	t1 = local_clock();
	for (op = 0; op < RVV_CALIB_OPS; op++)
		__riscv_v_vstate_restore(state, state->datap);
	t2 = local_clock();
	rvv_latency_record(RVVSTAT_LAT_CALIB_SAVE,
			   div_u64(t1 - t0 + RVV_CALIB_OPS / 2, RVV_CALIB_OPS));
	rvv_latency_record(RVVSTAT_LAT_CALIB_RESTORE,
			   div_u64(t2 - t1 + RVV_CALIB_OPS / 2, RVV_CALIB_OPS));
	local_irq_restore(flags);
}

/* Runs in a worker bound to the CPU being calibrated. */
static long rvv_calibrate_this_cpu(void *unused)
{
	struct __riscv_v_ext_state *state;
	unsigned long flags;
	int i;

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return -ENOMEM;
	state->datap = kmalloc(riscv_v_vsize, GFP_KERNEL);
	if (!state->datap) {
		kfree(state);
		return -ENOMEM;
	}
	local_irq_save(flags);
	rvv_latency_zero_kind_this_cpu(RVVSTAT_LAT_CALIB_SAVE);
	rvv_latency_zero_kind_this_cpu(RVVSTAT_LAT_CALIB_RESTORE);
	rvv_latency_zero_kind_this_cpu(RVVSTAT_LAT_PROBE_BIAS);
	local_irq_restore(flags);
	rvv_saves_time_stretch(RVV_CALIB_SAMPLES);
	kernel_vector_begin();
	for (i = 0; i < RVV_CALIB_SAMPLES; i++)
		rvv_time_save_restore(state);
	kernel_vector_end();
	kfree(state->datap);
	kfree(state);
	return 0;
}

int rvv_calibrate(void)
{
	long err = 0;
	int cpu;

	mutex_lock(&rvv_calibrate_lock);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		err = work_on_cpu(cpu, rvv_calibrate_this_cpu, NULL);
		if (err)
			break;
	}
	cpus_read_unlock();
	if (!err)
		rvv_saves_update_bias();
	mutex_unlock(&rvv_calibrate_lock);
	return err;
}

void rvv_calibrate_describe(void)
{
	static const enum rvvstat_latency kinds[] = {
		RVVSTAT_LAT_CALIB_SAVE, RVVSTAT_LAT_CALIB_RESTORE,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct rvv_latency_method *m = rvv_latency_method(kinds[i]);

		snprintf(m->text, sizeof(m->text),
			 "in-module loop, %d samples per CPU at load and calibrate",
			 RVV_CALIB_SAMPLES);
		m->sample_every = 1;
		m->ops_per_sample = RVV_CALIB_OPS;
	}
}
