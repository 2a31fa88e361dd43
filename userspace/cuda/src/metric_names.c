/* SPDX-License-Identifier: GPL-2.0 OR MIT */
#include "metric_names.h"

const char *const metric_required[] = {
	"init_ms", "malloc_first_ms", "malloc_ms_p50", "malloc_ms_p95",
	"launch_first_ms", "launch_warm_p50", "launch_warm_p95",
	"kernel_fma_ms", "kernel_fma_gflops", "throughput_kps",
	"clock64_median",
};
const size_t metric_required_count =
	sizeof(metric_required) / sizeof(metric_required[0]);

const char *const metric_extra[] = {
	"init_cuinit_ms", "ctx_create_ms", "module_load_ms",
	"launch_warm_event_p50", "launch_warm_event_p95",
};
const size_t metric_extra_count = sizeof(metric_extra) / sizeof(metric_extra[0]);
