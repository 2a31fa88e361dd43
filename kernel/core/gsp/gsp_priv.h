/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * State of one emulated GSP, shared by the files of gsp/ and by the ABI
 * directories. Everything here is protected by the device lock.
 */
#ifndef VGSP_GSP_PRIV_H
#define VGSP_GSP_PRIV_H

#include "gsp.h"
#include "../wire.h"
#include "../abi/abi.h"
#include "../mm/mm.h"
#include "../trace.h"

/* ---- libos message queue transport (same for every 5xx branch) ---- */

#define VGSP_PAGE_SIZE		0x1000
#define VGSP_MSG_SLOT		0x1000		/* msgSize */
#define VGSP_MSG_MAX_ELEMS	16
#define VGSP_MSG_MAX		(VGSP_MSG_SLOT * VGSP_MSG_MAX_ELEMS)

/* GSP_MSG_QUEUE_ELEMENT header */
#define VGSP_ELEM_CHECKSUM	0x20
#define VGSP_ELEM_SEQ		0x24
#define VGSP_ELEM_COUNT		0x28
#define VGSP_ELEM_HDR		0x30		/* RPC header follows */
#define VGSP_ELEM_MIN_RPC	0x20		/* smallest RPC (header only) */
/*
 * A command's first bytes, read before the rest: the element header, the
 * RPC header and the start of its payload, enough for rpc_info to size
 * a small RPC (abi.h).
 */
#define VGSP_RX_FIRST		0x80

/* msgqTxHeader / msgqRxHeader */
#define VGSP_TXH_VERSION	0x00
#define VGSP_TXH_SIZE		0x04
#define VGSP_TXH_MSG_SIZE	0x08
#define VGSP_TXH_MSG_COUNT	0x0c
#define VGSP_TXH_WRITE_PTR	0x10
#define VGSP_TXH_FLAGS		0x14
#define VGSP_TXH_RX_HDR_OFF	0x18
#define VGSP_TXH_ENTRY_OFF	0x1c
#define VGSP_TXH_LEN		0x20
#define VGSP_RXH_OFF		0x20		/* where we put our rx header */
#define VGSP_ENTRY_OFF		0x1000
#define VGSP_MSGQ_FLAG_SWAP_RX	0x1

/*
 * Large RPCs: a first message plus continuation records, reassembled into
 * (and large replies cut from) a per-instance buffer of this size.
 */
#define VGSP_RPC_MAX		(VGSP_MSG_MAX - VGSP_ELEM_HDR)	/* 0xffd0 */
#define VGSP_LARGE_MAX		0x100000
/*
 * A longer request is not kept: its records are checked and dropped, and
 * it is answered with the ABI's answer to its first message, zero-padded
 * to the request's length (so the sender's receive loop completes).
 */
#define VGSP_LARGE_SKIP_MAX	0x4000000
/* A large reply the guest does not drain within this long is given up. */
#define VGSP_LARGE_REPLY_TIMEOUT_NS	10000000000ULL
/* Polling a full status queue: from 50 us, doubling up to 5 ms. */
#define VGSP_BACKOFF_MIN_NS		50000ULL
#define VGSP_BACKOFF_MAX_NS		5000000ULL

/* Largest shared region accepted (pages incl. the page table). */
#define VGSP_SHM_MAX_PAGES	4096

/* ---- boot arguments (GH100 FSP path, §C) ---- */

#define VGSP_FMC_GSP_RM_DESC	0x10		/* GSP_FMC_BOOT_PARAMS */
#define VGSP_FMC_BOOT_ARGS	0x30
#define VGSP_FMC_SIZE		0x38
#define VGSP_LIBOS_ARG_SIZE	0x20		/* LibosMemoryRegionInitArgument */
#define VGSP_LIBOS_ARG_ID8	0x00
#define VGSP_LIBOS_ARG_PA	0x08
#define VGSP_LIBOS_ARG_SZ	0x10
#define VGSP_LIBOS_ARGS_MAX	(VGSP_PAGE_SIZE / VGSP_LIBOS_ARG_SIZE)
#define VGSP_ID8_RMARGS		0x0000524d41524753ULL	/* "RMARGS" */
#define VGSP_RMARGS_SHM_PA	0x00		/* GSP_ARGUMENTS_CACHED */
#define VGSP_RMARGS_PTE_COUNT	0x08
#define VGSP_RMARGS_CMDQ_OFF	0x10
#define VGSP_RMARGS_STATQ_OFF	0x18
#define VGSP_RMARGS_SIZE	0x50

