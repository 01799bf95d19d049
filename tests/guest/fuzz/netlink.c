// SPDX-License-Identifier: GPL-2.0
/*
 * soak-fuzz, netlink.c: the generic netlink family on raw sockets: well-formed
 * requests, malformed ones and dumps cut off.
 */
#define _GNU_SOURCE
#include "soak-fuzz.h"

static void *nl_put(struct nlreq *m, size_t len)
{
	size_t need = NLMSG_ALIGN(len);
	void *p;

	if (m->len + need > sizeof(m->b))
		return NULL;
	p = m->b + m->len;
	memset(p, 0, need);
	m->len += need;
	return p;
}

/* Starts a message at the end of @m (room is left for it); its offset. */
static size_t nl_begin(struct nlreq *m, uint16_t type, uint16_t flags, uint32_t seq,
		       uint8_t cmd, uint8_t version)
{
	size_t off = m->len;
	struct nlmsghdr *h = nl_put(m, NLMSG_HDRLEN);
	struct genlmsghdr *g = nl_put(m, GENL_HDRLEN);

	if (!h || !g)
		return off;
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq;
	g->cmd = cmd;
	g->version = version;
	return off;
}

static void nl_end(struct nlreq *m, size_t off)
{
	if (off + NLMSG_HDRLEN <= m->len)
		((struct nlmsghdr *)(m->b + off))->nlmsg_len = m->len - off;
}

static struct nlattr *nl_attr(struct nlreq *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = nl_put(m, NLA_HDRLEN + len);

	if (!a)
		return NULL;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	return a;
}

static uint16_t any_type(struct ctx *c)
{
	uint16_t type = below(c, RVVSTAT_A_MAX + 3);

	return chance(c, 10) ? type | (rnd(c) & (NLA_F_NESTED | NLA_F_NET_BYTEORDER)) : type;
}

/*
 * Random attributes: what the command takes with edge values, any type,
 * wrong lengths, nested garbage, duplicates, and lying nla_len.
 */
static void nl_attrs(struct ctx *c, struct nlreq *m, uint8_t cmd, int depth)
{
	static const size_t wrong_lens[] = { 0, 1, 2, 3, 5, 7, 8, 16 };
	static const uint16_t lies[] = { 0, 1, 3, 5, 4096, 0xffff };
	size_t last = 0, last_len = 0, start, nest;
	int i, n = below(c, depth ? 3 : 5);
	uint8_t junk[16];
	uint64_t v64;
	uint32_t v32;
	struct nlattr *a;
	void *copy;

	for (i = 0; i < n; i++) {
		start = m->len;
		v32 = chance(c, 50) ? below(c, 12) : edge32(c);
		switch (below(c, 8)) {
		case 0: case 1:
			nl_attr(m, cmd == RVVSTAT_CMD_GET_TASKS ? RVVSTAT_A_TGID :
				   chance(c, 50) ? RVVSTAT_A_KIND : RVVSTAT_A_CPU, &v32, 4);
			break;
		case 2:
			nl_attr(m, any_type(c), &v32, 4);
			break;
		case 3:
			rnd_fill(c, junk, sizeof(junk));
			nl_attr(m, any_type(c), junk, PICK(c, wrong_lens));
			break;
		case 4:
			v64 = edge64(c);
			nl_attr(m, any_type(c), &v64, 8);
			break;
		case 5:
			if (depth >= 2 || !(a = nl_attr(m, any_type(c) | NLA_F_NESTED, NULL, 0)))
				break;
			nest = (uint8_t *)a - m->b;
			nl_attrs(c, m, cmd, depth + 1);
			((struct nlattr *)(m->b + nest))->nla_len = m->len - nest;
			break;
		case 6:
			if (last_len && (copy = nl_put(m, last_len)))
				memcpy(copy, m->b + last, last_len);
			break;
		default:
			if ((a = nl_attr(m, any_type(c), &v32, 4)))
				a->nla_len = PICK(c, lies);
		}
		last = start;
		last_len = m->len - start;
	}
}

static int nl_socket(struct ctx *c)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;

	if (c->nl_fd >= 0)
		return 0;
	c->nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (c->nl_fd < 0)
		return errno;
	if (bind(c->nl_fd, (struct sockaddr *)&sa, sizeof(sa))) {
		one = errno;
		close(c->nl_fd);
		c->nl_fd = -1;
		return one;
	}
	setsockopt(c->nl_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return 0;
}

void nl_drop(struct ctx *c)
{
	if (c->nl_fd >= 0)
		close(c->nl_fd);
	c->nl_fd = -1;
}

/*
 * Reads what came for the requests just sent. Genetlink answers within
 * sendmsg() and makes each next part of a dump within recvmsg(), so once a
 * read finds nothing after something came, nothing more is coming. Stops
 * after @max messages; @cut then closes the socket mid-dump. The first
 * error, 0, or ERR_NOREPLY.
 */
