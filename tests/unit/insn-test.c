// SPDX-License-Identifier: GPL-2.0
/*
 * The save-site scanner of module/arch/riscv/insn.c with cmocka, built for the
 * host (tests/unit/kshim stands in for the kernel headers it uses): on the
 * __schedule of each test kernel, which saves what (the offset of the datap
 * its buffer pointer is loaded from), and on hand-written code, the same
 * with the blocks the other way round and where the trace must stop.
 *
 * data/schedule-CONFIG.hex is the __schedule of that test kernel
 * (tests/rig/build-kernel CONFIG; Debian's 6.12.117, GCC 12), written by
 * tests/unit/dump-function. The datap offsets in the tests,
 * offsetof(struct task_struct, thread.vstate.datap) and
 * thread.kernel_vstate.datap, were compiled against the same kernel. When
 * the kernel config changes, dump again and update them.
 *
 * data/schedule-debian-7.2.13.hex and kernel_vector_begin-debian-7.2.13.hex,
 * from Debian's linux-binary-7.2.13+deb14-riscv64
 * (gcc 16, RISCV_ISA_XTHEADVECTOR), dumped with the addresses its booted
 * /proc/kallsyms gave: there the save is out of line, and the expected call
 * sites, targets and datap offsets were read off riscv64-linux-gnu-objdump.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/riscv/insn.h"

#define MAX_SPANS	6

/* Reads a hex dump into @code; its size in bytes. */
static size_t read_hex(const char *name, u16 *code, size_t max_bytes)
{
	char path[512];
	unsigned int byte;
	size_t bytes = 0;
	FILE *f;
	int c;

	snprintf(path, sizeof(path), "%s/%s", UNIT_DATA, name);
	f = fopen(path, "r");
	assert_non_null(f);
	while ((c = fgetc(f)) != EOF) {
		char pair[3] = { (char)c, 0, 0 };

		if (c == '\n')
			continue;
		pair[1] = (char)fgetc(f);
		assert_int_equal(1, sscanf(pair, "%2x", &byte));
		assert_true(bytes < max_bytes);
		((uint8_t *)code)[bytes++] = (uint8_t)byte;
	}
	fclose(f);
	return bytes;
}

struct want {
	uint32_t before, after;
	int32_t datap;	/* 0: no load found */
};

static void expect_spans(const u16 *code, size_t bytes,
			 const struct want *want, int nr)
{
	struct rvv_span spans[MAX_SPANS];
	int i;

	assert_int_equal(nr, rvv_find_save_spans(code, bytes, spans, MAX_SPANS));
	for (i = 0; i < nr; i++) {
		assert_int_equal(want[i].before, spans[i].before);
		assert_int_equal(want[i].after, spans[i].after);
		assert_int_equal(want[i].datap != 0, spans[i].base_loaded);
		assert_int_equal(want[i].datap, spans[i].base_offset);
	}
}

/* PREEMPT with preemptible kernel-mode V: the user save, then preempt-V. */
static void preempt_schedule(void **state)
{
	static u16 code[8192];
	static const struct want want[] = {
		{ 0x7f6, 0x846, 5272 },	/* thread.vstate.datap */
		{ 0x976, 0x9c0, 5328 },	/* thread.kernel_vstate.datap */
	};
	size_t bytes = read_hex("schedule-preempt.hex", code, sizeof(code));

	(void)state;
	expect_spans(code, bytes, want, 2);
}

/* PREEMPT_VOLUNTARY and ftrace, no preemptible kernel-mode V: one save. */
static void voluntary_ftrace_schedule(void **state)
{
	static u16 code[8192];
	static const struct want want[] = {
		{ 0x8aa, 0x8fa, 5184 },	/* thread.vstate.datap */
	};
	size_t bytes = read_hex("schedule-voluntary-ftrace.hex", code,
				sizeof(code));

	(void)state;
	expect_spans(code, bytes, want, 1);
}

