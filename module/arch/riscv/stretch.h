/* SPDX-License-Identifier: GPL-2.0 */
/* stretch.S: two probe points with only a nop between them. */
#ifndef _RVVSTAT_RISCV_STRETCH_H
#define _RVVSTAT_RISCV_STRETCH_H

#include <linux/types.h>

void rvv_empty_stretch(void);
/* The second probe point, inside rvv_empty_stretch(). */
extern const u32 rvv_empty_stretch_end[];

#endif /* _RVVSTAT_RISCV_STRETCH_H */