int nl_collect(struct ctx *c, unsigned int max, bool cut)
{
	struct pollfd pfd = { c->nl_fd, POLLIN, 0 };
	unsigned int msgs = 0;
	int err = ERR_NOREPLY;
	bool waited = false;
	struct nlmsghdr *h;
	long n;

	while (msgs < max) {
		n = recv(c->nl_fd, c->nl, NL_BUF, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN) {
			err = err == ERR_NOREPLY ? errno : err;
			break;
		}
		if (n < 0) {
			if (waited || err != ERR_NOREPLY || poll(&pfd, 1, 5) != 1)
				break;
			waited = true;
			continue;
		}
		for (h = (void *)c->nl; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			msgs++;
			if (h->nlmsg_type != NLMSG_ERROR ||
			    h->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
				err = err == ERR_NOREPLY ? 0 : err;
				continue;
			}
			if (!e->error && c->nobody && c->reset_seq &&
			    e->msg.nlmsg_seq == c->reset_seq)
				finding(c, "nobody's netlink RESET was acknowledged");
			if (err == ERR_NOREPLY || !err)
				err = -e->error;
		}
		if (cut && msgs)
			break;
	}
	if (cut || msgs >= max)
		nl_drop(c);	/* what is left would answer the next request */
	return err;
}

int nl_send(struct ctx *c, const void *buf, size_t len)
{
	const struct nlmsghdr *h = buf;
	const struct genlmsghdr *g = NLMSG_DATA(h);
	int err = nl_socket(c);

	/* Counted by the command of its first message, where it has one. */
	c->cmd = len < NLMSG_HDRLEN + GENL_HDRLEN || h->nlmsg_type != env.family ||
		 g->cmd > RVVSTAT_CMD_MAX ? CMD_NL_OTHER : CMD_NL + g->cmd;

	if (err)
		return err;
	return send(c->nl_fd, buf, len, 0) < 0 ? errno : 0;
}

/* Known commands and a few past the last; RESET (stop_machine) less often. */
static uint8_t pick_cmd(struct ctx *c)
{
	uint8_t cmd = chance(c, 85) ? below(c, RVVSTAT_CMD_MAX + 1) :
				      RVVSTAT_CMD_MAX + 1 + below(c, 4);

	if (cmd == RVVSTAT_CMD_RESET && !reset_due(c))
		cmd = RVVSTAT_CMD_GET_SUMMARY;
	return chance(c, 97) ? cmd : (uint8_t)rnd(c);
}

static uint16_t pick_flags(struct ctx *c, uint8_t cmd)
{
	bool dumps = cmd == RVVSTAT_CMD_GET_CPUS || cmd == RVVSTAT_CMD_GET_TASKS;
	uint16_t flags = NLM_F_REQUEST;

	if (chance(c, 60))
		flags |= NLM_F_ACK;
	if (chance(c, dumps ? 85 : 15))
		flags |= NLM_F_DUMP;
	if (chance(c, 5))
		flags |= NLM_F_ECHO;
	if (chance(c, 5))
		flags |= (uint16_t)rnd(c);
	return flags;
}

/* What a tool sends: the attributes the command takes, with valid values. */
static void nl_clean_attrs(struct ctx *c, struct nlreq *m, uint8_t cmd)
{
	pid_t child = __atomic_load_n(&race_child, __ATOMIC_RELAXED);
	uint32_t v = child && chance(c, 50) ? (uint32_t)child :
		     chance(c, 50) ? (uint32_t)getpid() : 1 + below(c, env.pid_max);

	if (cmd == RVVSTAT_CMD_GET_TASKS && chance(c, 50))
		nl_attr(m, RVVSTAT_A_TGID, &v, sizeof(v));
	if (cmd != RVVSTAT_CMD_GET_HIST)
		return;
	v = below(c, RVVSTAT_NR_LATENCIES);
	nl_attr(m, RVVSTAT_A_KIND, &v, sizeof(v));
	v = below(c, env.nr_cpu_ids);
	if (chance(c, 50))
		nl_attr(m, RVVSTAT_A_CPU, &v, sizeof(v));
}

/* Appends one request to @m; a RESET that asks for an ACK is remembered. */
void nl_request_into(struct ctx *c, struct nlreq *m, uint8_t cmd,
		     uint16_t flags, int attrs)
{
	uint32_t seq = ++c->seq;
	size_t off;

	if (c->nobody && cmd == RVVSTAT_CMD_RESET)
		flags |= NLM_F_ACK;	/* so that a success shows */
	off = nl_begin(m, env.family, flags, seq, cmd,
		       chance(c, 90) ? RVVSTAT_GENL_VERSION : (uint8_t)rnd(c));
	if (attrs == ATTRS_RANDOM)
		nl_attrs(c, m, cmd, 0);
	else if (attrs == ATTRS_CLEAN)
		nl_clean_attrs(c, m, cmd);
	nl_end(m, off);
	if (cmd == RVVSTAT_CMD_RESET && (flags & NLM_F_ACK))
		c->reset_seq = seq;
}

