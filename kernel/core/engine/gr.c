// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * HOPPER_COMPUTE_A: state methods are accepted (the physical backend will
 * need them recorded; sim has no SMs), a launch (SEND_PCAS_A + a signalling
 * PCAS method) goes to the backend. sim refuses it, and the guest sees
 * what real hardware gives for a failed channel: the error notifier and a
 * stopped channel, never a fake completion and never a hang.
 *
 * The class's two memory writers that need no SM are executed: the inline
 * transfer (LINE_LENGTH_IN/LINE_COUNT/OFFSET_OUT, LAUNCH_DMA, then the data
 * in LOAD_INLINE_DATA; pitch layout, optional semaphore on completion) and
 * SET_REPORT_SEMAPHORE releases (one or four words). CUDA uses both while
 * it sets a context up. A report semaphore with OPERATION_TRAP writes its
 * payload as a release does and then raises GR's non-stall interrupt (the
 * "trap" of the graphics non-stall status), which CPU-RM turns into the
 * wake-up of the events registered on NV2080_NOTIFIERS_GR0 with
 * NV01_EVENT_NONSTALL_INTR: what a CUDA context with blocking sync sleeps
 * on. Reductions, acquires, report-only and block-linear destinations are
 * refused.
 */
#include "../hostd_ring.h"
#include "engine.h"
#include "../backend.h"
#include "../trace.h"

#define M_LINE_LENGTH_IN		0x180
#define M_LINE_COUNT			0x184
#define M_OFFSET_OUT_UPPER		0x188
#define M_OFFSET_OUT			0x18c
#define M_LAUNCH_DMA			0x1b0
#define M_LOAD_INLINE_DATA		0x1b4
#define M_SET_REPORT_SEMAPHORE_A	0x1b00
#define M_SET_REPORT_SEMAPHORE_B	0x1b04
#define M_SET_REPORT_SEMAPHORE_C	0x1b08
#define M_SET_REPORT_SEMAPHORE_D	0x1b0c
#define LD_PITCH			(1U << 0)
#define LD_REDUCTION			(1U << 1)
#define LD_COMPLETION(d)		(((d) >> 4) & 0x3)
#define LD_COMPLETION_RELEASE		2
#define LD_SEM_ONE_WORD			(1U << 12)
#define SD_OPERATION(d)			((d) & 0x3)
#define SD_RELEASE			0
#define SD_TRAP				3
#define SD_REDUCTION			(1U << 3)
#define SD_ONE_WORD			(1U << 28)
#define UPPER_MASK			0x1ffffff
#define I2M_MAX				(1ULL << 32)	/* bytes per launch */
#define M_SEND_PCAS_A			0x2b4
#define M_SEND_SIGNALING_PCAS_B		0x2bc
#define M_SEND_SIGNALING_PCAS2_B	0x2c0
#define PCAS_B_SCHEDULE			(1U << 1)	/* PCAS_B: INVALIDATE 0:0 */
/* SEND_SIGNALING_PCAS2_B.PCAS_ACTION 3:0 (clcbc0.h) */
#define PCAS2_ACTION(d)			((d) & 0xf)
#define PCAS2_NOP			0x0
#define PCAS2_INVALIDATE		0x1
#define PCAS2_SCHEDULE			0x2
#define PCAS2_INVALIDATE_COPY_SCHEDULE	0x3
#define PCAS2_PREFETCH			0x8
#define PCAS2_PREFETCH_SCHEDULE		0x9
#define PCAS2_INV_PREFETCH_COPY_SCHEDULE 0xa
#define PCAS2_INV_PREFETCH_COPY_FORCE	0xb	/* ..._FORCE_REQUIRE_SCHEDULING */

static int refuse(struct vgsp_chan *ch)
{
	ch->error_code = VGSP_RC_GR_EXCEPTION;
	return VGSP_ENG_ERROR;
}

static u64 sem_va(const struct vgsp_gr_regs *r)
{
	return ((u64)(r->sem_a & UPPER_MASK) << 32) | r->sem_b;
}

static int i2m_launch(struct vgsp_chan *ch, u32 d)
{
	struct vgsp_gr_regs *r = &ch->gr;
	u64 total = (u64)r->line_length * (r->line_count ? r->line_count : 1);

	if (!(d & LD_PITCH) || (d & LD_REDUCTION) || total > I2M_MAX)
		return refuse(ch);
	r->i2m_launch = d;
	r->i2m_total = total;
	r->i2m_done = 0;
	r->i2m_pg_size = 0;	/* each transfer walks its own pages */
	return VGSP_ENG_OK;
}

/*
 * Write @n bytes of inline data at @dst. CUDA sends a launch's QMD and
 * parameters as a few hundred LOAD_INLINE_DATA dwords; walking the page
 * tables for each was most of a launch's decode time (a walk is five
 * table reads, uncached when the FB is GPU memory). So the page a dword
 * lands in is walked once and reused, as a TLB would, until the transfer
 * ends, the page ends or the guest invalidates (pt_gen). The walk is
 * vgsp_vm_write()'s: a fault is still reported at the dword that reaches
 * the unmapped, read-only or message page.
 */