/* ---- emulated GSP state ---- */

#define VGSP_GSP_ERR_LIST(X)						\
	X(doorbells)		/* doorbell writes (BAR0 0x110C00) */	\
	X(doorbells_early)	/* doorbells before the GSP ran */	\
	X(worker_runs)							\
	X(rpcs_inline)		/* answered in the doorbell's trap */	\
	X(rpcs_fast)		/* of those, the common case (2 accesses) */ \
	X(boots)		/* GSP "started" (queues linked) */	\
	X(boot_errors)		/* boot-argument chain unusable */	\
	X(fsp_msgs)		/* FSP packets received */		\
	X(fsp_errors)		/* FSP packets refused */		\
	X(emem_bad)		/* EMEM access out of range */		\
	X(fsp_bad_queue)	/* FSP queue head/tail out of EMEM */	\
	X(cmdq_hdr_bad)		/* command-queue header invalid */	\
	X(elem_count_bad)	/* elemCount 0, >16 or > available */	\
	X(length_bad)		/* RPC length out of range */		\
	X(checksum_bad)						\
	X(seq_bad)		/* command seqNum not the next one */	\
	X(rpc_hdr_bad)		/* bad RPC header version/signature */	\
	X(shm_errors)		/* guest memory of the queues failed */	\
	X(statq_full)		/* reply deferred: status queue full */	\
	X(backoffs)		/* worker polls deferred: queue full */	\
	X(msgs_rx)		/* commands consumed */			\
	X(msgs_dropped)		/* commands dropped (malformed) */	\
	X(msgs_tx)		/* messages posted (replies+events) */	\
	X(irqs)			/* interrupts raised */			\
	X(irqs_merged)		/* message while SWGEN0 pending: no edge */ \
	X(nonstall_raised)	/* engine non-stall vectors set pending */ \
	X(rc_events)		/* stopped-channel events posted (Xid, RC) */ \
	X(unknown_functions)						\
	X(unknown_controls)	/* control calls answered NOT_SUPPORTED */ \
	X(version_refused)	/* unsupported guest driver */		\
	X(version_gate)		/* RPC refused: no supported version */	\
	X(resets)							\
	X(stops)		/* GSP reset or re-booted while running */ \
	X(large_rx)		/* large requests reassembled, dispatched */ \
	X(large_tx)		/* replies sent as continuation records */ \
	X(cont_rx)		/* continuation records consumed */	\
	X(cont_orphan)		/* continuation, no large request: dropped */ \
	X(large_abandoned)	/* partial request/reply given up */	\
	X(large_bad)		/* large request too big or malformed */

struct vgsp_gsp_errs {
#define VGSP_GSP_ERR_FIELD(n) u64 n;
	VGSP_GSP_ERR_LIST(VGSP_GSP_ERR_FIELD)
#undef VGSP_GSP_ERR_FIELD
};

#define VGSP_FN_TRACK		256	/* function numbers with own stats */
#define VGSP_CTRL_TRACK		128	/* distinct control commands */
#define VGSP_CTRL_HASH_BITS	8	/* their index: twice as many buckets */
#define VGSP_CTRL_HASH		(1U << VGSP_CTRL_HASH_BITS)
#define VGSP_LAT_BUCKETS	40	/* log2(ns) buckets */
/*
 * A doorbell answered in its own trap reads the clock (for the RPC latency
 * statistics) one time in this many: two clock reads were a tenth of a
 * small RPC under TCG. RPCs the worker answers always record theirs.
 */
