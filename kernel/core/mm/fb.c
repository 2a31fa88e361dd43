// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The FB store and the BAR0 PRAMIN window (NV_PRAMIN, BAR0
 * 0x700000..0x7fffff: 1 MiB of FB at NV_XAL_EP_BAR0_WINDOW.BASE << 16).
 *
 * The store may hold up to the profile's FB size of backing: that is what
 * the profile promises the guest, as a VM's RAM size does. Chunks of zeros
 * cost nothing, so CPU-RM's scrub of the whole FB allocates no memory.
 */
#include "mm.h"
#include "../aperture.h"

#define NV_PRAMIN_BASE			0x700000
#define NV_PRAMIN_SIZE			0x100000
#define NV_XAL_EP_BAR0_WINDOW		0x10fd40
#define BAR0_WINDOW_BASE_MASK		0x3fffff	/* 21:0 */
#define BAR0_WINDOW_SHIFT		16

static bool fb_ok(const struct vgsp_mm *mm, u64 pa, u64 len)
{
	return mm->fb && pa < mm->fb->size && len <= mm->fb->size - pa;
}

int vgsp_fb_read(struct vgsp_dev *dev, u64 pa, void *buf, u32 len)
{
	struct vgsp_mm *mm = dev->mm;

	if (!fb_ok(mm, pa, len)) {
		vgsp_inc(&mm->st.fb_bad);
		return -EINVAL;
	}
	vgsp_os->lock(mm->fb_lock);
	if (!vgsp_fbc_read(mm, pa, buf, len))
		vgsp_aperture_read(mm->fb, pa, buf, len);
	vgsp_os->unlock(mm->fb_lock);
	return 0;
}

int vgsp_fb_write(struct vgsp_dev *dev, u64 pa, const void *buf, u32 len)
{
	struct vgsp_mm *mm = dev->mm;
	int ret;

	if (!fb_ok(mm, pa, len)) {
		vgsp_inc(&mm->st.fb_bad);
		return -EINVAL;
	}
	vgsp_os->lock(mm->fb_lock);
	ret = vgsp_aperture_write(mm->fb, pa, buf, len);
	if (!ret) {
		vgsp_fbc_wrote(mm, pa, buf, len);
		vgsp_pt_note_write(mm, pa, len);
	}
	vgsp_os->unlock(mm->fb_lock);
	if (ret) {
		vgsp_inc(&mm->st.fb_nomem);
		return -ENOMEM;
	}
	return 0;
}

int vgsp_fb_fill(struct vgsp_dev *dev, u64 pa, u32 pattern, u64 len)
{
	struct vgsp_mm *mm = dev->mm;
	int ret;

	if (!fb_ok(mm, pa, len)) {
		vgsp_inc(&mm->st.fb_bad);
		return -EINVAL;
	}
	vgsp_os->lock(mm->fb_lock);
	ret = vgsp_aperture_fill(mm->fb, pa, pattern, len);
	if (!ret) {
		vgsp_fbc_drop(mm, pa, len);
		vgsp_pt_note_write(mm, pa, len);
	}
	vgsp_os->unlock(mm->fb_lock);
	if (ret) {
		vgsp_inc(&mm->st.fb_nomem);
		return -ENOMEM;
	}
	return 0;
}

/*
 * A backend's own engine wrote [pa, pa + len) of FB behind the core (a
 * copy or fill on the GPU): page tables on those pages changed as if the
 * core had written them, and cached copies of them are old.
 */
int vgsp_fb_engine_wrote(struct vgsp_dev *dev, u64 pa, u64 len)
{
	struct vgsp_mm *mm = dev->mm;

	if (!fb_ok(mm, pa, len))
		return -EINVAL;
	vgsp_os->lock(mm->fb_lock);
	vgsp_fbc_drop(mm, pa, len);
	vgsp_pt_note_write(mm, pa, len);
	vgsp_os->unlock(mm->fb_lock);
	return 0;
}

/* Bytes of host memory backing the FB store now (the "mm" view). */
u64 vgsp_fb_backed(struct vgsp_dev *dev)
{
	u64 b;

	vgsp_os->lock(dev->mm->fb_lock);
	b = dev->mm->fb->backed;
	vgsp_os->unlock(dev->mm->fb_lock);
	return b;
}

