/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A key binding of the interactive view: the keys, what they do, and how
 * the help page and the function bar name them. interactive.c holds the
 * one table; screen.c draws its help and bar from the same rows, so a key
 * is added, renamed or documented in one place.
 */
#ifndef RVVTOP_KEYS_H
#define RVVTOP_KEYS_H

struct ui;
struct live;

/* A key pressed, and the view it acts on. */
struct keypress {
	struct ui *ui;
	struct live *l;
	int key;
};

#define MAX_KEYS_PER_BINDING	6

struct binding {
	int keys[MAX_KEYS_PER_BINDING];	/* curses key codes; 0 ends the list */
	void (*act)(const struct keypress *kp);
	const char *names;		/* the keys as the help shows them */
	const char *help;		/* what they do; NULL: not in the help */
	const char *bar_key;		/* on the function bar, or NULL */
	const char *bar_label;
};

#endif /* RVVTOP_KEYS_H */
