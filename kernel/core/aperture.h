/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Sparse memory (the FB store, the flat BAR1/BAR3 apertures): 64 KiB
 * chunks allocated on the first write of a non-zero byte; untouched chunks
 * read as zero, so writing or filling zeros (the driver scrubbing its FB)
 * costs no host memory. A per-aperture cap bounds what one guest can make
 * the host allocate; a write that would pass it fails.
 */
#ifndef VGSP_APERTURE_H
#define VGSP_APERTURE_H

#include "vgsp_types.h"

#define VGSP_APERTURE_CHUNK	(64 * 1024)
#define VGSP_APERTURE_CAP	(64ULL << 20)	/* bytes of backing per BAR */

struct vgsp_aperture {
	u64 size;
	/*
	 * Flat mode: one block of memory the frontend owns (a physical
	 * backend registers it with the GPU, which reads and writes it
	 * behind the core's back), so every access goes to it and nothing
	 * is sparse or released.
	 */
	u8 *flat;
	u64 cap;		/* most bytes of backing */
	u64 backed;		/* bytes allocated so far */
	u32 nchunks;
	u8 **chunks;
	/*
	 * 4 KiB pages lent by the frontend (memory a guest maps, see
	 * mm/bar_share.h), per chunk; NULL until the first loan. A lent
	 * page is read and written there, never freed or released here.
	 */
	struct vgsp_ap_loans **loans;
	/*
	 * Chunks a frontend maps into the guest (BAR1 mapped, mm/bar1_map.h),
	 * one bit each; NULL until the first pin. A pinned chunk is never
	 * freed or moved: zero fills and clears write zeros into it instead.
	 */
	u64 *pinned;
};

#define VGSP_APERTURE_PAGE	4096
#define VGSP_APERTURE_PAGES	(VGSP_APERTURE_CHUNK / VGSP_APERTURE_PAGE)

struct vgsp_ap_loans {
	u8 *page[VGSP_APERTURE_PAGES];
	u32 n;
};

/* @cap: most bytes of backing (VGSP_APERTURE_CAP for the BARs). */
struct vgsp_aperture *vgsp_aperture_new(u64 size, u64 cap);
/* Flat: @size bytes at @base, zeroed by the caller; never freed here. */
struct vgsp_aperture *vgsp_aperture_new_flat(u64 size, void *base);
void vgsp_aperture_free(struct vgsp_aperture *ap);
/* Drop all backing (reset: the next tenant reads zeroes). */
void vgsp_aperture_clear(struct vgsp_aperture *ap);

/* Caller has checked off/len against ap->size. 0 or -ENOMEM. */
void vgsp_aperture_read(const struct vgsp_aperture *ap, u64 off, void *buf,
			u32 len);
int vgsp_aperture_write(struct vgsp_aperture *ap, u64 off, const void *buf,
			u32 len);
/*
 * Set @len bytes at @off to the 32-bit little-endian @pattern repeated
 * from @off (caller checked bounds, @off and @len multiples of 4 unless
 * @pattern is a repeated byte). Zero fills release whole chunks.
 */
int vgsp_aperture_fill(struct vgsp_aperture *ap, u64 off, u32 pattern,
		       u64 len);

/*
 * Page @pfn (offset / 4 KiB) becomes @mem, 4 KiB the caller owns: its
 * bytes are copied there first. Sparse apertures only: -EINVAL (flat,
 * out of range, already lent), -ENOMEM.
 */
int vgsp_aperture_lend(struct vgsp_aperture *ap, u32 pfn, u8 *mem);
/*
 * The loan of page @pfn ends: its bytes are copied back into the chunk's
 * own backing. -ENOMEM (past the cap): they are lost, reads give zeros.
 */
int vgsp_aperture_reclaim(struct vgsp_aperture *ap, u32 pfn);
/* The loan of page @pfn ends and its bytes are dropped (reset). */
void vgsp_aperture_forget(struct vgsp_aperture *ap, u32 pfn);

/*
 * The host memory of the 4 KiB page at @off (caller checked it against
 * the size): a lent page, or its chunk's, allocated if needed and pinned
 * until vgsp_aperture_unpin_all(). NULL past the cap or out of memory.
 */
void *vgsp_aperture_pin_page(struct vgsp_aperture *ap, u64 off);
/* Every pin ends (the frontend unmapped them all); zero chunks go. */
void vgsp_aperture_unpin_all(struct vgsp_aperture *ap);

#endif /* VGSP_APERTURE_H */
