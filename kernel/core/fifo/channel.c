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
#include "../mm/bar_share.h"

#define NOTIFIER_SIZE		16	/* NvNotification */
#define NOTIFIER_STATUS_ERROR	0xffff
#define BLOCKED_RETRY_NS	1000000ULL
#define RC_GIVE_UP_NS		10000000000ULL	/* status queue full this long */

static bool fifo_post_rc(struct vgsp_dev *dev);

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
	bool more = false, blocked = false, rc_left = false;
	bool scan = vgsp_xchg_bool(&f->db_any, false);
	unsigned int i;

	/*
	 * The mapped BAR1 doorbell page was written: drop its mapping first,
	 * so a write from now on faults again, and only then look at every
	 * channel's GP_PUT (the guest wrote it before ringing).
	 */
	if (scan && dev->fe_ops->bar1_zap) {
		dev->fe_ops->bar1_zap(dev->fe, true);
		vgsp_inc(&dev->mm->b1.rearms);
	}
	vgsp_dev_lock(dev);
	if (scan)
		vgsp_bar_share_flush(dev);	/* mirrors first, as a trap */
	vgsp_os->lock(f->lock);
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &f->chan[i];

		if (scan && ch->used && ch->state != VGSP_CHAN_ERROR)
			vgsp_store_bool(&ch->pending, true);
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
	/* the same for the stops of this pass (notifiers already written) */
	if (vgsp_xchg_bool(&f->rc_pending, false))
		rc_left = fifo_post_rc(dev);
	if (more) {
		vgsp_yield();
		vgsp_os->worker_wake(f->worker);
	} else if (blocked || rc_left) {
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
	if (ch->rc_todo)	/* its stop was not told yet: nobody to tell */
		dev->fifo->st.rc_unsent++;
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
	vgsp_store_bool(&f->rc_pending, false);
	vgsp_store_bool(&f->db_any, false);
	f->rc_wait_ns = 0;
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

	vgsp_store_bool(&ch->pending, false);
	ch->st.errors++;
	dev->fifo->st.chan_errors++;
	/* once per channel: a stopped channel runs nothing more */
	vgsp_dev_log(dev, VGSP_LOG_WARN, "vgsp: %s: channel %u stopped: error %u at method 0x%x data 0x%x of class 0x%x (GPFIFO entry %u, dword %u)\n",
		  dev->name, ch->d.chid, code, ch->error_mthd, ch->error_data,
		  ch->error_class,
		  ch->gp_get, ch->seg_pos);
	if (ch->d.has_errnot) {
		memset(n, 0, sizeof(n));
		vgsp_put64(n, 0, vgsp_now_ns() +
			   vgsp_load64(&dev->timer_offset_ns));
		vgsp_put32(n, 8, code);
		vgsp_put16(n, 14, NOTIFIER_STATUS_ERROR);
		vgsp_mem_write(dev, ch->d.errnot_target, ch->d.errnot_pa, n,
			       sizeof(n));
	}
	/* stopped once the notifier says so: whoever sees the state sees it */
	ch->state = VGSP_CHAN_ERROR;
	/* the rest is GSP-RM's word to CPU-RM: after the slice (the worker) */
	ch->rc_todo = VGSP_RC_PARTS;
	vgsp_store_bool(&dev->fifo->rc_pending, true);
}

/* The Xid line's text: hex fields, as the hardware's messages have them. */
struct rc_text {
	char *s;
	u32 n;
};

static void rc_str(struct rc_text *t, const char *s)
{
	while (*s && t->n < VGSP_RC_MSG_LEN - 1)
		t->s[t->n++] = *s++;
	t->s[t->n] = '\0';
}

static void rc_hex(struct rc_text *t, u32 v, unsigned int digits)
{
	static const char xd[] = "0123456789abcdef";
	char b[9];
	unsigned int i;

	for (i = 0; i < digits && i < 8; i++)
		b[i] = xd[(v >> (4 * (digits - 1 - i))) & 0xf];
	b[i] = '\0';
	rc_str(t, b);
}

