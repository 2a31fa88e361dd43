/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The core's trace points, one helper per event (the events and their
 * arguments: enum vgsp_trace_event in vgsp_os.h). Each is one call of the
 * OS seam's optional trace op: nothing when the host installs none. The
 * RPC pair needs the GSP's ABI: vgsp_trace_rpc_begin/end in gsp/gsp_priv.h.
 * Reading them: docs/tracing.md.
 */
#ifndef VGSP_CORE_TRACE_H
#define VGSP_CORE_TRACE_H

#include "device.h"

/* A doorbell rang (BAR trap): the GSP queue, or a channel's token. */
static inline void vgsp_trace_doorbell(struct vgsp_dev *dev,
				       enum vgsp_trace_doorbell which,
				       u32 token)
{
	vgsp_trace(VGSP_TRACE_DOORBELL, dev->name, NULL, which, token, 0, 0);
}

/* An interrupt was raised towards the guest, and what became of it. */
static inline void vgsp_trace_irq(struct vgsp_dev *dev, unsigned int vector,
				  enum vgsp_trace_irq how)
{
	vgsp_trace(VGSP_TRACE_IRQ, dev->name, NULL, vector, how, 0, 0);
}

/* A GPFIFO entry with a pushbuffer segment was fetched. */
static inline void vgsp_trace_gpfifo_fetch(struct vgsp_dev *dev, u32 chid,
					   u32 gp_get, u32 gp_put, u32 dwords)
{
	vgsp_trace(VGSP_TRACE_GPFIFO_FETCH, dev->name, NULL, chid, gp_get,
		   gp_put, dwords);
}

/* One run of a segment's methods: @dwords decoded, its outcome. */
static inline void vgsp_trace_methods(struct vgsp_dev *dev, u32 chid,
				      u32 dwords, int rc)
{
	vgsp_trace(VGSP_TRACE_METHODS, dev->name, NULL, chid, dwords,
		   (u64)rc, 0);
}

/* A channel went idle: every entry up to GP_PUT is done. */
static inline void vgsp_trace_work_done(struct vgsp_dev *dev, u32 chid,
					u32 gp_get, u64 latency_ns)
{
	vgsp_trace(VGSP_TRACE_WORK_DONE, dev->name, NULL, chid, gp_get,
		   latency_ns, 0);
}

/* An engine operation done: its submit and exec times (fifo/op_lat.c). */
static inline void vgsp_trace_op(struct vgsp_dev *dev, u32 chid, u32 cls,
				 u64 submit_ns, u64 exec_ns)
{
	vgsp_trace(VGSP_TRACE_OP, dev->name, NULL, chid, cls, submit_ns,
		   exec_ns);
}

/* A compute launch: which QMD and its grid, to tell kernels apart. */
static inline void vgsp_trace_launch(struct vgsp_dev *dev, u32 chid,
				     u64 qmd_va, u32 w, u32 h, u32 d)
{
	vgsp_trace(VGSP_TRACE_LAUNCH, dev->name, NULL, chid, qmd_va, w,
		   h | (u64)d << 32);
}

#endif /* VGSP_CORE_TRACE_H */
