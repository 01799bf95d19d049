/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RVVSTAT_DEVICE_H
#define _RVVSTAT_DEVICE_H

#include <uapi/linux/rvvstat.h>

/* /dev/rvvstat; open files keep the module loaded. */
int rvv_device_init(void);
void rvv_device_exit(void);

/* What GET_INFO and SNAPSHOT return, for the netlink family too. */
void rvv_fill_info(struct rvvstat_info *info);
void rvv_fill_snapshot(struct rvvstat_snapshot *s);

#endif /* _RVVSTAT_DEVICE_H */
