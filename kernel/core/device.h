/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One emulated GPU instance: the core's entry points for frontends.
 *
 * Frontends translate VFIO / vfio-user requests into these calls. Every
 * entry point takes the instance lock; handlers (register model, GSP) run
 * with it held. Every offset and length from the user is validated here.
 */
#ifndef VGSP_DEVICE_H
#define VGSP_DEVICE_H

#include "vgsp_os.h"
#include "profiles.h"
#include "regmodel.h"
#include "pci_cfg.h"
#include "counters.h"

#define VGSP_BAR0_SIZE		(16 * VGSP_MIB)
#define VGSP_BAR3_SIZE		(32 * VGSP_MIB)

/* BAR numbers as VFIO region indices (config BAR slots). */
enum vgsp_bar_index {
	VGSP_BAR0 = 0,		/* registers, 32-bit */
	VGSP_BAR1 = 1,		/* FB aperture, 64-bit: slots 1+2 */
	VGSP_BAR3 = 3,		/* instance memory, 64-bit: slots 3+4 */
};

struct vgsp_gsp;
struct vgsp_aperture;
struct vgsp_mm;
struct vgsp_fifo;
struct vgsp_rm;
struct vgsp_backend_ops;
struct vgsp_bar_share;

struct vgsp_dev {
	const struct vgsp_profile *profile;
	const struct vgsp_fe_ops *fe_ops;
	void *fe;
	u8 uuid[16];			/* stable for the instance's life */
	char name[40];			/* for log lines: uuid string */

	struct vgsp_lock *lock;
	struct vgsp_regmodel regs;
	struct vgsp_cfg cfg;
	struct vgsp_aperture *bar1, *bar3;	/* flat until the BAR views bind */
	struct vgsp_mm *mm;		/* FB store, MMU, BAR views (mm/) */
	struct vgsp_fifo *fifo;		/* channels, doorbells (fifo/) */
	struct vgsp_rm *rm;		/* VA spaces, TSGs (rm/) */
	const struct vgsp_backend_ops *backend;	/* executes engine work */
	void *backend_priv;		/* the backend's per-instance state */
	void *fb_flat;			/* FB store memory the frontend owns */
	u32 fb_cache_pages;		/* FB read cache cap (mm/fb_cache.c) */
	struct vgsp_bar_share *share;	/* BAR3 mapped into the guest */
	struct vgsp_gsp *gsp;		/* emulated GSP (gsp/) */
	u64 timer_offset_ns;		/* PTIMER = host clock + offset */
	struct vgsp_lock *log_lock;	/* the limiter: both workers log */
	u64 log_window_ns;		/* start of the current log window */
	u32 log_lines;			/* lines printed in it */
	struct vgsp_counters cnt;
};

/*
 * Create an instance of @profile. @uuid identifies it (the mdev UUID);
 * @msix_vectors sizes the MSI-X table (1..VGSP_MSIX_MAX); @fe_ops/@fe give
 * guest memory and interrupts. Returns NULL on failure (allocation or an
 * inconsistent register table, which is logged).
 */
struct vgsp_dev *vgsp_dev_create(const struct vgsp_profile *profile,
				 const u8 uuid[16], unsigned int msix_vectors,
				 const struct vgsp_fe_ops *fe_ops, void *fe);
/*
 * What a frontend may choose beyond the defaults (sim backend, sparse FB
 * store). A physical backend needs the FB store in one block it can
 * register with the GPU: @fb_flat, the profile's fb_size bytes, zeroed,
 * owned by the frontend and outliving the instance.
 *
 * @bar3_shared: VGSP_BAR3_SIZE bytes, zeroed, that the frontend maps into
 * the guest as BAR3 (mm/bar_share.h); owned by the frontend and outliving
 * the instance.
 * Ignored with @fb_flat: vgsp_dev_bar_mmap_len() says.
 *
 * @fb_cache_pages: with @fb_flat, keep copies of up to this many 4 KiB
 * pages of FB the core reads (mm/fb_cache.c), for a store the CPU reads
 * uncached (the GPU's memory through BAR1); 0: none.
 */
struct vgsp_dev_opts {
	const struct vgsp_backend_ops *backend;
	void *backend_priv;
	void *fb_flat;
	void *bar3_shared;
	u32 fb_cache_pages;
};

struct vgsp_dev *vgsp_dev_create_opts(const struct vgsp_profile *profile,
				      const u8 uuid[16],
				      unsigned int msix_vectors,
				      const struct vgsp_fe_ops *fe_ops,
				      void *fe,
				      const struct vgsp_dev_opts *opts);
void vgsp_dev_destroy(struct vgsp_dev *dev);

/* Power-on state again; the UUID and counters survive. */
void vgsp_dev_reset(struct vgsp_dev *dev);

/* Region access; 0 or -EINVAL (out of range, bad size or alignment). */
int vgsp_dev_cfg_read(struct vgsp_dev *dev, u32 off, void *buf, u32 len);
int vgsp_dev_cfg_write(struct vgsp_dev *dev, u32 off, const void *buf,
		       u32 len);
int vgsp_dev_bar_read(struct vgsp_dev *dev, unsigned int bar, u64 off,
		      void *buf, u32 len);
int vgsp_dev_bar_write(struct vgsp_dev *dev, unsigned int bar, u64 off,
		       const void *buf, u32 len);
