// SPDX-License-Identifier: GPL-2.0
/* The llama-server panel: its state, tok/s and its history, the saves per token. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>

#include "batch.h"
#include "panel.h"
#include "record.h"
#include "screen.h"

struct llama_view {
	enum llama_state state;
	const char *why;
	const char *slots_why;		/* NULL: slots, or --no-slots */
	unsigned long reading_from, reading_to;	/* the poller's readings; from 0: one */
	double seconds;			/* between them; 0 with one reading */
	double reading_taken;		/* CLOCK_MONOTONIC s of reading_to */
	bool no_new_reading;		/* the same reading as the interval before */
	bool has_live;			/* /slots in both readings */
	uint64_t decoded;		/* tokens generated between the readings */
	double tokens_per_s;
	bool has_slots;			/* /slots in the last reading */
	int busy_slots, slots;
	bool has_gauges;		/* /metrics in the last reading */
	bool has_metrics;		/* /metrics in both readings */
	bool restarted;			/* its counters went back */
	double prompt_done, predicted_done;	/* completed between the readings */
	double processing, deferred;
	bool has_join;			/* tokens were generated */
	double saves_per_token;
	double saves_per_generating_s;	/* saves/s while a slot was busy */
};

/* The panel's part of a view: its numbers, and its texts read back. */
struct llama_part {
	struct llama_view l;
	char *texts[2];		/* replays: why and slots_why */
};

static const struct {
	const char *name, *advice;
} llama_states[LLAMA_NR_STATES] = {
	[LLAMA_WAITING] = { "waiting", "the first request to llama-server is under way" },
	[LLAMA_UP] = { "up", "" },
	[LLAMA_LOADING] = { "loading", "the model is loading; rates start when it answers" },
	[LLAMA_DOWN] = { "down", "no answer: is llama-server running at this --llama URL?" },
	[LLAMA_NO_METRICS] = { "metrics disabled",
			       "start llama-server with --metrics for completed-token counts" },
	[LLAMA_METRICS_FAILED] = { "metrics unreadable",
				   "/metrics did not give its counts this time; live rates go on" },
};

static const char *llama_state_name(enum llama_state state)
{
	return llama_states[state].name;
}

static const char *llama_state_advice(enum llama_state state)
{
	return llama_states[state].advice;
}

/* The most lines a reason about llama-server takes: URL, what failed, what to do. */
#define LLAMA_WHY_LINES	3

/*
 * From reading @a (NULL: none yet) to @b, beside the module's @saves over
 * @seconds (< 0: no count for this interval). The readings keep their own
 * times: the poller takes them apart from the module's samples.
 */
static void build_llama(const struct llama_reading *a, const struct llama_reading *b,
			double seconds, int64_t saves, struct llama_view *l)
{
	l->reading_from = a ? a->seq : 0;
	l->reading_to = b->seq;
	l->reading_taken = b->taken;
	l->no_new_reading = a && a->seq == b->seq;
	l->seconds = a ? b->taken - a->taken : 0;
	l->state = b->state;
	l->why = b->why[0] ? b->why : NULL;
	l->slots_why = b->slots_why[0] ? b->slots_why : NULL;
	if (b->has_slots) {
		l->has_slots = true;
		l->slots = b->slots->nr;
		l->busy_slots = rvv_llama_busy_slots(b->slots);
	}
	if (a && a->has_slots && b->has_slots && l->seconds > 0) {
		l->has_live = true;
		l->decoded = rvv_llama_decoded_between(a->slots, b->slots);
		l->tokens_per_s = (double)l->decoded / l->seconds;
	}
	if (b->has_metrics) {
		l->has_gauges = true;
		l->processing = b->metrics.value[RVV_LLAMA_REQUESTS_PROCESSING];
		l->deferred = b->metrics.value[RVV_LLAMA_REQUESTS_DEFERRED];
	}
	if (a && a->has_metrics && b->has_metrics) {
		const double *x = a->metrics.value, *y = b->metrics.value;

		l->restarted = y[RVV_LLAMA_PREDICTED_TOKENS] < x[RVV_LLAMA_PREDICTED_TOKENS] ||
			       y[RVV_LLAMA_PROMPT_TOKENS] < x[RVV_LLAMA_PROMPT_TOKENS];
		l->has_metrics = !l->restarted;
		l->prompt_done = y[RVV_LLAMA_PROMPT_TOKENS] - x[RVV_LLAMA_PROMPT_TOKENS];
		l->predicted_done = y[RVV_LLAMA_PREDICTED_TOKENS] - x[RVV_LLAMA_PREDICTED_TOKENS];
	}
	if (l->has_live && l->decoded && saves >= 0) {
		l->has_join = true;
		l->saves_per_generating_s = (double)saves / seconds;
		l->saves_per_token = l->saves_per_generating_s / l->tokens_per_s;
	}
}

