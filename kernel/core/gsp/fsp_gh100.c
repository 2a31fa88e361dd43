// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * GH100 FSP mailbox (§B.6): EMEM channel 0 with its auto-incrementing
 * port, the CPU->FSP command queue and the FSP->CPU message queue. The
 * only command honoured is the Chain-of-Trust boot (NVDM type COT): it is
 * answered with FSP_RESPONSE errorCode 0, the GSP lockdown is released the
 * way OpenRM polls for it, and the GSP start is handed to the worker.
 * Everything here is register state, so it runs inline under the lock.
 */
#include "gsp_priv.h"

#define FSP_EMEMC0		0x8f2ac0
#define FSP_EMEMD0		0x8f2ac4
#define FSP_QUEUE_HEAD0		0x8f2c00
#define FSP_QUEUE_TAIL0		0x8f2c04
#define FSP_MSGQ_HEAD0		0x8f2c80
#define FSP_MSGQ_TAIL0		0x8f2c84

#define EMEMC_PTR_MASK		0xfffcU		/* BLK 15:8 | OFFS 7:2 */
#define EMEMC_AINCW		(1U << 24)
#define EMEMC_AINCR		(1U << 25)

#define MCTP_SOM		(1U << 31)
#define MCTP_EOM		(1U << 30)
#define MCTP_SEQ_TAG_MASK	(0x3U << 28 | 0x7U << 24)
#define NVDM_MSG_TYPE_VENDOR	0x7e
#define NVDM_VENDOR_NVIDIA	0x10de
#define NVDM_TYPE_COT		0x14
#define NVDM_TYPE_FSP_RESPONSE	0x15

/* NVDM_PAYLOAD_COT: payload bytes after the 8-byte MCTP+NVDM header */
#define COT_HDR			8
#define COT_PAYLOAD_SIZE	860
#define COT_GSP_BOOT_ARGS	852

/* errorCode values we answer (any non-zero fails the driver's boot) */
#define FSP_OK			0
#define FSP_ERR_BAD_PACKET	0x1
#define FSP_ERR_UNSUPPORTED	0x2

static u32 emem_ptr(const struct vgsp_fsp *f)
{
	return f->ememc & EMEMC_PTR_MASK;
}

static void emem_advance(struct vgsp_fsp *f)
{
	u32 p = (emem_ptr(f) + 4) & EMEMC_PTR_MASK;

	f->ememc = (f->ememc & ~EMEMC_PTR_MASK) | p;
}

/* Every caller bounds @off first; this check is the last line of defence. */
static u32 emem_get32(const struct vgsp_fsp *f, u32 off)
{
	if (off > VGSP_FSP_EMEM_SIZE - 4)
		return 0;
	return vgsp_get32(f->emem, off);
}

static void ememc_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			unsigned int idx, u32 old, u32 val)
{
	if (dev->gsp)
		dev->gsp->fsp.ememc = val & (EMEMC_PTR_MASK | EMEMC_AINCW |
					     EMEMC_AINCR);
}

static u32 ememc_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		      unsigned int idx, u32 stored)
{
	return dev->gsp ? dev->gsp->fsp.ememc : 0;
}

static u32 ememd_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		      unsigned int idx, u32 stored)
{
	struct vgsp_gsp *gsp = dev->gsp;
	struct vgsp_fsp *f;
	u32 v = 0;

	if (!gsp)
		return 0;
	f = &gsp->fsp;
	if (emem_ptr(f) + 4 <= VGSP_FSP_EMEM_SIZE)
		v = emem_get32(f, emem_ptr(f));
	else
		gsp->st.e.emem_bad++;
	if (f->ememc & EMEMC_AINCR)
		emem_advance(f);
	return v;
}

static void ememd_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			unsigned int idx, u32 old, u32 val)
{
	struct vgsp_gsp *gsp = dev->gsp;
	struct vgsp_fsp *f;

	if (!gsp)
		return;
	f = &gsp->fsp;
	if (emem_ptr(f) + 4 <= VGSP_FSP_EMEM_SIZE)
		vgsp_put32(f->emem, emem_ptr(f), val);
	else
		gsp->st.e.emem_bad++;
	if (f->ememc & EMEMC_AINCW)
		emem_advance(f);
}

/* Post a 20-byte FSP_RESPONSE for @nvdm at EMEM 0 and publish it. */
static void fsp_respond(struct vgsp_gsp *gsp, u32 mctp, u32 nvdm, u32 err)
{
	struct vgsp_fsp *f = &gsp->fsp;

	vgsp_put32(f->emem, 0, MCTP_SOM | MCTP_EOM | (mctp & MCTP_SEQ_TAG_MASK));
	vgsp_put32(f->emem, 4, NVDM_MSG_TYPE_VENDOR |
		   NVDM_VENDOR_NVIDIA << 8 | NVDM_TYPE_FSP_RESPONSE << 24);
	vgsp_put32(f->emem, 8, 0);		/* taskId */
	vgsp_put32(f->emem, 12, nvdm);		/* commandNvdmType */
	vgsp_put32(f->emem, 16, err);		/* errorCode */
	f->last_nvdm = nvdm;
	f->last_error = err;
	if (err)
		gsp->st.e.fsp_errors++;
	vgsp_gsp_reg_set(gsp, FSP_MSGQ_HEAD0, 0);
	vgsp_gsp_reg_set(gsp, FSP_MSGQ_TAIL0, 20 - 4);
}

