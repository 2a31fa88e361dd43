/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vgsp.ko's trace events, system "vgsp": what the core reports through its
 * trace hook (enum vgsp_trace_event in core/vgsp_os.h), one TRACE_EVENT
 * each (TRACE_EVENT_FN: enabling one counts in vgsp_trace_live, which the
 * core reads before it builds any record). The printed form is the line vgsp-vfu's transcript carries for the
 * same event (userspace/lib/os_user.c). Reading them: docs/tracing.md.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vgsp

#if !defined(VGSP_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define VGSP_TRACE_H

#include <linux/tracepoint.h>

#include "vgsp_compat.h"

/* Each event's first listener and last one (vgsp_trace.c: vgsp_trace_live). */
int vgsp_trace_reg(void);
void vgsp_trace_unreg(void);

TRACE_EVENT_FN(vgsp_doorbell,
	TP_PROTO(const char *dev, u32 which, u32 token),
	TP_ARGS(dev, which, token),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, which)
		__field(u32, token)
	),
	TP_fast_assign(
		vgsp_assign_str(dev, dev);
		__entry->which = which;
		__entry->token = token;
	),
	TP_printk("dev=%s queue=%s token=0x%x", __get_str(dev),
		  __entry->which ? "channel" : "gsp", __entry->token),
	vgsp_trace_reg, vgsp_trace_unreg
);

TRACE_EVENT_FN(vgsp_rpc_begin,
	TP_PROTO(const char *dev, u32 fn, const char *name, u32 bytes),
	TP_ARGS(dev, fn, name, bytes),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, fn)
		__string(name, name)
		__field(u32, bytes)
	),
	TP_fast_assign(
		vgsp_assign_str(dev, dev);
		__entry->fn = fn;
		vgsp_assign_str(name, name);
		__entry->bytes = bytes;
	),
	TP_printk("dev=%s fn=%u %s bytes=%u", __get_str(dev), __entry->fn,
		  __get_str(name), __entry->bytes),
	vgsp_trace_reg, vgsp_trace_unreg
);

TRACE_EVENT_FN(vgsp_rpc_end,
	TP_PROTO(const char *dev, u32 fn, const char *name, u32 status,
		 u32 reply, u32 cmd),
	TP_ARGS(dev, fn, name, status, reply, cmd),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, fn)
		__string(name, name)
		__field(u32, status)
		__field(u32, reply)
		__field(u32, cmd)
	),
	TP_fast_assign(
		vgsp_assign_str(dev, dev);
		__entry->fn = fn;
		vgsp_assign_str(name, name);
		__entry->status = status;
		__entry->reply = reply;
		__entry->cmd = cmd;
	),
	TP_printk("dev=%s fn=%u %s status=0x%x reply=%u cmd=0x%x",
		  __get_str(dev), __entry->fn, __get_str(name),
		  __entry->status, __entry->reply, __entry->cmd),
	vgsp_trace_reg, vgsp_trace_unreg
);

TRACE_EVENT_FN(vgsp_irq,
	TP_PROTO(const char *dev, u32 vector, u32 how),
	TP_ARGS(dev, vector, how),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, vector)
		__field(u32, how)
	),
	TP_fast_assign(
		vgsp_assign_str(dev, dev);
		__entry->vector = vector;
		__entry->how = how;
	),
	TP_printk("dev=%s vector=%u %s", __get_str(dev), __entry->vector,
		  __print_symbolic(__entry->how,
				   { VGSP_TRACE_IRQ_SIGNALLED, "signalled" },
				   { VGSP_TRACE_IRQ_SUPPRESSED, "suppressed" },
				   { VGSP_TRACE_IRQ_GATED, "gated" })),
	vgsp_trace_reg, vgsp_trace_unreg
);

