// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Per-operation latency on the host's clock, the figures the B/A report
 * needs to tell vgsp's own cost from the guest CPU's and the engine's
 * (under TCG the guest's time measures the emulator; these do not):
 *
 *   doorbell trapped --wake--> channel runs ... method decoded
 *     --submit--> on the engine --exec--> completion seen
 *     --complete--> visible to the guest (semaphore released, GP_GET)
 *
 * overhead = submit + complete: what forwarding adds per operation. An
 * operation whose successor finishes before anything made it visible is
 * counted in submit and exec only (the successor's visibility covers it).
 */
#include "fifo.h"
#include "../trace.h"
#include "../view.h"

void vgsp_op_begin(struct vgsp_chan *ch, enum vgsp_op_class c)
{
	if (!ch->op[c].t0) {
		ch->op[c].t0 = vgsp_now_ns();
		ch->op[c].sub = 0;
	}
	ch->op_t.sub_ns = 0;
	ch->op_t.done_ns = 0;
}

void vgsp_op_end(struct vgsp_dev *dev, struct vgsp_chan *ch,
		 enum vgsp_op_class c, bool ok, bool done)
{
	struct vgsp_op_track *o = &ch->op[c];
	struct vgsp_fifo_lat *l = &dev->fifo->lat;
	u64 now = vgsp_now_ns(), fin;

	if (!o->t0)
		return;
	if (!ok) {
		o->t0 = 0;
		return;
	}
	/* the backend's stamps, if it has any and they make sense */
	if (!o->sub)
		o->sub = ch->op_t.sub_ns >= o->t0 && ch->op_t.sub_ns <= now ?
			 ch->op_t.sub_ns : o->t0;
	if (!done)
		return;
	fin = ch->op_t.done_ns >= o->sub && ch->op_t.done_ns <= now ?
	      ch->op_t.done_ns : now;
	vgsp_lat_add(&l->submit[c], o->sub - o->t0);
	vgsp_lat_add(&l->exec[c], fin - o->sub);
	vgsp_trace_op(dev, ch->d.chid, c, o->sub - o->t0, fin - o->sub);
	o->vis_done = fin;
	o->vis_sub = o->sub - o->t0;
	o->t0 = 0;
}

void vgsp_op_visible(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	struct vgsp_fifo_lat *l = &dev->fifo->lat;
	u64 now = 0;
	unsigned int c;

	for (c = 0; c < VGSP_OP_CLASSES; c++) {
		struct vgsp_op_track *o = &ch->op[c];

		if (!o->vis_done)
			continue;
		if (!now)
			now = vgsp_now_ns();
		vgsp_lat_add(&l->complete[c], now - o->vis_done);
		vgsp_lat_add(&l->overhead[c], o->vis_sub + now - o->vis_done);
		o->vis_done = 0;
	}
}

void vgsp_op_wake(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	u64 db = vgsp_load64(&ch->doorbell_ns), now;

	if (!db || db == ch->wake_db)
		return;
	ch->wake_db = db;
	now = vgsp_now_ns();
	if (now >= db)
		vgsp_lat_add(&dev->fifo->lat.wake, now - db);
}

static void row(struct vgsp_printer *p, const char *stage, const char *cls,
		const struct vgsp_lat *l)
{
	p->print(p, "%s %s %llu %llu %llu %llu %llu\n", stage, cls,
		 (unsigned long long)l->n,
		 (unsigned long long)vgsp_lat_pct(l, 500),
		 (unsigned long long)vgsp_lat_pct(l, 990),
		 (unsigned long long)l->max_ns,
		 (unsigned long long)(l->n ? l->sum_ns / l->n : 0));
}

/* The "op_latency" view: one row per stage and class. */
void vgsp_fifo_show_op_latency(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	static const char * const cls[VGSP_OP_CLASSES] = { "ce", "gr" };
	struct vgsp_fifo_lat *l = vgsp_zalloc(sizeof(*l));
	unsigned int c;

	if (!l)
		return;
	vgsp_os->lock(dev->fifo->lock);
	*l = dev->fifo->lat;
	vgsp_os->unlock(dev->fifo->lock);
	p->print(p, "stage class n p50_ns p99_ns max_ns mean_ns\n");
	row(p, "wake", "any", &l->wake);
	for (c = 0; c < VGSP_OP_CLASSES; c++) {
		row(p, "submit", cls[c], &l->submit[c]);
		row(p, "exec", cls[c], &l->exec[c]);
		row(p, "complete", cls[c], &l->complete[c]);
		row(p, "overhead", cls[c], &l->overhead[c]);
	}
	vgsp_free(l);
}
