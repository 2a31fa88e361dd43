/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One vfio-user connection in front of one vgsp core instance: reads a
 * message, validates it (codec.c), calls the core, replies. Single-threaded
 * for messages; the core's GSP worker thread reaches us only through the
 * fe_ops (DMA by IOVA, interrupt delivery), which take their own locks.
 */
#ifndef VFU_SERVER_H
#define VFU_SERVER_H

#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include "proto.h"
#include "dma.h"
#include "irq.h"
#include "bar_map.h"

struct vgsp_dev;
struct vgsp_fe_ops;

#define VFU_TOUCH_SLOTS 8192

/*
 * A backend that must know the client's memory (hostd registers each
 * window with the GPU). dma_added failing refuses the DMA_MAP; every hook
 * runs without the DMA lock held, dma_removed before the unmap.
 */
struct vfu_be_hooks {
	int (*dma_added)(void *arg, uint64_t iova, uint64_t size, void *base);
	void (*dma_removed)(void *arg, uint64_t iova, uint64_t size);
	void (*show)(void *arg, FILE *f);
};

struct vfu_server {
	struct vgsp_dev *dev;
	struct vfu_dma dma;
	struct vfu_irqs irqs;
	bool negotiated;

	/* Transcript: control messages, config accesses, BAR writes, and the
	 * first few reads of each BAR offset (reads dominate by far). */
	FILE *log;
	pthread_mutex_t log_lock;	/* the GSP worker logs DMA too */
	bool log_dma;			/* transcript lines for guest-memory accesses */
	uint64_t log_lines, log_budget;
	unsigned int log_reads_per_off;
	struct { uint64_t key; uint32_t n; } touch[VFU_TOUCH_SLOTS];
	double t0;

	/* Frontend counters (the core keeps its own). */
	uint64_t msgs[VFU_CMD_MAX + 1];
	uint64_t errs[VFU_CMD_MAX + 1];
	uint64_t bad_msgs, bytes_in, bytes_out, conns;
	const char *irq_mode_last;	/* after the latest SET_IRQS */

	/* BAR3 the client maps (bar_map.h); fd -1: it traps. The fd goes
	 * out with the next reply when reply_fd says so. */
	struct vfu_bar_map bar3;
	int reply_fd;

	const struct vfu_be_hooks *be;	/* NULL: sim */
	void *be_arg;

	uint8_t *rx, *tx;	/* VFU_MAX_MSG each */
	volatile sig_atomic_t *stop;
	void (*tick)(struct vfu_server *s);	/* ~1 s while serving */
};

/* The fe_ops the core instance must be created with (fe = the server). */
extern const struct vgsp_fe_ops vfu_fe_ops;

int vfu_server_init(struct vfu_server *s, unsigned int msix_vectors);
void vfu_server_fini(struct vfu_server *s);

/*
 * Handle one complete message. @fds (nfds) are consumed (stored or closed).
 * Writes the reply into s->tx and returns its total size, 0 for no reply.
 */
size_t vfu_handle(struct vfu_server *s, const struct vfu_hdr *h,
		  const uint8_t *payload, int *fds, unsigned int nfds);

/* Serve one connected client until it disconnects or *stop. 0 or -errno. */
int vfu_serve(struct vfu_server *s, int fd);

/* The core's trace events as transcript lines ("trace vgsp_..."): a
 * vgsp_os_user_trace() sink, arg = the server. */
void vfu_server_trace_line(void *arg, const char *line);

/* Frontend view (message counts, DMA windows, irq mode) as text. */
void vfu_server_show(struct vfu_server *s, FILE *f);

#endif /* VFU_SERVER_H */
