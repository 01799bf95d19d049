// SPDX-License-Identifier: GPL-2.0
/*
 * Accounting-core tests, run inside the riscv64 V guest against the real
 * module. Expected values come from the kernel's own behaviour (instruction
 * probes, the CPU's VLENB, what the workload did), never from the module.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "guest-util.h"
#include "vector-arch.h"

/* The counters of vector-state traffic, summed across tasks and CPUs. */
static const char *const counters[] = {
	"saves_user", "saves_kernel", "saves_involuntary", "saves_discarded",
	"restores_scheduled", "restores_coalesced", "restores_performed",
	"restores_cancelled", "restores_kernel", "first_use", "kernel_v",
	"kernel_v_saves", "bytes",
};

#define NR_COUNTERS	((int)(sizeof(counters) / sizeof(*counters)))

/*
 * Whether @counter stands still once the workload ended. Our own reads of
 * the large files move kernel_v (RISC-V copies 768 bytes and more to user
 * with kernel-mode V, which needs no save in a thread without V state), and
 * where such a copy is preempted (PREEMPT kernels: by the module's own
 * sampling windows, say) the switch saves and restores its kernel-mode
 * state: saves_kernel, restores_kernel, an involuntary save and its bytes.
 * Where the kernel saves and restores every user thread at each switch
 * (x86), the saves and restores move too, and so does kernel_v_saves: any
 * user thread's kernel-FPU section (a forked helper's exec, say) saves the
 * registers it has loaded.
 */
static bool quiet_after_workload(const char *counter)
{
	static const char *const preempted_read[] = {
		"kernel_v", "saves_kernel", "restores_kernel",
		"saves_involuntary", "bytes",
	};
	static const char *const every_thread[] = {
		"saves_user", "saves_involuntary", "restores_scheduled",
		"restores_coalesced", "restores_performed", "kernel_v_saves",
		"bytes",
	};
	unsigned int i;

	for (i = 0; i < sizeof(preempted_read) / sizeof(*preempted_read); i++)
		if (!strcmp(counter, preempted_read[i]))
			return false;
	for (i = 0; ARCH_SAVES_EVERY_THREAD && i < sizeof(every_thread) /
	     sizeof(*every_thread); i++)
		if (!strcmp(counter, every_thread[i]))
			return false;
	return true;
}

static const char *const mixed_workload[] = {
	"-t", "4", "-s", "1", "-d", "3", "-m", "mixed", NULL
};

/* Loads of the kernel-V modules (guest-util.h), where the initramfs has them. */
#define KERNEL_V_CYCLES	10

/*
 * The summary lists its methods under "methods:" and its latency's under
 * "  methods:", one a line indented by two: the line after @line if it is
 * one of them (past the indent), else NULL.
 */
static const char *next_method(const char *line)
{
	line = line ? strchr(line + 1, '\n') : NULL;
	if (!line || strspn(line + 1, " ") != 2)
		return NULL;
	return line + 3;
}

/* Whether the summary's methods line for @source starts with @how. */
static bool method_is(const char *summary, const char *source, const char *how)
{
	const char *line = strstr(summary, "methods:");
	size_t len = strlen(source);

	while ((line = next_method(line)))
		if (!strncmp(line, source, len) && line[len] == ' ')
			return !strncmp(line + len + strspn(line + len, " "), how,
					strlen(how));
	return false;
}

/* Each of the summary's methods as a "# METHODS" line: how this kernel is measured. */
static void print_methods(const char *summary)
{
	const char *line = strstr(summary, "methods:");

	while ((line = next_method(line)))
		printf("# METHODS %.*s\n", (int)strcspn(line, "\n"), line);
	line = strstr(summary, "\n  methods:");
	while ((line = next_method(line)))
		printf("# METHODS latency %.*s\n", (int)strcspn(line, "\n"), line);
}

/* Generous: the guest runs under TCG with lockdep and kmemleak. */
#define TEST_SECONDS	300

/* The module is not loaded: the test loads it as it needs. */
FIXTURE(unloaded) {
};

FIXTURE_SETUP(unloaded)
{
}

FIXTURE_TEARDOWN(unloaded)
{
	module_unload();
}