#define VGSP_LAT_SAMPLE		16
#define VGSP_RPC_LOG		64

struct vgsp_fn_stat {
	u64 req, ok, err;
};

struct vgsp_ctrl_stat {
	u32 cmd;
	u32 last_status;
	u32 last_size;		/* params size the guest sent */
	u64 count;
	u64 unsupported;
};

struct vgsp_rpc_log_entry {
	u64 seq;
	u32 function;
	u32 cmd;
	u32 status;
	u32 flags;		/* 1: has cmd, 2: error */
	u64 latency_ns;
};

struct vgsp_gsp_stats {
	struct vgsp_fn_stat fn[VGSP_FN_TRACK];
	struct vgsp_fn_stat fn_other;
	u64 lat_hist[VGSP_LAT_BUCKETS];
	u64 lat_count, lat_total_ns, lat_max_ns;
	struct vgsp_ctrl_stat ctrl[VGSP_CTRL_TRACK];
	u8 ctrl_idx[VGSP_CTRL_HASH];	/* ctrl[] by command: slot + 1, 0 empty */
	unsigned int nctrl;
	u64 ctrl_untracked;
	struct vgsp_rpc_log_entry log[VGSP_RPC_LOG];
	u64 log_seq;
	struct vgsp_gsp_errs e;
};

/* RM object table (per instance) */
#define VGSP_OBJ_MAX		1024
#define VGSP_OBJ_MAX_DEPTH	16	/* bounds the cascade of a free */

enum vgsp_obj_kind {
	VGSP_OBJ_ROOT,
	VGSP_OBJ_DEVICE,
	VGSP_OBJ_SUBDEVICE,
	VGSP_OBJ_OTHER,
};

enum vgsp_obj_err {
	VGSP_OBJ_OK,
	VGSP_OBJ_DUPLICATE,
	VGSP_OBJ_NO_CLIENT,
	VGSP_OBJ_NO_PARENT,
	VGSP_OBJ_BAD_PARENT,
	VGSP_OBJ_FULL,
	VGSP_OBJ_BAD_HANDLE,
	VGSP_OBJ_TOO_DEEP,
};

struct vgsp_obj {
	u32 client, parent, handle, cls;
	u16 pidx;		/* slot of the parent (not for a root) */
	u8 kind;
	u8 depth;
	bool dying;
	bool used;
};

/*
 * Index of the table by (client, handle): open addressing, linear probing,
 * twice VGSP_OBJ_MAX buckets so probes stay short. Every control, alloc
 * and free looks objects up; a scan of up to VGSP_OBJ_MAX slots each time
 * grew with the guest's object count.
 */
#define VGSP_OBJ_HASH_BITS	11
#define VGSP_OBJ_HASH		(1U << VGSP_OBJ_HASH_BITS)

struct vgsp_objtab {
	struct vgsp_obj *o;
	u16 *hash;			/* slot + 1 per bucket, 0: empty */
	unsigned int used, high;	/* live objects, high-water mark */
	u64 allocs, frees, refused;
};

/*
 * Where the boot arguments start. GH100's FSP path hands over
 * GSP_FMC_BOOT_PARAMS; a SEC2-booted chip (GA100) would hand over the
 * libos argument array from GSP MAILBOX0/1 directly.
 */
enum vgsp_boot_args {
	VGSP_BOOT_ARGS_FMC,
	VGSP_BOOT_ARGS_LIBOS,
};

enum vgsp_boot_state {
	VGSP_BOOT_OFF,		/* power-on: waiting for the boot command */
	VGSP_BOOT_STARTING,	/* COT accepted, worker links the queues */
	VGSP_BOOT_RUNNING,	/* INIT_DONE sent, serving RPCs */
	VGSP_BOOT_FAILED,	/* boot arguments unusable: until reset */
};

/*
 * Region-page translations kept (shm.c), direct-mapped by page: OpenRM's
 * table + both queues fit without two pages sharing a slot.
 */