/*
 * Hand-written code, assembled: the save as the kernel inlines it, with
 * its buffer pointer in a2 (li a4,1536; csrs sstatus,a4; csrr t1,vstart;
 * vsetvli; vse8.v v0/v8/v16/v24 with adds; csrc; sw zero,8(s4); ret), and
 * before it what sets a2 up.
 */
static const u16 save_block[] = {
	0x0713, 0x6000, 0x2073, 0x1007, 0x2373, 0x0080, 0x77d7, 0x0c30,
	0x0027, 0x0206, 0x963e, 0x0427, 0x0206, 0x963e, 0x0827, 0x0206,
	0x963e, 0x0c27, 0x0206, 0x3073, 0x1007, 0x2423, 0x000a, 0x8082,
};

/* The probe points of a save block at @at: before the li, at the sw. */
#define BLOCK_BEFORE(at)	(at)
#define BLOCK_AFTER(at)		((at) + 42)

struct piece {
	const u16 *code;
	size_t halves;
};

#define PIECE(a)	{ a, sizeof(a) / sizeof(*(a)) }

/* Each piece followed by a save block, into @code; the size in bytes. */
static size_t compose(u16 *code, const struct piece *pieces, int nr,
		      uint32_t *block_at)
{
	size_t halves = 0;
	int i;

	for (i = 0; i < nr; i++) {
		memcpy(code + halves, pieces[i].code, pieces[i].halves * 2);
		halves += pieces[i].halves;
		block_at[i] = halves * 2;
		memcpy(code + halves, save_block, sizeof(save_block));
		halves += sizeof(save_block) / 2;
	}
	return halves * 2;
}

/* Each piece (then a block) is one save whose buffer comes from @datap. */
static void expect_composed(const struct piece *pieces, const int32_t *datap,
			    int nr)
{
	struct want want[MAX_SPANS];
	uint32_t at[MAX_SPANS];
	u16 code[256];
	size_t bytes = compose(code, pieces, nr, at);
	int i;

	for (i = 0; i < nr; i++)
		want[i] = (struct want){ BLOCK_BEFORE(at[i]), BLOCK_AFTER(at[i]),
					 datap[i] };
	expect_spans(code, bytes, want, nr);
}

/*
 * The two saves of __schedule the other way round: the preempt-V one
 * first, as a branch on riscv_v_flags falls through to it.
 *	lui a5,0x1; add a3,s4,a5; lw a4,1128(a3); andi a2,a4,256
 *	bnez a2,1f; ld a2,1232(a3); <save>; 1: ld a2,1176(a3); <save>
 */
static void blocks_swapped(void **state)
{
	static const u16 head[] = {
		0x6785, 0x06b3, 0x00fa, 0xa703, 0x4686, 0x7613, 0x1007, 0xea1d,
		0xb603, 0x4d06,
	};
	static const u16 second[] = { 0xb603, 0x4986 };
	static const struct piece pieces[] = { PIECE(head), PIECE(second) };
	static const int32_t datap[] = { 5328, 5272 };

	(void)state;
	expect_composed(pieces, datap, 2);
}

