/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The finish hook of the switch-time source: a call at the entry of
 * finish_task_switch(), the first thing the next task runs after
 * switch_to(), on the route that costs least on this kernel (finish.c).
 */
#ifndef _RVVSTAT_FINISH_H
#define _RVVSTAT_FINISH_H

#include <linux/types.h>

#include "attach/hook.h"

/*
 * Registers @fn to run at finish_task_switch(), disarmed, on the cheapest
 * route the kernel takes, and says where in @hook (for the summary's
 * methods). 0 or the last route's error.
 */
int rvv_finish_attach(void (*fn)(void), struct rvv_hook *hook);
/*
 * Arms and disarms the hook; both patch kernel text and sleep. Nothing
 * calls @fn once rvv_finish_disarm() has returned.
 */
int rvv_finish_arm(void);
void rvv_finish_disarm(void);
/* Unregisters it once disarmed (or never armed); nothing if not attached. */
void rvv_finish_detach(void);
/* Whether rvv_finish_attach() succeeded and no detach has followed. */
bool rvv_finish_attached(void);

#endif /* _RVVSTAT_FINISH_H */
