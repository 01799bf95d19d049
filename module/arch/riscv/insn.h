/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure RISC-V code scanning (no kernel state), to find the inlined vector
 * save sequence, the return instructions and the cheapest entry probe point
 * of a function at load time.
 */
#ifndef _RVVSTAT_RISCV_INSN_H
#define _RVVSTAT_RISCV_INSN_H

#include <linux/types.h>

/*
 * Probe points around one inlined save: @before is the last instruction
 * before the csrs that enables V, @after the first one after the csrc that
 * disables it. Straight-line code between them, and no jump lands inside.
 * If @base_loaded, the save's buffer pointer was loaded from @base_offset
 * bytes into an object the code points at (found by following the address
 * arithmetic back): the datap of the state being saved.
 */
struct rvv_span {
	u32 before;
	u32 after;
	bool base_loaded;
	s32 base_offset;
};

/*
 * Spans around each vector save sequence in @code: vse8.v of v0, v8, v16
 * and v24 in that order on one base register, as __riscv_v_vstate_save()
 * emits them. Returns how many sequences there are (at most @max spans are
 * written), or -ENOENT if one of them has no such span.
 */
int rvv_find_save_spans(const u16 *code, size_t bytes, struct rvv_span *spans,
			int max);

/*
 * A direct call in @code: @at is the byte offset of its first instruction
 * (auipc ra; jalr ra, or jal ra), @ret of the one it returns to, @target
 * the byte offset from @code it calls, which may lie outside @code.
 */
struct rvv_call {
	u32 at;
	u32 ret;
	long target;
};

/*
 * The first direct call in @code at or after byte offset *@pos, which then
 * moves past it; false when there is none left.
 */
bool rvv_next_call(const u16 *code, size_t bytes, u32 *pos,
		   struct rvv_call *call);
/*
 * The span of a call to an out-of-line save, __riscv_v_vstate_save(state,
 * datap): from the call to where it returns, with the datap argument (a1)
 * traced back as rvv_find_save_spans() traces a save's base. -ENOENT if no
 * probe may sit at its ends or a jump lands inside.
 */
int rvv_call_span(const u16 *code, size_t bytes, const struct rvv_call *call,
		  struct rvv_span *span);
/*
 * Byte offset of the first instruction in @code that kprobes simulate
 * (a branch, a jump or auipc) rather than single-step, with control falling
 * through every instruction before it; -ENOENT if there is none. A probe
 * there fires on every call, as one at @code would, for one trap, not two.
 */
int rvv_first_simulated(const u16 *code, size_t bytes);
/* Offsets of every ret (jalr x0, 0(ra) or c.jr ra) in @code. */
int rvv_find_returns(const u16 *code, size_t bytes, u32 *offsets, int max);

#endif /* _RVVSTAT_RISCV_INSN_H */
