/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure RISC-V code scanning (no kernel state), to find the inlined vector
 * save sequence and the return instructions of a function at load time.
 */
#ifndef _RVVSTAT_RISCV_INSN_H
#define _RVVSTAT_RISCV_INSN_H

#include <linux/types.h>

/*
 * Offsets of the first store of each vector save sequence in @code: vse8.v
 * of v0, v8, v16 and v24 in that order on one base register, as
 * __riscv_v_vstate_save() emits them. Returns how many were found; at most
 * @max offsets are written.
 */
int rvv_find_save_sites(const u16 *code, size_t bytes, u32 *offsets, int max);
/* Offsets of every ret (jalr x0, 0(ra) or c.jr ra) in @code. */
int rvv_find_returns(const u16 *code, size_t bytes, u32 *offsets, int max);

#endif /* _RVVSTAT_RISCV_INSN_H */