#define VGSP_SHM_XLAT		256

/* Shared region: page table + command queue + status queue (§C.6). */
struct vgsp_msgq {
	u64 shm_pa;			/* page 0 (the page table itself) */
	u32 npages;
	u32 cmdq_off, statq_off;	/* byte offsets in the region */
	u32 cmdq_size, statq_size;
	u32 cmd_count;			/* from the guest's header */
	u32 cmd_rptr;			/* our consumption of the cmd queue */
	u32 rx_seq;			/* next expected command seqNum */
	u32 stat_count;
	u32 stat_wptr;			/* next status slot we fill */
	u32 tx_seq;			/* next status seqNum */
	u32 cpu_wptr, cpu_rptr;		/* as last read from the guest */
	/*
	 * The command queue's header as last found valid (msgq.c), less
	 * its write pointer: bytes 0x00-0x0f raw, then its flags, rx header
	 * and entry offsets. The same again needs no second validation.
	 */
	bool cmd_geo_ok;
	u64 cmd_geo[2];
	u32 cmd_geo_flags;
	u32 cmd_entry_off, cmd_rx_off;
	/* Large RPCs (continuation records), data in gsp->big_req/big_rep */
	u32 big_total, big_have;	/* request being reassembled; 0: none */
	bool big_skip;			/* too long to keep: first message only */
	u32 rep_len, rep_off;		/* reply being sent; rep_off < rep_len */
	u32 rep_have;			/* bytes of it in big_rep; zeros after */
	u64 rep_since_ns;		/* last progress of that reply */
	bool tx_blocked;		/* last pass stopped: status queue full */
	/* Region pages translated since link (shm.c); tag page + 1, 0: none */
	u32 xl_tag[VGSP_SHM_XLAT];
	u64 xl_pa[VGSP_SHM_XLAT];
};

#define VGSP_FSP_EMEM_SIZE	1024	/* channel 0 */

struct vgsp_fsp {
	u8 emem[VGSP_FSP_EMEM_SIZE];
	u32 ememc;			/* EMEMC(0) with the live pointer */
	u32 last_nvdm;
	u32 last_error;
};

/* Interrupt leaf registers modelled: GH100 CPU-RM touches 16 (512 vectors). */
#define VGSP_INTR_LEAVES	16
/* Top-level enables GSP-RM leaves on: every subtree (CPU-RM only does leaves). */
#define VGSP_INTR_TOP_EN_RESET	((1U << (VGSP_INTR_LEAVES / 2)) - 1)

struct vgsp_gsp_chip;

struct vgsp_gsp {
	struct vgsp_dev *dev;
	const struct vgsp_abi *abi;
	const struct vgsp_gsp_chip *chip;
	struct vgsp_worker *worker;

	enum vgsp_boot_state boot;
	enum vgsp_boot_args boot_args;
	u64 boot_args_pa;		/* e.g. from the COT payload */
	bool start_pending;
	bool doorbell_pending;
	u64 doorbell_ns;		/* time of the last doorbell */
	u32 lat_tick;			/* doorbells, for VGSP_LAT_SAMPLE */
	u64 backoff_ns;			/* status queue full: next poll in */

	struct vgsp_msgq q;
	struct vgsp_fsp fsp;
	struct vgsp_objtab objs;

	/* Interrupt tree (§B.7): enables live here, pending in the regs. */
	u32 leaf_en[VGSP_INTR_LEAVES];
	u32 top_en;
	/* Register slots every reply sets (vgsp_intr_init); -1: none */
	int reg_irqstat, reg_gsp_leaf;

	/* Guest driver negotiated by SET_GUEST_SYSTEM_INFO. */
	bool version_ok;
	bool refused;
	char guest_version[32];
	u32 unknown_fn_logged[VGSP_FN_TRACK / 32];

	u8 *rx, *tx;			/* one message each */
	u8 *big_req, *big_rep;		/* VGSP_LARGE_MAX each: large RPCs */

