// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * HOPPER_DMA_COPY_A: state methods are recorded; LAUNCH_DMA is validated
 * into a struct vgsp_ce_xfer for the backend (copy → check → run), then
 * the semaphore is released. Supported: pitch layouts, 1D and multi-line,
 * virtual and physical addressing (LOCAL_FB, coherent and non-coherent
 * sysmem), constant remaps (memset of 1..16-byte elements), the Hopper
 * fast scrub (MEMORY_SCRUB_ENABLE: zeros), semaphore-only launches, one-
 * and four-word semaphores. Anything else (block-linear, source remaps,
 * peer memory, semaphore reductions, secure copies) is refused: the
 * channel stops with an error notifier, never a silent success.
 */
#include "engine.h"
#include "../backend.h"

#define M_SET_SEMAPHORE_A	0x240
#define M_SET_SEMAPHORE_B	0x244
#define M_SET_SEMAPHORE_PAYLOAD	0x248
#define M_SET_SEMAPHORE_PAYLOAD_UPPER 0x24c
#define M_SET_SRC_PHYS_MODE	0x260
#define M_SET_DST_PHYS_MODE	0x264
#define M_LAUNCH_DMA		0x300
#define M_OFFSET_IN_UPPER	0x400
#define M_OFFSET_IN_LOWER	0x404
#define M_OFFSET_OUT_UPPER	0x408
#define M_OFFSET_OUT_LOWER	0x40c
#define M_PITCH_IN		0x410
#define M_PITCH_OUT		0x414
#define M_LINE_LENGTH_IN	0x418
#define M_LINE_COUNT		0x41c
#define M_SET_MEMORY_SCRUB_PARAMS 0x6fc
#define M_SET_REMAP_CONST_A	0x700
#define M_SET_REMAP_CONST_B	0x704
#define M_SET_REMAP_COMPONENTS	0x708

/* LAUNCH_DMA */
#define LD_XFER(d)		((d) & 0x3)
#define LD_XFER_NONE		0
#define LD_SEM_TYPE(d)		(((d) >> 3) & 0x3)
#define LD_SEM_NONE		0
#define LD_SEM_ONE_WORD		1
#define LD_SEM_FOUR_WORD	2
#define LD_SRC_PITCH		(1U << 7)
#define LD_DST_PITCH		(1U << 8)
#define LD_MULTI_LINE		(1U << 9)
#define LD_REMAP		(1U << 10)
#define LD_SRC_PHYS		(1U << 12)
#define LD_DST_PHYS		(1U << 13)
#define LD_SEM_REDUCTION_EN	(1U << 19)
#define LD_COPY_TYPE(d)		(((d) >> 20) & 0x3)
#define LD_SCRUB		(1U << 23)
#define LD_SEM_PAYLOAD_64	(1U << 27)

/* SET_REMAP_COMPONENTS */
#define RC_DST(d, i)		(((d) >> (4 * (i))) & 0x7)
#define RC_CONST_A		4
#define RC_CONST_B		5
#define RC_NO_WRITE		6
#define RC_COMP_SIZE(d)		((((d) >> 16) & 0x3) + 1)
#define RC_NUM_DST(d)		((((d) >> 24) & 0x3) + 1)

/* SET_*_PHYS_MODE TARGET */
#define PM_LOCAL_FB		0
#define PM_COHERENT_SYSMEM	1
#define PM_NONCOHERENT_SYSMEM	2

#define UPPER_MASK		0x1ffffff	/* 24:0: 57-bit addresses */

static int refuse(struct vgsp_chan *ch)
{
	ch->error_code = vgsp_rc_ce_error(ch);
	return VGSP_ENG_ERROR;
}

