/* SPDX-License-Identifier: MIT */
/*
 * fwd_pb.c - the pushbuffers of a forwarded compute launch and of a
 * forwarded copy, and the GPFIFO control entry for pushbuffers above 2^40
 * (pure; see hostd_fwd.h).
 */
#include "hostd_fwd.h"
#include "pb.h"

/* C86F GP_ENTRY0 PB_EXTENDED_BASE_OPERAND 24:8, GP_ENTRY1 OPCODE 7:0 */
#define GP_OPCODE_SET_PB_SEGMENT_EXTENDED_BASE 4u

uint64_t hd_gpfifo_ext_base(uint64_t pb_va)
{
	uint32_t d0 = (uint32_t)((pb_va >> 40) & 0x1ffffu) << 8;
	return ((uint64_t)GP_OPCODE_SET_PB_SEGMENT_EXTENDED_BASE << 32) | d0;
}

long hd_fwd_encode_launch(uint32_t *buf, size_t cap, const struct hd_mthd *m, size_t n,
			  uint64_t qmd_va, uint64_t fence_va, uint32_t payload)
{
	struct pb p;
	uint32_t data[256];

	pb_init(&p, buf, cap);
	for (size_t i = 0; i < n;) {
		size_t k = 0;
		/* refuse host methods (SET_OBJECT, semaphores, MEM_OP, ...) and
		 * anything past the method space */
		if (m[i].mthd < 0x100u || m[i].mthd > 0x3ffcu || (m[i].mthd & 3u))
			return -1;
		while (i + k < n && k < 256 &&
		       (k == 0 || m[i + k].mthd == m[i].mthd + 4u * k)) {
			if (m[i + k].mthd > 0x3ffcu)
				return -1;
			data[k] = m[i + k].data;
			k++;
		}
		if (pb_inc(&p, PB_SUBCH_COMPUTE, m[i].mthd, data, (unsigned)k))
			return -1;
		i += k;
	}
	if (pb_compute_launch_v(&p, qmd_va, 0) || pb_host_sem_release(&p, fence_va, payload) ||
	    p.overflow)
		return -1;
	return (long)p.len;
}

/* SET_REMAP_COMPONENTS: DST_X = CONST_A (4), COMPONENT_SIZE 17:16 (size - 1),
 * NUM_DST_COMPONENTS 25:24 = 0 (one); LAUNCH_DMA REMAP_ENABLE 10:10 */
#define REMAP_CONST_A_1COMP(size) (4u | (((uint32_t)(size) - 1u) << 16))
#define C8B5_SET_REMAP_CONST_A 0x0700u
#define C8B5_LD_REMAP (1u << 10)

long hd_fwd_encode_copy(uint32_t *buf, size_t cap, const struct hd_copy *c,
			uint64_t fence_va, uint32_t payload)
{
	uint32_t ld = (c->pipelined ? C8B5_LD_XFER_PIPELINED : C8B5_LD_XFER_NON_PIPELINED) |
		      C8B5_LD_FLUSH_ENABLE |
		      C8B5_LD_SRC_PITCH | C8B5_LD_DST_PITCH |
		      C8B5_LD_SEM_RELEASE_ONE_WORD;
	uint32_t off[4] = { (uint32_t)(c->src >> 32), (uint32_t)c->src,
			    (uint32_t)(c->dst >> 32), (uint32_t)c->dst };
	uint32_t sem[3] = { (uint32_t)(fence_va >> 32), (uint32_t)fence_va,
			    payload };
	uint64_t len = c->line_bytes;
	struct pb p;

	if (c->fill) {
		if ((c->elem_size != 1 && c->elem_size != 2 && c->elem_size != 4) ||
		    c->line_bytes % c->elem_size || c->dst % c->elem_size)
			return -1;
		len = c->line_bytes / c->elem_size;	/* in elements */
	}
	/* the methods are 32 bits wide; the VAs 57 */
	if (!len || len > UINT32_MAX || !c->lines ||
	    (c->lines > 1 && (c->pitch_in > UINT32_MAX ||
			      c->pitch_out > UINT32_MAX)) ||
	    (c->dst >> 57) || (!c->fill && (c->src >> 57)))
		return -1;
	pb_init(&p, buf, cap);
	if (c->fill) {
		uint32_t remap[3] = { c->value, 0,
				      REMAP_CONST_A_1COMP(c->elem_size) };

		pb_inc(&p, PB_SUBCH_COPY, C8B5_OFFSET_OUT_UPPER, off + 2, 2);
		pb_inc(&p, PB_SUBCH_COPY, C8B5_SET_REMAP_CONST_A, remap, 3);
		ld |= C8B5_LD_REMAP;
	} else {
		pb_inc(&p, PB_SUBCH_COPY, C8B5_OFFSET_IN_UPPER, off, 4);
	}
	if (c->lines > 1) {
		uint32_t geo[4] = { (uint32_t)c->pitch_in, (uint32_t)c->pitch_out,
				    (uint32_t)len, c->lines };

		pb_inc(&p, PB_SUBCH_COPY, C8B5_PITCH_IN, geo, 4);
		ld |= C8B5_LD_MULTI_LINE;
	} else {
		pb_mthd2(&p, PB_SUBCH_COPY, C8B5_LINE_LENGTH_IN, (uint32_t)len, 1);
	}
	pb_inc(&p, PB_SUBCH_COPY, C8B5_SET_SEMAPHORE_A, sem, 3);
	pb_mthd1(&p, PB_SUBCH_COPY, C8B5_LAUNCH_DMA, ld);
	return p.overflow ? -1 : (long)p.len;
}
