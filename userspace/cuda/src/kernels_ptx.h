/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The harness's device code: kernels/kernels.ptx as one NUL-ended string. */
#ifndef PERF_KERNELS_PTX_H
#define PERF_KERNELS_PTX_H
extern const char perf_kernels_ptx[];
#endif
