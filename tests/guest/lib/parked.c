// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest-util.h"
#include "parked.h"
#include "vector-arch.h"

#define ANSWER_MS	20000

struct parked_cmd {
	enum parked_op op;
	int arg;
};

struct parked_answer {
	pid_t tid;
	int cpu;			/* -1: a pin was refused */
};

void use_vector(void)
{
	if (arch_has_vector())
		arch_touch_vector();
}

int join_within(pthread_t t, unsigned int ms)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += ms / 1000;
	deadline.tv_nsec += (long)(ms % 1000) * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	return pthread_timedjoin_np(t, NULL, &deadline);
}

void *parked_main(void *arg)
{
	struct parked *p = arg;
	struct parked_answer a = { .tid = gettid() };
	struct parked_cmd c = { .op = PARKED_QUIT };
	bool refused = false;

	if (p->vector_at_start)
		use_vector();
	for (;;) {
		a.cpu = refused ? -1 : sched_getcpu();
		if (write(p->ack[1], &a, sizeof(a)) != sizeof(a) ||
		    read(p->cmd[0], &c, sizeof(c)) != sizeof(c) || c.op == PARKED_QUIT)
			return NULL;
		refused = false;
		switch (c.op) {
		case PARKED_VECTOR:
			use_vector();
			break;
		case PARKED_PIN:
			refused = pin_to_cpu(c.arg) != 0;
			break;
		case PARKED_WIDEN:
			sched_setaffinity(0, sizeof(p->widen_to), &p->widen_to);
			break;
		case PARKED_START_NEXT:
			if (p->next)
				pthread_create(&p->next->thread, NULL, parked_main, p->next);
			break;
		case PARKED_EXIT:
			pthread_exit(NULL);
		case PARKED_QUIT:
			break;
		}
	}
}

int parked_init(struct parked *p, struct parked *next)
{
	memset(p, 0, sizeof(*p));
	p->next = next;
	if (sched_getaffinity(0, sizeof(p->widen_to), &p->widen_to) ||
	    pipe2(p->cmd, O_CLOEXEC))
		return -errno;
	if (pipe2(p->ack, O_CLOEXEC)) {
		close(p->cmd[0]);
		close(p->cmd[1]);
		return -errno;
	}
	return 0;
}

pid_t parked_recv(struct parked *p)
{
	struct pollfd pfd = { .fd = p->ack[0], .events = POLLIN };
	struct parked_answer a;

	if (poll(&pfd, 1, ANSWER_MS) != 1 || read(p->ack[0], &a, sizeof(a)) != sizeof(a))
		return -1;
	p->cpu = a.cpu;
	return a.tid;
}

int parked_spawn(struct parked *p)
{
	if (pthread_create(&p->thread, NULL, parked_main, p))
		return -1;
	p->tid = parked_recv(p);
	return p->tid > 0 ? 0 : -1;
}

int parked_start(struct parked *p)
{
	return parked_init(p, NULL) ? -1 : parked_spawn(p);
}

int parked_send(struct parked *p, enum parked_op op, int arg)
{
	struct parked_cmd c = { .op = op, .arg = arg };

	return write(p->cmd[1], &c, sizeof(c)) == sizeof(c) ? 0 : -1;
}

int parked_do(struct parked *p, enum parked_op op)
{
	if (parked_send(p, op, 0))
		return -1;
	if (op == PARKED_QUIT || op == PARKED_EXIT)
		return 0;
	if (parked_recv(p) != p->tid)
		return -1;
	if (op == PARKED_START_NEXT)
		return (p->next->tid = parked_recv(p->next)) > 0 ? 0 : -1;
	return 0;
}

int parked_pin(struct parked *p, int cpu)
{
	if (parked_send(p, PARKED_PIN, cpu) || parked_recv(p) != p->tid)
		return -1;
	return p->cpu;
}

int parked_stop(struct parked *p)
{
	int status = -1;

	if (!parked_send(p, PARKED_QUIT, 0) && !join_within(p->thread, ANSWER_MS))
		status = 0;
	close(p->cmd[0]);
	close(p->cmd[1]);
	close(p->ack[0]);
	close(p->ack[1]);
	return status;
}
