/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thread parked on a pipe, for the tests that need threads to act on
 * cue: it does one thing per command and answers each with its tid and the
 * CPU it then runs on, and blocks again (a switch). It answers once when it
 * starts. The pipes are made before any fork, so the threads of a child
 * process are driven the same way (parked_main() as the child's main).
 */
#ifndef RVVSTAT_PARKED_H
#define RVVSTAT_PARKED_H

/* Needs _GNU_SOURCE, for cpu_set_t. */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

enum parked_op {
	PARKED_VECTOR,		/* execute a vector instruction: its first use */
	PARKED_PIN,		/* pin to CPU arg; answers CPU -1 if refused */
	PARKED_WIDEN,		/* affinity back to its process's at parked_init() */
	PARKED_START_NEXT,	/* start ->next, which answers too */
	PARKED_QUIT,		/* return from parked_main(); no answer */
	PARKED_EXIT,		/* pthread_exit(): a main thread's process lives on; no answer */
};

struct parked {
	pthread_t thread;
	pid_t tid;
	int cpu;			/* the CPU of its last answer */
	int cmd[2], ack[2];
	struct parked *next;		/* what PARKED_START_NEXT starts */
	bool vector_at_start;		/* uses vector state before its first answer */
	cpu_set_t widen_to;
};

/* Pipes for @p (which starts @next, or NULL), not yet a thread; 0 or -errno. */
int parked_init(struct parked *p, struct parked *next);
/* The thread's body: pthread_create()'s start routine, or a child's main. */
void *parked_main(void *arg);
/* A thread of this process running parked_main(@p), after parked_init(); 0 or -1. */
int parked_spawn(struct parked *p);
/* parked_init() and parked_spawn(), with no next thread. */
int parked_start(struct parked *p);
/* Its next answer: its tid (the CPU into ->cpu), or -1 if none came within 20 s. */
pid_t parked_recv(struct parked *p);
/* Sends @op with @arg, not waiting for an answer; 0 or -1. */
int parked_send(struct parked *p, enum parked_op op, int arg);
/* Runs @op and waits for its answers (none for QUIT and EXIT); 0 or -1. */
int parked_do(struct parked *p, enum parked_op op);
/* Pins it to @cpu: the CPU it then runs on, or -1. */
int parked_pin(struct parked *p, int cpu);
/* Ends a thread of this process and closes its pipes; 0, or -1 if it did not end within 20 s. */
int parked_stop(struct parked *p);

/* What a parked thread does, for other threads of the tests too. */
/* Leaves vector state live in the calling thread, if the CPU has it. */
void use_vector(void);
/* pthread_join() of @t for up to @ms; 0, or pthread_timedjoin_np()'s error. */
int join_within(pthread_t t, unsigned int ms);

#endif /* RVVSTAT_PARKED_H */
