// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The shared queue region (§C.6) through the guest's own page table.
 * OpenRM allocates the region page by page, so byte offset X lives at
 * PTE[X / 4K] + X % 4K. The table itself is the first pages of the region:
 * entry i sits at region offset 8*i, i.e. in page (8*i)/4K, whose address
 * is entry (8*i)/4K (< i), and page 0 is the address from the boot args.
 * The table is walked again on every access, except within one queue pass
 * (vgsp_shm_pass: one BAR trap or worker pass, under the device lock),
 * which walks each page once; nothing the guest can later change or unmap
 * is kept beyond that. Both go through the frontend's "hot" path, which
 * may keep these few pages pinned (the pages themselves, not copies).
 */
#include "gsp_priv.h"

#define PTE_SIZE	8
/* Pages of table needed for VGSP_SHM_MAX_PAGES entries: depth is 2. */
#define WALK_DEPTH	4
/* Entries read at once by vgsp_shm_pass_span (a queue's slots + header). */
#define XLAT_SPAN	72

static int pte_get(struct vgsp_gsp *gsp, u32 page, u64 *pa, unsigned int depth)
{
	u64 byte = (u64)page * PTE_SIZE, table;
	u32 tpage = (u32)(byte / VGSP_PAGE_SIZE);
	u8 raw[PTE_SIZE];
	int ret;

	if (page == 0) {
		*pa = gsp->q.shm_pa;
		return 0;
	}
	if (page >= gsp->q.npages || depth >= WALK_DEPTH)
		return -EFAULT;
	ret = pte_get(gsp, tpage, &table, depth + 1);
	if (ret)
		return ret;
	ret = vgsp_dev_dma_read_hot(gsp->dev, table + byte % VGSP_PAGE_SIZE,
				    raw, sizeof(raw));
	if (ret)
		return ret;
	*pa = vgsp_get64(raw, 0);
	if (*pa & (VGSP_PAGE_SIZE - 1))
		return -EFAULT;		/* entries are 4 KiB page addresses */
	return 0;
}

void vgsp_shm_pass(struct vgsp_gsp *gsp, bool on)
{
	gsp->q.xl_on = on;
	gsp->q.xl_n = 0;
}

/* A translation for this pass (the table holds VGSP_SHM_XLAT at most). */
static void xl_keep(struct vgsp_msgq *q, u32 page, u64 pa)
{
	if (q->xl_n < VGSP_SHM_XLAT) {
		q->xl_page[q->xl_n] = page;
		q->xl_pa[q->xl_n++] = pa;
	}
}

/*
 * Translate region pages @a and @b for this pass with one read of their
 * entries and those between (a queue's header page and the slot it will
 * touch: one access instead of two). Only while a pass is on, nothing
 * translated yet, both entries in one page of the table, at most
 * XLAT_SPAN apart; otherwise each page is walked when it is used.
 */
void vgsp_shm_pass_span(struct vgsp_gsp *gsp, u32 a, u32 b)
{
	struct vgsp_msgq *q = &gsp->q;
	u8 raw[XLAT_SPAN * PTE_SIZE];
	u64 table, pa_a, pa_b;
	u32 n;

	if (!q->xl_on || q->xl_n + 2 > VGSP_SHM_XLAT || !a || a >= b ||
	    b >= q->npages || b - a >= XLAT_SPAN ||
	    a / (VGSP_PAGE_SIZE / PTE_SIZE) != b / (VGSP_PAGE_SIZE / PTE_SIZE))
		return;
	n = b - a + 1;
	if (pte_get(gsp, a / (VGSP_PAGE_SIZE / PTE_SIZE), &table, 1) ||
	    vgsp_dev_dma_read_hot(gsp->dev, table +
				  (u64)a * PTE_SIZE % VGSP_PAGE_SIZE,
				  raw, n * PTE_SIZE))
		return;
	pa_a = vgsp_get64(raw, 0);
	pa_b = vgsp_get64(raw, (n - 1) * PTE_SIZE);
	/* entries are 4 KiB page addresses; a bad one is walked (and fails) */
	if (!(pa_a & (VGSP_PAGE_SIZE - 1)))
		xl_keep(q, a, pa_a);
	if (!(pa_b & (VGSP_PAGE_SIZE - 1)))
		xl_keep(q, b, pa_b);
}

/* The address of region page @page: walked, or this pass's translation. */
static int xlat(struct vgsp_gsp *gsp, u32 page, u64 *pa)
{
	struct vgsp_msgq *q = &gsp->q;
	unsigned int i;
	int ret;

	if (!q->xl_on)
		return pte_get(gsp, page, pa, 0);
	for (i = 0; i < q->xl_n; i++) {
		if (q->xl_page[i] == page) {
			*pa = q->xl_pa[i];
			return 0;
		}
	}
	ret = pte_get(gsp, page, pa, 0);
	if (!ret)
		xl_keep(q, page, *pa);
	return ret;
}

static int shm_xfer(struct vgsp_gsp *gsp, u64 off, void *buf, u32 len,
		    bool write)
{
	u8 *p = buf;

	if (!gsp->q.npages ||
	    off + len > (u64)gsp->q.npages * VGSP_PAGE_SIZE)
		return -EFAULT;
	while (len) {
		u32 in_page = off % VGSP_PAGE_SIZE;
		u32 chunk = VGSP_PAGE_SIZE - in_page;
		u64 pa;
		int ret;

		if (chunk > len)
			chunk = len;
		ret = xlat(gsp, (u32)(off / VGSP_PAGE_SIZE), &pa);
		if (!ret)
			ret = write ?
			      vgsp_dev_dma_write_hot(gsp->dev, pa + in_page,
						     p, chunk) :
			      vgsp_dev_dma_read_hot(gsp->dev, pa + in_page,
						    p, chunk);
		if (ret)
			return ret;
		p += chunk;
		off += chunk;
		len -= chunk;
	}
	return 0;
}

int vgsp_shm_read(struct vgsp_gsp *gsp, u64 off, void *buf, u32 len)
{
	return shm_xfer(gsp, off, buf, len, false);
}

int vgsp_shm_write(struct vgsp_gsp *gsp, u64 off, const void *buf, u32 len)
{
	return shm_xfer(gsp, off, (void *)buf, len, true);
}
