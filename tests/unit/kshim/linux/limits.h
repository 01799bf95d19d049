/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RVV_KSHIM_LIMITS_H
#define RVV_KSHIM_LIMITS_H
#include <stdint.h>

#define S32_MIN	INT32_MIN
#define S32_MAX	INT32_MAX
#endif
