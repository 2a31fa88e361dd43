/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Device memory of one instance, the way the GPU sees it:
 *
 *  - fb.c:  one sparse FB store of the profile's size (host memory only for
 *           chunks that hold non-zero bytes) and the BAR0 PRAMIN window;
 *  - mmu.c: GMMU ver3 page-table walks from any page directory base, page
 *           tables in video or system memory;
 *  - bar.c: BAR1 and BAR2 as views of FB (and of system memory) through
 *           their page tables once CPU-RM has handed the roots to GSP-RM.
 *
 * Every unit reaches guest memory through these accessors and never keeps
 * a host pointer into it. The device lock is held on every path here.
 */
#ifndef VGSP_MM_H
#define VGSP_MM_H

#include "../device.h"
#include "../regmodel.h"
#include "../wire.h"
#include "bar1_map.h"

/* Where an address points (PTE/PDE aperture, CE target). */
enum vgsp_mem_target {
	VGSP_MEM_VID,		/* the FB store */
	VGSP_MEM_SYS,		/* guest system memory by IOVA */
	VGSP_MEM_PEER,		/* never reachable from a vGPU */
};

#define VGSP_MM_ERR_LIST(X)						\
	X(fb_bad)		/* FB access outside the FB */		\
	X(fb_nomem)		/* FB write refused: backing cap */	\
	X(pramin_faults)	/* PRAMIN window outside FB */		\
	X(bar1_faults)		/* BAR1 access not translatable */	\
	X(bar2_faults)		/* BAR2 access not translatable */	\
	X(bar1_doorbells)	/* doorbell writes through BAR1 */	\
	X(mmu_walks)							\
	X(mmu_faults)		/* walks that found no valid PTE */	\
	X(sys_errors)		/* guest system memory access failed */

struct vgsp_mm_stats {
#define VGSP_MM_FIELD(n) u64 n;
	VGSP_MM_ERR_LIST(VGSP_MM_FIELD)
#undef VGSP_MM_FIELD
};

enum vgsp_bar_view {
	VGSP_VIEW_BAR1,
	VGSP_VIEW_BAR2,
	VGSP_VIEW_COUNT,
};

struct vgsp_pt_track;
struct vgsp_fb_cache;

struct vgsp_mm {
	struct vgsp_aperture *fb;
	/*
	 * The FB store is shared by the BAR-trap path (device lock) and the
	 * fifo worker (fifo lock): every access takes this leaf lock.
	 */
	struct vgsp_lock *fb_lock;
	u64 bar_pdb[VGSP_VIEW_COUNT];	/* GSP-RM's roots in FB (static info) */
	bool bar_active[VGSP_VIEW_COUNT];
	/*
	 * Bumped (atomically) at every guest TLB invalidate, the BAR0
	 * register or a MEM_OP: the points where the guest says its page
	 * tables changed. A backend that mirrors them resyncs when it moved.
	 */
	u64 pt_gen;
	/* page tables a mirroring backend watches (pt_track.c) */
	struct vgsp_pt_track *pt;
	bool fb_untracked;	/* a frontend maps FB into the guest */
	/* copies of FB lines read, for an uncached store (fb_cache.c) */
	struct vgsp_fb_cache *fbc;
	struct vgsp_mm_stats st;
	struct vgsp_bar1_map_stats b1;	/* BAR1 mapped (atomic) */
};

/* One translation: where the page is, how big, and its PTE kind. */
struct vgsp_xlate {
	u64 pa;			/* address of the byte asked for */
	u64 page;		/* page size */
	enum vgsp_mem_target target;
	u8 kind;		/* PTE KIND (0xf: SMSKED_MESSAGE) */
	bool ro;		/* PCF read-only bit */
};

/* An address space: the root of its page directory. */
struct vgsp_vm {
	u64 pdb;
	enum vgsp_mem_target target;	/* where the root is */
	/*
	 * Tables in system memory count as invalid: a walk that must not
	 * reach guest memory (BAR1's page fault runs under the VMM's mm).
	 */
	bool vid_tables;
};

#define VGSP_PTE_KIND_SMSKED_MESSAGE	0xf

int vgsp_mm_create(struct vgsp_dev *dev);
u64 vgsp_fb_backed(struct vgsp_dev *dev);
void vgsp_mm_destroy(struct vgsp_dev *dev);
/* Device reset: FB reads zeroes again, the BAR views are flat. */
void vgsp_mm_reset(struct vgsp_dev *dev);

