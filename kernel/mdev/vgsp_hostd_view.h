/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hostd's view of one instance's guest RAM: /dev/vgsp-hostd mapped at
 * VGSP_HR_VIEW_OFF(id), pages pinned through VFIO on fault (see
 * vgsp_hostd_view.c).
 */
#ifndef VGSP_HOSTD_VIEW_H
#define VGSP_HOSTD_VIEW_H

#include <linux/types.h>

struct vgsp_hostd_view;
struct vfio_device;
struct vm_area_struct;
struct seq_file;

/* The view of instance @id: no device yet, nothing pinned. */
struct vgsp_hostd_view *vgsp_view_new(u32 id);
/* The instance's VFIO device (pins go through it once it is open). */
void vgsp_view_bind(struct vgsp_hostd_view *v, struct vfio_device *vdev);
/* The VMM opened or closed the device; closed: nothing stays pinned. */
void vgsp_view_set_open(struct vgsp_hostd_view *v, bool open);
/* The VMM unmapped [iova, iova + len): out of hostd's mapping, unpinned. */
void vgsp_view_unmapped(struct vgsp_hostd_view *v, u64 iova, u64 len);
/* Zap and unpin everything (hostd gone, device reset). */
void vgsp_view_release(struct vgsp_hostd_view *v);
/* The instance goes: released, later faults refused, reference dropped. */
void vgsp_view_kill(struct vgsp_hostd_view *v);
/* hostd maps the view (the caller checked the owner and the instance). */
int vgsp_view_mmap(struct vgsp_hostd_view *v, struct vm_area_struct *vma);
/* " pinned N faults N zaps N refused N evictions N" */
void vgsp_view_show(struct vgsp_hostd_view *v, struct seq_file *s);

#endif /* VGSP_HOSTD_VIEW_H */
