/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vector saves, inlined or calls, each between a kprobe pair that
 * counts it and times it (see saves.c).
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
/* Whether save_* samples are being taken at all. */
bool rvv_saves_timing(void);
/* The two counting sources, for rvv_arch_sources(); returns 2. */
int rvv_saves_sources(struct rvv_arch_source *out);
/* Hits the registered probes lost (a probe hit inside a probe handler). */
unsigned long rvv_saves_missed(void);

/* Times the probe pair on the empty stretch @times times on this CPU. */
void rvv_saves_time_stretch(unsigned int times);
/* Takes the median of what the stretch recorded as the bias. */
void rvv_saves_update_bias(void);

/* stretch.S: two probe points with only a nop between them. */
void rvv_empty_stretch(void);
/* The second probe point, inside rvv_empty_stretch(). */
extern const u32 rvv_empty_stretch_end[];

#endif /* _RVVSTAT_RISCV_SAVES_H */
