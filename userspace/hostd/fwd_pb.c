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

long hd_fwd_encode_copy(uint32_t *buf, size_t cap, const struct hd_copy *c,
			uint64_t fence_va, uint32_t payload)
{
	uint32_t ld = C8B5_LD_XFER_NON_PIPELINED | C8B5_LD_FLUSH_ENABLE |
		      C8B5_LD_SRC_PITCH | C8B5_LD_DST_PITCH |
		      C8B5_LD_SEM_RELEASE_ONE_WORD;
	uint32_t off[4] = { (uint32_t)(c->src >> 32), (uint32_t)c->src,
			    (uint32_t)(c->dst >> 32), (uint32_t)c->dst };
	uint32_t sem[3] = { (uint32_t)(fence_va >> 32), (uint32_t)fence_va,
			    payload };
	struct pb p;

	/* the methods are 32 bits wide; the VAs 57 */
	if (!c->line_bytes || c->line_bytes > UINT32_MAX || !c->lines ||
	    (c->lines > 1 && (c->pitch_in > UINT32_MAX ||
			      c->pitch_out > UINT32_MAX)) ||
	    (c->src | c->dst) >> 57)
		return -1;
	pb_init(&p, buf, cap);
	pb_inc(&p, PB_SUBCH_COPY, C8B5_OFFSET_IN_UPPER, off, 4);
	if (c->lines > 1) {
		uint32_t geo[4] = { (uint32_t)c->pitch_in, (uint32_t)c->pitch_out,
				    (uint32_t)c->line_bytes, c->lines };

		pb_inc(&p, PB_SUBCH_COPY, C8B5_PITCH_IN, geo, 4);
		ld |= C8B5_LD_MULTI_LINE;
	} else {
		pb_mthd2(&p, PB_SUBCH_COPY, C8B5_LINE_LENGTH_IN,
			 (uint32_t)c->line_bytes, 1);
	}
	pb_inc(&p, PB_SUBCH_COPY, C8B5_SET_SEMAPHORE_A, sem, 3);
	pb_mthd1(&p, PB_SUBCH_COPY, C8B5_LAUNCH_DMA, ld);
	return p.overflow ? -1 : (long)p.len;
}
