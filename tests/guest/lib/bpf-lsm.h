/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF-LSM program loaded with the raw bpf(2) syscall, for the guests,
 * which have no libbpf or clang: it makes security_task_setscheduler()
 * refuse one uid, to show who asks that LSM hook.
 */
#ifndef RVVSTAT_BPF_LSM_H
#define RVVSTAT_BPF_LSM_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Why no BPF-LSM program can be attached here (no "bpf" among the active
 * LSMs, or no kernel BTF), in @why; 0 if one can. Mounts securityfs if it
 * is not mounted.
 */
int bpf_lsm_unavailable(char *why, size_t size);
/*
 * Attaches a program on task_setscheduler that returns -EPERM to every
 * caller whose uid is @uid (sched_setaffinity(2), sched_setattr(2), and
 * whatever else runs that hook with such credentials). It stays attached
 * until the returned fd is closed. The fd, or -errno with the step that
 * failed in @why.
 */
int bpf_lsm_deny_setscheduler(uid_t uid, char *why, size_t size);

#endif /* RVVSTAT_BPF_LSM_H */
