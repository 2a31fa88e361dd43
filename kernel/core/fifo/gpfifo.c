// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The host front end of one channel: GPFIFO entries [GP_GET, USERD.GPPut)
 * fetched through the channel's page tables, control entries (LENGTH 0:
 * NOP, SET_PB_SEGMENT_EXTENDED_BASE), pushbuffer segments decoded header
 * by header (SEC_OP INC, NON_INC, IMMD, ONE_INC, END_PB_SEGMENT; the
 * subdevice-mask forms are no-ops on one GPU) and each method handed to
 * engine/. GP_GET is written back to USERD as entries complete.
 *
 * The decoder state lives in the channel, so a slice can end anywhere
 * (budget spent, an acquire not yet satisfied, a long copy part done) and
 * the next one resumes at the same dword.
 */
#include "fifo.h"
#include "../engine/engine.h"
#include "../rm/rm.h"
#include "../trace.h"

#define SECOP(h)		((h) >> 29)
#define SECOP_GRP0_TERT		0
#define SECOP_INC		1
#define SECOP_GRP2_TERT		2
#define SECOP_NINC		3
#define SECOP_IMMD		4
#define SECOP_ONEINC		5
#define SECOP_END_SEG		7
#define H_COUNT(h)		(((h) >> 16) & 0x1fff)
#define H_SUBCH(h)		(((h) >> 13) & 0x7)
#define H_MTHD(h)		(((h) & 0xfff) << 2)

#define GP_LENGTH(e1)		(((e1) >> 10) & 0x1fffff)
#define GP_OPCODE(e1)		((e1) & 0xff)
#define GP_OP_SET_PB_EXT_BASE	4
#define GP_EXT_BASE(e0)		((u64)(((e0) >> 8) & 0x1ffff) << 40)

#define CHUNK			256	/* dwords read at a time */

enum { PB_INC, PB_NINC, PB_ONEINC };

static int userd_get32(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 off,
		       u32 *v)
{
	u8 b[4];

	if (vgsp_mem_read(dev, ch->d.userd_target, ch->d.userd_pa + off, b, 4))
		return -EFAULT;
	*v = vgsp_get32(b, 0);
	return 0;
}

static void userd_put32(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 off,
			u32 v)
{
	u8 b[4];

	vgsp_put32(b, 0, v);
	vgsp_mem_write(dev, ch->d.userd_target, ch->d.userd_pa + off, b, 4);
}

/* One method through the engines; the decoder advances only on success. */
static int method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 data)
{
	struct vgsp_pb_state *pb = &ch->pb;
	int rc = vgsp_engine_method(dev, ch, pb->subch, pb->mthd, data);

	if (rc == VGSP_ENG_ERROR)
		ch->error_data = data;
	if (rc != VGSP_ENG_OK)
		return rc;
	pb->count--;
	if (pb->mode == PB_INC)
		pb->mthd += 4;
	else if (pb->mode == PB_ONEINC) {
		pb->mthd += 4;
		pb->mode = PB_NINC;
	}
	return VGSP_ENG_OK;
}

/* A header dword. VGSP_ENG_* (IMMD executes a method at once). */
static int header(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 h,
		  bool *end)
{
	struct vgsp_pb_state *pb = &ch->pb;

	switch (SECOP(h)) {
	case SECOP_INC:
	case SECOP_NINC:
	case SECOP_ONEINC:
		pb->mthd = H_MTHD(h);
		pb->subch = (u8)H_SUBCH(h);
		pb->count = H_COUNT(h);
		pb->mode = SECOP(h) == SECOP_INC ? PB_INC :
			   SECOP(h) == SECOP_NINC ? PB_NINC : PB_ONEINC;
		return VGSP_ENG_OK;
	case SECOP_IMMD: {
		int rc = vgsp_engine_method(dev, ch, H_SUBCH(h), H_MTHD(h),
					    H_COUNT(h));

		if (rc == VGSP_ENG_ERROR)
			ch->error_data = H_COUNT(h);
		return rc;
	}
	case SECOP_GRP0_TERT:
	case SECOP_GRP2_TERT:
		return VGSP_ENG_OK;	/* subdevice masks: one GPU here */
	case SECOP_END_SEG:
		*end = true;
		return VGSP_ENG_OK;
	default:
		ch->error_code = VGSP_RC_PBDMA_ERROR;
		return VGSP_ENG_ERROR;
	}
}

/* Run the current segment; VGSP_ENG_OK once it is finished. */
static int run_segment(struct vgsp_dev *dev, struct vgsp_chan *ch,
		       u32 *budget)
{
	u32 buf[CHUNK];

	while (ch->seg_pos < ch->seg_len) {
		u32 n = ch->seg_len - ch->seg_pos, i;

		if (n > CHUNK)
			n = CHUNK;
		if (vgsp_vm_read(dev, &ch->vm, ch->seg_va + 4ULL * ch->seg_pos,
				 buf, n * 4)) {
			ch->error_code = VGSP_RC_MMU_FAULT;
			return VGSP_ENG_ERROR;
		}
		for (i = 0; i < n; i++) {
			u32 dw = vgsp_get32((u8 *)&buf[i], 0);
			bool end = false;
			int rc;

			if (!*budget)
				return VGSP_ENG_YIELD;
			(*budget)--;
			rc = ch->pb.count ? method(dev, ch, dw) :
					    header(dev, ch, dw, &end);
			if (rc != VGSP_ENG_OK)
				return rc;
			ch->seg_pos++;
			if (end) {
				ch->seg_pos = ch->seg_len;
				break;
			}
		}
	}
	ch->st.segments++;
	return VGSP_ENG_OK;
}

