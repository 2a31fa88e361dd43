/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The seam between the core's engines and whatever executes their work.
 * engine/ decodes and validates a launch into one of these descriptors;
 * a backend executes it and answers 0 or -errno. sim (backend/sim.c) runs
 * copies on the CPU through mm/ and refuses compute; hostd implements the
 * same table on the physical GPU. Addresses stay GPU addresses: a backend
 * reaches guest memory only through mm/ (or, for hostd, its own mapping
 * of the same partition), never through a host pointer the core holds.
 */
#ifndef VGSP_BACKEND_H
#define VGSP_BACKEND_H

#include "mm/mm.h"

struct vgsp_chan;

/* One side of a copy: a VA of an address space, or a physical address. */
struct vgsp_ce_end {
	bool virt;
	struct vgsp_vm vm;		/* virt */
	enum vgsp_mem_target target;	/* physical */
	u64 addr;
};

/*
 * @lines lines of @line_bytes each, @pitch_* apart. A fill writes the
 * @elem_size-byte element @elem repeatedly instead of reading @src.
 */
struct vgsp_ce_xfer {
	struct vgsp_ce_end src, dst;
	u64 line_bytes;
	u32 lines;
	u64 pitch_in, pitch_out;
	bool fill;
	u8 elem[16];
	u8 elem_size;
	/* progress: a backend does a bounded part per call (see ce_xfer) */
	u32 line;
	u64 off;
};

/*
 * When work reached the engine and when its completion was seen, on the
 * host's clock (vgsp_now_ns). A backend that submits to another engine
 * (hostd: a host channel's doorbell) sets them in the channel's op_t
 * during ce_xfer/gr_launch; left 0, the core takes the call's start and
 * end. The core turns them into its per-operation latency figures
 * (fifo/op_lat.c).
 */
struct vgsp_op_times {
	u64 sub_ns, done_ns;
};

/* Bytes one ce_xfer call may move (fills of FB count a sixteenth). */
#define VGSP_CE_SLICE_BYTES	(16ULL << 20)

struct vgsp_backend_ops {
	const char *name;
	/*
	 * Execute part of @x from its progress fields and advance them: 0
	 * when done, -EAGAIN when more is left (call again later, outside
	 * this slice), -EFAULT for an unmapped address, other -errno.
	 */
	int (*ce_xfer)(struct vgsp_dev *dev, struct vgsp_ce_xfer *x);
	/*
	 * A compute launch of the QMD at @qmd_va in @ch's address space,
	 * done when this returns: 0, -EFAULT (the GPU faulted on the
	 * channel's memory), other -errno. Fifo lock held, device lock not.
	 */
	int (*gr_launch)(struct vgsp_dev *dev, struct vgsp_chan *ch,
			 u64 qmd_va);
	/*
	 * A backend that runs the launch on a GPU needs the compute-class
	 * state the guest set: with gr_state, gr.c records it in each
	 * channel's ch->gr_rec (struct vgsp_gr_rec) for gr_launch.
	 */
	bool gr_state;
	/*
	 * The engine is elsewhere and its start is later than the core's
	 * decode: a timestamped semaphore release (a CUDA event) is held back
	 * until the work after it reaches the engine, as the GPU would stamp
	 * it then. The backend calls vgsp_sem_flush() right before it submits
	 * (engine/host.c); the core flushes at any other visible action.
	 */
	bool stamps_at_submit;
	/* Optional: @ch is gone (freed, reset). Both locks held. */
	void (*chan_gone)(struct vgsp_dev *dev, struct vgsp_chan *ch);
};

#define VGSP_GR_REC_MTHDS	4096	/* method offsets below 0x4000 */
#define VGSP_GR_REC_LOG		256	/* recent writes kept in order */

/*
 * The compute-class state methods of one channel, for a backend that
 * replays them on its own channel before a launch: the last value of each
 * method and when it was written (fifo->gr_seq, one sequence for the
 * instance, 0 = never). The sequence orders writes across channels: the
 * channels of a guest context share one GR context on hardware, so state
 * one of them sets holds for a launch on another.
 */
struct vgsp_gr_rec {
	u32 val[VGSP_GR_REC_MTHDS];
	u64 stamp[VGSP_GR_REC_MTHDS];
	/*
	 * The last VGSP_GR_REC_LOG writes in order (method index, stamp; at
	 * nlog % LOG), so a backend that has everything up to some stamp
	 * reads only what came after instead of all 4096 entries; when the
	 * log no longer reaches back that far it reads them all.
	 */
	struct vgsp_gr_rec_log {
		u16 mthd;
		u64 stamp;
	} log[VGSP_GR_REC_LOG];
	u64 nlog;
};

extern const struct vgsp_backend_ops vgsp_backend_sim;

/*
 * The release semaphores of the 256-byte QMD @q on @ch: all an empty-grid
 * launch does (vgsp_hr_qmd_empty). 0, -EFAULT or -EOPNOTSUPP (reduction).
 */
int vgsp_qmd_releases(struct vgsp_dev *dev, struct vgsp_chan *ch,
		      const u8 *q);

#endif /* VGSP_BACKEND_H */
