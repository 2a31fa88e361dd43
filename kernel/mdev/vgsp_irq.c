// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupt delivery for one instance: VFIO_DEVICE_GET_IRQ_INFO and
 * VFIO_DEVICE_SET_IRQS with eventfd triggers for INTx (auto-masked, level
 * semantics through a pending flag), MSI, MSI-X and the device request
 * IRQ. Mode changes follow vfio-pci: a mode must be disabled before
 * another is enabled.
 */
#include <linux/eventfd.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vgsp_compat.h"
#include "vgsp_drv.h"

void vgsp_irqs_init(struct vgsp_irqs *irqs)
{
	memset(irqs, 0, sizeof(*irqs));
	spin_lock_init(&irqs->lock);
}

static void put_ctx(struct eventfd_ctx *ctx)
{
	if (ctx)
		eventfd_ctx_put(ctx);
}

/* Drop every trigger (close, reset of the fd's owner). */
void vgsp_irqs_release(struct vgsp_irqs *irqs)
{
	struct eventfd_ctx *old[VGSP_MSIX_MAX + 3];
	unsigned long flags;
	unsigned int i, n = 0;

	spin_lock_irqsave(&irqs->lock, flags);
	old[n++] = irqs->intx;
	old[n++] = irqs->msi;
	old[n++] = irqs->req;
	for (i = 0; i < VGSP_MSIX_MAX; i++) {
		old[n++] = irqs->msix[i];
		irqs->msix[i] = NULL;
	}
	irqs->intx = NULL;
	irqs->msi = NULL;
	irqs->req = NULL;
	irqs->mode = VGSP_IRQ_NONE;
	irqs->intx_masked = false;
	irqs->intx_pending = false;
	spin_unlock_irqrestore(&irqs->lock, flags);
	for (i = 0; i < n; i++)
		put_ctx(old[i]);
}

const char *vgsp_irq_mode_name(struct vgsp_mdev *vm)
{
	static const char * const names[] = { "none", "intx", "msi", "msix" };

	return names[READ_ONCE(vm->irqs.mode)];
}

static unsigned int vgsp_irq_count(unsigned int index)
{
	switch (index) {
	case VFIO_PCI_INTX_IRQ_INDEX:
	case VFIO_PCI_MSI_IRQ_INDEX:
	case VFIO_PCI_REQ_IRQ_INDEX:
		return 1;
	case VFIO_PCI_MSIX_IRQ_INDEX:
		return vgsp_msix_vectors;
	default:
		return 0;
	}
}

int vgsp_irq_info(struct vgsp_mdev *vm, unsigned long arg)
{
	struct vfio_irq_info info;
	unsigned long minsz = offsetofend(struct vfio_irq_info, count);

	if (copy_from_user(&info, (void __user *)arg, minsz))
		return -EFAULT;
	if (info.argsz < minsz || info.index >= VFIO_PCI_NUM_IRQS)
		return -EINVAL;

	info.flags = VFIO_IRQ_INFO_EVENTFD;
	switch (info.index) {
	case VFIO_PCI_INTX_IRQ_INDEX:
		info.flags |= VFIO_IRQ_INFO_MASKABLE | VFIO_IRQ_INFO_AUTOMASKED;
		break;
	case VFIO_PCI_MSI_IRQ_INDEX:
	case VFIO_PCI_MSIX_IRQ_INDEX:
		info.flags |= VFIO_IRQ_INFO_NORESIZE;
		break;
	default:
		break;
	}
	info.count = vgsp_irq_count(info.index);
	return copy_to_user((void __user *)arg, &info, minsz) ? -EFAULT : 0;
}

/* Called by the core (its lock held) to deliver @vector. */
bool vgsp_irq_signal(void *fe, unsigned int vector)
{
	struct vgsp_mdev *vm = fe;
	struct vgsp_irqs *irqs = &vm->irqs;
	struct eventfd_ctx *ctx = NULL;
	unsigned long flags;

	spin_lock_irqsave(&irqs->lock, flags);
	switch (irqs->mode) {
	case VGSP_IRQ_MSIX:
		if (vector < vgsp_msix_vectors)
			ctx = irqs->msix[vector];
		break;
	case VGSP_IRQ_MSI:
		ctx = irqs->msi;
		break;
	case VGSP_IRQ_INTX:
		/* Level-triggered: a masked line stays pending. */
		if (irqs->intx_masked) {
			irqs->intx_pending = true;
		} else {
			ctx = irqs->intx;
			irqs->intx_masked = true;
		}
		break;
	default:
		break;
	}
	if (ctx)
		vgsp_eventfd_signal(ctx);
	spin_unlock_irqrestore(&irqs->lock, flags);
	return !!ctx;
}

