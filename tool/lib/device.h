/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /dev/rvvstat: hints (the ioctls of uapi/linux/rvvstat.h).
 * Each call returns 0 or -errno and, on failure, explains it in @err.
 */
#ifndef RVVSTAT_DEVICE_H
#define RVVSTAT_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/rvvstat.h>

#include "error.h"

#define RVV_DEVICE_PATH	"/dev/rvvstat"

struct rvv_policy;

/*
 * Opens the device, the file descriptor to *@fd: read-write, else read-only
 * where that is all the caller may (hint changes then fail with EBADF).
 */
int rvv_device_open(int *fd, struct rvv_error *err);
/*
 * @h as a request about @target (a process if @process, else a thread):
 * the CPUs of mask @cpus (@cpus_size bytes) unless it is NULL, @policy
 * unless it is NULL, at first vector use if @on_vector. With neither, the
 * target alone, as GET_HINT and CLEAR_HINT take it.
 */
void rvv_hint_fill(struct rvvstat_hint *h, int32_t target, bool process,
		   const uint8_t *cpus, size_t cpus_size,
		   const struct rvv_policy *policy, bool on_vector);
/* @h->size is set here; the rest as the uapi describes. */
int rvv_hint_set(int fd, struct rvvstat_hint *h, struct rvv_error *err);
int rvv_hint_get(int fd, struct rvvstat_hint *h, struct rvv_error *err);
int rvv_hint_clear(int fd, struct rvvstat_hint *h, struct rvv_error *err);
/* What errno @error of a hint means, in the uapi's terms (@set: of SET_HINT). */
const char *rvv_hint_strerror(int error, bool set);

#endif /* RVVSTAT_DEVICE_H */