FIXTURE(loaded) {
	struct table totals, cpus, tasks, later;
};

FIXTURE_SETUP(loaded)
{
	ASSERT_EQ(0, module_load("verify=1"));
	ASSERT_EQ(0, write_file(DEBUGFS_DIR "reset", "1"));
}

FIXTURE_TEARDOWN(loaded)
{
	EXPECT_EQ(0, module_unload());
}

/*
 * The exact prediction at sched_switch equals the saves the CPU executes at
 * the switch's save sites: the inlined save instructions (RISC-V, kprobes),
 * save_fpregs_to_fpstate() called from __switch_to() (x86, a kprobe at its entry).
 * A save executes just after its prediction, so the executed count read
 * between two reads of the predicted one lies between them; where nothing
 * switches meanwhile (RISC-V: the reader has no vector state) they meet and
 * the two are equal. x86 saves every user thread, the reader included: one
 * CI run read 260 executed of 259 predicted read before them. The kernel-V
 * loads run in a child, so the reader keeps no V state.
 */
TEST_F_TIMEOUT(loaded, ground_truth_saves, TEST_SECONDS)
{
	uint64_t predicted, predicted_after, executed, discarded, kv_saves, kv_calls;
	char summary[16384];
	int all, loads;

	ASSERT_EQ(0, vecload_run(mixed_workload));
	loads = kernel_v_module_cycles(KERNEL_V_CYCLES);
	ASSERT_LE(0, loads);
	ASSERT_EQ(0, table_read("totals", &self->totals));
	ASSERT_EQ(0, table_read("cpus", &self->cpus));
	ASSERT_EQ(0, table_read("totals", &self->later));
	all = table_row(&self->totals, "all");
	predicted = table_get(&self->totals, all, "saves_user") +
		    table_get(&self->totals, all, "saves_kernel");
	all = table_row(&self->later, "all");
	predicted_after = table_get(&self->later, all, "saves_user") +
			  table_get(&self->later, all, "saves_kernel");
	all = table_row(&self->totals, "all");
	discarded = table_get(&self->totals, all, "saves_discarded");
	executed = table_sum(&self->cpus, "verify_switch_saves");
	kv_saves = table_get(&self->totals, all, "kernel_v_saves");
	kv_calls = table_get(&self->totals, all, "kernel_v");
	printf("# GROUND-TRUTH predicted=%llu executed=%llu discarded=%llu kernel_v=%llu kernel_v_saves=%llu predicted_after=%llu\n",
	       (unsigned long long)predicted, (unsigned long long)executed,
	       (unsigned long long)discarded, (unsigned long long)kv_calls,
	       (unsigned long long)kv_saves, (unsigned long long)predicted_after);
	EXPECT_LT(0, predicted);
	EXPECT_LE(predicted, executed);
	EXPECT_LE(executed, predicted_after);
	EXPECT_LE(kv_saves, kv_calls);
	ASSERT_LT(0, read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)));
	print_methods(summary);
	/* Kernel-mode saves are counted where they happen, not predicted. */
	EXPECT_EQ(NULL, strstr(summary, "predicted at"));
	/* The workload must exercise both kinds of dirty state and kernel V. */
	if (arch_syscall_discards_state()) {
		EXPECT_LT(0, discarded);
		EXPECT_LT(discarded, predicted);
	}
	if (!ARCH_PIPES_USE_KERNEL_VECTOR && !loads)
		return;
	EXPECT_LT(0, kv_saves);
	EXPECT_TRUE(method_is(summary, "kernel-V saves", "kprobes before the"));
}

/*
 * Whether every count in @totals' "all" row is in a live row of @tasks or,
 * for a thread reaped since, in @later's "exited" row.
 */
static bool counted_in_rows(const struct table *totals,
			    const struct table *tasks, const struct table *later)
{
	int all = table_row(totals, "all"), exited = table_row(later, "exited");

	for (int i = 0; i < NR_COUNTERS; i++)
		if (table_get(totals, all, counters[i]) >
		    table_sum(tasks, counters[i]) + table_get(later, exited, counters[i]))
			return false;
	return true;
}