static int i2m_write(struct vgsp_dev *dev, struct vgsp_chan *ch, u64 dst,
		     const u8 *b, u32 n)
{
	struct vgsp_gr_regs *r = &ch->gr;
	u64 gen = vgsp_load64(&dev->mm->pt_gen);
	struct vgsp_xlate x;

	if (!r->i2m_pg_size || r->i2m_pg_gen != gen || dst < r->i2m_pg_va ||
	    dst - r->i2m_pg_va >= r->i2m_pg_size) {
		r->i2m_pg_size = 0;
		if (vgsp_mmu_translate_write(dev, &ch->vm, dst, &x))
			return -EFAULT;
		r->i2m_pg_va = dst & ~(x.page - 1);
		r->i2m_pg_pa = x.pa - (dst & (x.page - 1));
		r->i2m_pg_size = x.page;
		r->i2m_pg_target = x.target;
		r->i2m_pg_gen = gen;
	}
	/* a dword across the page end: the general path walks both pages */
	if (dst - r->i2m_pg_va + n > r->i2m_pg_size)
		return vgsp_vm_write(dev, &ch->vm, dst, b, n);
	return vgsp_mem_write(dev, r->i2m_pg_target,
			      r->i2m_pg_pa + (dst - r->i2m_pg_va), b, n);
}

/* One dword of inline data; the last one completes the transfer. */
static int i2m_data(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 data)
{
	struct vgsp_gr_regs *r = &ch->gr;
	u64 dst = ((u64)(r->out_hi & UPPER_MASK) << 32 | r->out_lo) +
		  r->i2m_done;
	u32 n = r->i2m_total - r->i2m_done < 4 ?
		(u32)(r->i2m_total - r->i2m_done) : 4;
	u8 b[4];

	if (!n)
		return refuse(ch);	/* data with no transfer open */
	vgsp_put32(b, 0, data);
	if (!ch->vm_ok || i2m_write(dev, ch, dst, b, n)) {
		ch->error_code = VGSP_RC_MMU_FAULT;
		return VGSP_ENG_ERROR;
	}
	r->i2m_done += n;
	if (r->i2m_done < r->i2m_total ||
	    LD_COMPLETION(r->i2m_launch) != LD_COMPLETION_RELEASE)
		return VGSP_ENG_OK;
	return vgsp_sem_release(dev, ch, sem_va(r), r->sem_c, false,
				!(r->i2m_launch & LD_SEM_ONE_WORD));
}

static int report_semaphore(struct vgsp_dev *dev, struct vgsp_chan *ch,
			    u32 d)
{
	u32 op = SD_OPERATION(d);
	int ret;

	if ((op != SD_RELEASE && op != SD_TRAP) || (d & SD_REDUCTION))
		return refuse(ch);
	ret = vgsp_sem_release(dev, ch, sem_va(&ch->gr), ch->gr.sem_c, false,
			       !(d & SD_ONE_WORD));
	if (ret != VGSP_ENG_OK || op != SD_TRAP)
		return ret;
	/* the interrupt's handler reads the release: written first */
	if (vgsp_sem_flush(dev, ch) != VGSP_ENG_OK)
		return VGSP_ENG_ERROR;
	ch->st.gr_traps++;
	vgsp_fifo_nonstall(dev, ch);
	return VGSP_ENG_OK;
}

/*
 * A state method for a backend that replays them (backend->gr_state): its
 * last value and the instance-wide sequence number of the write. The
 * record is the backend's only copy, so a failed allocation stops the
 * channel rather than launching with state missing.
 */
static int record(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 mthd,
		  u32 data)
{
	struct vgsp_gr_rec *r = ch->gr_rec;
	u32 i = mthd >> 2;

	if (i >= VGSP_GR_REC_MTHDS)
		return refuse(ch);
	if (!r) {
		r = vgsp_zalloc(sizeof(*r));
		if (!r)
			return refuse(ch);
		ch->gr_rec = r;
	}
	r->val[i] = data;
	r->stamp[i] = ++dev->fifo->gr_seq;
	r->log[r->nlog % VGSP_GR_REC_LOG] =
		(struct vgsp_gr_rec_log){ .mthd = (u16)i, .stamp = r->stamp[i] };
	r->nlog++;
	return VGSP_ENG_OK;
}

/*
 * The launch's grid for the trace (hostd_ring.h reads the QMD's fields
 * for sim, hostd and this). Read only while someone listens: it costs a
 * walk of the QMD's page; an unreadable QMD traces a 0x0x0 grid.
 */
static void trace_launch(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	u8 q[VGSP_HR_QMD_BYTES] = { 0 };

	if (!vgsp_tracing())
		return;
	if (!ch->vm_ok || vgsp_vm_read(dev, &ch->vm, ch->gr_qmd_va, q, sizeof(q)))
		memset(q, 0, sizeof(q));
	vgsp_trace_launch(dev, ch->d.chid, ch->gr_qmd_va, vgsp_hr_qmd_grid(q, 0),
			  vgsp_hr_qmd_grid(q, 1), vgsp_hr_qmd_grid(q, 2));
}

