// SPDX-License-Identifier: GPL-2.0
#include <linux/array_size.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86_KERNEL_IBT
#include <asm/cpufeature.h>
#include <asm/ibt.h>
#endif

#include "attach/ksym.h"
#include "arch/riscv/insn.h"

/* The patch slot at the start of a traced function (2 instructions). */
#define RVV_FTRACE_SLOT_BYTES	8

typedef unsigned long (*rvv_lookup_name_fn)(const char *name);

/*
 * Whether the function at @addr may be called through a pointer. Where the
 * CPU enforces IBT, the kernel sealed (poisoned the ENDBR of) every function
 * it never calls that way itself: calling one would fault.
 */
static bool rvv_indirect_callable(unsigned long addr)
{
#ifdef CONFIG_X86_KERNEL_IBT
	u32 insn;

	if (!cpu_feature_enabled(X86_FEATURE_IBT))
		return true;
	return !get_kernel_nofault(insn, (u32 *)addr) && insn == gen_endbr();
#else
	return true;
#endif
}

/*
 * kallsyms_lookup_name() is not exported; a kprobe resolves its address.
 * kp.addr is filled in before the safety checks, so it is valid even if the
 * registration is refused.
 */
unsigned long rvv_lookup_name(const char *name)
{
	static rvv_lookup_name_fn lookup;
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };

	if (!lookup) {
		if (!register_kprobe(&kp))
			unregister_kprobe(&kp);
		if (!kp.addr || !rvv_indirect_callable((unsigned long)kp.addr))
			return 0;
		lookup = (rvv_lookup_name_fn)kp.addr;
	}
	return lookup(name);
}

unsigned long rvv_lookup_function(const char *name)
{
	unsigned long addr = rvv_lookup_name(name);

	return addr && rvv_indirect_callable(addr) ? addr : 0;
}

int rvv_function_extent(const char *name, unsigned long *start,
			unsigned long *size)
{
	*start = rvv_lookup_name(name);
	if (!*start)
		return -ENOENT;
	return rvv_function_size(*start, size);
}

int rvv_function_size(unsigned long start, unsigned long *size)
{
	char buf[KSYM_SYMBOL_LEN];
	char *slash, *end;

	/* "name+0x0/0x650": the part after '/' is the size. */
	sprint_symbol(buf, start);
	slash = strrchr(buf, '/');
	if (!slash)
		return -ENOENT;
	end = strchrnul(slash, ' ');
	*end = '\0';
	return kstrtoul(slash + 1, 16, size) ? -ENOENT : 0;
}

int rvv_register_entry_kprobe(struct kprobe *kp)
{
	u32 flags = kp->flags;	/* register_kprobe() adds its own */
	int err;

	kp->offset = 0;
	err = register_kprobe(kp);
	if (err != -EINVAL)
		return err;
	kp->addr = NULL;
	kp->flags = flags;
	kp->offset = RVV_FTRACE_SLOT_BYTES;
	return register_kprobe(kp);
}

/*
 * x86: just past ftrace's call site, where a kprobe at the entry would sit
 * on ftrace. Arming that one patches its own site; arming one on ftrace
 * is an ftrace update, which walks every traceable function of the kernel.
 */
static int rvv_register_past_ftrace_kprobe(struct kprobe *kp)
{
#ifdef CONFIG_KPROBES_ON_FTRACE
	const struct kprobe asked = *kp;	/* register_kprobe() fills it in */
	unsigned long site;
	int err = rvv_register_entry_kprobe(kp);

	if (err || !(kp->flags & KPROBE_FLAG_FTRACE))
		return err;
	site = (unsigned long)kp->addr;
	unregister_kprobe(kp);
	*kp = asked;
	kp->offset = site + MCOUNT_INSN_SIZE - rvv_lookup_name(kp->symbol_name);
	if (!register_kprobe(kp))
		return 0;
	/* Refused there: on ftrace after all. */
	*kp = asked;
#endif
	return rvv_register_entry_kprobe(kp);
}

#ifdef CONFIG_OPTPROBES
void rvv_kprobe_keep_trap(struct kprobe *kp, struct pt_regs *regs,
			  unsigned long flags)
{
}
#endif

int rvv_register_cheap_entry_kprobe(struct kprobe *kp)
{
	/* Where the function's code starts: at once, or past ftrace's slot. */
	static const unsigned int entries[] = { 0, RVV_FTRACE_SLOT_BYTES };
	const struct kprobe asked = *kp;	/* register_kprobe() fills it in */
	unsigned long start, size;
	int i, off;

	if (IS_ENABLED(CONFIG_X86))
		return rvv_register_past_ftrace_kprobe(kp);
	if (!IS_ENABLED(CONFIG_RISCV) ||
	    rvv_function_extent(kp->symbol_name, &start, &size))
		return rvv_register_entry_kprobe(kp);
	for (i = 0; i < ARRAY_SIZE(entries) && entries[i] < size; i++) {
		off = rvv_first_simulated((const u16 *)(start + entries[i]),
					  size - entries[i]);
		if (off < 0)
			continue;
		kp->offset = entries[i] + off;
		if (!register_kprobe(kp))
			return 1;
		/* Refused there (ftrace's slot, kprobes' own checks). */
		*kp = asked;
	}
	return rvv_register_entry_kprobe(kp);
}

unsigned long rvv_kprobe_offset(const struct kprobe *kp)
{
	return (unsigned long)kp->addr - rvv_lookup_name(kp->symbol_name);
}
