/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The emulated GSP firmware of one instance, as seen by the device core.
 * device.c calls these at the instance's lifecycle points; everything else
 * (boot handshake, queues, RPC dispatch) lives behind them.
 */
#ifndef VGSP_GSP_H
#define VGSP_GSP_H

#include "../device.h"
#include "../view.h"

/* Allocate dev->gsp (and its dispatch worker). 0 or -errno. Lock not held. */
int vgsp_gsp_create(struct vgsp_dev *dev);
/* Back to power-on state. Lock held. */
void vgsp_gsp_reset(struct vgsp_dev *dev);
/* Stop the worker and free dev->gsp. Lock not held. */
void vgsp_gsp_destroy(struct vgsp_dev *dev);

/*
 * BAR0 register tables the GSP emulation adds for @chip (falcon, FSP,
 * interrupt tree...). Merged with the chip's own tables at creation.
 */
unsigned int vgsp_gsp_reg_tables(const struct vgsp_chip *chip,
				 const struct vgsp_reg_table **tables);

/*
 * An engine's notification (non-stall) interrupt, as the engine raises it
 * when a channel asks for one (the compute class's report-semaphore TRAP,
 * host NON_STALL_INTERRUPT): the engine's non-stall vector goes pending in
 * the CPU interrupt tree, and MSI-X fires if it is enabled. CPU-RM services
 * it itself (the GR notification service wakes the events registered for
 * NV2080_NOTIFIERS_GR0 | NV01_EVENT_NONSTALL_INTR). @engine_type is an
 * NV2080_ENGINE_TYPE; false when that engine reports no non-stall vector.
 * Device lock held.
 */
#define VGSP_ENGINE_TYPE_GR0	0x01	/* NV2080_ENGINE_TYPE_GR0 */
bool vgsp_gsp_nonstall_raise(struct vgsp_dev *dev, u32 engine_type);

/*
 * A channel stopped (fifo/ has written its error notifier): what GSP-RM's
 * RC (robust channel) handling then tells CPU-RM, in this order:
 *  - VGSP_RC_PART_XID: the Xid. CPU-RM prints "NVRM: Xid (PCI:...):
 *    <exc_type>, pid=<pid>, name=<process>, <msg>", the process being the
 *    owner of the channel at (runlist, chid);
 *  - VGSP_RC_PART_NOTIFY: the RC notification. CPU-RM finds the channel
 *    by (engine_type, chid), wakes the events registered on its error
 *    notifier (what a blocking-sync CUDA process sleeps on) and the
 *    subdevice's RC_ERROR events, and journals it.
 * The ids must name a channel CPU-RM allocated: the ones of its alloc.
 */
#define VGSP_RC_MSG_LEN		128
#define VGSP_RC_PART_XID	0x1
#define VGSP_RC_PART_NOTIFY	0x2
#define VGSP_RC_PARTS		(VGSP_RC_PART_XID | VGSP_RC_PART_NOTIFY)

struct vgsp_rc_event {
	u32 engine_type;		/* NV2080_ENGINE_TYPE of the channel */
	u32 runlist, chid;
	u32 exc_type;			/* ROBUST_CHANNEL_*: the Xid */
	char msg[VGSP_RC_MSG_LEN];	/* NUL-terminated */
};

/*
 * Post the parts of @rc still set in *@parts, in order, clearing each one
 * posted. 0: all posted; -EAGAIN: the status queue is full (the guest
 * drains it without ringing: try again later); -ENODEV: no GSP runs, so
 * there is nobody to tell; -EFAULT: the queue's guest memory failed.
 * Device lock held.
 */
int vgsp_gsp_rc_post(struct vgsp_dev *dev, const struct vgsp_rc_event *rc,
		     u8 *parts);

/*
 * The RPC fast path: a doorbell answers the commands already queued in its
 * own BAR trap, while each is one record (a request of at most one queue
 * slot) and until this many microseconds have passed since the trap began
 * (since the first command was answered, when the trap read no clock: see
 * VGSP_LAT_SAMPLE); the rest, and any command met after the budget, go to
 * the worker. 0: the
 * worker answers everything. Process-wide; the host sets it (vgsp.ko's
 * rpc_inline_us parameter, VGSP_RPC_INLINE_US for userspace hosts) and may
 * change it at any time.
 */
#define VGSP_RPC_INLINE_US_DEFAULT	100
#define VGSP_RPC_INLINE_US_MAX		10000
extern unsigned int vgsp_rpc_inline_us;

/* Extra read-only views (RPC statistics, queue state, rpc_log...). */
extern const struct vgsp_view vgsp_gsp_views[];
extern const unsigned int vgsp_gsp_nviews;

#endif /* VGSP_GSP_H */
