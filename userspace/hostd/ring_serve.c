/* SPDX-License-Identifier: MIT */
/*
 * ring_serve.c - hostd's end of the kernel <-> hostd ring (ring_serve.h).
 */
#include <string.h>

#include "ring_serve.h"
#include "vgsp_backend.h"
#include "../../kernel/core/hostd_ring.h"

#define HR_EPROTO (-71)
/* Where the CPU executor sees the data area (any VA: it is a region). */
#define HR_DATA_VA 0x100000000ull

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
	    c->data_off != VGSP_HR_DATA_OFF || c->data_bytes != VGSP_HR_DATA_BYTES)
		return VGSP_BE_EINVAL;
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

void hr_server_fini(struct hr_server *s)
{
	if (s->be)
		vgsp_sim_backend_ops.close(s->be);
	s->be = NULL;
}

/* The IOVA list of one side must describe exactly @nbytes. */
static int ext_ok(const struct vgsp_hr_ext *e, unsigned n, uint32_t nbytes)
{
	uint64_t sum = 0;

	if (n > VGSP_HR_MAX_EXT)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		if (!e[i].len || e[i].target > VGSP_HR_TARGET_SYS)
			return 0;
		sum += e[i].len;
	}
	return sum == nbytes;
}

static int in_data(uint32_t off, uint32_t len)
{
	return off <= VGSP_HR_DATA_BYTES && len <= VGSP_HR_DATA_BYTES - off;
}

/* Run one item on the CPU executor: 0 or a VGSP_BE_* status. */
static int execute(struct hr_server *s, const struct vgsp_hr_sub *w)
{
	const struct vgsp_hr_ce *ce = &w->u.ce;
	uint8_t *data = s->area + VGSP_HR_DATA_OFF;
	int r;

	switch (w->op) {
	case VGSP_HR_OP_CE_COPY:
		if (w->len != sizeof(*ce) || !ce->nbytes || ce->nbytes > VGSP_HR_ITEM_BYTES ||
		    !in_data(ce->src_off, ce->nbytes) || !in_data(ce->dst_off, ce->nbytes) ||
		    !ext_ok(ce->ext, ce->nsrc, ce->nbytes) ||
		    !ext_ok(ce->ext + VGSP_HR_MAX_EXT, ce->ndst, ce->nbytes))
			break;
		struct vgsp_ce_work cw = { .kind = VGSP_CE_COPY };
		cw.u.copy.src_va = HR_DATA_VA + ce->src_off;
		cw.u.copy.dst_va = HR_DATA_VA + ce->dst_off;
		cw.u.copy.len = ce->nbytes;
		s->done = 0;
		r = vgsp_sim_backend_ops.submit_ce(s->be, &cw, w->cookie);
		if (r)
			return r;
		vgsp_sim_backend_ops.poll(s->be, 1, 0);
		return s->done ? s->status : VGSP_BE_EIO;
	case VGSP_HR_OP_CE_FILL:
		if (w->len != sizeof(*ce) || !ce->nbytes || ce->nbytes > VGSP_HR_ITEM_BYTES ||
		    !in_data(ce->dst_off, ce->nbytes) || !ce->elem_size ||
		    ce->elem_size > sizeof(ce->elem) || ce->phase >= ce->elem_size ||
		    !ext_ok(ce->ext + VGSP_HR_MAX_EXT, ce->ndst, ce->nbytes))
			break;
		/* the CPU executor has no fill; the pattern is the element */
		for (uint32_t i = 0; i < ce->nbytes; i++)
			data[ce->dst_off + i] = ce->elem[(ce->phase + i) % ce->elem_size];
		return 0;
	case VGSP_HR_OP_GR_LAUNCH:
		if (w->len != sizeof(w->u.gr))
			break;
		/* the launch descriptor is not decoded here: the CPU executor
		 * refuses compute whatever it is (no SMs) */
		return vgsp_sim_backend_ops.submit_gr(s->be, &(struct vgsp_gr_launch){ 0 },
						      w->cookie);
	default:
		break;
	}
	s->st.bad_item++;
	return VGSP_BE_EINVAL;
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
		int status = execute(s, &w);
		vgsp_hr_store(&c->sub_tail, ++s->sub_tail);

		struct vgsp_hr_comp e = { .cookie = w.cookie, .status = status, .op = w.op };
		memcpy(s->area + VGSP_HR_COMP_OFF +
		       (s->comp_head % VGSP_HR_COMP_ENTRIES) * sizeof(e), &e, sizeof(e));
		vgsp_hr_store(&c->comp_head, ++s->comp_head);
		s->st.completed++;
		if (status)
			s->st.errors++;
		n++;
	}
	return (int)n;
}

int hr_server_closed(struct hr_server *s)
{
	return vgsp_hr_load(&ctl_of(s)->magic) != VGSP_HR_MAGIC;
}