/*
 * Every live row plus the exited aggregate adds up to the per-CPU totals.
 * Where counters still move while the files are read (x86 saves every user
 * thread at each switch, the reader included), totals read before and after
 * bound the sums; where they are quiet, the bounds meet.
 */
TEST_F_TIMEOUT(loaded, task_sums_equal_cpu_totals, TEST_SECONDS)
{
	int all, exited, later_all, later_exited, i;

	ASSERT_EQ(0, vecload_run(mixed_workload));
	ASSERT_EQ(0, table_read("totals", &self->totals));
	ASSERT_EQ(0, table_read("cpus", &self->cpus));
	ASSERT_EQ(0, table_read("tasks", &self->tasks));
	/*
	 * A thread reaped after the first read leaves the tasks file at once
	 * but reaches "exited" only when the kernel frees it, an RCU grace
	 * period later: read again until it has (up to 10 s).
	 */
	WAIT_UNTIL(table_read("totals", &self->later) == 0 &&
		   counted_in_rows(&self->totals, &self->tasks, &self->later), 10000);
	all = table_row(&self->totals, "all");
	exited = table_row(&self->totals, "exited");
	later_all = table_row(&self->later, "all");
	later_exited = table_row(&self->later, "exited");
	EXPECT_EQ(0, table_sum(&self->cpus, "untracked"));
	EXPECT_EQ(0, table_sum(&self->cpus, "table_full"));
	for (i = 0; i < NR_COUNTERS; i++) {
		const char *c = counters[i];
		uint64_t tasks = table_sum(&self->tasks, c);

		if (quiet_after_workload(c))
			EXPECT_EQ(table_get(&self->totals, all, c),
				  table_get(&self->later, later_all, c)) {
				TH_LOG("counter %s moved", c);
			}

		/* A task that exits between the reads moves to "exited". */
		EXPECT_LE(table_get(&self->totals, all, c),
			  tasks + table_get(&self->later, later_exited, c)) {
			TH_LOG("counter %s", c);
		}
		EXPECT_LE(tasks + table_get(&self->totals, exited, c),
			  table_get(&self->later, later_all, c)) {
			TH_LOG("counter %s", c);
		}
		EXPECT_LE(table_get(&self->totals, all, c),
			  table_sum(&self->cpus, c)) {
			TH_LOG("counter %s", c);
		}
		EXPECT_LE(table_sum(&self->cpus, c),
			  table_get(&self->later, later_all, c)) {
			TH_LOG("counter %s", c);
		}
	}
	/* What our reads moved: only preempted kernel-mode V, no user state. */
	if (!ARCH_SAVES_EVERY_THREAD)
		EXPECT_LE(table_get(&self->later, later_all, "saves_involuntary") -
			  table_get(&self->totals, all, "saves_involuntary"),
			  table_get(&self->later, later_all, "saves_kernel") -
			  table_get(&self->totals, all, "saves_kernel"));
	/*
	 * The workload's threads reach "exited" when the kernel frees them, an
	 * RCU grace period after their reap: wait up to 10 s for it.
	 */
	for (i = 0; i < 100 && !table_get(&self->later, later_exited, "saves_user"); i++) {
		usleep(100 * 1000);
		ASSERT_EQ(0, table_read("totals", &self->later));
		later_exited = table_row(&self->later, "exited");
	}
	EXPECT_LT(0, table_get(&self->later, later_exited, "saves_user"));
}

/*
 * The count on the line @label of the summary's totals section
 * ("  saves   N   R/s"; the methods above may start lines alike).
 */
static int summary_total(const char *summary, const char *label,
			 unsigned long long *count)
{
	const char *at = strstr(summary, "\n  totals ");
	char key[40];

	snprintf(key, sizeof(key), "\n  %s  ", label);
	at = at ? strstr(at, key) : NULL;
	return at && sscanf(at + strlen(key), "%llu", count) == 1 ? 0 : -1;
}

