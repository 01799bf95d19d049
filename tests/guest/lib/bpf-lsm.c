// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf-lsm.h"
#include "guest-util.h"

#define LSM_LIST	"/sys/kernel/security/lsm"
#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"
#define HOOK		"bpf_lsm_task_setscheduler"

/* The whole of @path in a malloc()ed buffer, its length in @len; NULL (errno) if not. */
static char *slurp(const char *path, size_t *len)
{
	size_t size = 4096, got = 0;
	char *buf = NULL, *more;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	do {
		if (got == size || !buf) {
			size *= 2;
			more = realloc(buf, size + 1);
			if (!more) {
				n = -1;
				break;
			}
			buf = more;
		}
		n = read(fd, buf + got, size - got);
		if (n > 0)
			got += n;
	} while (n > 0);
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

int bpf_lsm_unavailable(char *why, size_t size)
{
	char lsms[512], *name;
	bool bpf = false;
	ssize_t n;

	if (access(LSM_LIST, R_OK) &&
	    mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL) &&
	    errno != EBUSY)
		return snprintf(why, size, "no LSM list: securityfs cannot be mounted: %s",
				strerror(errno));
	n = read_file(LSM_LIST, lsms, sizeof(lsms));
	if (n < 0)
		return snprintf(why, size, "%s: %s", LSM_LIST, strerror(-n));
	for (name = strtok(lsms, ",\n"); name && !bpf; name = strtok(NULL, ",\n"))
		bpf = !strcmp(name, "bpf");
	if (!bpf)
		return snprintf(why, size, "BPF-LSM is not active (no \"bpf\" in %s)",
				LSM_LIST);
	if (access(VMLINUX_BTF, R_OK))
		return snprintf(why, size, "no kernel BTF: %s: %s", VMLINUX_BTF,
				strerror(errno));
	return 0;
}

/* The bytes that follow a type of @kind with @vlen entries (include/uapi/linux/btf.h). */
static long btf_extra(unsigned int kind, unsigned int vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	}
	return -1;
}

/* The id of FUNC @name in the kernel's BTF; -errno (-ENOENT: none, -EPROTO: unreadable). */
static int btf_func_id(const char *name)
{
	const struct btf_header *hdr;
	const char *strs, *types;
	size_t len, at;
	int id, found = -ENOENT;
	char *btf;

	btf = slurp(VMLINUX_BTF, &len);
	if (!btf)
		return -errno;
	hdr = (const struct btf_header *)btf;
	if (len < sizeof(*hdr) || hdr->magic != BTF_MAGIC ||
	    (size_t)hdr->hdr_len + hdr->type_off + hdr->type_len > len ||
	    (size_t)hdr->hdr_len + hdr->str_off + hdr->str_len > len) {
		found = -EPROTO;
		goto out;
	}
	types = btf + hdr->hdr_len + hdr->type_off;
	strs = btf + hdr->hdr_len + hdr->str_off;
	/* Type ids count from 1, in the order the types are laid out. */
	for (at = 0, id = 1; at + sizeof(struct btf_type) <= hdr->type_len; id++) {
		const struct btf_type *t = (const void *)(types + at);
		unsigned int kind = BTF_INFO_KIND(t->info);
		long extra = btf_extra(kind, BTF_INFO_VLEN(t->info));

		if (extra < 0) {
			found = -EPROTO;
			break;
		}
		if (kind == BTF_KIND_FUNC && t->name_off < hdr->str_len &&
		    !strcmp(strs + t->name_off, name)) {
			found = id;
			break;
		}
		at += sizeof(*t) + extra;
	}
out:
	free(btf);
	return found;
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	int fd = syscall(SYS_bpf, cmd, attr, sizeof(*attr));

	return fd < 0 ? -errno : fd;
}

#define INSN(op, dst, src, offset, value) ((struct bpf_insn) {		\
	.code = (op), .dst_reg = (dst), .src_reg = (src),		\
	.off = (offset), .imm = (value) })

int bpf_lsm_deny_setscheduler(uid_t uid, char *why, size_t size)
{
	/* return (u32)bpf_get_current_uid_gid() == uid ? -EPERM : 0; */
	const struct bpf_insn insns[] = {
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_uid_gid),
		/* The low 32 bits are the uid, the high the gid. */
		INSN(BPF_JMP32 | BPF_JNE | BPF_K, BPF_REG_0, 0, 2, (int)uid),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, -EPERM),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	static char log[4096];
	union bpf_attr attr;
	int btf_id, prog, link;

	btf_id = btf_func_id(HOOK);
	if (btf_id < 0) {
		snprintf(why, size, "%s in %s: %s", HOOK, VMLINUX_BTF, strerror(-btf_id));
		return btf_id;
	}
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_LSM;
	attr.expected_attach_type = BPF_LSM_MAC;
	attr.attach_btf_id = btf_id;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	log[0] = '\0';
	prog = sys_bpf(BPF_PROG_LOAD, &attr);
	if (prog < 0) {
		snprintf(why, size, "BPF_PROG_LOAD on %s (BTF id %d): %s; verifier: %s",
			 HOOK, btf_id, strerror(-prog), log);
		return prog;
	}
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	attr.link_create.attach_type = BPF_LSM_MAC;
	link = sys_bpf(BPF_LINK_CREATE, &attr);
	if (link < 0)
		snprintf(why, size, "BPF_LINK_CREATE on %s: %s", HOOK, strerror(-link));
	/* The link holds the program. */
	close(prog);
	return link;
}
