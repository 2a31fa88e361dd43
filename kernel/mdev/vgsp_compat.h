/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference vgsp.ko cares about, in one place.
 * Supported: 6.1 (bookworm) and 6.12 (bookworm-backports), booted in the
 * VM suites; the newest kernel Debian ships (7.x today) is a compile check.
 */
#ifndef VGSP_COMPAT_H
#define VGSP_COMPAT_H

#include <linux/version.h>
#include <linux/eventfd.h>
#include <linux/mm.h>
#include <linux/vfio.h>

/* 6.8 dropped eventfd_signal()'s counter argument. */
static inline void vgsp_eventfd_signal(struct eventfd_ctx *ctx)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	eventfd_signal(ctx);
#else
	eventfd_signal(ctx, 1);
#endif
}

/* 6.4 removed struct class's owner field. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define VGSP_CLASS_OWNER
#else
#define VGSP_CLASS_OWNER .owner = THIS_MODULE,
#endif

/*
 * 6.2 added iommufd binding ops; emulated-IOMMU devices use the
 * vfio_iommufd_emulated_* helpers (NULL stubs when IOMMUFD is off).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define VGSP_IOMMUFD_OPS						\
	.bind_iommufd = vfio_iommufd_emulated_bind,			\
	.unbind_iommufd = vfio_iommufd_emulated_unbind,			\
	.attach_ioas = vfio_iommufd_emulated_attach_ioas,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define VGSP_IOMMUFD_DETACH .detach_ioas = vfio_iommufd_emulated_detach_ioas,
#else
#define VGSP_IOMMUFD_DETACH
#endif
#else
#define VGSP_IOMMUFD_OPS
#define VGSP_IOMMUFD_DETACH
#endif

/*
 * 6.1: a driver that allocates with vfio_alloc_device() frees the device
 * in its @release op (vfio_free_device()); 6.2 moved the free into the
 * vfio core and removed vfio_free_device().
 */
static inline void vgsp_vfio_free_device(struct vfio_device *vdev)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
	vfio_free_device(vdev);
#endif
}

/*
 * 6.13 made a symbol namespace a string literal: MODULE_IMPORT_NS("IOMMUFD")
 * (before: MODULE_IMPORT_NS(IOMMUFD), stringified by the macro).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define VGSP_NS(ns) #ns
#else
#define VGSP_NS(ns) ns
#endif

/* 6.10: __assign_str() takes the field only (its source is __string's). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define vgsp_assign_str(dst, src) __assign_str(dst)
#else
#define vgsp_assign_str(dst, src) __assign_str(dst, src)
#endif

/* 6.3 made vma->vm_flags read-only: vm_flags_set() writes it. */
static inline void vgsp_vm_flags_set(struct vm_area_struct *vma,
				     unsigned long flags)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/* 7.1 renamed zap_vma_ptes() (a VM_PFNMAP range's PTEs) to zap_special_vma_range(). */
static inline void vgsp_zap_pfn_range(struct vm_area_struct *vma,
				      unsigned long address, unsigned long size)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 1, 0)
	zap_special_vma_range(vma, address, size);
#else
	zap_vma_ptes(vma, address, size);
#endif
}

#endif /* VGSP_COMPAT_H */
