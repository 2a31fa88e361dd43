// SPDX-License-Identifier: MIT
/*
 * libFuzzer target over hostd's pure decoders, the parts that need no GPU:
 * the pushbuffer method decoder (pb.c: pb_decode), the copy-engine
 * interpreter that validates and executes a segment against registered
 * regions (ce_interp.c, in execute mode over host buffers), the cubin
 * (ELF) kernel lookup (cubin.c) and the QMD field accessors and encoders
 * (qmd.c). The first byte selects the decoder; the rest is its input:
 *   0 PB     the segment (dwords)
 *   1 CE     nreg8, per region va_page16 pages8 ro8; then the segment
 *   2 CUBIN  namelen8 name; then the ELF image (own exact allocation)
 *   3 QMD    struct qmd_launch fields; then qmd_get/qmd_set (hi8 lo8)
 *            pairs over the encoded QMD
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pb.h"
#include "qmd.h"
#include "ce_interp.h"
#include "cubin.h"

#define REGION_PAGE	0x1000u
#define REGION_MAX	(16u * REGION_PAGE)

static uint64_t rd(const uint8_t **p, size_t *n, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes && *n; i++) {
		v |= (uint64_t)**p << (8 * i);
		(*p)++;
		(*n)--;
	}
	return v;
}

/* The dwords of @p in their own exact-size allocation. */
static uint32_t *segment(const uint8_t *p, size_t n, size_t *ndw)
{
	uint32_t *seg;

	*ndw = n / 4;
	seg = malloc(*ndw ? *ndw * 4 : 4);
	if (!seg)
		abort();
	memcpy(seg, p, *ndw * 4);
	return seg;
}

static int count_method(void *ctx, const struct pb_method *m)
{
	unsigned *n = ctx;

	if (m->subch > 7 || m->mthd > 0x7ffc)
		abort();	/* the decoder handed out an impossible method */
	return ++*n > 100000 ? -1 : 0;
}

static void fuzz_pb(const uint8_t *p, size_t n)
{
	size_t ndw;
	uint32_t *seg = segment(p, n, &ndw);
	unsigned count = 0;

	pb_decode(seg, ndw, count_method, &count);
	free(seg);
}

static void fuzz_ce(const uint8_t *p, size_t n)
{
	static uint8_t *bufs[8];
	struct vgsp_regions regs = { .n = 0 };
	struct ce_interp ci;
	unsigned nreg = (unsigned)rd(&p, &n, 1) % 9;
	uint32_t *seg;
	size_t ndw;

	for (unsigned i = 0; i < nreg; i++) {
		struct vgsp_be_mem m = { 0 };
		uint64_t va = rd(&p, &n, 2) * (uint64_t)REGION_PAGE;
		unsigned pages = (unsigned)rd(&p, &n, 1) % 16 + 1;
		unsigned fl = (unsigned)rd(&p, &n, 1);

		free(bufs[i]);
		bufs[i] = calloc(pages, REGION_PAGE);
		if (!bufs[i])
			abort();
		m.gpu_va = fl & 0x80 ? va | (uint64_t)fl << 56 : va;
		m.size = (uint64_t)pages * REGION_PAGE;
		m.host = bufs[i];
		m.flags = fl & 1 ? VGSP_BE_MEM_READONLY : 0;
		vgsp_regions_add(&regs, &m);
	}
	seg = segment(p, n, &ndw);
	/* F1 (a huge LINE_COUNT) is fixed in ce_interp.c: no input is held back */
	ce_interp_init(&ci, &regs, 0);
	ce_interp_run(&ci, seg, ndw);
	ce_interp_init(&ci, &regs, 1);
	ce_interp_run(&ci, seg, ndw);
	free(seg);
}

static void fuzz_cubin(const uint8_t *p, size_t n)
{
	struct cubin_kernel k;
	char name[33];
	unsigned nl = (unsigned)rd(&p, &n, 1);
	uint8_t *img;

	if (nl > 32)
		nl = 32;
	if (nl > n)
		nl = (unsigned)n;
	memcpy(name, p, nl);
	name[nl] = 0;
	p += nl;
	n -= nl;
	img = malloc(n ? n : 1);
	if (!img)
		abort();
	memcpy(img, p, n);
	cubin_find_kernel(img, n, nl ? name : NULL, &k);
	free(img);
}

static void fuzz_qmd(const uint8_t *p, size_t n)
{
	uint32_t q3[QMD_V03_DWORDS], q4[QMD_V04_DWORDS];
	struct qmd_launch l;

	l.program_va = rd(&p, &n, 8);
	l.program_bytes = (uint32_t)rd(&p, &n, 4);
	for (unsigned i = 0; i < 3; i++)
		l.grid[i] = (uint32_t)rd(&p, &n, 4);
	for (unsigned i = 0; i < 3; i++)
		l.block[i] = (uint16_t)rd(&p, &n, 2);
	l.regs = (uint32_t)rd(&p, &n, 4);
	l.shared_bytes = (uint32_t)rd(&p, &n, 4);
	l.cb0_va = rd(&p, &n, 8);
	l.cb0_bytes = (uint32_t)rd(&p, &n, 4);
	l.release_va = rd(&p, &n, 8);
	l.release_payload = (uint32_t)rd(&p, &n, 4);
	l.sass_version = (uint32_t)rd(&p, &n, 4);
	l.local_bytes = (uint32_t)rd(&p, &n, 4);
	memset(q3, 0, sizeof(q3));
	memset(q4, 0, sizeof(q4));
	qmd_v03_encode(q3, &l);
	qmd_v04_encode(q4, &l);
	while (n >= 2) {
		unsigned hi = (unsigned)rd(&p, &n, 2) % (QMD_V03_DWORDS * 32);
		unsigned lo = hi - (hi % 32) + (unsigned)rd(&p, &n, 1) % 32;

		/* a field is at most one dword wide, lo <= hi */
		if (lo > hi)
			lo = hi;
		qmd_set(q3, hi, lo, qmd_get(q3, hi, lo) ^ (uint32_t)n);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 4) {
	case 0:
		fuzz_pb(data + 1, size - 1);
		break;
	case 1:
		fuzz_ce(data + 1, size - 1);
		break;
	case 2:
		fuzz_cubin(data + 1, size - 1);
		break;
	case 3:
		fuzz_qmd(data + 1, size - 1);
		break;
	}
	return 0;
}
