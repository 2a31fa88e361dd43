/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Channels and the host front end (PBDMA) of one instance.
 *
 *  - channel.c:  the channel table, keyed by work-submit token
 *                (runlist << 16 | ChID, as CPU-RM computes it);
 *  - doorbell.c: the usermode window in BAR0 (NOTIFY_CHANNEL_PENDING, TIME)
 *                and the MMU-invalidate registers;
 *  - gpfifo.c:   GPFIFO fetch from USERD.GPPut, GP_GET written back, the
 *                method stream handed to engine/.
 *
 * Locking: the channel table changes only under both the device lock
 * (RPCs, reset) and the fifo lock; engine work runs under the fifo lock
 * alone (plus mm/'s FB-store leaf lock), never under the device lock that
 * BAR traps take. Doorbells (device lock) only set a channel's pending
 * flag atomically and wake the instance's fifo worker, which runs bounded
 * slices (VGSP_FIFO_SLICE_*) and resolves address spaces from rm/ under
 * the device lock before each pass. Lock order: device, fifo, FB store.
 */
#ifndef VGSP_FIFO_H
#define VGSP_FIFO_H

#include "../device.h"
#include "../mm/mm.h"
#include "../backend.h"
#include "../regmodel.h"
#include "../lat.h"

#define VGSP_FIFO_MAX_CHANNELS	64
#define VGSP_FIFO_MAX_CHID	2048
#define VGSP_FIFO_SUBCH		8
#define VGSP_FIFO_SLICE_ENTRIES	64	/* GPFIFO entries per slice */
#define VGSP_FIFO_SLICE_DWORDS	8192	/* method dwords per slice */
#define VGSP_USERD_SIZE		512
#define VGSP_USERD_GP_GET	0x88
#define VGSP_USERD_GP_PUT	0x8c

/* Why a channel stopped (its error notifier's info32 carries this). */
enum vgsp_chan_state {
	VGSP_CHAN_IDLE,
	VGSP_CHAN_RUNNING,
	VGSP_CHAN_BLOCKED,	/* semaphore acquire not yet satisfied */
	VGSP_CHAN_ERROR,	/* stopped; error notifier written */
};

/* Method-stream decoder state: survives between slices. */
struct vgsp_pb_state {
	u32 mthd;		/* byte address of the next method */
	u32 count;		/* data dwords left under the header */
	u8 subch;
	u8 mode;		/* VGSP_PB_INC / NINC / ONEINC */
};

/* State methods of the engines, per subchannel class. */
struct vgsp_ce_regs {
	u32 sem_a, sem_b, sem_payload, sem_payload_hi;
	u32 src_phys, dst_phys;
	u32 in_hi, in_lo, out_hi, out_lo;
	u32 pitch_in, pitch_out, line_length, line_count;
	u32 remap_a, remap_b, remap_comp;
};

struct vgsp_host_regs {
	u32 sem_addr_lo, sem_addr_hi, sem_payload_lo, sem_payload_hi;
	u32 sema_a, sema_b, sema_c;	/* legacy SEMAPHOREA..C */
	u32 mem_op_a, mem_op_b, mem_op_c;
};

struct vgsp_chan_stats {
	u64 doorbells, entries, segments, methods, host_methods;
	u64 ce_launches, ce_bytes, sem_releases, sem_acquires, acquire_waits;
	u64 nonstall_intrs, tlb_invalidates, gr_launches, errors;
	u64 gr_traps;			/* report-semaphore TRAPs */
	u64 last_latency_ns, max_latency_ns;
};

/* What the RM layer hands over when a channel object is allocated. */
struct vgsp_chan_desc {
	u32 client, handle, parent;
	u32 hvas, hdevice;
	u32 chid, runlist, engine_type;
	u64 gpfifo_va;
	u32 gpfifo_entries;
	u64 userd_pa;
	enum vgsp_mem_target userd_target;
	u64 errnot_pa;
	enum vgsp_mem_target errnot_target;
	bool has_errnot;
};

struct vgsp_chan {
	bool used;
	struct vgsp_chan_desc d;	/* as allocated; the token is derived */
	struct vgsp_vm vm;		/* the channel's address space */
	bool vm_ok;
	bool resolved;			/* vm resolved since the alloc */
	enum vgsp_chan_state state;
	bool pending;			/* doorbell seen (atomic: see above) */
	u64 doorbell_ns;		/* atomic */
	u32 gp_get;
	u64 pb_ext_base;		/* SET_PB_SEGMENT_EXTENDED_BASE << 40 */
	/* the segment being executed */
	bool in_seg;
	u64 seg_va;
	u32 seg_len, seg_pos;		/* dwords */
	struct vgsp_pb_state pb;
	u32 subch_class[VGSP_FIFO_SUBCH];
	struct vgsp_host_regs host;
	struct vgsp_ce_regs ce;
	u32 error_code;
	u32 error_mthd, error_class;	/* the method that stopped it */
	u32 error_data;			/* and its data */
	bool ce_busy;			/* ce_xfer part done */
	struct vgsp_ce_xfer ce_x;	/* the launch in progress */
	u64 gr_qmd_va;			/* SEND_PCAS_A << 8 */
	struct vgsp_gr_regs {		/* compute-class state the sim executes */
		u32 line_length, line_count, out_hi, out_lo;
		u32 sem_a, sem_b, sem_c;
		u32 i2m_launch;		/* LAUNCH_DMA of the inline transfer */
		u64 i2m_total, i2m_done;
		/*
		 * The destination page the transfer is in, walked once for
		 * all its dwords (engine/gr.c): VA and PA of its start, kept
		 * while the transfer runs and pt_gen stands; size 0: none.
		 */
		u64 i2m_pg_va, i2m_pg_pa, i2m_pg_size, i2m_pg_gen;
		enum vgsp_mem_target i2m_pg_target;
	} gr;
	struct vgsp_gr_rec *gr_rec;	/* backend->gr_state only */
	/* the latency of the operation in flight per class (op_lat.c) */
	struct vgsp_op_times op_t;	/* the backend's, for the last call */
	struct vgsp_op_track {
		u64 t0, sub;		/* decoded; on the engine */
		u64 vis_done, vis_sub;	/* done, not yet visible to the guest */
	} op[2];
	u64 wake_db;			/* the doorbell whose wake was counted */
	/* a timestamped release held back (backend->stamps_at_submit) */
	struct vgsp_held_release {
		bool set, is64;
		u64 va, payload;
	} held;
	u8 rc_todo;			/* stop not yet told: VGSP_RC_PART_* */
	struct vgsp_chan_stats st;
};

#define VGSP_FIFO_ERR_LIST(X)						\
	X(doorbells)							\
	X(doorbells_unknown)	/* token names no channel: ignored */	\
	X(doorbells_any)	/* mapped BAR1 doorbell: every channel */ \
	X(chan_allocs)							\
	X(chan_frees)							\
	X(chan_refused)		/* bad params or table full */		\
	X(worker_runs)							\
	X(slices)							\
	X(tlb_invalidates)	/* BAR0 MMU_INVALIDATE triggers */	\
	X(nonstall_delivered)	/* GR non-stall interrupts raised */	\
	X(nonstall_no_vector)	/* asked of an engine with no vector */	\
	X(chan_errors)							\
	X(rc_posted)		/* stops told to CPU-RM (Xid + RC) */	\
	X(rc_deferred)		/* status queue full: told later */	\
	X(rc_unsent)		/* no GSP running, queue broken or full 10 s */ \
	X(pcas_launches)	/* signalling PCAS that schedule: launched */ \
	X(pcas_no_schedule)	/* NOP, INVALIDATE, PREFETCH: nothing runs */ \
	X(pcas_dependence)	/* INCREMENT_PUT, DECREMENT_DEPENDENCE */

struct vgsp_fifo_stats {
#define VGSP_FIFO_FIELD(n) u64 n;
	VGSP_FIFO_ERR_LIST(VGSP_FIFO_FIELD)
#undef VGSP_FIFO_FIELD
};

/* Operation classes of the latency figures. */
enum vgsp_op_class {
	VGSP_OP_CE,
	VGSP_OP_GR,
	VGSP_OP_CLASSES,
};

/*
 * Where the time of one operation goes, on the host's clock: what vgsp
 * itself costs (submit + complete, the forwarding overhead) apart from
 * what the engine takes (exec) and from the worker's wake-up.
 */
struct vgsp_fifo_lat {
	struct vgsp_lat wake;	/* doorbell trapped -> its channel runs */
	/* method decoded -> on the engine (host doorbell written) */
	struct vgsp_lat submit[VGSP_OP_CLASSES];
	/* on the engine -> completion seen */
	struct vgsp_lat exec[VGSP_OP_CLASSES];
	/* completion seen -> visible to the guest (semaphore or GP_GET) */
	struct vgsp_lat complete[VGSP_OP_CLASSES];
	struct vgsp_lat overhead[VGSP_OP_CLASSES];	/* submit + complete */
};

struct vgsp_fifo {
	struct vgsp_dev *dev;
	struct vgsp_lock *lock;		/* channel state and engine work */
	struct vgsp_worker *worker;
	struct vgsp_chan chan[VGSP_FIFO_MAX_CHANNELS];
	/*
	 * A non-stall interrupt asked for by GR work (atomic): set in a slice,
	 * raised by the worker after its slices, under the device lock.
	 */
	bool gr_nonstall;
	/*
	 * A channel stopped (atomic): its rc_todo is set in the slice, and
	 * the worker tells CPU-RM after its slices, under the device lock.
	 */
	bool rc_pending;
	/*
	 * The BAR1-mapped doorbell page was written (atomic): the value is
	 * not seen, so the worker re-arms the page and scans every channel.
	 */
	bool db_any;
	u64 rc_wait_ns;			/* status queue full since; 0: not */
	u64 gr_seq;			/* compute state writes (gr_rec) */
	struct vgsp_fifo_stats st;
	struct vgsp_fifo_lat lat;	/* fifo lock */
};


int vgsp_fifo_create(struct vgsp_dev *dev);
void vgsp_fifo_destroy(struct vgsp_dev *dev);
/* Device lock held (takes the fifo lock): every channel gone. */
void vgsp_fifo_reset(struct vgsp_dev *dev);

/*
 * Device lock held (takes the fifo lock). 0 or -errno (table full, ChID
 * in use, bad ring).
 */
int vgsp_fifo_chan_alloc(struct vgsp_dev *dev, const struct vgsp_chan_desc *d);
/* Channels of @client whose RM object no longer exists go. */
void vgsp_fifo_chan_prune(struct vgsp_dev *dev, u32 client,
			  bool (*alive)(struct vgsp_dev *, u32, u32));
struct vgsp_chan *vgsp_fifo_chan_find(struct vgsp_dev *dev, u32 client,
				      u32 handle);

/* The work-submit token, as CPU-RM computes it (runlist << 16 | ChID). */
static inline u32 vgsp_chan_token(const struct vgsp_chan *ch)
{
	return ch->d.runlist << 16 | ch->d.chid;
}

/* A doorbell write: token → channel, mark pending, wake. Device lock. */
void vgsp_fifo_doorbell(struct vgsp_dev *dev, u32 token);
/*
 * Stop @ch and tell the guest: its error notifier now, then (queued, the
 * worker posts them after its slice) the Xid and the RC notification GSP-RM
 * sends CPU-RM. Fifo lock.
 */
void vgsp_fifo_chan_error(struct vgsp_dev *dev, struct vgsp_chan *ch,
			  u32 code);
/*
 * @ch's engine raises its non-stall interrupt once the work before it is
 * done (in order here). Queued: delivered by the worker. Fifo lock.
 */
void vgsp_fifo_nonstall(struct vgsp_dev *dev, struct vgsp_chan *ch);
/* Some semaphore may have moved: blocked channels retry. Fifo lock. */
void vgsp_fifo_kick_blocked(struct vgsp_dev *dev);

/* gpfifo.c: run up to one slice of @ch. Fifo lock. True if work is left. */
bool vgsp_gpfifo_run(struct vgsp_dev *dev, struct vgsp_chan *ch);

extern const struct vgsp_reg_table vgsp_fifo_reg_table;
struct vgsp_printer;
/* The "channels" view. */
void vgsp_fifo_show_channels(struct vgsp_dev *dev, struct vgsp_printer *p);
void vgsp_fifo_show_op_latency(struct vgsp_dev *dev, struct vgsp_printer *p);

/*
 * Per-operation latency (op_lat.c), fifo lock held. An engine calls
 * begin before each backend call of an operation and end after it
 * (@done: the operation finished); the first guest-visible sign after it
 * (a semaphore release, GP_GET moving) calls visible. wake: the worker
 * starts a channel a doorbell named.
 */
void vgsp_op_begin(struct vgsp_chan *ch, enum vgsp_op_class c);
void vgsp_op_end(struct vgsp_dev *dev, struct vgsp_chan *ch,
		 enum vgsp_op_class c, bool ok, bool done);
void vgsp_op_visible(struct vgsp_dev *dev, struct vgsp_chan *ch);
void vgsp_op_wake(struct vgsp_dev *dev, struct vgsp_chan *ch);

#endif /* VGSP_FIFO_H */
