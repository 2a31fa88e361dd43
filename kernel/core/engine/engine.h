/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Method handlers: host (C86F, methods below 0x100 on any subchannel),
 * copy engine (HOPPER_DMA_COPY_A) and compute (HOPPER_COMPUTE_A) bound
 * to subchannels with SET_OBJECT. Each returns VGSP_ENG_OK, VGSP_ENG_BLOCKED
 * (a semaphore acquire not yet satisfied: the same method runs again
 * later) or VGSP_ENG_ERROR with ch->error_code set.
 */
#ifndef VGSP_ENGINE_H
#define VGSP_ENGINE_H

#include "../fifo/fifo.h"

#define HOPPER_CHANNEL_GPFIFO_A	0xc86f
#define HOPPER_DMA_COPY_A	0xc8b5
#define HOPPER_COMPUTE_A	0xcbc0
#define GP100_UVM_SW		0xc076

enum vgsp_eng_rc {
	VGSP_ENG_OK,
	VGSP_ENG_BLOCKED,
	VGSP_ENG_YIELD,		/* a long launch is part done: next slice */
	VGSP_ENG_ERROR,
};

/* ROBUST_CHANNEL_* codes the error notifier carries (info32). */
#define VGSP_RC_GR_EXCEPTION		13
#define VGSP_RC_PBDMA_ERROR		32	/* malformed GPFIFO/pushbuffer */
#define VGSP_RC_MMU_FAULT		31
#define VGSP_RC_CE0_ERROR		39	/* unsupported copy: CEn */

/*
 * ROBUST_CHANNEL_CE_ERROR(n) (nverror.h) of @ch's copy engine COPYn
 * (NV2080_ENGINE_TYPE_COPY0 = 0x09 .. COPY9 = 0x12); CE0's for others.
 */
static inline u32 vgsp_rc_ce_error(const struct vgsp_chan *ch)
{
	u32 n = ch->d.engine_type - 0x09;

	if (ch->d.engine_type < 0x09 || n > 9)
		n = 0;
	return n < 3 ? VGSP_RC_CE0_ERROR + n : n < 6 ? 70 + n - 3 :
	       n < 9 ? 75 + n - 6 : 85;
}

int vgsp_engine_method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 subch,
		       u32 mthd, u32 data);

int vgsp_host_method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 subch,
		     u32 mthd, u32 data);
int vgsp_ce_method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 mthd,
		   u32 data);
int vgsp_gr_method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 mthd,
		   u32 data);
/* A compute method that only sets state (a held release may wait). */
bool vgsp_gr_method_is_state(u32 mthd);

/*
 * A semaphore release at @va of @ch's address space: 4 or 8 bytes of
 * payload, then (with @timestamp) the 8-byte time at va + 8.
 */
int vgsp_sem_release(struct vgsp_dev *dev, struct vgsp_chan *ch, u64 va,
		     u64 payload, bool is64, bool timestamp);
/*
 * Write the release held back on @ch, if any, stamped now (see
 * vgsp_backend_ops.stamps_at_submit): VGSP_ENG_OK or VGSP_ENG_ERROR.
 */
int vgsp_sem_flush(struct vgsp_dev *dev, struct vgsp_chan *ch);

#endif /* VGSP_ENGINE_H */