void vgsp_irq_request(struct vgsp_mdev *vm)
{
	unsigned long flags;

	spin_lock_irqsave(&vm->irqs.lock, flags);
	if (vm->irqs.req)
		vgsp_eventfd_signal(vm->irqs.req);
	spin_unlock_irqrestore(&vm->irqs.lock, flags);
}

static struct eventfd_ctx *ctx_from_fd(s32 fd)
{
	return fd < 0 ? NULL : eventfd_ctx_fdget(fd);
}

static int intx_set(struct vgsp_irqs *irqs, struct vfio_irq_set *hdr,
		    void *data)
{
	struct eventfd_ctx *ctx = NULL, *old = NULL;
	u32 type = hdr->flags & VFIO_IRQ_SET_DATA_TYPE_MASK;
	u32 action = hdr->flags & VFIO_IRQ_SET_ACTION_TYPE_MASK;
	bool fire;
	unsigned long flags;

	if (hdr->count > 1 || (hdr->count && hdr->start))
		return -EINVAL;
	fire = hdr->count && (type == VFIO_IRQ_SET_DATA_NONE ||
			      (type == VFIO_IRQ_SET_DATA_BOOL && *(u8 *)data));

	if (action == VFIO_IRQ_SET_ACTION_TRIGGER && hdr->count &&
	    type == VFIO_IRQ_SET_DATA_EVENTFD) {
		ctx = ctx_from_fd(*(s32 *)data);
		if (IS_ERR(ctx))
			return PTR_ERR(ctx);
	}

	spin_lock_irqsave(&irqs->lock, flags);
	if (irqs->mode != VGSP_IRQ_NONE && irqs->mode != VGSP_IRQ_INTX) {
		spin_unlock_irqrestore(&irqs->lock, flags);
		if (!IS_ERR_OR_NULL(ctx))
			eventfd_ctx_put(ctx);
		return -EINVAL;
	}
	switch (action) {
	case VFIO_IRQ_SET_ACTION_MASK:
		if (fire)
			irqs->intx_masked = true;
		break;
	case VFIO_IRQ_SET_ACTION_UNMASK:
		if (fire) {
			irqs->intx_masked = false;
			if (irqs->intx_pending && irqs->intx) {
				irqs->intx_pending = false;
				irqs->intx_masked = true;
				vgsp_eventfd_signal(irqs->intx);
			}
		}
		break;
	case VFIO_IRQ_SET_ACTION_TRIGGER:
		if (!hdr->count) {		/* disable */
			old = irqs->intx;
			irqs->intx = NULL;
			irqs->mode = VGSP_IRQ_NONE;
			irqs->intx_masked = false;
			irqs->intx_pending = false;
		} else if (type == VFIO_IRQ_SET_DATA_EVENTFD) {
			old = irqs->intx;
			irqs->intx = ctx;
			irqs->mode = ctx ? VGSP_IRQ_INTX : VGSP_IRQ_NONE;
			irqs->intx_masked = false;
			irqs->intx_pending = false;
		} else if (fire && irqs->intx) {	/* loopback test */
			vgsp_eventfd_signal(irqs->intx);
		}
		break;
	}
	spin_unlock_irqrestore(&irqs->lock, flags);
	put_ctx(old);
	return 0;
}

