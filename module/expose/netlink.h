/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RVVSTAT_NETLINK_H
#define _RVVSTAT_NETLINK_H

/* The generic netlink family; unregistering waits for running commands. */
int rvv_netlink_init(void);
void rvv_netlink_exit(void);

#endif /* _RVVSTAT_NETLINK_H */
