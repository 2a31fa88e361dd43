/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vgsp-vfu --backend hostd: the core's compute launches run on the
 * physical GPU through hostd (userspace/hostd, RM ioctls), linked into
 * this process. Built with `make -C userspace/vfu HOSTD=1`.
 *
 * What the GPU may reach is exactly the instance's memory: the FB store
 * (one block of host memory this frontend owns, registered with RM) and
 * the guest-RAM windows the client maps (each registered as it arrives).
 * Every guest VA space a launch runs in is mirrored onto a host VA space
 * at the same addresses from the guest's own page tables, resynced when
 * the guest invalidates its TLBs (mm->pt_gen); the launch replays the
 * compute state set on the VA space's channels (what the host channel has
 * not had yet, in write order) and sends the guest's QMD by its VA on a host
 * channel that cannot use physical addressing or privileged methods.
 * Copies stay on the CPU (sim's ce_xfer), on the same memory.
 */
#ifndef VFU_BACKEND_HOSTD_H
#define VFU_BACKEND_HOSTD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct vgsp_profile;
struct vgsp_dev_opts;
struct vfu_hostd;

/*
 * Open the GPU and set up the FB store for @prof: host memory registered
 * with RM, or with @fb_vidmem a partition of the GPU's own memory (the
 * guest's kernels and copies then run at the GPU's memory bandwidth; the
 * core's own FB accesses cross PCIe uncached). NULL, with the reason on
 * stderr, if anything is missing or refused (fail closed).
 */
struct vfu_hostd *vfu_hostd_open(const struct vgsp_profile *prof,
				 FILE *rm_log, bool fb_vidmem);
/*
 * What vgsp_dev_create_opts needs: the backend, its state, the FB, and
 * with the FB in the GPU's memory a read cache of this many pages (the
 * core reads BAR1 uncached; kernel/core/mm/fb_cache.c). 32 MiB: a
 * guest's page tables, USERDs and semaphores many times over.
 */
#define VFU_HOSTD_FB_CACHE_PAGES	8192

void vfu_hostd_dev_opts(struct vfu_hostd *h, struct vgsp_dev_opts *o);
/* A client's memory window came or goes (registered with RM / dropped). */
int vfu_hostd_dma_added(void *h, uint64_t iova, uint64_t size, void *base);
void vfu_hostd_dma_removed(void *h, uint64_t iova, uint64_t size);
void vfu_hostd_show(void *h, FILE *f);
/* After the instance is destroyed. */
void vfu_hostd_close(struct vfu_hostd *h);

#endif /* VFU_BACKEND_HOSTD_H */
