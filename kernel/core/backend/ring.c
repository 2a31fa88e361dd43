// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ring backend (ring.h): copy-engine transfers become CE_COPY/CE_FILL
 * items whose source and destination are IOVA lists resolved here through
 * the channel's page tables, with the bytes staged in the shared data
 * area (guest RAM not, when hostd maps it itself: VGSP_HR_TARGET_VIEW); a
 * compute launch becomes a GR_LAUNCH item carrying the QMD, and an empty
 * one's release semaphores are written here once hostd completed it, as
 * sim writes them. One item is in flight per instance; its completion is
 * checked (index, cookie, status range) before anything is written to
 * guest memory.
 */
#include "ring.h"
#include "../fifo/fifo.h"

#define SUB_N		VGSP_HR_SUB_ENTRIES
#define COMP_N		VGSP_HR_COMP_ENTRIES
#define MAX_ERRNO	4095

static struct vgsp_hr_ctl *ctl_of(struct vgsp_ring_be *rb)
{
	return (struct vgsp_hr_ctl *)(rb->area + VGSP_HR_CTL_OFF);
}

int vgsp_ring_be_init(struct vgsp_ring_be *rb, void *area, u32 id,
		      const struct vgsp_ring_link_ops *ops, void *link)
{
	struct vgsp_hr_ctl *c;

	memset(rb, 0, sizeof(*rb));
	rb->area = area;
	rb->ops = ops;
	rb->link = link;
	rb->timeout_ns = VGSP_RING_TIMEOUT_NS;
	rb->lock = vgsp_os->lock_new();
	if (!rb->lock)
		return -ENOMEM;
	c = ctl_of(rb);
	c->magic = VGSP_HR_MAGIC;
	c->version = VGSP_HR_VERSION;
	c->id = id;
	c->map_bytes = VGSP_HR_MAP_BYTES;
	c->sub_entries = SUB_N;
	c->sub_off = VGSP_HR_SUB_OFF;
	c->comp_entries = COMP_N;
	c->comp_off = VGSP_HR_COMP_OFF;
	c->data_off = VGSP_HR_DATA_OFF;
	c->data_bytes = VGSP_HR_DATA_BYTES;
	return 0;
}

void vgsp_ring_be_features(struct vgsp_ring_be *rb, u32 features)
{
	rb->view = features & VGSP_HR_FEAT_GUEST_VIEW;
	ctl_of(rb)->features = features & VGSP_HR_FEATURES;
}

void vgsp_ring_be_fini(struct vgsp_ring_be *rb)
{
	/* a hostd still mapping the area sees it closed */
	if (rb->area)
		vgsp_hr_store(&ctl_of(rb)->magic, VGSP_HR_MAGIC_CLOSED);
	if (rb->lock)
		vgsp_os->lock_free(rb->lock);
	rb->lock = NULL;
}

void vgsp_ring_be_fail(struct vgsp_ring_be *rb)
{
	vgsp_store_bool(&rb->failed, true);
}

bool vgsp_ring_be_failed(struct vgsp_ring_be *rb)
{
	return vgsp_load_bool(&rb->failed);
}

bool vgsp_ring_be_comp_ready(struct vgsp_ring_be *rb)
{
	return vgsp_hr_load(&ctl_of(rb)->comp_head) !=
	       __atomic_load_n(&rb->comp_tail, __ATOMIC_RELAXED);
}

