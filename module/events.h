/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RVVSTAT_EVENTS_H
#define _RVVSTAT_EVENTS_H

/* Attaches to the scheduler tracepoints and enters the tasks already running. */
int rvv_events_start(void);
/* Detaches and waits until no handler runs any more. */
void rvv_events_stop(void);

#endif /* _RVVSTAT_EVENTS_H */
