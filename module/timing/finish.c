// SPDX-License-Identifier: GPL-2.0
/*
 * The finish hook: a call at the entry of finish_task_switch(), on the
 * cheapest route this kernel offers, tried in this order:
 * - ftrace: a function-trace callback at its entry (kernels with dynamic
 *   ftrace): a call through ftrace's trampoline, no trap;
 * - kprobe: on riscv, on the first instruction of its entry block that
 *   kprobes simulate (one trap), else at the entry (two traps); on x86
 *   just past ftrace's call site (a breakpoint, never optimized).
 * Except on a preemptible kernel whose kprobes do not sit on ftrace (riscv
 * 7.x): there taking a module's ftrace callback out waits for an RCU-tasks
 * grace period, as a task may be preempted on the trampoline; the windows
 * disarm the hook many times a minute, and under load one such wait held
 * them up for seconds. A kprobe's disarm only patches the text: it goes
 * first there. So it does on x86, where each arm or disarm of an ftrace
 * callback is an ftrace update that walks every traceable function (some
 * 5 million instructions on Debian's kernel), twice a window.
 * The compiler may have renamed the function; each route tries each name.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/string.h>

#include "timing/finish.h"
#include "attach/ksym.h"

struct rvv_finish_route {
	/* Registers the hook on @name, disarmed; says where in @hook. */
	int (*attach)(const char *name, struct rvv_hook *hook);
	int (*arm)(void);
	void (*disarm)(void);
	void (*detach)(void);
};

static const char *const rvv_finish_names[] = {
	"finish_task_switch.isra.0", "finish_task_switch",
	"finish_task_switch.constprop.0", "finish_task_switch.part.0",
};

static void (*rvv_finish_fn)(void) __read_mostly;
static const struct rvv_finish_route *rvv_finish_route;

#ifdef CONFIG_DYNAMIC_FTRACE
/* ftrace's recursion guard runs around it (no FTRACE_OPS_FL_RECURSION). */
static void rvv_finish_ftrace_call(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op,
				   struct ftrace_regs *fregs)
{
	rvv_finish_fn();
}

static struct ftrace_ops rvv_finish_ops = {
	.func = rvv_finish_ftrace_call,
};

static int rvv_finish_ftrace_attach(const char *name, struct rvv_hook *hook)
{
	unsigned long addr = rvv_lookup_name(name);
	int err;

	if (!addr)
		return -ENOENT;
	/* -EINVAL: not traceable (no ftrace call site there). */
	err = ftrace_set_filter_ip(&rvv_finish_ops, addr, 0, 1);
	if (err)
		return err;
	hook->via = RVV_VIA_FTRACE;
	hook->symbol = name;
	return 0;
}

static int rvv_finish_ftrace_arm(void)
{
	return register_ftrace_function(&rvv_finish_ops);
}

/* Returns once no CPU can be in the callback. */
static void rvv_finish_ftrace_disarm(void)
{
	unregister_ftrace_function(&rvv_finish_ops);
}

static void rvv_finish_ftrace_detach(void)
{
	ftrace_free_filter(&rvv_finish_ops);
}

static const struct rvv_finish_route rvv_finish_ftrace = {
	.attach = rvv_finish_ftrace_attach,
	.arm = rvv_finish_ftrace_arm,
	.disarm = rvv_finish_ftrace_disarm,
	.detach = rvv_finish_ftrace_detach,
};
#endif /* CONFIG_DYNAMIC_FTRACE */

static struct kprobe rvv_finish_kp;

static int rvv_finish_kprobe_call(struct kprobe *kp, struct pt_regs *regs)
{
	rvv_finish_fn();
	return 0;
}

static int rvv_finish_kprobe_attach(const char *name, struct rvv_hook *hook)
{
	int cheap;

	memset(&rvv_finish_kp, 0, sizeof(rvv_finish_kp));
	rvv_finish_kp.symbol_name = name;
	rvv_finish_kp.pre_handler = rvv_finish_kprobe_call;
	rvv_finish_kp.post_handler = rvv_kprobe_keep_trap;
	rvv_finish_kp.flags = KPROBE_FLAG_DISABLED;
	cheap = rvv_register_cheap_entry_kprobe(&rvv_finish_kp);
	if (cheap < 0)
		return cheap;
	hook->via = cheap ? RVV_VIA_KPROBE_SIMULATED :
		    rvv_finish_kp.flags & KPROBE_FLAG_FTRACE ?
		    RVV_VIA_KPROBE_FTRACE : RVV_VIA_KPROBE;
	hook->symbol = name;
	hook->offset = rvv_kprobe_offset(&rvv_finish_kp);
	return 0;
}

static int rvv_finish_kprobe_arm(void)
{
	return enable_kprobe(&rvv_finish_kp);
}

static void rvv_finish_kprobe_disarm(void)
{
	disable_kprobe(&rvv_finish_kp);
}

static void rvv_finish_kprobe_detach(void)
{
	unregister_kprobe(&rvv_finish_kp);
}

static const struct rvv_finish_route rvv_finish_kprobe = {
	.attach = rvv_finish_kprobe_attach,
	.arm = rvv_finish_kprobe_arm,
	.disarm = rvv_finish_kprobe_disarm,
	.detach = rvv_finish_kprobe_detach,
};

#if (defined(CONFIG_PREEMPTION) && !defined(CONFIG_KPROBES_ON_FTRACE)) || \
	defined(CONFIG_X86)
#define RVV_FTRACE_ARMING_DEAR	1
#else
#define RVV_FTRACE_ARMING_DEAR	0
#endif

/* Cheapest first, but for a disarm that waits or walks (above). */
static const struct rvv_finish_route *const rvv_finish_routes[] = {
#if defined(CONFIG_DYNAMIC_FTRACE) && !RVV_FTRACE_ARMING_DEAR
	&rvv_finish_ftrace,
#endif
	&rvv_finish_kprobe,
#if defined(CONFIG_DYNAMIC_FTRACE) && RVV_FTRACE_ARMING_DEAR
	&rvv_finish_ftrace,
#endif
};

int rvv_finish_attach(void (*fn)(void), struct rvv_hook *hook)
{
	int err = -ENOENT;
	int r, i;

	rvv_finish_fn = fn;
	for (r = 0; r < ARRAY_SIZE(rvv_finish_routes); r++) {
		for (i = 0; i < ARRAY_SIZE(rvv_finish_names); i++) {
			err = rvv_finish_routes[r]->attach(rvv_finish_names[i],
							   hook);
			if (!err) {
				hook->state = RVV_HOOK_ON;
				rvv_finish_route = rvv_finish_routes[r];
				return 0;
			}
		}
	}
	return err;
}

int rvv_finish_arm(void)
{
	return rvv_finish_route->arm();
}

void rvv_finish_disarm(void)
{
	rvv_finish_route->disarm();
}

void rvv_finish_detach(void)
{
	if (!rvv_finish_route)
		return;
	rvv_finish_route->detach();
	rvv_finish_route = NULL;
}

bool rvv_finish_attached(void)
{
	return rvv_finish_route;
}