/* The summary's CPU rows: switches and saves, each summed over the rows. */
static int summary_cpu_sums(const char *summary, unsigned long long *switches,
			    unsigned long long *saves)
{
	const char *at = strstr(summary, "\n  cpu ");
	unsigned long long sw, sv;
	int cpu, rows = 0;

	*switches = *saves = 0;
	if (!at)
		return -1;
	for (at = strchr(at + 1, '\n'); at &&
	     sscanf(at, " %d %llu %llu", &cpu, &sw, &sv) == 3;
	     at = strchr(at + 1, '\n'), rows++) {
		*switches += sw;
		*saves += sv;
	}
	return rows ? 0 : -1;
}

/*
 * The summary's totals are the sum of the CPU rows it shows, even while
 * the counters move under the reads: both come from one snapshot.
 */
TEST_F_TIMEOUT(loaded, summary_totals_are_its_cpu_rows, TEST_SECONDS)
{
	static const char *const args[] = {
		"-t", "4", "-s", "1", "-d", "4", "-m", "mixed", NULL
	};
	unsigned long long switches = 0, saves, cpu_switches, cpu_saves, first = 0;
	char summary[16384];
	struct vecload v;
	int i;

	ASSERT_EQ(0, vecload_start(&v, args));
	/* No ASSERT until the workload is reaped. */
	for (i = 0; i < 20; i++) {
		bool parsed = read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)) > 0 &&
			      !summary_total(summary, "context switches", &switches) &&
			      !summary_total(summary, "saves", &saves) &&
			      !summary_cpu_sums(summary, &cpu_switches, &cpu_saves);

		EXPECT_TRUE(parsed);
		if (!parsed) {
			TH_LOG("no totals or CPU rows in:\n%s", summary);
			break;
		}
		EXPECT_EQ(switches, cpu_switches);
		EXPECT_EQ(saves, cpu_saves);
		if (!first)
			first = switches;
	}
	/* The counters moved between the reads: the check had something to catch. */
	EXPECT_LT(first, switches);
	ASSERT_EQ(0, vecload_wait(&v));
}

static int find_tid_row(const struct table *tasks, pid_t tid)
{
	char key[16];

	snprintf(key, sizeof(key), "%d", tid);
	return table_row(tasks, key);
}

/*
 * Whether the rows of @tids are gone within 10 s: a row goes when the kernel
 * frees the task, an RCU grace period after the process is reaped.
 */
static bool rows_freed(struct table *tasks, const pid_t *tids, int n)
{
	int tries, i;

	for (tries = 0; tries < 100; tries++) {
		if (table_read("tasks", tasks))
			return false;
		for (i = 0; i < n && find_tid_row(tasks, tids[i]) < 0; i++)
			;
		if (i == n)
			return true;
		usleep(100 * 1000);
	}
	return false;
}

/*
 * While the workload runs, its vector threads have saves and its scalar
 * thread has none; after it ends their counts live on in "exited".
 */
TEST_F_TIMEOUT(loaded, per_thread_rows_and_exited_aggregate, TEST_SECONDS)
{
	static const char *const args[] = {
		"-t", "2", "-s", "1", "-d", "3", "-m", "spin", "-w", NULL
	};
	pid_t vector_tid[2], scalar_tid = 0;
	uint64_t seen_saves = 0;
	struct vecload v;
	char line[128];
	int nvec = 0, i, row;

	/* One CPU for all three threads: each is switched out within 2 s. */
	ASSERT_EQ(0, pin_to_cpu(0));
	ASSERT_EQ(0, vecload_start(&v, args));
	while (nvec + !!scalar_tid < 3 &&
	       vecload_expect(&v, "vecload: thread ", line, sizeof(line))) {
		int tid = atoi(line + strlen("vecload: thread "));

		if (strstr(line, "kind=vector"))
			vector_tid[nvec++] = tid;
		else
			scalar_tid = tid;
	}
	ASSERT_EQ(2, nvec);
	ASSERT_NE(0, scalar_tid);
	sleep(2);
	ASSERT_EQ(0, table_read("tasks", &self->tasks));
	row = find_tid_row(&self->tasks, scalar_tid);
	ASSERT_LE(0, row);
	EXPECT_EQ(ARCH_SAVES_EVERY_THREAD,
		  table_get(&self->tasks, row, "saves_user") > 0);
	EXPECT_EQ(0, table_get(&self->tasks, row, "first_use"));
	EXPECT_LT(0, table_get(&self->tasks, row, "switches"));
	for (i = 0; i < nvec; i++) {
		row = find_tid_row(&self->tasks, vector_tid[i]);
		ASSERT_LE(0, row);
		EXPECT_EQ(1, table_get(&self->tasks, row, "first_use"));
		EXPECT_LT(0, table_get(&self->tasks, row, "saves_user"));
		seen_saves += table_get(&self->tasks, row, "saves_user");
	}
	ASSERT_EQ(0, vecload_wait(&v));
	EXPECT_TRUE(rows_freed(&self->tasks, vector_tid, nvec));
	ASSERT_EQ(0, table_read("totals", &self->totals));
	EXPECT_LE(seen_saves, table_get(&self->totals,
					table_row(&self->totals, "exited"),
					"saves_user"));
}