	struct vgsp_gsp_stats st;
};

/* Per-chip GSP HAL: register tables and boot style. */
struct vgsp_gsp_chip {
	const struct vgsp_chip *chip;
	const struct vgsp_reg_table *tables;
	unsigned int ntables;
	u32 irq_vector;			/* CPU interrupt-tree vector of GSP */
	u32 gr_nonstall_vector;		/* GR0's notification vector */
};

extern const struct vgsp_gsp_chip vgsp_gsp_chip_gh100;
const struct vgsp_gsp_chip *vgsp_gsp_chip_find(const struct vgsp_chip *c);

/* gsp.c */
void vgsp_gsp_boot_accepted(struct vgsp_gsp *gsp, enum vgsp_boot_args kind,
			    u64 pa);
/* The GSP core was reset (or is booted again): forget queues and objects. */
void vgsp_gsp_stop(struct vgsp_gsp *gsp);

/* falcon.c: GSP falcon registers (shared by chips) */
#define VGSP_GSP_FALCON_BASE	0x110000
#define VGSP_FLCN_IRQSSET	0x000
#define VGSP_FLCN_IRQSCLR	0x004
#define VGSP_FLCN_IRQSTAT	0x008
#define VGSP_FLCN_IRQMSET	0x010
#define VGSP_FLCN_IRQMCLR	0x014
#define VGSP_FLCN_IRQMASK	0x018
#define VGSP_FLCN_IRQDEST	0x01c
#define VGSP_FLCN_MAILBOX0	0x040
#define VGSP_FLCN_MAILBOX1	0x044
#define VGSP_FLCN_OS		0x080
#define VGSP_FLCN_RM		0x084
#define VGSP_FLCN_HWCFG2	0x0f4
#define VGSP_FLCN_CPUCTL	0x100
#define VGSP_FLCN_ENGINE	0x3c0
#define VGSP_FLCN_RETRIGGER	0x3e8
#define VGSP_GSP_QUEUE_HEAD0	0x110c00
#define VGSP_IRQ_SWGEN0		(1U << 6)
#define VGSP_HWCFG2_RISCV	(1U << 10)
#define VGSP_HWCFG2_LOCKDOWN	(1U << 13)
#define VGSP_HWCFG2_RESET_READY	(1U << 31)
#define VGSP_GH100_RISCV_CPUCTL	0x111388
#define VGSP_RISCV_CPUCTL_HALTED (1U << 4)
#define VGSP_RISCV_CPUCTL_ACTIVE (1U << 7)

u32 vgsp_gsp_reg(struct vgsp_gsp *gsp, u32 off);
void vgsp_gsp_reg_set(struct vgsp_gsp *gsp, u32 off, u32 val);
/*
 * Register arrays shared between chip tables. The bound is part of the
 * declaration so a chip can build a constant table from another file; the
 * compiler rejects a definition whose row count differs.
 */
#define VGSP_GSP_FALCON_NREGS	22
extern const struct vgsp_reg vgsp_gsp_falcon_regs[VGSP_GSP_FALCON_NREGS];

/* fsp_gh100.c */
#define VGSP_FSP_GH100_NREGS	6
extern const struct vgsp_reg vgsp_fsp_gh100_regs[VGSP_FSP_GH100_NREGS];
void vgsp_fsp_reset(struct vgsp_gsp *gsp);

/* intr.c */
#define VGSP_INTR_NREGS		7
extern const struct vgsp_reg vgsp_intr_regs[VGSP_INTR_NREGS];
void vgsp_intr_reset(struct vgsp_gsp *gsp);
/* Look up the registers vgsp_intr_gsp_raise sets (once: the map is fixed). */
void vgsp_intr_init(struct vgsp_gsp *gsp);
void vgsp_intr_gsp_edge(struct vgsp_gsp *gsp);

