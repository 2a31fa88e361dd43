// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Instance lifecycle and region access. This file is the core's front
 * door: every offset, length and BAR number from a frontend is checked
 * here before anything else looks at it.
 */
#include "device.h"
#include "aperture.h"
#include "mm/mm.h"
#include "mm/bar_share.h"
#include "fifo/fifo.h"
#include "rm/rm.h"
#include "backend.h"
#include "gsp/gsp.h"
#include "trace.h"

#define MAX_TABLES 16

void vgsp_uuid_to_str(const u8 u[16], char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int i, k = 0;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		out[k++] = hex[u[i] >> 4];
		out[k++] = hex[u[i] & 0xf];
	}
	out[k] = '\0';
}

bool vgsp_dev_log_ok(struct vgsp_dev *dev)
{
	u64 now = vgsp_now_ns();
	bool ok = true;

	vgsp_os->lock(dev->log_lock);
	if (now - dev->log_window_ns >= VGSP_LOG_WINDOW_NS) {
		dev->log_window_ns = now;
		dev->log_lines = 0;
	}
	if (dev->log_lines >= VGSP_LOG_BURST) {
		dev->cnt.log_suppressed++;
		ok = false;
	} else {
		dev->log_lines++;
	}
	vgsp_os->unlock(dev->log_lock);
	return ok;
}

void vgsp_dev_lock(struct vgsp_dev *dev)
{
	vgsp_os->lock(dev->lock);
}

void vgsp_dev_unlock(struct vgsp_dev *dev)
{
	vgsp_os->unlock(dev->lock);
}

static int build_regmodel(struct vgsp_dev *dev)
{
	const struct vgsp_chip *chip = dev->profile->chip;
	struct vgsp_reg_table tables[MAX_TABLES];
	const struct vgsp_reg_table *gsp_tables;
	unsigned int n = 0, i, ngsp;

	ngsp = vgsp_gsp_reg_tables(chip, &gsp_tables);
	if (chip->ntables + ngsp + 3 > MAX_TABLES) {
		vgsp_err("vgsp: %s: too many register tables\n", dev->name);
		return -EINVAL;
	}
	for (i = 0; i < chip->ntables; i++)
		tables[n++] = chip->tables[i];
	for (i = 0; i < ngsp; i++)
		tables[n++] = gsp_tables[i];
	tables[n++] = vgsp_mm_reg_table;
	tables[n++] = vgsp_fifo_reg_table;
	tables[n++] = vgsp_mm_fault_reg_table;
	return vgsp_regmodel_init(&dev->regs, tables, n);
}

struct vgsp_dev *vgsp_dev_create(const struct vgsp_profile *profile,
				 const u8 uuid[16], unsigned int msix_vectors,
				 const struct vgsp_fe_ops *fe_ops, void *fe)
{
	return vgsp_dev_create_opts(profile, uuid, msix_vectors, fe_ops, fe,
				    NULL);
}

struct vgsp_dev *vgsp_dev_create_opts(const struct vgsp_profile *profile,
				      const u8 uuid[16],
				      unsigned int msix_vectors,
				      const struct vgsp_fe_ops *fe_ops,
				      void *fe,
				      const struct vgsp_dev_opts *opts)
{
	struct vgsp_dev *dev;

	if (!profile || !fe_ops || !msix_vectors ||
	    msix_vectors > VGSP_MSIX_MAX)
		return NULL;
	dev = vgsp_zalloc(sizeof(*dev));
	if (!dev)
		return NULL;
	dev->profile = profile;
	dev->fe_ops = fe_ops;
	dev->fe = fe;
	memcpy(dev->uuid, uuid, 16);
	vgsp_uuid_to_str(uuid, dev->name);

	dev->lock = vgsp_os->lock_new();
	dev->log_lock = vgsp_os->lock_new();
	if (!dev->lock || !dev->log_lock)
		goto err;
	vgsp_cfg_init(&dev->cfg, profile, msix_vectors);
	if (build_regmodel(dev))
		goto err;
	dev->bar1 = vgsp_aperture_new(profile->bar1_size, VGSP_APERTURE_CAP);
	if (opts && opts->bar3_shared && !opts->fb_flat) {
		/* flat BAR3 is the guest's mapping; bound, FB chunks are */
		dev->bar3 = vgsp_aperture_new_flat(VGSP_BAR3_SIZE,
						   opts->bar3_shared);
		dev->share = vgsp_bar_share_new(opts->bar3_shared,
						VGSP_BAR3_SIZE);
		if (!dev->share)
			goto err;
	} else {
		dev->bar3 = vgsp_aperture_new(VGSP_BAR3_SIZE,
					      VGSP_APERTURE_CAP);
	}
	dev->backend = &vgsp_backend_sim;
	if (opts && opts->backend) {
		dev->backend = opts->backend;
		dev->backend_priv = opts->backend_priv;
	}
	if (opts) {
		dev->fb_flat = opts->fb_flat;
		dev->fb_cache_pages = opts->fb_cache_pages;
	}
	if (!dev->bar1 || !dev->bar3 || vgsp_mm_create(dev) ||
	    vgsp_rm_create(dev) || vgsp_fifo_create(dev))
		goto err;
	if (dev->share || vgsp_dev_bar_mmap_len(dev, VGSP_BAR1))
		vgsp_pt_fb_untracked(dev);	/* the guest writes FB pages */
	if (vgsp_gsp_create(dev))
		goto err;
	return dev;

err:
	vgsp_err("vgsp: %s: cannot create instance of %s\n", dev->name,
		 profile->id);
	vgsp_fifo_destroy(dev);
	vgsp_rm_destroy(dev);
	vgsp_mm_destroy(dev);
	vgsp_bar_share_free(dev->share);
	vgsp_aperture_free(dev->bar1);
	vgsp_aperture_free(dev->bar3);
	vgsp_regmodel_fini(&dev->regs);
	if (dev->lock)
		vgsp_os->lock_free(dev->lock);
	if (dev->log_lock)
		vgsp_os->lock_free(dev->log_lock);
	vgsp_free(dev);
	return NULL;
}

