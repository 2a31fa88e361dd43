/* SPDX-License-Identifier: MIT */
/* hostd_backend.h - extra entry points of the hostd backend for in-process
 * users (the CLI): memory that belongs to the instance is allocated by the
 * backend on the physical GPU and registered as instance memory. */
#ifndef VGSP_HOSTD_BACKEND_H
#define VGSP_HOSTD_BACKEND_H

#include "hostd.h"
#include "vgsp_backend.h"

/* allocate instance memory (HD_MEM_* flags) and register it */
int hostd_be_alloc(struct vgsp_backend *b, struct hd_mem *m, uint64_t size, int flags);
struct hd_dev *hostd_be_dev(struct vgsp_backend *b);
/* launch signalling used by submit_gr (see pb_compute_launch_v) */
extern unsigned hostd_be_launch_variant;
/* QMD layout used by submit_gr: 4 (QMDV04_00, default) or 3 */
extern unsigned hostd_be_qmd_version;

#endif
