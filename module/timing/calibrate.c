// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration: the kernel's own save and restore sequences, supplied by the
 * backend, run on each CPU inside kernel-mode vector use with IRQs off and
 * no probe in the way. On RISC-V the restore is inlined into noinstr exit
 * code, so this is the only way to time it. The probe pair's empty stretch
 * is timed on each CPU at the same time.
 */
#include <linux/cpu.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/workqueue.h>

#include "timing/calibrate.h"
#include "timing/latency.h"

#define RVV_CALIB_SAMPLES	256
/* Each sample times this many back-to-back ops: 1/16 of the clock step. */
#define RVV_CALIB_OPS		16

static DEFINE_MUTEX(rvv_calibrate_lock);

static void rvv_time_save_restore(const struct rvv_calib_ops *ops, void *buf)
{
	unsigned long flags;
	u64 t0, t1, t2;

	local_irq_save(flags);
	t0 = local_clock();
	ops->save(buf, RVV_CALIB_OPS);
	t1 = local_clock();
	ops->restore(buf, RVV_CALIB_OPS);
	t2 = local_clock();
	rvv_latency_record(RVVSTAT_LAT_CALIB_SAVE,
			   div_u64(t1 - t0 + RVV_CALIB_OPS / 2, RVV_CALIB_OPS));
	rvv_latency_record(RVVSTAT_LAT_CALIB_RESTORE,
			   div_u64(t2 - t1 + RVV_CALIB_OPS / 2, RVV_CALIB_OPS));
	local_irq_restore(flags);
}

/* Runs in a worker bound to the CPU being calibrated. */
static long rvv_calibrate_this_cpu(void *arg)
{
	const struct rvv_calib_ops *ops = arg;
	unsigned long flags;
	void *buf;
	int i;

	buf = ops->alloc();
	if (!buf)
		return -ENOMEM;
	local_irq_save(flags);
	rvv_latency_zero_kind_this_cpu(RVVSTAT_LAT_CALIB_SAVE);
	rvv_latency_zero_kind_this_cpu(RVVSTAT_LAT_CALIB_RESTORE);
	rvv_latency_zero_kind_this_cpu(RVVSTAT_LAT_PROBE_BIAS);
	local_irq_restore(flags);
	ops->time_bias(RVV_CALIB_SAMPLES);
	ops->begin();
	for (i = 0; i < RVV_CALIB_SAMPLES; i++)
		rvv_time_save_restore(ops, buf);
	ops->end();
	ops->free(buf);
	return 0;
}

int rvv_calibrate(const struct rvv_calib_ops *ops)
{
	long err = 0;
	int cpu;

	mutex_lock(&rvv_calibrate_lock);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		err = work_on_cpu(cpu, rvv_calibrate_this_cpu, (void *)ops);
		if (err)
			break;
	}
	cpus_read_unlock();
	if (!err)
		ops->update_bias();
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

		m->hook = (struct rvv_hook){
			.state = RVV_HOOK_ON, .via = RVV_VIA_LOOP,
			.samples = RVV_CALIB_SAMPLES,
		};
		m->sample_every = 1;
		m->ops_per_sample = RVV_CALIB_OPS;
	}
}
