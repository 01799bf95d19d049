// SPDX-License-Identifier: GPL-2.0
/* A hook in words: the one place that says how each source measures. */
#include "attach/hook.h"

static void rvv_hook_show_on(struct seq_file *m, const struct rvv_hook *h)
{
	if (h->from)
		seq_printf(m, "%s to ", h->from);
	switch (h->via) {
	case RVV_VIA_TRACEPOINT:
		seq_printf(m, "%s tracepoint", h->symbol);
		break;
	case RVV_VIA_KPROBE:
	case RVV_VIA_KPROBE_SIMULATED:
	case RVV_VIA_KPROBE_FTRACE:
		seq_printf(m, "kprobe %s+%#x", h->symbol, h->offset);
		if (h->via == RVV_VIA_KPROBE_SIMULATED)
			seq_puts(m, " (simulated: one trap)");
		else if (h->via == RVV_VIA_KPROBE_FTRACE)
			seq_puts(m, " (on ftrace: no trap)");
		break;
	case RVV_VIA_FTRACE:
		seq_printf(m, "ftrace callback on %s (no trap)", h->symbol);
		break;
	case RVV_VIA_KPROBE_SPAN:
		seq_printf(m, "kprobes %s+%#x..+%#x", h->symbol, h->offset, h->end);
		/* Shows what told the kind. */
		if (h->datap >= 0)
			seq_printf(m, ", buffer from the datap at prev+%d", h->datap);
		break;
	case RVV_VIA_RETURNS:
		seq_printf(m, "kprobes on the %d returns in %s", h->found, h->symbol);
		break;
	case RVV_VIA_SAVE_SITES:
		if (!h->calls)
			seq_printf(m, "kprobes before the %d inlined saves in %s",
				   h->found, h->symbol);
		else if (h->calls == h->found)
			seq_printf(m, "kprobes before the %d calls to %s in %s",
				   h->found, h->callee, h->symbol);
		else
			seq_printf(m, "kprobes before the %d saves in %s, %d of them calls to %s",
				   h->found, h->symbol, h->calls, h->callee);
		break;
	case RVV_VIA_NOP_SPAN:
		seq_puts(m, "kprobe pair around one nop in rvvstat, per CPU at load and calibrate");
		break;
	case RVV_VIA_EMPTY_CALL_SPAN:
		seq_puts(m, "kprobe pair around a call to an empty function in rvvstat, per CPU at load and calibrate");
		break;
	case RVV_VIA_LOOP:
		seq_printf(m, "in-module loop, %d samples per CPU at load and calibrate",
			   h->samples);
		break;
	}
}

void rvv_hook_show(struct seq_file *m, const struct rvv_hook *h)
{
	switch (h->state) {
	case RVV_HOOK_UNSET:
		seq_puts(m, "not measured by this backend");
		break;
	case RVV_HOOK_OFF:
		seq_printf(m, "off (module parameter %s=0)", h->param);
		break;
	case RVV_HOOK_NONE:
		seq_printf(m, "none: %s", h->why);
		break;
	case RVV_HOOK_FAILED:
		seq_puts(m, "unavailable: ");
		if (h->symbol)
			seq_printf(m, "%s: ", h->symbol);
		seq_puts(m, h->why);
		if (h->expected)
			seq_printf(m, " (%d found, expected %d)", h->found, h->expected);
		else if (h->found)
			seq_printf(m, " (%d found)", h->found);
		if (h->err)
			seq_printf(m, " (%d)", h->err);
		break;
	case RVV_HOOK_ON:
		rvv_hook_show_on(m, h);
		break;
	}
}
