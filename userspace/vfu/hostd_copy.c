// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The hostd backend's copy engine: a guest copy or fill runs on a host
 * HOPPER_DMA_COPY_A channel when the GPU can reach exactly the bytes the
 * core would have touched, else on the CPU (sim's ce_xfer), counted by
 * reason.
 *
 *  - virtual sides (CUDA's channels): in the mirror of that address
 *    space, at the same VAs, when the mirror maps every byte (writable on
 *    the destination);
 *  - physical sides (the guest kernel's channels: the scrubber, UVM): in
 *    the instance's physical space, a host VA space where the FB store
 *    sits at PHYS_FB_BASE and each guest-RAM window at PHYS_SYS_BASE +
 *    its IOVA (only memory the instance was given);
 *  - one side of each kind: on the CPU.
 *
 * Both channels are allocated DENY_PHYSICAL_MODE_CE | DENY_AUTH_LEVEL_PRIV:
 * the GPU copies only between VAs of the space the channel is bound to.
 * Fifo lock held (the core's worker), device lock not; h->mu inside.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend_hostd_priv.h"
#include "mm/mm.h"

/* What one call hands the GPU: about 10 ms over PCIe, then the worker
 * gets the channel table back (the core calls again for the rest). */
#define CE_CALL_BYTES		(256ULL << 20)
#define CE_OPEN_TRIES		3	/* failed opens before copies stay on the CPU */
#define CE_LARGE_BYTES		(1ULL << 20)	/* the engine-bandwidth figure's floor */

static const char *const ce_cpu_name[CE_CPU_N] = {
	"fill", "mixed", "unmirrored", "no_channel", "sync", "no_dma"
};

/* ---- channels ---------------------------------------------------------- */

/*
 * The copy engines to try, most physical copy engines first: on the H200
 * (580.159.04) COPY0..3 have 2 PCEs each and COPY4 has 12, and a guest
 * copy moved 47-51 GB/s on a 2-PCE engine against native's 54.8 (B/A runs
 * 9 and 10). Ties keep the old order (2, 3, 4, ... 0, 1); engines RM
 * gives no mask for come after those it does.
 */
static void ce_rank(struct vfu_hostd *h)
{
	static const unsigned int order[CE_ENGINES] = { 2, 3, 4, 5, 6, 7, 8, 9, 0, 1 };
	unsigned int i, j, pces[CE_ENGINES];

	for (i = 0; i < CE_ENGINES; i++) {
		uint32_t mask = 0;

		h->ce_order[i] = order[i];
		pces[i] = hd_ce_pce_mask(&h->d, order[i], &mask) ? 0 : (unsigned int)__builtin_popcount(mask);
	}
	/* insertion sort, stable: more PCEs first */
	for (i = 1; i < CE_ENGINES; i++) {
		unsigned int e = h->ce_order[i], p = pces[i];

		for (j = i; j > 0 && pces[j - 1] < p; j--) {
			h->ce_order[j] = h->ce_order[j - 1];
			pces[j] = pces[j - 1];
		}
		h->ce_order[j] = e;
		pces[j] = p;
	}
	h->ce_ranked = true;
}

/* A copy channel in @v into @c, on the engine that worked before. */
static int ce_open(struct vfu_hostd *h, struct hd_vas *v, struct hd_fwd_chan *c)
{
	unsigned int i;

	if (h->ce_open_fails >= CE_OPEN_TRIES)
		return -1;
	if (h->ce_index < 0 && !h->ce_ranked)
		ce_rank(h);
	for (i = 0; i < CE_ENGINES; i++) {
		unsigned int e = h->ce_index >= 0 ? (unsigned int)h->ce_index :
						     h->ce_order[i];

		if (!hd_fwd_ce_open(&h->d, v, c, e)) {
			if (h->ce_index < 0) {
				/* which PCEs the copies will use (issue #11) */
				h->ce_pce_known = !hd_ce_pce_mask(&h->d, e,
								  &h->ce_pce_mask);
				if (!h->ce_pce_known)
					h->ce_pce_status = h->d.last_status;
				if (h->log)
					fprintf(h->log, "hostd: guest copies run on COPY%u\n", e);
			}
			h->ce_index = (int)e;
			h->ce_open_fails = 0;
			h->ce_opens++;
			vfu_hostd_boost_once(h);
			return 0;
		}
		if (h->ce_index >= 0)
			break;		/* the engine that worked before */
	}
	h->ce_open_errors++;
	if (++h->ce_open_fails == CE_OPEN_TRIES)
		fprintf(stderr, "vgsp-vfu: hostd: no copy channel could be opened (RM stage %s status 0x%x): guest copies stay on the CPU\n",
			h->d.stage ? h->d.stage : "-", h->d.last_status);
	return -1;
}

void vfu_hostd_ce_close(struct vfu_hostd *h, struct mirror *m)
{
	if (!m->ce_open)
		return;
	hd_fwd_chan_close(&h->d, &m->ce);
	m->ce_open = false;
	vfu_hostd_mirror_put(h, m);
}

/* The copy channel of @m, opened (or reopened after an RC) on first use. */
static struct hd_fwd_chan *mirror_ce(struct vfu_hostd *h, struct mirror *m)
{
	if (m->ce_open && m->ce.dead)
		vfu_hostd_ce_close(h, m);
	if (m->ce_open)
		return &m->ce;
	if (ce_open(h, &m->v, &m->ce))
		return NULL;
	m->ce_open = true;
	m->users++;
	return &m->ce;
}

/* ---- the physical space ------------------------------------------------ */

void vfu_hostd_phys_stale(struct vfu_hostd *h)
{
	h->ps.stale = true;
}

void vfu_hostd_phys_close(struct vfu_hostd *h)
{
	struct phys_space *ps = &h->ps;

	if (ps->ce_open)
		hd_fwd_chan_close(&h->d, &ps->ce);
	if (ps->made)
		hd_vas_destroy(&h->d, &ps->v);
	free(ps->runs);
	memset(ps, 0, sizeof(*ps));
}

static int by_va(const void *a, const void *b)
{
	u64 x = ((const struct hd_run *)a)->va, y = ((const struct hd_run *)b)->va;

	return x < y ? -1 : x > y;
}

/*
 * Map what the space must hold now: the FB chunks copies reached so far
 * and every window (below 2^52). One sync; the planner maps only what is
 * new and unmaps only what went.
 */
static int phys_sync(struct vfu_hostd *h)
{
	struct phys_space *ps = &h->ps;
	u64 nchunks = (h->fb_b.size + PHYS_CHUNK - 1) / PHYS_CHUNK, c;
	size_t n = 0, cap = h->nwin + (size_t)nchunks;
	struct hd_run *r = calloc(cap ? cap : 1, sizeof(*r));
	unsigned int i;
	int ret;

	if (!r)
		return -ENOMEM;
	for (c = 0; c < nchunks && c < PHYS_CHUNKS_MAX; c++) {
		u64 off = c * PHYS_CHUNK, len = h->fb_b.size - off;

		if (!(ps->fb_mapped[c / 8] & (1U << (c % 8))))
			continue;
		r[n++] = (struct hd_run){ .va = PHYS_FB_BASE + off,
			.len = len < PHYS_CHUNK ? len : PHYS_CHUNK,
			.hmem = h->fb_b.h, .off = off };
	}
	for (i = 0; i < h->nwin; i++) {
		const struct win *w = &h->win[i];

		if (w->iova >= PHYS_FB_BASE || w->size > PHYS_FB_BASE - w->iova ||
		    ((w->iova | w->size) & 0xfff))
			continue;	/* beyond what the space maps: CPU */
		r[n++] = (struct hd_run){ .va = PHYS_SYS_BASE + w->iova,
			.len = w->size, .hmem = w->b.h };
	}
	qsort(r, n, sizeof(*r), by_va);
	ret = hd_vas_sync(&h->d, &ps->v, r, n) ? -EIO : 0;
	h->phys_maps++;
	if (ret) {
		h->phys_map_errors++;
		free(r);
		return ret;
	}
	free(ps->runs);
	ps->runs = r;
	ps->nruns = n;
	ps->stale = false;
	return 0;
}

void vfu_hostd_phys_window_gone(struct vfu_hostd *h)
{
	h->ps.stale = true;
	if (h->ps.made)
		phys_sync(h);
}

/*
 * The physical-space VA of [addr, addr + span) of @t, mapping the FB
 * chunks it needs; false when the instance has no such memory.
 */
static bool phys_va(struct vfu_hostd *h, enum vgsp_mem_target t, u64 addr,
		    u64 span, u64 *va)
{
	struct phys_space *ps = &h->ps;
	unsigned int i;

	if (!span)
		return false;
	if (t == VGSP_MEM_VID) {
		u64 c, last;

		if (addr >= h->fb_b.size || span > h->fb_b.size - addr)
			return false;
		last = (addr + span - 1) / PHYS_CHUNK;
		if (last >= PHYS_CHUNKS_MAX)
			return false;
		for (c = addr / PHYS_CHUNK; c <= last; c++) {
			if (ps->fb_mapped[c / 8] & (1U << (c % 8)))
				continue;
			ps->fb_mapped[c / 8] |= 1U << (c % 8);
			ps->stale = true;
		}
		*va = PHYS_FB_BASE + addr;
		return true;
	}
	if (t != VGSP_MEM_SYS)
		return false;
	for (i = 0; i < h->nwin; i++) {
		const struct win *w = &h->win[i];

		if (addr >= w->iova && addr - w->iova < w->size &&
		    span <= w->size - (addr - w->iova) &&
		    w->iova < PHYS_FB_BASE && w->size <= PHYS_FB_BASE - w->iova &&
		    !((w->iova | w->size) & 0xfff)) {
			*va = PHYS_SYS_BASE + addr;
			return true;
		}
	}
	return false;
}

/* The physical space's copy channel, the space made and mapped first. */
static struct hd_fwd_chan *phys_ce(struct vfu_hostd *h)
{
	struct phys_space *ps = &h->ps;

	if (!ps->made) {
		if (hd_vas_create(&h->d, &ps->v))
			return NULL;
		ps->v.large_hmem = h->fb_b.vid ? h->fb_b.h : 0;
		ps->made = true;
		ps->stale = true;
	}
	if (ps->stale && phys_sync(h))
		return NULL;
	if (ps->ce_open && ps->ce.dead) {
		hd_fwd_chan_close(&h->d, &ps->ce);
		ps->ce_open = false;
	}
	if (!ps->ce_open) {
		if (ce_open(h, &ps->v, &ps->ce))
			return NULL;
		ps->ce_open = true;
	}
	return &ps->ce;
}

/* ---- one piece of a transfer ---------------------------------------- */

/* The bytes a transfer of @lines lines spans from its first: 0 on overflow. */
static u64 span_of(u64 line_bytes, u64 pitch, u32 lines)
{
	u64 s;

	if (lines > 1 && (__builtin_mul_overflow((u64)(lines - 1), pitch, &s) ||
			  __builtin_add_overflow(s, line_bytes, &s)))
		return 0;
	return lines > 1 ? s : line_bytes;
}

/*
 * The next piece of @x as one GPU transfer: what is left of the current
 * line (a line longer than CE_CALL_BYTES, or one the CPU started), or as
 * many whole lines as CE_CALL_BYTES holds (at least one). Only the piece
 * is computed; the progress fields move when the GPU has done it.
 */
static int ce_piece(const struct vgsp_ce_xfer *x, struct hd_copy *cp,
		    u64 *src_span, u64 *dst_span)
{
	u64 src_line = 0, dst_line;
	u32 k;

	if (x->line >= x->lines || x->off >= x->line_bytes ||
	    __builtin_mul_overflow((u64)x->line, x->pitch_out, &dst_line) ||
	    __builtin_add_overflow(dst_line, x->dst.addr, &dst_line))
		return -EINVAL;
	if (!x->fill &&
	    (__builtin_mul_overflow((u64)x->line, x->pitch_in, &src_line) ||
	     __builtin_add_overflow(src_line, x->src.addr, &src_line)))
		return -EINVAL;
	memset(cp, 0, sizeof(*cp));
	cp->lines = 1;
	if (x->off || x->line_bytes > CE_CALL_BYTES) {
		u64 left = x->line_bytes - x->off;

		cp->src = src_line + x->off;
		cp->dst = dst_line + x->off;
		cp->line_bytes = left < CE_CALL_BYTES ? left : CE_CALL_BYTES;
		if ((!x->fill && cp->src < src_line) || cp->dst < dst_line)
			return -EINVAL;
		*src_span = *dst_span = cp->line_bytes;
		return 0;
	}
	k = x->lines - x->line;
	if (k > CE_CALL_BYTES / x->line_bytes)
		k = (u32)(CE_CALL_BYTES / x->line_bytes);
	cp->src = src_line;
	cp->dst = dst_line;
	cp->line_bytes = x->line_bytes;
	cp->lines = k;
	cp->pitch_in = x->pitch_in;
	cp->pitch_out = x->pitch_out;
	*src_span = x->fill ? 1 : span_of(x->line_bytes, x->pitch_in, k);
	*dst_span = span_of(x->line_bytes, x->pitch_out, k);
	return *src_span && *dst_span ? 0 : -EINVAL;
}

/*
 * A fill the CE's remap makes: one constant component of 1, 2 or 4 bytes
 * (the element repeats), whole elements per line and per piece.
 */
static bool fill_elem(const struct vgsp_ce_xfer *x, struct hd_copy *cp)
{
	u32 v = 0, i;

	if (x->elem_size != 1 && x->elem_size != 2 && x->elem_size != 4)
		return false;
	if (x->line_bytes % x->elem_size || x->off % x->elem_size ||
	    x->dst.addr % x->elem_size ||
	    (x->lines > 1 && x->pitch_out % x->elem_size))
		return false;
	for (i = 0; i < x->elem_size; i++)
		v |= (u32)x->elem[i] << (8 * i);
	cp->fill = true;
	cp->elem_size = x->elem_size;
	cp->value = v;
	return true;
}

static int ce_on_cpu(struct vgsp_dev *dev, struct vfu_hostd *h,
		     struct vgsp_ce_xfer *x, enum ce_cpu why, bool locked)
{
	u64 line = x->line, off = x->off;
	int ret;

	if (!locked)
		pthread_mutex_lock(&h->mu);
	h->ce_cpu[why]++;
	pthread_mutex_unlock(&h->mu);
	ret = vgsp_backend_sim.ce_xfer(dev, x);
	pthread_mutex_lock(&h->mu);
	h->ce_cpu_bytes += (x->line - line) * x->line_bytes + x->off - off;
	pthread_mutex_unlock(&h->mu);
	return ret;
}

/*
 * Where the piece runs: the channel, with cp's addresses rewritten to
 * that channel's VA space; or why it cannot (h->mu held).
 */
static struct hd_fwd_chan *place(struct vgsp_dev *dev, struct vfu_hostd *h,
				 const struct vgsp_ce_xfer *x, struct hd_copy *cp,
				 u64 src_span, u64 dst_span, enum ce_cpu *why)
{
	uint64_t gen = vgsp_load64(&dev->mm->pt_gen);
	struct hd_fwd_chan *c;
	struct mirror *m;

	if (!x->dst.virt) {
		u64 d, s = 0;

		if (!phys_va(h, x->dst.target, cp->dst, dst_span, &d) ||
		    (!cp->fill &&
		     !phys_va(h, x->src.target, cp->src, src_span, &s))) {
			*why = CE_CPU_UNMIRRORED;
			return NULL;
		}
		c = phys_ce(h);
		if (!c) {
			*why = h->ps.stale ? CE_CPU_SYNC : CE_CPU_NO_CHANNEL;
			return NULL;
		}
		cp->dst = d;
		cp->src = s;
		return c;
	}
	m = vfu_hostd_mirror_get(h, &x->dst.vm);
	*why = CE_CPU_SYNC;
	if (!m)
		return NULL;
	if (vfu_hostd_mirror_current(h, dev, m, gen))
		goto drop;
	*why = CE_CPU_UNMIRRORED;
	if (!ptm_covers(&m->pm, cp->dst, dst_span, true) ||
	    (!cp->fill && !ptm_covers(&m->pm, cp->src, src_span, false)))
		goto drop;
	*why = CE_CPU_NO_CHANNEL;
	c = mirror_ce(h, m);
	if (c)
		return c;
drop:
	vfu_hostd_mirror_drop_unused(h, m);
	return NULL;
}

int vfu_hostd_ce_xfer(struct vgsp_dev *dev, struct vgsp_ce_xfer *x)
{
	struct vfu_hostd *h = dev->backend_priv;
	u64 src_span, dst_span, t0, dt;
	struct hd_fwd_chan *c;
	struct hd_copy cp;
	enum ce_cpu why;
	uint32_t rc = 0;
	int ret;

	/* Bus Master Enable off: the CPU path's gate refuses guest RAM */
	if (!vgsp_cfg_bus_master(&dev->cfg))
		return ce_on_cpu(dev, h, x, CE_CPU_NO_DMA, false);
	if (!x->fill && x->src.virt != x->dst.virt)
		return ce_on_cpu(dev, h, x, CE_CPU_MIXED, false);
	if (!x->fill && x->src.virt &&
	    (x->src.vm.pdb != x->dst.vm.pdb ||
	     x->src.vm.target != x->dst.vm.target))
		return ce_on_cpu(dev, h, x, CE_CPU_MIXED, false);
	if (ce_piece(x, &cp, &src_span, &dst_span))
		return -EINVAL;
	if (x->fill && !fill_elem(x, &cp))
		return ce_on_cpu(dev, h, x, CE_CPU_FILL, false);
	pthread_mutex_lock(&h->mu);
	c = place(dev, h, x, &cp, src_span, dst_span, &why);
	if (!c)
		return ce_on_cpu(dev, h, x, why, true);
	t0 = vfu_hostd_now_ns();
	ret = hd_fwd_copy(&h->d, c, &cp, LAUNCH_TIMEOUT_NS, &rc);
	dt = vfu_hostd_now_ns() - t0;
	h->last_ce_ns = dt;
	if (dt > h->max_ce_ns)
		h->max_ce_ns = dt;
	if (!ret) {
		u64 moved = cp.line_bytes * cp.lines;

		if (moved >= CE_LARGE_BYTES && !cp.fill &&
		    c->t_done_ns > c->t_submit_ns) {
			h->ce_large_bytes += moved;
			h->ce_large_ns += c->t_done_ns - c->t_submit_ns;
			h->ce_large_n++;
		}
		h->ce_bytes += moved;
		if (cp.fill)
			h->ce_fills++;
		else
			h->ce_copies++;
		if (!x->dst.virt)
			h->ce_phys++;
		if (cp.lines > 1 || x->off + cp.line_bytes == x->line_bytes) {
			x->line += cp.lines;
			x->off = 0;
		} else {
			x->off += cp.line_bytes;
		}
	} else if (ret == -EFAULT) {
		h->ce_faults++;
		h->last_rc = rc;
	} else if (ret != -EINVAL) {
		h->ce_errors++;
	}
	pthread_mutex_unlock(&h->mu);
	/*
	 * The guest kernel writes page tables with physical copies and fills
	 * (UVM): what the GPU wrote in FB is logged as the core's own writes
	 * are, so the mirrors re-walk the tables on those pages.
	 */
	if (!ret && !x->dst.virt && x->dst.target == VGSP_MEM_VID)
		vgsp_fb_engine_wrote(dev, cp.dst - PHYS_FB_BASE, dst_span);
	if (ret == -EINVAL)	/* refused before the GPU saw it */
		return ce_on_cpu(dev, h, x, CE_CPU_UNMIRRORED, false);
	if (ret)
		return ret == -EFAULT ? -EFAULT : -EIO;
	return x->line < x->lines ? -EAGAIN : 0;
}

void vfu_hostd_ce_show(struct vfu_hostd *h, FILE *f)
{
	unsigned int i;

	fprintf(f, "ce_copies %llu ce_fills %llu ce_phys %llu ce_bytes %llu ce_faults %llu ce_errors %llu ce_opens %llu ce_open_errors %llu ce_engine %d ce_us last %llu max %llu\n",
		(unsigned long long)h->ce_copies,
		(unsigned long long)h->ce_fills,
		(unsigned long long)h->ce_phys,
		(unsigned long long)h->ce_bytes,
		(unsigned long long)h->ce_faults,
		(unsigned long long)h->ce_errors,
		(unsigned long long)h->ce_opens,
		(unsigned long long)h->ce_open_errors, h->ce_index,
		(unsigned long long)(h->last_ce_ns / 1000),
		(unsigned long long)(h->max_ce_ns / 1000));
	if (h->ce_pce_known)
		fprintf(f, "ce_pce_mask 0x%x\n", h->ce_pce_mask);
	else if (h->ce_index >= 0)
		fprintf(f, "ce_pce_mask unknown (RM status 0x%x)\n",
			h->ce_pce_status);
	fprintf(f, "ce_large_n %llu ce_large_bytes %llu ce_large_gpu_us %llu ce_large_gbps %.2f\n",
		(unsigned long long)h->ce_large_n,
		(unsigned long long)h->ce_large_bytes,
		(unsigned long long)(h->ce_large_ns / 1000),
		h->ce_large_ns ? (double)h->ce_large_bytes / (double)h->ce_large_ns : 0.0);
	fprintf(f, "ce_cpu_bytes %llu", (unsigned long long)h->ce_cpu_bytes);
	for (i = 0; i < CE_CPU_N; i++)
		fprintf(f, " ce_cpu_%s %llu", ce_cpu_name[i],
			(unsigned long long)h->ce_cpu[i]);
	fprintf(f, "\nphys_space %s runs %zu maps %llu map_errors %llu\n",
		h->ps.made ? "made" : "none", h->ps.nruns,
		(unsigned long long)h->phys_maps,
		(unsigned long long)h->phys_map_errors);
}