/* 1: the completion of @cookie, its status in @status; 0: none yet. */
static int take_completion(struct vgsp_ring_be *rb, u64 cookie, int *status)
{
	struct vgsp_hr_ctl *c = ctl_of(rb);
	u32 head = vgsp_hr_load(&c->comp_head);
	int avail = vgsp_hr_avail(head, rb->comp_tail, COMP_N);
	struct vgsp_hr_comp e;

	if (avail < 0) {
		rb->st.bad_index++;
		return -EIO;
	}
	while (avail--) {
		memcpy(&e, rb->area + VGSP_HR_COMP_OFF +
		       (rb->comp_tail % COMP_N) * sizeof(e), sizeof(e));
		__atomic_store_n(&rb->comp_tail, rb->comp_tail + 1,
				 __ATOMIC_RELAXED);
		vgsp_hr_store(&c->comp_tail, rb->comp_tail);
		if (e.cookie != cookie) {
			rb->st.stale++;
			continue;
		}
		if (e.status > 0 || e.status < -MAX_ERRNO) {
			rb->st.bad_completion++;
			return -EIO;
		}
		rb->st.completions++;
		if (e.status)
			rb->st.item_errors++;
		/* "call again" means something else to the engines */
		*status = e.status == -EAGAIN ? -EIO : e.status;
		return 1;
	}
	return 0;
}

/* Publish rb->sub and wait for its completion: its status or -errno. */
static int ring_call(struct vgsp_ring_be *rb)
{
	struct vgsp_hr_ctl *c = ctl_of(rb);
	u32 tail;
	u64 deadline, now;
	int space, ret, status = -EIO;

	if (vgsp_ring_be_failed(rb)) {
		rb->st.failed_items++;
		return -EIO;
	}
	tail = vgsp_hr_load(&c->sub_tail);
	space = vgsp_hr_space(rb->sub_head, tail, rb->sub_tail, SUB_N);
	if (space < 0) {
		rb->st.bad_index++;
		vgsp_ring_be_fail(rb);
		return -EIO;
	}
	rb->sub_tail = tail;
	if (!space) {		/* hostd still has items that timed out */
		rb->st.timeouts++;
		return -ETIMEDOUT;
	}
	rb->sub.cookie = ++rb->cookie;
	memcpy(rb->area + VGSP_HR_SUB_OFF +
	       (rb->sub_head % SUB_N) * VGSP_HR_SUB_BYTES, &rb->sub,
	       sizeof(rb->sub));
	vgsp_hr_store(&c->sub_head, ++rb->sub_head);
	rb->st.items++;
	rb->ops->kick(rb->link);

	deadline = vgsp_now_ns() + rb->timeout_ns;
	for (;;) {
		ret = take_completion(rb, rb->sub.cookie, &status);
		if (ret > 0)
			return status;
		if (ret < 0) {
			vgsp_ring_be_fail(rb);
			return -EIO;
		}
		if (vgsp_ring_be_failed(rb)) {
			rb->st.failed_items++;
			return -EIO;
		}
		now = vgsp_now_ns();
		if (now >= deadline) {
			rb->st.timeouts++;
			return -ETIMEDOUT;
		}
		rb->ops->wait(rb->link, deadline - now);
	}
}

/*
 * Guest RAM inside hostd's view is not staged: hostd reaches it. Only
 * while Bus Master Enable is set (the gate of all device DMA); else it is
 * staged and refused there as any other access.
 */
static u32 hr_target(struct vgsp_dev *dev, struct vgsp_ring_be *rb,
		     enum vgsp_mem_target t, u64 pa, u32 len)
{
	if (t == VGSP_MEM_VID)
		return VGSP_HR_TARGET_VID;
	if (rb->view && pa < VGSP_HR_VIEW_BYTES &&
	    len <= VGSP_HR_VIEW_BYTES - pa && vgsp_cfg_bus_master(&dev->cfg))
		return VGSP_HR_TARGET_VIEW;
	return VGSP_HR_TARGET_SYS;
}

static enum vgsp_mem_target mem_target(u32 t)
{
	return t == VGSP_HR_TARGET_VID ? VGSP_MEM_VID : VGSP_MEM_SYS;
}

/*
 * Append up to @want bytes at @addr of @e to the list @ext/@n (merged with
 * the last extent when contiguous): the bytes covered in @got (0: the list
 * is full), or -EFAULT for an address that is not mapped.
 */