/* NV2080_ENGINE_TYPE_COPY0..9 */
#define ENGINE_TYPE_COPY0	0x09
#define ENGINE_TYPE_COPY9	0x12

/*
 * What CPU-RM is told about stopped @ch: its ids as CPU-RM allocated them,
 * the ROBUST_CHANNEL_* code of its error notifier as the Xid, and a text
 * in the form of the hardware's for that Xid (the method that stopped it).
 */
static void rc_describe(const struct vgsp_chan *ch, struct vgsp_rc_event *rc)
{
	struct rc_text t = { rc->msg, 0 };
	u32 et = ch->d.engine_type;

	memset(rc, 0, sizeof(*rc));
	rc->engine_type = et;
	rc->runlist = ch->d.runlist;
	rc->chid = ch->d.chid;
	rc->exc_type = ch->error_code;
	switch (ch->error_code) {
	case VGSP_RC_GR_EXCEPTION:
		rc_str(&t, "Graphics Exception: ");
		break;
	case VGSP_RC_MMU_FAULT:
		rc_str(&t, "MMU Fault: ENGINE ");
		if (et >= ENGINE_TYPE_COPY0 && et <= ENGINE_TYPE_COPY9) {
			rc_str(&t, "CE");
			rc_hex(&t, et - ENGINE_TYPE_COPY0, 1);
		} else {
			rc_str(&t, "GRAPHICS");
		}
		rc_str(&t, ", ");
		break;
	case VGSP_RC_PBDMA_ERROR:
		rc_str(&t, "PBDMA Error: GPFIFO entry ");
		rc_hex(&t, ch->gp_get, 8);
		rc_str(&t, ", ");
		break;
	default:
		rc_str(&t, "CE Error: ");
		break;
	}
	rc_str(&t, "ChID ");
	rc_hex(&t, ch->d.chid, 4);
	rc_str(&t, ", Class ");
	rc_hex(&t, ch->error_class, 8);
	rc_str(&t, ", Offset ");
	rc_hex(&t, ch->error_mthd, 8);
	rc_str(&t, ", Data ");
	rc_hex(&t, ch->error_data, 8);
}

/*
 * After the slices, under the device lock as a non-stall interrupt is
 * raised: tell CPU-RM about the channels that stopped. A channel freed
 * since is not told (CPU-RM would not find it). True when the status
 * queue was full and a later pass must try again; after RC_GIVE_UP_NS of
 * that the stops are dropped, counted.
 */
static bool fifo_post_rc(struct vgsp_dev *dev)
{
	struct vgsp_fifo *f = dev->fifo;
	u64 now = vgsp_now_ns();
	bool left = false;
	unsigned int i;

	vgsp_dev_lock(dev);
	vgsp_os->lock(f->lock);
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct vgsp_chan *ch = &f->chan[i];
		struct vgsp_rc_event rc;
		int ret;

		if (!ch->used || !ch->rc_todo)
			continue;
		rc_describe(ch, &rc);
		ret = vgsp_gsp_rc_post(dev, &rc, &ch->rc_todo);
		if (ret == -EAGAIN) {
			if (!f->rc_wait_ns)
				f->rc_wait_ns = now;
			if (now - f->rc_wait_ns < RC_GIVE_UP_NS) {
				f->st.rc_deferred++;
				left = true;
				break;		/* in order: the others wait */
			}
			vgsp_dev_log(dev, VGSP_LOG_WARN, "vgsp: %s: channel %u: stop not told to the guest driver (status queue full for 10 s)\n",
				     dev->name, ch->d.chid);
		}
		if (ret) {
			f->st.rc_unsent++;
		} else {
			f->st.rc_posted++;
			f->rc_wait_ns = 0;
		}
		ch->rc_todo = 0;
	}
	if (left)
		vgsp_store_bool(&f->rc_pending, true);
	else
		f->rc_wait_ns = 0;
	vgsp_os->unlock(f->lock);
	vgsp_dev_unlock(dev);
	return left;
}
