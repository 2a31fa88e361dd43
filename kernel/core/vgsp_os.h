/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The seam between the OS-free core and whatever hosts it (vgsp.ko, the
 * userspace test library, the vfio-user server). The core reaches the OS
 * only through these calls; nothing else in kernel/core may include an OS
 * header.
 *
 * Two halves:
 *  - struct vgsp_os_ops: process-wide services (memory, locks, time, log,
 *    worker threads). One table, set once by the host with vgsp_os_set().
 *  - struct vgsp_fe_ops: per-instance services that need the frontend's
 *    context (guest memory by IOVA, interrupt delivery). Passed at instance
 *    creation together with an opaque frontend pointer.
 */
#ifndef VGSP_OS_H
#define VGSP_OS_H

#include "vgsp_types.h"

enum vgsp_log_level {
	VGSP_LOG_ERR,
	VGSP_LOG_WARN,
	VGSP_LOG_INFO,
	VGSP_LOG_DEBUG,
};

struct vgsp_lock;
struct vgsp_worker;

/*
 * Trace events: the core reports them through the optional trace op below
 * (one helper per event in trace.h). vgsp.ko turns each into a TRACE_EVENT
 * vgsp:vgsp_<event> (kernel/mdev/vgsp_trace.h), the userspace library into
 * a transcript line; docs/tracing.md shows how to read them. Arguments:
 */
enum vgsp_trace_event {
	VGSP_TRACE_DOORBELL,	/* a: enum vgsp_trace_doorbell, b: token */
	VGSP_TRACE_RPC_BEGIN,	/* name: function, a: function, b: bytes */
	/* name, a: function, b: NV status, c: reply bytes, d: control cmd */
	VGSP_TRACE_RPC_END,
	VGSP_TRACE_IRQ,		/* a: MSI-X vector, b: enum vgsp_trace_irq */
	/* a: chid, b: GP_GET, c: GP_PUT, d: the segment's dwords */
	VGSP_TRACE_GPFIFO_FETCH,
	/* a: chid, b: dwords run, c: VGSP_ENG_* (0 ok, 1 blocked, 2 yield, 3 error) */
	VGSP_TRACE_METHODS,
	/* a: chid, b: GP_GET, c: doorbell-to-idle ns (0: no doorbell seen) */
	VGSP_TRACE_WORK_DONE,
	/*
	 * An engine operation done (fifo/op_lat.c): a: chid, b: class (0 copy
	 * engine, 1 compute), c: submit ns (decoded -> on the engine), d: exec
	 * ns (on the engine -> done)
	 */
	VGSP_TRACE_OP,
	/*
	 * A compute launch handed to the backend (engine/gr.c): a: chid,
	 * b: QMD VA, c: grid width, d: grid height | depth << 32 (QMD V4;
	 * all 0 when the QMD could not be read)
	 */
	VGSP_TRACE_LAUNCH,
	VGSP_TRACE_NR,
};

enum vgsp_trace_doorbell {
	VGSP_TRACE_DB_GSP,	/* the GSP command queue (RPCs) */
	VGSP_TRACE_DB_CHANNEL,	/* a channel's work-submit token */
};

enum vgsp_trace_irq {
	VGSP_TRACE_IRQ_SIGNALLED,	/* the frontend signalled it */
	VGSP_TRACE_IRQ_SUPPRESSED,	/* no trigger set, or masked */
	VGSP_TRACE_IRQ_GATED,		/* the guest disabled MSI/INTx */
};

struct vgsp_trace_rec {
	enum vgsp_trace_event ev;
	const char *dev;	/* the instance's name (its UUID) */
	const char *name;	/* RPC function name; NULL for the others */
	u64 a, b, c, d;
};

/* Called by a worker thread each time it is woken (wakes coalesce). */
typedef void (*vgsp_worker_fn)(void *arg);

struct vgsp_os_ops {
	/* Zeroed memory that may be large; may sleep. NULL on failure. */
	void *(*zalloc)(size_t size);
	void (*free)(void *ptr);

	/* A sleeping mutex: held across guest-memory access. */
	struct vgsp_lock *(*lock_new)(void);
	void (*lock_free)(struct vgsp_lock *lock);
	void (*lock)(struct vgsp_lock *lock);
	void (*unlock)(struct vgsp_lock *lock);

	/* Monotonic nanoseconds. */
	u64 (*now_ns)(void);

	/* Rate limiting is the caller's job (see vgsp_log_ratelimited). */
	__printf(2, 3) void (*log)(enum vgsp_log_level level,
				    const char *fmt, ...);

	/*
	 * Event-driven worker: sleeps until vgsp_worker_wake(), then runs
	 * fn(arg); wakes that arrive while fn runs cause one more run.
	 * worker_stop() waits for a running fn to return; fn is never
	 * called after it returns.
	 */
	struct vgsp_worker *(*worker_start)(const char *name, vgsp_worker_fn fn,
					    void *arg);
	void (*worker_wake)(struct vgsp_worker *worker);
	void (*worker_stop)(struct vgsp_worker *worker);
	/*
	 * Optional: run fn once more about @delay_ns from now unless woken
	 * sooner. Lets the core poll guest memory slowly (a status queue
	 * the guest drains without ringing) instead of spinning. NULL: only
	 * the next worker_wake() runs fn.
	 */
	void (*worker_wake_after)(struct vgsp_worker *worker, u64 delay_ns);
	/* Optional: let other work run (long loops under the device lock). */
	void (*resched)(void);
	/*
	 * Optional: one trace event; @rec is valid only for the call. Called
	 * with instance locks held, from BAR traps and workers: must not
	 * sleep nor call back into the core. NULL: no tracing.
	 */
	void (*trace)(const struct vgsp_trace_rec *rec);
	/*
	 * Optional, with trace: how many events someone listens to now (the
	 * host keeps it). While it is 0 the core builds no record and looks
	 * up no names: an RPC in a BAR trap pays one load for its events,
	 * not an indirect call and two name lookups each. NULL: every event
	 * goes to trace.
	 */
	const int *trace_live;
};

