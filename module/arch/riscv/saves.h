/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vector saves, inlined or calls, found for the spans that count and
 * time them (see saves.c and timing/spans.c).
 */
#ifndef _RVVSTAT_RISCV_SAVES_H
#define _RVVSTAT_RISCV_SAVES_H

#include <linux/types.h>

#include "arch/arch.h"

/*
 * Finds the sites; a host whose code does not match gets none. Kernel-V
 * saves are always counted, switch saves if @verify; about 1 in
 * @sample_every saves is timed (0: none). -EOPNOTSUPP if @verify and
 * __schedule has no sites.
 */
int rvv_saves_init(bool verify, unsigned int sample_every);
/* Registers the probes; timing stays disarmed until the windows arm it. */
void rvv_saves_start(void);
void rvv_saves_stop(void);

bool rvv_saves_kernel_v_counted(void);
bool rvv_saves_switch_counted(void);
/* The two counting sources, for rvv_arch_sources(); returns 2. */
int rvv_saves_sources(struct rvv_arch_source *out);
/* stretch.S: two probe points with only a nop between them. */
void rvv_empty_stretch(void);
/* The second probe point, inside rvv_empty_stretch(). */
extern const u32 rvv_empty_stretch_end[];

#endif /* _RVVSTAT_RISCV_SAVES_H */
