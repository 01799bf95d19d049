/* SPDX-License-Identifier: GPL-2.0 */
/* What userspace reaches, started last and stopped first by main.c. */
#ifndef _RVVSTAT_EXPOSE_H
#define _RVVSTAT_EXPOSE_H

/* The files under /sys/kernel/debug/rvvstat. */
void rvv_debugfs_init(void);
void rvv_debugfs_exit(void);

/* /dev/rvvstat; open files keep the module loaded. */
int rvv_device_init(void);
void rvv_device_exit(void);

/* The generic netlink family; unregistering waits for running commands. */
int rvv_netlink_init(void);
void rvv_netlink_exit(void);

#endif /* _RVVSTAT_EXPOSE_H */