/*
 * Status queue gained messages: SWGEN0, and on its edge the leaf bit and
 * the MSI-X (when enabled). The falcon's interrupt is edge triggered, as
 * kgspService treats it (it clears SWGEN0 before draining the queue, then
 * writes INTR_RETRIGGER): a message posted while SWGEN0 is still pending
 * is found by the drain already under way, or, while the driver polls
 * with the interrupt unacknowledged, by the poll. Sending an MSI-X for
 * each of those was half a microsecond per RPC under TCG and a guest
 * interrupt (with its register traps) that found nothing new. Inline: the
 * merged case is every polled RPC's.
 */
static __always_inline void vgsp_intr_gsp_raise(struct vgsp_gsp *gsp)
{
	u32 *irqstat;

	if (gsp->reg_irqstat >= 0) {
		irqstat = &gsp->dev->regs.values[gsp->reg_irqstat];
		if (*irqstat & VGSP_IRQ_SWGEN0) {
			gsp->st.e.irqs_merged++;
			return;
		}
		*irqstat |= VGSP_IRQ_SWGEN0;
	}
	vgsp_intr_gsp_edge(gsp);
}
/* Re-deliver if the GSP interrupt is still pending (retrigger). */
void vgsp_intr_gsp_retrigger(struct vgsp_gsp *gsp);


/* shm.c: the shared region through the guest's page table */
int vgsp_shm_xfer(struct vgsp_gsp *gsp, u64 off, void *buf, u32 len,
		  bool write);

int vgsp_shm_xlat(struct vgsp_gsp *gsp, u32 page, u64 *pa);

/*
 * The guest address of region page @page: the kept translation, else the
 * walk (which keeps it). Inline, as the rest of a small RPC's path: under
 * TCG a cold call and its return cost more than the work of most of the
 * functions on it (docs/gsp-emulation.md).
 */
static __always_inline int vgsp_shm_page(struct vgsp_gsp *gsp, u32 page,
					 u64 *pa)
{
	const struct vgsp_msgq *q = &gsp->q;
	u32 i = page % VGSP_SHM_XLAT;

	if (q->xl_tag[i] == page + 1) {
		*pa = q->xl_pa[i];
		return 0;
	}
	return vgsp_shm_xlat(gsp, page, pa);
}

struct vgsp_shm_seg {
	u64 off;		/* in the region */
	void *buf;
	u32 len;
};

/*
 * @n pieces of the region in order, each within one page of it (else
 * they go one by one through vgsp_shm_xfer): one vectored frontend
 * access. A small RPC is two of these (queue header + command; reply +
 * the pointers that publish it).
 */
static __always_inline int vgsp_shm_xfer_v(struct vgsp_gsp *gsp,
					   const struct vgsp_shm_seg *seg,
					   unsigned int n, bool write)
{
	u64 end = (u64)gsp->q.npages * VGSP_PAGE_SIZE;
	struct vgsp_dma_seg d[VGSP_DMA_SEGS_MAX] VGSP_NOINIT;
	unsigned int i;
	int ret;

	if (n > VGSP_DMA_SEGS_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		u64 off = seg[i].off;
		u32 len = seg[i].len, in_page = off % VGSP_PAGE_SIZE;
		u64 pa;

		if (vgsp_unlikely(off + len > end))
			return -EFAULT;
		/* len - 1 wraps for 0: that and a page crossing go apart */
		if (vgsp_unlikely(len - 1 >= VGSP_PAGE_SIZE - in_page))
			goto one_by_one;
		ret = vgsp_shm_page(gsp, (u32)(off / VGSP_PAGE_SIZE), &pa);
		if (vgsp_unlikely(ret))
			return ret;
		d[i].iova = pa + in_page;
		d[i].buf = seg[i].buf;
		d[i].len = len;
	}
	return vgsp_dev_dma_hot_v(gsp->dev, d, n, write);
one_by_one:
	for (i = 0; i < n; i++) {
		ret = vgsp_shm_xfer(gsp, seg[i].off, seg[i].buf, seg[i].len,
				    write);
		if (ret)
			return ret;
	}
	return 0;
}

