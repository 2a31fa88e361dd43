/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Interrupt triggers set by the client (SET_IRQS) and their delivery: the
 * core raises a vector, we write the eventfd the client gave for it. INTx is
 * auto-masked after each trigger until the client unmasks it; a trigger
 * while masked stays pending and fires on unmask.
 */
#ifndef VFU_IRQ_H
#define VFU_IRQ_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "proto.h"

#define VFU_MSIX_MAX 64

struct vfu_irqs {
	pthread_mutex_t lock;
	unsigned int count[VFU_NUM_IRQS];
	int fd_intx, fd_msi, fd_req;
	int fd_msix[VFU_MSIX_MAX];
	bool intx_masked, intx_pending;
	uint64_t signalled, suppressed;
};

void vfu_irqs_init(struct vfu_irqs *q, unsigned int msix_vectors);
/* GET_IRQ_INFO flags for @index (count in q->count). */
uint32_t vfu_irq_info_flags(unsigned int index);
/*
 * Apply a parsed SET_IRQS. @fds (nfds of them) are taken over: stored or
 * closed, also on error. 0 or -errno.
 */
int vfu_irqs_set(struct vfu_irqs *q, const struct vfu_irq_set *s,
		 const uint8_t *bools, int *fds, unsigned int nfds);
/* Deliver core vector @vector (MSI-X index, or 0). true if signalled. */
bool vfu_irqs_signal(struct vfu_irqs *q, unsigned int vector);
/* Close every eventfd (client went away); masks stay as they are. */
void vfu_irqs_close_all(struct vfu_irqs *q);
/* "none" / "intx" / "msi" / "msix": the mode deliveries use now. */
const char *vfu_irqs_mode(struct vfu_irqs *q);

#endif /* VFU_IRQ_H */
