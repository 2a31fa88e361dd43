// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host (PBDMA) methods of HOPPER_CHANNEL_GPFIFO_A, and the method router.
 *
 * Semaphores: SEM_ADDR_LO/HI + SEM_PAYLOAD_LO/HI + SEM_EXECUTE (release
 * 32/64-bit with optional timestamp; acquire ==, strict >=, circular >=,
 * AND, NOR), and the legacy SEMAPHOREA..D. An acquire that is not yet
 * satisfied blocks only this channel: the method is retried on the next
 * doorbell, after any release, or after a short timer. NON_STALL_INTERRUPT
 * raises the channel's engine's notification interrupt. MEM_OP TLB
 * invalidates are the physical backend's resync point; sim walks the page
 * tables on every access, so for it they only count.
 */
#include "engine.h"
#include "../backend.h"

#define M_SET_OBJECT		0x000
#define M_NOP			0x008
#define M_SEMAPHOREA		0x010
#define M_SEMAPHOREB		0x014
#define M_SEMAPHOREC		0x018
#define M_SEMAPHORED		0x01c
#define M_NON_STALL_INTERRUPT	0x020
#define M_MEM_OP_A		0x028
#define M_MEM_OP_B		0x02c
#define M_MEM_OP_C		0x030
#define M_MEM_OP_D		0x034
#define M_SET_REFERENCE		0x050
#define M_SEM_ADDR_LO		0x05c
#define M_SEM_ADDR_HI		0x060
#define M_SEM_PAYLOAD_LO	0x064
#define M_SEM_PAYLOAD_HI	0x068
#define M_SEM_EXECUTE		0x06c
#define M_WFI			0x078
#define M_CRC_CHECK		0x07c
#define M_YIELD			0x080
#define M_CLEAR_FAULTED		0x084
#define HOST_METHOD_END		0x100

/* SEM_EXECUTE */
#define SE_OP(d)		((d) & 0x7)
#define SE_ACQUIRE		0
#define SE_RELEASE		1
#define SE_ACQ_STRICT_GEQ	2
#define SE_ACQ_CIRC_GEQ		3
#define SE_ACQ_AND		4
#define SE_ACQ_NOR		5
#define SE_REDUCTION		6
#define SE_PAYLOAD_64		(1U << 24)
#define SE_TIMESTAMP		(1U << 25)

/* legacy SEMAPHORED */
#define SD_ACQUIRE		0x1
#define SD_RELEASE		0x2
#define SD_ACQ_GEQ		0x4
#define SD_ACQ_AND		0x8
#define SD_RELEASE_4BYTE	(1U << 24)

/* MEM_OP_D.OPERATION 31:27 */
#define MOP_MEMBAR		0x05
#define MOP_TLB_INVALIDATE	0x09
#define MOP_TLB_INVALIDATE_TGT	0x0a

static int sem_write(struct vgsp_dev *dev, struct vgsp_chan *ch, u64 va,
		     u64 payload, bool is64, bool timestamp)
{
	u8 b[16];
	u32 n = is64 ? 8 : 4;

	vgsp_put64(b, 0, payload);
	if (timestamp) {
		if (!is64)
			vgsp_put32(b, 4, 0);
		vgsp_put64(b, 8, vgsp_now_ns() + vgsp_load64(&dev->timer_offset_ns));
		n = 16;
	}
	if (!ch->vm_ok || vgsp_vm_write(dev, &ch->vm, va, b, n)) {
		ch->error_code = VGSP_RC_MMU_FAULT;
		return VGSP_ENG_ERROR;
	}
	ch->st.sem_releases++;
	vgsp_op_visible(dev, ch);
	vgsp_fifo_kick_blocked(dev);
	return VGSP_ENG_OK;
}

int vgsp_sem_flush(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	struct vgsp_held_release h = ch->held;

	if (!h.set)
		return VGSP_ENG_OK;
	ch->held.set = false;
	return sem_write(dev, ch, h.va, h.payload, h.is64, true);
}

int vgsp_sem_release(struct vgsp_dev *dev, struct vgsp_chan *ch, u64 va,
		     u64 payload, bool is64, bool timestamp)
{
	int ret;

	if (!timestamp || !dev->backend->stamps_at_submit)
		return sem_write(dev, ch, va, payload, is64, timestamp);
	/* one held at a time, in order */
	ret = vgsp_sem_flush(dev, ch);
	if (ret != VGSP_ENG_OK)
		return ret;
	ch->held = (struct vgsp_held_release){ .set = true, .is64 = is64,
					       .va = va, .payload = payload };
	return VGSP_ENG_OK;
}

