// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Client-memory windows for DMA by IOVA (see dma.h). */
#define _GNU_SOURCE		/* F_GET_SEALS */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "dma.h"

void vfu_dma_init(struct vfu_dma *d)
{
	memset(d, 0, sizeof(*d));
	pthread_mutex_init(&d->lock, NULL);
}

static bool overlaps(const struct vfu_dma_win *w, uint64_t iova, uint64_t size)
{
	return iova < w->iova + w->size && w->iova < iova + size;
}

int vfu_dma_add(struct vfu_dma *d, const struct vfu_dma_map *m, int fd)
{
	uint8_t *base = NULL;
	unsigned int i;
	int ret = 0;

	/* A window the server may not read is recorded but never accessed. */
	if (fd >= 0 && !(m->flags & VFU_DMA_F_READ)) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0) {
		struct stat st;
		int prot = PROT_READ, seals;

		/* A window past the end of the file would SIGBUS on access. */
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
		    (uint64_t)st.st_size < m->offset + m->size) {
			close(fd);
			return -EINVAL;
		}
		/*
		 * ... and so would one the client shrinks later: only files
		 * sealed against shrinking (QEMU's memory-backend-memfd,
		 * seal=on by default) are mapped (review 1e).
		 */
		seals = fcntl(fd, F_GET_SEALS);
		if (seals < 0 || !(seals & F_SEAL_SHRINK)) {
			close(fd);
			return -EPERM;
		}
		if (m->flags & VFU_DMA_F_WRITE)
			prot |= PROT_WRITE;
		base = mmap(NULL, m->size, prot, MAP_SHARED,
			    fd, (off_t)m->offset);
		close(fd);
		if (base == MAP_FAILED)
			return -errno;
	}
	pthread_mutex_lock(&d->lock);
	for (i = 0; i < d->n; i++)
		if (overlaps(&d->win[i], m->iova, m->size))
			ret = -EEXIST;
	if (!ret && d->n == VFU_DMA_MAX)
		ret = -ENOSPC;
	if (!ret) {
		d->win[d->n].iova = m->iova;
		d->win[d->n].size = m->size;
		d->win[d->n].base = base;
		d->win[d->n].writable = base && (m->flags & VFU_DMA_F_WRITE);
		d->n++;
	}
	pthread_mutex_unlock(&d->lock);
	if (ret && base)
		munmap(base, m->size);
	return ret;
}

static void drop(struct vfu_dma *d, unsigned int i, struct vfu_dma_win *out)
{
	*out = d->win[i];
	d->win[i] = d->win[--d->n];
}

int vfu_dma_remove(struct vfu_dma *d, uint64_t iova, uint64_t size)
{
	struct vfu_dma_win w = { 0 };
	unsigned int i;
	int ret = -ENOENT;

	pthread_mutex_lock(&d->lock);
	for (i = 0; i < d->n; i++) {
		if (d->win[i].iova == iova && d->win[i].size == size) {
			drop(d, i, &w);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&d->lock);
	if (!ret && w.base)
		munmap(w.base, w.size);
	return ret;
}

void vfu_dma_remove_all(struct vfu_dma *d,
			void (*cb)(void *arg, uint64_t iova, uint64_t size),
			void *arg)
{
	struct vfu_dma_win w;

	for (;;) {
		pthread_mutex_lock(&d->lock);
		if (!d->n) {
			pthread_mutex_unlock(&d->lock);
			return;
		}
		drop(d, d->n - 1, &w);
		pthread_mutex_unlock(&d->lock);
		if (cb)
			cb(arg, w.iova, w.size);
		if (w.base)
			munmap(w.base, w.size);
	}
}

uint8_t *vfu_dma_window(struct vfu_dma *d, uint64_t iova, bool *writable)
{
	uint8_t *base = NULL;
	unsigned int i;

	pthread_mutex_lock(&d->lock);
	for (i = 0; i < d->n; i++)
		if (d->win[i].iova == iova) {
			base = d->win[i].base;
			*writable = d->win[i].writable;
		}
	pthread_mutex_unlock(&d->lock);
	return base;
}

static const struct vfu_dma_win *find(const struct vfu_dma *d, uint64_t iova)
{
	unsigned int i;

	for (i = 0; i < d->n; i++)
		if (iova >= d->win[i].iova && iova - d->win[i].iova < d->win[i].size)
			return &d->win[i];
	return NULL;
}

int vfu_dma_rw(struct vfu_dma *d, uint64_t iova, void *buf, size_t len,
	       bool write)
{
	uint8_t *p = buf;
	int ret = 0;

	if (iova + len < iova)
		return -EFAULT;
	pthread_mutex_lock(&d->lock);
	while (len) {
		const struct vfu_dma_win *w = find(d, iova);
		uint64_t off, n;

		if (!w || !w->base || (write && !w->writable)) {
			ret = -EFAULT;
			break;
		}
		off = iova - w->iova;
		n = w->size - off;
		if (n > len)
			n = len;
		if (write)
			memcpy(w->base + off, p, n);
		else
			memcpy(p, w->base + off, n);
		p += n;
		iova += n;
		len -= n;
	}
	if (ret)
		d->faults++;
	else if (write)
		d->writes++;
	else
		d->reads++;
	pthread_mutex_unlock(&d->lock);
	return ret;
}
