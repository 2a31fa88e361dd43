/* SPDX-License-Identifier: MIT */
/*
 * ring_serve.c - hostd's end of the kernel <-> hostd ring (ring_serve.h).
 */
#include <string.h>

#include "ring_serve.h"
#include "vgsp_backend.h"
#include "../../kernel/core/hostd_ring.h"

#define HR_EPROTO (-71)
/* Where the CPU executor sees the data area and the guest-RAM view (IOVA
 * 0 at HR_VIEW_VA): any VAs, they are regions. */
#define HR_DATA_VA 0x100000000ull
#define HR_VIEW_VA (1ull << 44)

static struct vgsp_hr_ctl *ctl_of(struct hr_server *s)
{
	return (struct vgsp_hr_ctl *)(s->area + VGSP_HR_CTL_OFF);
}

static void on_complete(void *ctx, const struct vgsp_be_completion *c)
{
	struct hr_server *s = ctx;

	s->status = c->status;
	s->done = 1;
}

int hr_server_init(struct hr_server *s, void *area, size_t bytes)
{
	memset(s, 0, sizeof(*s));
	s->area = area;
	const struct vgsp_hr_ctl *c = ctl_of(s);
	if (bytes != VGSP_HR_MAP_BYTES || c->magic != VGSP_HR_MAGIC ||
	    c->version != VGSP_HR_VERSION || c->map_bytes != VGSP_HR_MAP_BYTES ||
	    c->sub_entries != VGSP_HR_SUB_ENTRIES || c->sub_off != VGSP_HR_SUB_OFF ||
	    c->comp_entries != VGSP_HR_COMP_ENTRIES || c->comp_off != VGSP_HR_COMP_OFF ||
	    c->data_off != VGSP_HR_DATA_OFF || c->data_bytes != VGSP_HR_DATA_BYTES ||
	    (c->features & ~VGSP_HR_FEATURES))
		return VGSP_BE_EINVAL;
	s->features = c->features;
	/* a re-attached hostd resumes where the kernel's indices are */
	s->sub_tail = vgsp_hr_load(&c->sub_tail);
	s->comp_head = vgsp_hr_load(&c->comp_head);
	s->comp_tail_seen = vgsp_hr_load(&c->comp_tail);

	struct vgsp_be_config cfg = {
		.abi = VGSP_BACKEND_ABI, .complete = on_complete, .ctx = s,
	};
	int r = vgsp_sim_backend_ops.open(&cfg, &s->be);
	if (r)
		return r;
	struct vgsp_be_mem m = {
		.gpu_va = HR_DATA_VA, .size = VGSP_HR_DATA_BYTES,
		.host = s->area + VGSP_HR_DATA_OFF,
	};
	r = vgsp_sim_backend_ops.map_mem(s->be, &m);
	if (r) {
		vgsp_sim_backend_ops.close(s->be);
		s->be = NULL;
	}
	return r;
}

int hr_server_set_view(struct hr_server *s, void *host, uint64_t iova, uint64_t bytes)
{
	if (!s->be || s->view.host || !host || !bytes || iova > VGSP_HR_VIEW_BYTES ||
	    bytes > VGSP_HR_VIEW_BYTES - iova)
		return VGSP_BE_EINVAL;
	struct vgsp_be_mem m = { .gpu_va = HR_VIEW_VA + iova, .size = bytes, .host = host };
	int r = vgsp_sim_backend_ops.map_mem(s->be, &m);
	if (r)
		return r;
	s->view.host = host;
	s->view.iova = iova;
	s->view.bytes = bytes;
	return 0;
}

void hr_server_fini(struct hr_server *s)
{
	if (s->be)
		vgsp_sim_backend_ops.close(s->be);
	s->be = NULL;
}

/* The IOVA list of one side must describe exactly @nbytes. */
static int ext_ok(const struct hr_server *s, const struct vgsp_hr_ext *e, unsigned n,
		  uint32_t nbytes)
{
	uint64_t sum = 0;

	if (n > VGSP_HR_MAX_EXT)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		if (!e[i].len || e[i].target > VGSP_HR_TARGET_VIEW)
			return 0;
		/* the kernel stages everything for a hostd without a view */
		if (e[i].target == VGSP_HR_TARGET_VIEW &&
		    !(s->features & VGSP_HR_FEAT_GUEST_VIEW))
			return 0;
		sum += e[i].len;
	}
	return sum == nbytes;
}

