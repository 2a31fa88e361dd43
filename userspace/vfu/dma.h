/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Client memory the server may access (DMA_MAP / DMA_UNMAP). Each window is
 * mmap'ed from the file descriptor the client passed; accesses by IOVA are
 * bounds-checked against the windows and may span adjacent windows.
 * A mutex makes unmap (socket thread) exclude accesses (GSP worker thread):
 * once remove returns, nothing touches the old mapping.
 */
#ifndef VFU_DMA_H
#define VFU_DMA_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "proto.h"

#define VFU_DMA_MAX 1024

struct vfu_dma_win {
	uint64_t iova, size;
	uint8_t *base;		/* NULL: window without fd (not accessible) */
	bool writable;
};

struct vfu_dma {
	pthread_mutex_t lock;
	unsigned int n;
	struct vfu_dma_win win[VFU_DMA_MAX];
	uint64_t reads, writes, faults;	/* bytes-agnostic access counts */
};

void vfu_dma_init(struct vfu_dma *d);
/* Takes ownership of @fd (closed after mmap; -1 allowed). 0 or -errno. */
int vfu_dma_add(struct vfu_dma *d, const struct vfu_dma_map *m, int fd);
/* The mapping of the window starting at @iova, NULL if none or no fd. */
uint8_t *vfu_dma_window(struct vfu_dma *d, uint64_t iova, bool *writable);
/* Exact (iova, size) match of an existing window; -ENOENT otherwise. */
int vfu_dma_remove(struct vfu_dma *d, uint64_t iova, uint64_t size);
/* Drops every window; calls @cb(arg, iova, size) for each (may be NULL). */
void vfu_dma_remove_all(struct vfu_dma *d,
			void (*cb)(void *arg, uint64_t iova, uint64_t size),
			void *arg);
/* 0, or -EFAULT if any byte is outside a mapped (writable) window. */
int vfu_dma_rw(struct vfu_dma *d, uint64_t iova, void *buf, size_t len,
	       bool write);

#endif /* VFU_DMA_H */
