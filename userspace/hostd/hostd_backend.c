/* SPDX-License-Identifier: MIT */
/*
 * hostd_backend.c - vgsp_backend_ops over a channel on the physical GPU.
 * Work is validated against the instance's registered memory (the same
 * scanner as the sim backend for CE pushbuffers), encoded into hostd's own
 * pushbuffer and fenced with a host semaphore release (wait-for-idle) whose
 * payload is a per-instance sequence number; poll() turns fence progress
 * into completions, in submission order.
 */
#include <stdlib.h>
#include <string.h>

#include "ce_interp.h"
#include "hostd_backend.h"
#include "nvrm_abi.h"
#include "pb.h"
#include "qmd.h"

#define HB_PENDING 4096u
#define HB_SLM_PER_THREAD 0x240u
#define HB_SLM_PER_TPC 0x240000ull
#define HB_SLM_TPCS 72u

unsigned hostd_be_launch_variant;
unsigned hostd_be_qmd_version = 4;
#define HB_QMD_STRIDE 512u
#define HB_QMD_SLOTS 4096u

struct pending {
	uint64_t cookie;
	uint32_t seq;
	uint32_t engine;
};

struct vgsp_backend {
	struct vgsp_be_config cfg;
	struct hd_dev dev;
	struct vgsp_regions regions;
	struct ce_interp scan;
	struct hd_mem fence;          /* sysmem page: word 0 = completed seq */
	struct hd_mem qmds;           /* QMD ring in vidmem */
	struct hd_mem slm;            /* shader local memory (hostd owns it) */
	uint32_t qmd_next;
	uint32_t seq;
	struct pending pend[HB_PENDING];
	unsigned pend_head, pend_len;
	struct hd_mem owned[VGSP_MAX_REGIONS];
	unsigned nowned;
};

static volatile uint32_t *fence_word(struct vgsp_backend *b)
{
	return (volatile uint32_t *)b->fence.cpu;
}

static int hb_open(const struct vgsp_be_config *cfg, struct vgsp_backend **out)
{
	if (!cfg || !out || cfg->abi != VGSP_BACKEND_ABI || !cfg->complete)
		return VGSP_BE_EINVAL;
	struct vgsp_backend *b = calloc(1, sizeof(*b));
	if (!b)
		return VGSP_BE_ENOMEM;
	b->cfg = *cfg;
	/* RM call trace on request, quiet by default */
	FILE *log = getenv("VGSP_HOSTD_TRACE") ? stderr : NULL;
	if (hd_open(&b->dev, HD_MODE_TSG, log)) {
		hd_close(&b->dev);
		if (hd_open(&b->dev, HD_MODE_SIMPLE, log)) {
			hd_close(&b->dev);
			free(b);
			return VGSP_BE_EIO;
		}
	}
	ce_interp_init(&b->scan, &b->regions, 0);
	if (hd_alloc(&b->dev, &b->fence, 4096, HD_MEM_SYS | HD_MEM_CPU) ||
	    hd_alloc(&b->dev, &b->qmds, HB_QMD_SLOTS * HB_QMD_STRIDE, HD_MEM_VID | HD_MEM_CPU) ||
	    hd_alloc(&b->dev, &b->slm, HB_SLM_PER_TPC * HB_SLM_TPCS, HD_MEM_VID)) {
		hd_close(&b->dev);
		free(b);
		return VGSP_BE_EIO;
	}
	memset(b->fence.cpu, 0, 4096);
	uint32_t buf[32];
	struct pb p;
	pb_init(&p, buf, 32);
	pb_set_object(&p, PB_SUBCH_COMPUTE, HOPPER_COMPUTE_A);
	pb_set_object(&p, PB_SUBCH_COPY, HOPPER_DMA_COPY_A);
	pb_compute_windows(&p, 0x729400000000ull, 0x729300000000ull);
	pb_compute_local_memory(&p, b->slm.va, HB_SLM_PER_TPC);
	pb_host_sem_release(&p, b->fence.va, 0);
	if (hd_submit(&b->dev, buf, p.len)) {
		hd_close(&b->dev);
		free(b);
		return VGSP_BE_EIO;
	}
	*out = b;
	return 0;
}

