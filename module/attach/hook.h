/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a measurement is hooked into the kernel, or why it is not: data
 * that the source owning the hook sets at load, and that hook.c alone puts
 * into words (for the summary's methods and the backends' lines).
 */
#ifndef _RVVSTAT_HOOK_H
#define _RVVSTAT_HOOK_H

#include <linux/seq_file.h>
#include <linux/types.h>

enum rvv_hook_state {
	RVV_HOOK_UNSET,		/* not measured by this backend */
	RVV_HOOK_OFF,		/* the module parameter @param is 0 */
	RVV_HOOK_NONE,		/* this kernel has nothing to hook: @why */
	RVV_HOOK_FAILED,	/* [@symbol:] @why [(@found, @expected)] (@err) */
	RVV_HOOK_ON,		/* @via, at @symbol */
};

enum rvv_hook_via {
	RVV_VIA_TRACEPOINT,	/* the @symbol tracepoint */
	RVV_VIA_KPROBE,		/* @symbol+@offset, two traps on riscv */
	RVV_VIA_KPROBE_SIMULATED, /* the same on an instruction kprobes simulate */
	RVV_VIA_KPROBE_FTRACE,	/* the same on ftrace: no trap */
	RVV_VIA_FTRACE,		/* a function-trace callback on @symbol */
	RVV_VIA_KPROBE_SPAN,	/* a kprobe pair, @symbol+@offset..+@end */
	RVV_VIA_RETURNS,	/* kprobes on the @found returns of @symbol */
	RVV_VIA_SAVE_SITES,	/* before the @found saves in @symbol */
	RVV_VIA_NOP_SPAN,	/* a kprobe pair around one nop in rvvstat */
	RVV_VIA_EMPTY_CALL_SPAN, /* a kprobe pair around a call to an empty function */
	RVV_VIA_LOOP,		/* an in-module loop, @samples per CPU */
};

struct rvv_hook {
	enum rvv_hook_state state;
	enum rvv_hook_via via;
	const char *param;	/* OFF */
	const char *why;	/* NONE, FAILED: a static reason */
	int err;		/* FAILED: the errno, 0 if none */
	const char *symbol;
	const char *from;	/* ON: a span from this tracepoint to the hook */
	u32 offset, end;
	int datap;		/* KPROBE_SPAN: >= 0, the kind read at prev+datap */
	int found, expected;	/* sites found; FAILED: and expected (0: any) */
	int calls;		/* SAVE_SITES: of @found, calls to @callee */
	const char *callee;
	int samples;		/* LOOP: per CPU */
};

static inline void rvv_hook_off(struct rvv_hook *h, const char *param)
{
	*h = (struct rvv_hook){ .state = RVV_HOOK_OFF, .param = param };
}

static inline void rvv_hook_none(struct rvv_hook *h, const char *why)
{
	*h = (struct rvv_hook){ .state = RVV_HOOK_NONE, .why = why };
}

static inline void rvv_hook_failed(struct rvv_hook *h, const char *why,
				   int err)
{
	*h = (struct rvv_hook){ .state = RVV_HOOK_FAILED, .why = why, .err = err };
}

/* The hook in words, with no newline. */
void rvv_hook_show(struct seq_file *m, const struct rvv_hook *h);

#endif /* _RVVSTAT_HOOK_H */
