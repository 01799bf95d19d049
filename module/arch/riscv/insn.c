// SPDX-License-Identifier: GPL-2.0
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>

#include "arch/riscv/insn.h"

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
#define RVV_OPCODE_LOAD		0x03U
#define RVV_OPCODE_STORE	0x23U
#define RVV_OPCODE_STORE_FP	0x27U
#define RVV_OPCODE_OP_IMM	0x13U
#define RVV_OPCODE_OP		0x33U
#define RVV_OPCODE_LUI		0x37U
#define RVV_OPCODE_AUIPC	0x17U
#define RVV_INSN_C_EBREAK	0x9002U
#define RVV_REG_RA		1
#define RVV_REG_SP		2
#define RVV_REG_A1		11	/* a call's second argument */
/* A save sequence interleaves an add between stores: allow some slack. */
#define RVV_SAVE_WINDOW		8
/* Instructions searched before and after a save for its csrs and csrc. */
#define RVV_SPAN_REACH		16
/* Instructions walked back from a save to where its base pointer comes from. */
#define RVV_TRACE_REACH		64

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

/* What the base tracer needs to know of an instruction. */
enum rvv_alu_op {
	RVV_ALU_NONE,	/* writes no integer register */
	RVV_ALU_OTHER,	/* writes rd in a way not followed */
	RVV_ALU_CALL,	/* a call: writes every caller-saved register */
	RVV_ALU_LUI,	/* rd = imm */
	RVV_ALU_ADDI,	/* rd = rs1 + imm */
	RVV_ALU_ADD,	/* rd = rs1 + rs2 */
	RVV_ALU_LD,	/* rd = *(u64 *)(rs1 + imm) */
};

struct rvv_alu {
	enum rvv_alu_op op;
	unsigned int rd, rs1, rs2;
	s32 imm;
};

/* ra, t0-t2, a0-a7, t3-t6: what a callee may change. */
#define RVV_CALLER_SAVED	0xf003fce2U

static struct rvv_alu rvv_alu_32(u32 w)
{
	struct rvv_alu a = {
		.op = RVV_ALU_OTHER, .rd = (w >> 7) & 31, .rs1 = (w >> 15) & 31,
		.rs2 = (w >> 20) & 31, .imm = (s32)w >> 20,
	};
	unsigned int funct3 = (w >> 12) & 7;

	switch (w & 0x7f) {
	case RVV_OPCODE_STORE:
	case RVV_OPCODE_STORE_FP:	/* and vector stores */
	case RVV_OPCODE_BRANCH:
		a.op = RVV_ALU_NONE;
		break;
	case RVV_OPCODE_JAL:
	case RVV_OPCODE_JALR:
		a.op = a.rd ? RVV_ALU_CALL : RVV_ALU_NONE;
		break;
	case RVV_OPCODE_LUI:
		a.op = RVV_ALU_LUI;
		a.imm = (s32)(w & 0xfffff000);
		break;
	case RVV_OPCODE_OP_IMM:
		if (funct3 == 0)
			a.op = RVV_ALU_ADDI;
		break;
	case RVV_OPCODE_OP:
		if (funct3 == 0 && !(w >> 25))
			a.op = RVV_ALU_ADD;
		break;
	case RVV_OPCODE_LOAD:
		if (funct3 == 3)
			a.op = RVV_ALU_LD;
		break;
	}
	/* Anything else with an rd field is taken to write it. */
	return a;
}

static struct rvv_alu rvv_alu_16(u32 w)
{
	struct rvv_alu a = { .op = RVV_ALU_OTHER, .rd = (w >> 7) & 31 };
	unsigned int rs2 = (w >> 2) & 31, low_rd = 8 + ((w >> 2) & 7);
	s32 imm = sign_extend32(((w >> 12) & 1) << 5 | rs2, 5);