static void hb_close(struct vgsp_backend *b)
{
	hd_close(&b->dev); /* frees every RM object of the client */
	free(b);
}

static int hb_map_mem(struct vgsp_backend *b, const struct vgsp_be_mem *m)
{
	return vgsp_regions_add(&b->regions, m);
}

int hostd_be_alloc(struct vgsp_backend *b, struct hd_mem *m, uint64_t size, int flags)
{
	if (b->nowned == VGSP_MAX_REGIONS || hd_alloc(&b->dev, m, size, flags))
		return VGSP_BE_ENOMEM;
	struct vgsp_be_mem r = { m->va, m->size, m->cpu, 0 };
	int rc = vgsp_regions_add(&b->regions, &r);
	if (rc)
		return rc;
	b->owned[b->nowned++] = *m;
	return 0;
}

struct hd_dev *hostd_be_dev(struct vgsp_backend *b)
{
	return &b->dev;
}

/* append the fence and submit; record the pending completion */
static int finish(struct vgsp_backend *b, struct pb *p, uint64_t cookie, uint32_t engine)
{
	if (b->pend_len == HB_PENDING)
		return VGSP_BE_EAGAIN;
	uint32_t seq = b->seq + 1;
	pb_host_sem_release(p, b->fence.va, seq);
	if (p->overflow)
		return VGSP_BE_EINVAL;
	if (hd_submit(&b->dev, p->buf, p->len))
		return VGSP_BE_EIO;
	b->seq = seq;
	struct pending *e = &b->pend[(b->pend_head + b->pend_len++) % HB_PENDING];
	e->cookie = cookie;
	e->seq = seq;
	e->engine = engine;
	return 0;
}

static int hb_submit_ce(struct vgsp_backend *b, const struct vgsp_ce_work *w, uint64_t cookie)
{
	uint32_t buf[1024];
	struct pb p;
	pb_init(&p, buf, 1024);
	if (!w)
		return VGSP_BE_EINVAL;
	if (w->kind == VGSP_CE_COPY) {
		const struct vgsp_ce_copy *c = &w->u.copy;
		if (c->len == 0 || c->flags)
			return VGSP_BE_EINVAL;
		if (!vgsp_regions_find(&b->regions, c->src_va, c->len, 0) ||
		    !vgsp_regions_find(&b->regions, c->dst_va, c->len, 1) ||
		    (c->sem_va && !vgsp_regions_find(&b->regions, c->sem_va, 4, 1)))
			return VGSP_BE_EFAULT;
		/* the copy engine's line length is 32 bits: split large copies */
		for (uint64_t off = 0; off < c->len; off += 0x80000000ull) {
			uint64_t n = c->len - off < 0x80000000ull ? c->len - off : 0x80000000ull;
			pb_ce_copy(&p, c->src_va + off, c->dst_va + off, (uint32_t)n, 0, 0);
		}
		if (c->sem_va)
			pb_ce_sem_release(&p, c->sem_va, c->sem_payload);
	} else if (w->kind == VGSP_CE_PUSHBUF) {
		const struct vgsp_pb_seg *s = &w->u.seg;
		if (s->ndwords == 0 || s->ndwords > 1000 || s->flags || (s->va & 3u))
			return VGSP_BE_EINVAL;
		const uint32_t *seg = vgsp_regions_host(&b->regions, s->va, (uint64_t)s->ndwords * 4, 0);
		if (!seg)
			return VGSP_BE_EFAULT;
		/* snapshot first, then scan the snapshot: the guest cannot
		 * change what is forwarded after it was checked */
		memcpy(buf, seg, (size_t)s->ndwords * 4);
		int r = ce_interp_run(&b->scan, buf, s->ndwords);
		if (r)
			return r;
		p.len = s->ndwords;
	} else {
		return VGSP_BE_EINVAL;
	}
	return finish(b, &p, cookie, VGSP_BE_CAP_CE);
}