/* FB by physical address; -EINVAL outside FB, -ENOMEM past the cap. */
int vgsp_fb_read(struct vgsp_dev *dev, u64 pa, void *buf, u32 len);
int vgsp_fb_write(struct vgsp_dev *dev, u64 pa, const void *buf, u32 len);
/* Fill with a repeated 32-bit pattern; zero fills allocate nothing. */
int vgsp_fb_fill(struct vgsp_dev *dev, u64 pa, u32 pattern, u64 len);
/* A backend's engine wrote FB itself: log it for page-table tracking. */
int vgsp_fb_engine_wrote(struct vgsp_dev *dev, u64 pa, u64 len);
/* FB or system memory; faults are counted. */
int vgsp_mem_read(struct vgsp_dev *dev, enum vgsp_mem_target t, u64 pa,
		  void *buf, u32 len);
int vgsp_mem_write(struct vgsp_dev *dev, enum vgsp_mem_target t, u64 pa,
		   const void *buf, u32 len);

/* The guest invalidated its TLBs: page tables may have changed. */
static inline void vgsp_mm_pt_changed(struct vgsp_dev *dev)
{
	vgsp_inc(&dev->mm->pt_gen);
}

/*
 * Every valid leaf mapping of @vm, in VA order, one call per page (the
 * 4 KiB pieces of a 64 KiB page a small table overrides, where both map).
 * @fn returns 0 to go on, anything else stops the walk and is returned.
 * Tables that cannot be read are skipped (counted in mmu_faults). At most
 * @max_tables page tables are read (a guest's tree is bounded): -E2BIG.
 */
typedef int (*vgsp_mmu_leaf_fn)(void *ctx, u64 va, const struct vgsp_xlate *x);
int vgsp_mmu_for_each(struct vgsp_dev *dev, const struct vgsp_vm *vm,
		      u32 max_tables, vgsp_mmu_leaf_fn fn, void *ctx);

/*
 * The same enumeration restricted to the mappings in [@va_lo, @va_end)
 * (both multiples of 2 MiB; a 512 MiB PD1 page that overlaps is reported
 * whole), telling @table about every page table it reads: where it is,
 * its size and the VA range it covers. A backend keeps that index to
 * re-walk only the subtrees whose tables the guest wrote (pt_track.c).
 */
#define VGSP_MMU_VA_END		(1ULL << 57)	/* GMMU ver3: 57-bit VAs */

struct vgsp_mmu_walk {
	u64 va_lo, va_end;
	u32 max_tables;
	vgsp_mmu_leaf_fn leaf;
	int (*table)(void *ctx, enum vgsp_mem_target t, u64 pa, u32 len,
		     u64 va, u64 span);
	void *ctx;
};

int vgsp_mmu_walk_range(struct vgsp_dev *dev, const struct vgsp_vm *vm,
			const struct vgsp_mmu_walk *req);

/*
 * Page-table write tracking (pt_track.c). A backend marks the FB pages
 * that hold the tables it walked; from then on every FB write the core
 * makes (BAR1/BAR2/PRAMIN, engine writes) to such a page is logged with a
 * sequence number. Writes the core cannot see (guest system memory, FB
 * mapped into the guest) are the backend's to treat as always dirty:
 * vgsp_pt_fb_untracked() says when FB may be written behind its back.
 */
#define VGSP_PT_LOG_LEN		512

int vgsp_pt_watch(struct vgsp_dev *dev, u64 pa, u32 len);
/*
 * The FB page numbers (pa >> 12) written since sequence @since, at most
 * @max into @pages (*@n set), and the sequence now in *@now. -ENOSPC when
 * the log no longer reaches back to @since, or holds more than @max: the
 * caller walks everything.
 */
int vgsp_pt_log_since(struct vgsp_dev *dev, u64 since, u64 *pages, u32 max,
		      u32 *n, u64 *now);
/* FB may be written without the core seeing it (a frontend mapped it). */
void vgsp_pt_fb_untracked(struct vgsp_dev *dev);
/* Called by fb.c with the FB lock held, after every successful write. */
void vgsp_pt_note_write(struct vgsp_mm *mm, u64 pa, u64 len);
void vgsp_pt_track_free(struct vgsp_mm *mm);
/* Device reset: nothing is watched, every log reader walks everything. */
void vgsp_pt_track_reset(struct vgsp_mm *mm);

/*
 * The FB read cache (fb_cache.c), on when the frontend asks for it
 * (vgsp_dev_opts.fb_cache_pages) and the store is flat: a store the CPU
 * reads uncached (the GPU's memory through its BAR1). The store stays the
 * truth; what may write it behind the core is reported here.
 *
 * A backend call that may run work on the GPU: reads go to the store
 * from vgsp_fb_gpu_start() until vgsp_fb_gpu_done(), which drops the
 * cached lines of [@pa, @pa + @len) (a range not inside FB: all of them).
 * @ended false: the work may still be running, the cache stays off until
 * the device reset.
 */
