/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Horizontal bar chart of oriented perf % per metric: bar = median ratio,
 * whisker = run-extreme range, solid line at 100 % (native), a dashed tick at
 * the metric's target. Red bars miss their target, green meet it, grey have
 * none. Longer bar is always better, so "worse" reads the same for all.
 */
#ifndef PERF_AB_SVG_H
#define PERF_AB_SVG_H

#include "ab_metrics.h"

#include <stdio.h>

void ab_svg_write(FILE *f, const char *title, const struct ab_row *rows, size_t n);

#endif
