// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Video memory as far as CPU-RM reaches it before any engine runs:
 *
 *  - the FB itself: a sparse store of the profile's FB size (64 KiB chunks
 *    on first write, never-written memory reads 0, at most
 *    VGSP_APERTURE_CAP bytes of backing per instance);
 *  - the BAR0 window (NV_PRAMIN, BAR0 0x700000..0x7fffff), 1 MiB of FB
 *    at NV_XAL_EP_BAR0_WINDOW.BASE << 16;
 *  - BAR2 (PCI BAR 3) once GSP-RM "owns" its page directory: CPU-RM builds
 *    BAR2 page tables in FB, reads entry 0 of its root and hands it over
 *    in UPDATE_BAR_PDE (kbusCommitBar2PDEs); from then on every BAR2
 *    access is translated by walking the Hopper (MMU ver3) page tables
 *    from the PDB GSP-RM reported in static info (bar2PdeBase), as the
 *    real BAR2 does, so kbusVerifyBar2's BAR2-versus-BAR0-window checks
 *    see the same bytes.
 *
 * Untranslatable BAR2 accesses (invalid PDE/PTE, peer aperture, address
 * outside FB) read 0 and drop writes, counted in bar2_faults. Before the
 * hand-over BAR2 stays the flat aperture of the device core.
 * The device lock is held on every path here.
 */
#include "gsp_priv.h"
#include "../aperture.h"

#define NV_PRAMIN_BASE			0x700000
#define NV_PRAMIN_SIZE			0x100000
#define NV_XAL_EP_BAR0_WINDOW		0x10fd40
#define BAR0_WINDOW_BASE_MASK		0x3fffff	/* 21:0 */
#define BAR0_WINDOW_SHIFT		16

/* MMU ver3 (GH100): PD4 56, PD3 55:47, PD2 46:38, PD1 37:29, PD0 28:21 */
#define MMU_PDE_SIZE			8
#define MMU_DUAL_PDE_SIZE		16
#define MMU_PTE_SIZE			8
#define MMU_IS_PTE			0x1ULL
#define MMU_APERTURE(e)			(((e) >> 1) & 0x3)
#define MMU_ADDR_MASK			0x000ffffffffff000ULL	/* 51:12 */
#define MMU_BIG_ADDR_MASK		0x000fffffffffff00ULL	/* 51:8 */
#define PDE_APERTURE_INVALID		0
#define PDE_APERTURE_VIDMEM		1
#define PTE_APERTURE_VIDMEM		0
#define PTE_APERTURE_PEER		1
#define PAGE_4K_SHIFT			12
#define PAGE_64K_SHIFT			16

struct mmu_level {
	u8 hi, lo;
};

static const struct mmu_level mmu_pd[] = {
	{ 56, 56 }, { 55, 47 }, { 46, 38 }, { 37, 29 },
};

#define MMU_PD0_HI			28
#define MMU_PD0_LO			21

static u64 va_index(u64 va, unsigned int hi, unsigned int lo)
{
	return (va >> lo) & ((1ULL << (hi - lo + 1)) - 1);
}

static bool fb_ok(const struct vgsp_gsp *gsp, u64 pa, u32 len)
{
	return gsp->fb && pa < gsp->fb->size && len <= gsp->fb->size - pa;
}

int vgsp_fb_read(struct vgsp_gsp *gsp, u64 pa, void *buf, u32 len)
{
	if (!fb_ok(gsp, pa, len))
		return -EINVAL;
	vgsp_aperture_read(gsp->fb, pa, buf, len);
	return 0;
}

int vgsp_fb_write(struct vgsp_gsp *gsp, u64 pa, const void *buf, u32 len)
{
	if (!fb_ok(gsp, pa, len))
		return -EINVAL;
	return vgsp_aperture_write(gsp->fb, pa, buf, len);
}

/* A page-table entry from video or system memory. */
static int mem_read64(struct vgsp_gsp *gsp, bool vid, u64 pa, u64 *v)
{
	u8 b[8];
	int ret;

	ret = vid ? vgsp_fb_read(gsp, pa, b, 8) :
		    vgsp_dev_dma_read(gsp->dev, pa, b, 8);
	*v = vgsp_get64(b, 0);
	return ret;
}

/*
 * Translate BAR2 virtual address @va. On success *pa is the target, *vid
 * says video (true) or system memory, and *page the page size (so a
 * caller can split accesses at page ends).
 */
