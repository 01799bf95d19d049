// SPDX-License-Identifier: GPL-2.0
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/minmax.h>

#include "riscv-insn.h"

#define RVV_INSN_VSE8_MASK	0xfff0707fU	/* keeps all but rs1 and vs3 */
#define RVV_INSN_VSE8		0x02000027U	/* unit-stride, unmasked, e8 */
#define RVV_INSN_RET		0x00008067U	/* jalr x0, 0(ra) */
#define RVV_INSN_C_RET		0x8082U		/* c.jr ra */
#define RVV_INSN_CSR_MASK	0xfff07fffU	/* keeps csr, funct3, rd, opcode */
#define RVV_INSN_CSRS_SSTATUS	0x10002073U	/* csrs sstatus, rs1 */
#define RVV_INSN_CSRC_SSTATUS	0x10003073U	/* csrc sstatus, rs1 */
#define RVV_OPCODE_SYSTEM	0x73U
#define RVV_OPCODE_BRANCH	0x63U
#define RVV_OPCODE_JAL		0x6fU
#define RVV_OPCODE_JALR		0x67U
/* A save sequence interleaves an add between stores: allow some slack. */
#define RVV_SAVE_WINDOW		8
/* Instructions searched before and after a save for its csrs and csrc. */
#define RVV_SPAN_REACH		16

struct rvv_insn {
	u32 word;
	unsigned int len;
};

/* Decodes the instruction at halfword @i; the length comes from the low bits. */
static struct rvv_insn rvv_insn_at(const u16 *code, size_t halves, size_t i)
{
	struct rvv_insn in = { .word = code[i], .len = 2 };

	if ((code[i] & 3) == 3) {
		in.len = 4;
		in.word |= i + 1 < halves ? (u32)code[i + 1] << 16 : 0;
	}
	return in;
}

static bool rvv_is_vse8(u32 word, unsigned int vreg, unsigned int base)
{
	return (word & RVV_INSN_VSE8_MASK) == RVV_INSN_VSE8 &&
	       ((word >> 7) & 31) == vreg && ((word >> 15) & 31) == base;
}

/* Whether v8, v16, v24 follow the v0 store at halfword @i on base @base. */
static bool rvv_save_sequence_at(const u16 *code, size_t halves, size_t i,
				 unsigned int base)
{
	unsigned int want = 8, seen = 0;
	struct rvv_insn in = rvv_insn_at(code, halves, i);

	for (i += in.len / 2; i < halves && seen < RVV_SAVE_WINDOW && want <= 24;
	     i += in.len / 2, seen++) {
		in = rvv_insn_at(code, halves, i);
		if (in.len == 4 && rvv_is_vse8(in.word, want, base))
			want += 8;
	}
	return want > 24;
}

/* Whether @in, at halfword @i, stores v0 and starts a save sequence. */
static bool rvv_save_site_at(const u16 *code, size_t halves, size_t i,
			     struct rvv_insn in)
{
	unsigned int base = (in.word >> 15) & 31;

	return in.len == 4 && rvv_is_vse8(in.word, 0, base) &&
	       rvv_save_sequence_at(code, halves, i, base);
}

static bool rvv_is_csr_op(struct rvv_insn in, u32 op)
{
	return in.len == 4 && (in.word & RVV_INSN_CSR_MASK) == op;
}

/* SYSTEM instructions (CSR accesses, ecall, ...) cannot be kprobed. */
static bool rvv_is_system(struct rvv_insn in)
{
	return in.len == 4 && (in.word & 0x7f) == RVV_OPCODE_SYSTEM;
}

/*
 * Whether @in, at byte offset @pc, may transfer control; *target is where
 * to (a byte offset), or -1 when it is not encoded in the instruction.
 */
