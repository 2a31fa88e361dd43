// SPDX-License-Identifier: GPL-2.0
/*
 * VFIO device operations of a vgsp instance: region read/write into the
 * core, the device ioctls, open/close and the emulated-IOMMU callbacks.
 * Region accesses are validated here (region index, size) and again by
 * the core (offset, alignment).
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vfio.h>
#include <linux/vmalloc.h>

#include "vgsp_compat.h"
#include "vgsp_drv.h"
#include "backend/ring.h"

/* Guest memory by IOVA through the VFIO container (pins per access). */
static int fe_dma_read(void *fe, u64 iova, void *buf, size_t len)
{
	struct vgsp_mdev *vm = fe;

	if (!READ_ONCE(vm->open))
		return -ENODEV;
	return vfio_dma_rw(&vm->vdev, iova, buf, len, false);
}

static int fe_dma_write(void *fe, u64 iova, const void *buf, size_t len)
{
	struct vgsp_mdev *vm = fe;

	if (!READ_ONCE(vm->open))
		return -ENODEV;
	return vfio_dma_rw(&vm->vdev, iova, (void *)buf, len, true);
}

/*
 * The GSP queues' pages: kept pinned (vgsp_pincache.c), else as above.
 * Inlined into both ops: one call level less on every RPC access.
 */
static __always_inline int fe_dma_hot(void *fe, u64 iova, void *buf,
				      size_t len, bool write)
{
	struct vgsp_mdev *vm = fe;

	if (!READ_ONCE(vm->open))
		return -ENODEV;
	if (READ_ONCE(vgsp_pin_queues) &&
	    !vgsp_pincache_rw(&vm->pins, &vm->vdev, iova, buf, len, write))
		return 0;
	return vfio_dma_rw(&vm->vdev, iova, buf, len, write);
}

static int fe_dma_read_hot(void *fe, u64 iova, void *buf, size_t len)
{
	return fe_dma_hot(fe, iova, buf, len, false);
}

static int fe_dma_write_hot(void *fe, u64 iova, const void *buf, size_t len)
{
	return fe_dma_hot(fe, iova, (void *)buf, len, true);
}

/*
 * Several hot pieces in one call (a small RPC: two). In order: a read
 * barrier between reads (the queue header before the slot it names), a
 * write barrier between writes (the reply before its pointer).
 */
VGSP_HOT int vgsp_mdev_dma_hot_v(void *fe, const struct vgsp_dma_seg *seg,
				 unsigned int n, bool write)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		/* pairs with the guest's ordering of slot and pointer */
		if (i && write)
			smp_wmb();	/* the reply before its pointer */
		else if (i)
			smp_rmb();	/* the pointer before the slot */
		ret = fe_dma_hot(fe, seg[i].iova, seg[i].buf, seg[i].len,
				 write);
		if (ret)
			return ret;
	}
	return 0;
}

const struct vgsp_fe_ops vgsp_linux_fe_ops = {
	.dma_read = fe_dma_read,
	.dma_write = fe_dma_write,
	.dma_read_hot = fe_dma_read_hot,
	.dma_write_hot = fe_dma_write_hot,
	.dma_hot_v = vgsp_mdev_dma_hot_v,
	.irq_signal = vgsp_irq_signal,
};

/* bar1_mmap=1: the core can drop BAR1's mappings (vgsp_bar1.c). */
const struct vgsp_fe_ops vgsp_linux_fe_ops_bar1 = {
	.dma_read = fe_dma_read,
	.dma_write = fe_dma_write,
	.dma_read_hot = fe_dma_read_hot,
	.dma_write_hot = fe_dma_write_hot,
	.dma_hot_v = vgsp_mdev_dma_hot_v,
	.irq_signal = vgsp_irq_signal,
	.bar1_zap = vgsp_bar1_zap,
};

static u64 region_size(struct vgsp_mdev *vm, unsigned int index)
{
	if (index == VFIO_PCI_CONFIG_REGION_INDEX)
		return VGSP_CFG_SIZE;
	if (index <= VFIO_PCI_BAR5_REGION_INDEX)
		return vgsp_dev_bar_size(vm->core, index);
	return 0;
}

static void count_bad(struct vgsp_mdev *vm, bool ioctl)
{
	vgsp_dev_lock(vm->core);
	if (ioctl)
		vm->core->cnt.ioctl_bad++;
	else
		vm->core->cnt.region_bad++;
	vgsp_dev_unlock(vm->core);
}

/*
 * One region access. Config space takes any length inside it (QEMU reads
 * it whole); BARs take 1, 2, 4 or 8 bytes.
 */
