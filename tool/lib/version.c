// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "client.h"
#include "format.h"
#include "version.h"

#ifndef RVVSTAT_VERSION
#error "RVVSTAT_VERSION comes from the top Makefile's VERSION (tool/Makefile passes it)"
#endif

int rvv_print_version(FILE *out, const char *program)
{
	struct rvv_error err = { 0 };
	struct rvv_client *c;
	struct rvv_info info;

	fprintf(out, "%s %s (built for rvvstat ABI %d)\n", program, RVVSTAT_VERSION,
		RVVSTAT_ABI_VERSION);
	if (!rvv_client_open(&c, &err)) {
		if (!rvv_client_get_info(c, &info, &err))
			fprintf(out, "module: ABI %u, %s, %u-bit registers\n", info.abi_version,
				rvv_format_backend_name(info.backend), info.vector_bits);
		rvv_client_close(c);
	}
	if (err.code)
		fprintf(out, "module: %s\n", err.message);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
