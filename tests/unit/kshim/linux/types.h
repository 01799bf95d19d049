/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel types module/arch/riscv/insn.c uses, for building it on the host. */
#ifndef RVV_KSHIM_TYPES_H
#define RVV_KSHIM_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
#endif