/* Where the trace stops, and what it found by then. */
static void trace_limits(void **state)
{
	/* mv a2,a0: not loaded. */
	static const u16 not_loaded[] = { 0x862a };
	/*
	 * beqz a0,1f; addi a3,s4,64; j 2f; 1: addi a3,s5,128; 2: ld a2,40(a3):
	 * two paths meet before the ld, the offset counts from there.
	 */
	static const u16 joined[] = {
		0xc501, 0x0693, 0x040a, 0xa019, 0x8693, 0x080a, 0x7690,
	};
	/* add a3,s4,s5; ld a2,40(a3): no constant offset. */
	static const u16 two_unknowns[] = { 0x06b3, 0x015a, 0x7690 };
	/*
	 * addi s1,s4,2000; call f; mv a5,s1; addi a5,a5,16; ld a2,8(a5):
	 * compressed forms, and a call that keeps s1.
	 */
	static const u16 compressed[] = {
		0x0493, 0x7d0a, 0x0097, 0x0000, 0x80e7, 0x0000, 0x87a6, 0x07c1,
		0x6790,
	};
	/* addi a3,s4,2000; call f; ld a2,8(a3): the call changed a3. */
	static const u16 clobbered[] = {
		0x0693, 0x7d0a, 0x0097, 0x0000, 0x80e7, 0x0000, 0x6690,
	};
	static const struct {
		struct piece piece;
		int32_t datap;
	} cases[] = {
		{ PIECE(not_loaded), 0 }, { PIECE(joined), 40 },
		{ PIECE(two_unknowns), 0 }, { PIECE(compressed), 2024 },
		{ PIECE(clobbered), 8 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		expect_composed(&cases[i].piece, &cases[i].datap, 1);
}

/* Where an entry probe costs one trap: the first simulated instruction. */
static void first_simulated(void **state)
{
	/*
	 * finish_task_switch.isra.0 of the preempt kernel: 12 compressed
	 * stack stores and moves, lw a4,32(tp), then auipc at 0x1c.
	 */
	static const u16 finish[] = {
		0x715d, 0xe0a2, 0xf84a, 0xf052, 0xe486, 0xfc26, 0xf44e, 0xec56,
		0xe85a, 0xe45e, 0xe062, 0x0880, 0x2703, 0x0202, 0x8797, 0x010d,
	};
	/* addi sp,sp,-16; beqz a0,1f: a compressed branch. */
	static const u16 branch[] = { 0x1141, 0xc501 };
	/* addiw a0,a0,1 (rv32's c.jal encoding; no jump on rv64); ret */
	static const u16 addiw[] = { 0x2505, 0x8082 };
	/* addi sp,sp,-16; ecall; auipc a5,0: control may leave before it. */
	static const u16 ecall[] = { 0x1141, 0x0073, 0x0000, 0x0797, 0x0000 };
	/* addi sp,sp,-16; the first half of an auipc: nothing whole. */
	static const u16 cut[] = { 0x1141, 0x8797 };

	(void)state;
	assert_int_equal(0x1c, rvv_first_simulated(finish, sizeof(finish)));
	assert_int_equal(2, rvv_first_simulated(branch, sizeof(branch)));
	assert_int_equal(2, rvv_first_simulated(addiw, sizeof(addiw)));
	assert_int_equal(-ENOENT, rvv_first_simulated(ecall, sizeof(ecall)));
	assert_int_equal(-ENOENT, rvv_first_simulated(cut, sizeof(cut)));
}

/* The calls in @code to the function at byte offset @target, as spans. */
static int save_calls(const u16 *code, size_t bytes, long target,
		      struct rvv_span *spans)
{
	struct rvv_call call;
	int calls = 0, n = 0;
	u32 pos = 0;

	while (rvv_next_call(code, bytes, &pos, &call)) {
		calls++;
		if (call.target != target)
			continue;
		assert_true(n < MAX_SPANS);
		assert_int_equal(0, rvv_call_span(code, bytes, &call, &spans[n++]));
	}
	assert_true(calls > n);	/* they call other functions too */
	return n;
}

static void expect_calls(const char *hex, long target, const struct want *want,
			 int nr)
{
	static u16 code[8192];
	struct rvv_span spans[MAX_SPANS];
	size_t bytes = read_hex(hex, code, sizeof(code));
	int i;

	/* No inlined save in these. */
	assert_int_equal(0, rvv_find_save_spans(code, bytes, spans, MAX_SPANS));
	assert_int_equal(nr, save_calls(code, bytes, target, spans));
	for (i = 0; i < nr; i++) {
		assert_int_equal(want[i].before, spans[i].before);
		assert_int_equal(want[i].after, spans[i].after);
		assert_int_equal(want[i].datap != 0, spans[i].base_loaded);
		if (want[i].datap)
			assert_int_equal(want[i].datap, spans[i].base_offset);
	}
}

/*
 * Debian's 7.2.13: __schedule calls its copy of __riscv_v_vstate_save
 * (at -0xd4b898) for the user state, then the preempt-V state, each with
 * a1 = the datap it loads from prev.
 */
static void debian_7_2_schedule(void **state)
{
	static const struct want want[] = {
		{ 0xb78, 0xb80, 0x1038 },	/* thread.vstate.datap */
		{ 0xc62, 0xc6a, 0x1070 },	/* thread.kernel_vstate.datap */
	};

	(void)state;
	expect_calls("schedule-debian-7.2.13.hex", -0xd4b898, want, 2);
}

/* Its kernel_vector_begin calls the other copy (at -0x1f8) three times. */
static void debian_7_2_kernel_vector_begin(void **state)
{
	static const struct want want[] = {
		{ 0x1a2, 0x1aa, 0x1038 },	/* from the task in a3 */
		{ 0x204, 0x20c, 0x1038 },	/* from current (tp) */
		{ 0x21a, 0x222, 0x1070 },	/* kernel_vstate.datap, nested */
	};

	(void)state;
	expect_calls("kernel_vector_begin-debian-7.2.13.hex", -0x1f8, want, 3);
}

/* Both call forms, and where no probe may sit at the return. */
static void call_forms(void **state)
{
	/*
	 * 0: jal ra,+18; 4: nop; 8: auipc ra,0; c: jalr ra,-8(ra); 10: ret;
	 * 12: auipc a5,0 (not ra); 16: jalr ra,0(a5): no direct call.
	 */
	static const u16 code[] = {
		0x00ef, 0x0120, 0x0013, 0x0000, 0x0097, 0x0000, 0x80e7, 0xff80,
		0x8082, 0x0797, 0x0000, 0x80e7, 0x0007,
	};
	/* auipc ra,0; jalr ra,0(ra); csrr a0,sstatus: a CSR at the return. */
	static const u16 to_csr[] = {
		0x0097, 0x0000, 0x80e7, 0x0000, 0x2573, 0x1000,
	};
	/* beqz a0,+8 (into the call); auipc ra,0; jalr ra,0(ra); ret */
	static const u16 jumped_into[] = {
		0xc501, 0x0097, 0x0000, 0x80e7, 0x0000, 0x8082,
	};
	struct rvv_call calls[3];
	struct rvv_span span;
	u32 pos = 0;

	(void)state;
	assert_true(rvv_next_call(code, sizeof(code), &pos, &calls[0]));
	assert_true(rvv_next_call(code, sizeof(code), &pos, &calls[1]));
	assert_false(rvv_next_call(code, sizeof(code), &pos, &calls[2]));
	assert_int_equal(0, calls[0].at);
	assert_int_equal(4, calls[0].ret);
	assert_int_equal(18, calls[0].target);
	assert_int_equal(8, calls[1].at);
	assert_int_equal(16, calls[1].ret);
	assert_int_equal(0, calls[1].target);
	assert_int_equal(0, rvv_call_span(code, sizeof(code), &calls[1], &span));
	assert_int_equal(8, span.before);
	assert_int_equal(16, span.after);

	pos = 0;
	assert_true(rvv_next_call(to_csr, sizeof(to_csr), &pos, calls));
	assert_int_equal(-ENOENT, rvv_call_span(to_csr, sizeof(to_csr), calls, &span));
	/* A call that is the last instruction has nothing to return to. */
	pos = 0;
	assert_true(rvv_next_call(to_csr, 8, &pos, calls));
	assert_int_equal(-ENOENT, rvv_call_span(to_csr, 8, calls, &span));
	pos = 0;
	assert_true(rvv_next_call(jumped_into, sizeof(jumped_into), &pos, calls));
	assert_int_equal(2, calls[0].at);
	assert_int_equal(-ENOENT, rvv_call_span(jumped_into, sizeof(jumped_into),
						calls, &span));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(preempt_schedule),
		cmocka_unit_test(voluntary_ftrace_schedule),
		cmocka_unit_test(blocks_swapped),
		cmocka_unit_test(trace_limits),
		cmocka_unit_test(first_simulated),
		cmocka_unit_test(debian_7_2_schedule),
		cmocka_unit_test(debian_7_2_kernel_vector_begin),
		cmocka_unit_test(call_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
