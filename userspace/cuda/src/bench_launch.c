/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Launch latency (empty kernel) and back-to-back launch throughput. */
#include "harness.h"

#include <stdlib.h>

static void launch_empty(struct harness *h)
{
	CK(h, LaunchKernel(h->k_empty, 1, 1, 1, 1, 1, 1, 0, h->stream, NULL, NULL));
}

void bench_launch(struct harness *h)
{
	unsigned int i, n = h->cfg.n_warm;
	double *ms = harness_xmalloc(n * sizeof(*ms)), t0;
	CUevent e0, e1;

	/* First launch of the process: includes any lazy per-kernel setup. */
	t0 = now_ms();
	launch_empty(h);
	CK(h, StreamSynchronize(h->stream));
	emit_metric("launch_first_ms", now_ms() - t0);

	/* Host view: launch call to completion seen by the host. */
	for (i = 0; i < n; i++) {
		t0 = now_ms();
		launch_empty(h);
		CK(h, StreamSynchronize(h->stream));
		ms[i] = now_ms() - t0;
	}
	emit_p50_p95("launch_warm", ms, n);

	/* Device view: GPU timestamps of events around each launch. */
	CK(h, EventCreate(&e0, CU_EVENT_DEFAULT));
	CK(h, EventCreate(&e1, CU_EVENT_DEFAULT));
	for (i = 0; i < n; i++) {
		float f = 0.0f;

		CK(h, EventRecord(e0, h->stream));
		launch_empty(h);
		CK(h, EventRecord(e1, h->stream));
		CK(h, EventSynchronize(e1));
		CK(h, EventElapsedTime(&f, e0, e1));
		ms[i] = f;
	}
	emit_p50_p95("launch_warm_event", ms, n);
	CK(h, EventDestroy(e0));
	CK(h, EventDestroy(e1));
	free(ms);
}

void bench_throughput(struct harness *h)
{
	unsigned int i, n = h->cfg.n_thru, got = 0;
	CUdeviceptr ctr;
	void *args[1] = { &ctr };
	double t0, t1;

	CK(h, MemAlloc(&ctr, sizeof(unsigned int)));
	CK(h, MemsetD8(ctr, 0, sizeof(unsigned int)));
	CK(h, CtxSynchronize());
	t0 = now_ms();
	for (i = 0; i < n; i++)
		CK(h, LaunchKernel(h->k_tick, 1, 1, 1, 1, 1, 1, 0, h->stream, args, NULL));
	CK(h, StreamSynchronize(h->stream));
	t1 = now_ms();
	emit_metric("throughput_kps", (double)n / ((t1 - t0) / 1e3));
	/* Each k_tick adds 1 in stream order: anything but n means lost work. */
	CK(h, MemcpyDtoH(&got, ctr, sizeof(got)));
	emit_check(h, "throughput_counter", 1, got != n);
	CK(h, MemFree(ctr));
}
