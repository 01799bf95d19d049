/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink on a raw socket, for the guest programs that cannot link
 * libnl (static riscv64) or that must send what libnl never would.
 */
#ifndef RVVSTAT_GENL_RAW_H
#define RVVSTAT_GENL_RAW_H

#include <stddef.h>
#include <sys/types.h>

/* A non-blocking NETLINK_GENERIC socket; the fd or -errno. */
int genl_open(void);
/* The id of family @name (CTRL_CMD_GETFAMILY), or -errno (-ENOENT: none). */
int genl_family(int fd, const char *name);
/*
 * Sends one message: nlmsghdr (type @family, @flags, nlmsg_len as sent
 * unless @len_lie is not 0), genlmsghdr (@cmd, version 1), then @attrs.
 * 0 or -errno.
 */
int genl_send(int fd, int family, int cmd, int flags, const void *attrs,
	      size_t attrs_len, unsigned int len_lie);
/* One datagram within @timeout_ms: its length, or -errno (-ETIMEDOUT). */
ssize_t genl_recv(int fd, void *buf, size_t size, int timeout_ms);
/*
 * A dump of @cmd read to its NLMSG_DONE, each part within 5 s: how many
 * messages it held, or -errno (the family's error, or -ETIMEDOUT).
 */
int genl_dump(int fd, int family, int cmd);

#endif /* RVVSTAT_GENL_RAW_H */
