/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SET_IRQS semantics: arming eventfds, loopback triggers (DATA_NONE /
 * DATA_BOOL), INTx mask/unmask with pending delivery, disarming, and
 * rejected requests. An eventfd "fired" means it became readable.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "rig.h"

#define TRIG VFIO_IRQ_SET_ACTION_TRIGGER
#define NONE VFIO_IRQ_SET_DATA_NONE
#define BOOL VFIO_IRQ_SET_DATA_BOOL
#define EFD VFIO_IRQ_SET_DATA_EVENTFD

/* Did @fd fire within @ms? Consumes the count. */
static bool fired(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t n;

	if (poll(&p, 1, ms) != 1)
		return false;
	return read(fd, &n, sizeof(n)) == sizeof(n) && n > 0;
}

static void t_intx(struct vdev *d)
{
	const uint32_t I = VFIO_PCI_INTX_IRQ_INDEX;
	int32_t efd = eventfd(0, EFD_NONBLOCK);
	uint8_t one = 1, zero = 0;
	int r;

	r = set_irqs(d, TRIG | EFD, I, 0, 1, &efd, sizeof(efd));
	check(!r, "irq.intx_arm", "r=%d", r);
	r = set_irqs(d, TRIG | NONE, I, 0, 1, NULL, 0);
	check(!r && fired(efd, 1000), "irq.intx_trigger_fires", "r=%d, eventfd silent", r);

	/* Masked: a raised INTx stays pending and fires on unmask. */
	r = set_irqs(d, VFIO_IRQ_SET_ACTION_MASK | NONE, I, 0, 1, NULL, 0);
	check(!r, "irq.intx_mask", "r=%d", r);
	set_irqs(d, TRIG | NONE, I, 0, 1, NULL, 0);
	check(!fired(efd, 200), "irq.intx_masked_silent", "fired while masked");
	r = set_irqs(d, VFIO_IRQ_SET_ACTION_UNMASK | NONE, I, 0, 1, NULL, 0);
	check(!r && fired(efd, 1000), "irq.intx_pending_fires_on_unmask",
	      "r=%d, eventfd silent after unmask", r);
	set_irqs(d, VFIO_IRQ_SET_ACTION_UNMASK | NONE, I, 0, 1, NULL, 0);
	check(!fired(efd, 200), "irq.intx_unmask_nothing_pending", "spurious fire");

	/* DATA_BOOL: 1 triggers, 0 does not. */
	set_irqs(d, VFIO_IRQ_SET_ACTION_UNMASK | NONE, I, 0, 1, NULL, 0);
	r = set_irqs(d, TRIG | BOOL, I, 0, 1, &zero, 1);
	check(!r && !fired(efd, 200), "irq.intx_bool0_silent", "r=%d", r);
	set_irqs(d, VFIO_IRQ_SET_ACTION_UNMASK | NONE, I, 0, 1, NULL, 0);
	r = set_irqs(d, TRIG | BOOL, I, 0, 1, &one, 1);
	check(!r && fired(efd, 1000), "irq.intx_bool1_fires", "r=%d", r);

	/* Disarm: count 0 with DATA_NONE; later triggers reach nobody. */
	r = set_irqs(d, TRIG | NONE, I, 0, 0, NULL, 0);
	check(!r, "irq.intx_disarm", "r=%d", r);
	set_irqs(d, VFIO_IRQ_SET_ACTION_UNMASK | NONE, I, 0, 1, NULL, 0);
	set_irqs(d, TRIG | NONE, I, 0, 1, NULL, 0);
	check(!fired(efd, 200), "irq.intx_disarmed_silent", "fired after disarm");
	close(efd);
}

static void t_msi(struct vdev *d)
{
	const uint32_t I = VFIO_PCI_MSI_IRQ_INDEX;
	int32_t efd = eventfd(0, EFD_NONBLOCK);
	int r;

	r = set_irqs(d, TRIG | EFD, I, 0, 1, &efd, sizeof(efd));
	check(!r, "irq.msi_arm", "r=%d", r);
	r = set_irqs(d, TRIG | NONE, I, 0, 1, NULL, 0);
	check(!r && fired(efd, 1000), "irq.msi_trigger_fires", "r=%d", r);
	r = set_irqs(d, VFIO_IRQ_SET_ACTION_MASK | NONE, I, 0, 1, NULL, 0);
	check(r == -EINVAL, "irq.msi_mask_rejected", "r=%d, want -EINVAL", r);
	r = set_irqs(d, TRIG | NONE, I, 0, 0, NULL, 0);
	check(!r, "irq.msi_disarm", "r=%d", r);
	close(efd);
}

static void t_msix(struct vdev *d)
{
	const uint32_t I = VFIO_PCI_MSIX_IRQ_INDEX;
	long n = read_long("/sys/module/vgsp/parameters/msix_vectors");
	int32_t efd[64];
	uint8_t one = 1;
	bool others = false;
	int r;

	if (n < 2 || n > 64) {
		fail("irq.msix", "msix_vectors=%ld", n);
		return;
	}
	for (long i = 0; i < n; i++)
		efd[i] = eventfd(0, EFD_NONBLOCK);
	r = set_irqs(d, TRIG | EFD, I, 0, (uint32_t)n, efd, (size_t)n * sizeof(int32_t));
	check(!r, "irq.msix_arm_all", "r=%d", r);
	r = set_irqs(d, TRIG | BOOL, I, 1, 1, &one, 1);
	for (long i = 0; i < n; i++)
		if (i != 1)
			others |= fired(efd[i], 0);
	check(!r && fired(efd[1], 1000) && !others, "irq.msix_vector_targeted",
	      "r=%d, others fired %d", r, others);
	r = set_irqs(d, TRIG | NONE, I, (uint32_t)n - 1, 2, NULL, 0);
	check(r == -EINVAL, "irq.msix_range_rejected", "start %ld count 2: r=%d", n - 1, r);
	r = set_irqs(d, TRIG | NONE, I, 0, 0, NULL, 0);
	check(!r, "irq.msix_disarm", "r=%d", r);
	for (long i = 0; i < n; i++)
		close(efd[i]);
}

void t_irq(struct vdev *d)
{
	int32_t efd = eventfd(0, EFD_NONBLOCK);
	int r;

	t_intx(d);
	t_msi(d);
	t_msix(d);
	r = set_irqs(d, TRIG | EFD, VFIO_PCI_ERR_IRQ_INDEX, 0, 1, &efd, sizeof(efd));
	check(r == -EINVAL, "irq.err_rejected", "r=%d, want -EINVAL (count 0)", r);
	r = set_irqs(d, TRIG | EFD, VFIO_PCI_NUM_IRQS, 0, 1, &efd, sizeof(efd));
	check(r == -EINVAL, "irq.bad_index_rejected", "r=%d", r);
	r = set_irqs(d, TRIG | EFD | BOOL, VFIO_PCI_INTX_IRQ_INDEX, 0, 1, &efd, sizeof(efd));
	check(r == -EINVAL, "irq.two_data_types_rejected", "r=%d", r);
	r = set_irqs(d, TRIG | EFD, VFIO_PCI_REQ_IRQ_INDEX, 0, 1, &efd, sizeof(efd));
	check(!r, "irq.req_arm", "r=%d", r);
	r = set_irqs(d, TRIG | NONE, VFIO_PCI_REQ_IRQ_INDEX, 0, 0, NULL, 0);
	check(!r, "irq.req_disarm", "r=%d", r);
	close(efd);
}
