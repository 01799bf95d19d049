// SPDX-License-Identifier: GPL-2.0
/* Generic netlink on a raw socket (see genl-raw.h). */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "genl-raw.h"

#define GENL_BUF	8192

int genl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
			NETLINK_GENERIC);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int genl_send(int fd, int family, int cmd, int flags, const void *attrs,
	      size_t attrs_len, unsigned int len_lie)
{
	char buf[GENL_BUF] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = NLMSG_DATA(nlh);
	size_t len = NLMSG_LENGTH(GENL_HDRLEN) + attrs_len;

	if (len > sizeof(buf))
		return -EMSGSIZE;
	memset(buf, 0, NLMSG_LENGTH(GENL_HDRLEN));
	nlh->nlmsg_len = len_lie ? len_lie : len;
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	g->cmd = cmd;
	g->version = 1;
	memcpy(buf + NLMSG_LENGTH(GENL_HDRLEN), attrs, attrs_len);
	return send(fd, buf, len, 0) < 0 ? -errno : 0;
}

ssize_t genl_recv(int fd, void *buf, size_t size, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	n = poll(&pfd, 1, timeout_ms);
	if (n <= 0)
		return n ? -errno : -ETIMEDOUT;
	n = recv(fd, buf, size, 0);
	return n < 0 ? -errno : n;
}

int genl_dump(int fd, int family, int cmd)
{
	char buf[GENL_BUF] __attribute__((aligned(NLMSG_ALIGNTO)));
	const struct nlmsghdr *nlh;
	int rows = 0, err;
	ssize_t n;

	err = genl_send(fd, family, cmd, NLM_F_DUMP, NULL, 0, 0);
	if (err)
		return err;
	for (;;) {
		n = genl_recv(fd, buf, sizeof(buf), 5000);
		if (n < 0)
			return n;
		for (nlh = (const struct nlmsghdr *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_type != NLMSG_DONE &&
			    nlh->nlmsg_type != NLMSG_ERROR) {
				rows++;
				continue;
			}
			/* Both open with an int: the dump's error, the request's. */
			err = *(const int *)NLMSG_DATA(nlh);
			return err < 0 ? err : rows;
		}
	}
}

/* The value of CTRL_ATTR_FAMILY_ID in a reply to CTRL_CMD_GETFAMILY. */
static int genl_family_id(const char *buf, ssize_t n)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	const struct nlattr *a;
	int left;

	if (!NLMSG_OK(nlh, n))
		return -EBADMSG;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(nlh);

		return e->error ? e->error : -EBADMSG;
	}
	a = (const struct nlattr *)((const char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
	left = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	while (left >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= left) {
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			return *(const __u16 *)((const char *)a + NLA_HDRLEN);
		left -= NLA_ALIGN(a->nla_len);
		a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
	return -EBADMSG;
}

int genl_family(int fd, const char *name)
{
	char attrs[NLA_HDRLEN + NLA_ALIGN(GENL_NAMSIZ)] = { 0 };
	struct nlattr *a = (struct nlattr *)attrs;
	char buf[GENL_BUF];
	size_t len = strlen(name) + 1;
	ssize_t n;
	int err;

	if (len > GENL_NAMSIZ)
		return -ENAMETOOLONG;
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + len;
	memcpy(attrs + NLA_HDRLEN, name, len);
	err = genl_send(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, attrs,
			NLA_ALIGN(a->nla_len), 0);
	if (err)
		return err;
	n = genl_recv(fd, buf, sizeof(buf), 5000);
	return n < 0 ? (int)n : genl_family_id(buf, n);
}
