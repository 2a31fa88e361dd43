// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The core's OS seam for userspace hosts (unit tests, fuzzers, the
 * vfio-user server): heap, pthread mutexes, CLOCK_MONOTONIC, stderr and
 * one pthread per worker sleeping on a condition variable. Trace events
 * become text lines for a sink (vgsp_os_user_trace(), VGSP_TRACE=FILE).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vgsp_os.h"
#include "os_user.h"
#include "gsp/gsp.h"

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
static pthread_mutex_t last_err_lock = PTHREAD_MUTEX_INITIALIZER;
static char last_err[512];

static void u_log(enum vgsp_log_level level, const char *fmt, ...)
{
	va_list ap;

	if ((unsigned int)level < 4)
		__atomic_add_fetch(&log_count[level], 1, __ATOMIC_RELAXED);
	if (level == VGSP_LOG_ERR) {
		pthread_mutex_lock(&last_err_lock);
		va_start(ap, fmt);
		vsnprintf(last_err, sizeof(last_err), fmt, ap);
		va_end(ap);
		pthread_mutex_unlock(&last_err_lock);
	}
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

/*
 * Trace events as lines, the same text as vgsp.ko's TRACE_EVENTs print
 * after "<event>: " (kernel/mdev/vgsp_trace.h).
 */
int vgsp_os_user_trace_format(const struct vgsp_trace_rec *r, char *buf,
			      size_t len)
{
	static const char *const irq_how[] = { "signalled", "suppressed", "gated" };
	static const char *const eng_rc[] = { "done", "blocked", "yield", "error" };
	const char *name = r->name ? r->name : "?";

	switch (r->ev) {
	case VGSP_TRACE_DOORBELL:
		return snprintf(buf, len, "vgsp_doorbell: dev=%s queue=%s token=0x%x",
				r->dev, r->a ? "channel" : "gsp", (unsigned int)r->b);
	case VGSP_TRACE_RPC_BEGIN:
		return snprintf(buf, len, "vgsp_rpc_begin: dev=%s fn=%u %s bytes=%u",
				r->dev, (unsigned int)r->a, name, (unsigned int)r->b);
	case VGSP_TRACE_RPC_END:
		return snprintf(buf, len,
				"vgsp_rpc_end: dev=%s fn=%u %s status=0x%x reply=%u cmd=0x%x",
				r->dev, (unsigned int)r->a, name, (unsigned int)r->b,
				(unsigned int)r->c, (unsigned int)r->d);
	case VGSP_TRACE_IRQ:
		return snprintf(buf, len, "vgsp_irq: dev=%s vector=%u %s", r->dev,
				(unsigned int)r->a, r->b < 3 ? irq_how[r->b] : "?");
	case VGSP_TRACE_GPFIFO_FETCH:
		return snprintf(buf, len,
				"vgsp_gpfifo_fetch: dev=%s chid=%u get=%u put=%u dwords=%u",
				r->dev, (unsigned int)r->a, (unsigned int)r->b,
				(unsigned int)r->c, (unsigned int)r->d);
	case VGSP_TRACE_METHODS:
		return snprintf(buf, len, "vgsp_methods: dev=%s chid=%u dwords=%u %s",
				r->dev, (unsigned int)r->a, (unsigned int)r->b,
				r->c < 4 ? eng_rc[r->c] : "?");
	case VGSP_TRACE_WORK_DONE:
		return snprintf(buf, len,
				"vgsp_work_done: dev=%s chid=%u get=%u latency_ns=%" PRIu64,
				r->dev, (unsigned int)r->a, (unsigned int)r->b, r->c);
	case VGSP_TRACE_LAUNCH:
		return snprintf(buf, len,
				"vgsp_launch: dev=%s chid=%u qmd=0x%" PRIx64
				" grid=%" PRIu64 "x%u" "x%u", r->dev,
				(unsigned int)r->a, r->b, r->c,
				(unsigned int)(r->d & 0xffffffffu),
				(unsigned int)(r->d >> 32));
	case VGSP_TRACE_OP:
		return snprintf(buf, len,
				"vgsp_op: dev=%s chid=%u class=%s submit_ns=%" PRIu64
				" exec_ns=%" PRIu64, r->dev, (unsigned int)r->a,
				r->b ? "gr" : "ce", r->c, r->d);
	default:
		return snprintf(buf, len, "vgsp_trace: dev=%s event=%d", r->dev,
				(int)r->ev);
	}
}

/*
 * The sink and its argument change together under the write lock, so a
 * sink is never called with another's argument, nor after
 * vgsp_os_user_trace() has replaced it. trace_live (1 while a sink is set)
 * spares the lock while off; the core reads it too (the OS seam's trace_live).
 */
static pthread_rwlock_t trace_rw = PTHREAD_RWLOCK_INITIALIZER;
static vgsp_trace_sink trace_sink;
static void *trace_arg;
static int trace_live;

static void u_trace(const struct vgsp_trace_rec *r)
{
	char line[256];

	if (!__atomic_load_n(&trace_live, __ATOMIC_ACQUIRE))
		return;
	vgsp_os_user_trace_format(r, line, sizeof(line));
	pthread_rwlock_rdlock(&trace_rw);
	if (trace_sink)
		trace_sink(trace_arg, line);
	pthread_rwlock_unlock(&trace_rw);
}

/* VGSP_TRACE=FILE ("-": stderr): one line per event, monotonic seconds first. */
static FILE *trace_file;

static void file_sink(void *arg, const char *line)
{
	u64 t = u_now_ns();

	flockfile(trace_file);
	fprintf(trace_file, "%llu.%06llu %s\n", (unsigned long long)(t / 1000000000U),
		(unsigned long long)(t / 1000U % 1000000U), line);
	fflush(trace_file);
	funlockfile(trace_file);
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
	.trace = u_trace,
	.trace_live = &trace_live,	/* the core skips its events without a sink */
};

void vgsp_os_user_trace(vgsp_trace_sink sink, void *arg)
{
	pthread_rwlock_wrlock(&trace_rw);
	trace_sink = sink;
	trace_arg = arg;
	__atomic_store_n(&trace_live, sink != NULL, __ATOMIC_RELEASE);
	pthread_rwlock_unlock(&trace_rw);
}

void vgsp_os_user_init(void)
{
	const char *lvl = getenv("VGSP_LOG");
	const char *tr = getenv("VGSP_TRACE");
	const char *inl = getenv("VGSP_RPC_INLINE_US");

	if (lvl)
		log_threshold = atoi(lvl);
	if (inl && *inl) {
		char *end;
		unsigned long us = strtoul(inl, &end, 0);

		if (*end || us > VGSP_RPC_INLINE_US_MAX)
			fprintf(stderr, "VGSP_RPC_INLINE_US: '%s' out of range 0..%u, ignored\n",
				inl, VGSP_RPC_INLINE_US_MAX);
		else
			vgsp_rpc_inline_us = (unsigned int)us;
	}
	if (tr && *tr && !trace_file) {
		trace_file = strcmp(tr, "-") ? fopen(tr, "a") : stderr;
		if (trace_file)
			vgsp_os_user_trace(file_sink, NULL);
		else
			perror("VGSP_TRACE");
	}
	vgsp_os_set(&user_ops);
}

unsigned int vgsp_os_user_log_count(enum vgsp_log_level level)
{
	return (unsigned int)level < 4 ?
	       __atomic_load_n(&log_count[level], __ATOMIC_RELAXED) : 0;
}

void vgsp_os_user_last_error(char *buf, size_t len)
{
	if (!len)
		return;
	pthread_mutex_lock(&last_err_lock);
	snprintf(buf, len, "%s", last_err);
	pthread_mutex_unlock(&last_err_lock);
}
