/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What changes the module's state for every reader (reset, calibrate), the
 * same from debugfs, the ioctl and netlink: one place, one permission rule.
 */
#ifndef _RVVSTAT_CONTROL_H
#define _RVVSTAT_CONTROL_H

struct file;

/*
 * Zeroes every counter, the event histograms and the hint events, with
 * every CPU stopped. @via is the file or socket the request came through:
 * -EPERM unless both the caller and whoever opened @via have CAP_SYS_ADMIN.
 */
int rvv_control_reset(const struct file *via);
/* Times the probes' bias and the save and restore loops again; as reset. */
int rvv_control_calibrate(const struct file *via);

#endif /* _RVVSTAT_CONTROL_H */
