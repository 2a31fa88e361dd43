/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mdev/VFIO frontend of vgsp.ko: per-instance state and the pieces
 * shared between its files. The device model itself is the core's.
 */
#ifndef VGSP_DRV_H
#define VGSP_DRV_H

#include <linux/mdev.h>
#include <linux/spinlock.h>
#include <linux/vfio.h>

#include "device.h"
#include "vgsp_pincache.h"

#define VGSP_NAME "vgsp"

/* VFIO region offsets: index in the top bits, as vfio-pci does. */
#define VGSP_REGION_SHIFT	40
#define VGSP_REGION_OFF(i)	((u64)(i) << VGSP_REGION_SHIFT)
#define VGSP_REGION_MASK	(VGSP_REGION_OFF(1) - 1)

enum vgsp_irq_mode {
	VGSP_IRQ_NONE,
	VGSP_IRQ_INTX,
	VGSP_IRQ_MSI,
	VGSP_IRQ_MSIX,
};

struct vgsp_irqs {
	spinlock_t lock;	/* taken from the core with its lock held */
	enum vgsp_irq_mode mode;
	struct eventfd_ctx *intx;
	bool intx_masked, intx_pending;
	struct eventfd_ctx *msi;
	struct eventfd_ctx *msix[VGSP_MSIX_MAX];
	struct eventfd_ctx *req;
};

/* One mdev type per profile. */
struct vgsp_type {
	struct mdev_type type;
	const struct vgsp_profile *profile;
};

struct vgsp_mdev {
	struct vfio_device vdev;
	struct mdev_device *mdev;
	const struct vgsp_profile *profile;
	struct vgsp_dev *core;
	struct vgsp_hostd_inst *hostd;	/* backend=hostd only */
	void *bar3_mem;			/* BAR3 the user maps (bar3_mmap=1) */
	struct vgsp_bar1 *bar1;		/* BAR1 the user maps (bar1_mmap=1) */
	struct vgsp_irqs irqs;
	struct vgsp_pincache pins;	/* the GSP queues' pages */
	bool open;
	struct dentry *dbg_dir;
	struct vgsp_dbg_file *dbg_files;
};

static inline struct vgsp_mdev *to_vgsp(struct vfio_device *vdev)
{
	return container_of(vdev, struct vgsp_mdev, vdev);
}

/* Module parameters, validated at load (vgsp_main.c). */
extern unsigned int vgsp_msix_vectors;
extern bool vgsp_backend_hostd;
extern bool vgsp_bar3_mmap;
extern bool vgsp_bar1_mmap;
extern bool vgsp_pin_queues;

/* vgsp_hostd.c: /dev/vgsp-hostd and each instance's ring (backend=hostd) */
struct vgsp_hostd_inst;
struct vgsp_ring_be;
int vgsp_hostd_init(void);
void vgsp_hostd_exit(void);
/* ERR_PTR(-ENODEV) when no hostd is attached (logged, naming @who) */
struct vgsp_hostd_inst *vgsp_hostd_inst_new(const char *who);
struct vgsp_ring_be *vgsp_hostd_inst_ring(struct vgsp_hostd_inst *in);
void vgsp_hostd_inst_bind(struct vgsp_hostd_inst *in, struct vgsp_dev *dev,
			  struct vfio_device *vdev);
/* hostd's view of the guest RAM follows the device (vgsp_hostd_view.c) */
void vgsp_hostd_inst_open(struct vgsp_hostd_inst *in, bool open);
void vgsp_hostd_inst_reset(struct vgsp_hostd_inst *in);
void vgsp_hostd_inst_dma_unmapped(struct vgsp_hostd_inst *in, u64 iova,
				  u64 len);
void vgsp_hostd_inst_stop(struct vgsp_hostd_inst *in);
void vgsp_hostd_inst_free(struct vgsp_hostd_inst *in);

/* vgsp_irq.c */
void vgsp_irqs_init(struct vgsp_irqs *irqs);
void vgsp_irqs_release(struct vgsp_irqs *irqs);
int vgsp_irq_info(struct vgsp_mdev *vm, unsigned long arg);
int vgsp_set_irqs(struct vgsp_mdev *vm, unsigned long arg);
bool vgsp_irq_signal(void *fe, unsigned int vector);
void vgsp_irq_request(struct vgsp_mdev *vm);
const char *vgsp_irq_mode_name(struct vgsp_mdev *vm);

/* vgsp_vfio.c */
extern const struct vfio_device_ops vgsp_vfio_ops;
extern const struct vgsp_fe_ops vgsp_linux_fe_ops;
extern const struct vgsp_fe_ops vgsp_linux_fe_ops_bar1;

/* vgsp_bar1.c: BAR1 mapped by the user, page faults and zaps */
struct vgsp_bar1;
struct vm_area_struct;
int vgsp_bar1_init(struct vgsp_mdev *vm);
void vgsp_bar1_bind(struct vgsp_mdev *vm);
void vgsp_bar1_free(struct vgsp_mdev *vm);
u64 vgsp_bar1_offset(struct vgsp_mdev *vm);
bool vgsp_bar1_owns(struct vgsp_mdev *vm, u64 pos);
int vgsp_bar1_map_vma(struct vgsp_mdev *vm, struct vm_area_struct *vma);
void vgsp_bar1_zap(void *fe, bool doorbells);

/* vgsp_os_linux.c */
extern const struct vgsp_os_ops vgsp_linux_os_ops;

/* vgsp_trace.c: the core's trace hook as TRACE_EVENTs (vgsp_trace.h) */
void vgsp_linux_trace(const struct vgsp_trace_rec *rec);
extern int vgsp_trace_live;	/* vgsp events with a listener (vgsp_trace.c) */

/* vgsp_debugfs.c */
int vgsp_debugfs_init(void);
void vgsp_debugfs_exit(void);
void vgsp_debugfs_add(struct vgsp_mdev *vm);
void vgsp_debugfs_remove(struct vgsp_mdev *vm);

/* vgsp_main.c: module-wide accounting shown in the summary view. */
struct seq_file;
void vgsp_summary_show(struct seq_file *s);

#endif /* VGSP_DRV_H */
