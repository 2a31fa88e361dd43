// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The channel table of one instance and its worker. A channel is created
 * from its GSP_RM_ALLOC (the RM layer decodes and validates the params)
 * and found again by the work-submit token the guest rings. Work runs in
 * the instance's fifo worker, one bounded slice per channel per pass.
 */
#include "fifo.h"
#include "../engine/engine.h"
#include "../rm/rm.h"
#include "../gsp/gsp.h"

#define NOTIFIER_SIZE		16	/* NvNotification */
#define NOTIFIER_STATUS_ERROR	0xffff
#define BLOCKED_RETRY_NS	1000000ULL

/*
 * One pass. First, under the device lock (the RM layer's tables live
 * there; no engine work is done under it), each pending channel's address
 * space is resolved. Then, under the fifo lock only, each pending channel
 * runs one bounded slice: a BAR trap, which takes the device lock, never
 * waits for engine work. A doorbell during a slice sets the flag again,
 * so the flag is taken before the slice and given back for work left.
 */
static void fifo_work(void *arg)
{
	struct vgsp_fifo *f = arg;
	struct vgsp_dev *dev = f->dev;
	bool more = false, blocked = false;
	unsigned int i;

	vgsp_dev_lock(dev);
	vgsp_os->lock(f->lock);
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &f->chan[i];

		if (ch->used && vgsp_load_bool(&ch->pending)) {
			ch->vm_ok = vgsp_rm_chan_vm(dev, ch, &ch->vm);
			ch->resolved = true;
		}
	}
	vgsp_os->unlock(f->lock);
	vgsp_dev_unlock(dev);

	vgsp_os->lock(f->lock);
	f->st.worker_runs++;
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &f->chan[i];

		if (!ch->used)
			continue;
		if (!ch->resolved) {	/* allocated since the resolve */
			more = more || vgsp_load_bool(&ch->pending);
			continue;
		}
		if (!vgsp_xchg_bool(&ch->pending, false))
			continue;
		f->st.slices++;
		if (vgsp_gpfifo_run(dev, ch)) {
			vgsp_store_bool(&ch->pending, true);
			more = true;
		}
		if (ch->state == VGSP_CHAN_BLOCKED) {
			vgsp_store_bool(&ch->pending, true);
			blocked = true;
		}
	}
	vgsp_os->unlock(f->lock);
	/* not from a slice: raising an interrupt takes the device lock */
	if (vgsp_xchg_bool(&f->gr_nonstall, false)) {
		vgsp_dev_lock(dev);
		if (vgsp_gsp_nonstall_raise(dev, VGSP_ENGINE_TYPE_GR0))
			vgsp_inc(&f->st.nonstall_delivered);
		vgsp_dev_unlock(dev);
	}
	if (more) {
		vgsp_yield();
		vgsp_os->worker_wake(f->worker);
	} else if (blocked) {
		vgsp_worker_wake_after(f->worker, BLOCKED_RETRY_NS);
	}
}

int vgsp_fifo_create(struct vgsp_dev *dev)
{
	struct vgsp_fifo *f = vgsp_zalloc(sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->dev = dev;
	f->lock = vgsp_os->lock_new();
	if (!f->lock) {
		vgsp_free(f);
		return -ENOMEM;
	}
	f->worker = vgsp_os->worker_start("vgsp-fifo", fifo_work, f);
	if (!f->worker) {
		vgsp_os->lock_free(f->lock);
		vgsp_free(f);
		return -ENOMEM;
	}
	dev->fifo = f;
	return 0;
}

/* @ch goes: the backend drops its part, then the slot is free. Both locks. */
static void chan_release(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	if (dev->backend->chan_gone)
		dev->backend->chan_gone(dev, ch);
	vgsp_free(ch->gr_rec);
	memset(ch, 0, sizeof(*ch));
}

void vgsp_fifo_destroy(struct vgsp_dev *dev)
{
	struct vgsp_fifo *f = dev->fifo;
	unsigned int i;

	if (!f)
		return;
	vgsp_os->worker_stop(f->worker);
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++)
		if (f->chan[i].used)
			chan_release(dev, &f->chan[i]);
	dev->fifo = NULL;
	vgsp_os->lock_free(f->lock);
	vgsp_free(f);
}

void vgsp_fifo_reset(struct vgsp_dev *dev)
{
	struct vgsp_fifo *f = dev->fifo;
	unsigned int i;

	if (!f)
		return;
	vgsp_os->lock(f->lock);
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++)
		if (f->chan[i].used)
			chan_release(dev, &f->chan[i]);
	vgsp_store_bool(&f->gr_nonstall, false);
	vgsp_os->unlock(f->lock);
}