static int hb_submit_gr(struct vgsp_backend *b, const struct vgsp_gr_launch *l, uint64_t cookie)
{
	if (!l)
		return VGSP_BE_EINVAL;
	if (!vgsp_regions_find(&b->regions, l->program_va, l->program_bytes, 0) ||
	    !vgsp_regions_find(&b->regions, l->cb0_va, l->cb0_bytes, 0) ||
	    (l->sem_va && !vgsp_regions_find(&b->regions, l->sem_va, 4, 1)))
		return VGSP_BE_EFAULT;
	struct qmd_launch q = {
		.program_va = l->program_va, .program_bytes = l->program_bytes,
		.grid = { l->grid[0], l->grid[1], l->grid[2] },
		.block = { l->block[0], l->block[1], l->block[2] },
		.regs = l->regs, .shared_bytes = l->shared_bytes,
		.cb0_va = l->cb0_va, .cb0_bytes = l->cb0_bytes,
		.release_va = l->sem_va, .release_payload = l->sem_payload,
		.sass_version = 0x90, .local_bytes = HB_SLM_PER_THREAD,
	};
	q.shared_bytes += 0x400; /* system-reserved shared memory per CTA */
	uint32_t slot = b->qmd_next++ % HB_QMD_SLOTS;
	/* a slot is reused only after its previous launch completed */
	if (b->seq >= HB_QMD_SLOTS &&
	    hd_wait32(fence_word(b), b->seq - HB_QMD_SLOTS + 1, 2000000000ull))
		return VGSP_BE_EBUSY;
	uint32_t qbuf[QMD_V04_DWORDS];
	memset(qbuf, 0, sizeof(qbuf));
	if (hostd_be_qmd_version == 3 ? qmd_v03_encode(qbuf, &q) : qmd_v04_encode(qbuf, &q))
		return VGSP_BE_EINVAL;
	memcpy((uint8_t *)b->qmds.cpu + (size_t)slot * HB_QMD_STRIDE, qbuf, QMD_V04_BYTES);
	uint32_t buf[64];
	struct pb p;
	pb_init(&p, buf, 64);
	pb_compute_launch_v(&p, b->qmds.va + (uint64_t)slot * HB_QMD_STRIDE, hostd_be_launch_variant);
	return finish(b, &p, cookie, VGSP_BE_CAP_GR);
}

static int hb_poll(struct vgsp_backend *b, unsigned max, uint64_t timeout_ns)
{
	unsigned n = 0;
	if (b->pend_len && timeout_ns)
		hd_wait32(fence_word(b), b->pend[b->pend_head].seq, timeout_ns);
	uint32_t done = *fence_word(b);
	/* the channel's error notifier (status word at byte 14) is written by
	 * RM when the channel faults: fail everything still pending */
	uint16_t err = ((volatile uint16_t *)b->dev.notif.cpu)[7];
	while (n < max && b->pend_len) {
		struct pending *e = &b->pend[b->pend_head];
		int ok = (int32_t)(done - e->seq) >= 0;
		if (!ok && !err)
			break;
		struct vgsp_be_completion c = { e->cookie, ok ? 0 : VGSP_BE_EIO, e->engine };
		b->pend_head = (b->pend_head + 1) % HB_PENDING;
		b->pend_len--;
		b->cfg.complete(b->cfg.ctx, &c);
		n++;
	}
	return (int)n;
}

const struct vgsp_backend_ops vgsp_hostd_backend_ops = {
	.name = "hostd",
	.caps = VGSP_BE_CAP_CE | VGSP_BE_CAP_GR,
	.open = hb_open,
	.close = hb_close,
	.map_mem = hb_map_mem,
	.submit_ce = hb_submit_ce,
	.submit_gr = hb_submit_gr,
	.poll = hb_poll,
};