static int bar2_translate(struct vgsp_gsp *gsp, u64 va, u64 *pa, bool *vid,
			  u64 *page)
{
	u64 table = gsp->bar2_pdb, e, lo, hi, off;
	bool tvid = true;
	unsigned int i, ap;

	for (i = 0; i < VGSP_ARRAY_SIZE(mmu_pd); i++) {
		off = va_index(va, mmu_pd[i].hi, mmu_pd[i].lo) * MMU_PDE_SIZE;
		if (mem_read64(gsp, tvid, table + off, &e))
			return -EFAULT;
		if (e & MMU_IS_PTE) {
			*page = 1ULL << mmu_pd[i].lo;
			goto leaf;
		}
		ap = MMU_APERTURE(e);
		if (ap == PDE_APERTURE_INVALID)
			return -EFAULT;
		tvid = ap == PDE_APERTURE_VIDMEM;
		table = e & MMU_ADDR_MASK;
	}
	/* PD0: dual entry, big (64 KiB) table in the low half, small in the high */
	off = va_index(va, MMU_PD0_HI, MMU_PD0_LO) * MMU_DUAL_PDE_SIZE;
	if (mem_read64(gsp, tvid, table + off, &lo) ||
	    mem_read64(gsp, tvid, table + off + 8, &hi))
		return -EFAULT;
	if (lo & MMU_IS_PTE) {
		e = lo;
		*page = 1ULL << MMU_PD0_LO;
		goto leaf;
	}
	if (MMU_APERTURE(hi) != PDE_APERTURE_INVALID) {
		off = va_index(va, MMU_PD0_LO - 1, PAGE_4K_SHIFT) * MMU_PTE_SIZE;
		if (!mem_read64(gsp, MMU_APERTURE(hi) == PDE_APERTURE_VIDMEM,
				(hi & MMU_ADDR_MASK) + off, &e) &&
		    (e & 1)) {
			*page = 1ULL << PAGE_4K_SHIFT;
			goto leaf;
		}
	}
	if (MMU_APERTURE(lo) != PDE_APERTURE_INVALID) {
		off = va_index(va, MMU_PD0_LO - 1, PAGE_64K_SHIFT) * MMU_PTE_SIZE;
		if (!mem_read64(gsp, MMU_APERTURE(lo) == PDE_APERTURE_VIDMEM,
				(lo & MMU_BIG_ADDR_MASK) + off, &e) &&
		    (e & 1)) {
			*page = 1ULL << PAGE_64K_SHIFT;
			goto leaf;
		}
	}
	return -EFAULT;
leaf:
	/* PTE: valid 0, aperture 2:1 (0 vidmem, 1 peer, 2/3 sysmem) */
	if (!(e & 1) || MMU_APERTURE(e) == PTE_APERTURE_PEER)
		return -EFAULT;
	*vid = MMU_APERTURE(e) == PTE_APERTURE_VIDMEM;
	*pa = (e & MMU_ADDR_MASK) + (va & (*page - 1));
	return 0;
}

int vgsp_gsp_bar2_access(struct vgsp_dev *dev, u64 va, void *buf, u32 len,
			 bool write)
{
	struct vgsp_gsp *gsp = dev->gsp;
	u8 *p = buf;

	if (!gsp || !gsp->bar2_active)
		return -ENOENT;
	while (len) {
		u64 pa, page;
		bool vid;
		u32 n;
		int ret;

		if (bar2_translate(gsp, va, &pa, &vid, &page)) {
			gsp->st.e.bar2_faults++;
			if (!write)
				memset(p, 0, len);
			return 0;
		}
		n = page - (va & (page - 1)) < len ?
		    (u32)(page - (va & (page - 1))) : len;
		if (vid)
			ret = write ? vgsp_fb_write(gsp, pa, p, n) :
				      vgsp_fb_read(gsp, pa, p, n);
		else
			ret = write ? vgsp_dev_dma_write(dev, pa, p, n) :
				      vgsp_dev_dma_read(dev, pa, p, n);
		if (ret) {
			gsp->st.e.bar2_faults++;
			if (!write)
				memset(p, 0, n);
		}
		va += n;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * UPDATE_BAR_PDE for BAR2: entry 0 of the root (PD4) of GSP-RM's BAR2
 * directory becomes CPU-RM's, and BAR2 starts translating.
 */
int vgsp_gsp_bar2_set_root(struct vgsp_gsp *gsp, u64 entry)
{
	u8 b[8];

	vgsp_put64(b, 0, entry);
	if (vgsp_fb_write(gsp, gsp->bar2_pdb, b, sizeof(b)))
		return -EINVAL;
	gsp->bar2_active = entry != 0;
	return 0;
}

/*
 * BAR0 0x700000..0x7fffff: the device core hands accesses in this range
 * here (no register slots: 1 MiB of window would cost 256 Ki of them).
 */
int vgsp_gsp_bar0_window(struct vgsp_dev *dev, u32 off, void *buf, u32 len,
			 bool write)
{
	struct vgsp_gsp *gsp = dev->gsp;
	u64 pa;
	int ret;

	if (!gsp || off < NV_PRAMIN_BASE || off - NV_PRAMIN_BASE >= NV_PRAMIN_SIZE)
		return -ENOENT;
	if (len > NV_PRAMIN_SIZE - (off - NV_PRAMIN_BASE))
		return -EINVAL;
	pa = ((u64)(vgsp_gsp_reg(gsp, NV_XAL_EP_BAR0_WINDOW) &
		    BAR0_WINDOW_BASE_MASK) << BAR0_WINDOW_SHIFT) +
	     (off - NV_PRAMIN_BASE);
	ret = write ? vgsp_fb_write(gsp, pa, buf, len) :
		      vgsp_fb_read(gsp, pa, buf, len);
	if (ret) {
		gsp->st.e.bar2_faults++;
		if (!write)
			memset(buf, 0, len);
	}
	return 0;
}

const struct vgsp_reg vgsp_fbmem_regs[VGSP_FBMEM_NREGS] = {
	{ .name = "XAL_EP_BAR0_WINDOW", .offset = NV_XAL_EP_BAR0_WINDOW,
	  .ro_mask = ~BAR0_WINDOW_BASE_MASK },
};

int vgsp_fbmem_create(struct vgsp_gsp *gsp)
{
	gsp->fb = vgsp_aperture_new(gsp->dev->profile->fb_size);
	return gsp->fb ? 0 : -ENOMEM;
}

void vgsp_fbmem_destroy(struct vgsp_gsp *gsp)
{
	vgsp_aperture_free(gsp->fb);
	gsp->fb = NULL;
}

/* Device reset: the FB reads zeroes again, BAR2 is flat. */
void vgsp_fbmem_reset(struct vgsp_gsp *gsp)
{
	if (gsp->fb)
		vgsp_aperture_clear(gsp->fb);
	gsp->bar2_active = false;
}
