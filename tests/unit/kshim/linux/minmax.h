/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RVV_KSHIM_MINMAX_H
#define RVV_KSHIM_MINMAX_H

#define min(a, b)		((a) < (b) ? (a) : (b))
#define min_t(type, a, b)	min((type)(a), (type)(b))
#endif