/*
 * First use counts once per thread that uses vector state: the workers, and
 * on RISC-V vecload's VLENB reader (reading VLENB is a vector instruction).
 */
TEST_F_TIMEOUT(loaded, first_use_once_per_vector_thread, TEST_SECONDS)
{
	static const char *const args[] = {
		"-t", "3", "-s", "2", "-d", "2", "-m", "mixed", NULL
	};
	int all;

	ASSERT_EQ(0, vecload_run(args));
	ASSERT_EQ(0, table_read("totals", &self->totals));
	all = table_row(&self->totals, "all");
	EXPECT_EQ(3 + (arch_vlenb_reads_use_vector() ? 1 : 0),
		  table_get(&self->totals, all, "first_use"));
}

/*
 * Restores that reloaded registers (x86: counted at the reload) are at most
 * the restores performed (counted when the task is next seen, so each live
 * task may owe one), and some are; on RISC-V every restore reloads and the
 * column stays 0.
 */
TEST_F_TIMEOUT(loaded, reloads_within_performed_restores, TEST_SECONDS)
{
	uint64_t loaded, performed;

	ASSERT_EQ(0, vecload_run(mixed_workload));
	ASSERT_EQ(0, table_read("cpus", &self->cpus));
	ASSERT_EQ(0, table_read("tasks", &self->tasks));
	ASSERT_EQ(0, table_read("totals", &self->totals));
	loaded = table_sum(&self->cpus, "restores_loaded");
	performed = table_get(&self->totals, table_row(&self->totals, "all"),
			      "restores_performed");
	printf("# restores: %llu performed, %llu reloaded\n",
	       (unsigned long long)performed, (unsigned long long)loaded);
	if (!ARCH_RESTORES_MAY_SKIP_RELOAD) {
		EXPECT_EQ(0, loaded);
		return;
	}
	EXPECT_LT(0, loaded);
	EXPECT_LE(loaded, performed + self->tasks.nrows);
}

/*
 * Bytes per save is the whole register file as the CPU defines it: 32
 * registers of VLENB bytes (RISC-V), the XSAVE area of what XCR0 enables (x86).
 */
TEST_F_TIMEOUT(loaded, bytes_per_save_matches_the_cpu, TEST_SECONDS)
{
	long vlenb = vlenb_of_cpu();
	char summary[16384], expect[96];
	uint64_t saves;
	int all;

	ASSERT_LT(0, vlenb);
	ASSERT_EQ(0, vecload_run(mixed_workload));
	ASSERT_EQ(0, table_read("totals", &self->totals));
	all = table_row(&self->totals, "all");
	saves = table_get(&self->totals, all, "saves_user") +
		table_get(&self->totals, all, "saves_kernel") +
		table_get(&self->totals, all, "kernel_v_saves");
	EXPECT_LT(0, saves);
	EXPECT_EQ(saves * arch_state_bytes(vlenb),
		  table_get(&self->totals, all, "bytes"));
	ASSERT_LT(0, read_file(DEBUGFS_DIR "summary", summary, sizeof(summary)));
	snprintf(expect, sizeof(expect), "%ld-bit registers, %lu bytes per save",
		 vlenb * 8, arch_state_bytes(vlenb));
	EXPECT_NE(NULL, strstr(summary, expect)) {
		TH_LOG("summary lacks \"%s\":\n%s", expect, summary);
	}
}

