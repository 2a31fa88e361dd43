/* SPDX-License-Identifier: MIT */
/*
 * sim_backend.c - the CPU backend: copy-engine work and semaphore releases
 * are executed on the CPU over the instance's registered memory; compute
 * (GR) work is refused with VGSP_BE_ENOTSUP and never reported complete.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ce_interp.h"
#include "pb.h"
#include "vgsp_backend.h"

#define SIM_CQ 256u /* completion queue depth */

struct vgsp_backend {
	struct vgsp_be_config cfg;
	struct vgsp_regions regions;
	struct ce_interp ci;
	struct vgsp_be_completion cq[SIM_CQ];
	unsigned cq_head, cq_len;
	uint64_t gr_refused;
	uint64_t now_ns; /* deterministic "timestamp" for four-word releases */
};

static int sim_open(const struct vgsp_be_config *cfg, struct vgsp_backend **out)
{
	if (!cfg || !out || cfg->abi != VGSP_BACKEND_ABI || !cfg->complete)
		return VGSP_BE_EINVAL;
	struct vgsp_backend *b = calloc(1, sizeof(*b));
	if (!b)
		return VGSP_BE_ENOMEM;
	b->cfg = *cfg;
	ce_interp_init(&b->ci, &b->regions, 1);
	*out = b;
	return 0;
}

static void sim_close(struct vgsp_backend *b)
{
	free(b);
}

static int sim_map_mem(struct vgsp_backend *b, const struct vgsp_be_mem *m)
{
	if (!m || !m->host) /* the CPU backend needs a CPU view of every byte */
		return VGSP_BE_EINVAL;
	return vgsp_regions_add(&b->regions, m);
}

static int queue_completion(struct vgsp_backend *b, uint64_t cookie, int status, uint32_t engine)
{
	if (b->cq_len == SIM_CQ)
		return VGSP_BE_EAGAIN;
	struct vgsp_be_completion *c = &b->cq[(b->cq_head + b->cq_len++) % SIM_CQ];
	c->cookie = cookie;
	c->status = status;
	c->engine = engine;
	return 0;
}

static int sim_submit_ce(struct vgsp_backend *b, const struct vgsp_ce_work *w, uint64_t cookie)
{
	if (!w)
		return VGSP_BE_EINVAL;
	if (b->cq_len == SIM_CQ) /* refuse before doing work we could not report */
		return VGSP_BE_EAGAIN;
	b->ci.timestamp_ns = ++b->now_ns;

	int r;
	if (w->kind == VGSP_CE_COPY) {
		/* a descriptor is run through the same interpreter as guest
		 * pushbuffers, so both paths share one set of checks */
		const struct vgsp_ce_copy *c = &w->u.copy;
		uint32_t buf[32];
		struct pb p;
		if (c->len == 0 || c->len > 0xffffffffu || c->flags)
			return VGSP_BE_EINVAL;
		pb_init(&p, buf, 32);
		pb_set_object(&p, PB_SUBCH_COPY, 0xC8B5u);
		pb_ce_copy(&p, c->src_va, c->dst_va, (uint32_t)c->len, c->sem_va, c->sem_payload);
		if (p.overflow)
			return VGSP_BE_EINVAL;
		r = ce_interp_run(&b->ci, buf, p.len);
	} else if (w->kind == VGSP_CE_PUSHBUF) {
		const struct vgsp_pb_seg *s = &w->u.seg;
		uint64_t bytes = (uint64_t)s->ndwords * 4u;
		const uint32_t *seg = vgsp_regions_host(&b->regions, s->va, bytes, 0);
		if (s->ndwords == 0 || s->flags || (s->va & 3u))
			return VGSP_BE_EINVAL;
		if (!seg)
			return VGSP_BE_EFAULT;
		r = ce_interp_run(&b->ci, seg, s->ndwords);
	} else {
		return VGSP_BE_EINVAL;
	}
	/* The work was accepted and has run (possibly partially, like a
	 * channel that faults mid-segment): report its outcome once. */
	return queue_completion(b, cookie, r, VGSP_BE_CAP_CE);
}

static int sim_submit_gr(struct vgsp_backend *b, const struct vgsp_gr_launch *l, uint64_t cookie)
{
	(void)l;
	(void)cookie;
	b->gr_refused++;
	if (b->gr_refused == 1)
		fprintf(stderr, "vgsp sim backend: compute (GR) work is not supported "
				"without a GPU; launch refused (ENOTSUP)\n");
	return VGSP_BE_ENOTSUP;
}

static int sim_poll(struct vgsp_backend *b, unsigned max, uint64_t timeout_ns)
{
	(void)timeout_ns; /* work completes at submit time */
	unsigned n = 0;
	while (n < max && b->cq_len) {
		struct vgsp_be_completion c = b->cq[b->cq_head];
		b->cq_head = (b->cq_head + 1) % SIM_CQ;
		b->cq_len--;
		b->cfg.complete(b->cfg.ctx, &c);
		n++;
	}
	return (int)n;
}

const struct vgsp_backend_ops vgsp_sim_backend_ops = {
	.name = "sim",
	.caps = VGSP_BE_CAP_CE,
	.open = sim_open,
	.close = sim_close,
	.map_mem = sim_map_mem,
	.submit_ce = sim_submit_ce,
	.submit_gr = sim_submit_gr,
	.poll = sim_poll,
};
