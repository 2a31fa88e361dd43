// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The engines an instance exposes and the three controls that describe
 * them to CPU-RM, all built from one table so they cannot disagree:
 *
 *   INTERNAL_GET_DEVICE_INFO_TABLE (0x20800a40): the parsed DEVICE_INFO2
 *     rows (gpuConstructDeviceInfoTable_FWCLIENT);
 *   FIFO_GET_DEVICE_INFO_TABLE (0x20801112): the FIFO engine list CPU-RM
 *     copies into KernelFifo (kfifoGetHostDeviceInfoTable_KERNEL), 32 rows
 *     per call from baseIndex, bMore when rows are left;
 *   GPU_GET_ENGINES_V2 (0x20800170): the NV2080_ENGINE_TYPEs GSP-RM owns
 *     (gspSupportsEngine keeps their classes in the class DB).
 *
 * GspStaticConfigInfo.engineCaps is derived from the same table
 * (r535_engine_caps). A vGPU slice here has GR0 and one async copy engine
 * (LCE 0), each on its own runlist with one PBDMA, as Ampere+ lays them
 * out. The runlist/CHRAM PRI bases are vgsp's own layout inside BAR0; the
 * only CPU-RM code that touches them is the channel-halt path
 * (kfifoStartChannelHalt_GA100), whose preempt poll ends on the 0 that
 * unmodelled registers read.
 */
#include "r535.h"

/* NV2080_CTRL_INTERNAL_GET_DEVICE_INFO_TABLE_PARAMS: numEntries + 88 x 9 u32 */
#define DEVINFO_ROW			36

/*
 * NV2080_CTRL_FIFO_GET_DEVICE_INFO_TABLE_PARAMS: baseIndex, numEntries,
 * bMore (NvBool, padded), then 32 x NV2080_CTRL_FIFO_DEVICE_ENTRY
 * { engineData[16], pbdmaIds[2], pbdmaFaultIds[2], numPbdmas, name[16] }.
 */
#define FIFO_DEVINFO_BASE_INDEX		0x00
#define FIFO_DEVINFO_NUM_ENTRIES	0x04
#define FIFO_DEVINFO_MORE		0x08
#define FIFO_DEVINFO_ENTRIES		0x0c
#define FIFO_DEVINFO_PER_CALL		32
#define FIFO_DEVINFO_MAX_DEVICES	256
#define FIFO_ENTRY_SIZE			100
#define FIFO_ENTRY_DATA			0
#define FIFO_ENTRY_PBDMA_IDS		64
#define FIFO_ENTRY_PBDMA_FAULT_IDS	72
#define FIFO_ENTRY_NUM_PBDMAS		80
#define FIFO_ENTRY_NAME			84
#define FIFO_ENTRY_NAME_LEN		16
#define FIFO_DEVINFO_SIZE		(FIFO_DEVINFO_ENTRIES + \
					 FIFO_DEVINFO_PER_CALL * FIFO_ENTRY_SIZE)

/* ENGINE_INFO_TYPE_* (index into engineData[]) */
enum {
	EI_ENG_DESC = 0,
	EI_FIFO_TAG = 1,
	EI_RM_ENGINE_TYPE = 2,
	EI_RUNLIST = 3,
	EI_MMU_FAULT_ID = 4,
	EI_RC_MASK = 5,
	EI_RESET = 6,
	EI_INTR = 7,
	EI_MC = 8,
	EI_DEV_TYPE_ENUM = 9,
	EI_INSTANCE_ID = 10,
	EI_RUNLIST_PRI_BASE = 11,
	EI_IS_HOST_DRIVEN = 12,
	EI_RUNLIST_ENGINE_ID = 13,
	EI_CHRAM_PRI_BASE = 14,
};

/* GPU_GET_ENGINES_V2: engineCount + engineList[0x3e] */

/* ENGDESCRIPTOR = NVOC class id << 8 | instance (535.261.03 class ids) */
#define ENGDESC_GR0			(0xd334dfU << 8)	/* Graphics */
#define ENGDESC_CE0			(0x793cebU << 8)	/* OBJCE */

/* NV2080_ENGINE_TYPE_* (same numbers as RM_ENGINE_TYPE_* for these) */
#define ENGINE_TYPE_GR0			0x01
#define ENGINE_TYPE_COPY0		0x09
#define ENGINE_TYPE_COPY1		0x0a

/* DEVICE_INFO2 type enums */
#define DEV_TYPE_GRAPHICS		0x00
#define DEV_TYPE_LCE			0x13

/* NV2080_CTRL_CE_CAPS (ctrl2080ce.h): byte 0 and byte 1 bits */
#define CE_CAP_GRCE			0x01
#define CE_CAP_SHARED			0x02
#define CE_CAP_SYSMEM_READ		0x04
#define CE_CAP_SYSMEM_WRITE		0x08
#define CE_CAP_SYSMEM			0x20
#define CE_CAP_P2P			0x40
#define CE_CAP_BL_SIZE_GT_64K		0x80
#define CE_CAP1_NONPIPELINED_BL		0x01
#define CE_CAP1_PIPELINED_BL		0x02

