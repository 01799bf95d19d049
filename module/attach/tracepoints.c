// SPDX-License-Identifier: GPL-2.0
/* Probes on kernel tracepoints, found by name: most are not exported. */
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "attach/tracepoints.h"

static void rvv_find_tracepoint(struct tracepoint *tp, void *priv)
{
	struct rvv_tracepoint *want = priv;

	if (!strcmp(tp->name, want->name))
		want->tp = tp;
}

int rvv_tracepoints_attach(struct rvv_tracepoint *tps, int nr)
{
	int i, err;

	for (i = 0; i < nr; i++) {
		for_each_kernel_tracepoint(rvv_find_tracepoint, &tps[i]);
		if (!tps[i].tp) {
			pr_err("tracepoint %s not found\n", tps[i].name);
			return -ENOENT;
		}
		err = tracepoint_probe_register(tps[i].tp, tps[i].probe, NULL);
		if (err) {
			pr_err("cannot attach to tracepoint %s (%d)\n",
			       tps[i].name, err);
			return err;
		}
		tps[i].registered = true;
	}
	return 0;
}

void rvv_tracepoints_detach(struct rvv_tracepoint *tps, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (tps[i].registered)
			tracepoint_probe_unregister(tps[i].tp, tps[i].probe,
						    NULL);
		tps[i].registered = false;
	}
}