static int add_extent(struct vgsp_dev *dev, struct vgsp_ring_be *rb,
		      const struct vgsp_ce_end *e, u64 addr, u32 want,
		      bool write, struct vgsp_hr_ext *ext, u16 *n, u32 *got)
{
	enum vgsp_mem_target t = e->target;
	u64 pa = addr;
	u32 len = want, ht;

	if (e->virt) {
		struct vgsp_xlate xl;
		u64 left;

		if (vgsp_mmu_translate(dev, &e->vm, addr, &xl) ||
		    xl.kind == VGSP_PTE_KIND_SMSKED_MESSAGE ||
		    (write && xl.ro) || !xl.page)
			return -EFAULT;
		t = xl.target;
		pa = xl.pa;
		left = xl.page - (addr & (xl.page - 1));
		if (left < len)
			len = (u32)left;
	}
	if (t == VGSP_MEM_PEER)
		return -EFAULT;
	ht = hr_target(dev, rb, t, pa, len);
	if (*n && ext[*n - 1].target == ht &&
	    ext[*n - 1].addr + ext[*n - 1].len == pa &&
	    ext[*n - 1].len <= VGSP_HR_ITEM_BYTES) {
		ext[*n - 1].len += len;
	} else if (*n < VGSP_HR_MAX_EXT) {
		ext[*n].addr = pa;
		ext[*n].len = len;
		ext[*n].target = ht;
		(*n)++;
	} else {
		len = 0;
	}
	*got = len;
	return 0;
}

/*
 * Stage (@write false) or apply (@write true) one side's bytes; hostd
 * moved the VIEW extents itself. The bytes of VIEW extents in @view.
 */
static int move_side(struct vgsp_dev *dev, struct vgsp_ring_be *rb,
		     const struct vgsp_hr_ext *ext, u16 n, u32 data_off,
		     bool write, u32 *view)
{
	u8 *data = rb->area + VGSP_HR_DATA_OFF + data_off;
	u32 i, pos = 0;
	int ret;

	*view = 0;
	for (i = 0; i < n; pos += ext[i].len, i++) {
		if (ext[i].target == VGSP_HR_TARGET_VIEW) {
			*view += ext[i].len;
			continue;
		}
		ret = write ?
			vgsp_mem_write(dev, mem_target(ext[i].target),
				       ext[i].addr, data + pos, ext[i].len) :
			vgsp_mem_read(dev, mem_target(ext[i].target),
				      ext[i].addr, data + pos, ext[i].len);
		if (ret)
			return -EFAULT;
	}
	return 0;
}

/*
 * One item from @x's progress: up to VGSP_HR_ITEM_BYTES, VGSP_HR_MAX_EXT
 * extents a side. The progress moves only once the item completed and its
 * bytes were written; the bytes done in @moved.
 */
static int one_item(struct vgsp_dev *dev, struct vgsp_ring_be *rb,
		    struct vgsp_ce_xfer *x, u64 *moved)
{
	struct vgsp_hr_ce *ce = &rb->sub.u.ce;
	u32 line = x->line, total = 0, vsrc = 0, vdst;
	u64 off = x->off;
	int ret;

