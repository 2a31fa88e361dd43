/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Metric classes, targets and oriented ratios; rules in ab_metrics.h. */
#define _POSIX_C_SOURCE 200809L
#include "ab_metrics.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BULK_COPY_MIN_BYTES (1UL << 20)

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

static void set(struct ab_class *c, const char *k, int dir, double t, const char *txt)
{
	c->klass = k;
	c->dir = dir;
	c->target_perf_pct = t;
	c->target_text = txt;
}

static void bound(struct ab_class *c, const char *b)
{
	c->bound = b;
	c->guest_cpu_bound = !strcmp(b, AB_BOUND_GUEST);
}

int ab_bound_override(const char *spec, const char *metric, struct ab_class *c)
{
	const char *eq = strchr(spec, '=');
	char glob[256];
	size_t n;

	if (!eq || eq == spec || !eq[1] || (n = (size_t)(eq - spec)) >= sizeof(glob))
		return -1;
	memcpy(glob, spec, n);
	glob[n] = '\0';
	if (fnmatch(glob, metric, 0) != 0)
		return 0;
	bound(c, eq + 1);
	return 1;
}

void ab_classify(const char *m, struct ab_class *c)
{
	static const char *const init[] = {
		"init_ms", "init_cuinit_ms", "ctx_create_ms", "module_load_ms",
		"malloc_first_ms", "launch_first_ms",
	};
	unsigned long bytes;
	size_t i;

	for (i = 0; i < sizeof(init) / sizeof(init[0]); i++)
		if (!strcmp(m, init[i])) {
			set(c, "initialization", -1, 50.0, "B <= 2x A");
			bound(c, AB_BOUND_GUEST);
			return;
		}
	if ((sscanf(m, "copy_htod_%lu_gbps", &bytes) == 1 ||
	     sscanf(m, "copy_dtoh_%lu_gbps", &bytes) == 1) && ends_with(m, "_gbps")) {
		if (bytes >= BULK_COPY_MIN_BYTES) {
			set(c, "bulk copy", +1, 95.0, ">= 95%");
			bound(c, AB_BOUND_DATA);
		} else {
			set(c, "small copy", +1, 0.0, "none agreed");
			bound(c, AB_BOUND_GUEST);
		}
		return;
	}
	if (sscanf(m, "copy_dtod_%lu_gbps", &bytes) == 1 && ends_with(m, "_gbps")) {
		/* device -> device: the GPU moves the bytes on both sides; libcuda
		 * 535 issues each copy as a kernel, so small ones (many per event
		 * pair) measure the guest's launch rate under TCG */
		if (bytes >= BULK_COPY_MIN_BYTES) {
			set(c, "device copy", +1, 90.0, ">= 90%");
			bound(c, AB_BOUND_GPU);
		} else {
			set(c, "small copy", +1, 0.0, "none agreed");
			bound(c, AB_BOUND_GUEST);
		}
		return;
	}
	if (!strcmp(m, "kernel_fma_gflops")) {
		set(c, "compute", +1, 95.0, ">= 95%");
		bound(c, AB_BOUND_GPU);
		return;
	}
	if (!strcmp(m, "kernel_fma_ms") || !strcmp(m, "clock64_median")) {
		set(c, "compute", -1, 95.0, ">= 95%");
		bound(c, AB_BOUND_GPU);
		return;
	}
	if (!strncmp(m, "malloc_ms_", 10) || !strncmp(m, "launch_warm", 11)) {
		set(c, "sync latency", -1, 0.0, "none agreed");
		bound(c, !strncmp(m, "launch_warm_event", 17) ? AB_BOUND_FWD : AB_BOUND_GUEST);
		return;
	}
	if (!strcmp(m, "throughput_kps")) {
		set(c, "launch throughput", +1, 0.0, "none agreed");
		bound(c, AB_BOUND_GUEST);
		return;
	}
	bound(c, AB_BOUND_UNKNOWN);
	/* Unknown metric: orient by unit suffix when there is one. */
	if (ends_with(m, "_ms") || ends_with(m, "_cycles"))
		set(c, "other", -1, 0.0, "none agreed");
	else if (ends_with(m, "_gbps") || ends_with(m, "_gflops") || ends_with(m, "_kps"))
		set(c, "other", +1, 0.0, "none agreed");
	else
		set(c, "other", 0, 0.0, "none (direction unknown)");
}

int ab_compute(struct ab_row *r)
{
	const struct ab_side *a = &r->a, *b = &r->b;

	ab_classify(r->name, &r->cls);
	if (a->median <= 0 || b->median <= 0 || a->min <= 0 || b->min <= 0)
		return -1;
	r->ratio_pct = 100.0 * b->median / a->median;
	if (r->cls.dir < 0) {
		r->perf_pct = 100.0 * a->median / b->median;
		r->perf_lo = 100.0 * a->min / b->max;
		r->perf_hi = 100.0 * a->max / b->min;
	} else {
		r->perf_pct = r->ratio_pct;
		r->perf_lo = 100.0 * b->min / a->max;
		r->perf_hi = 100.0 * b->max / a->min;
	}
	r->spread_a_pct = 100.0 * (a->max - a->min) / a->median;
	r->spread_b_pct = 100.0 * (b->max - b->min) / b->median;
	r->flagged = r->cls.target_perf_pct > 0 && r->perf_pct < r->cls.target_perf_pct;
	r->within_spread = r->perf_lo <= 100.0 && 100.0 <= r->perf_hi;
	return 0;
}
