/* SPDX-License-Identifier: MIT */
/* ce_interp.c - copy-class pushbuffer scanner/interpreter (ce_interp.h). */
#include "ce_interp.h"

#include <string.h>

#include "nvrm_abi.h"
#include "pb.h"

int vgsp_regions_add(struct vgsp_regions *t, const struct vgsp_be_mem *m)
{
	if (m->size == 0 || m->gpu_va + m->size < m->gpu_va)
		return VGSP_BE_EINVAL;
	if (t->n >= VGSP_MAX_REGIONS)
		return VGSP_BE_ENOMEM;
	/* overlapping regions would make ownership ambiguous */
	for (unsigned i = 0; i < t->n; i++)
		if (m->gpu_va < t->r[i].gpu_va + t->r[i].size &&
		    t->r[i].gpu_va < m->gpu_va + m->size)
			return VGSP_BE_EINVAL;
	t->r[t->n++] = *m;
	return 0;
}

const struct vgsp_be_mem *vgsp_regions_find(const struct vgsp_regions *t,
					    uint64_t va, uint64_t len, int write)
{
	if (len == 0 || va + len < va)
		return NULL;
	for (unsigned i = 0; i < t->n; i++) {
		const struct vgsp_be_mem *r = &t->r[i];
		if (va >= r->gpu_va && va - r->gpu_va <= r->size &&
		    len <= r->size - (va - r->gpu_va)) {
			if (write && (r->flags & VGSP_BE_MEM_READONLY))
				return NULL;
			return r;
		}
	}
	return NULL;
}

void *vgsp_regions_host(const struct vgsp_regions *t, uint64_t va, uint64_t len, int write)
{
	const struct vgsp_be_mem *r = vgsp_regions_find(t, va, len, write);
	if (!r || !r->host)
		return NULL;
	return (uint8_t *)r->host + (va - r->gpu_va);
}

void ce_interp_init(struct ce_interp *ci, const struct vgsp_regions *regions, int execute)
{
	memset(ci, 0, sizeof(*ci));
	ci->regions = regions;
	ci->execute = execute;
}

static int fail(struct ce_interp *ci, int err, uint32_t mthd)
{
	if (!ci->error) {
		ci->error = err;
		ci->error_mthd = mthd;
	}
	return err;
}

static int check(struct ce_interp *ci, uint64_t va, uint64_t len, int write, uint32_t mthd)
{
	if (!vgsp_regions_find(ci->regions, va, len, write))
		return fail(ci, VGSP_BE_EFAULT, mthd);
	if (ci->execute && !vgsp_regions_host(ci->regions, va, len, write))
		return fail(ci, VGSP_BE_EFAULT, mthd);
	return 0;
}

static int sem_write(struct ce_interp *ci, uint64_t va, uint64_t payload, unsigned bytes,
		     uint32_t mthd)
{
	int r = check(ci, va, bytes, 1, mthd);
	if (r)
		return r;
	if (ci->execute) {
		uint8_t *p = vgsp_regions_host(ci->regions, va, bytes, 1);
		if (bytes == 16) {
			uint32_t w[4] = { (uint32_t)payload, 0, (uint32_t)ci->timestamp_ns,
					  (uint32_t)(ci->timestamp_ns >> 32) };
			memcpy(p, w, 16);
		} else if (bytes == 8) {
			memcpy(p, &payload, 8);
		} else {
			uint32_t v = (uint32_t)payload;
			memcpy(p, &v, 4);
		}
	}
	ci->sem_releases++;
	return 0;
}

static int launch_dma(struct ce_interp *ci, uint32_t v)
{
	const uint32_t m = C8B5_LAUNCH_DMA;
	unsigned xfer = v & 3u, semtype = (v >> 3) & 3u;
	/* refuse what would escape the instance or needs unimplemented paths:
	 * INTERRUPT_TYPE 6:5, physical addressing 13:12, remap 10,
	 * semaphore reduction 19, block-linear layouts (bits 7/8 clear),
	 * 64-bit semaphore payload 27 */
	if (v & ((3u << 5) | C8B5_LD_SRC_PHYSICAL | C8B5_LD_DST_PHYSICAL | (1u << 10) | (1u << 19)))
		return fail(ci, VGSP_BE_EPERM, m);
	if (semtype == 3 || xfer == 3 || (v & (1u << 27)))
		return fail(ci, VGSP_BE_EINVAL, m);

	if (xfer != C8B5_LD_XFER_NONE) {
		if (!(v & C8B5_LD_SRC_PITCH) || !(v & C8B5_LD_DST_PITCH))
			return fail(ci, VGSP_BE_ENOTSUP, m);
		uint64_t src = ((uint64_t)ci->in_hi << 32) | ci->in_lo;
		uint64_t dst = ((uint64_t)ci->out_hi << 32) | ci->out_lo;
		uint64_t lines = (v & C8B5_LD_MULTI_LINE) ? ci->line_cnt : 1;
		uint64_t len = ci->line_len;
		uint64_t pin = lines > 1 ? ci->pitch_in : 0, pout = lines > 1 ? ci->pitch_out : 0;
		uint64_t span_s, span_d, total;
		if (len == 0 || lines == 0)
			return fail(ci, VGSP_BE_EINVAL, m);
		/*
		 * The whole extent of each side is checked once, before any line is
		 * touched: a guest's LINE_COUNT (up to 2^32) with a pitch of 0 must
		 * not turn into 2^32 checks. Both sides must lie in one region each.
		 */
		if (__builtin_mul_overflow(lines - 1, pin, &span_s) ||
		    __builtin_add_overflow(span_s, len, &span_s) ||
		    __builtin_mul_overflow(lines - 1, pout, &span_d) ||
		    __builtin_add_overflow(span_d, len, &span_d) ||
		    __builtin_mul_overflow(lines, len, &total))
			return fail(ci, VGSP_BE_EINVAL, m);
		int r = check(ci, src, span_s, 0, m);
		if (!r)
			r = check(ci, dst, span_d, 1, m);
		if (r)
			return r;
		/* the CPU executes a bounded amount per launch */
		if (ci->execute && (total > CE_INTERP_MAX_EXEC || lines > CE_INTERP_MAX_LINES))
			return fail(ci, VGSP_BE_ENOTSUP, m);
		for (uint64_t l = 0; ci->execute && l < lines; l++)
			memmove(vgsp_regions_host(ci->regions, dst + l * pout, len, 1),
				vgsp_regions_host(ci->regions, src + l * pin, len, 0), len);
		ci->bytes += total;
		ci->copies++;
	}
	if (semtype) {
		uint64_t va = ((uint64_t)(ci->sem_a & 0x1ffffffu) << 32) | ci->sem_b;
		return sem_write(ci, va, ci->sem_payload, semtype == 1 ? 4 : 16, m);
	}
	return 0;
}