static bool rvv_control_flow(struct rvv_insn in, long pc, long *target)
{
	u32 w = in.word;
	u32 imm;

	*target = -1;
	if (in.len == 4) {
		switch (w & 0x7f) {
		case RVV_OPCODE_BRANCH:
			imm = ((w >> 31) & 1) << 12 | ((w >> 7) & 1) << 11 |
			      ((w >> 25) & 0x3f) << 5 | ((w >> 8) & 0xf) << 1;
			*target = pc + sign_extend32(imm, 12);
			return true;
		case RVV_OPCODE_JAL:
			imm = ((w >> 31) & 1) << 20 | ((w >> 12) & 0xff) << 12 |
			      ((w >> 20) & 1) << 11 | ((w >> 21) & 0x3ff) << 1;
			*target = pc + sign_extend32(imm, 20);
			return true;
		case RVV_OPCODE_JALR:
			return true;
		}
		return false;
	}
	/* Quadrant 1: c.j (funct3 5), c.beqz (6), c.bnez (7). */
	if ((w & 3) == 1 && ((w >> 13) & 7) == 5) {
		imm = ((w >> 12) & 1) << 11 | ((w >> 11) & 1) << 4 |
		      ((w >> 9) & 3) << 8 | ((w >> 8) & 1) << 10 |
		      ((w >> 7) & 1) << 6 | ((w >> 6) & 1) << 7 |
		      ((w >> 3) & 7) << 1 | ((w >> 2) & 1) << 5;
		*target = pc + sign_extend32(imm, 11);
		return true;
	}
	if ((w & 3) == 1 && ((w >> 13) & 7) >= 6) {
		imm = ((w >> 12) & 1) << 8 | ((w >> 10) & 3) << 3 |
		      ((w >> 5) & 3) << 6 | ((w >> 3) & 3) << 1 |
		      ((w >> 2) & 1) << 5;
		*target = pc + sign_extend32(imm, 8);
		return true;
	}
	/* Quadrant 2, funct3 4, rs2 0, rs1 not 0: c.jr and c.jalr. */
	return (w & 3) == 2 && ((w >> 13) & 7) == 4 && !((w >> 2) & 31) &&
	       ((w >> 7) & 31);
}

/*
 * The span around the save at halfword @site; @recent holds the halfword
 * indices of the instructions before it, the newest at (@nr_recent - 1).
 */
static bool rvv_span_around(const u16 *code, size_t halves, size_t site,
			    const size_t *recent, size_t nr_recent,
			    struct rvv_span *span)
{
	size_t k, at, before = 0, after = 0;
	struct rvv_insn in;
	bool found = false;
	long target;

	for (k = 1; k < min_t(size_t, nr_recent, RVV_SPAN_REACH) && !found; k++) {
		in = rvv_insn_at(code, halves, recent[(nr_recent - k) % RVV_SPAN_REACH]);
		found = rvv_is_csr_op(in, RVV_INSN_CSRS_SSTATUS);
		before = recent[(nr_recent - k - 1) % RVV_SPAN_REACH];
	}
	if (!found || rvv_is_system(rvv_insn_at(code, halves, before)))
		return false;
	found = false;
	for (at = site, k = 0; at < halves && k < RVV_SPAN_REACH && !found;
	     at += in.len / 2, k++) {
		in = rvv_insn_at(code, halves, at);
		found = rvv_is_csr_op(in, RVV_INSN_CSRC_SSTATUS);
		after = at + in.len / 2;
	}
	if (!found || after >= halves ||
	    rvv_is_system(rvv_insn_at(code, halves, after)))
		return false;
	for (at = before; at < after; at += in.len / 2) {
		in = rvv_insn_at(code, halves, at);
		if (rvv_control_flow(in, at * 2, &target))
			return false;
	}
	span->before = before * 2;
	span->after = after * 2;
	return true;
}

/* Whether any jump in @code lands after a span's first probe point. */
static bool rvv_jumps_into(const u16 *code, size_t halves,
			   const struct rvv_span *spans, int nr)
{
	struct rvv_insn in;
	long target;
	size_t i;
	int s;

	for (i = 0; i < halves; i += in.len / 2) {
		in = rvv_insn_at(code, halves, i);
		if (!rvv_control_flow(in, i * 2, &target) || target < 0)
			continue;
		for (s = 0; s < nr; s++)
			if (target > spans[s].before && target <= spans[s].after)
				return true;
	}
	return false;
}

int rvv_find_save_spans(const u16 *code, size_t bytes, struct rvv_span *spans,
			int max)
{
	size_t halves = bytes / 2, recent[RVV_SPAN_REACH], nr_recent = 0, i;
	struct rvv_span span;
	struct rvv_insn in;
	int found = 0;

	for (i = 0; i < halves; i += in.len / 2) {
		in = rvv_insn_at(code, halves, i);
		if (rvv_save_site_at(code, halves, i, in)) {
			if (!rvv_span_around(code, halves, i, recent, nr_recent,
					     &span))
				return -ENOENT;
			if (found < max)
				spans[found] = span;
			found++;
		}
		recent[nr_recent++ % RVV_SPAN_REACH] = i;
	}
	if (rvv_jumps_into(code, halves, spans, min(found, max)))
		return -ENOENT;
	return found;
}

int rvv_find_returns(const u16 *code, size_t bytes, u32 *offsets, int max)
{
	size_t halves = bytes / 2, i;
	struct rvv_insn in;
	int found = 0;

	for (i = 0; i < halves; i += in.len / 2) {
		in = rvv_insn_at(code, halves, i);
		if ((in.len == 4 && in.word == RVV_INSN_RET) ||
		    (in.len == 2 && in.word == RVV_INSN_C_RET)) {
			if (found < max)
				offsets[found] = i * 2;
			found++;
		}
	}
	return found;
}
