/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The hostd backend's state, shared by its two files: backend_hostd.c
 * (mirrors, compute launches, windows, life) and hostd_copy.c (copies and
 * fills on host copy channels). Locking: see backend_hostd.c; h->mu
 * guards everything here.
 */
#ifndef VFU_BACKEND_HOSTD_PRIV_H
#define VFU_BACKEND_HOSTD_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "backend.h"
#include "fifo/fifo.h"
#include "hostd_fwd.h"
#include "pt_mirror.h"

#define MAX_WINDOWS		64
#define MAX_VAS			32
#define MAX_TABLES		65536	/* page tables one resync may read */
#define LAUNCH_TIMEOUT_NS	(10ULL * 1000000000ULL)
#define CE_ENGINES		10	/* COPY0..9 */

struct win {
	uint64_t iova, size;
	struct hd_backing b;
};

struct mirror {
	bool used;
	struct vgsp_vm vm;		/* the guest's root */
	struct hd_vas v;
	unsigned int users;		/* fwd channels and its copy channel */
	bool synced;
	uint64_t gen;			/* mm->pt_gen at the last resync */
	struct pt_mirror pm;		/* its runs and table index */
	struct hd_fwd_chan ce;		/* its copy channel, once a copy came */
	bool ce_open;			/* ce is a user of the mirror */
};

/* Why a copy stayed on the CPU (sim's ce_xfer), for the counters. */
enum ce_cpu {
	CE_CPU_FILL,			/* an element the CE's remap cannot make */
	CE_CPU_MIXED,			/* one side virtual, one physical */
	CE_CPU_UNMIRRORED,		/* a byte the GPU could not reach */
	CE_CPU_NO_CHANNEL,		/* no copy channel (RM refused) */
	CE_CPU_SYNC,			/* mirror / physical space not up to date */
	CE_CPU_NO_DMA,			/* Bus Master Enable is off */
	CE_CPU_N
};

/*
 * The instance's physical space on the GPU: one host VA space where the
 * FB store and each guest-RAM window sit at fixed offsets, for the guest
 * kernel's physical-mode copies and fills (the scrubber, UVM). FB is
 * mapped in PHYS_CHUNK pieces as copies reach them.
 */
#define PHYS_FB_BASE		(1ULL << 52)
#define PHYS_SYS_BASE		(1ULL << 53)	/* + IOVA, below 2^52 */
#define PHYS_CHUNK		(64ULL << 20)
#define PHYS_CHUNKS_MAX		2048		/* 128 GiB of FB */

struct phys_space {
	bool made, stale;		/* stale: windows changed, resync */
	struct hd_vas v;
	struct hd_fwd_chan ce;
	bool ce_open;
	uint8_t fb_mapped[PHYS_CHUNKS_MAX / 8];
	struct hd_run *runs;		/* what it maps, sorted */
	size_t nruns;
};

/*
 * The host channel group of one guest channel group (the guest channels'
 * parent) in one mirror: its compute channels share it, as they share one
 * GR context on hardware. A group RM stopped (dead) is no longer found;
 * it goes when its last channel does.
 */
struct fwd_group {
	bool used;
	u32 client, parent;
	struct mirror *m;
	struct hd_fwd_group g;
};

struct fwd {
	bool used;
	const struct vgsp_chan *ch;	/* the core's slot */
	u32 client, handle;
	struct mirror *m;
	struct fwd_group *grp;		/* NULL: a group of its own */
	struct hd_fwd_chan c;
	u64 sent_seq;			/* compute state it has (fifo->gr_seq) */
};