void vgsp_dev_destroy(struct vgsp_dev *dev)
{
	if (!dev)
		return;
	vgsp_gsp_destroy(dev);		/* no more RPCs into rm/ and fifo/ */
	vgsp_fifo_destroy(dev);
	vgsp_rm_destroy(dev);
	vgsp_mm_destroy(dev);
	vgsp_bar_share_free(dev->share);
	vgsp_aperture_free(dev->bar1);
	vgsp_aperture_free(dev->bar3);
	vgsp_regmodel_fini(&dev->regs);
	vgsp_os->lock_free(dev->lock);
	vgsp_os->lock_free(dev->log_lock);
	vgsp_free(dev);
}

void vgsp_dev_reset(struct vgsp_dev *dev)
{
	vgsp_dev_lock(dev);
	vgsp_regmodel_reset(&dev->regs);
	vgsp_cfg_reset(&dev->cfg, dev->profile);
	vgsp_bar_share_reset(dev);	/* before BAR3's memory is zeroed */
	vgsp_os->lock(dev->mm->fb_lock);	/* BAR1's fault path */
	vgsp_aperture_clear(dev->bar1);
	vgsp_os->unlock(dev->mm->fb_lock);
	vgsp_aperture_clear(dev->bar3);
	vgsp_mm_reset(dev);
	vgsp_fifo_reset(dev);
	vgsp_rm_reset(dev);
	vgsp_store64(&dev->timer_offset_ns, 0);
	vgsp_gsp_reset(dev);
	dev->cnt.resets++;
	vgsp_dev_unlock(dev);
}

int vgsp_dev_cfg_read(struct vgsp_dev *dev, u32 off, void *buf, u32 len)
{
	int ret;

	vgsp_dev_lock(dev);
	ret = vgsp_cfg_read(&dev->cfg, off, buf, len);
	if (ret)
		dev->cnt.cfg_bad++;
	else
		dev->cnt.cfg_reads++;
	vgsp_dev_unlock(dev);
	return ret;
}

int vgsp_dev_cfg_write(struct vgsp_dev *dev, u32 off, const void *buf,
		       u32 len)
{
	int ret;

	vgsp_dev_lock(dev);
	ret = vgsp_cfg_write(&dev->cfg, off, buf, len);
	if (ret)
		dev->cnt.cfg_bad++;
	else
		dev->cnt.cfg_writes++;
	vgsp_dev_unlock(dev);
	return ret;
}

u64 vgsp_dev_bar_size(const struct vgsp_dev *dev, unsigned int bar)
{
	if (bar >= VGSP_NUM_BARS)
		return 0;
	return dev->cfg.bar[bar].size;
}

u64 vgsp_dev_bar_mmap_len(const struct vgsp_dev *dev, unsigned int bar)
{
	if (bar == VGSP_BAR1 && dev->fe_ops && dev->fe_ops->bar1_zap &&
	    !dev->fb_flat)
		return dev->bar1->size;	/* faulted page by page */
	return bar == VGSP_BAR3 && dev->share ?
	       VGSP_BAR3_SIZE - VGSP_SHARE_TRAP_TOP : 0;
}

