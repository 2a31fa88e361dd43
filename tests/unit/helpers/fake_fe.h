/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Shared unit-test helpers: a fake frontend (guest memory as a malloc'd
 * buffer at a fixed IOVA, an interrupt recorder) and a printer that
 * captures core views into a string.
 */
#ifndef VGSP_TEST_FAKE_FE_H
#define VGSP_TEST_FAKE_FE_H

#include "vgsp_os.h"
#include "view.h"

#define FAKE_FE_IRQ_LOG 64

struct fake_fe {
	u8 *mem;		/* guest memory, IOVAs [base, base + size) */
	u64 base;
	size_t size;
	int dma_err;		/* nonzero: every dma call fails with this */
	unsigned int dma_reads, dma_writes;

	bool irq_ret;		/* what irq_signal reports */
	unsigned int nirqs;	/* irq_signal calls, whatever it returned */
	unsigned int irq_vec[FAKE_FE_IRQ_LOG];	/* first vectors raised */
};

extern const struct vgsp_fe_ops fake_fe_ops;

/* Zeroed @size bytes at IOVA @base; irq_signal returns true. */
void fake_fe_init(struct fake_fe *fe, u64 base, size_t size);
void fake_fe_fini(struct fake_fe *fe);

struct vgsp_dev;
/* Memory decode + Bus Master Enable, as a driver's pci_set_master(). */
void fake_bus_master(struct vgsp_dev *dev);

/* A printer that appends to a NUL-terminated, growing heap string. */
struct str_printer {
	struct vgsp_printer p;
	char *buf;
	size_t len, cap;
};

void str_printer_init(struct str_printer *sp);
void str_printer_fini(struct str_printer *sp);

/* The core view called @name printed into @sp (asserts it exists). */
void show_core_view(struct vgsp_dev *dev, const char *name,
		    struct str_printer *sp);

#endif /* VGSP_TEST_FAKE_FE_H */