	switch ((w & 3) << 3 | ((w >> 13) & 7)) {
	case 0x03:			/* c.ld */
		a.op = RVV_ALU_LD;
		a.rd = low_rd;
		a.rs1 = 8 + ((w >> 7) & 7);
		a.imm = ((w >> 10) & 7) << 3 | ((w >> 5) & 3) << 6;
		break;
	case 0x00 ... 0x02:		/* c.addi4spn, c.fld, c.lw */
	case 0x04:
		a.rd = low_rd;
		break;
	case 0x0c:			/* c.srli, c.and, c.sub, ... */
		a.rd = 8 + ((w >> 7) & 7);
		break;
	case 0x05 ... 0x07:		/* stores */
	case 0x0d ... 0x0f:		/* c.j, c.beqz, c.bnez */
	case 0x15 ... 0x17:		/* stores */
		a.op = RVV_ALU_NONE;
		break;
	case 0x08:			/* c.addi */
		a.op = RVV_ALU_ADDI;
		a.rs1 = a.rd;
		a.imm = imm;
		break;
	case 0x0a:			/* c.li */
		a.op = RVV_ALU_ADDI;
		a.imm = imm;
		break;
	case 0x0b:			/* c.lui, or c.addi16sp */
		if (a.rd != RVV_REG_SP) {
			a.op = RVV_ALU_LUI;
			a.imm = imm * 4096;
		}
		break;
	case 0x14:
		if (!((w >> 12) & 1)) {
			/* c.jr, or c.mv */
			a.op = rs2 ? RVV_ALU_ADDI : RVV_ALU_NONE;
			a.rs1 = rs2;
		} else if (!rs2) {
			/* c.ebreak, or c.jalr */
			a.op = a.rd ? RVV_ALU_CALL : RVV_ALU_NONE;
		} else {
			a.op = RVV_ALU_ADD;	/* c.add */
			a.rs1 = a.rd;
			a.rs2 = rs2;
		}
		break;
	}
	return a;
}

static struct rvv_alu rvv_alu_at(const u16 *code, size_t halves, size_t i)
{
	struct rvv_insn in = rvv_insn_at(code, halves, i);

	return in.len == 4 ? rvv_alu_32(in.word) : rvv_alu_16(in.word);
}

/* Whether @a may change register @reg (x0 never changes). */
static bool rvv_alu_writes(const struct rvv_alu *a, unsigned int reg)
{
	if (a->op == RVV_ALU_CALL)
		return RVV_CALLER_SAVED & BIT(reg);
	return reg && a->op != RVV_ALU_NONE && a->rd == reg;
}

/* Whether control never goes on from @in to the next instruction. */
static bool rvv_jumps_away(struct rvv_insn in)
{
	u32 w = in.word;

	if (in.len == 4)
		return ((w & 0x7f) == RVV_OPCODE_JAL ||
			(w & 0x7f) == RVV_OPCODE_JALR) && !((w >> 7) & 31);
	/* c.j; c.jr (funct4 8, rs2 0, rs1 not 0) */
	return ((w & 3) == 1 && ((w >> 13) & 7) == 5) ||
	       ((w & 3) == 2 && ((w >> 12) & 15) == 8 && !((w >> 2) & 31) &&
		((w >> 7) & 31));
}

/*
 * The one instruction control reaches halfword @at from: the one before it
 * if that goes on to it and nothing jumps there, else the only jump there.
 * False where paths join or none leads there.
 */
static bool rvv_pred(const u16 *code, size_t halves, size_t at, size_t *pred)
{
	struct rvv_insn in;
	int sources = 0;
	long target;
	size_t i;

	for (i = 0; i < halves; i += in.len / 2) {
		in = rvv_insn_at(code, halves, i);
		if ((i + in.len / 2 == at && !rvv_jumps_away(in)) ||
		    (rvv_control_flow(in, i * 2, &target) &&
		     target == (long)at * 2)) {
			sources++;
			*pred = i;
		}
	}
	return sources == 1;
}

/*
 * Walks back from halfword *@at to the last instruction that may write
 * @reg, on the one path that leads to it; false if paths join first or
 * *@steps runs out.
 */
static bool rvv_last_write(const u16 *code, size_t halves, size_t *at,
			   unsigned int reg, int *steps, struct rvv_alu *a)
{
	while ((*steps)-- > 0 && rvv_pred(code, halves, *at, at)) {
		*a = rvv_alu_at(code, halves, *at);
		if (rvv_alu_writes(a, reg))
			return true;
	}
	return false;
}

/* Whether @reg holds a constant (lui, li, addi) before halfword @at. */
static bool rvv_const_at(const u16 *code, size_t halves, size_t at,
			 unsigned int reg, int *steps, long *value)
{
	struct rvv_alu a;

	for (*value = 0; reg; reg = a.rs1) {
		if (!rvv_last_write(code, halves, &at, reg, steps, &a))
			return false;
		*value += a.imm;
		if (a.op == RVV_ALU_LUI)
			return true;
		if (a.op != RVV_ALU_ADDI)
			return false;
	}
	return true;
}

/*
 * Whether the base register @reg of the save at halfword @site was loaded
 * with ld, and from which offset to the pointer the code had before: the
 * address arithmetic (lui, li, addi, add of a constant) is followed back
 * along the one path to the save until a register is set any other way or
 * paths join. The struct the save writes to is the one whose datap lies
 * at that offset.
 */