TRACE_EVENT_FN(vgsp_gpfifo_fetch,
	TP_PROTO(const char *dev, u32 chid, u32 get, u32 put, u32 dwords),
	TP_ARGS(dev, chid, get, put, dwords),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, chid)
		__field(u32, get)
		__field(u32, put)
		__field(u32, dwords)
	),
	TP_fast_assign(
		vgsp_assign_str(dev, dev);
		__entry->chid = chid;
		__entry->get = get;
		__entry->put = put;
		__entry->dwords = dwords;
	),
	TP_printk("dev=%s chid=%u get=%u put=%u dwords=%u", __get_str(dev),
		  __entry->chid, __entry->get, __entry->put, __entry->dwords),
	vgsp_trace_reg, vgsp_trace_unreg
);

TRACE_EVENT_FN(vgsp_methods,
	TP_PROTO(const char *dev, u32 chid, u32 dwords, u32 rc),
	TP_ARGS(dev, chid, dwords, rc),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, chid)
		__field(u32, dwords)
		__field(u32, rc)
	),
	TP_fast_assign(
		vgsp_assign_str(dev, dev);
		__entry->chid = chid;
		__entry->dwords = dwords;
		__entry->rc = rc;
	),
	TP_printk("dev=%s chid=%u dwords=%u %s", __get_str(dev),
		  __entry->chid, __entry->dwords,
		  __print_symbolic(__entry->rc, { 0, "done" }, { 1, "blocked" },
				   { 2, "yield" }, { 3, "error" })),
	vgsp_trace_reg, vgsp_trace_unreg
);

TRACE_EVENT_FN(vgsp_work_done,
	TP_PROTO(const char *dev, u32 chid, u32 get, u64 latency_ns),
	TP_ARGS(dev, chid, get, latency_ns),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, chid)
		__field(u32, get)
		__field(u64, latency_ns)
	),
	TP_fast_assign(
		vgsp_assign_str(dev, dev);
		__entry->chid = chid;
		__entry->get = get;
		__entry->latency_ns = latency_ns;
	),
	TP_printk("dev=%s chid=%u get=%u latency_ns=%llu", __get_str(dev),
		  __entry->chid, __entry->get,
		  (unsigned long long)__entry->latency_ns),
	vgsp_trace_reg, vgsp_trace_unreg
);

TRACE_EVENT_FN(vgsp_op,
	TP_PROTO(const char *dev, u32 chid, u32 cls, u64 submit_ns,
		 u64 exec_ns),
	TP_ARGS(dev, chid, cls, submit_ns, exec_ns),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, chid)
		__field(u32, cls)
		__field(u64, submit_ns)
		__field(u64, exec_ns)
	),
	TP_fast_assign(
		vgsp_assign_str(dev, dev);
		__entry->chid = chid;
		__entry->cls = cls;
		__entry->submit_ns = submit_ns;
		__entry->exec_ns = exec_ns;
	),
	TP_printk("dev=%s chid=%u class=%s submit_ns=%llu exec_ns=%llu",
		  __get_str(dev), __entry->chid,
		  __entry->cls ? "gr" : "ce",
		  (unsigned long long)__entry->submit_ns,
		  (unsigned long long)__entry->exec_ns),
	vgsp_trace_reg, vgsp_trace_unreg
);

TRACE_EVENT_FN(vgsp_launch,
	TP_PROTO(const char *dev, u32 chid, u64 qmd, u64 w, u32 h, u32 d),
	TP_ARGS(dev, chid, qmd, w, h, d),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, chid)
		__field(u64, qmd)
		__field(u64, w)
		__field(u32, h)
		__field(u32, d)
	),
	TP_fast_assign(
		vgsp_assign_str(dev, dev);
		__entry->chid = chid;
		__entry->qmd = qmd;
		__entry->w = w;
		__entry->h = h;
		__entry->d = d;
	),
	TP_printk("dev=%s chid=%u qmd=0x%llx grid=%llux%ux%u", __get_str(dev),
		  __entry->chid, (unsigned long long)__entry->qmd,
		  (unsigned long long)__entry->w, __entry->h, __entry->d),
	vgsp_trace_reg, vgsp_trace_unreg
);

#endif /* VGSP_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vgsp_trace
#include <trace/define_trace.h>