/* A pid reused by a new thread does not inherit the old thread's counts. */
TEST_F_TIMEOUT(loaded, pid_reuse_does_not_merge, TEST_SECONDS)
{
	static const char *const args[] = {
		"-t", "1", "-d", "1", "-m", "spin", "-w", NULL
	};
	struct clone_args ca = { .exit_signal = SIGCHLD };
	struct vecload v;
	char line[128];
	pid_t tid, child;
	int row;

	ASSERT_EQ(0, vecload_start(&v, args));
	ASSERT_TRUE(vecload_expect(&v, "vecload: thread ", line, sizeof(line)));
	tid = atoi(line + strlen("vecload: thread "));
	ASSERT_EQ(0, vecload_wait(&v));

	/* clone3 with set_tid hands the dead vector thread's tid to a new task. */
	ca.set_tid = (uintptr_t)&tid;
	ca.set_tid_size = 1;
	child = syscall(SYS_clone3, &ca, sizeof(ca));
	if (!child) {
		sleep(2);
		_exit(0);
	}
	ASSERT_EQ(tid, child);
	usleep(200 * 1000);
	ASSERT_EQ(0, table_read("tasks", &self->tasks));
	row = find_tid_row(&self->tasks, tid);
	ASSERT_LE(0, row);
	/* The child never touches a vector register; on x86 it still saves. */
	if (!ARCH_SAVES_EVERY_THREAD)
		EXPECT_EQ(0, table_get(&self->tasks, row, "saves_user"));
	EXPECT_EQ(0, table_get(&self->tasks, row, "first_use"));
	ASSERT_EQ(child, waitpid(child, NULL, 0));
	ASSERT_EQ(0, table_read("totals", &self->totals));
	EXPECT_LT(0, table_get(&self->totals, table_row(&self->totals, "exited"),
			       "first_use"));
}

/*
 * A counter read after @before: unchanged if it is quiet, else not lower
 * (nothing lost). Returns whether it is.
 */
static bool kept(const struct table *before, const struct table *after,
		 const char *counter)
{
	uint64_t was = table_get(before, table_row(before, "all"), counter);
	uint64_t now = table_get(after, table_row(after, "all"), counter);

	return quiet_after_workload(counter) ? now == was : now >= was;
}

/*
 * A counter after a reset: zero if it is quiet, else zero or below its
 * value @before (a few switches' worth against a whole workload's).
 */
static bool cleared(const struct table *before, const struct table *after,
		    const char *counter)
{
	uint64_t was = table_get(before, table_row(before, "all"), counter);
	uint64_t now = table_get(after, table_row(after, "all"), counter);
	uint64_t now_exited = table_get(after, table_row(after, "exited"),
					counter);

	if (quiet_after_workload(counter))
		return now == 0 && now_exited == 0;
	return (now < was || !now) && (now_exited < was || !now_exited);
}

/* reset takes exactly "1"; everything else is refused and changes nothing. */
TEST_F_TIMEOUT(loaded, reset_semantics, TEST_SECONDS)
{
	static const char *const bad[] = { "0", "2", "yes", "", "1x", "-1", NULL };
	const char *const *write;
	uint64_t live_saves;
	int i;

	ASSERT_EQ(0, vecload_run(mixed_workload));
	ASSERT_EQ(0, table_read("totals", &self->totals));
	EXPECT_LT(0, table_get(&self->totals, table_row(&self->totals, "all"),
			       "saves_user"));
	for (write = bad; *write; write++)
		if (write_file(DEBUGFS_DIR "reset", *write) != -EINVAL) {
			_metadata->exit_code = KSFT_FAIL;
			printf("# reset accepted \"%s\"\n", *write);
		}
	EXPECT_NE(0, write_file(DEBUGFS_DIR "summary", "1"));
	EXPECT_NE(0, write_file(DEBUGFS_DIR "tasks", "1"));
	ASSERT_EQ(0, table_read("totals", &self->later));
	for (i = 0; i < NR_COUNTERS; i++) {
		const char *c = counters[i];

		EXPECT_TRUE(kept(&self->totals, &self->later, c)) {
			TH_LOG("counter %s changed by a refused write", c);
		}
	}

	ASSERT_EQ(0, write_file(DEBUGFS_DIR "reset", "1"));
	ASSERT_EQ(0, table_read("totals", &self->later));
	for (i = 0; i < NR_COUNTERS; i++) {
		const char *c = counters[i];

		EXPECT_TRUE(cleared(&self->totals, &self->later, c)) {
			TH_LOG("counter %s not cleared by reset", c);
		}
	}
	ASSERT_EQ(0, table_read("tasks", &self->tasks));
	live_saves = table_sum(&self->tasks, "saves_user");
	EXPECT_TRUE(quiet_after_workload("saves_user") ? live_saves == 0 :
		    live_saves < table_get(&self->totals,
					   table_row(&self->totals, "all"),
					   "saves_user")) {
		TH_LOG("live rows kept %llu saves", (unsigned long long)live_saves);
	}
}

