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
};

/* Per-instance frontend services. @fe is the frontend's own pointer. */
struct vgsp_fe_ops {
	/* Guest memory by IOVA (bus address as the device sees it). 0 or -errno. */
	int (*dma_read)(void *fe, u64 iova, void *buf, size_t len);
	int (*dma_write)(void *fe, u64 iova, const void *buf, size_t len);
	/*
	 * Deliver interrupt @vector (MSI-X vector index; 0 for MSI/INTx).
	 * Returns true if something was signalled (a trigger is configured
	 * and the vector is not masked).
	 */
	bool (*irq_signal)(void *fe, unsigned int vector);
};

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

#define vgsp_err(fmt, ...)  vgsp_os->log(VGSP_LOG_ERR, fmt, ##__VA_ARGS__)
#define vgsp_warn(fmt, ...) vgsp_os->log(VGSP_LOG_WARN, fmt, ##__VA_ARGS__)
#define vgsp_info(fmt, ...) vgsp_os->log(VGSP_LOG_INFO, fmt, ##__VA_ARGS__)
#define vgsp_dbg(fmt, ...)  vgsp_os->log(VGSP_LOG_DEBUG, fmt, ##__VA_ARGS__)

#endif /* VGSP_OS_H */
