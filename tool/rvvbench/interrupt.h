/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SIGINT, SIGTERM and SIGHUP during a sweep: the handler only notes the
 * signal; the load loop sees it within 100 ms and ends the run with -EINTR,
 * so the hog stops, the arm is cleared (the server does not keep an arm's
 * policy into later windows) and the outputs of the runs already done are
 * written, as after any failed run. A second signal of the same kind acts
 * as it would without rvvbench (the handler is reset on the first).
 */
#ifndef RVVBENCH_INTERRUPT_H
#define RVVBENCH_INTERRUPT_H

/* Installs the handler; 0 or -errno. */
int bench_interrupt_install(void);
/* The signal that came, or 0. */
int bench_interrupted(void);
/* Forgets it (tests). */
void bench_interrupt_reset(void);

#endif /* RVVBENCH_INTERRUPT_H */