/* One piece of a vectored guest-memory access (vgsp_fe_ops.dma_hot_v). */
#define VGSP_DMA_SEGS_MAX	4

struct vgsp_dma_seg {
	u64 iova;
	void *buf;
	u32 len;
};

/* Per-instance frontend services. @fe is the frontend's own pointer. */
struct vgsp_fe_ops {
	/* Guest memory by IOVA (bus address as the device sees it). 0 or -errno. */
	int (*dma_read)(void *fe, u64 iova, void *buf, size_t len);
	int (*dma_write)(void *fe, u64 iova, const void *buf, size_t len);
	/*
	 * Optional, the same for the few guest pages the device touches on
	 * every RPC (the GSP queues and their page table): a frontend may
	 * keep those pinned. NULL: dma_read/dma_write.
	 */
	int (*dma_read_hot)(void *fe, u64 iova, void *buf, size_t len);
	int (*dma_write_hot)(void *fe, u64 iova, const void *buf, size_t len);
	/*
	 * Optional, the same for @n (<= VGSP_DMA_SEGS_MAX) pieces in one
	 * call, all read or all written, each within one page: a small RPC
	 * is two of these instead of four single accesses. The pieces are
	 * accessed in order, and a frontend on a weakly ordered host keeps
	 * that order visible (the queue header is read before the slot it
	 * points to; a reply slot is written before the pointer that
	 * publishes it). NULL: one hot access per piece.
	 */
	int (*dma_hot_v)(void *fe, const struct vgsp_dma_seg *seg,
			 unsigned int n, bool write);
	/*
	 * Deliver interrupt @vector (MSI-X vector index; 0 for MSI/INTx).
	 * Returns true if something was signalled (a trigger is configured
	 * and the vector is not masked).
	 */
	bool (*irq_signal)(void *fe, unsigned int vector);
	/*
	 * Optional (BAR1 mapped, mm/bar1_map.h): drop the user's mappings of
	 * BAR1, all of them or (@doorbells) the doorbell pages only, so the
	 * next access faults. Called with the device lock or no lock held,
	 * never the fifo or FB-store lock.
	 */
	void (*bar1_zap)(void *fe, bool doorbells);
};

/*
 * vgsp.ko has one frontend (kernel/mdev), whose hot op the core calls
 * directly (VGSP_INDIRECT_CALL_1): twice per small RPC.
 */
#ifdef __KERNEL__
int vgsp_mdev_dma_hot_v(void *fe, const struct vgsp_dma_seg *seg,
			unsigned int n, bool write);
#define vgsp_fe_dma_hot_v(ops, ...)					\
	VGSP_INDIRECT_CALL_1((ops)->dma_hot_v, vgsp_mdev_dma_hot_v,	\
			     __VA_ARGS__)
#else
#define vgsp_fe_dma_hot_v(ops, ...)	((ops)->dma_hot_v(__VA_ARGS__))
#endif

/* Installed once by the host before any other core call. */
void vgsp_os_set(const struct vgsp_os_ops *ops);
extern const struct vgsp_os_ops *vgsp_os;

static inline void *vgsp_zalloc(size_t size)
{
	return vgsp_os->zalloc(size);
}

static inline void vgsp_free(void *ptr)
{
	if (ptr)
		vgsp_os->free(ptr);
}

static inline u64 vgsp_now_ns(void)
{
	return vgsp_os->now_ns();
}

static inline void vgsp_yield(void)
{
	if (vgsp_os->resched)
		vgsp_os->resched();
}

static inline void vgsp_worker_wake_after(struct vgsp_worker *w, u64 delay_ns)
{
	if (vgsp_os->worker_wake_after)
		vgsp_os->worker_wake_after(w, delay_ns);
}

static inline bool vgsp_tracing(void)
{
	return vgsp_os->trace &&
	       (!vgsp_os->trace_live || vgsp_load_int(vgsp_os->trace_live));
}

static inline void vgsp_trace(enum vgsp_trace_event ev, const char *dev,
			      const char *name, u64 a, u64 b, u64 c, u64 d)
{
	struct vgsp_trace_rec r = {
		.ev = ev, .dev = dev, .name = name, .a = a, .b = b, .c = c,
		.d = d,
	};

	if (vgsp_tracing())
		vgsp_os->trace(&r);
}

#define vgsp_err(fmt, ...)  vgsp_os->log(VGSP_LOG_ERR, fmt, ##__VA_ARGS__)
#define vgsp_warn(fmt, ...) vgsp_os->log(VGSP_LOG_WARN, fmt, ##__VA_ARGS__)
#define vgsp_info(fmt, ...) vgsp_os->log(VGSP_LOG_INFO, fmt, ##__VA_ARGS__)
#define vgsp_dbg(fmt, ...)  vgsp_os->log(VGSP_LOG_DEBUG, fmt, ##__VA_ARGS__)

#endif /* VGSP_OS_H */
