// SPDX-License-Identifier: GPL-2.0
/*
 * Keeps rvvtop and rvvbench out of what they measure on RISC-V. Linked into
 * each program itself, not librvvstat.a: the loader runs only an
 * executable's .preinit_array.
 *
 * OpenSSL (3.2 and later, loaded through libcurl) reads the vlenb CSR from
 * a library constructor when the CPU has V. That one vector instruction
 * turns V on for the thread; from then on every syscall leaves the vector
 * registers dirty and every context switch saves them (1 KiB at VLEN 256),
 * so the monitor would be a vector thread near the top of its own table
 * (and the load generator one more vector thread beside the server).
 * OPENSSL_riscvcap, when set, stands in for the CPU's capabilities; without
 * "_V" in it OpenSSL never touches a vector register, and plain HTTP to
 * llama-server needs none of its vector code.
 *
 * It must be in the environment before the constructors run, and setenv()
 * cannot put it there: libc's own initialisation, which comes after
 * .preinit_array, resets environ to the one the process started with. So
 * the program executes itself again with the variable added, before any
 * library constructor has run. A value the user set is kept; if the exec
 * fails, the program runs on as it is.
 */
#include <string.h>
#include <unistd.h>

#if defined(__riscv)
#define OPENSSL_CAPS	"OPENSSL_riscvcap="

static void keep_openssl_off_vector(int argc, char **argv, char **envp)
{
	size_t n = 0;

	(void)argc;
	for (; envp[n]; n++)
		if (!strncmp(envp[n], OPENSSL_CAPS, sizeof(OPENSSL_CAPS) - 1))
			return;
	{
		char *env[n + 2];

		memcpy(env, envp, n * sizeof(*env));
		env[n] = OPENSSL_CAPS "RV64GC";
		env[n + 1] = NULL;
		execve("/proc/self/exe", argv, env);
	}
}

__attribute__((section(".preinit_array"), used))
static void (*const preinit)(int, char **, char **) = keep_openssl_off_vector;
#endif