static inline int vgsp_shm_read(struct vgsp_gsp *gsp, u64 off, void *buf,
				u32 len)
{
	return vgsp_shm_xfer(gsp, off, buf, len, false);
}

static inline int vgsp_shm_write(struct vgsp_gsp *gsp, u64 off,
				 const void *buf, u32 len)
{
	return vgsp_shm_xfer(gsp, off, (void *)buf, len, true);
}

/* msgq.c */
int vgsp_msgq_link(struct vgsp_gsp *gsp, u64 shm_pa, u32 npages,
		   u64 cmdq_off, u64 statq_off);
/*
 * One pass of both below (@budget_ns 0: the worker's, no limit).
 * @doorbell_ns: when the doorbell rang, 0 when it was not read; replies
 * record their latency from it. @done: commands of this doorbell the
 * fast path answered already (they count toward the batch and budget).
 */
bool vgsp_msgq_pass(struct vgsp_gsp *gsp, u64 doorbell_ns, u64 budget_ns,
		    u32 done);

/* Consume commands; returns true if more work remains. */
static inline bool vgsp_msgq_process(struct vgsp_gsp *gsp, u64 doorbell_ns)
{
	return vgsp_msgq_pass(gsp, doorbell_ns, 0, 0);
}

/*
 * PGSP_QUEUE_HEAD(i) written (falcon.c's register table; lock held):
 * queue 0's is the command queue's doorbell (msgq.c).
 */
void vgsp_gsp_queue_head_write(struct vgsp_dev *dev,
			       const struct vgsp_reg *reg, unsigned int idx,
			       u32 old, u32 val);

int vgsp_msgq_send(struct vgsp_gsp *gsp, u8 *msg, u32 rpc_len);
u32 vgsp_msgq_checksum(const u8 *buf, u32 len);
u32 vgsp_msgq_free_slots(struct vgsp_gsp *gsp);

/*
 * Trace points around one RPC (../trace.h): @rpc holds its header, @len is
 * its size (0: the header's length field, a message of one record).
 */
static inline void vgsp_trace_rpc_begin(struct vgsp_gsp *gsp, const u8 *rpc,
					u32 len)
{
	u32 fn;

	if (!vgsp_tracing())
		return;
	fn = gsp->abi->rpc_function(rpc);
	vgsp_trace(VGSP_TRACE_RPC_BEGIN, gsp->dev->name, gsp->abi->fn_name(fn),
		   fn, len ? len : gsp->abi->rpc_length(rpc), 0, 0);
}

static inline void vgsp_trace_rpc_end(struct vgsp_gsp *gsp,
				      const struct vgsp_rpc_outcome *o,
				      u32 reply_len)
{
	if (!vgsp_tracing())
		return;
	vgsp_trace(VGSP_TRACE_RPC_END, gsp->dev->name,
		   gsp->abi->fn_name(o->function), o->function, o->status,
		   reply_len, o->has_cmd ? o->cmd : 0);
}

/* objects.c */
int vgsp_obj_init(struct vgsp_objtab *t);
void vgsp_obj_fini(struct vgsp_objtab *t);
void vgsp_obj_clear(struct vgsp_objtab *t);
enum vgsp_obj_err vgsp_obj_alloc(struct vgsp_objtab *t, u32 client,
				 u32 parent, u32 handle, u32 cls,
				 enum vgsp_obj_kind kind);
/* Frees @handle and its descendants; returns the count or -ENOENT. */
int vgsp_obj_free(struct vgsp_objtab *t, u32 client, u32 handle);

static inline unsigned int vgsp_obj_bucket(u32 client, u32 handle)
{
	return vgsp_hash32(client ^ vgsp_hash32(handle, 32),
			   VGSP_OBJ_HASH_BITS);
}

