// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diagnose.h"

/* Whether /proc/cpuinfo has a line starting with @key holding @word. */
static bool rvv_cpuinfo_has(const char *key, const char *word)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool found = false;
	char line[4096];

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, key, strlen(key)) && strstr(line, word);
	if (f)
		fclose(f);
	return found;
}

static bool rvv_module_loaded(void)
{
	return !access("/sys/module/rvvstat", F_OK);
}

int rvv_diagnose_not_loaded(struct rvv_error *err)
{
#if defined(__riscv)
	/* "isa : rv64imafdcv_zicsr..." names V among the single letters. */
	if (!rvv_cpuinfo_has("isa", "v_") && !rvv_cpuinfo_has("isa", "v\n"))
		return rvv_fail(err, -ENODEV,
				"this CPU (or kernel) has no vector extension, so rvvstat cannot load");
#elif defined(__x86_64__)
	if (!rvv_cpuinfo_has("flags", " xsave"))
		return rvv_fail(err, -ENODEV, "this CPU has no XSAVE, so rvvstat cannot load");
#endif
	return rvv_fail(err, -ENOENT,
			"the rvvstat module is not loaded: build and load it with \"make && sudo insmod module/rvvstat.ko\" in the source tree (\"sudo modprobe rvvstat\" once installed)");
}

int rvv_diagnose_missing(struct rvv_error *err)
{
	if (rvv_module_loaded())
		return rvv_fail(err, -EPROTONOSUPPORT,
				"the loaded rvvstat module has no netlink family: it is older than this %s; load the module built with it",
				program_invocation_short_name);
	return rvv_diagnose_not_loaded(err);
}

int rvv_diagnose_no_device(const char *path, struct rvv_error *err)
{
	if (rvv_module_loaded())
		return rvv_fail(err, -ENOENT,
				"no %s, though the rvvstat module is loaded: it is older than this %s (load the module built with it), or /dev is not devtmpfs",
				path, program_invocation_short_name);
	return rvv_diagnose_not_loaded(err);
}
