/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RVV_KSHIM_BITOPS_H
#define RVV_KSHIM_BITOPS_H
#include <linux/types.h>

#define BIT(n)	(1UL << (n))

/* As the kernel's: @index is the sign bit. */
static inline int32_t sign_extend32(uint32_t value, int index)
{
	uint8_t shift = 31 - index;

	return (int32_t)(value << shift) >> shift;
}
#endif