/*
 * One well-formed message: 40 % as a tool sends it (to get past validation
 * and into the commands), else any command, flags and attributes.
 */
int nl_request(struct ctx *c)
{
	struct nlreq m = { .len = 0 };
	bool clean = chance(c, 40);
	uint8_t cmd = clean ? 1 + below(c, RVVSTAT_CMD_MAX) : pick_cmd(c);
	uint16_t flags = pick_flags(c, cmd);

	c->reset_seq = 0;
	if (clean && cmd == RVVSTAT_CMD_RESET && !reset_due(c))
		cmd = RVVSTAT_CMD_GET_SUMMARY;
	if (clean)
		flags = NLM_F_REQUEST | (chance(c, 50) ? NLM_F_ACK : 0) |
			(cmd == RVVSTAT_CMD_GET_CPUS || cmd == RVVSTAT_CMD_GET_TASKS ?
			 NLM_F_DUMP : 0);
	nl_request_into(c, &m, cmd, flags, clean ? ATTRS_CLEAN : ATTRS_RANDOM);
	describe(c, "netlink request cmd %u flags %#x len %zu", cmd, flags, m.len);
	return nl_send(c, m.b, m.len) ?: nl_collect(c, 100000, false);
}

/* Truncated, lying about its length, mistyped, unflagged, or several at once. */
int nl_malformed(struct ctx *c)
{
	const uint16_t types[] = {
		0, NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE, NLMSG_OVERRUN, GENL_ID_CTRL,
		env.family + 1, 0xffff,
	};
	struct nlreq m = { .len = 0 };
	uint8_t cmd = pick_cmd(c);
	struct nlmsghdr *h = (void *)m.b;
	int how = below(c, 8), i;
	size_t sent;

	c->reset_seq = 0;
	nl_request_into(c, &m, cmd, pick_flags(c, cmd), ATTRS_RANDOM);
	sent = m.len;
	switch (how) {
	case 0:
		sent = below(c, m.len);
		break;
	case 1:
		h->nlmsg_len += 1 + below(c, 4096);
		break;
	case 2:
		h->nlmsg_len = below(c, h->nlmsg_len);
		break;
	case 3:		/* the kernel acks these two unread: no RESET to see */
		h->nlmsg_type = PICK(c, types);
		c->reset_seq = 0;
		break;
	case 4:
		h->nlmsg_flags &= ~NLM_F_REQUEST;
		c->reset_seq = 0;
		break;
	case 5:
		((struct genlmsghdr *)NLMSG_DATA(h))->reserved = 1 + below(c, 0xffff);
		break;
	case 6:		/* no genetlink header, or half of one */
		sent = NLMSG_HDRLEN + 2 * below(c, 2);
		h->nlmsg_len = sent;
		break;
	default:	/* a batch: a dump, then more before it is read */
		for (i = 1 + below(c, 3); i > 0; i--) {
			cmd = pick_cmd(c);
			nl_request_into(c, &m, cmd, pick_flags(c, cmd),
					chance(c, 50) ? ATTRS_CLEAN : ATTRS_RANDOM);
		}
		sent = m.len;
	}
	describe(c, "netlink malformed %d cmd %u type %u flags %#x len %u sent %zu",
		 how, ((struct genlmsghdr *)NLMSG_DATA(h))->cmd, h->nlmsg_type,
		 h->nlmsg_flags, h->nlmsg_len, sent);
	return nl_send(c, m.b, sent) ?: nl_collect(c, 100000, false);
}

/* A dump whose socket closes after its first part, or before any is read. */
int nl_cut_dump(struct ctx *c)
{
	struct nlreq m = { .len = 0 };
	uint8_t cmd = chance(c, 60) ? RVVSTAT_CMD_GET_TASKS : RVVSTAT_CMD_GET_CPUS;
	bool read_first = chance(c, 75);
	int err;

	c->reset_seq = 0;
	nl_request_into(c, &m, cmd, NLM_F_REQUEST | NLM_F_DUMP |
			(chance(c, 50) ? NLM_F_ACK : 0), ATTRS_CLEAN);
	describe(c, "netlink cut dump cmd %u after %s", cmd, read_first ? "one part" : "none");
	err = nl_send(c, m.b, m.len);
	if (!err && read_first)
		err = nl_collect(c, 1, true);
	nl_drop(c);
	return err;
}

/* The family id from nlctrl, on a socket of its own; 0 or -errno. */
int nl_resolve(void)
{
	int fd = genl_open(), id;

	if (fd < 0)
		return fd;
	id = genl_family(fd, RVVSTAT_GENL_NAME);
	close(fd);
	if (id < 0)
		return id;
	env.family = id;
	return 0;
}