/* Read the semaphore at @va; 0 or VGSP_ENG_ERROR. */
static int sem_read(struct vgsp_dev *dev, struct vgsp_chan *ch, u64 va,
		    bool is64, u64 *v)
{
	u8 b[8] = { 0 };

	if (!ch->vm_ok || vgsp_vm_read(dev, &ch->vm, va, b, is64 ? 8 : 4)) {
		ch->error_code = VGSP_RC_MMU_FAULT;
		return VGSP_ENG_ERROR;
	}
	*v = is64 ? vgsp_get64(b, 0) : vgsp_get32(b, 0);
	return VGSP_ENG_OK;
}

static int acquire(struct vgsp_dev *dev, struct vgsp_chan *ch, u64 va,
		   u32 op, u64 want, bool is64)
{
	u64 cur;
	bool ok;

	if (sem_read(dev, ch, va, is64, &cur))
		return VGSP_ENG_ERROR;
	switch (op) {
	case SE_ACQUIRE:
		ok = cur == want;
		break;
	case SE_ACQ_STRICT_GEQ:
		ok = cur >= want;
		break;
	case SE_ACQ_CIRC_GEQ:
		ok = is64 ? (s64)(cur - want) >= 0 : (s32)(u32)(cur - want) >= 0;
		break;
	case SE_ACQ_AND:
		ok = (cur & want) != 0;
		break;
	case SE_ACQ_NOR:
		ok = (cur | want) != ~0ULL >> (is64 ? 0 : 32);
		break;
	default:
		ch->error_code = VGSP_RC_PBDMA_ERROR;
		return VGSP_ENG_ERROR;
	}
	if (ok) {
		ch->st.sem_acquires++;
		return VGSP_ENG_OK;
	}
	ch->st.acquire_waits++;
	return VGSP_ENG_BLOCKED;
}

static int sem_execute(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 d)
{
	struct vgsp_host_regs *h = &ch->host;
	u64 va = ((u64)(h->sem_addr_hi & 0x1ffffff) << 32) |
		 (h->sem_addr_lo & ~3U);
	u64 payload = ((u64)h->sem_payload_hi << 32) | h->sem_payload_lo;
	bool is64 = d & SE_PAYLOAD_64;

	if (!is64)
		payload &= 0xffffffff;
	switch (SE_OP(d)) {
	case SE_RELEASE:
		return vgsp_sem_release(dev, ch, va, payload, is64,
					d & SE_TIMESTAMP);
	case SE_REDUCTION:
		ch->error_code = VGSP_RC_PBDMA_ERROR;	/* not implemented */
		return VGSP_ENG_ERROR;
	default:
		return acquire(dev, ch, va, SE_OP(d), payload, is64);
	}
}

static int semaphore_d(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 d)
{
	struct vgsp_host_regs *h = &ch->host;
	u64 va = ((u64)(h->sema_a & 0x1ffffff) << 32) | (h->sema_b & ~3U);

	switch (d & 0x1f) {
	case SD_RELEASE:
		return vgsp_sem_release(dev, ch, va, h->sema_c, false,
					!(d & SD_RELEASE_4BYTE));
	case SD_ACQUIRE:
		return acquire(dev, ch, va, SE_ACQUIRE, h->sema_c, false);
	case SD_ACQ_GEQ:
		return acquire(dev, ch, va, SE_ACQ_CIRC_GEQ, h->sema_c, false);
	case SD_ACQ_AND:
		return acquire(dev, ch, va, SE_ACQ_AND, h->sema_c, false);
	default:
		ch->error_code = VGSP_RC_PBDMA_ERROR;
		return VGSP_ENG_ERROR;
	}
}

static int mem_op(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 d)
{
	switch (d >> 27) {
	case MOP_TLB_INVALIDATE:
	case MOP_TLB_INVALIDATE_TGT:
		/* sim walks on every access; a mirroring backend resyncs */
		vgsp_mm_pt_changed(dev);
		ch->st.tlb_invalidates++;
		return VGSP_ENG_OK;
	default:
		return VGSP_ENG_OK;	/* membars, L2 ops: ordering only */
	}
}

