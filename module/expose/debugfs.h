/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RVVSTAT_DEBUGFS_H
#define _RVVSTAT_DEBUGFS_H

void rvv_debugfs_init(void);
void rvv_debugfs_exit(void);

#endif /* _RVVSTAT_DEBUGFS_H */