int vgsp_fifo_chan_alloc(struct vgsp_dev *dev, const struct vgsp_chan_desc *d)
{
	struct vgsp_fifo *f = dev->fifo;
	struct vgsp_chan *ch = NULL;
	unsigned int i;

	if (d->chid >= VGSP_FIFO_MAX_CHID || d->runlist > 0x7f ||
	    !d->gpfifo_entries || d->gpfifo_entries > (1U << 20) ||
	    (d->gpfifo_va & 7) || (d->userd_pa & 7)) {
		f->st.chan_refused++;
		return -EINVAL;
	}
	vgsp_os->lock(f->lock);
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *c = &f->chan[i];

		if (!c->used) {
			if (!ch)
				ch = c;
			continue;
		}
		if ((c->d.client == d->client && c->d.handle == d->handle) ||
		    vgsp_chan_token(c) == (d->runlist << 16 | d->chid))
			goto refuse;
	}
	if (!ch)
		goto refuse;
	memset(ch, 0, sizeof(*ch));
	ch->used = true;
	ch->d = *d;
	f->st.chan_allocs++;
	vgsp_os->unlock(f->lock);
	return 0;
refuse:
	f->st.chan_refused++;
	vgsp_os->unlock(f->lock);
	return -EINVAL;
}

void vgsp_fifo_chan_prune(struct vgsp_dev *dev, u32 client,
			  bool (*alive)(struct vgsp_dev *, u32, u32))
{
	struct vgsp_fifo *f = dev->fifo;
	unsigned int i;

	vgsp_os->lock(f->lock);
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &f->chan[i];

		if (ch->used && ch->d.client == client &&
		    !alive(dev, client, ch->d.handle)) {
			chan_release(dev, ch);
			f->st.chan_frees++;
		}
	}
	vgsp_os->unlock(f->lock);
}

struct vgsp_chan *vgsp_fifo_chan_find(struct vgsp_dev *dev, u32 client,
				      u32 handle)
{
	unsigned int i;

	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &dev->fifo->chan[i];

		if (ch->used && ch->d.client == client && ch->d.handle == handle)
			return ch;
	}
	return NULL;
}

static struct vgsp_chan *chan_by_token(struct vgsp_dev *dev, u32 token)
{
	unsigned int i;

	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++)
		if (dev->fifo->chan[i].used &&
		    vgsp_chan_token(&dev->fifo->chan[i]) == token)
			return &dev->fifo->chan[i];
	return NULL;
}

void vgsp_fifo_doorbell(struct vgsp_dev *dev, u32 token)
{
	struct vgsp_fifo *f = dev->fifo;
	struct vgsp_chan *ch = chan_by_token(dev, token);

	f->st.doorbells++;
	if (!ch) {
		f->st.doorbells_unknown++;
		return;
	}
	/*
	 * Device lock only: the table changes under both locks, so reading it
	 * is safe; the channel's own state is the worker's (a stopped channel
	 * ignores the flag there).
	 */
	vgsp_inc(&ch->st.doorbells);
	if (!vgsp_load64(&ch->doorbell_ns))
		vgsp_store64(&ch->doorbell_ns, vgsp_now_ns());
	vgsp_store_bool(&ch->pending, true);
	vgsp_os->worker_wake(f->worker);
}

void vgsp_fifo_nonstall(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	ch->st.nonstall_intrs++;
	if (ch->d.engine_type != VGSP_ENGINE_TYPE_GR0) {
		/* copy engines report no non-stall vector yet */
		vgsp_inc(&dev->fifo->st.nonstall_no_vector);
		return;
	}
	vgsp_store_bool(&dev->fifo->gr_nonstall, true);
}

void vgsp_fifo_kick_blocked(struct vgsp_dev *dev)
{
	unsigned int i;

	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++)
		if (dev->fifo->chan[i].state == VGSP_CHAN_BLOCKED)
			vgsp_store_bool(&dev->fifo->chan[i].pending, true);
}

/*
 * The channel stops, as a real channel does after an error: its error
 * notifier gets the code and a non-zero status (what UVM and CUDA poll),
 * and its doorbells are ignored until it is freed.
 */
void vgsp_fifo_chan_error(struct vgsp_dev *dev, struct vgsp_chan *ch,
			  u32 code)
{
	u8 n[NOTIFIER_SIZE];

	ch->state = VGSP_CHAN_ERROR;
	vgsp_store_bool(&ch->pending, false);
	ch->st.errors++;
	dev->fifo->st.chan_errors++;
	/* once per channel: a stopped channel runs nothing more */
	vgsp_dev_log(dev, VGSP_LOG_WARN, "vgsp: %s: channel %u stopped: error %u at method 0x%x data 0x%x of class 0x%x (GPFIFO entry %u, dword %u)\n",
		  dev->name, ch->d.chid, code, ch->error_mthd, ch->error_data,
		  ch->error_class,
		  ch->gp_get, ch->seg_pos);
	if (!ch->d.has_errnot)
		return;
	memset(n, 0, sizeof(n));
	vgsp_put64(n, 0, vgsp_now_ns() + vgsp_load64(&dev->timer_offset_ns));
	vgsp_put32(n, 8, code);
	vgsp_put16(n, 14, NOTIFIER_STATUS_ERROR);
	vgsp_mem_write(dev, ch->d.errnot_target, ch->d.errnot_pa, n, sizeof(n));
}
