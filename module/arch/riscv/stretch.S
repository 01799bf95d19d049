/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An empty stretch between two probe points: timing a kprobe pair here
 * measures what the pair itself adds to every span it times.
 */
#include <linux/linkage.h>

	.option push
	.option norvc
SYM_FUNC_START(rvv_empty_stretch)
	nop
SYM_INNER_LABEL(rvv_empty_stretch_end, SYM_L_GLOBAL)
	nop
	ret
SYM_FUNC_END(rvv_empty_stretch)
	.option pop