/* 1, 2, 4 or 8 bytes, naturally aligned, inside a BAR of @size. */
static bool access_ok(u64 size, u64 off, u32 len)
{
	if (len != 1 && len != 2 && len != 4 && len != 8)
		return false;
	if (off & (len - 1))
		return false;
	return off < size && len <= size - off;
}

/*
 * BAR0 dword by dword through the register model. Lock held. Returns
 * whether any dword touched was unmodelled (counted once per access).
 */
static bool bar0_read(struct vgsp_dev *dev, u32 off, void *buf, u32 len)
{
	u8 bytes[8];
	u32 base = off & ~3U, end = off + len, o;
	bool unknown = false;

	for (o = base; o < end; o += 4) {
		u32 v;

		if (!vgsp_regmodel_read(dev, &dev->regs, o, &v))
			unknown = true;
		bytes[o - base] = v & 0xff;
		bytes[o - base + 1] = (v >> 8) & 0xff;
		bytes[o - base + 2] = (v >> 16) & 0xff;
		bytes[o - base + 3] = v >> 24;
	}
	memcpy(buf, bytes + (off - base), len);
	return unknown;
}

/*
 * A write narrower than a dword only changes its own byte lanes: the other
 * lanes carry the stored value, except write-1-to-clear bits, which carry
 * 0 so that an untouched lane never clears anything. The stored value (not
 * a read handler's computed one) is used, so a byte write never triggers a
 * read side effect.
 */
static __always_inline bool bar0_write(struct vgsp_dev *dev, u32 off,
				       const void *buf, u32 len)
{
	const u8 *in = buf;
	u32 base = off & ~3U, end = off + len, o;
	bool unknown = false;

	/*
	 * A whole dword, as drivers write: one lookup (none when the same
	 * register as last time), no lanes to merge.
	 */
	if (len == 4 && !(off & 3)) {
		struct vgsp_regmodel *rm = &dev->regs;
		int slot = rm->last_write;

		if (slot < 0 || rm->slots[slot].offset != off) {
			slot = vgsp_regmodel_find(rm, off);
			if (slot < 0)
				return !vgsp_regmodel_write(dev, rm, off,
							    vgsp_get32(in, 0));
			rm->last_write = slot;
		}
		vgsp_regmodel_write_slot(dev, rm, slot, vgsp_get32(in, 0));
		return false;
	}
	for (o = base; o < end; o += 4) {
		int slot = vgsp_regmodel_find(&dev->regs, o);
		u32 v = 0, lanes = 0, i;

		for (i = 0; i < 4; i++) {
			u32 a = o + i;

			if (a < off || a >= end)
				continue;
			lanes |= 0xffU << (8 * i);
			v |= (u32)in[a - off] << (8 * i);
		}
		if (slot < 0) {
			vgsp_regmodel_write(dev, &dev->regs, o, v);
			unknown = true;
			continue;
		}
		if (lanes != ~0U) {
			u32 keep = dev->regs.values[slot] &
				   ~dev->regs.slots[slot].reg->w1c_mask;

			v |= keep & ~lanes;
		}
		vgsp_regmodel_write_slot(dev, &dev->regs, slot, v);
	}
	return unknown;
}

static struct vgsp_aperture *aperture_of(struct vgsp_dev *dev,
					 unsigned int bar)
{
	return bar == VGSP_BAR1 ? dev->bar1 : bar == VGSP_BAR3 ? dev->bar3 :
	       NULL;
}

static enum vgsp_bar_view view_of(unsigned int bar)
{
	return bar == VGSP_BAR1 ? VGSP_VIEW_BAR1 : VGSP_VIEW_BAR2;
}

void vgsp_dev_bar0_access(struct vgsp_dev *dev, u32 off, void *buf, u32 len,
			  bool write)
{
	if (write)
		bar0_write(dev, off, buf, len);
	else
		bar0_read(dev, off, buf, len);
}

