// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The sim backend: copy-engine work executed on the CPU through mm/ (the
 * FB store and guest system memory by IOVA), in bounded parts; compute is
 * refused (there are no SMs to run a kernel on).
 */
#include "../backend.h"
#include "../fifo/fifo.h"
#include "../wire.h"
#include "../engine/engine.h"
#include "../hostd_ring.h"

#define BOUNCE			4096

static int side_rw(struct vgsp_dev *dev, const struct vgsp_ce_end *e,
		   u64 addr, void *buf, u32 len, bool write)
{
	if (e->virt)
		return write ? vgsp_vm_write(dev, &e->vm, addr, buf, len) :
			       vgsp_vm_read(dev, &e->vm, addr, buf, len);
	if (write ? vgsp_mem_write(dev, e->target, addr, buf, len) :
		    vgsp_mem_read(dev, e->target, addr, buf, len))
		return -EFAULT;
	return 0;
}

/* An element that is one byte or one dword repeated fills FB directly. */
static bool fb_pattern(const struct vgsp_ce_xfer *x, u32 *pat)
{
	u32 i;

	if (x->dst.virt || x->dst.target != VGSP_MEM_VID ||
	    (x->elem_size != 1 && x->elem_size != 2 && x->elem_size != 4))
		return false;
	*pat = 0;
	for (i = 0; i < 4; i++)
		*pat |= (u32)x->elem[i % x->elem_size] << (8 * i);
	return true;
}

static int sim_ce_xfer(struct vgsp_dev *dev, struct vgsp_ce_xfer *x)
{
	u64 budget = VGSP_CE_SLICE_BYTES;
	u8 *buf = NULL;
	int ret = 0;
	u32 pat;

	if (x->fill && x->elem_size == 0)
		return -EINVAL;
	while (x->line < x->lines) {
		u64 src = x->src.addr + (u64)x->line * x->pitch_in + x->off;
		u64 dst = x->dst.addr + (u64)x->line * x->pitch_out + x->off;
		u64 left = x->line_bytes - x->off;
		u32 n;

		if (!budget) {
			ret = -EAGAIN;
			break;
		}
		if (x->fill && fb_pattern(x, &pat) &&
		    (x->off % 4 == 0 || x->elem_size == 1)) {
			/* sparse store: zeros cost nothing, so a bigger step */
			u64 step = left < budget * 16 ? left : budget * 16;

			if (vgsp_fb_fill(dev, dst, pat, step)) {
				ret = -EFAULT;
				break;
			}
			n = 0;
			x->off += step;
			budget = step >= budget * 16 ? 0 : budget - step / 16;
		} else {
			if (!buf) {
				buf = vgsp_zalloc(BOUNCE);
				if (!buf)
					return -ENOMEM;
			}
			n = left < BOUNCE ? (u32)left : BOUNCE;
			if (x->fill) {
				u32 i;

				for (i = 0; i < n; i++)
					buf[i] = x->elem[(x->off + i) %
							 x->elem_size];
			} else if (side_rw(dev, &x->src, src, buf, n, false)) {
				ret = -EFAULT;
				break;
			}
			if (side_rw(dev, &x->dst, dst, buf, n, true)) {
				ret = -EFAULT;
				break;
			}
			x->off += n;
			budget = n >= budget ? 0 : budget - n;
		}
		if (x->off >= x->line_bytes) {
			x->off = 0;
			x->line++;
		}
	}
	vgsp_free(buf);
	return ret;
}

/*
 * QMD V04_00 (HOPPER_COMPUTE_A, clcbc0qmd.h), in dwords of the 256-byte
 * QMD: RELEASE_ENABLE(i) at bit 320 + 16i with STRUCTURE_SIZE 2 bits above
 * it, REDUCTION_ENABLE +4, PAYLOAD64B +12; RELEASE_SEMAPHOREi address and
 * payload at bit 640 + 128i; QMD_MAJOR_VERSION 583:580; GRID_WIDTH/
 * HEIGHT/DEPTH at 1024/1056/1088; CTA dimensions at 1152.
 */
#define QMD_DWORDS		64
#define QMD_MAJOR(q)		((vgsp_get32(q, 18 * 4) >> 4) & 0xf)
#define QMD_RELEASES		3
#define REL_BITS(q, i)		((vgsp_get32(q, (10 + (i) / 2) * 4) >> \
				  (16 * ((i) % 2))) & 0xffff)
#define REL_ENABLE		0x1
#define REL_SIZE(b)		(((b) >> 1) & 0x3)
#define REL_SIZE_FOUR_WORDS	0
#define REL_SIZE_ONE_WORD	1
#define REL_SIZE_TWO_WORDS	2
#define REL_REDUCTION		(1U << 4)
#define REL_PAYLOAD64		(1U << 12)
#define DEP_QMD_ENABLE(q)	(vgsp_get32(q, 11 * 4) & (1U << 16 | 1U << 21))