static ssize_t region_rw(struct vgsp_mdev *vm, char __user *ubuf,
			 size_t count, loff_t *ppos, bool write)
{
	u64 pos = *ppos;
	unsigned int index;
	u64 off;
	u8 small[8];
	u8 *buf = small;
	int ret;

	if (vgsp_bar1_owns(vm, pos))	/* BAR1's tagged offset */
		pos -= vgsp_bar1_offset(vm) - VGSP_REGION_OFF(VFIO_PCI_BAR1_REGION_INDEX);
	index = pos >> VGSP_REGION_SHIFT;
	off = pos & VGSP_REGION_MASK;
	if (index >= VFIO_PCI_NUM_REGIONS || !region_size(vm, index) ||
	    !count || count > VGSP_CFG_SIZE) {
		count_bad(vm, false);
		return -EINVAL;
	}
	if (index != VFIO_PCI_CONFIG_REGION_INDEX && count > sizeof(small)) {
		count_bad(vm, false);
		return -EINVAL;
	}
	if (count > sizeof(small)) {
		buf = kzalloc(count, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}

	if (write && copy_from_user(buf, ubuf, count)) {
		ret = -EFAULT;
		goto out;
	}
	if (index == VFIO_PCI_CONFIG_REGION_INDEX)
		ret = write ? vgsp_dev_cfg_write(vm->core, off, buf, count) :
			      vgsp_dev_cfg_read(vm->core, off, buf, count);
	else
		ret = write ? vgsp_dev_bar_write(vm->core, index, off, buf,
						 count) :
			      vgsp_dev_bar_read(vm->core, index, off, buf,
						count);
	if (!ret && !write && copy_to_user(ubuf, buf, count))
		ret = -EFAULT;
out:
	if (buf != small)
		kfree(buf);
	if (ret)
		return ret;
	*ppos += count;
	return count;
}

static ssize_t vgsp_read(struct vfio_device *vdev, char __user *buf,
			 size_t count, loff_t *ppos)
{
	return region_rw(to_vgsp(vdev), buf, count, ppos, false);
}

static ssize_t vgsp_write(struct vfio_device *vdev, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	return region_rw(to_vgsp(vdev), (char __user *)buf, count, ppos, true);
}

static long get_device_info(struct vgsp_mdev *vm, unsigned long arg)
{
	unsigned long minsz = offsetofend(struct vfio_device_info, num_irqs);
	struct vfio_device_info info;

	if (copy_from_user(&info, (void __user *)arg, minsz))
		return -EFAULT;
	if (info.argsz < minsz)
		return -EINVAL;
	info.flags = VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET;
	info.num_regions = VFIO_PCI_NUM_REGIONS;
	info.num_irqs = VFIO_PCI_NUM_IRQS;
	return copy_to_user((void __user *)arg, &info, minsz) ? -EFAULT : 0;
}

/* REGION_INFO with the sparse-mmap capability: one area from offset 0. */
struct region_info_mmap {
	struct vfio_region_info info;
	struct vfio_region_info_cap_sparse_mmap cap;
	struct vfio_region_sparse_mmap_area area;
};

static long get_region_info(struct vgsp_mdev *vm, unsigned long arg)
{
	unsigned long minsz = offsetofend(struct vfio_region_info, offset);
	struct region_info_mmap r = { };
	struct vfio_region_info *info = &r.info;
	u64 len;

	if (copy_from_user(info, (void __user *)arg, minsz))
		return -EFAULT;
	if (info->argsz < minsz || info->index >= VFIO_PCI_NUM_REGIONS)
		return -EINVAL;
	info->offset = VGSP_REGION_OFF(info->index);
	info->size = region_size(vm, info->index);
	info->flags = info->size ? VFIO_REGION_INFO_FLAG_READ |
				   VFIO_REGION_INFO_FLAG_WRITE : 0;
	info->cap_offset = 0;
	if (info->index == VFIO_PCI_BAR1_REGION_INDEX && vm->bar1) {
		/* whole BAR1, faulted page by page (vgsp_bar1.c) */
		info->offset = vgsp_bar1_offset(vm);
		info->flags |= VFIO_REGION_INFO_FLAG_MMAP;
		return copy_to_user((void __user *)arg, info, minsz) ?
		       -EFAULT : 0;
	}
	len = vm->bar3_mem ? vgsp_dev_bar_mmap_len(vm->core, info->index) : 0;
	if (!len)
		return copy_to_user((void __user *)arg, info, minsz) ?
		       -EFAULT : 0;
	/* the rest of the BAR traps (the core resyncs on writes there) */
	info->flags |= VFIO_REGION_INFO_FLAG_MMAP | VFIO_REGION_INFO_FLAG_CAPS;
	r.cap.header.id = VFIO_REGION_INFO_CAP_SPARSE_MMAP;
	r.cap.header.version = 1;
	r.cap.nr_areas = 1;
	r.area.offset = 0;
	r.area.size = len;
	if (info->argsz < sizeof(r)) {
		info->argsz = sizeof(r);	/* ask again with room */
		return copy_to_user((void __user *)arg, info, minsz) ?
		       -EFAULT : 0;
	}
	info->argsz = sizeof(r);
	info->cap_offset = offsetof(struct region_info_mmap, cap);
	return copy_to_user((void __user *)arg, &r, sizeof(r)) ? -EFAULT : 0;
}

/*
 * BAR3's mapped part: the instance's bar3_mem, a static map (the core
 * moves FB pages under it, mm/bar_share.h), so no fault handler or zap.
 */
static int vgsp_mmap(struct vfio_device *vdev, struct vm_area_struct *vma)
{
	struct vgsp_mdev *vm = to_vgsp(vdev);
	u64 pos = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned int index = pos >> VGSP_REGION_SHIFT;
	u64 off = pos & VGSP_REGION_MASK, size = vma->vm_end - vma->vm_start;
	u64 len;

	if (vgsp_bar1_owns(vm, pos))
		return vgsp_bar1_map_vma(vm, vma);
	if (index >= VFIO_PCI_NUM_REGIONS || !vm->bar3_mem ||
	    index == VFIO_PCI_BAR1_REGION_INDEX)
		return -EINVAL;
	len = vgsp_dev_bar_mmap_len(vm->core, index);
	if (!len || off >= len || size > len - off ||
	    !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	return remap_vmalloc_range(vma, vm->bar3_mem, off >> PAGE_SHIFT);
}

static long vgsp_ioctl(struct vfio_device *vdev, unsigned int cmd,
		       unsigned long arg)
{
	struct vgsp_mdev *vm = to_vgsp(vdev);
	long ret;

	switch (cmd) {
	case VFIO_DEVICE_GET_INFO:
		ret = get_device_info(vm, arg);
		break;
	case VFIO_DEVICE_GET_REGION_INFO:
		ret = get_region_info(vm, arg);
		break;
	case VFIO_DEVICE_GET_IRQ_INFO:
		ret = vgsp_irq_info(vm, arg);
		break;
	case VFIO_DEVICE_SET_IRQS:
		ret = vgsp_set_irqs(vm, arg);
		break;
	case VFIO_DEVICE_RESET:
		vgsp_dev_reset(vm->core);
		if (vm->hostd)
			vgsp_hostd_inst_reset(vm->hostd);
		ret = 0;
		break;
	default:
		ret = -ENOTTY;
		break;
	}
	if (ret && ret != -EFAULT)
		count_bad(vm, true);
	return ret;
}

static int vgsp_open_device(struct vfio_device *vdev)
{
	struct vgsp_mdev *vm = to_vgsp(vdev);

	WRITE_ONCE(vm->open, true);
	if (vm->hostd)
		vgsp_hostd_inst_open(vm->hostd, true);
	vgsp_dev_lock(vm->core);
	vm->core->cnt.opens++;
	vgsp_dev_unlock(vm->core);
	return 0;
}

/* The next user gets a power-on device with no stale interrupt routes. */
static void vgsp_close_device(struct vfio_device *vdev)
{
	struct vgsp_mdev *vm = to_vgsp(vdev);

	vgsp_irqs_release(&vm->irqs);
	vgsp_dev_reset(vm->core);
	WRITE_ONCE(vm->open, false);
	if (vm->hostd)
		vgsp_hostd_inst_open(vm->hostd, false);
	vgsp_dev_lock(vm->core);
	vgsp_pincache_flush(&vm->pins, vdev);
	vm->core->cnt.closes++;
	vgsp_dev_unlock(vm->core);
}

static void vgsp_request(struct vfio_device *vdev, unsigned int count)
{
	struct vgsp_mdev *vm = to_vgsp(vdev);

	if (READ_ONCE(vm->irqs.req)) {
		if (!count)
			dev_notice(&vm->mdev->dev,
				   "asking the user to release the device\n");
		vgsp_irq_request(vm);
	} else if (!count) {
		dev_notice(&vm->mdev->dev,
			   "device is open and has no request IRQ; removal waits for close\n");
	}
}

/*
 * Called with none of vfio's locks held (type1 and iommufd drop theirs
 * before notifying), so the device lock may be taken here, as a BAR trap
 * that pins under it does.
 */
static void vgsp_dma_unmap(struct vfio_device *vdev, u64 iova, u64 length)
{
	struct vgsp_mdev *vm = to_vgsp(vdev);

	vgsp_dev_dma_unmapped(vm->core, iova, length);
	/* vfio requires a pinning driver to let go of the range here */
	vgsp_dev_lock(vm->core);
	vgsp_pincache_unmap(&vm->pins, vdev, iova, length);
	vgsp_dev_unlock(vm->core);
	if (to_vgsp(vdev)->hostd)
		vgsp_hostd_inst_dma_unmapped(to_vgsp(vdev)->hostd, iova, length);
}

/* backend=hostd: refused (fail closed) while no hostd is attached. */
static int hostd_opts(struct vgsp_mdev *vm, struct vgsp_dev_opts *o)
{
	vm->hostd = vgsp_hostd_inst_new(dev_name(&vm->mdev->dev));
	if (IS_ERR(vm->hostd)) {
		int ret = PTR_ERR(vm->hostd);

		vm->hostd = NULL;
		return ret;
	}
	o->backend = &vgsp_backend_ring;
	o->backend_priv = vgsp_hostd_inst_ring(vm->hostd);
	return 0;
}

static int vgsp_init_dev(struct vfio_device *vdev)
{
	struct vgsp_mdev *vm = to_vgsp(vdev);
	struct mdev_device *mdev = to_mdev_device(vdev->dev);
	struct vgsp_dev_opts o = { };
	uuid_t uuid;
	int ret;

	vm->mdev = mdev;
	vm->profile = container_of(mdev->type, struct vgsp_type, type)->profile;
	vgsp_irqs_init(&vm->irqs);
	vgsp_pincache_init(&vm->pins);
	/* dev_name is the UUID string the user wrote; keep its byte order. */
	if (uuid_parse(dev_name(&mdev->dev), &uuid))
		return -EINVAL;
	if (vgsp_backend_hostd) {
		ret = hostd_opts(vm, &o);
		if (ret)
			return ret;
	}
	ret = -ENOMEM;
	if (vgsp_bar3_mmap) {
		vm->bar3_mem = vmalloc_user(VGSP_BAR3_SIZE);
		if (!vm->bar3_mem)
			goto err;
		o.bar3_shared = vm->bar3_mem;
	}
	if (vgsp_bar1_mmap && vgsp_bar1_init(vm))
		goto err;
	vm->core = vgsp_dev_create_opts(vm->profile, uuid.b, vgsp_msix_vectors,
					vm->bar1 ? &vgsp_linux_fe_ops_bar1 :
						   &vgsp_linux_fe_ops,
					vm, &o);
	if (!vm->core)
		goto err;
	vgsp_bar1_bind(vm);
	if (vm->hostd)
		vgsp_hostd_inst_bind(vm->hostd, vm->core, vdev);
	return 0;
err:
	vgsp_bar1_free(vm);
	vfree(vm->bar3_mem);
	vm->bar3_mem = NULL;
	if (vm->hostd)
		vgsp_hostd_inst_free(vm->hostd);
	vm->hostd = NULL;
	return ret;
}

static void vgsp_release_dev(struct vfio_device *vdev)
{
	struct vgsp_mdev *vm = to_vgsp(vdev);

	if (vm->hostd)
		vgsp_hostd_inst_stop(vm->hostd);
	vgsp_dev_destroy(vm->core);
	vm->core = NULL;
	vfree(vm->bar3_mem);	/* pages a mapping still holds outlive this */
	vm->bar3_mem = NULL;
	vgsp_bar1_free(vm);
	if (vm->hostd)
		vgsp_hostd_inst_free(vm->hostd);
	vm->hostd = NULL;
	/* 6.1 only: the struct is ours to free (2 KiB a removal leaked) */
	vgsp_vfio_free_device(vdev);
}

const struct vfio_device_ops vgsp_vfio_ops = {
	.name = "vgsp",
	.init = vgsp_init_dev,
	.release = vgsp_release_dev,
	VGSP_IOMMUFD_OPS
	VGSP_IOMMUFD_DETACH
	.open_device = vgsp_open_device,
	.close_device = vgsp_close_device,
	.read = vgsp_read,
	.write = vgsp_write,
	.ioctl = vgsp_ioctl,
	.mmap = vgsp_mmap,
	.request = vgsp_request,
	.dma_unmap = vgsp_dma_unmap,
};
