// SPDX-License-Identifier: GPL-2.0
/*
 * The core's trace hook (vgsp_os_ops.trace) as TRACE_EVENTs: one event per
 * enum vgsp_trace_event, each costing a static branch while it is off.
 */
#include "vgsp_drv.h"

#define CREATE_TRACE_POINTS
#include "vgsp_trace.h"

/*
 * How many vgsp events have a listener (the OS seam's trace_live): the
 * tracepoint core calls reg/unreg under its own mutex, one event at a time.
 */
int vgsp_trace_live;

int vgsp_trace_reg(void)
{
	WRITE_ONCE(vgsp_trace_live, vgsp_trace_live + 1);
	return 0;
}

void vgsp_trace_unreg(void)
{
	WRITE_ONCE(vgsp_trace_live, vgsp_trace_live - 1);
}

void vgsp_linux_trace(const struct vgsp_trace_rec *r)
{
	const char *name = r->name ? r->name : "?";

	switch (r->ev) {
	case VGSP_TRACE_DOORBELL:
		trace_vgsp_doorbell(r->dev, r->a, r->b);
		break;
	case VGSP_TRACE_RPC_BEGIN:
		trace_vgsp_rpc_begin(r->dev, r->a, name, r->b);
		break;
	case VGSP_TRACE_RPC_END:
		trace_vgsp_rpc_end(r->dev, r->a, name, r->b, r->c, r->d);
		break;
	case VGSP_TRACE_IRQ:
		trace_vgsp_irq(r->dev, r->a, r->b);
		break;
	case VGSP_TRACE_GPFIFO_FETCH:
		trace_vgsp_gpfifo_fetch(r->dev, r->a, r->b, r->c, r->d);
		break;
	case VGSP_TRACE_METHODS:
		trace_vgsp_methods(r->dev, r->a, r->b, r->c);
		break;
	case VGSP_TRACE_WORK_DONE:
		trace_vgsp_work_done(r->dev, r->a, r->b, r->c);
		break;
	case VGSP_TRACE_LAUNCH:
		trace_vgsp_launch(r->dev, r->a, r->b, r->c, (u32)r->d,
				  (u32)(r->d >> 32));
		break;
	case VGSP_TRACE_OP:
		trace_vgsp_op(r->dev, r->a, r->b, r->c, r->d);
		break;
	default:
		break;
	}
}
