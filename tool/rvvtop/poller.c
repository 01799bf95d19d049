// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/http.h"
#include "clock.h"
#include "poller.h"

struct llama_poller {
	struct llama_source src;
	struct rvv_http *http;		/* the thread's alone */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* on CLOCK_MONOTONIC */
	/* Under lock: */
	bool stop;
	int status;			/* -ENOMEM ends the polling */
	double period_s;
	struct llama_reading latest, before;	/* before: the one it replaced */
};

/*
 * One endpoint's body if it answered 200, else NULL with the reason in @why
 * (@size bytes): the transport's error, or the status it answered.
 */
static char *llama_get(struct llama_poller *p, const char *path, long *status,
		       char *why, size_t size)
{
	struct rvv_http_reply reply;
	struct rvv_error err = { 0 };

	if (rvv_http_fetch(p->http, path, &reply, &err)) {
		snprintf(why, size, "%s", err.message);
		*status = 0;
		return NULL;
	}
	*status = reply.status;
	if (reply.status == 200)
		return reply.body;
	snprintf(why, size, "%s%s answered HTTP %ld%s", p->src.url, path, reply.status,
		 reply.status != 401 ? "" : p->src.api_key ? ": not the server's API key" :
		 ": give its API key (LLAMA_API_KEY=... or --llama-key)");
	rvv_http_free(&reply);
	return NULL;
}

static int take_llama(struct llama_poller *p, struct llama_reading *l)
{
	struct rvv_error err = { 0 };
	long status;
	char *body;

	body = llama_get(p, "/health", &status, l->why, sizeof(l->why));
	l->state = rvv_llama_health_of(status, body) == RVV_LLAMA_UP ? LLAMA_UP :
		   status == 503 ? LLAMA_LOADING : LLAMA_DOWN;
	free(body);
	if (l->state != LLAMA_UP)
		return 0;
	l->why[0] = '\0';
	body = llama_get(p, "/metrics", &status, l->why, sizeof(l->why));
	if (body && rvv_llama_parse_metrics(body, &l->metrics, &err))
		snprintf(l->why, sizeof(l->why), "%s", err.message);
	l->has_metrics = !l->why[0];
	if (status == 501)	/* llama-server without --metrics */
		l->why[0] = '\0';
	if (!l->has_metrics)
		l->state = status == 501 ? LLAMA_NO_METRICS : LLAMA_METRICS_FAILED;
	free(body);
	/* No /slots is a way to run it (--no-slots: 501): the panel says so. */
	body = llama_get(p, "/slots", &status, l->slots_why, sizeof(l->slots_why));
	if (status == 501)
		l->slots_why[0] = '\0';
	if (body) {
		l->slots = malloc(sizeof(*l->slots));
		if (!l->slots) {
			free(body);
			return -ENOMEM;
		}
		l->has_slots = !rvv_llama_parse_slots(body, l->slots);
		if (!l->has_slots)
			snprintf(l->slots_why, sizeof(l->slots_why),
				 "%s/slots answered no list of slots rvvtop can read", p->src.url);
	}
	free(body);
	return 0;
}

static struct timespec timespec_of(double s)
{
	struct timespec t = { .tv_sec = (time_t)s };

	t.tv_nsec = (long)((s - (double)t.tv_sec) * 1e9);
	return t;
}

static void *poll_loop(void *arg)
{
	struct llama_poller *p = arg;
	double next = monotonic_s();
	struct timespec due;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		struct llama_reading r = { 0 };
		int status;

		pthread_mutex_unlock(&p->lock);
		status = take_llama(p, &r);
		r.taken = monotonic_s();
		pthread_mutex_lock(&p->lock);
		if (status || p->stop) {	/* a stop interrupts: no reading */
			p->status = status;
			llama_reading_free(&r);
			break;
		}
		r.seq = p->latest.seq + 1;
		llama_reading_free(&p->before);
		p->before = p->latest;
		p->latest = r;
		/*
		 * On the beat; a slow reading that fell behind waits half a
		 * period, so that two readings never come back to back: the
		 * rates between them would span a moment.
		 */
		next += p->period_s;
		if (next < r.taken + p->period_s / 2)
			next = r.taken + p->period_s / 2;
		due = timespec_of(next);
		while (!p->stop && pthread_cond_timedwait(&p->wake, &p->lock, &due) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int llama_poller_start(struct llama_poller **pp, const struct llama_source *src,
		       double period_s, struct rvv_error *err)
{
	struct llama_poller *p;
	pthread_condattr_t attr;
	int status;

	*pp = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return rvv_fail(err, -ENOMEM, "no memory to poll llama-server");
	p->src = *src;
	p->period_s = period_s;
	p->latest.state = LLAMA_WAITING;
	status = rvv_http_open(&p->http, src->url, src->timeout_ms, src->api_key, err);
	if (status) {
		free(p);
		return status;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &attr);
	pthread_condattr_destroy(&attr);
	status = pthread_create(&p->thread, NULL, poll_loop, p);
	if (status) {
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		rvv_http_close(p->http);
		free(p);
		return rvv_fail(err, -status, "cannot start the thread that polls llama-server");
	}
	*pp = p;
	return 0;
}

void llama_poller_set_period(struct llama_poller *p, double period_s)
{
	pthread_mutex_lock(&p->lock);
	p->period_s = period_s;
	pthread_mutex_unlock(&p->lock);
}

/* A deep copy of @from into @to. 0, or -ENOMEM. */
static int copy_reading(struct llama_reading *to, const struct llama_reading *from)
{
	*to = *from;
	to->slots = NULL;
	if (!from->slots)
		return 0;
	to->slots = malloc(sizeof(*to->slots));
	if (!to->slots)
		return -ENOMEM;
	*to->slots = *from->slots;
	return 0;
}

int llama_poller_latest(struct llama_poller *p, struct llama_reading *latest,
			struct llama_reading *before)
{
	int status;

	pthread_mutex_lock(&p->lock);
	status = p->status;
	if (!status)
		status = copy_reading(latest, &p->latest);
	if (!status && before)
		status = copy_reading(before, &p->before);
	pthread_mutex_unlock(&p->lock);
	return status;
}

void llama_poller_stop(struct llama_poller *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	rvv_http_interrupt(p->http);
	pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	rvv_http_close(p->http);
	llama_reading_free(&p->latest);
	llama_reading_free(&p->before);
	free(p);
}

void llama_reading_free(struct llama_reading *r)
{
	free(r->slots);
	r->slots = NULL;
}