struct r535_engine {
	const char *name;
	u32 engdesc, engine_type, dev_type, instance;
	u32 hw_id, runlist, rl_eng_id, fault_id, reset_id, pri_base;
	u32 runlist_pri_base, chram_pri_base;
	u32 pbdma, pbdma_fault_id;
	u8 ce_caps[2];			/* copy engines only */
	u32 pce_mask;
};

/*
 * fault_id: GH100's NV_PFAULT_MMU_ENG_ID_GRAPHICS is 384 (the GR range is
 * 384 + VEID); LCE 0 takes 15 as on GA100, outside that range. GR0's
 * static description is in gr.c.
 */
static const struct r535_engine r535_engines[] = {
	{ .name = "GR0", .engdesc = ENGDESC_GR0,
	  .engine_type = ENGINE_TYPE_GR0, .dev_type = DEV_TYPE_GRAPHICS,
	  .hw_id = 0, .runlist = 0, .fault_id = 384, .reset_id = 0,
	  .pri_base = 0x400000, .runlist_pri_base = 0x2c0000,
	  .chram_pri_base = 0x2c2000, .pbdma = 0, .pbdma_fault_id = 200 },
	/*
	 * LCE 0: the async copy engine on its own runlist. It reads and
	 * writes system memory and copies within the GPU (UVM's GPU_TO_GPU
	 * channel needs the P2P cap); PCE 0.
	 */
	{ .name = "CE0", .engdesc = ENGDESC_CE0,
	  .engine_type = ENGINE_TYPE_COPY0, .dev_type = DEV_TYPE_LCE,
	  .hw_id = 1, .runlist = 1, .fault_id = 15, .reset_id = 1,
	  .pri_base = 0x104000, .runlist_pri_base = 0x2c4000,
	  .chram_pri_base = 0x2c6000, .pbdma = 1, .pbdma_fault_id = 201,
	  .ce_caps = { CE_CAP_SYSMEM_READ | CE_CAP_SYSMEM_WRITE |
		       CE_CAP_SYSMEM | CE_CAP_P2P | CE_CAP_BL_SIZE_GT_64K,
		       CE_CAP1_NONPIPELINED_BL | CE_CAP1_PIPELINED_BL },
	  .pce_mask = 1U << 0 },
	/*
	 * LCE 1: the GRCE, on GR0's runlist and PBDMA (that is what makes a
	 * CE a GRCE to CPU-RM, _kfifoIsValidCETag_GP102): CUDA's copies in a
	 * graphics/compute TSG with an async subcontext need one. PCE 1.
	 */
	{ .name = "CE1", .engdesc = ENGDESC_CE0 | 1, .instance = 1,
	  .engine_type = ENGINE_TYPE_COPY1, .dev_type = DEV_TYPE_LCE,
	  .hw_id = 2, .runlist = 0, .rl_eng_id = 1, .fault_id = 16,
	  .reset_id = 2, .pri_base = 0x105000, .runlist_pri_base = 0x2c0000,
	  .chram_pri_base = 0x2c2000, .pbdma = 0, .pbdma_fault_id = 200,
	  .ce_caps = { CE_CAP_GRCE | CE_CAP_SHARED | CE_CAP_SYSMEM_READ |
		       CE_CAP_SYSMEM_WRITE | CE_CAP_SYSMEM |
		       CE_CAP_BL_SIZE_GT_64K,
		       CE_CAP1_NONPIPELINED_BL | CE_CAP1_PIPELINED_BL },
	  .pce_mask = 1U << 1 },
};

#define NR_ENGINES	VGSP_ARRAY_SIZE(r535_engines)

int r535_engine_runlist(u32 type)
{
	unsigned int i;

	for (i = 0; i < NR_ENGINES; i++)
		if (r535_engines[i].engine_type == type)
			return (int)r535_engines[i].runlist;
	return -1;
}

int r535_ce_caps(u32 type, u8 caps[2], u32 *pce_mask)
{
	unsigned int i;

	for (i = 0; i < NR_ENGINES; i++) {
		const struct r535_engine *e = &r535_engines[i];

		if (e->engine_type != type || e->dev_type != DEV_TYPE_LCE)
			continue;
		caps[0] = e->ce_caps[0];
		caps[1] = e->ce_caps[1];
		*pce_mask = e->pce_mask;
		return 0;
	}
	return -1;
}

u32 r535_ce_all_caps(u8 *tbl, unsigned int max)
{
	u32 present = 0;
	unsigned int i;

	for (i = 0; i < NR_ENGINES; i++) {
		const struct r535_engine *e = &r535_engines[i];

		if (e->dev_type != DEV_TYPE_LCE || e->instance >= max)
			continue;
		tbl[2 * e->instance] = e->ce_caps[0];
		tbl[2 * e->instance + 1] = e->ce_caps[1];
		present |= 1U << e->instance;
	}
	return present;
}

