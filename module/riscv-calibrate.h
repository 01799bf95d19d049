/* SPDX-License-Identifier: GPL-2.0 */
/* Timing the kernel's save and restore sequences without probes. */
#ifndef _RVVSTAT_RISCV_CALIBRATE_H
#define _RVVSTAT_RISCV_CALIBRATE_H

/* On every online CPU; also times the probe pair's bias. Sleeps. */
int rvv_calibrate(void);
/* Fills in the calibration kinds' methods. */
void rvv_calibrate_describe(void);

#endif /* _RVVSTAT_RISCV_CALIBRATE_H */
