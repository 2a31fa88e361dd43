// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The shared queue region (§C.6) through the guest's own page table.
 * OpenRM allocates the region page by page, so byte offset X lives at
 * PTE[X / 4K] + X % 4K. The table itself is the first pages of the region:
 * entry i sits at region offset 8*i, i.e. in page (8*i)/4K, whose address
 * is entry (8*i)/4K (< i), and page 0 is the address from the boot args.
 * Each page is walked once and its translation kept until the queues are
 * linked again (link and a GSP reset clear it): GSP-RM, too, maps the
 * region once at boot, and a table the guest rewrites afterwards does not
 * move it. Under TCG the two table reads per RPC this saves were a third
 * of a small RPC. What is kept is a guest bus address (IOVA), never a host
 * pointer: every access still goes through the frontend, which checks the
 * mapping, so an unmapped page fails (counted) as it did. Accesses go
 * through the frontend's "hot" path, which may keep these few pages pinned
 * (the pages themselves, not copies).
 */
#include "gsp_priv.h"

#define PTE_SIZE	8
/* Pages of table needed for VGSP_SHM_MAX_PAGES entries: depth is 2. */
#define WALK_DEPTH	4

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
	ret = vgsp_dev_dma_hot(gsp->dev, table + byte % VGSP_PAGE_SIZE, raw,
			       sizeof(raw), false);
	if (ret)
		return ret;
	*pa = vgsp_get64(raw, 0);
	if (*pa & (VGSP_PAGE_SIZE - 1))
		return -EFAULT;		/* entries are 4 KiB page addresses */
	return 0;
}

/* The address of region page @page: walked, and then kept. */
int vgsp_shm_xlat(struct vgsp_gsp *gsp, u32 page, u64 *pa)
{
	struct vgsp_msgq *q = &gsp->q;
	u32 i = page % VGSP_SHM_XLAT;
	int ret;

	ret = pte_get(gsp, page, pa, 0);
	if (!ret) {
		q->xl_tag[i] = page + 1;
		q->xl_pa[i] = *pa;
	}
	return ret;
}

/*
 * Bytes [@off, @off + @len) of the region (vgsp_shm_read/write), page by
 * page; the usual access is one page whose translation is kept.
 */
int vgsp_shm_xfer(struct vgsp_gsp *gsp, u64 off, void *buf, u32 len,
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
		ret = vgsp_shm_page(gsp, (u32)(off / VGSP_PAGE_SIZE), &pa);
		if (!ret)
			ret = vgsp_dev_dma_hot(gsp->dev, pa + in_page, p, chunk,
					       write);
		if (ret)
			return ret;
		p += chunk;
		off += chunk;
		len -= chunk;
	}
	return 0;
}