	memset(&rb->sub, 0, sizeof(rb->sub));
	rb->sub.op = x->fill ? VGSP_HR_OP_CE_FILL : VGSP_HR_OP_CE_COPY;
	rb->sub.len = sizeof(*ce);
	ce->src_off = 0;
	ce->dst_off = VGSP_HR_ITEM_BYTES;
	if (x->fill) {
		ce->elem_size = x->elem_size;
		memcpy(ce->elem, x->elem, sizeof(ce->elem));
		ce->phase = (u32)(off % x->elem_size);
	}
	while (line < x->lines && total < VGSP_HR_ITEM_BYTES) {
		u64 src = x->src.addr + (u64)line * x->pitch_in + off;
		u64 dst = x->dst.addr + (u64)line * x->pitch_out + off;
		u64 left = x->line_bytes - off;
		u32 want = VGSP_HR_ITEM_BYTES - total, gs, gd;

		if (left < want)
			want = (u32)left;
		gs = want;
		if (!x->fill) {
			ret = add_extent(dev, rb, &x->src, src, want, false,
					 ce->ext, &ce->nsrc, &gs);
			if (ret && total)	/* the bytes before the fault */
				break;
			if (ret)
				return ret;
			if (!gs)
				break;
		}
		ret = add_extent(dev, rb, &x->dst, dst, gs, true,
				 ce->ext + VGSP_HR_MAX_EXT, &ce->ndst, &gd);
		if (ret && !total)
			return ret;
		if (ret)
			gd = 0;
		if (!gd) {
			if (!x->fill)	/* give the source bytes back */
				ce->ext[ce->nsrc - 1].len -= gs;
			if (!x->fill && !ce->ext[ce->nsrc - 1].len)
				ce->nsrc--;
			break;
		}
		if (!x->fill && gd < gs)
			ce->ext[ce->nsrc - 1].len -= gs - gd;
		total += gd;
		off += gd;
		if (off >= x->line_bytes) {
			off = 0;
			line++;
		}
	}
	if (!total)
		return -EINVAL;
	ce->nbytes = total;
	if (!x->fill) {
		ret = move_side(dev, rb, ce->ext, ce->nsrc, ce->src_off, false,
				&vsrc);
		if (ret)
			return ret;
	}
	ret = ring_call(rb);
	if (ret)
		return ret;
	ret = move_side(dev, rb, ce->ext + VGSP_HR_MAX_EXT, ce->ndst,
			ce->dst_off, true, &vdst);
	if (ret)
		return ret;
	rb->st.bytes += total;
	rb->st.view_bytes += vsrc + vdst;
	x->line = line;
	x->off = off;
	*moved = total;
	return 0;
}

static int ring_ce_xfer(struct vgsp_dev *dev, struct vgsp_ce_xfer *x)
{
	struct vgsp_ring_be *rb = dev->backend_priv;
	u64 budget = VGSP_CE_SLICE_BYTES, moved;
	int ret = 0;

	if (x->fill && (!x->elem_size || x->elem_size > sizeof(x->elem)))
		return -EINVAL;
	vgsp_os->lock(rb->lock);
	while (x->line < x->lines) {
		if (!budget) {
			ret = -EAGAIN;
			break;
		}
		ret = one_item(dev, rb, x, &moved);
		if (ret)
			break;
		budget = moved >= budget ? 0 : budget - moved;
	}
	vgsp_os->unlock(rb->lock);
	return ret;
}

static int ring_gr_launch(struct vgsp_dev *dev, struct vgsp_chan *ch,
			  u64 qmd_va)
{
	struct vgsp_ring_be *rb = dev->backend_priv;
	struct vgsp_hr_gr *gr = &rb->sub.u.gr;
	int ret;

	if (!ch->vm_ok)
		return -EFAULT;
	vgsp_os->lock(rb->lock);
	memset(&rb->sub, 0, sizeof(rb->sub));
	rb->sub.op = VGSP_HR_OP_GR_LAUNCH;
	rb->sub.len = sizeof(*gr);
	gr->qmd_va = qmd_va;
	gr->chid = ch->d.chid;
	ret = vgsp_vm_read(dev, &ch->vm, qmd_va, gr->qmd, sizeof(gr->qmd));
	if (!ret)
		ret = ring_call(rb);
	/* no engine ran: the releases are the channel's, written as sim does */
	if (!ret && vgsp_hr_qmd_empty(gr->qmd))
		ret = vgsp_qmd_releases(dev, ch, gr->qmd);
	vgsp_os->unlock(rb->lock);
	return ret;
}

const struct vgsp_backend_ops vgsp_backend_ring = {
	.name = "hostd",
	.ce_xfer = ring_ce_xfer,
	.gr_launch = ring_gr_launch,
};