int vgsp_mem_read(struct vgsp_dev *dev, enum vgsp_mem_target t, u64 pa,
		  void *buf, u32 len)
{
	if (t == VGSP_MEM_VID)
		return vgsp_fb_read(dev, pa, buf, len);
	if (t == VGSP_MEM_SYS && !vgsp_dev_dma_read(dev, pa, buf, len))
		return 0;
	vgsp_inc(&dev->mm->st.sys_errors);
	return -EFAULT;
}

int vgsp_mem_write(struct vgsp_dev *dev, enum vgsp_mem_target t, u64 pa,
		   const void *buf, u32 len)
{
	if (t == VGSP_MEM_VID)
		return vgsp_fb_write(dev, pa, buf, len);
	if (t == VGSP_MEM_SYS && !vgsp_dev_dma_write(dev, pa, buf, len))
		return 0;
	vgsp_inc(&dev->mm->st.sys_errors);
	return -EFAULT;
}

int vgsp_pramin_access(struct vgsp_dev *dev, u32 off, void *buf, u32 len,
		       bool write)
{
	u64 pa;
	int ret;

	if (off < NV_PRAMIN_BASE || off - NV_PRAMIN_BASE >= NV_PRAMIN_SIZE)
		return -ENOENT;
	if (len > NV_PRAMIN_SIZE - (off - NV_PRAMIN_BASE))
		return -EINVAL;
	pa = ((u64)(vgsp_reg_peek(&dev->regs, NV_XAL_EP_BAR0_WINDOW) &
		    BAR0_WINDOW_BASE_MASK) << BAR0_WINDOW_SHIFT) +
	     (off - NV_PRAMIN_BASE);
	ret = write ? vgsp_fb_write(dev, pa, buf, len) :
		      vgsp_fb_read(dev, pa, buf, len);
	if (ret) {
		dev->mm->st.pramin_faults++;
		if (!write)
			memset(buf, 0, len);
	}
	return 0;
}

static const struct vgsp_reg mm_regs[] = {
	{ .name = "XAL_EP_BAR0_WINDOW", .offset = NV_XAL_EP_BAR0_WINDOW,
	  .ro_mask = ~BAR0_WINDOW_BASE_MASK },
};

const struct vgsp_reg_table vgsp_mm_reg_table = VGSP_REG_TABLE(mm_regs);

int vgsp_mm_create(struct vgsp_dev *dev)
{
	struct vgsp_mm *mm = vgsp_zalloc(sizeof(*mm));

	if (!mm)
		return -ENOMEM;
	mm->fb = dev->fb_flat ?
		 vgsp_aperture_new_flat(dev->profile->fb_size, dev->fb_flat) :
		 vgsp_aperture_new(dev->profile->fb_size,
				   dev->profile->fb_size);
	mm->fb_lock = vgsp_os->lock_new();
	if (!mm->fb || !mm->fb_lock ||
	    vgsp_fbc_create(mm, dev->fb_cache_pages)) {
		if (mm->fb)
			vgsp_aperture_free(mm->fb);
		if (mm->fb_lock)
			vgsp_os->lock_free(mm->fb_lock);
		vgsp_free(mm);
		return -ENOMEM;
	}
	dev->mm = mm;
	return 0;
}

void vgsp_mm_destroy(struct vgsp_dev *dev)
{
	if (!dev->mm)
		return;
	vgsp_pt_track_free(dev->mm);
	vgsp_fbc_free(dev->mm->fbc);
	vgsp_aperture_free(dev->mm->fb);
	vgsp_os->lock_free(dev->mm->fb_lock);
	vgsp_free(dev->mm);
	dev->mm = NULL;
}

void vgsp_mm_reset(struct vgsp_dev *dev)
{
	struct vgsp_mm *mm = dev->mm;

	vgsp_os->lock(mm->fb_lock);
	vgsp_aperture_clear(mm->fb);
	vgsp_fbc_reset(mm);
	vgsp_pt_track_reset(mm);
	vgsp_os->unlock(mm->fb_lock);
	vgsp_bar_unbind(dev);
}
