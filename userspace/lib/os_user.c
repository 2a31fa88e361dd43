// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The core's OS seam for userspace hosts (unit tests, fuzzers, the
 * vfio-user server): heap, pthread mutexes, CLOCK_MONOTONIC, stderr and
 * one pthread per worker sleeping on a condition variable.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vgsp_os.h"
#include "os_user.h"

struct vgsp_lock {
	pthread_mutex_t m;
};

struct vgsp_worker {
	pthread_t thread;
	pthread_mutex_t m;
	pthread_cond_t cv;
	bool pending, stop;
	u64 due_ns;		/* worker_wake_after(): run at; 0 none */
	vgsp_worker_fn fn;
	void *arg;
};

static int log_threshold = VGSP_LOG_WARN;

static void *u_zalloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

static void u_free(void *p)
{
	free(p);
}

static struct vgsp_lock *u_lock_new(void)
{
	struct vgsp_lock *l = calloc(1, sizeof(*l));

	if (l && pthread_mutex_init(&l->m, NULL)) {
		free(l);
		return NULL;
	}
	return l;
}

static void u_lock_free(struct vgsp_lock *l)
{
	pthread_mutex_destroy(&l->m);
	free(l);
}

static void u_lock(struct vgsp_lock *l)
{
	pthread_mutex_lock(&l->m);
}

static void u_unlock(struct vgsp_lock *l)
{
	pthread_mutex_unlock(&l->m);
}

static u64 u_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static unsigned int log_count[4];

static void u_log(enum vgsp_log_level level, const char *fmt, ...)
{
	va_list ap;

	if ((unsigned int)level < 4)
		__atomic_add_fetch(&log_count[level], 1, __ATOMIC_RELAXED);
	if ((int)level > log_threshold)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static void *worker_main(void *arg)
{
	struct vgsp_worker *w = arg;

	pthread_mutex_lock(&w->m);
	for (;;) {
		while (!w->pending && !w->stop) {
			struct timespec ts;

			if (!w->due_ns) {
				pthread_cond_wait(&w->cv, &w->m);
				continue;
			}
			if (u_now_ns() >= w->due_ns)
				break;
			ts.tv_sec = (time_t)(w->due_ns / 1000000000ULL);
			ts.tv_nsec = (long)(w->due_ns % 1000000000ULL);
			pthread_cond_timedwait(&w->cv, &w->m, &ts);
		}
		if (w->stop)
			break;
		w->pending = false;
		w->due_ns = 0;		/* this run is the delayed one too */
		pthread_mutex_unlock(&w->m);
		w->fn(w->arg);
		pthread_mutex_lock(&w->m);
	}
	pthread_mutex_unlock(&w->m);
	return NULL;
}

static struct vgsp_worker *u_worker_start(const char *name, vgsp_worker_fn fn,
					  void *arg)
{
	struct vgsp_worker *w = calloc(1, sizeof(*w));
	pthread_condattr_t ca;

	if (!w)
		return NULL;
	w->fn = fn;
	w->arg = arg;
	pthread_mutex_init(&w->m, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);	/* as due_ns */
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&w->thread, NULL, worker_main, w)) {
		free(w);
		return NULL;
	}
	pthread_setname_np(w->thread, name);
	return w;
}

static void u_worker_wake(struct vgsp_worker *w)
{
	pthread_mutex_lock(&w->m);
	w->pending = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->m);
}

static void u_worker_wake_after(struct vgsp_worker *w, u64 delay_ns)
{
	u64 due = u_now_ns() + delay_ns;

	pthread_mutex_lock(&w->m);
	if (!w->due_ns || due < w->due_ns)
		w->due_ns = due;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->m);
}

static void u_worker_stop(struct vgsp_worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->m);
	w->stop = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->m);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->m);
	free(w);
}

static const struct vgsp_os_ops user_ops = {
	.zalloc = u_zalloc,
	.free = u_free,
	.lock_new = u_lock_new,
	.lock_free = u_lock_free,
	.lock = u_lock,
	.unlock = u_unlock,
	.now_ns = u_now_ns,
	.log = u_log,
	.worker_start = u_worker_start,
	.worker_wake = u_worker_wake,
	.worker_stop = u_worker_stop,
	.worker_wake_after = u_worker_wake_after,
	/* .resched: none, pthreads are preempted anyway */
};

void vgsp_os_user_init(void)
{
	const char *lvl = getenv("VGSP_LOG");

	if (lvl)
		log_threshold = atoi(lvl);
	vgsp_os_set(&user_ops);
}

unsigned int vgsp_os_user_log_count(enum vgsp_log_level level)
{
	return (unsigned int)level < 4 ?
	       __atomic_load_n(&log_count[level], __ATOMIC_RELAXED) : 0;
}
