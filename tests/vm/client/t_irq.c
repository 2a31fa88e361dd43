/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SET_IRQS semantics: arming eventfds, loopback triggers (DATA_NONE /
 * DATA_BOOL), disarming, rejected requests, and device-raised interrupts
 * with INTx automask/mask/unmask and pending delivery. An eventfd "fired"
 * means it became readable.
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
	/* Loopback (DATA_NONE/BOOL trigger) signals the eventfd directly, as
	 * vfio-pci does; mask semantics apply to device-raised INTx (below). */
	r = set_irqs(d, TRIG | NONE, I, 0, 1, NULL, 0);
	check(!r && fired(efd, 1000), "irq.intx_loopback_fires", "r=%d, eventfd silent", r);
	r = set_irqs(d, VFIO_IRQ_SET_ACTION_MASK | NONE, I, 0, 1, NULL, 0);
	check(!r, "irq.intx_mask", "r=%d", r);
	r = set_irqs(d, VFIO_IRQ_SET_ACTION_UNMASK | NONE, I, 0, 1, NULL, 0);
	check(!r && !fired(efd, 200), "irq.intx_unmask_nothing_pending", "r=%d or spurious fire", r);
	r = set_irqs(d, VFIO_IRQ_SET_ACTION_MASK | NONE, I, 1, 1, NULL, 0);
	check(r == -EINVAL, "irq.intx_bad_start_rejected", "start 1: r=%d", r);

	/* DATA_BOOL: 1 triggers, 0 does not. */
	r = set_irqs(d, TRIG | BOOL, I, 0, 1, &zero, 1);
	check(!r && !fired(efd, 200), "irq.intx_bool0_silent", "r=%d", r);
	r = set_irqs(d, TRIG | BOOL, I, 0, 1, &one, 1);
	check(!r && fired(efd, 1000), "irq.intx_bool1_fires", "r=%d", r);

	/* Disarm: count 0 with DATA_NONE; later triggers reach nobody. */
	r = set_irqs(d, TRIG | NONE, I, 0, 0, NULL, 0);
	check(!r, "irq.intx_disarm", "r=%d", r);
	set_irqs(d, TRIG | NONE, I, 0, 1, NULL, 0);
	check(!fired(efd, 200), "irq.intx_disarmed_silent", "fired after disarm");
	close(efd);
}

/*
 * Device-raised interrupts through the GPU's CPU interrupt tree in BAR0
 * (leaf pending/enable registers, top enable, software leaf trigger at
 * 0xb81640). With every leaf and top enabled, a trigger write raises the
 * instance's interrupt (MSI-X vector 0, or INTx).
 */
#define INTR_LEAF(i)		(0xb81000 + 4 * (i))
#define INTR_LEAF_EN_SET(i)	(0xb81200 + 4 * (i))
#define INTR_LEAF_EN_CLEAR(i)	(0xb81400 + 4 * (i))
#define INTR_TOP_EN_SET		0xb81608
#define INTR_TOP_EN_CLEAR	0xb81610
#define INTR_LEAF_TRIGGER	0xb81640
#define INTR_LEAVES		8

static void tree_enable(struct vdev *d, bool on)
{
	for (int i = 0; i < INTR_LEAVES; i++) {
		bar_wr32(d, 0, on ? INTR_LEAF_EN_SET(i) : INTR_LEAF_EN_CLEAR(i), ~0u);
		bar_wr32(d, 0, INTR_LEAF(i), ~0u);	/* W1C any pending */
	}
	bar_wr32(d, 0, on ? INTR_TOP_EN_SET : INTR_TOP_EN_CLEAR, ~0u);
}

static void raise_irq(struct vdev *d)
{
	bar_wr32(d, 0, INTR_LEAF_TRIGGER, 0);
}

static void t_raised(struct vdev *d)
{
	const uint32_t I = VFIO_PCI_INTX_IRQ_INDEX;
	const uint32_t UNMASK = VFIO_IRQ_SET_ACTION_UNMASK | NONE;
	int32_t efd = eventfd(0, EFD_NONBLOCK), xfd[64];
	long n = read_long("/sys/module/vgsp/parameters/msix_vectors");
	struct ctrs b, a;
	bool others = false;

	bar_wr32(d, 0, INTR_LEAF_EN_SET(0), 1);
	if (!(bar_rd32(d, 0, INTR_LEAF_EN_SET(0)) & 1)) {
		skip("irq.device_raised", "CPU interrupt tree (BAR0 0xb81000) not modelled");
		close(efd);
		return;
	}
	set_irqs(d, TRIG | EFD, I, 0, 1, &efd, sizeof(efd));
	tree_enable(d, true);
	fired(efd, 100);			/* anything pending from before */
	set_irqs(d, UNMASK, I, 0, 1, NULL, 0);
	ctrs_read(d->uuid, &b);

	raise_irq(d);
	check(fired(efd, 1000), "irq.intx_device_raised_fires", "eventfd silent");
	raise_irq(d);				/* automasked by the first */
	check(!fired(efd, 200), "irq.intx_automasked_silent", "fired while automasked");
	set_irqs(d, UNMASK, I, 0, 1, NULL, 0);
	check(fired(efd, 1000), "irq.intx_pending_fires_on_unmask", "eventfd silent after unmask");
	set_irqs(d, UNMASK, I, 0, 1, NULL, 0);
	check(!fired(efd, 200), "irq.intx_unmask_clears_pending", "fired again");
	set_irqs(d, VFIO_IRQ_SET_ACTION_MASK | NONE, I, 0, 1, NULL, 0);
	raise_irq(d);
	check(!fired(efd, 200), "irq.intx_masked_silent", "fired while masked");
	set_irqs(d, UNMASK, I, 0, 1, NULL, 0);
	check(fired(efd, 1000), "irq.intx_masked_raise_fires_on_unmask", "eventfd silent");
	ctrs_read(d->uuid, &a);
	{
		long long sig = -1, sup = -1;

		for (unsigned int i = 0; i < a.n && i < b.n; i++) {
			if (!strcmp(a.name[i], "irqs_signalled"))
				sig = (long long)(a.val[i] - b.val[i]);
			if (!strcmp(a.name[i], "irqs_suppressed"))
				sup = (long long)(a.val[i] - b.val[i]);
		}
		/* 3 raises: 1 delivered, 2 while masked (pending). */
		check(sig >= 1 && sup >= 2 && sig + sup >= 3, "irq.raised_counters",
		      "irqs_signalled +%lld irqs_suppressed +%lld for 3 raises (1 delivered)", sig, sup);
	}
	set_irqs(d, TRIG | NONE, I, 0, 0, NULL, 0);

	if (n >= 1 && n <= 64) {
		for (long i = 0; i < n; i++)
			xfd[i] = eventfd(0, EFD_NONBLOCK);
		set_irqs(d, TRIG | EFD, VFIO_PCI_MSIX_IRQ_INDEX, 0, (uint32_t)n, xfd,
			 (size_t)n * sizeof(int32_t));
		raise_irq(d);
		for (long i = 1; i < n; i++)
			others |= fired(xfd[i], 0);
		check(fired(xfd[0], 1000) && !others, "irq.msix_device_raised_vector0",
		      "vector 0 silent or others fired (%d)", others);
		set_irqs(d, TRIG | NONE, VFIO_PCI_MSIX_IRQ_INDEX, 0, 0, NULL, 0);
		for (long i = 0; i < n; i++)
			close(xfd[i]);
	}
	tree_enable(d, false);
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
	t_raised(d);
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
