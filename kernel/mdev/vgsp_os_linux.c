// SPDX-License-Identifier: GPL-2.0
/*
 * The core's OS seam implemented with kernel primitives: kvzalloc,
 * mutexes, ktime, printk (rate limited) and one kthread per worker that
 * sleeps on a wait queue until woken.
 */
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>

#include "vgsp_drv.h"
#include "vgsp_os_linux.h"

struct vgsp_worker {
	struct task_struct *task;
	wait_queue_head_t wq;
	atomic_t pending;
	atomic64_t delay_ns;	/* worker_wake_after(): run again in; 0 none */
	vgsp_worker_fn fn;
	void *arg;
};

static void *k_zalloc(size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static void k_free(void *p)
{
	kvfree(p);
}

static struct vgsp_lock *k_lock_new(void)
{
	struct vgsp_lock *l = kzalloc(sizeof(*l), GFP_KERNEL);

	if (l)
		mutex_init(&l->m);
	return l;
}

static void k_lock_free(struct vgsp_lock *l)
{
	mutex_destroy(&l->m);
	kfree(l);
}

static void k_lock(struct vgsp_lock *l)
{
	mutex_lock(&l->m);
}

static void k_unlock(struct vgsp_lock *l)
{
	mutex_unlock(&l->m);
}

static u64 k_now_ns(void)
{
	return ktime_get_ns();
}

/*
 * Guest-triggered lines are limited per instance in the core
 * (vgsp_dev_log: 20 per 5 s each), so one guest cannot silence another.
 * This host-wide limit is only a backstop against many instances at once.
 */
static DEFINE_RATELIMIT_STATE(vgsp_log_rs, 5 * HZ, 1000);

static void k_log(enum vgsp_log_level level, const char *fmt, ...)
{
	struct va_format vaf;
	va_list ap;

	if (level == VGSP_LOG_DEBUG)
		return;
	if (!__ratelimit(&vgsp_log_rs))
		return;
	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	switch (level) {
	case VGSP_LOG_ERR:
		pr_err("%pV", &vaf);
		break;
	case VGSP_LOG_WARN:
		pr_warn("%pV", &vaf);
		break;
	default:
		pr_info("%pV", &vaf);
		break;
	}
	va_end(ap);
}

static int worker_main(void *data)
{
	struct vgsp_worker *w = data;

	while (!kthread_should_stop()) {
		s64 delay = atomic64_xchg(&w->delay_ns, 0);
		bool due = false;

		if (delay > 0) {
			due = wait_event_interruptible_hrtimeout(w->wq,
					atomic_read(&w->pending) ||
					kthread_should_stop(),
					ns_to_ktime(delay)) == -ETIME;
		} else {
			wait_event_interruptible(w->wq,
					atomic_read(&w->pending) ||
					atomic64_read(&w->delay_ns) ||
					kthread_should_stop());
		}
		if (kthread_should_stop())
			break;
		if (atomic_xchg(&w->pending, 0) || due)
			w->fn(w->arg);
		cond_resched();
	}
	return 0;
}

static struct vgsp_worker *k_worker_start(const char *name, vgsp_worker_fn fn,
					  void *arg)
{
	struct vgsp_worker *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return NULL;
	init_waitqueue_head(&w->wq);
	atomic_set(&w->pending, 0);
	atomic64_set(&w->delay_ns, 0);
	w->fn = fn;
	w->arg = arg;
	w->task = kthread_run(worker_main, w, "vgsp-%s", name);
	if (IS_ERR(w->task)) {
		kfree(w);
		return NULL;
	}
	return w;
}

static void k_worker_wake(struct vgsp_worker *w)
{
	atomic_set(&w->pending, 1);
	wake_up_interruptible(&w->wq);
}

static void k_worker_wake_after(struct vgsp_worker *w, u64 delay_ns)
{
	atomic64_set(&w->delay_ns, delay_ns ? (s64)delay_ns : 1);
	wake_up_interruptible(&w->wq);
}

static void k_yield(void)
{
	cond_resched();
}

static void k_worker_stop(struct vgsp_worker *w)
{
	if (!w)
		return;
	kthread_stop(w->task);
	kfree(w);
}

const struct vgsp_os_ops vgsp_linux_os_ops = {
	.zalloc = k_zalloc,
	.free = k_free,
	.lock_new = k_lock_new,
	.lock_free = k_lock_free,
	.lock = k_lock,
	.unlock = k_unlock,
	.now_ns = k_now_ns,
	.log = k_log,
	.worker_start = k_worker_start,
	.worker_wake = k_worker_wake,
	.worker_stop = k_worker_stop,
	.worker_wake_after = k_worker_wake_after,
	.resched = k_yield,
	.trace = vgsp_linux_trace,
	.trace_live = &vgsp_trace_live,
};