bool view_tokens_per_s(const struct view *v, double *tokens_per_s)
{
	const struct llama_part *p = view_part(v, &llama_panel);

	if (!p || !p->l.has_live)
		return false;
	*tokens_per_s = p->l.tokens_per_s;
	return true;
}

static void llama_free(void *part)
{
	struct llama_part *p = part;

	free(p->texts[0]);
	free(p->texts[1]);
	free(p);
}

/* With llama-server watched (--llama), a part each interval. */
static int llama_build(const struct sample *prev, const struct sample *cur,
		       const struct llama_reading *llama_before, const struct view *v,
		       void **part)
{
	struct llama_part *p;

	if (!cur->has_llama)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	build_llama(llama_before && llama_before->seq ? llama_before : NULL,
		    &cur->llama, v->seconds, prev ? (int64_t)v->total.saved : -1, &p->l);
	*part = p;
	return 0;
}

/* Its state line, the counts and the join. */
static int llama_reserve(const struct view *v, const void *part)
{
	(void)v;
	return part ? 3 : 0;
}

/* tok/s history in the characters left on the line, newest on the right. */
static void draw_sparkline(const struct screen *sc, int width)
{
	static const char levels[] = " _.-=+*#";
	double most = 0;
	size_t i, first;

	if (width < 4 || !sc->history_len)
		return;
	first = sc->history_len > (size_t)width ? sc->history_len - (size_t)width : 0;
	for (i = first; i < sc->history_len; i++)
		if (sc->history[i] > most)
			most = sc->history[i];
	attron(screen_attr(sc, PAIR_METER));
	for (i = first; i < sc->history_len; i++)
		addch(most > 0 ? levels[(int)(sc->history[i] / most * 7 + 0.5)] : ' ');
	attroff(screen_attr(sc, PAIR_METER));
}

static int llama_draw(struct screen *sc, const struct view *v, const void *part,
		      const struct table *t, int y, int lines)
{
	const struct llama_part *p = part;
	const struct llama_view *l = p ? &p->l : NULL;
	int x, unused;

	(void)v, (void)t, (void)lines;
	if (!l)
		return y;
	attron(screen_attr(sc, PAIR_LABEL));
	screen_put(y, 0, "llama-server");
	attroff(screen_attr(sc, PAIR_LABEL));
	if (l->state != LLAMA_UP)
		attron(screen_attr(sc, PAIR_WARN));
	screen_put_on(" %s", llama_state_name(l->state));
	if (l->state != LLAMA_UP)
		attroff(screen_attr(sc, PAIR_WARN));
	if (l->state == LLAMA_WAITING || l->state == LLAMA_DOWN || l->state == LLAMA_LOADING) {
		screen_put_on(": %s", llama_state_advice(l->state));
		return screen_put_wrapped(y + 1, 2, l->why ? l->why : "", LLAMA_WHY_LINES);
	}
	if (l->no_new_reading)
		screen_put_on("  no new reading: slow to answer  ");
	else if (l->has_live)
		screen_put_on("  %.1f tok/s  %d/%d slots busy  ", l->tokens_per_s, l->busy_slots,
			      l->slots);
	else if (l->has_slots)
		screen_put_on("  no live rate yet: two readings needed  ");
	else if (l->slots_why)
		screen_put_on("  /slots failed: no live rate  ");
	else
		screen_put_on("  --no-slots: no live rate  ");
	getyx(stdscr, unused, x);
	(void)unused;
	draw_sparkline(sc, COLS - x - 1);
	y++;
	if (l->restarted)
		screen_put(y++, 2, "restarted: its counters went back; completed counts resume next time");
	else if (l->has_metrics)
		screen_put(y++, 2, "completed %.0f generated, %.0f prompt tokens; %.0f processing, %.0f deferred",
			   l->predicted_done, l->prompt_done, l->processing, l->deferred);
	/* Why there are no counts, or what else went wrong (a key /slots wants). */
	y = screen_put_wrapped(y, 2, l->why ? l->why : l->state != LLAMA_UP ?
			       llama_state_advice(l->state) : "", LLAMA_WHY_LINES);
	y = screen_put_wrapped(y, 2, l->slots_why ? l->slots_why : "", LLAMA_WHY_LINES);
	if (l->has_join)
		screen_put(y, 2, "vector saves: %.2f per generated token, %.1f per second of generation",
			   l->saves_per_token, l->saves_per_generating_s);
	else
		screen_put(y, 2, "vector saves per token: when tokens are generated");
	return y + 1;
}

