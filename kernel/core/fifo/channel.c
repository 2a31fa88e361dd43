// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The channel table of one instance and its worker. A channel is created
 * from its GSP_RM_ALLOC (the RM layer decodes and validates the params)
 * and found again by the work-submit token the guest rings. Work runs in
 * the instance's fifo worker, one bounded slice per channel per pass.
 */
#include "fifo.h"
#include "../engine/engine.h"

#define NOTIFIER_SIZE		16	/* NvNotification */
#define NOTIFIER_STATUS_ERROR	0xffff
#define BLOCKED_RETRY_NS	1000000ULL

static void fifo_work(void *arg)
{
	struct vgsp_fifo *f = arg;
	struct vgsp_dev *dev = f->dev;
	bool more = false, blocked = false;
	unsigned int i;

	vgsp_dev_lock(dev);
	f->st.worker_runs++;
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &f->chan[i];

		if (!ch->used || !ch->pending)
			continue;
		f->st.slices++;
		if (vgsp_gpfifo_run(dev, ch))
			more = true;
		if (ch->state == VGSP_CHAN_BLOCKED)
			blocked = true;
	}
	vgsp_dev_unlock(dev);
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
	f->worker = vgsp_os->worker_start("vgsp-fifo", fifo_work, f);
	if (!f->worker) {
		vgsp_free(f);
		return -ENOMEM;
	}
	dev->fifo = f;
	return 0;
}

void vgsp_fifo_destroy(struct vgsp_dev *dev)
{
	struct vgsp_fifo *f = dev->fifo;

	if (!f)
		return;
	vgsp_os->worker_stop(f->worker);
	dev->fifo = NULL;
	vgsp_free(f);
}

void vgsp_fifo_reset(struct vgsp_dev *dev)
{
	if (dev->fifo)
		memset(dev->fifo->chan, 0, sizeof(dev->fifo->chan));
}

int vgsp_fifo_chan_alloc(struct vgsp_dev *dev, const struct vgsp_chan_desc *d)
{
	struct vgsp_fifo *f = dev->fifo;
	struct vgsp_chan *ch = NULL;
	unsigned int i;

	if (d->chid >= VGSP_FIFO_MAX_CHID || d->runlist > 0x7f ||
	    !d->gpfifo_entries || d->gpfifo_entries > (1U << 20) ||
	    (d->gpfifo_va & 7) || (d->userd_pa & 7))
		goto refuse;
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *c = &f->chan[i];

		if (!c->used) {
			if (!ch)
				ch = c;
			continue;
		}
		if ((c->client == d->client && c->handle == d->handle) ||
		    (c->chid == d->chid && c->runlist == d->runlist))
			goto refuse;
	}
	if (!ch)
		goto refuse;
	memset(ch, 0, sizeof(*ch));
	ch->used = true;
	ch->client = d->client;
	ch->handle = d->handle;
	ch->parent = d->parent;
	ch->hvas = d->hvas;
	ch->hdevice = d->hdevice;
	ch->chid = d->chid;
	ch->runlist = d->runlist;
	ch->engine_type = d->engine_type;
	ch->token = d->runlist << 16 | d->chid;
	ch->gpfifo_va = d->gpfifo_va;
	ch->gpfifo_entries = d->gpfifo_entries;
	ch->userd_pa = d->userd_pa;
	ch->userd_target = d->userd_target;
	ch->errnot_pa = d->errnot_pa;
	ch->errnot_target = d->errnot_target;
	ch->has_errnot = d->has_errnot;
	f->st.chan_allocs++;
	return 0;
refuse:
	f->st.chan_refused++;
	return -EINVAL;
}

void vgsp_fifo_chan_prune(struct vgsp_dev *dev,
			  bool (*alive)(struct vgsp_dev *, u32, u32))
{
	struct vgsp_fifo *f = dev->fifo;
	unsigned int i;

	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &f->chan[i];

		if (ch->used && !alive(dev, ch->client, ch->handle)) {
			memset(ch, 0, sizeof(*ch));
			f->st.chan_frees++;
		}
	}
}

struct vgsp_chan *vgsp_fifo_chan_find(struct vgsp_dev *dev, u32 client,
				      u32 handle)
{
	unsigned int i;

	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &dev->fifo->chan[i];

		if (ch->used && ch->client == client && ch->handle == handle)
			return ch;
	}
	return NULL;
}

/*
 * The token CPU-RM rings is the one it wrote into the channel's error
 * notifier, entry 1 (kchannelNotifyWorkSubmitToken): that is where an
 * unknown token is looked up, once, since the ChID CPU-RM chose is not in
 * the alloc params when the client supplies its own USERD.
 */
static struct vgsp_chan *chan_by_token(struct vgsp_dev *dev, u32 token)
{
	struct vgsp_fifo *f = dev->fifo;
	unsigned int i;
	u8 b[4];

	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++)
		if (f->chan[i].used && f->chan[i].token == token)
			return &f->chan[i];
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &f->chan[i];

		if (!ch->used || !ch->has_errnot ||
		    vgsp_mem_read(dev, ch->errnot_target,
				  ch->errnot_pa + NOTIFIER_SIZE + 8, b, 4) ||
		    vgsp_get32(b, 0) != token)
			continue;
		ch->token = token;
		f->st.tokens_learned++;
		return ch;
	}
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
	ch->st.doorbells++;
	if (ch->state == VGSP_CHAN_ERROR)
		return;
	ch->pending = true;
	if (!ch->doorbell_ns)
		ch->doorbell_ns = vgsp_now_ns();
	vgsp_os->worker_wake(f->worker);
}

void vgsp_fifo_kick_blocked(struct vgsp_dev *dev)
{
	unsigned int i;

	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++)
		if (dev->fifo->chan[i].state == VGSP_CHAN_BLOCKED)
			dev->fifo->chan[i].pending = true;
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
	ch->pending = false;
	ch->st.errors++;
	dev->fifo->st.chan_errors++;
	/* once per channel: a stopped channel runs nothing more */
	vgsp_dev_log(dev, VGSP_LOG_WARN, "vgsp: %s: channel %u stopped: error %u at method 0x%x of class 0x%x (GPFIFO entry %u, dword %u)\n",
		  dev->name, ch->chid, code, ch->error_mthd, ch->error_class,
		  ch->gp_get, ch->seg_pos);
	if (!ch->has_errnot)
		return;
	memset(n, 0, sizeof(n));
	vgsp_put64(n, 0, vgsp_now_ns() + dev->timer_offset_ns);
	vgsp_put32(n, 8, code);
	vgsp_put16(n, 14, NOTIFIER_STATUS_ERROR);
	vgsp_mem_write(dev, ch->errnot_target, ch->errnot_pa, n, sizeof(n));
}
