/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rvvbench's plots, drawn by gnuplot (Debian's gnuplot-nox is enough): the
 * data and the script are kept next to the images, so a plot can be
 * redrawn or restyled by hand with "gnuplot STEM.gp" in that directory.
 */
#ifndef RVVBENCH_PLOT_H
#define RVVBENCH_PLOT_H

#include <stddef.h>

#include "../lib/error.h"

/* One line of a plot: y (and its sd, NAN for none) at each x; NAN y = no point. */
struct bench_plot_series {
	const char *name;		/* the legend, e.g. "fifo:10@on-vector" */
	size_t n;
	const double *x, *y, *sd;	/* sd may be NULL */
};

struct bench_plot {
	const char *stem;	/* the files: DIR/STEM.svg, .png, .dat and .gp */
	const char *title, *xlabel, *ylabel;	/* NULL for none */
	size_t n_series;
	const struct bench_plot_series *series;
};

/*
 * Writes the data and the gnuplot script under @dir and runs gnuplot on it
 * (fork/execvp, no shell; its stderr kept and quoted in the error), leaving
 * STEM.svg and STEM.png. -ENOPKG with "install gnuplot (apt-get install
 * gnuplot-nox)" if gnuplot is missing (STEM.dat and STEM.gp are written); -EIO if it fails or leaves an empty file; -EINVAL for a stem
 * that is not [a-z0-9_-]+ or nothing to plot; other -errno for files.
 */
int bench_plot_write(const char *dir, const struct bench_plot *p, struct rvv_error *err);

#endif /* RVVBENCH_PLOT_H */