static int host_method(struct ce_interp *ci, uint32_t mthd, uint32_t v)
{
	switch (mthd) {
	case C86F_SEM_ADDR_LO: ci->host_sem[0] = v; return 0;
	case C86F_SEM_ADDR_HI: ci->host_sem[1] = v; return 0;
	case C86F_SEM_PAYLOAD_LO: ci->host_sem[2] = v; return 0;
	case C86F_SEM_PAYLOAD_HI: ci->host_sem[3] = v; return 0;
	case C86F_WFI: return 0; /* CPU execution is already in order */
	case C86F_SEM_EXECUTE: {
		uint64_t va = ((uint64_t)(ci->host_sem[1] & 0x1ffffffu) << 32) |
			      (ci->host_sem[0] & ~3u);
		uint64_t payload = ((uint64_t)ci->host_sem[3] << 32) | ci->host_sem[2];
		unsigned bytes = (v & C86F_SEM_EXECUTE_PAYLOAD_64BIT) ? 8 : 4;
		unsigned op = v & 7u;
		if (op == C86F_SEM_EXECUTE_RELEASE)
			return sem_write(ci, va, payload, bytes, mthd);
		if (op == C86F_SEM_EXECUTE_ACQ_GEQ || op == 0) {
			int r = check(ci, va, bytes, 0, mthd);
			if (r || !ci->execute)
				return r;
			uint64_t cur = 0;
			memcpy(&cur, vgsp_regions_host(ci->regions, va, bytes, 0), bytes);
			int ok = op == 0 ? cur == payload : cur >= payload;
			/* a CPU interpreter cannot block: unmet acquire is an error */
			return ok ? 0 : fail(ci, VGSP_BE_EAGAIN, mthd);
		}
		return fail(ci, VGSP_BE_ENOTSUP, mthd);
	}
	default:
		return fail(ci, VGSP_BE_EPERM, mthd);
	}
}

static int on_method(void *ctx, const struct pb_method *pm)
{
	struct ce_interp *ci = ctx;
	uint32_t v = pm->data;

	if (pm->mthd == 0x0000u) { /* SET_OBJECT */
		if ((v & 0xffffu) != HOPPER_DMA_COPY_A)
			return fail(ci, VGSP_BE_EPERM, pm->mthd);
		ci->bound[pm->subch] = v & 0xffffu;
		return 0;
	}
	if (pm->mthd < 0x100u)
		return host_method(ci, pm->mthd, v);
	if (ci->bound[pm->subch] != HOPPER_DMA_COPY_A)
		return fail(ci, VGSP_BE_EPERM, pm->mthd);

	switch (pm->mthd) {
	case C8B5_SET_SEMAPHORE_A: ci->sem_a = v; return 0;
	case C8B5_SET_SEMAPHORE_B: ci->sem_b = v; return 0;
	case C8B5_SET_SEMAPHORE_PAYLOAD: ci->sem_payload = v; return 0;
	case C8B5_SET_SEMAPHORE_PAYLOAD + 4: ci->sem_payload_hi = v; return 0;
	case C8B5_OFFSET_IN_UPPER: ci->in_hi = v & 0x1ffffffu; return 0;
	case C8B5_OFFSET_IN_LOWER: ci->in_lo = v; return 0;
	case C8B5_OFFSET_OUT_UPPER: ci->out_hi = v & 0x1ffffffu; return 0;
	case C8B5_OFFSET_OUT_LOWER: ci->out_lo = v; return 0;
	case C8B5_PITCH_IN: ci->pitch_in = v; return 0;
	case C8B5_PITCH_OUT: ci->pitch_out = v; return 0;
	case C8B5_LINE_LENGTH_IN: ci->line_len = v; return 0;
	case C8B5_LINE_COUNT: ci->line_cnt = v; return 0;
	case C8B5_LAUNCH_DMA: return launch_dma(ci, v);
	default:
		return fail(ci, VGSP_BE_EPERM, pm->mthd);
	}
}

int ce_interp_run(struct ce_interp *ci, const uint32_t *seg, size_t ndwords)
{
	/* every method-level failure goes through fail() and is recorded in
	 * ci->error; a non-zero return without it is a malformed header */
	ci->error = 0;
	ci->error_mthd = 0;
	int r = pb_decode(seg, ndwords, on_method, ci);
	if (r == 0)
		return 0;
	return ci->error ? ci->error : fail(ci, VGSP_BE_EINVAL, 0xffffffffu);
}