/* Threads keep all 32 vector registers live across preemption: no corruption. */
/* Writes w[1] to w[0]; the errno it got. */
static int write_errno(void *w)
{
	return -write_file(((const char *const *)w)[0],
			   ((const char *const *)w)[1]);
}

/*
 * reset and calibrate ask what the ioctl and netlink ask: the writer's
 * CAP_SYS_ADMIN, not only the file's mode, which root passes without it.
 * A refused reset loses nothing.
 */
TEST_F_TIMEOUT(loaded, control_needs_cap_sys_admin, TEST_SECONDS)
{
	static const char *const reset[] = { DEBUGFS_DIR "reset", "1" };
	static const char *const calibrate[] = {
		DEBUGFS_DIR "calibrate", "calibrate"
	};
	int i;

	ASSERT_EQ(0, vecload_run(mixed_workload));
	ASSERT_EQ(0, table_read("totals", &self->totals));
	EXPECT_EQ(EPERM, with_only_capability(-1, write_errno, (void *)reset));
	EXPECT_EQ(EPERM, with_only_capability(CAP_NET_ADMIN, write_errno,
					      (void *)reset));
	EXPECT_EQ(EPERM, with_only_capability(-1, write_errno,
					      (void *)calibrate));
	ASSERT_EQ(0, table_read("totals", &self->later));
	for (i = 0; i < NR_COUNTERS; i++) {
		const char *c = counters[i];

		EXPECT_TRUE(kept(&self->totals, &self->later, c)) {
			TH_LOG("counter %s changed by a refused reset", c);
		}
	}
	EXPECT_EQ(0, with_only_capability(CAP_SYS_ADMIN, write_errno,
					  (void *)reset));
	EXPECT_EQ(0, with_only_capability(CAP_SYS_ADMIN, write_errno,
					  (void *)calibrate));
}

TEST_F_TIMEOUT(unloaded, registers_survive_preemption, TEST_SECONDS)
{
	static const char *const args[] = {
		"-t", "6", "-d", "3", "-m", "spin", NULL
	};

	ASSERT_EQ(0, module_load(""));
	EXPECT_EQ(0, vecload_run(args));
	EXPECT_EQ(0, module_unload());
}

TEST_F_TIMEOUT(unloaded, second_load_is_eexist, TEST_SECONDS)
{
	ASSERT_EQ(0, module_load(""));
	EXPECT_EQ(-EEXIST, module_load(""));
	EXPECT_EQ(0, module_unload());
}

TEST_F_TIMEOUT(unloaded, bad_table_size_is_einval, TEST_SECONDS)
{
	EXPECT_EQ(-EINVAL, module_load("table_size=3"));
	EXPECT_EQ(-EINVAL, module_load("table_size=99999999"));
}

