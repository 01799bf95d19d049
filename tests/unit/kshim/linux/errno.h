/* SPDX-License-Identifier: GPL-2.0 */
/* The host's uapi errno values are the kernel's. */
#include <asm-generic/errno-base.h>