/* Every VIEW extent inside the view the kernel gave (else EFAULT). */
static int view_ok(struct hr_server *s, const struct vgsp_hr_ext *e, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (e[i].target != VGSP_HR_TARGET_VIEW)
			continue;
		if (!s->view.host || e[i].addr < s->view.iova ||
		    e[i].addr - s->view.iova > s->view.bytes ||
		    e[i].len > s->view.bytes - (e[i].addr - s->view.iova)) {
			s->st.view_refused++;
			return 0;
		}
	}
	return 1;
}

static int in_data(uint32_t off, uint32_t len)
{
	return off <= VGSP_HR_DATA_BYTES && len <= VGSP_HR_DATA_BYTES - off;
}

/* The executor's VA of byte @pos of extent @e staged at data offset @at. */
static uint64_t ext_va(const struct vgsp_hr_ext *e, uint32_t at, uint32_t pos)
{
	return e->target == VGSP_HR_TARGET_VIEW ? HR_VIEW_VA + e->addr : HR_DATA_VA + at + pos;
}

/* Copy the source list to the destination list, one CE copy per piece. */
static int copy_lists(struct hr_server *s, const struct vgsp_hr_sub *w)
{
	const struct vgsp_hr_ce *ce = &w->u.ce;
	const struct vgsp_hr_ext *src = ce->ext, *dst = ce->ext + VGSP_HR_MAX_EXT;
	uint32_t si = 0, di = 0, so = 0, doff = 0, spos = 0, dpos = 0;

	while (spos < ce->nbytes) {
		uint32_t n = src[si].len - so;
		if (dst[di].len - doff < n)
			n = dst[di].len - doff;
		struct vgsp_ce_work cw = { .kind = VGSP_CE_COPY };
		cw.u.copy.src_va = ext_va(&src[si], ce->src_off, spos - so) + so;
		cw.u.copy.dst_va = ext_va(&dst[di], ce->dst_off, dpos - doff) + doff;
		cw.u.copy.len = n;
		s->done = 0;
		int r = vgsp_sim_backend_ops.submit_ce(s->be, &cw, w->cookie);
		if (r)
			return r;
		vgsp_sim_backend_ops.poll(s->be, 1, 0);
		if (!s->done)
			return VGSP_BE_EIO;
		if (s->status)
			return s->status;
		spos += n;
		dpos += n;
		so += n;
		doff += n;
		if (so == src[si].len) {
			si++;
			so = 0;
		}
		if (doff == dst[di].len) {
			di++;
			doff = 0;
		}
	}
	return 0;
}

/* The CPU executor has no fill: the pattern is the element, by byte. */
static void fill_list(struct hr_server *s, const struct vgsp_hr_ce *ce)
{
	const struct vgsp_hr_ext *dst = ce->ext + VGSP_HR_MAX_EXT;
	uint32_t pos = 0;

	for (unsigned i = 0; i < ce->ndst; i++) {
		uint8_t *p = dst[i].target == VGSP_HR_TARGET_VIEW ?
			s->view.host + (dst[i].addr - s->view.iova) :
			s->area + VGSP_HR_DATA_OFF + ce->dst_off + pos;
		for (uint32_t k = 0; k < dst[i].len; k++)
			p[k] = ce->elem[(ce->phase + pos + k) % ce->elem_size];
		pos += dst[i].len;
	}
}

static uint64_t view_len(const struct vgsp_hr_ext *e, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		if (e[i].target == VGSP_HR_TARGET_VIEW)
			v += e[i].len;
	return v;
}