#define VGSP_FB_GPU_ANY		(~0ULL)	/* @len: anything it may reach */
/* Most pages a cache keeps (1 GiB of copies); more is refused by vgsp-vfu. */
#define VGSP_FBC_MAX_PAGES	(1U << 18)

void vgsp_fb_gpu_start(struct vgsp_dev *dev);
void vgsp_fb_gpu_done(struct vgsp_dev *dev, u64 pa, u64 len, bool ended);

#define VGSP_FBC_STAT_LIST(X)						\
	X(hits)			/* reads served from host memory */	\
	X(misses)		/* reads that filled lines */		\
	X(line_fills)		/* 64-byte lines read from the store */	\
	X(store_reads)		/* reads that reached the store */	\
	X(bypassed)		/* reads around it: GPU busy, bulk, off */ \
	X(patched)		/* cached pages the core wrote through */ \
	X(invalidated)		/* cached pages dropped by range */	\
	X(drops)		/* everything dropped (launch, VA copy) */ \
	X(evictions)		/* pages the clock took back */		\
	X(stops)		/* turned off: an engine may still run */

struct vgsp_fbc_stats {
#define VGSP_FBC_FIELD(n) u64 n;
	VGSP_FBC_STAT_LIST(VGSP_FBC_FIELD)
#undef VGSP_FBC_FIELD
	u64 pages, cap;		/* slots in use, most slots */
	bool off;		/* stopped, or FB mapped into the guest */
};

/* False (and zeros) when there is no cache. */
bool vgsp_fbc_stats(struct vgsp_dev *dev, struct vgsp_fbc_stats *st);
/* For fb.c (read, wrote, drop, reset: FB lock held): */
int vgsp_fbc_create(struct vgsp_mm *mm, u32 pages);
void vgsp_fbc_free(struct vgsp_fb_cache *c);
/* Bounds checked; false: not served, read the store. */
bool vgsp_fbc_read(struct vgsp_mm *mm, u64 pa, void *buf, u32 len);
/* After the store was written: the cached bytes follow. */
void vgsp_fbc_wrote(struct vgsp_mm *mm, u64 pa, const void *buf, u32 len);
/* Cached lines of [@pa, @pa + @len) go. */
void vgsp_fbc_drop(struct vgsp_mm *mm, u64 pa, u64 len);
void vgsp_fbc_reset(struct vgsp_mm *mm);

/* Walk @vm for @va. 0, or -EFAULT (counted in mmu_faults). */
int vgsp_mmu_translate(struct vgsp_dev *dev, const struct vgsp_vm *vm,
		       u64 va, struct vgsp_xlate *x);
/* The same for a write: -EFAULT also for a read-only or message page. */
int vgsp_mmu_translate_write(struct vgsp_dev *dev, const struct vgsp_vm *vm,
			     u64 va, struct vgsp_xlate *x);
/*
 * Read/write @len bytes at @va of @vm, split at page ends. -EFAULT when a
 * page is not mapped (or, for a write, read-only or a message page); the
 * bytes before it were done.
 */
int vgsp_vm_read(struct vgsp_dev *dev, const struct vgsp_vm *vm, u64 va,
		 void *buf, u32 len);
int vgsp_vm_write(struct vgsp_dev *dev, const struct vgsp_vm *vm, u64 va,
		  const void *buf, u32 len);

/*
 * UPDATE_BAR_PDE: @entry becomes entry 0 of GSP-RM's root (PD4) of @view
 * and the view starts translating (0 stops it). -EINVAL if no FB.
 */
int vgsp_bar_set_root(struct vgsp_dev *dev, enum vgsp_bar_view view,
		      u64 entry);
/* Static info names GSP-RM's roots; BAR1 translates from then on. */
void vgsp_bar_set_pdb(struct vgsp_dev *dev, enum vgsp_bar_view view, u64 pdb);
/* GSP-RM is gone (GSP reset): both views are flat again. */
void vgsp_bar_unbind(struct vgsp_dev *dev);
/*
 * A BAR1 or BAR2 access through its page tables: 0 when handled (faults
 * read 0, counted), -ENOENT while the view is flat.
 */
int vgsp_bar_access(struct vgsp_dev *dev, enum vgsp_bar_view view, u64 va,
		    void *buf, u32 len, bool write);
/* BAR0 0x700000..0x7fffff onto FB. 0 handled, -ENOENT outside. */
int vgsp_pramin_access(struct vgsp_dev *dev, u32 off, void *buf, u32 len,
		       bool write);

/* BAR0 registers of mm (the PRAMIN window base; fault/notify buffers). */
extern const struct vgsp_reg_table vgsp_mm_reg_table;
extern const struct vgsp_reg_table vgsp_mm_fault_reg_table;

#endif /* VGSP_MM_H */