/* Size of a BAR by config slot (0 if none or upper half of a 64-bit BAR). */
u64 vgsp_dev_bar_size(const struct vgsp_dev *dev, unsigned int bar);
/*
 * Bytes of @bar from offset 0 the frontend may map into the guest (0:
 * none; the rest traps): BAR3 backed by bar3_shared, less its trapped top;
 * BAR1 whole when the frontend can zap its mappings (fe_ops->bar1_zap,
 * mm/bar1_map.h), not with a flat FB store (a physical backend's).
 */
u64 vgsp_dev_bar_mmap_len(const struct vgsp_dev *dev, unsigned int bar);

/* The user removed an IOVA range; the core must not rely on it any more. */
void vgsp_dev_dma_unmapped(struct vgsp_dev *dev, u64 iova, u64 len);

/*
 * For emulation code (lock held): raise interrupt @vector; guest memory.
 * The dma helpers count and return -errno on failure.
 */
void vgsp_dev_raise_irq(struct vgsp_dev *dev, unsigned int vector);
int vgsp_dev_dma_read(struct vgsp_dev *dev, u64 iova, void *buf, size_t len);
int vgsp_dev_dma_write(struct vgsp_dev *dev, u64 iova, const void *buf,
		       size_t len);
/*
 * Every guest-memory access: counted and gated by Bus Master Enable; @hot
 * takes the frontend's path for the pages touched on every RPC
 * (vgsp_fe_ops.dma_*_hot) when it has one. Inline in the caller: under
 * TCG every call level on the RPC path costs a lookup of its return
 * address, and a small RPC makes four accesses.
 */
/* Count @n accesses; -EIO (counted) while bus mastering is off. */
static inline int vgsp_dev_dma_gate(struct vgsp_dev *dev, bool write,
				    unsigned int n)
{
	vgsp_add(write ? &dev->cnt.dma_writes : &dev->cnt.dma_reads, n);
	if (vgsp_cfg_bus_master(&dev->cfg))
		return 0;
	vgsp_inc(&dev->cnt.dma_blocked);
	vgsp_inc(&dev->cnt.dma_errors);
	return -EIO;
}

static inline int vgsp_dev_dma_xfer(struct vgsp_dev *dev, u64 iova,
				    void *buf, size_t len, bool write,
				    bool hot)
{
	const struct vgsp_fe_ops *fe = dev->fe_ops;
	int ret = -ENODEV;

	if (vgsp_dev_dma_gate(dev, write, 1))
		return -EIO;
	if (write && hot && fe->dma_write_hot)
		ret = fe->dma_write_hot(dev->fe, iova, buf, len);
	else if (write && fe->dma_write)
		ret = fe->dma_write(dev->fe, iova, buf, len);
	else if (!write && hot && fe->dma_read_hot)
		ret = fe->dma_read_hot(dev->fe, iova, buf, len);
	else if (!write && fe->dma_read)
		ret = fe->dma_read(dev->fe, iova, buf, len);
	if (ret)
		vgsp_inc(&dev->cnt.dma_errors);
	return ret;
}

static inline int vgsp_dev_dma_hot(struct vgsp_dev *dev, u64 iova, void *buf,
				   size_t len, bool write)
{
	return vgsp_dev_dma_xfer(dev, iova, buf, len, write, true);
}

/*
 * @n hot accesses in order (vgsp_fe_ops.dma_hot_v), counted as @n
 * accesses; one frontend call where it has the op. 0 or the first error.
 */
static inline int vgsp_dev_dma_hot_v(struct vgsp_dev *dev,
				     const struct vgsp_dma_seg *seg,
				     unsigned int n, bool write)
{
	const struct vgsp_fe_ops *fe = dev->fe_ops;
	unsigned int i;
	int ret;

	if (!fe->dma_hot_v) {
		for (i = 0; i < n; i++) {
			ret = vgsp_dev_dma_xfer(dev, seg[i].iova, seg[i].buf,
						seg[i].len, write, true);
			if (ret)
				return ret;
		}
		return 0;
	}
	if (vgsp_dev_dma_gate(dev, write, n))
		return -EIO;
	ret = vgsp_fe_dma_hot_v(fe, dev->fe, seg, n, write);
	if (ret)
		vgsp_inc(&dev->cnt.dma_errors);
	return ret;
}

/*
 * BAR0 access from emulation code (lock held): the register model, as a
 * guest access would see it (BAR1 message pages reach the VF window here).
 */
void vgsp_dev_bar0_access(struct vgsp_dev *dev, u32 off, void *buf, u32 len,
			  bool write);

/*
 * Per-instance log limit for lines a guest can trigger (lock held): at most
 * VGSP_LOG_BURST lines per VGSP_LOG_WINDOW_NS; the rest are counted in
 * log_suppressed. One instance can never silence another.
 */
#define VGSP_LOG_BURST		20
#define VGSP_LOG_WINDOW_NS	(5ULL * 1000 * 1000 * 1000)
bool vgsp_dev_log_ok(struct vgsp_dev *dev);
#define vgsp_dev_log(dev, level, fmt, ...)				\
	do {								\
		if (vgsp_dev_log_ok(dev))				\
			vgsp_os->log(level, fmt, ##__VA_ARGS__);	\
	} while (0)

void vgsp_dev_lock(struct vgsp_dev *dev);
void vgsp_dev_unlock(struct vgsp_dev *dev);

/* "xxxxxxxx-xxxx-..." into @out (37 bytes). */
void vgsp_uuid_to_str(const u8 uuid[16], char *out);

#endif /* VGSP_DEVICE_H */
