/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Version-neutral RM objects that give device meaning to what an ABI
 * decodes: VA spaces (their page-directory roots), TSGs (their VA space)
 * and, through fifo/, channels. An ABI directory (abi/r535, later r550)
 * decodes the wire structs and calls these; nothing here knows a struct
 * layout or a function number.
 */
#ifndef VGSP_RM_H
#define VGSP_RM_H

#include "../device.h"
#include "../mm/mm.h"

struct vgsp_chan;

#define VGSP_RM_MAX_VAS		64
#define VGSP_RM_MAX_TSG		64
#define VGSP_RM_MAX_DEVICES	32

int vgsp_rm_create(struct vgsp_dev *dev);
void vgsp_rm_destroy(struct vgsp_dev *dev);
/* GSP-RM's objects are gone (GSP reset): forget every VA space. */
void vgsp_rm_reset(struct vgsp_dev *dev);

/*
 * A FERMI_VASPACE_A under device @hdevice. @device_ref: the alloc names the
 * device's default VA space (index GPU_DEVICE) rather than creating one,
 * so the root it learns outlives this handle.
 */
int vgsp_rm_vas_alloc(struct vgsp_dev *dev, u32 client, u32 hdevice,
		      u32 handle, bool device_ref);
/* @handle duplicates VA space (src_client, src_handle): same root. */
int vgsp_rm_vas_dup(struct vgsp_dev *dev, u32 client, u32 hdevice,
		    u32 handle, u32 src_client, u32 src_handle);
/* The root of VA space @handle (COPY_SERVER_RESERVED_PDES level 0). */
void vgsp_rm_vas_set_root(struct vgsp_dev *dev, u32 client, u32 handle,
			  u64 pa, enum vgsp_mem_target target);
/* SET_PAGE_DIRECTORY: VA space @hvas (0: the device default) moves. */
int vgsp_rm_vas_set_pd(struct vgsp_dev *dev, u32 client, u32 hdevice,
		       u32 hvas, u64 pa, enum vgsp_mem_target target);
int vgsp_rm_tsg_alloc(struct vgsp_dev *dev, u32 client, u32 handle,
		      u32 hvas, u32 engine_type);
/* The engine type a TSG was created for (0 if none or not a TSG). */
u32 vgsp_rm_tsg_engine(struct vgsp_dev *dev, u32 client, u32 handle);
/*
 * TSGs and subcontexts (FERMI_CONTEXT_SHARE_A) share one table: each names
 * the VA space its channels run in.
 */
/* The VA space a TSG or subcontext was created with (0 if none). */
u32 vgsp_rm_tsg_vas(struct vgsp_dev *dev, u32 client, u32 handle);
/* The device object above @handle (0 if none). */
u32 vgsp_rm_device_of(struct vgsp_dev *dev, u32 client, u32 handle);
/*
 * The tables are bounded (VGSP_RM_MAX_*): an alloc past them returns
 * -ENOSPC (counted in vas_refused) and the RM object is refused too.
 */
/* After a FREE in @client: its entries whose objects are gone go too. */
void vgsp_rm_prune(struct vgsp_dev *dev, u32 client);
/* The address space @ch runs in; false while its root is unknown. */
bool vgsp_rm_chan_vm(struct vgsp_dev *dev, const struct vgsp_chan *ch,
		     struct vgsp_vm *vm);

struct vgsp_printer;
/* The "vaspaces" view. */
void vgsp_rm_show_vaspaces(struct vgsp_dev *dev, struct vgsp_printer *p);

#endif /* VGSP_RM_H */