u32 r535_engine_caps(void)
{
	u32 caps = 0;
	unsigned int i;

	for (i = 0; i < NR_ENGINES; i++)
		caps |= 1U << r535_engines[i].engine_type;
	return caps;
}

u32 r535_get_device_info_table(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	unsigned int i;

	if (size != 4 + r535_lay(gsp)->devinfo_max * DEVINFO_ROW)
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	vgsp_put32(p, 0, NR_ENGINES);
	for (i = 0; i < NR_ENGINES; i++) {
		const struct r535_engine *e = &r535_engines[i];
		u8 *r = p + 4 + i * DEVINFO_ROW;

		vgsp_put32(r, 0, e->fault_id);
		vgsp_put32(r, 4, e->instance);
		vgsp_put32(r, 8, e->dev_type);
		vgsp_put32(r, 12, e->reset_id);
		vgsp_put32(r, 16, e->pri_base);
		vgsp_put32(r, 20, 1);			/* isEngine */
		vgsp_put32(r, 24, e->rl_eng_id);		/* rlEngId */
		vgsp_put32(r, 28, e->runlist_pri_base);
		vgsp_put32(r, 32, 0);			/* groupId */
	}
	return NV_OK;
}

static void fifo_entry(u8 *r, const struct r535_engine *e)
{
	u8 *d = r + FIFO_ENTRY_DATA;
	unsigned int i;

	vgsp_put32(d, 4 * EI_ENG_DESC, e->engdesc | e->instance);
	vgsp_put32(d, 4 * EI_FIFO_TAG, e->hw_id);
	vgsp_put32(d, 4 * EI_RM_ENGINE_TYPE, e->engine_type);
	vgsp_put32(d, 4 * EI_RUNLIST, e->runlist);
	vgsp_put32(d, 4 * EI_MMU_FAULT_ID, e->fault_id);
	vgsp_put32(d, 4 * EI_RC_MASK, 0);
	vgsp_put32(d, 4 * EI_RESET, e->reset_id);
	vgsp_put32(d, 4 * EI_INTR, 0);		/* not kept on Ampere+ */
	vgsp_put32(d, 4 * EI_MC, 0);
	vgsp_put32(d, 4 * EI_DEV_TYPE_ENUM, e->dev_type);
	vgsp_put32(d, 4 * EI_INSTANCE_ID, e->instance);
	vgsp_put32(d, 4 * EI_RUNLIST_PRI_BASE, e->runlist_pri_base);
	vgsp_put32(d, 4 * EI_IS_HOST_DRIVEN, 1);
	vgsp_put32(d, 4 * EI_RUNLIST_ENGINE_ID, e->rl_eng_id);
	vgsp_put32(d, 4 * EI_CHRAM_PRI_BASE, e->chram_pri_base);
	vgsp_put32(r, FIFO_ENTRY_PBDMA_IDS, e->pbdma);
	vgsp_put32(r, FIFO_ENTRY_PBDMA_FAULT_IDS, e->pbdma_fault_id);
	vgsp_put32(r, FIFO_ENTRY_NUM_PBDMAS, 1);
	for (i = 0; i + 1 < FIFO_ENTRY_NAME_LEN && e->name[i]; i++)
		r[FIFO_ENTRY_NAME + i] = e->name[i];
}

u32 r535_fifo_get_device_info_table(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 base, n, i;

	if (size != FIFO_DEVINFO_SIZE)
		return NV_ERR_INVALID_PARAM_STRUCT;
	base = vgsp_get32(p, FIFO_DEVINFO_BASE_INDEX);
	if (base % FIFO_DEVINFO_PER_CALL || base >= FIFO_DEVINFO_MAX_DEVICES)
		return NV_ERR_INVALID_ARGUMENT;
	memset(p + FIFO_DEVINFO_NUM_ENTRIES, 0,
	       size - FIFO_DEVINFO_NUM_ENTRIES);
	n = base < NR_ENGINES ? NR_ENGINES - base : 0;
	if (n > FIFO_DEVINFO_PER_CALL)
		n = FIFO_DEVINFO_PER_CALL;
	for (i = 0; i < n; i++)
		fifo_entry(p + FIFO_DEVINFO_ENTRIES + i * FIFO_ENTRY_SIZE,
			   &r535_engines[base + i]);
	vgsp_put32(p, FIFO_DEVINFO_NUM_ENTRIES, n);
	p[FIFO_DEVINFO_MORE] = base + n < NR_ENGINES;
	return NV_OK;
}

u32 r535_gpu_get_engines_v2(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	unsigned int i;

	if (size != 4 + 4 * r535_lay(gsp)->engines_v2_max)
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	vgsp_put32(p, 0, NR_ENGINES);
	for (i = 0; i < NR_ENGINES; i++)
		vgsp_put32(p, 4 + 4 * i, r535_engines[i].engine_type);
	return NV_OK;
}
