// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Interrupt triggers and delivery over eventfds (see irq.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "irq.h"

void vfu_irqs_init(struct vfu_irqs *q, unsigned int msix_vectors)
{
	unsigned int i;

	memset(q, 0, sizeof(*q));
	pthread_mutex_init(&q->lock, NULL);
	q->fd_intx = q->fd_msi = q->fd_req = -1;
	for (i = 0; i < VFU_MSIX_MAX; i++)
		q->fd_msix[i] = -1;
	if (msix_vectors > VFU_MSIX_MAX)
		msix_vectors = VFU_MSIX_MAX;
	q->count[VFU_IRQ_INTX] = 1;
	q->count[VFU_IRQ_MSI] = 1;
	q->count[VFU_IRQ_MSIX] = msix_vectors;
	q->count[VFU_IRQ_ERR] = 0;
	q->count[VFU_IRQ_REQ] = 1;
}

uint32_t vfu_irq_info_flags(unsigned int index)
{
	switch (index) {
	case VFU_IRQ_INTX:
		return VFU_IRQ_INFO_EVENTFD | VFU_IRQ_INFO_MASKABLE |
		       VFU_IRQ_INFO_AUTOMASKED;
	case VFU_IRQ_MSI:
	case VFU_IRQ_MSIX:
		return VFU_IRQ_INFO_EVENTFD | VFU_IRQ_INFO_NORESIZE;
	case VFU_IRQ_REQ:
		return VFU_IRQ_INFO_EVENTFD;
	default:
		return 0;
	}
}

static int *slot(struct vfu_irqs *q, unsigned int index, unsigned int i)
{
	switch (index) {
	case VFU_IRQ_INTX: return &q->fd_intx;
	case VFU_IRQ_MSI: return &q->fd_msi;
	case VFU_IRQ_MSIX: return &q->fd_msix[i];
	case VFU_IRQ_REQ: return &q->fd_req;
	default: return NULL;
	}
}

static void put_fd(int *s, int fd)
{
	if (*s >= 0)
		close(*s);
	*s = fd;
}

static bool fire(int fd)
{
	uint64_t one = 1;

	return fd >= 0 && write(fd, &one, sizeof(one)) == sizeof(one);
}

/* Trigger from the client side (DATA_NONE/BOOL TRIGGER) or from the core. */
static bool trigger(struct vfu_irqs *q, unsigned int index, unsigned int i)
{
	if (index == VFU_IRQ_INTX) {
		if (q->intx_masked) {
			q->intx_pending = true;
			return false;
		}
		if (!fire(q->fd_intx))
			return false;
		q->intx_masked = true;
		return true;
	}
	return fire(*slot(q, index, i));
}

static void close_fds(int *fds, unsigned int nfds)
{
	unsigned int i;

	for (i = 0; i < nfds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

int vfu_irqs_set(struct vfu_irqs *q, const struct vfu_irq_set *s,
		 const uint8_t *bools, int *fds, unsigned int nfds)
{
	uint32_t data = s->flags & VFU_IRQ_SET_DATA_MASK;
	uint32_t action = s->flags & VFU_IRQ_SET_ACTION_MASK_ALL;
	unsigned int i;
	int ret = 0;

	if (s->index >= VFU_NUM_IRQS) {
		close_fds(fds, nfds);
		return -EINVAL;
	}
	pthread_mutex_lock(&q->lock);
	if (s->count == 0) {
		/* count 0 + DATA_NONE + TRIGGER: disable the whole index. */
		if (data == VFU_IRQ_SET_DATA_NONE &&
		    action == VFU_IRQ_SET_ACTION_TRIGGER) {
			for (i = 0; i < q->count[s->index]; i++)
				put_fd(slot(q, s->index, i), -1);
			if (s->index == VFU_IRQ_INTX)
				q->intx_masked = q->intx_pending = false;
		} else if (data != VFU_IRQ_SET_DATA_NONE) {
			ret = -EINVAL;
		}
		goto out;
	}
	if (s->start >= q->count[s->index] ||
	    s->count > q->count[s->index] - s->start) {
		ret = -EINVAL;
		goto out;
	}
	if (action != VFU_IRQ_SET_ACTION_TRIGGER) {
		/* Only INTx masks; we have no use for mask/unmask eventfds. */
		if (s->index != VFU_IRQ_INTX || data == VFU_IRQ_SET_DATA_EVENTFD) {
			ret = -EINVAL;
			goto out;
		}
		if (data == VFU_IRQ_SET_DATA_BOOL && !bools[0])
			goto out;
		if (action == VFU_IRQ_SET_ACTION_MASK) {
			q->intx_masked = true;
		} else {
			q->intx_masked = false;
			if (q->intx_pending) {
				q->intx_pending = false;
				trigger(q, VFU_IRQ_INTX, 0);
			}
		}
		goto out;
	}
	for (i = 0; i < s->count; i++) {
		unsigned int v = s->start + i;

		if (data == VFU_IRQ_SET_DATA_EVENTFD) {
			put_fd(slot(q, s->index, v), nfds ? fds[i] : -1);
			if (nfds)
				fds[i] = -1;	/* now owned by the table */
		} else if (data == VFU_IRQ_SET_DATA_NONE || bools[i]) {
			trigger(q, s->index, v);
		}
	}
out:
	pthread_mutex_unlock(&q->lock);
	close_fds(fds, nfds);
	return ret;
}

static unsigned int mode(struct vfu_irqs *q)
{
	unsigned int i;

	for (i = 0; i < q->count[VFU_IRQ_MSIX]; i++)
		if (q->fd_msix[i] >= 0)
			return VFU_IRQ_MSIX;
	if (q->fd_msi >= 0)
		return VFU_IRQ_MSI;
	if (q->fd_intx >= 0)
		return VFU_IRQ_INTX;
	return VFU_NUM_IRQS;
}

bool vfu_irqs_signal(struct vfu_irqs *q, unsigned int vector)
{
	bool ok = false;
	unsigned int m;

	pthread_mutex_lock(&q->lock);
	m = mode(q);
	if (m == VFU_IRQ_MSIX && vector < q->count[VFU_IRQ_MSIX])
		ok = trigger(q, m, vector);
	else if ((m == VFU_IRQ_MSI || m == VFU_IRQ_INTX) && vector == 0)
		ok = trigger(q, m, 0);
	if (ok)
		q->signalled++;
	else
		q->suppressed++;
	pthread_mutex_unlock(&q->lock);
	return ok;
}

void vfu_irqs_close_all(struct vfu_irqs *q)
{
	unsigned int idx, i;

	pthread_mutex_lock(&q->lock);
	for (idx = 0; idx < VFU_NUM_IRQS; idx++)
		for (i = 0; i < q->count[idx]; i++)
			if (slot(q, idx, i))
				put_fd(slot(q, idx, i), -1);
	pthread_mutex_unlock(&q->lock);
}

const char *vfu_irqs_mode(struct vfu_irqs *q)
{
	static const char *const names[] = { "intx", "msi", "msix" };
	unsigned int m;

	pthread_mutex_lock(&q->lock);
	m = mode(q);
	pthread_mutex_unlock(&q->lock);
	return m < 3 ? names[m] : "none";
}
