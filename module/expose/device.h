/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RVVSTAT_DEVICE_H
#define _RVVSTAT_DEVICE_H

/* /dev/rvvstat; open files keep the module loaded. */
int rvv_device_init(void);
void rvv_device_exit(void);

#endif /* _RVVSTAT_DEVICE_H */
