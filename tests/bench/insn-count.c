// SPDX-License-Identifier: GPL-2.0
/*
 * insn-count: a QEMU 7.2 TCG plugin that counts the instructions a guest
 * executes between the marks of tests/bench/insn-marks.h, split into user
 * space, the kernel and the kernel's module area (which also holds kprobe
 * detour buffers). make bench's cost part runs the guest under
 * -icount shift=0,sleep=off with it (tests/rig/boot-guest --plugin).
 *
 *   -plugin file=insn-count.so,out=FILE
 *
 * Appends one line to FILE as each window closes, flushed at once (QEMU may
 * be killed): "window SEQ USER KERNEL MODULE", SEQ counting from 0; a close
 * without an open writes "window SEQ unopened".
 *
 * Each translation block adds its instruction count to its area's counter
 * with an inline op (no call), and a window is the difference of the
 * counters between its marks. The counters are not per vCPU, so the plugin
 * refuses a guest with more than one.
 */
#include <stdio.h>
#include <string.h>

#include "insn-marks.h"
#include "qemu-plugin-7.2.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum area { USER, KERNEL, MODULES, NR_AREAS };

/* A guest architecture: its mark's encoding and its module area. */
struct target {
	const char *name;
	size_t mark_size;
	void (*encode)(enum insn_mark m, unsigned char *bytes);
	uint64_t modules_start, modules_end;
};

static void le32(uint32_t v, unsigned char *bytes)
{
	for (int i = 0; i < 4; i++)
		bytes[i] = v >> (8 * i);
}

static void encode_x86(enum insn_mark m, unsigned char *bytes)
{
	bytes[0] = 0x0f;	/* nopl disp32(%rax) */
	bytes[1] = 0x1f;
	bytes[2] = 0x80;
	le32(INSN_MARK_X86_DISP + m, bytes + 3);
}

static void encode_riscv(enum insn_mark m, unsigned char *bytes)
{
	le32(0x13 | (INSN_MARK_RISCV_IMM + m) << 20, bytes);	/* addi x0, x0, imm */
}

/* The module areas: arch/riscv's MODULES_VADDR..MODULES_END, x86's MODULES_VADDR..END. */
static const struct target targets[] = {
	{ "x86_64", 7, encode_x86, 0xffffffffc0000000ull, 0xffffffffff000000ull },
	{ "riscv64", 4, encode_riscv, 0xfffffffe80000000ull, 0xffffffff80000000ull },
};

static const struct target *target;
static unsigned char marks[NR_INSN_MARKS][8];
static uint64_t counts[NR_AREAS], opened[NR_AREAS];
static int window_open;
static unsigned int windows;
static FILE *out;

static const struct target *target_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(targets); i++)
		if (!strcmp(name, targets[i].name))
			return &targets[i];
	return NULL;
}

static enum area area_of(uint64_t vaddr)
{
	if (vaddr >= target->modules_start && vaddr < target->modules_end)
		return MODULES;
	return vaddr >> 63 ? KERNEL : USER;
}

static void on_mark(unsigned int vcpu, void *udata)
{
	enum insn_mark m = (enum insn_mark)(uintptr_t)udata;

	(void)vcpu;
	if (m == INSN_MARK_OPEN) {
		memcpy(opened, counts, sizeof(opened));
		window_open = 1;
		return;
	}
	if (!window_open) {
		fprintf(out, "window %u unopened\n", windows++);
	} else {
		fprintf(out, "window %u %llu %llu %llu\n", windows++,
			(unsigned long long)(counts[USER] - opened[USER]),
			(unsigned long long)(counts[KERNEL] - opened[KERNEL]),
			(unsigned long long)(counts[MODULES] - opened[MODULES]));
	}
	fflush(out);
	window_open = 0;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &counts[area_of(qemu_plugin_tb_vaddr(tb))], n);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (qemu_plugin_insn_size(insn) != target->mark_size)
			continue;
		for (uintptr_t m = 0; m < NR_INSN_MARKS; m++)
			if (!memcmp(qemu_plugin_insn_data(insn), marks[m], target->mark_size))
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
								       QEMU_PLUGIN_CB_NO_REGS,
								       (void *)m);
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;

	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4)) {
			fprintf(stderr, "insn-count: unknown argument %s (only out=FILE)\n",
				argv[i]);
			return -1;
		}
		path = argv[i] + 4;
	}
	if (!path || !*path) {
		fprintf(stderr, "insn-count: no out=FILE\n");
		return -1;
	}
	target = target_named(info->target_name);
	if (!target) {
		fprintf(stderr, "insn-count: target %s has no module area here\n",
			info->target_name);
		return -1;
	}
	if (!info->system_emulation || info->system.max_vcpus != 1) {
		fprintf(stderr,
			"insn-count: needs system emulation with one vCPU (-smp 1): its counters are not per vCPU\n");
		return -1;
	}
	for (int m = 0; m < NR_INSN_MARKS; m++)
		target->encode(m, marks[m]);
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
