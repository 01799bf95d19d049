// SPDX-License-Identifier: GPL-2.0
#include "riscv-insn.h"

#define RVV_INSN_VSE8_MASK	0xfff0707fU	/* keeps all but rs1 and vs3 */
#define RVV_INSN_VSE8		0x02000027U	/* unit-stride, unmasked, e8 */
#define RVV_INSN_RET		0x00008067U	/* jalr x0, 0(ra) */
#define RVV_INSN_C_RET		0x8082U		/* c.jr ra */
/* A save sequence interleaves an add between stores: allow some slack. */
#define RVV_SAVE_WINDOW		8

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

int rvv_find_save_sites(const u16 *code, size_t bytes, u32 *offsets, int max)
{
	size_t halves = bytes / 2, i;
	struct rvv_insn in;
	int found = 0;

	for (i = 0; i < halves; i += in.len / 2) {
		unsigned int base;

		in = rvv_insn_at(code, halves, i);
		if (in.len != 4)
			continue;
		base = (in.word >> 15) & 31;
		if (!rvv_is_vse8(in.word, 0, base) ||
		    !rvv_save_sequence_at(code, halves, i, base))
			continue;
		if (found < max)
			offsets[found] = i * 2;
		found++;
	}
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