/*
 * Whether a signalling PCAS method schedules the QMD at SEND_PCAS_A. Only
 * the actions with SCHEDULE run anything; NOP, INVALIDATE and PREFETCH
 * act on the QMD cache (which a forwarding backend does not share with
 * the guest), so running the QMD for them would run a kernel the guest
 * never asked for. Everything else keeps being launched as before:
 * INCREMENT_PUT and DECREMENT_DEPENDENCE (dependent QMDs) and the reserved
 * values (4, 5, 12..15, which no guest driver seen so far sends), counted
 * apart in pcas_dependence.
 */
static bool pcas_schedules(struct vgsp_dev *dev, u32 mthd, u32 data)
{
	struct vgsp_fifo *f = dev->fifo;

	if (mthd == M_SEND_SIGNALING_PCAS_B) {
		if (data & PCAS_B_SCHEDULE) {
			f->st.pcas_launches++;
			return true;
		}
		f->st.pcas_no_schedule++;
		return false;
	}
	switch (PCAS2_ACTION(data)) {
	case PCAS2_NOP:
	case PCAS2_INVALIDATE:
	case PCAS2_PREFETCH:
		f->st.pcas_no_schedule++;
		return false;
	case PCAS2_SCHEDULE:
	case PCAS2_INVALIDATE_COPY_SCHEDULE:
	case PCAS2_PREFETCH_SCHEDULE:
	case PCAS2_INV_PREFETCH_COPY_SCHEDULE:
	case PCAS2_INV_PREFETCH_COPY_FORCE:
		f->st.pcas_launches++;
		return true;
	default:
		f->st.pcas_dependence++;
		return true;
	}
}

bool vgsp_gr_method_is_state(u32 mthd)
{
	switch (mthd) {
	case M_LAUNCH_DMA:		/* the inline transfer writes memory */
	case M_LOAD_INLINE_DATA:
	case M_SET_REPORT_SEMAPHORE_D:	/* a release or a trap */
		return false;
	default:			/* state, SEND_PCAS_A, the launch */
		return true;
	}
}

int vgsp_gr_method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 mthd,
		   u32 data)
{
	struct vgsp_gr_regs *r = &ch->gr;
	int ret;

	switch (mthd) {
	case M_LINE_LENGTH_IN:
		r->line_length = data;
		return VGSP_ENG_OK;
	case M_LINE_COUNT:
		r->line_count = data;
		return VGSP_ENG_OK;
	case M_OFFSET_OUT_UPPER:
		r->out_hi = data;
		return VGSP_ENG_OK;
	case M_OFFSET_OUT:
		r->out_lo = data;
		return VGSP_ENG_OK;
	case M_LAUNCH_DMA:
		return i2m_launch(ch, data);
	case M_LOAD_INLINE_DATA:
		return i2m_data(dev, ch, data);
	case M_SET_REPORT_SEMAPHORE_A:
		r->sem_a = data;
		return VGSP_ENG_OK;
	case M_SET_REPORT_SEMAPHORE_B:
		r->sem_b = data;
		return VGSP_ENG_OK;
	case M_SET_REPORT_SEMAPHORE_C:
		r->sem_c = data;
		return VGSP_ENG_OK;
	case M_SET_REPORT_SEMAPHORE_D:
		return report_semaphore(dev, ch, data);
	case M_SEND_PCAS_A:
		ch->gr_qmd_va = (u64)data << 8;
		return VGSP_ENG_OK;
	case M_SEND_SIGNALING_PCAS_B:
	case M_SEND_SIGNALING_PCAS2_B:
		if (!pcas_schedules(dev, mthd, data))
			return VGSP_ENG_OK;
		ch->st.gr_launches++;
		trace_launch(dev, ch);
		vgsp_op_begin(ch, VGSP_OP_GR);
		vgsp_fb_gpu_start(dev);
		ret = dev->backend->gr_launch(dev, ch, ch->gr_qmd_va);
		/* what a kernel wrote is unknown; a fault ended it too */
		vgsp_fb_gpu_done(dev, 0, VGSP_FB_GPU_ANY,
				 !ret || ret == -EFAULT);
		vgsp_op_end(dev, ch, VGSP_OP_GR, !ret, true);
		/* a release the backend did not flush as it submitted */
		if (vgsp_sem_flush(dev, ch) != VGSP_ENG_OK && !ret)
			return VGSP_ENG_ERROR;
		if (ret) {
			ch->error_code = ret == -EFAULT ? VGSP_RC_MMU_FAULT :
				VGSP_RC_GR_EXCEPTION;
			return VGSP_ENG_ERROR;
		}
		return VGSP_ENG_OK;
	default:
		if (dev->backend->gr_state)
			return record(dev, ch, mthd, data);
		return VGSP_ENG_OK;
	}
}