/* The next GPFIFO entry: 0 and a segment set up, 1 idle, <0 error. */
static int fetch(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	u32 put, e0, e1;
	u8 e[8];

	for (;;) {
		if (userd_get32(dev, ch, VGSP_USERD_GP_PUT, &put) ||
		    put >= ch->d.gpfifo_entries) {
			ch->error_code = VGSP_RC_PBDMA_ERROR;
			return -EINVAL;
		}
		if (put == ch->gp_get)
			return 1;
		if (vgsp_vm_read(dev, &ch->vm, ch->d.gpfifo_va + 8ULL * ch->gp_get,
				 e, 8)) {
			ch->error_code = VGSP_RC_MMU_FAULT;
			return -EFAULT;
		}
		e0 = vgsp_get32(e, 0);
		e1 = vgsp_get32(e, 4);
		if (GP_LENGTH(e1)) {
			ch->seg_va = ch->pb_ext_base |
				     ((u64)(e1 & 0xff) << 32) | (e0 & ~3U);
			ch->seg_len = GP_LENGTH(e1);
			ch->seg_pos = 0;
			ch->in_seg = true;
			vgsp_trace_gpfifo_fetch(dev, ch->d.chid, ch->gp_get, put, ch->seg_len);
			return 0;
		}
		/* a control entry */
		if (GP_OPCODE(e1) == GP_OP_SET_PB_EXT_BASE)
			ch->pb_ext_base = GP_EXT_BASE(e0);
		ch->gp_get = (ch->gp_get + 1) % ch->d.gpfifo_entries;
		userd_put32(dev, ch, VGSP_USERD_GP_GET, ch->gp_get);
		ch->st.entries++;
	}
}

bool vgsp_gpfifo_run(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	u32 budget = VGSP_FIFO_SLICE_DWORDS, entries = 0, before;
	u64 t;
	int rc;

	if (ch->state == VGSP_CHAN_ERROR)
		return false;
	vgsp_op_wake(dev, ch);
	ch->state = VGSP_CHAN_RUNNING;
	for (;;) {
		if (!ch->in_seg) {
			if (entries++ >= VGSP_FIFO_SLICE_ENTRIES)
				goto yield;
			rc = fetch(dev, ch);
			if (rc < 0)
				goto error;
			if (rc > 0)
				break;
		}
		before = budget;
		rc = run_segment(dev, ch, &budget);
		vgsp_trace_methods(dev, ch->d.chid, before - budget, rc);
		if (rc == VGSP_ENG_YIELD)
			goto yield;
		if (rc == VGSP_ENG_BLOCKED) {
			ch->state = VGSP_CHAN_BLOCKED;
			return false;
		}
		if (rc == VGSP_ENG_ERROR)
			goto error;
		ch->in_seg = false;
		/* the entry's work is done before GP_GET says so */
		if (vgsp_sem_flush(dev, ch) != VGSP_ENG_OK)
			goto error;
		ch->gp_get = (ch->gp_get + 1) % ch->d.gpfifo_entries;
		/* counted as it is published: a reader of GP_GET sees both */
		vgsp_op_visible(dev, ch);
		ch->st.entries++;
		userd_put32(dev, ch, VGSP_USERD_GP_GET, ch->gp_get);
	}
	/* idle: everything up to GP_PUT done */
	ch->state = VGSP_CHAN_IDLE;
	t = vgsp_load64(&ch->doorbell_ns);
	if (t) {
		u64 lat = vgsp_now_ns() - t;

		ch->st.last_latency_ns = lat;
		if (lat > ch->st.max_latency_ns)
			ch->st.max_latency_ns = lat;
		vgsp_store64(&ch->doorbell_ns, 0);
	}
	vgsp_trace_work_done(dev, ch->d.chid, ch->gp_get, t ? ch->st.last_latency_ns : 0);
	return false;
yield:
	/* a held release never waits past its channel's slice */
	if (vgsp_sem_flush(dev, ch) != VGSP_ENG_OK)
		goto error;
	return true;
error:
	/* it came before the method that failed, whose error stands */
	if (ch->held.set) {
		u32 code = ch->error_code;

		vgsp_sem_flush(dev, ch);
		ch->error_code = code;
	}
	ch->error_mthd = ch->pb.mthd;
	ch->error_class = ch->subch_class[ch->pb.subch];
	vgsp_fifo_chan_error(dev, ch, ch->error_code);
	return false;
}