static void llama_text(FILE *out, const struct view *v, const void *part)
{
	const struct llama_part *p = part;
	const struct llama_view *l = p ? &p->l : NULL;

	(void)v;
	if (!l)
		return;
	/* A line each: the state, its advice and its reason fit 80 columns. */
	fprintf(out, "llama-server: %s\n", llama_state_name(l->state));
	if (llama_state_advice(l->state)[0])
		fprintf(out, "  %s\n", llama_state_advice(l->state));
	if (l->why)
		batch_wrapped(out, "  ", l->why);
	if (l->state == LLAMA_WAITING || l->state == LLAMA_DOWN || l->state == LLAMA_LOADING)
		return;
	if (l->no_new_reading)
		fprintf(out, "  no new reading in this interval: llama-server is slow to answer\n");
	else if (l->has_live)
		fprintf(out, "  generating %.1f tok/s (%" PRIu64 " tokens in %.2f s), %d of %d slots busy\n",
			l->tokens_per_s, l->decoded, l->seconds, l->busy_slots, l->slots);
	else if (l->has_slots)
		fprintf(out, "  no live rate yet: it needs two readings of /slots\n");
	else if (l->slots_why)
		batch_wrapped(out, "  no live rate: ", l->slots_why);
	else
		fprintf(out, "  no live rate: llama-server runs with --no-slots\n");
	if (l->restarted)
		fprintf(out, "  restarted: its counters went back; completed counts resume next time\n");
	else if (l->has_metrics)
		fprintf(out, "  completed %.0f prompt, %.0f generated tokens; %.0f processing, %.0f deferred\n",
			l->prompt_done, l->predicted_done, l->processing, l->deferred);
	if (l->has_join)
		fprintf(out, "  %.2f vector saves per generated token, %.1f per second of generation\n",
			l->saves_per_token, l->saves_per_generating_s);
}

/* @value if @present, else null. */
static json_object *json_double_if(bool present, double value)
{
	return present ? json_object_new_double(value) : NULL;
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof(*(a)))

/*
 * The counts of a --json record after "restarted": each null unless its
 * flag says llama-server gave it, and read back the same way.
 */
static const struct {
	const char *key;
	size_t value, present;		/* offsets of a double and its bool */
} counts[] = {
	{ "prompt_tokens_done", offsetof(struct llama_view, prompt_done),
	  offsetof(struct llama_view, has_metrics) },
	{ "generated_tokens_done", offsetof(struct llama_view, predicted_done),
	  offsetof(struct llama_view, has_metrics) },
	{ "requests_processing", offsetof(struct llama_view, processing),
	  offsetof(struct llama_view, has_gauges) },
	{ "requests_deferred", offsetof(struct llama_view, deferred),
	  offsetof(struct llama_view, has_gauges) },
	{ "saves_per_token", offsetof(struct llama_view, saves_per_token),
	  offsetof(struct llama_view, has_join) },
	{ "saves_per_generating_s", offsetof(struct llama_view, saves_per_generating_s),
	  offsetof(struct llama_view, has_join) },
};

static double *member_number(struct llama_view *l, size_t offset)
{
	return (double *)((char *)l + offset);
}