int vgsp_host_method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 subch,
		     u32 mthd, u32 data)
{
	struct vgsp_host_regs *h = &ch->host;

	ch->st.host_methods++;
	switch (mthd) {
	case M_SET_OBJECT:
		ch->subch_class[subch] = data & 0xffff;
		return VGSP_ENG_OK;
	case M_SEMAPHOREA:
		h->sema_a = data;
		return VGSP_ENG_OK;
	case M_SEMAPHOREB:
		h->sema_b = data;
		return VGSP_ENG_OK;
	case M_SEMAPHOREC:
		h->sema_c = data;
		return VGSP_ENG_OK;
	case M_SEMAPHORED:
		return semaphore_d(dev, ch, data);
	case M_NON_STALL_INTERRUPT:
		/* reports on the engine the channel's runlist serves */
		vgsp_fifo_nonstall(dev, ch);
		return VGSP_ENG_OK;
	case M_MEM_OP_A:
		h->mem_op_a = data;
		return VGSP_ENG_OK;
	case M_MEM_OP_B:
		h->mem_op_b = data;
		return VGSP_ENG_OK;
	case M_MEM_OP_C:
		h->mem_op_c = data;
		return VGSP_ENG_OK;
	case M_MEM_OP_D:
		return mem_op(dev, ch, data);
	case M_SEM_ADDR_LO:
		h->sem_addr_lo = data;
		return VGSP_ENG_OK;
	case M_SEM_ADDR_HI:
		h->sem_addr_hi = data;
		return VGSP_ENG_OK;
	case M_SEM_PAYLOAD_LO:
		h->sem_payload_lo = data;
		return VGSP_ENG_OK;
	case M_SEM_PAYLOAD_HI:
		h->sem_payload_hi = data;
		return VGSP_ENG_OK;
	case M_SEM_EXECUTE:
		return sem_execute(dev, ch, data);
	case M_NOP:
	case M_SET_REFERENCE:
	case M_WFI:		/* work is done in order: always idle */
	case M_CRC_CHECK:
	case M_YIELD:
	case M_CLEAR_FAULTED:
		return VGSP_ENG_OK;
	default:
		return VGSP_ENG_OK;	/* other host state: no effect here */
	}
}

/* NV2080_ENGINE_TYPE_COPY0..9 and COPY10..19 */
static bool engine_is_copy(u32 type)
{
	return (type >= 0x09 && type <= 0x12) || (type >= 0x34 && type <= 0x3d);
}

/*
 * The class a subchannel's methods go to. A channel on a copy engine's
 * runlist has only that engine behind it: its engine methods reach the
 * copy class whether or not the stream bound it with SET_OBJECT first
 * (UVM pushes semaphore releases on such channels before any SET_OBJECT).
 */
static u32 subch_class(const struct vgsp_chan *ch, u32 subch)
{
	if (!ch->subch_class[subch] && engine_is_copy(ch->d.engine_type))
		return HOPPER_DMA_COPY_A;
	return ch->subch_class[subch];
}

/*
 * A held release waits through compute state and the launch itself (the
 * backend flushes it as it submits); anything else happens after it.
 */
static bool keeps_held(const struct vgsp_chan *ch, u32 subch, u32 mthd)
{
	if (mthd >= HOST_METHOD_END)
		return subch_class(ch, subch) == HOPPER_COMPUTE_A &&
		       vgsp_gr_method_is_state(mthd);
	switch (mthd) {
	case M_SET_OBJECT:
	case M_NOP:
	case M_SEMAPHOREA:
	case M_SEMAPHOREB:
	case M_SEMAPHOREC:
	case M_MEM_OP_A:
	case M_MEM_OP_B:
	case M_MEM_OP_C:
	case M_SET_REFERENCE:
	case M_SEM_ADDR_LO:
	case M_SEM_ADDR_HI:
	case M_SEM_PAYLOAD_LO:
	case M_SEM_PAYLOAD_HI:
	case M_WFI:
	case M_YIELD:
	case M_CRC_CHECK:
		return true;	/* state or ordering only */
	default:
		return false;	/* releases, acquires, MEM_OP, interrupts */
	}
}

int vgsp_engine_method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 subch,
		       u32 mthd, u32 data)
{
	ch->st.methods++;
	if (ch->held.set && !keeps_held(ch, subch, mthd) &&
	    vgsp_sem_flush(dev, ch) != VGSP_ENG_OK)
		return VGSP_ENG_ERROR;
	if (mthd < HOST_METHOD_END)
		return vgsp_host_method(dev, ch, subch, mthd, data);
	switch (subch_class(ch, subch)) {
	case HOPPER_DMA_COPY_A:
		return vgsp_ce_method(dev, ch, mthd, data);
	case HOPPER_COMPUTE_A:
		return vgsp_gr_method(dev, ch, mthd, data);
	case GP100_UVM_SW:
		return VGSP_ENG_OK;	/* software methods: UVM's own */
	default:
		/* a method for no bound object: real host faults the channel */
		ch->error_code = VGSP_RC_PBDMA_ERROR;
		return VGSP_ENG_ERROR;
	}
}
