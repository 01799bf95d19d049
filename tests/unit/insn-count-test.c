// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's TCG plugin (tests/bench/insn-count.c) with cmocka, on QEMU
 * API stand-ins that record what it registers: its refusals, that it finds
 * the mark this host's compiler emits from insn-marks.h (x86_64), and the
 * window it writes from translation blocks "executed" here by applying the
 * inline additions it registered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/insn-marks.h"
#include "../bench/qemu-plugin-7.2.h"

/* The stand-ins' view of a block and an instruction. */
struct qemu_plugin_insn {
	const void *data;
	size_t size;
	qemu_plugin_vcpu_udata_cb_t cb;	/* registered on it */
	void *udata;
};

struct qemu_plugin_tb {
	uint64_t vaddr;
	size_t n;
	struct qemu_plugin_insn *insns;
	uint64_t *counter;		/* its inline addition */
	uint64_t imm;
};

static qemu_plugin_vcpu_tb_trans_cb_t translate;

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb)
{
	(void)id;
	translate = cb;
}

void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op, void *ptr, uint64_t imm)
{
	assert_int_equal(op, QEMU_PLUGIN_INLINE_ADD_U64);
	tb->counter = ptr;
	tb->imm = imm;
}

void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata)
{
	(void)flags;
	insn->cb = cb;
	insn->udata = userdata;
}

void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
				    void *userdata)
{
	(void)id;
	(void)cb;
	(void)userdata;
}

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb)
{
	return tb->n;
}

uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb)
{
	return tb->vaddr;
}

struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx)
{
	return &tb->insns[idx];
}

const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn)
{
	return insn->data;
}

size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn)
{
	return insn->size;
}

static const unsigned char plain[8];	/* an instruction that is no mark */

static qemu_info_t x86_guest(int vcpus)
{
	return (qemu_info_t){ .target_name = "x86_64", .system_emulation = true,
			      .system = { .smp_vcpus = vcpus, .max_vcpus = vcpus } };
}

static int install(const char *target, int vcpus, const char *arg)
{
	char *argv[] = { (char *)arg };
	qemu_info_t info = x86_guest(vcpus);

	info.target_name = target;
	return qemu_plugin_install(1, &info, arg ? 1 : 0, argv);
}

static void refuses_what_it_cannot_count(void **state)
{
	(void)state;
	assert_int_not_equal(install("x86_64", 1, NULL), 0);
	assert_int_not_equal(install("x86_64", 1, "out="), 0);
	assert_int_not_equal(install("x86_64", 1, "file=/dev/null"), 0);
	assert_int_not_equal(install("x86_64", 2, "out=/dev/null"), 0);
	assert_int_not_equal(install("aarch64", 1, "out=/dev/null"), 0);
	assert_int_not_equal(install("x86_64", 1, "out=/nonexistent/dir/file"), 0);
}

static void mark_open(void)
{
	insn_mark(INSN_MARK_OPEN);
}

static void mark_close(void)
{
	insn_mark(INSN_MARK_CLOSE);
}

/*
 * A block of one 7-byte instruction at each of the first 16 offsets of @fn:
 * the plugin must take exactly one of them for a mark, @m.
 */
static struct qemu_plugin_insn find_mark(void (*fn)(void), enum insn_mark m)
{
	struct qemu_plugin_insn insn, found = { 0 };
	struct qemu_plugin_tb tb = { .vaddr = 0x401000, .n = 1, .insns = &insn };
	int hits = 0;

	for (int off = 0; off < 16; off++) {
		insn = (struct qemu_plugin_insn){ .data = (const char *)fn + off, .size = 7 };
		translate(1, &tb);
		if (insn.cb) {
			hits++;
			found = insn;
		}
	}
	assert_int_equal(hits, 1);
	assert_int_equal((uintptr_t)found.udata, m);
	return found;
}

static void run(struct qemu_plugin_tb *tb)
{
	*tb->counter += tb->imm;
}

/* A block of @n plain instructions at @vaddr, translated. */
static struct qemu_plugin_tb block(uint64_t vaddr, size_t n, struct qemu_plugin_insn *insns)
{
	struct qemu_plugin_tb tb = { .vaddr = vaddr, .n = n, .insns = insns };

	for (size_t i = 0; i < n; i++)
		insns[i] = (struct qemu_plugin_insn){ .data = plain, .size = 7 };
	translate(1, &tb);
	for (size_t i = 0; i < n; i++)
		assert_null(insns[i].cb);
	return tb;
}

static void counts_a_window_by_area(void **state)
{
	char path[] = "/tmp/insn-count-test-XXXXXX", arg[64], text[256] = "";
	struct qemu_plugin_insn opener, closer, insns[100];
	struct qemu_plugin_tb user, kernel, module;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(arg, sizeof(arg), "out=%s", path);
	assert_int_equal(install("x86_64", 1, arg), 0);
	opener = find_mark(mark_open, INSN_MARK_OPEN);
	closer = find_mark(mark_close, INSN_MARK_CLOSE);
	user = block(0x401000, 5, insns);
	kernel = block(0xffffffff81000000ull, 100, insns);
	module = block(0xffffffffc0001000ull, 7, insns);

	run(&user);			/* before the window: not counted */
	opener.cb(0, opener.udata);
	run(&kernel);
	run(&module);
	run(&user);
	run(&kernel);
	closer.cb(0, closer.udata);
	run(&module);			/* after it */
	closer.cb(0, closer.udata);	/* a close without an open */

	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(text, 1, sizeof(text) - 1, f) > 0, 1);
	fclose(f);
	unlink(path);
	assert_string_equal(text, "window 0 5 200 7\nwindow 1 unopened\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refuses_what_it_cannot_count),
		cmocka_unit_test(counts_a_window_by_area),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
