// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The sim backend: copy-engine work executed on the CPU through mm/ (the
 * FB store and guest system memory by IOVA), in bounded parts; compute is
 * refused (there are no SMs to run a kernel on).
 */
#include "../backend.h"
#include "../fifo/fifo.h"

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

static int sim_gr_launch(struct vgsp_dev *dev, struct vgsp_chan *ch,
			 u64 qmd_va)
{
	return -EOPNOTSUPP;	/* no SMs: the channel gets an error */
}

const struct vgsp_backend_ops vgsp_backend_sim = {
	.name = "sim",
	.ce_xfer = sim_ce_xfer,
	.gr_launch = sim_gr_launch,
};
