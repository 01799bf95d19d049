/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RVVSTAT_EVENTS_H
#define _RVVSTAT_EVENTS_H

struct task_struct;

/* Attaches to the scheduler tracepoints and enters the tasks already running. */
int rvv_events_start(void);
/* Detaches and waits until no handler runs any more. */
void rvv_events_stop(void);
/*
 * A task started to use vector state, as its backend saw (arch.h's
 * first_use): what waits for that is told. Any context.
 */
void rvv_event_first_use(struct task_struct *task);

#endif /* _RVVSTAT_EVENTS_H */