static int end_of(struct vgsp_chan *ch, bool phys, u32 mode, u32 hi, u32 lo,
		  struct vgsp_ce_end *e)
{
	e->addr = ((u64)(hi & UPPER_MASK) << 32) | lo;
	e->virt = !phys;
	if (!phys) {
		if (!ch->vm_ok)
			return -EFAULT;
		e->vm = ch->vm;
		return 0;
	}
	switch (mode & 0x3) {
	case PM_LOCAL_FB:
		e->target = VGSP_MEM_VID;
		return 0;
	case PM_COHERENT_SYSMEM:
	case PM_NONCOHERENT_SYSMEM:
		e->target = VGSP_MEM_SYS;
		return 0;
	default:
		return -EINVAL;		/* peer memory: no peer exists */
	}
}

/* The constant element a remap writes; -EINVAL for source remaps. */
static int remap_elem(const struct vgsp_ce_regs *r, struct vgsp_ce_xfer *x)
{
	u32 size = RC_COMP_SIZE(r->remap_comp), n = RC_NUM_DST(r->remap_comp);
	u32 i, j;

	for (i = 0; i < n; i++) {
		u32 sel = RC_DST(r->remap_comp, i), v;

		if (sel == RC_CONST_A)
			v = r->remap_a;
		else if (sel == RC_CONST_B)
			v = r->remap_b;
		else
			return -EINVAL;	/* SRC_* or NO_WRITE: not a fill */
		for (j = 0; j < size; j++)
			x->elem[i * size + j] = (u8)(v >> (8 * j));
	}
	x->elem_size = (u8)(size * n);
	return 0;
}

/* Build the transfer of LAUNCH_DMA @d from the recorded state. */
static int prepare(struct vgsp_chan *ch, u32 d, struct vgsp_ce_xfer *x)
{
	struct vgsp_ce_regs *r = &ch->ce;

	memset(x, 0, sizeof(*x));
	if ((d & LD_SEM_REDUCTION_EN) || LD_COPY_TYPE(d) ||
	    LD_SEM_TYPE(d) == 3)
		return -EINVAL;
	if (LD_XFER(d) == LD_XFER_NONE)
		return 0;		/* semaphore-only launch */
	if (!(d & LD_SRC_PITCH) || !(d & LD_DST_PITCH))
		return -EINVAL;		/* block-linear */
	if (end_of(ch, d & LD_DST_PHYS, r->dst_phys, r->out_hi, r->out_lo,
		   &x->dst))
		return -EINVAL;
	x->lines = d & LD_MULTI_LINE ? r->line_count : 1;
	x->pitch_in = r->pitch_in;
	x->pitch_out = r->pitch_out;
	if (d & LD_SCRUB) {
		/* fast scrub: zeros, physical FB only (as on hardware) */
		if (!(d & LD_DST_PHYS) || x->dst.target != VGSP_MEM_VID)
			return -EINVAL;
		x->fill = true;
		x->elem_size = 4;
		x->line_bytes = r->line_length;
	} else if (d & LD_REMAP) {
		if (remap_elem(r, x))
			return -EINVAL;
		x->fill = true;
		x->line_bytes = (u64)r->line_length * x->elem_size;
	} else {
		if (end_of(ch, d & LD_SRC_PHYS, r->src_phys, r->in_hi,
			   r->in_lo, &x->src))
			return -EINVAL;
		x->line_bytes = r->line_length;
	}
	return 0;
}

/*
 * The FB bytes @x may write, for the FB read cache (mm/fb_cache.c): none
 * into system memory, the lines' extent for a physical destination,
 * anything for a VA (where it lands is the backend's mapping's to say).
 */
static void dst_fb(const struct vgsp_ce_xfer *x, u64 *pa, u64 *len)
{
	const struct vgsp_ce_end *d = &x->dst;
	u64 n = x->lines - 1;

	*pa = 0;
	*len = VGSP_FB_GPU_ANY;
	if (d->virt)
		return;
	if (d->target != VGSP_MEM_VID) {
		*len = 0;
		return;
	}
	/* guest values: an extent that overflows is "anything" */
	if (n && x->pitch_out > (~0ULL - x->line_bytes) / n)
		return;
	if (d->addr > ~0ULL - (n * x->pitch_out + x->line_bytes))
		return;
	*pa = d->addr;
	*len = n * x->pitch_out + x->line_bytes;
}