int vgsp_dev_bar_read(struct vgsp_dev *dev, unsigned int bar, u64 off,
		      void *buf, u32 len)
{
	struct vgsp_aperture *ap;

	vgsp_dev_lock(dev);
	if (bar == VGSP_BAR0) {
		if (!access_ok(VGSP_BAR0_SIZE, off, len)) {
			dev->cnt.bar0_bad++;
			goto bad;
		}
		if (vgsp_pramin_access(dev, (u32)off, buf, len, false) &&
		    bar0_read(dev, (u32)off, buf, len))
			dev->cnt.bar0_unknown_reads++;
		dev->cnt.bar0_reads++;
		goto ok;
	}
	ap = aperture_of(dev, bar);
	if (!ap) {
		dev->cnt.region_bad++;
		goto bad;
	}
	if (!access_ok(ap->size, off, len)) {
		dev->cnt.bar_bad++;
		goto bad;
	}
	if (vgsp_bar_access(dev, view_of(bar), off, buf, len, false) ==
	    -ENOENT) {
		/* flat BAR1: its fault path (mm/bar1_map.c) pins chunks */
		vgsp_os->lock(dev->mm->fb_lock);
		vgsp_aperture_read(ap, off, buf, len);
		vgsp_os->unlock(dev->mm->fb_lock);
	}
	if (bar == VGSP_BAR1)
		dev->cnt.bar1_reads++;
	else
		dev->cnt.bar3_reads++;
ok:
	vgsp_dev_unlock(dev);
	return 0;
bad:
	vgsp_dev_unlock(dev);
	return -EINVAL;
}

VGSP_HOT int vgsp_dev_bar_write(struct vgsp_dev *dev, unsigned int bar,
				u64 off, const void *buf, u32 len)
{
	struct vgsp_aperture *ap;
	int ret = -EINVAL;

	vgsp_dev_lock(dev);
	if (bar == VGSP_BAR0) {
		if (!access_ok(VGSP_BAR0_SIZE, off, len)) {
			dev->cnt.bar0_bad++;
			goto out;
		}
		vgsp_bar_share_flush(dev);	/* mirrors first: a doorbell */
		if (vgsp_pramin_access(dev, (u32)off, (void *)buf, len, true) &&
		    bar0_write(dev, (u32)off, buf, len))
			dev->cnt.bar0_unknown_writes++;
		dev->cnt.bar0_writes++;
		ret = 0;
		goto out;
	}
	ap = aperture_of(dev, bar);
	if (!ap) {
		dev->cnt.region_bad++;
		goto out;
	}
	if (!access_ok(ap->size, off, len)) {
		dev->cnt.bar_bad++;
		goto out;
	}
	if (bar == VGSP_BAR1)
		vgsp_bar_share_flush(dev);	/* UVM's BAR1 doorbell page */
	ret = vgsp_bar_access(dev, view_of(bar), off, (void *)buf, len, true);
	if (!ret && dev->share && bar == VGSP_BAR3 &&
	    off >= vgsp_dev_bar_mmap_len(dev, bar))
		vgsp_bar_share_sync(dev);	/* BAR2's own tables */
	if (ret == -ENOENT) {
		vgsp_os->lock(dev->mm->fb_lock);	/* as in the read */
		ret = vgsp_aperture_write(ap, off, buf, len);
		vgsp_os->unlock(dev->mm->fb_lock);
	}
	if (ret)
		dev->cnt.bar_bad++;
	else if (bar == VGSP_BAR1)
		dev->cnt.bar1_writes++;
	else
		dev->cnt.bar3_writes++;
out:
	vgsp_dev_unlock(dev);
	return ret;
}

void vgsp_dev_dma_unmapped(struct vgsp_dev *dev, u64 iova, u64 len)
{
	vgsp_dev_lock(dev);
	dev->cnt.dma_unmaps++;
	vgsp_dev_unlock(dev);
}

void vgsp_dev_raise_irq(struct vgsp_dev *dev, unsigned int vector)
{
	/* Gate point: the guest's MSI/MSI-X/INTx enables, as hardware. */
	if (!vgsp_cfg_irq_enabled(&dev->cfg)) {
		vgsp_inc(&dev->cnt.irqs_gated);
		vgsp_trace_irq(dev, vector, VGSP_TRACE_IRQ_GATED);
		return;
	}
	if (dev->fe_ops->irq_signal && dev->fe_ops->irq_signal(dev->fe, vector)) {
		vgsp_inc(&dev->cnt.irqs_signalled);
		vgsp_trace_irq(dev, vector, VGSP_TRACE_IRQ_SIGNALLED);
	} else {
		vgsp_inc(&dev->cnt.irqs_suppressed);
		vgsp_trace_irq(dev, vector, VGSP_TRACE_IRQ_SUPPRESSED);
	}
}

int vgsp_dev_dma_read(struct vgsp_dev *dev, u64 iova, void *buf, size_t len)
{
	return vgsp_dev_dma_xfer(dev, iova, buf, len, false, false);
}

int vgsp_dev_dma_write(struct vgsp_dev *dev, u64 iova, const void *buf,
		       size_t len)
{
	return vgsp_dev_dma_xfer(dev, iova, (void *)buf, len, true, false);
}