static int msi_set(struct vgsp_irqs *irqs, struct vfio_irq_set *hdr,
		   void *data, bool msix)
{
	enum vgsp_irq_mode mode = msix ? VGSP_IRQ_MSIX : VGSP_IRQ_MSI;
	struct eventfd_ctx **slots = msix ? irqs->msix : &irqs->msi;
	struct eventfd_ctx *ctx[VGSP_MSIX_MAX] = {}, *old[VGSP_MSIX_MAX] = {};
	u32 type = hdr->flags & VFIO_IRQ_SET_DATA_TYPE_MASK;
	unsigned int n = msix ? vgsp_msix_vectors : 1;
	unsigned long flags;
	unsigned int i;
	int ret = 0;

	/* vfio-pci has no per-vector MASK/UNMASK for MSI/MSI-X either. */
	if ((hdr->flags & VFIO_IRQ_SET_ACTION_TYPE_MASK) !=
	    VFIO_IRQ_SET_ACTION_TRIGGER)
		return -EINVAL;

	if (type == VFIO_IRQ_SET_DATA_EVENTFD) {
		s32 *fds = data;

		for (i = 0; i < hdr->count; i++) {
			ctx[i] = ctx_from_fd(fds[i]);
			if (IS_ERR(ctx[i])) {
				ret = PTR_ERR(ctx[i]);
				ctx[i] = NULL;
				goto put_new;
			}
		}
	}

	spin_lock_irqsave(&irqs->lock, flags);
	if (irqs->mode != VGSP_IRQ_NONE && irqs->mode != mode) {
		spin_unlock_irqrestore(&irqs->lock, flags);
		ret = -EINVAL;
		goto put_new;
	}
	if (!hdr->count) {			/* disable all */
		for (i = 0; i < n; i++) {
			old[i] = slots[i];
			slots[i] = NULL;
		}
		irqs->mode = VGSP_IRQ_NONE;
	} else if (type == VFIO_IRQ_SET_DATA_EVENTFD) {
		bool any = false;

		for (i = 0; i < hdr->count; i++) {
			old[i] = slots[hdr->start + i];
			slots[hdr->start + i] = ctx[i];
			ctx[i] = NULL;
		}
		for (i = 0; i < n; i++)
			any |= !!slots[i];
		irqs->mode = any ? mode : VGSP_IRQ_NONE;
	} else {				/* loopback test */
		u8 *bools = data;

		for (i = 0; i < hdr->count; i++) {
			struct eventfd_ctx *c = slots[hdr->start + i];

			if (c && (type == VFIO_IRQ_SET_DATA_NONE || bools[i]))
				vgsp_eventfd_signal(c);
		}
	}
	spin_unlock_irqrestore(&irqs->lock, flags);
	for (i = 0; i < VGSP_MSIX_MAX; i++)
		put_ctx(old[i]);
	return 0;

put_new:
	for (i = 0; i < VGSP_MSIX_MAX; i++)
		put_ctx(ctx[i]);
	return ret;
}

static int req_set(struct vgsp_irqs *irqs, struct vfio_irq_set *hdr,
		   void *data)
{
	u32 type = hdr->flags & VFIO_IRQ_SET_DATA_TYPE_MASK;
	struct eventfd_ctx *ctx = NULL, *old;
	unsigned long flags;

	if ((hdr->flags & VFIO_IRQ_SET_ACTION_TYPE_MASK) !=
	    VFIO_IRQ_SET_ACTION_TRIGGER)
		return -EINVAL;
	if (hdr->count && type != VFIO_IRQ_SET_DATA_EVENTFD) {
		vgsp_irq_request(container_of(irqs, struct vgsp_mdev, irqs));
		return 0;
	}
	if (hdr->count) {
		ctx = ctx_from_fd(*(s32 *)data);
		if (IS_ERR(ctx))
			return PTR_ERR(ctx);
	}
	spin_lock_irqsave(&irqs->lock, flags);
	old = irqs->req;
	irqs->req = ctx;
	spin_unlock_irqrestore(&irqs->lock, flags);
	put_ctx(old);
	return 0;
}

int vgsp_set_irqs(struct vgsp_mdev *vm, unsigned long arg)
{
	unsigned long minsz = offsetofend(struct vfio_irq_set, count);
	struct vfio_irq_set hdr;
	size_t data_size = 0;
	void *data = NULL;
	int ret;

	if (copy_from_user(&hdr, (void __user *)arg, minsz))
		return -EFAULT;
	if (hdr.index >= VFIO_PCI_NUM_IRQS)
		return -EINVAL;
	ret = vfio_set_irqs_validate_and_prepare(&hdr, vgsp_irq_count(hdr.index),
						 VFIO_PCI_NUM_IRQS,
						 &data_size);
	if (ret)
		return ret;
	if (data_size) {
		data = memdup_user((void __user *)(arg + minsz), data_size);
		if (IS_ERR(data))
			return PTR_ERR(data);
	}

	switch (hdr.index) {
	case VFIO_PCI_INTX_IRQ_INDEX:
		ret = intx_set(&vm->irqs, &hdr, data);
		break;
	case VFIO_PCI_MSI_IRQ_INDEX:
		ret = msi_set(&vm->irqs, &hdr, data, false);
		break;
	case VFIO_PCI_MSIX_IRQ_INDEX:
		ret = msi_set(&vm->irqs, &hdr, data, true);
		break;
	case VFIO_PCI_REQ_IRQ_INDEX:
		ret = req_set(&vm->irqs, &hdr, data);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	kfree(data);
	return ret;
}