static bool rvv_base_load(const u16 *code, size_t halves, size_t site,
			  unsigned int reg, s32 *offset)
{
	int steps = RVV_TRACE_REACH;
	long value, c;
	struct rvv_alu a;
	size_t at = site;

	*offset = 0;
	if (!rvv_last_write(code, halves, &at, reg, &steps, &a) ||
	    a.op != RVV_ALU_LD)
		return false;
	for (value = a.imm, reg = a.rs1; reg; value += c) {
		if (!rvv_last_write(code, halves, &at, reg, &steps, &a))
			break;	/* paths join: the pointer is what reg holds */
		c = a.imm;
		switch (a.op) {
		case RVV_ALU_ADDI:
			reg = a.rs1;
			continue;
		case RVV_ALU_LUI:
			return false;	/* an absolute address */
		case RVV_ALU_ADD:
			if (rvv_const_at(code, halves, at, a.rs2, &steps, &c))
				reg = a.rs1;
			else if (rvv_const_at(code, halves, at, a.rs1, &steps, &c))
				reg = a.rs2;
			else
				return false;	/* no constant offset */
			continue;
		default:
			break;
		}
		break;	/* loaded or computed otherwise: the pointer */
	}
	if (!reg || value < S32_MIN || value > S32_MAX)
		return false;
	*offset = value;
	return true;
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
			span.base_loaded = rvv_base_load(code, halves, i,
							 (in.word >> 15) & 31,
							 &span.base_offset);
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

/* The call that starts at halfword @i, if one does. */
static bool rvv_call_at(const u16 *code, size_t halves, size_t i,
			struct rvv_call *call)
{
	struct rvv_insn in = rvv_insn_at(code, halves, i), next;
	long target;

	if (in.len != 4 || ((in.word >> 7) & 31) != RVV_REG_RA)
		return false;
	if ((in.word & 0x7f) == RVV_OPCODE_JAL) {
		rvv_control_flow(in, i * 2, &target);
		*call = (struct rvv_call){ i * 2, i * 2 + 4, target };
		return true;
	}
	/* auipc ra, hi; jalr ra, lo(ra) */
	if ((in.word & 0x7f) != RVV_OPCODE_AUIPC || i + 2 >= halves)
		return false;
	next = rvv_insn_at(code, halves, i + 2);
	if (next.len != 4 || (next.word & 0x707f) != RVV_OPCODE_JALR ||
	    ((next.word >> 7) & 31) != RVV_REG_RA ||
	    ((next.word >> 15) & 31) != RVV_REG_RA)
		return false;
	target = (long)i * 2 + (s32)(in.word & 0xfffff000) +
		 ((s32)next.word >> 20);
	*call = (struct rvv_call){ i * 2, i * 2 + 8, target };
	return true;
}

bool rvv_next_call(const u16 *code, size_t bytes, u32 *pos,
		   struct rvv_call *call)
{
	size_t halves = bytes / 2, i;
	struct rvv_insn in;

	for (i = *pos / 2; i < halves; i += in.len / 2) {
		in = rvv_insn_at(code, halves, i);
		if (rvv_call_at(code, halves, i, call)) {
			*pos = call->ret;
			return true;
		}
	}
	*pos = bytes;
	return false;
}

int rvv_call_span(const u16 *code, size_t bytes, const struct rvv_call *call,
		  struct rvv_span *span)
{
	size_t halves = bytes / 2;

	if (call->ret >= bytes ||
	    rvv_is_system(rvv_insn_at(code, halves, call->ret / 2)))
		return -ENOENT;
	*span = (struct rvv_span){ .before = call->at, .after = call->ret };
	if (rvv_jumps_into(code, halves, span, 1))
		return -ENOENT;
	span->base_loaded = rvv_base_load(code, halves, call->at / 2,
					  RVV_REG_A1, &span->base_offset);
	return 0;
}

int rvv_first_simulated(const u16 *code, size_t bytes)
{
	size_t halves = bytes / 2, i;
	struct rvv_insn in;
	long target;

	for (i = 0; i < halves; i += in.len / 2) {
		in = rvv_insn_at(code, halves, i);
		if (i + in.len / 2 > halves)
			break;
		if (rvv_control_flow(in, i * 2, &target) ||
		    (in.len == 4 && (in.word & 0x7f) == RVV_OPCODE_AUIPC))
			return i * 2;
		/* ecall, ebreak, sret, wfi: control may not go on to the next. */
		if ((rvv_is_system(in) && !((in.word >> 12) & 7)) ||
		    (in.len == 2 && in.word == RVV_INSN_C_EBREAK))
			break;
	}
	return -ENOENT;
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