/* Inline: every control looks its object up (vgsp_shm_page's reason). */
static __always_inline struct vgsp_obj *vgsp_obj_find(struct vgsp_objtab *t,
						      u32 client, u32 handle)
{
	unsigned int b = vgsp_obj_bucket(client, handle), n;

	/* live objects are at most half the buckets: an empty one ends it */
	for (n = 0; n < VGSP_OBJ_HASH; n++) {
		u16 e = t->hash[b];
		struct vgsp_obj *o;

		if (!e)
			return NULL;
		o = &t->o[e - 1];
		if (o->client == client && o->handle == handle)
			return o;
		b = (b + 1) & (VGSP_OBJ_HASH - 1);
	}
	return NULL;
}

/*
 * stats.c keeps the names; counting is inline here, as it runs on every
 * RPC (vgsp_shm_page's reason).
 */
/* floor(log2(ns)), capped: one instruction, not a loop per bit. */
static __always_inline unsigned int vgsp_log2_bucket(u64 ns)
{
	unsigned int b = ns > 1 ? 63 - (unsigned int)__builtin_clzll(ns) : 0;

	return b < VGSP_LAT_BUCKETS - 1 ? b : VGSP_LAT_BUCKETS - 1;
}

static __always_inline void vgsp_stats_rpc(struct vgsp_gsp *gsp,
					   const struct vgsp_rpc_outcome *o,
					   u64 latency_ns, bool replied)
{
	struct vgsp_gsp_stats *st = &gsp->st;
	struct vgsp_fn_stat *f = o->function < VGSP_FN_TRACK ?
				 &st->fn[o->function] : &st->fn_other;
	struct vgsp_rpc_log_entry *l = &st->log[st->log_seq % VGSP_RPC_LOG];

	f->req++;
	if (o->error)
		f->err++;
	else
		f->ok++;
	if (replied && latency_ns) {
		st->lat_hist[vgsp_log2_bucket(latency_ns)]++;
		st->lat_count++;
		st->lat_total_ns += latency_ns;
		if (latency_ns > st->lat_max_ns)
			st->lat_max_ns = latency_ns;
	}
	l->seq = st->log_seq++;
	l->function = o->function;
	l->cmd = o->cmd;
	l->status = o->status;
	l->flags = (o->has_cmd ? 1 : 0) | (o->error ? 2 : 0) |
		   (replied ? 0 : 4);
	l->latency_ns = latency_ns;
}

/*
 * Count one control call. Returns true the first time @cmd is answered
 * NOT_SUPPORTED, so the caller logs each unknown command once.
 */
static __always_inline bool vgsp_stats_ctrl(struct vgsp_gsp *gsp, u32 cmd,
					    u32 size, u32 status,
					    bool supported)
{
	struct vgsp_gsp_stats *st = &gsp->st;
	struct vgsp_ctrl_stat *c = NULL;
	unsigned int b = vgsp_hash32(cmd, VGSP_CTRL_HASH_BITS), n;
	bool first;

	/* at most VGSP_CTRL_TRACK of the buckets are taken: probes end */
	for (n = 0; n < VGSP_CTRL_HASH && st->ctrl_idx[b]; n++) {
		if (st->ctrl[st->ctrl_idx[b] - 1].cmd == cmd) {
			c = &st->ctrl[st->ctrl_idx[b] - 1];
			break;
		}
		b = (b + 1) % VGSP_CTRL_HASH;
	}
	if (!c) {
		if (st->nctrl == VGSP_CTRL_TRACK || st->ctrl_idx[b]) {
			st->ctrl_untracked++;
			return false;
		}
		c = &st->ctrl[st->nctrl++];
		c->cmd = cmd;
		st->ctrl_idx[b] = (u8)st->nctrl;
	}
	c->count++;
	c->last_status = status;
	c->last_size = size;
	if (supported)
		return false;
	first = c->unsupported == 0;
	c->unsupported++;
	gsp->st.e.unknown_controls++;
	return first;
}
extern const char *const vgsp_gsp_err_names[];
extern const unsigned int vgsp_gsp_nerrs;

#endif /* VGSP_GSP_PRIV_H */