static int qmd_release(struct vgsp_dev *dev, struct vgsp_chan *ch,
		       const u8 *q, unsigned int i)
{
	u32 bits = REL_BITS(q, i), d = 20 + 4 * i;
	u64 va = ((u64)(vgsp_get32(q, (d + 1) * 4) & 0x1ffffff) << 32) |
		 vgsp_get32(q, d * 4);
	u64 payload = ((u64)vgsp_get32(q, (d + 3) * 4) << 32) |
		      vgsp_get32(q, (d + 2) * 4);
	bool is64 = (bits & REL_PAYLOAD64) ||
		    REL_SIZE(bits) == REL_SIZE_TWO_WORDS;

	if (!(bits & REL_ENABLE))
		return 0;
	if (bits & REL_REDUCTION)
		return -EOPNOTSUPP;
	return vgsp_sem_release(dev, ch, va, payload, is64,
				REL_SIZE(bits) == REL_SIZE_FOUR_WORDS) ?
	       -EFAULT : 0;
}

int vgsp_qmd_releases(struct vgsp_dev *dev, struct vgsp_chan *ch,
		      const u8 *q)
{
	unsigned int i;
	int ret;

	for (i = 0; i < QMD_RELEASES; i++) {
		ret = qmd_release(dev, ch, q, i);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * No SMs. A grid with no CTAs runs no code on hardware either: only the
 * QMD's release semaphores are written, which is what sim does (CUDA
 * issues such empty launches while it sets a context up). Any launch with
 * work is refused and the channel gets an error, never a fake completion;
 * its shape is logged once (the channel stops).
 */
static int sim_gr_launch(struct vgsp_dev *dev, struct vgsp_chan *ch,
			 u64 qmd_va)
{
	u8 q[QMD_DWORDS * 4];
	u32 w, h, dp;

	if (!ch->vm_ok || vgsp_vm_read(dev, &ch->vm, qmd_va, q, sizeof(q)))
		return -EFAULT;
	w = vgsp_hr_qmd_grid(q, 0);
	h = vgsp_hr_qmd_grid(q, 1);
	dp = vgsp_hr_qmd_grid(q, 2);
	/* the empty-grid rule is hostd's too (hostd_ring.h), written once */
	if (vgsp_hr_qmd_empty(q))
		return vgsp_qmd_releases(dev, ch, q);
	vgsp_dev_log(dev, VGSP_LOG_WARN, "vgsp: %s: channel %u: compute launch refused (sim has no SMs): QMD 0x%llx v%u type %u grid %ux%ux%u cta %ux%ux%u dependent %s (w10 0x%08x w11 0x%08x ptr 0x%08x)\n",
		  dev->name, ch->d.chid, (unsigned long long)qmd_va,
		  QMD_MAJOR(q), (vgsp_get32(q, 0) >> 23) & 0x7, w, h, dp,
		  vgsp_get32(q, 36 * 4) & 0xffff,
		  vgsp_get32(q, 36 * 4) >> 16, vgsp_get32(q, 37 * 4) & 0xffff,
		  DEP_QMD_ENABLE(q) ? "yes" : "no", vgsp_get32(q, 10 * 4),
		  vgsp_get32(q, 11 * 4), vgsp_get32(q, 14 * 4));
	if (DEP_QMD_ENABLE(q)) {
		u64 dva = (u64)vgsp_get32(q, 14 * 4) << 8;

		if (!vgsp_vm_read(dev, &ch->vm, dva, q, sizeof(q)))
			vgsp_dev_log(dev, VGSP_LOG_WARN, "vgsp: %s: channel %u: dependent QMD 0x%llx v%u type %u grid %ux%ux%u cta %ux%ux%u prog 0x%08x%08x\n",
				     dev->name, ch->d.chid,
				     (unsigned long long)dva, QMD_MAJOR(q),
				     (vgsp_get32(q, 0) >> 23) & 0x7,
				     vgsp_hr_qmd_grid(q, 0),
				     vgsp_hr_qmd_grid(q, 1),
				     vgsp_hr_qmd_grid(q, 2),
				     vgsp_get32(q, 36 * 4) & 0xffff,
				     vgsp_get32(q, 36 * 4) >> 16,
				     vgsp_get32(q, 37 * 4) & 0xffff,
				     vgsp_get32(q, 39 * 4) & 0x1ffffff,
				     vgsp_get32(q, 38 * 4));
	}
	return -EOPNOTSUPP;
}

const struct vgsp_backend_ops vgsp_backend_sim = {
	.name = "sim",
	.ce_xfer = sim_ce_xfer,
	.gr_launch = sim_gr_launch,
};
