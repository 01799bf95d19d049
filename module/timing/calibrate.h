/* SPDX-License-Identifier: GPL-2.0 */
/* Timing the kernel's save and restore sequences without probes. */
#ifndef _RVVSTAT_CALIBRATE_H
#define _RVVSTAT_CALIBRATE_H

/*
 * A backend's save and restore, as its kernel runs them. alloc() and free()
 * run in process context on the CPU being calibrated; begin() ... end()
 * brackets the timing as the kernel brackets kernel-mode vector use, and
 * save()/restore() run @times back to back with IRQs off in between (a loop
 * of their own: no indirect call inside the timed span). time_bias() runs the probe
 * pair on its empty stretch @times times on this CPU; update_bias() then
 * takes the bias from all CPUs' samples.
 */
struct rvv_calib_ops {
	void *(*alloc)(void);
	void (*free)(void *buf);
	void (*begin)(void);
	void (*end)(void);
	void (*save)(void *buf, unsigned int times);
	void (*restore)(void *buf, unsigned int times);
	void (*time_bias)(unsigned int times);
	void (*update_bias)(void);
};

/* On every online CPU, the calib_* and probe_bias kinds afresh. Sleeps. */
int rvv_calibrate(const struct rvv_calib_ops *ops);
/* Fills in the calibration kinds' methods. */
void rvv_calibrate_describe(void);

#endif /* _RVVSTAT_CALIBRATE_H */