/* 50 load/unload cycles while vector threads run: counters sane, no corruption. */
TEST_F_TIMEOUT(unloaded, load_unload_cycles_under_load, 3 * TEST_SECONDS)
{
	/*
	 * At nice 19 the load still switches whenever the loader waits (for
	 * stop_machine(), a grace period: where probes come and go) but leaves
	 * it the CPU otherwise: one CPU does the 50 cycles in a quarter the time.
	 */
	static const char *const args[] = {
		"-t", "3", "-d", "600", "-m", "mixed", "-n", "19", NULL
	};
	struct table *totals = malloc(sizeof(*totals));
	int cycle, all, busy = 0;
	struct vecload v;

	ASSERT_NE(NULL, totals);
	ASSERT_EQ(0, vecload_start(&v, args));
	for (cycle = 0; cycle < 50; cycle++) {
		ASSERT_EQ(0, module_load("")) TH_LOG("cycle %d", cycle);
		usleep(20 * 1000);
		ASSERT_EQ(0, table_read("totals", totals));
		all = table_row(totals, "all");
		/* Only the workload uses V: every counted save is its own. */
		EXPECT_LE(table_get(totals, all, "saves_discarded"),
			  table_get(totals, all, "saves_user"));
		EXPECT_LE(table_get(totals, all, "saves_involuntary"),
			  table_get(totals, all, "saves_user") +
			  table_get(totals, all, "saves_kernel"));
		busy += table_get(totals, all, "saves_user") > 0;
		ASSERT_EQ(0, module_unload()) TH_LOG("cycle %d", cycle);
	}
	/* The load ran, its vector state live, while the module came and went. */
	EXPECT_LE(cycle / 2, busy);
	kill(v.pid, SIGINT);
	EXPECT_EQ(0, vecload_wait(&v));
	free(totals);
}

/* A kmemleak scan after the module is gone finds nothing new. */
TEST_F_TIMEOUT(unloaded, kmemleak_clean_after_unload, TEST_SECONDS)
{
	static const char *const args[] = { "-t", "2", "-d", "1", NULL };
	static char report[65536];

	if (access(KMEMLEAK_PATH, F_OK))
		SKIP(return, "kernel without kmemleak");
	ASSERT_EQ(0, write_file(KMEMLEAK_PATH, "clear"));
	ASSERT_EQ(0, module_load("verify=1"));
	ASSERT_EQ(0, vecload_run(args));
	/* summary allocates (top-task ranking): include it in the scan. */
	ASSERT_LT(0, read_file(DEBUGFS_DIR "summary", report, sizeof(report)));
	ASSERT_EQ(0, module_unload());
	EXPECT_EQ(0, kmemleak_report(report, sizeof(report))) {
		TH_LOG("kmemleak:\n%s", report);
	}
}

/*
 * A kmemleak scan while the module is loaded finds nothing new either: the
 * task table's pointers live in __ro_after_init, which kmemleak does not
 * scan in a module, so it would call the table a leak.
 */
TEST_F_TIMEOUT(unloaded, kmemleak_clean_while_loaded, TEST_SECONDS)
{
	static const char *const args[] = { "-t", "2", "-d", "1", NULL };
	static char report[65536];

	if (access(KMEMLEAK_PATH, F_OK))
		SKIP(return, "kernel without kmemleak");
	ASSERT_EQ(0, write_file(KMEMLEAK_PATH, "clear"));
	ASSERT_EQ(0, module_load(""));
	ASSERT_EQ(0, vecload_run(args));
	/* Old enough for kmemleak to report. */
	sleep(6);
	EXPECT_EQ(0, kmemleak_report(report, sizeof(report))) {
		TH_LOG("kmemleak:\n%s", report);
	}
	/* Reported objects stay listed: clear them for the tests after. */
	write_file(KMEMLEAK_PATH, "clear");
}

/* Run only in a guest without V: the load fails with a reason in the log. */
TEST_F_TIMEOUT(unloaded, no_vector_is_enodev, TEST_SECONDS)
{
	static char log[1 << 16];
	int fd;
	ssize_t n;

	EXPECT_EQ(-ENODEV, module_load(""));
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	/* /dev/kmsg gives one record per read. */
	while ((n = read(fd, log, sizeof(log) - 1)) > 0 || errno == EPIPE) {
		log[n > 0 ? n : 0] = '\0';
		if (strstr(log, "rvvstat: no vector extension"))
			break;
	}
	close(fd);
	EXPECT_NE(NULL, strstr(log, "rvvstat: no vector extension"));
}

TEST_HARNESS_MAIN
