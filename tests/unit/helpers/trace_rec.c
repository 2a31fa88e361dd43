// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The recording trace op (trace_rec.h). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "helpers/trace_rec.h"

#define CAP 4096

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct trace_ev evs[CAP];
static unsigned int n;
static struct vgsp_os_ops rec_ops;
static const struct vgsp_os_ops *saved;

static void record(const struct vgsp_trace_rec *r)
{
	pthread_mutex_lock(&lock);
	if (n < CAP) {
		struct trace_ev *e = &evs[n++];

		memset(e, 0, sizeof(*e));
		e->ev = r->ev;
		e->a = r->a;
		e->b = r->b;
		e->c = r->c;
		e->d = r->d;
		if (r->name)
			snprintf(e->name, sizeof(e->name), "%s", r->name);
		snprintf(e->dev, sizeof(e->dev), "%s", r->dev);
	}
	pthread_mutex_unlock(&lock);
}

void trace_rec_start(void)
{
	pthread_mutex_lock(&lock);
	n = 0;
	pthread_mutex_unlock(&lock);
	saved = vgsp_os;
	rec_ops = *vgsp_os;
	rec_ops.trace = record;
	rec_ops.trace_live = NULL;	/* every event, whatever the library has set */
	vgsp_os_set(&rec_ops);
}

void trace_rec_stop(void)
{
	if (saved)
		vgsp_os_set(saved);
	saved = NULL;
}

unsigned int trace_rec_count(void)
{
	unsigned int k;

	pthread_mutex_lock(&lock);
	k = n;
	pthread_mutex_unlock(&lock);
	return k;
}

struct trace_ev trace_rec_get(unsigned int i)
{
	struct trace_ev e;

	pthread_mutex_lock(&lock);
	if (i < n) {
		e = evs[i];
	} else {
		memset(&e, 0, sizeof(e));
		e.ev = VGSP_TRACE_NR;
	}
	pthread_mutex_unlock(&lock);
	return e;
}

int trace_rec_wait(unsigned int from, enum vgsp_trace_event ev, unsigned int ms)
{
	unsigned int t, i;

	for (t = 0; t <= ms; t++) {
		for (i = from; i < trace_rec_count(); i++)
			if (trace_rec_get(i).ev == ev)
				return (int)i;
		if (t < ms) {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
		}
	}
	return -1;
}

const char *trace_rec_names(char *buf, size_t len)
{
	static const char *const names[VGSP_TRACE_NR] = {
		"doorbell", "rpc_begin", "rpc_end", "irq", "gpfifo_fetch",
		"methods", "work_done", "op", "launch",
	};
	unsigned int i, k = trace_rec_count();
	size_t off = 0;

	buf[0] = 0;
	for (i = 0; i < k && off < len; i++) {
		enum vgsp_trace_event ev = trace_rec_get(i).ev;

		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "",
					ev < VGSP_TRACE_NR ? names[ev] : "?");
	}
	return buf;
}