/* GSP "runs": lockdown released, mailbox clean, RISC-V active. */
static void gsp_release(struct vgsp_gsp *gsp)
{
	u32 off = VGSP_GSP_FALCON_BASE;

	vgsp_gsp_reg_set(gsp, off + VGSP_FLCN_HWCFG2,
			 vgsp_gsp_reg(gsp, off + VGSP_FLCN_HWCFG2) &
			 ~VGSP_HWCFG2_LOCKDOWN);
	vgsp_gsp_reg_set(gsp, off + VGSP_FLCN_MAILBOX0, 0);
	vgsp_gsp_reg_set(gsp, off + VGSP_FLCN_CPUCTL, 0);
	vgsp_gsp_reg_set(gsp, VGSP_GH100_RISCV_CPUCTL, VGSP_RISCV_CPUCTL_ACTIVE);
}

/* CPU wrote QUEUE_HEAD(0): packet = EMEM[head .. tail+4). */
static void queue_head_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			     unsigned int idx, u32 old, u32 head)
{
	struct vgsp_gsp *gsp = dev->gsp;
	struct vgsp_fsp *f;
	u32 tail, size, mctp, hdr, nvdm;
	u64 boot_args;

	if (!gsp)
		return;
	f = &gsp->fsp;
	gsp->st.e.fsp_msgs++;
	tail = vgsp_gsp_reg(gsp, FSP_QUEUE_TAIL0);
	/* The queue is consumed whatever the packet holds. */
	vgsp_gsp_reg_set(gsp, FSP_QUEUE_TAIL0, head);
	/*
	 * Both values are the guest's: bound each against EMEM before any
	 * sum, so head + 4 and tail + 4 cannot wrap (a packet is at least
	 * the two header dwords).
	 */
	if ((head & 3) || (tail & 3) || head > VGSP_FSP_EMEM_SIZE - 8 ||
	    tail > VGSP_FSP_EMEM_SIZE - 4 || tail < head + 4) {
		gsp->st.e.fsp_bad_queue++;
		fsp_respond(gsp, 0, 0, FSP_ERR_BAD_PACKET);
		return;
	}
	size = tail - head + 4;
	mctp = emem_get32(f, head);
	hdr = emem_get32(f, head + 4);
	nvdm = hdr >> 24;
	if ((mctp & (MCTP_SOM | MCTP_EOM)) != (MCTP_SOM | MCTP_EOM) ||
	    (hdr & 0x7f) != NVDM_MSG_TYPE_VENDOR ||
	    ((hdr >> 8) & 0xffff) != NVDM_VENDOR_NVIDIA) {
		fsp_respond(gsp, mctp, nvdm, FSP_ERR_BAD_PACKET);
		return;
	}
	if (nvdm != NVDM_TYPE_COT) {
		fsp_respond(gsp, mctp, nvdm, FSP_ERR_UNSUPPORTED);
		return;
	}
	if (size < COT_HDR + COT_PAYLOAD_SIZE) {
		fsp_respond(gsp, mctp, nvdm, FSP_ERR_BAD_PACKET);
		return;
	}
	/* A new boot while the GSP runs (driver retry): start over. */
	vgsp_gsp_stop(gsp);
	boot_args = (u64)emem_get32(f, head + COT_HDR + COT_GSP_BOOT_ARGS) |
		    (u64)emem_get32(f, head + COT_HDR + COT_GSP_BOOT_ARGS + 4)
		    << 32;
	fsp_respond(gsp, mctp, nvdm, FSP_OK);
	gsp_release(gsp);
	vgsp_gsp_boot_accepted(gsp, VGSP_BOOT_ARGS_FMC, boot_args);
}

void vgsp_fsp_reset(struct vgsp_gsp *gsp)
{
	memset(&gsp->fsp, 0, sizeof(gsp->fsp));
}

const struct vgsp_reg vgsp_fsp_gh100_regs[] = {
	{ .name = "FSP_EMEMC0", .offset = FSP_EMEMC0,
	  .read = ememc_read, .write = ememc_write },
	{ .name = "FSP_EMEMD0", .offset = FSP_EMEMD0,
	  .read = ememd_read, .write = ememd_write },
	{ .name = "FSP_QUEUE_HEAD0", .offset = FSP_QUEUE_HEAD0,
	  .write = queue_head_write },
	{ .name = "FSP_QUEUE_TAIL0", .offset = FSP_QUEUE_TAIL0 },
	{ .name = "FSP_MSGQ_HEAD0", .offset = FSP_MSGQ_HEAD0 },
	{ .name = "FSP_MSGQ_TAIL0", .offset = FSP_MSGQ_TAIL0 },
};