static bool *member_flag(struct llama_view *l, size_t offset)
{
	return (bool *)((char *)l + offset);
}

static void llama_json(json_object *record, const struct view *v, const void *part)
{
	const struct llama_part *p = part;
	const struct llama_view *l = p ? &p->l : NULL;
	struct llama_view copy;	/* counts[] reads through a mutable pointer */
	json_object *obj;
	size_t i;

	(void)v;
	if (!l) {
		json_object_object_add(record, "llama", NULL);
		return;
	}
	obj = json_object_new_object();
	json_object_object_add(obj, "state", json_object_new_string(llama_state_name(l->state)));
	json_object_object_add(obj, "why", l->why ? json_object_new_string(l->why) : NULL);
	json_object_object_add(obj, "slots_why",
			       l->slots_why ? json_object_new_string(l->slots_why) : NULL);
	json_object_object_add(obj, "reading", l->reading_to ?
			       json_object_new_uint64(l->reading_to) : NULL);
	json_object_object_add(obj, "since_reading", l->reading_from ?
			       json_object_new_uint64(l->reading_from) : NULL);
	json_object_object_add(obj, "seconds", json_double_if(l->reading_from, l->seconds));
	json_object_object_add(obj, "reading_monotonic",
			       json_double_if(l->reading_to, l->reading_taken));
	json_object_object_add(obj, "slots", l->has_slots ? json_object_new_int(l->slots) : NULL);
	json_object_object_add(obj, "busy_slots",
			       l->has_slots ? json_object_new_int(l->busy_slots) : NULL);
	json_object_object_add(obj, "decoded", l->has_live ? json_object_new_uint64(l->decoded) : NULL);
	json_object_object_add(obj, "tokens_per_s", json_double_if(l->has_live, l->tokens_per_s));
	json_object_object_add(obj, "restarted", json_object_new_boolean(l->restarted));
	copy = *l;
	for (i = 0; i < ARRAY_SIZE(counts); i++)
		json_object_object_add(obj, counts[i].key,
				       json_double_if(*member_flag(&copy, counts[i].present),
						      *member_number(&copy, counts[i].value)));
	json_object_object_add(record, "llama", obj);
}

static const char *state_name(unsigned int i)
{
	return llama_state_name((enum llama_state)i);
}

static int llama_read(struct record_reader *rd, json_object *record, struct replayed *e,
		      void **part)
{
	json_object *m = record_member(rd, record, "llama", json_type_object, true);
	struct llama_part *p;
	struct llama_view *l;
	double slots, busy;
	size_t i;

	if (!m)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	*part = p;
	l = &p->l;
	e->s.has_llama = true;
	l->state = (enum llama_state)record_named(rd, m, "state", state_name, LLAMA_NR_STATES);
	l->why = record_text(rd, m, "why", &p->texts[0]);
	l->slots_why = record_text(rd, m, "slots_why", &p->texts[1]);
	l->reading_to = record_maybe_count(rd, m, "reading");
	l->reading_from = record_maybe_count(rd, m, "since_reading");
	l->no_new_reading = l->reading_from && l->reading_from == l->reading_to;
	record_maybe_number(rd, m, "seconds", &l->seconds);
	record_maybe_number(rd, m, "reading_monotonic", &l->reading_taken);
	l->has_slots = record_maybe_number(rd, m, "slots", &slots);
	record_maybe_number(rd, m, "busy_slots", &busy);
	l->slots = (int)slots;
	l->busy_slots = (int)busy;
	l->has_live = record_maybe_number(rd, m, "tokens_per_s", &l->tokens_per_s);
	l->decoded = record_maybe_count(rd, m, "decoded");
	l->restarted = record_flag(rd, m, "restarted");
	for (i = 0; i < ARRAY_SIZE(counts); i++)
		if (record_maybe_number(rd, m, counts[i].key,
					member_number(l, counts[i].value)))
			*member_flag(l, counts[i].present) = true;
	return 0;
}

const struct panel llama_panel = {
	.build = llama_build,
	.free = llama_free,
	.reserve = llama_reserve,
	.draw = llama_draw,
	.text = llama_text,
	.json = llama_json,
	.read = llama_read,
};