/* Run one item on the CPU executor: 0 or a VGSP_BE_* status. */
static int execute(struct hr_server *s, const struct vgsp_hr_sub *w)
{
	const struct vgsp_hr_ce *ce = &w->u.ce;
	const struct vgsp_hr_ext *dst = ce->ext + VGSP_HR_MAX_EXT;
	int r;

	switch (w->op) {
	case VGSP_HR_OP_CE_COPY:
		if (w->len != sizeof(*ce) || !ce->nbytes || ce->nbytes > VGSP_HR_ITEM_BYTES ||
		    !in_data(ce->src_off, ce->nbytes) || !in_data(ce->dst_off, ce->nbytes) ||
		    !ext_ok(s, ce->ext, ce->nsrc, ce->nbytes) ||
		    !ext_ok(s, dst, ce->ndst, ce->nbytes))
			break;
		if (!view_ok(s, ce->ext, ce->nsrc) || !view_ok(s, dst, ce->ndst))
			return VGSP_BE_EFAULT;
		r = copy_lists(s, w);
		if (!r)
			s->st.view_bytes += view_len(ce->ext, ce->nsrc) + view_len(dst, ce->ndst);
		return r;
	case VGSP_HR_OP_CE_FILL:
		if (w->len != sizeof(*ce) || !ce->nbytes || ce->nbytes > VGSP_HR_ITEM_BYTES ||
		    !in_data(ce->dst_off, ce->nbytes) || !ce->elem_size ||
		    ce->elem_size > sizeof(ce->elem) || ce->phase >= ce->elem_size ||
		    !ext_ok(s, dst, ce->ndst, ce->nbytes))
			break;
		if (!view_ok(s, dst, ce->ndst))
			return VGSP_BE_EFAULT;
		fill_list(s, ce);
		s->st.view_bytes += view_len(dst, ce->ndst);
		return 0;
	case VGSP_HR_OP_GR_LAUNCH:
		if (w->len != sizeof(w->u.gr))
			break;
		/* no CTA to run: done, as on hardware and in-kernel sim */
		if (vgsp_hr_qmd_empty(w->u.gr.qmd)) {
			s->st.launches_empty++;
			return 0;
		}
		/* work needs SMs: the CPU executor refuses it (ENOTSUP) */
		return vgsp_sim_backend_ops.submit_gr(s->be, &(struct vgsp_gr_launch){ 0 },
						      w->cookie);
	default:
		break;
	}
	s->st.bad_item++;
	return VGSP_BE_EINVAL;
}

static void complete(struct hr_server *s, uint64_t cookie, uint32_t op, int status)
{
	struct vgsp_hr_ctl *c = ctl_of(s);
	struct vgsp_hr_comp e = { .cookie = cookie, .status = status, .op = op };

	vgsp_hr_store(&c->sub_tail, ++s->sub_tail);
	memcpy(s->area + VGSP_HR_COMP_OFF +
	       (s->comp_head % VGSP_HR_COMP_ENTRIES) * sizeof(e), &e, sizeof(e));
	vgsp_hr_store(&c->comp_head, ++s->comp_head);
	s->st.completed++;
	if (status)
		s->st.errors++;
}

int hr_server_abort(struct hr_server *s, int status)
{
	if (!s->busy)
		return 0;
	s->busy = 0;
	s->st.view_faults++;
	complete(s, s->cur_cookie, s->cur_op, status);
	return 1;
}

int hr_server_run(struct hr_server *s, unsigned max)
{
	struct vgsp_hr_ctl *c = ctl_of(s);
	unsigned n = 0;

	if (!s->be)
		return HR_EPROTO;
	while (n < max) {
		uint32_t head = vgsp_hr_load(&c->sub_head);
		uint32_t ctail = vgsp_hr_load(&c->comp_tail);
		int avail = vgsp_hr_avail(head, s->sub_tail, VGSP_HR_SUB_ENTRIES);
		int space = vgsp_hr_space(s->comp_head, ctail, s->comp_tail_seen,
					  VGSP_HR_COMP_ENTRIES);
		if (avail < 0 || space < 0) {
			s->st.bad_index++;
			return HR_EPROTO;
		}
		s->comp_tail_seen = ctail;
		if (!avail || !space)
			break;
		struct vgsp_hr_sub w;
		memcpy(&w, s->area + VGSP_HR_SUB_OFF +
		       (s->sub_tail % VGSP_HR_SUB_ENTRIES) * VGSP_HR_SUB_BYTES, sizeof(w));
		s->st.items++;
		/* a fault on the view completes it through hr_server_abort() */
		s->cur_cookie = w.cookie;
		s->cur_op = w.op;
		s->busy = 1;
		int status = execute(s, &w);
		s->busy = 0;
		complete(s, w.cookie, w.op, status);
		n++;
	}
	return (int)n;
}

int hr_server_closed(struct hr_server *s)
{
	return vgsp_hr_load(&ctl_of(s)->magic) != VGSP_HR_MAGIC;
}