struct vfu_hostd {
	pthread_mutex_t mu;
	struct hd_dev d;
	FILE *log;
	const struct vgsp_profile *prof;
	uint8_t *fb;			/* the FB store */
	struct hd_backing fb_b;
	struct win win[MAX_WINDOWS];
	unsigned int nwin;
	struct mirror mir[MAX_VAS];
	struct phys_space ps;
	struct fwd fwd[VGSP_FIFO_MAX_CHANNELS];
	struct fwd_group grp[VGSP_FIFO_MAX_CHANNELS];
	struct replay *rp;		/* replay_list's scratch (h->mu) */
	int boost;			/* perf boost: 0 not asked, 1 ok, -1 refused */
	/* counters (the "hostd" section of --stats) */
	uint64_t launches, launch_errors, faults, timeouts, resyncs,
		 resync_errors, unbacked, windows_refused, chan_opens;
	/* shared host channel groups: opened, and channels that had to
	 * take one of their own because joining one failed */
	uint64_t group_opens, group_fallbacks, group_chan_schedules;
	/* large-page runs of mirrors that are gone (live ones add theirs) */
	uint64_t gone_large_maps, gone_large_fallbacks;
	/* resyncs by kind, and page tables read by all of them */
	uint64_t resync_full, resync_partial, resync_none, resync_tables,
		 last_resync_tables;
	uint64_t last_launch_ns, max_launch_ns, last_resync_ns, max_resync_ns;
	uint32_t last_rc;
	/* copies and fills on the GPU, and those left to the CPU by reason */
	uint64_t ce_copies, ce_fills, ce_phys, ce_bytes, ce_faults, ce_errors,
		 ce_opens, ce_open_errors, ce_cpu[CE_CPU_N], ce_cpu_bytes,
		 phys_maps, phys_map_errors;
	uint64_t last_ce_ns, max_ce_ns;
	/* copies of 1 MiB and more: bytes and the GPU's own time (doorbell
	 * to fence), so the engine's bandwidth shows apart from the guest's */
	uint64_t ce_large_bytes, ce_large_ns, ce_large_n;
	int ce_index;			/* the copy engine that opened, or -1 */
	bool ce_ranked;			/* ce_order made (ce_rank) */
	unsigned int ce_order[CE_ENGINES];	/* engines to try, best first */
	bool ce_pce_known;		/* ce_pce_mask answered by RM */
	uint32_t ce_pce_mask;		/* the PCEs behind COPY<ce_index> */
	uint32_t ce_pce_status;		/* RM status when it was refused */
	unsigned int ce_open_fails;	/* in a row; CE_OPEN_TRIES: give up */
};

/* backend_hostd.c */
uint64_t vfu_hostd_now_ns(void);
/* 0 when @m maps what the guest's tables map as of pt_gen @gen (a
 * resync of what changed if it did not yet), else -errno */
int vfu_hostd_mirror_current(struct vfu_hostd *h, struct vgsp_dev *dev,
			     struct mirror *m, uint64_t gen);
struct mirror *vfu_hostd_mirror_get(struct vfu_hostd *h,
				    const struct vgsp_vm *vm);
void vfu_hostd_mirror_put(struct vfu_hostd *h, struct mirror *m);
void vfu_hostd_mirror_drop_unused(struct vfu_hostd *h, struct mirror *m);
struct mirror *vfu_hostd_mirror_find(struct vfu_hostd *h,
				      const struct vgsp_vm *vm);

/* hostd_replay.c: the state methods a launch replays, in write order */
struct hd_mthd *vfu_hostd_replay_list(struct vfu_hostd *h, struct vgsp_dev *dev,
				      const struct vgsp_chan *ch, u64 since,
				      size_t *n);
/* The first host channel asks for the clock a CUDA context gets. */
void vfu_hostd_boost_once(struct vfu_hostd *h);

/* hostd_copy.c */
int vfu_hostd_ce_xfer(struct vgsp_dev *dev, struct vgsp_ce_xfer *x);
void vfu_hostd_ce_close(struct vfu_hostd *h, struct mirror *m);
/* a window came: the physical space maps it at its next use */
void vfu_hostd_phys_stale(struct vfu_hostd *h);
/* a window left h->win: unmapped from the physical space now, before
 * its memory is unregistered (later if that fails: stale) */
void vfu_hostd_phys_window_gone(struct vfu_hostd *h);
void vfu_hostd_phys_close(struct vfu_hostd *h);
void vfu_hostd_ce_show(struct vfu_hostd *h, FILE *f);

#endif /* VFU_BACKEND_HOSTD_PRIV_H */
