// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The compute state a forwarded launch replays (backend_hostd.h): the
 * state methods the guest's channels of one address space wrote since the
 * host channel's last launch, in the order the writes happened, gathered
 * from the core's per-channel records (engine/gr.c, backend->gr_state).
 */
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "backend.h"
#include "fifo/fifo.h"
#include "hostd_fwd.h"
#include "backend_hostd.h"
#include "backend_hostd_priv.h"

struct stamped {
	u64 stamp;
	struct hd_mthd m;
};

static int by_stamp(const void *a, const void *b)
{
	u64 x = ((const struct stamped *)a)->stamp;
	u64 y = ((const struct stamped *)b)->stamp;

	return x < y ? -1 : x > y;
}

/* The replay being gathered: one entry per method, its latest write. */
struct replay {
	struct stamped t[VGSP_GR_REC_MTHDS];
	struct hd_mthd out[VGSP_GR_REC_MTHDS];	/* t's methods, in order */
	u32 pos[VGSP_GR_REC_MTHDS];	/* index in t, valid when gen matches */
	u32 gen[VGSP_GR_REC_MTHDS];
	u32 cur;			/* this gathering's generation */
	size_t n;
};

static void replay_add(struct replay *rp, const struct vgsp_gr_rec *r, u32 i)
{
	struct stamped *e;

	if (rp->gen[i] == rp->cur) {
		e = &rp->t[rp->pos[i]];
		if (r->stamp[i] > e->stamp)
			*e = (struct stamped){ r->stamp[i],
				{ i << 2, r->val[i] } };
		return;
	}
	rp->gen[i] = rp->cur;
	rp->pos[i] = (u32)rp->n;
	rp->t[rp->n++] = (struct stamped){ r->stamp[i], { i << 2, r->val[i] } };
}

/*
 * The methods of one channel's record written after @since: newest first
 * through its log of recent writes while the log reaches back that far
 * (a launch usually follows a few state writes), else all of them.
 */
static void replay_gather(struct replay *rp, const struct vgsp_gr_rec *r,
			  u64 since)
{
	u64 k, oldest = r->nlog > VGSP_GR_REC_LOG ?
			r->nlog - VGSP_GR_REC_LOG : 0;
	u32 i;

	for (k = r->nlog; k > oldest; k--) {
		const struct vgsp_gr_rec_log *e =
			&r->log[(k - 1) % VGSP_GR_REC_LOG];

		if (e->stamp <= since)
			return;		/* everything older was sent */
		if (e->mthd < VGSP_GR_REC_MTHDS)
			replay_add(rp, r, e->mthd);
	}
	if (!oldest)
		return;			/* the log held every write */
	for (i = 0; i < VGSP_GR_REC_MTHDS; i++)
		if (r->stamp[i] > since)
			replay_add(rp, r, i);
}

/*
 * The compute state the host channel has not seen: for each method, the
 * latest write (by stamp) on any guest channel of the same VA space, if
 * newer than what the host channel got (@since; 0 for a new one), in the
 * order the writes happened. The channels of a CUDA context share one GR
 * context on hardware: state one of them sets holds for all. Fifo lock
 * held (the channel table is stable), h->mu held (h->rp is the scratch,
 * and the list returned lives in it until the next call).
 */
struct hd_mthd *vfu_hostd_replay_list(struct vfu_hostd *h, struct vgsp_dev *dev,
				      const struct vgsp_chan *ch, u64 since,
				      size_t *n)
{
	struct vgsp_fifo *fifo = dev->fifo;
	struct replay *rp = h->rp;
	unsigned int c;
	size_t i;

	*n = 0;
	if (!rp) {
		rp = calloc(1, sizeof(*rp));
		if (!rp)
			return NULL;
		h->rp = rp;
	}
	if (++rp->cur == 0) {		/* generations wrapped: start clean */
		memset(rp->gen, 0, sizeof(rp->gen));
		rp->cur = 1;
	}
	rp->n = 0;
	for (c = 0; c < VGSP_FIFO_MAX_CHANNELS; c++) {
		const struct vgsp_chan *y = &fifo->chan[c];

		if (!y->used || !y->gr_rec || !y->vm_ok ||
		    y->vm.pdb != ch->vm.pdb || y->vm.target != ch->vm.target)
			continue;
		replay_gather(rp, y->gr_rec, since);
	}
	qsort(rp->t, rp->n, sizeof(*rp->t), by_stamp);
	for (i = 0; i < rp->n; i++)
		rp->out[i] = rp->t[i].m;
	*n = rp->n;
	return rp->out;
}