/*
 * LAUNCH_DMA: a long transfer runs in slices (VGSP_ENG_YIELD keeps this
 * method current until the backend has finished it), then the semaphore.
 */
static int launch(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 d)
{
	struct vgsp_ce_regs *r = &ch->ce;
	struct vgsp_ce_xfer *x = &ch->ce_x;
	int ret;

	if (!ch->ce_busy) {
		if (prepare(ch, d, x))
			return refuse(ch);
		ch->ce_busy = true;
	}
	if (x->lines && x->line_bytes) {
		u64 wpa, wlen;

		dst_fb(x, &wpa, &wlen);
		vgsp_op_begin(ch, VGSP_OP_CE);
		vgsp_fb_gpu_start(dev);
		ret = dev->backend->ce_xfer(dev, x);
		vgsp_fb_gpu_done(dev, wpa, wlen, !ret || ret == -EAGAIN ||
				 ret == -EFAULT);
		vgsp_op_end(dev, ch, VGSP_OP_CE, !ret || ret == -EAGAIN, !ret);
		if (ret == -EAGAIN)
			return VGSP_ENG_YIELD;
		if (ret) {
			ch->ce_busy = false;
			ch->error_code = ret == -EFAULT ? VGSP_RC_MMU_FAULT :
						vgsp_rc_ce_error(ch);
			return VGSP_ENG_ERROR;
		}
		ch->st.ce_bytes += x->line_bytes * x->lines;
	}
	ch->ce_busy = false;
	ch->st.ce_launches++;
	if (LD_SEM_TYPE(d) == LD_SEM_NONE)
		return VGSP_ENG_OK;
	return vgsp_sem_release(dev, ch,
				((u64)(r->sem_a & UPPER_MASK) << 32) | r->sem_b,
				((u64)r->sem_payload_hi << 32) | r->sem_payload,
				d & LD_SEM_PAYLOAD_64,
				LD_SEM_TYPE(d) == LD_SEM_FOUR_WORD);
}

int vgsp_ce_method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 mthd,
		   u32 data)
{
	struct vgsp_ce_regs *r = &ch->ce;

	switch (mthd) {
	case M_SET_SEMAPHORE_A:
		r->sem_a = data;
		break;
	case M_SET_SEMAPHORE_B:
		r->sem_b = data;
		break;
	case M_SET_SEMAPHORE_PAYLOAD:
		r->sem_payload = data;
		break;
	case M_SET_SEMAPHORE_PAYLOAD_UPPER:
		r->sem_payload_hi = data;
		break;
	case M_SET_SRC_PHYS_MODE:
		r->src_phys = data;
		break;
	case M_SET_DST_PHYS_MODE:
		r->dst_phys = data;
		break;
	case M_LAUNCH_DMA:
		return launch(dev, ch, data);
	case M_OFFSET_IN_UPPER:
		r->in_hi = data;
		break;
	case M_OFFSET_IN_LOWER:
		r->in_lo = data;
		break;
	case M_OFFSET_OUT_UPPER:
		r->out_hi = data;
		break;
	case M_OFFSET_OUT_LOWER:
		r->out_lo = data;
		break;
	case M_PITCH_IN:
		r->pitch_in = data;
		break;
	case M_PITCH_OUT:
		r->pitch_out = data;
		break;
	case M_LINE_LENGTH_IN:
		r->line_length = data;
		break;
	case M_LINE_COUNT:
		r->line_count = data;
		break;
	case M_SET_REMAP_CONST_A:
		r->remap_a = data;
		break;
	case M_SET_REMAP_CONST_B:
		r->remap_b = data;
		break;
	case M_SET_REMAP_COMPONENTS:
		r->remap_comp = data;
		break;
	default:
		break;	/* other state (scrub params, PLC, ...): no effect */
	}
	return VGSP_ENG_OK;
}
