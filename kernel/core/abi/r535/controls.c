// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * GSP_RM_CONTROL commands the emulation answers, keyed by command ID.
 * Each row names the exact params size it accepts (0 = any) so a layout
 * mismatch is refused instead of misread. Anything not listed answers
 * NV_ERR_NOT_SUPPORTED and shows up in the gsp_controls view.
 * Fidelity per row is documented in docs/gsp-emulation.md.
 */
#include "r535.h"

#define CMD_INTR_GET_KERNEL_TABLE	0x20800a5c
#define CMD_GPU_GET_SMC_MODE		0x20800a4c
#define CMD_FIFO_GET_NUM_CHANNELS	0x20800a61
#define CMD_GET_COHERENT_FB_APERTURE	0x20800ada
#define CMD_BUS_FLUSH_WITH_SYSMEMBAR	0x20800a70
#define CMD_FIFO_PROMOTE_RUNLIST_BUFS	0x20800a53
#define CMD_GPU_GET_NAME_STRING		0x20800110
#define CMD_GPU_GET_SHORT_NAME_STRING	0x20800111
#define CMD_GPU_GET_GID_INFO		0x2080014a
#define CMD_GPU_GET_CHIP_INFO		0x20800a36
#define CMD_USER_REGISTER_ACCESS_MAP	0x20800a41
#define CMD_GET_CONSTRUCTED_FALCON_INFO	0x20800a42
#define CMD_MEMSYS_GET_STATIC_CONFIG	0x20800a1c
#define CMD_GET_DEVICE_INFO_TABLE	0x20800a40
#define CMD_FIFO_GET_DEVICE_INFO_TABLE	0x20801112
#define CMD_GPU_GET_ENGINES_V2		0x20800170
#define CMD_BUS_GET_PCI_BAR_INFO	0x20801803
#define CMD_CONF_COMPUTE_GET_STATIC	0x20800af3
#define CMD_BIF_GET_STATIC_INFO		0x20800aac
#define CMD_CE_GET_FAULT_METHOD_BUF	0x20802a08
#define CMD_CE_UPDATE_CLASS_DB		0x20802a06
#define CMD_GMMU_GET_STATIC_INFO	0x20800a59
#define CMD_PERF_BOOST_SYNC_GET_INFO	0x20800a80
#define CMD_FIFO_NUM_SECURE_CHANNELS	0x20800ad8
#define CMD_PMGR_GET_MODULE_INFO	0x20802609
#define CMD_CCU_MAP			0x20800ab3
#define CMD_NVLINK_GET_DEVICE_INFO	0x2080302c
#define CMD_GPU_GET_VMMU_SEGMENT_SIZE	0x2080017e
#define CMD_CE_GET_HUB_PCE_MASK		0x20802a09
#define CMD_CE_UPDATE_PCE_LCE_MAPPINGS	0x20802a05
#define CMD_GR_GET_FECS_TRACE_HW_ENABLE	0x20800a38
#define CMD_MEMSYS_L2_INVALIDATE_EVICT	0x20800a6c
#define CMD_GMMU_COPY_SPLIT_PDES	0x20800a9f
#define CMD_VASPACE_COPY_SERVER_PDES	0x90f10106
#define CMD_VGPU_MGR_SET_CONFIG		0x2080400b

/*
 * NV2080_CTRL_INTERNAL_INTR_GET_KERNEL_TABLE_PARAMS: tableLen, 128 rows of
 * 16 bytes {engineIdx u16, pmcIntrMask, vectorStall, vectorNonStall};
 * 535.261.03 appends subtreeMap[7] {start u8, end u8} per
 * NV2080_INTR_CATEGORY (0x814 bytes in all).
 *
 * The layout we choose (top-level subtree n = vectors 64n..64n+63):
 *   subtree 0: DEFAULT, ESCHED_DRIVEN_ENGINE, RUNLIST — the GSP vector;
 *   subtree 1: UVM_OWNED — replayable fault and access counter, which
 *              intrCacheIntrFields wants in one leaf register and in this
 *              category's range;
 *   subtree 2: UVM_SHARED — exactly one subtree, as asserted there;
 *   subtree 3: the two notification (non-stall) categories, which
 *              _intrEnableStall keeps out of the top-level stall enables.
 */
#define INTR_TABLE_MIN_SIZE		0x804
#define INTR_ROW			0x04
#define INTR_ROW_SIZE			0x10
#define INTR_SUBTREE_MAP		0x804
#define INTR_CATEGORIES			7
#define INTR_VEC_REPLAYABLE_FAULT	0x40
#define INTR_VEC_ACCESS_CNTR		0x41

static const u8 intr_subtree_map[INTR_CATEGORIES][2] = {
	{ 0, 0 },	/* DEFAULT */
	{ 0, 0 },	/* ESCHED_DRIVEN_ENGINE */
	{ 3, 3 },	/* ESCHED_DRIVEN_ENGINE_NOTIFICATION */
	{ 0, 0 },	/* RUNLIST */
	{ 3, 3 },	/* RUNLIST_NOTIFICATION */
	{ 1, 1 },	/* UVM_OWNED */
	{ 2, 2 },	/* UVM_SHARED */
};

static void intr_row(u8 *p, unsigned int i, u16 engine, u32 stall,
		     u32 nonstall)
{
	u8 *r = p + INTR_ROW + i * INTR_ROW_SIZE;

	r[0] = engine & 0xff;
	r[1] = engine >> 8;
	vgsp_put32(r, 4, 0);				/* pmcIntrMask */
	vgsp_put32(r, 8, stall);
	vgsp_put32(r, 12, nonstall);
}

#define SMC_MODE_UNSUPPORTED		0
#define CHANNELS_PER_RUNLIST		2048

#define NAME_PARAMS_SIZE		0x84	/* flags + union u8/u16[64] */
#define NAME_FLAGS_UNICODE		0x1
#define SHORT_NAME_SIZE			0x40
#define GID_PARAMS_SIZE			0x10c
#define GID_FLAGS_FORMAT_MASK		0x3

struct r535_ctrl {
	u32 cmd;
	const char *name;
	u32 size;		/* exact params size, 0 = any */
	u32 (*fn)(struct vgsp_gsp *gsp, u8 *p, u32 size);
};

/*
 * NV2080_CTRL_INTERNAL_GPU_GET_CHIP_INFO_PARAMS changed within the 5xx
 * headers: { chipSubRev u8, emulationRev1 u32, isCmpSku bool } followed by
 * the PCI IDs and 16 register bases, with or without a bar1Size in front
 * of the IDs. The size the driver sends tells which; CPU-RM reads the sub
 * revision and the three PCI IDs (_gpuInitChipInfo), and maps the usermode
 * doorbell window and the timer at regBases[NV_REG_BASE_USERMODE/TIMER]
 * (0xFFFFFFFF: no such base).
 */
#define CHIP_INFO_NO_BAR1_SIZE		0x58
#define CHIP_INFO_WITH_BAR1_SIZE	0x5c
#define CHIP_REVISION			0xa1
#define CHIP_NREG_BASES			16
#define REG_BASE_GR			1
#define REG_BASE_TIMER			2
#define REG_BASE_MASTER			3
#define REG_BASE_USERMODE		4

static u32 gpu_get_chip_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	const struct vgsp_profile *pr = gsp->dev->profile;
	u32 ids, i;

	if (size == CHIP_INFO_NO_BAR1_SIZE)
		ids = 0x0c;
	else if (size == CHIP_INFO_WITH_BAR1_SIZE)
		ids = 0x10;
	else
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	if (ids == 0x10)
		vgsp_put32(p, 0x0c, (u32)(pr->bar1_size >> 20));	/* MiB */
	vgsp_put32(p, ids, (u32)pr->device << 16 | pr->vendor);
	vgsp_put32(p, ids + 4, (u32)pr->subsys_device << 16 |
		   pr->subsys_vendor);
	vgsp_put32(p, ids + 8, CHIP_REVISION);
	for (i = 0; i < CHIP_NREG_BASES; i++)
		vgsp_put32(p, ids + 12 + 4 * i, 0xffffffff);
	vgsp_put32(p, ids + 12 + 4 * REG_BASE_GR, pr->chip->reg_base_gr);
	vgsp_put32(p, ids + 12 + 4 * REG_BASE_TIMER, pr->chip->reg_base_timer);
	vgsp_put32(p, ids + 12 + 4 * REG_BASE_MASTER, pr->chip->reg_base_master);
	vgsp_put32(p, ids + 12 + 4 * REG_BASE_USERMODE,
		   pr->chip->reg_base_usermode);
	return NV_OK;
}

/*
 * Zeroed answers where zero is a defined, safe state:
 * USER_REGISTER_ACCESS_MAP with map size 0 is "unsupported for this chip"
 * (no BAR0 register is opened to guest user space); CONSTRUCTED_FALCON_INFO
 * with 0 entries is "no generic falcons owned by CPU-RM";
 * PERF_GPU_BOOST_SYNC: hysteresis 0, boost sync off;
 * FIFO_GET_NUM_SECURE_CHANNELS: no secure channels on SEC2 or CE (CC
 * off); PMGR_GET_MODULE_INFO: module 0, NVSwitch not supported.
 */
#define PERF_BOOST_SYNC_INFO_SIZE	0x10
#define FIFO_NUM_SECURE_CHANNELS_SIZE	0x8
#define PMGR_MODULE_INFO_SIZE		0x8
#define USER_REGISTER_ACCESS_MAP_SIZE	0x200c	/* 3 sizes + 2 x 4 KiB */
#define CONSTRUCTED_FALCON_INFO_SIZE	0x504	/* count + 64 x 20 bytes */

static u32 zeroed(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	memset(p, 0, size);
	return NV_OK;
}

/*
 * NV2080_CTRL_INTERNAL_MEMSYS_GET_STATIC_CONFIG_PARAMS (5xx): seven NvBool
 * policy flags, l2CacheSize u64 @8, bReservedMemAtBottom @0x10,
 * bFbpaPresent @0x11, comprPageSize @0x14, comprPageShift @0x18,
 * maximumBlacklistPages u16 @0x1c, ramType @0x20, ltcCount @0x24,
 * ltsPerLtcCount @0x28, a PLC-bug flag @0x2c (0x30 bytes). 535.261.03
 * sends 0x38: the same prefix with fields appended, left 0.
 * Compression policy flags stay 0 (defaults); the page size must not be
 * 0 (CPU-RM derives comptag math from it).
 */
#define MEMSYS_STATIC_CONFIG_SIZE	0x30
#define MEMSYS_STATIC_CONFIG_SIZE_535	0x38
#define MEMSYS_L2_CACHE_SIZE		(50ULL << 20)
#define MEMSYS_COMPR_PAGE_SHIFT		16
#define MEMSYS_LTC_COUNT		10
#define MEMSYS_LTS_PER_LTC		4

/*
 * The values, at the offsets of bFbpaPresent and ltcCount (ltsPerLtcCount
 * follows it) of the caller's layout; l2CacheSize and the compression
 * page are at the same place in every 5xx layout.
 */
u32 r535_memsys_fill(u8 *p, u32 size, u32 fbpa_present, u32 ltc_count)
{
	memset(p, 0, size);
	vgsp_put64(p, 0x08, MEMSYS_L2_CACHE_SIZE);
	p[fbpa_present] = 1;
	vgsp_put32(p, 0x14, 1U << MEMSYS_COMPR_PAGE_SHIFT);
	vgsp_put32(p, 0x18, MEMSYS_COMPR_PAGE_SHIFT);
	vgsp_put32(p, ltc_count, MEMSYS_LTC_COUNT);
	vgsp_put32(p, ltc_count + 4, MEMSYS_LTS_PER_LTC);
	return NV_OK;
}

static u32 memsys_get_static_config(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (size != MEMSYS_STATIC_CONFIG_SIZE &&
	    size != MEMSYS_STATIC_CONFIG_SIZE_535)
		return NV_ERR_INVALID_PARAM_STRUCT;
	return r535_memsys_fill(p, size, 0x11, 0x24);
}


/*
 * NV2080_CTRL_BUS_GET_PCI_BAR_INFO_PARAMS: pciBarCount, then 8 x
 * { flags, barSize (MiB), barSizeBytes u64, barOffset u64 } at 8.
 * RM's BAR numbering: 0 registers, 1 FB aperture, 2 instance memory
 * (PCI BAR 3). CPU-RM keeps barSizeBytes (kbusInitBarsSize_KERNEL).
 */
#define PCI_BAR_INFO_SIZE		0xc8
#define PCI_BAR_INFO_ROW		8
#define PCI_BAR_INFO_ROW_SIZE		0x18

static void bar_info(u8 *p, unsigned int i, u64 size)
{
	u8 *r = p + PCI_BAR_INFO_ROW + i * PCI_BAR_INFO_ROW_SIZE;

	vgsp_put32(r, 0, 0);
	vgsp_put32(r, 4, (u32)(size >> 20));
	vgsp_put64(r, 8, size);
	vgsp_put64(r, 16, 0);
}

static u32 bus_get_pci_bar_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	memset(p, 0, size);
	vgsp_put32(p, 0, 3);
	bar_info(p, 0, VGSP_BAR0_SIZE);
	bar_info(p, 1, gsp->dev->profile->bar1_size);
	bar_info(p, 2, VGSP_BAR3_SIZE);
	return NV_OK;
}

/*
 * NV2080_CTRL_INTERNAL_BIF_GET_STATIC_INFO_PARAMS: bPcieGen4Capable,
 * bIsC2CLinkUp, dmaWindowStartAddress u64 @8. A PCIe H100: Gen4+ capable,
 * no C2C, DMA window at 0.
 */
#define BIF_STATIC_INFO_SIZE		0x10

static u32 bif_get_static_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	memset(p, 0, size);
	p[0] = 1;
	return NV_OK;
}

/*
 * NV2080_CTRL_CE_GET_FAULT_METHOD_BUFFER_SIZE_PARAMS: size of the CE
 * fault method buffer CPU-RM allocates per channel group.
 */
#define CE_FAULT_METHOD_BUFFER_SIZE	0x1000

static u32 ce_get_fault_method_buffer_size(struct vgsp_gsp *gsp, u8 *p,
					   u32 size)
{
	vgsp_put32(p, 0, CE_FAULT_METHOD_BUFFER_SIZE);
	return NV_OK;
}

/*
 * NV2080_CTRL_CE_UPDATE_CLASS_DB_PARAMS: stubbedCeMask, the LCEs without a
 * PCE (their classes leave CPU-RM's class DB). GH100 has 10 LCEs; the
 * ones not in the engine table are stubbed.
 */
#define GH100_LCE_MASK			0x3ffU
#define ENGINE_CAP_COPY0_BIT		9

static u32 ce_update_class_db(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 present = (r535_engine_caps() >> ENGINE_CAP_COPY0_BIT) &
		      GH100_LCE_MASK;

	vgsp_put32(p, 0, GH100_LCE_MASK & ~present);
	return NV_OK;
}

/*
 * NV2080_CTRL_INTERNAL_GMMU_GET_STATIC_INFO_PARAMS: replayable fault
 * buffer size, its shadow metadata size, the same for non-replayable.
 * 512 packets of 32 bytes each; no metadata (no confidential compute).
 * CPU-RM asserts the non-replayable size is not 0.
 */
#define GMMU_STATIC_INFO_SIZE		0x10
#define FAULT_BUFFER_SIZE		(512 * 32)

static u32 gmmu_get_static_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	memset(p, 0, size);
	vgsp_put32(p, 0, FAULT_BUFFER_SIZE);
	vgsp_put32(p, 8, FAULT_BUFFER_SIZE);
	return NV_OK;
}

/*
 * NV2080_CTRL_INTERNAL_CONF_COMPUTE_GET_STATIC_INFO_PARAMS: bIsBar1Trusted,
 * bIsPcieTrusted. Confidential compute is off, so both BARs are trusted:
 * CPU-RM then reaches FB through BAR0/BAR2 itself instead of asking GSP-RM
 * for every access (kbusStateInitLocked: bBarAccessBlocked).
 */
#define CONF_COMPUTE_STATIC_INFO_SIZE	0x2

static u32 conf_compute_get_static_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	p[0] = 1;
	p[1] = 1;
	return NV_OK;
}

/*
 * NV2080_CTRL_CE_GET_HUB_PCE_MASK_PARAMS: hshubPceMasks[32], fbhubPceMask.
 * No HSHUB (no NVLink); two PCEs behind FBHUB for the exposed LCE.
 * CPU-RM computes a PCE->LCE map from it and sends it back in
 * CE_UPDATE_PCE_LCE_MAPPINGS, which is accepted as is.
 */
#define CE_HUB_PCE_MASK_SIZE		0x84
#define CE_FBHUB_PCE_MASK		0x3

static u32 ce_get_hub_pce_mask(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	memset(p, 0, size);
	vgsp_put32(p, 0x80, CE_FBHUB_PCE_MASK);
	return NV_OK;
}

static u32 intr_get_kernel_table(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	const struct r535_layout *l = r535_lay(gsp);
	unsigned int i;

	if (size < INTR_TABLE_MIN_SIZE)
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	vgsp_put32(p, 0, gsp->chip->gr_nonstall_vector ? 4 : 3);
	intr_row(p, 0, l->mc_gsp, gsp->chip->irq_vector,
		 R535_INTR_VECTOR_INVALID);
	intr_row(p, 1, l->mc_replayable_fault,
		 INTR_VEC_REPLAYABLE_FAULT, R535_INTR_VECTOR_INVALID);
	intr_row(p, 2, l->mc_access_cntr, INTR_VEC_ACCESS_CNTR,
		 R535_INTR_VECTOR_INVALID);
	/* GR0: no stall vector for CPU-RM, its notification vector */
	if (gsp->chip->gr_nonstall_vector)
		intr_row(p, 3, l->mc_gr0,
			 R535_INTR_VECTOR_INVALID,
			 gsp->chip->gr_nonstall_vector);
	if (size >= INTR_SUBTREE_MAP + 2 * INTR_CATEGORIES)
		for (i = 0; i < INTR_CATEGORIES; i++) {
			p[INTR_SUBTREE_MAP + 2 * i] = intr_subtree_map[i][0];
			p[INTR_SUBTREE_MAP + 2 * i + 1] =
				intr_subtree_map[i][1];
		}
	return NV_OK;
}

static u32 get_smc_mode(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	vgsp_put32(p, 0, SMC_MODE_UNSUPPORTED);
	return NV_OK;
}

static u32 fifo_get_num_channels(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	vgsp_put32(p, 4, CHANNELS_PER_RUNLIST);	/* runlistId @0 is input */
	return NV_OK;
}

static u32 coherent_fb_aperture(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	vgsp_put64(p, 0, 0);			/* not self-hosted */
	return NV_OK;
}

static u32 ack(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	return NV_OK;
}

/*
 * The clock queries libcuda makes for cuDeviceGetAttribute(CLOCK_RATE):
 * four legacy subdevice controls whose layouts are not public. Their
 * answers were measured on the H200 (driver 580.159.04, libcuda 580;
 * scripts/guest/nvtrace.c with NVTRACE_PARAMS=1, 2026-12-03) and are
 * reproduced field by field; the clocks come from the chip file.
 *
 * 0x2080_9009 (8 bytes): request zeros; the second word answers 0xd, a
 * mask of clock domains (1, 4, 8). With 0 libcuda reports no clock.
 */
#define LEGACY_9009_MASK	0xd

static u32 gss_legacy_9009(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (size < 8)
		return NV_ERR_INVALID_PARAM_STRUCT;
	vgsp_put32(p, 4, LEGACY_9009_MASK);
	return NV_OK;
}

/*
 * 0x2080_9064 (0x208 bytes): {flags, count, count × {domain, a, b, c}}.
 * Measured: domain 1 → {1, 1, 100}, domain 4 → {0x10, 1, 100}. Other
 * domains were not asked on hardware; they are refused, not invented.
 */
#define CLK_LIST_OFF		8
#define CLK_ENTRY		16
#define CLK_LIST_MAX		32

static u32 gss_legacy_9064(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 n, i;

	if (size < CLK_LIST_OFF + CLK_ENTRY * CLK_LIST_MAX)
		return NV_ERR_INVALID_PARAM_STRUCT;
	n = vgsp_get32(p, 4);
	if (n > CLK_LIST_MAX)
		return NV_ERR_INVALID_ARGUMENT;
	for (i = 0; i < n; i++) {
		u8 *e = p + CLK_LIST_OFF + CLK_ENTRY * i;
		u32 dom = vgsp_get32(e, 0);

		if (dom != 1 && dom != 4)
			return NV_ERR_NOT_SUPPORTED;
		vgsp_put32(e, 4, dom == 1 ? 1 : 0x10);
		vgsp_put32(e, 8, 1);
		vgsp_put32(e, 12, 100);
	}
	return NV_OK;
}

/* 0x2080_9001 (8 bytes) and 0x2080_a084 (4 bytes): constant answers. */
static u32 gss_legacy_9001(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (size < 8)
		return NV_ERR_INVALID_PARAM_STRUCT;
	vgsp_put32(p, 0, 0x003c0017);
	vgsp_put32(p, 4, 0);
	return NV_OK;
}

static u32 gss_legacy_a084(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (size < 4)
		return NV_ERR_INVALID_PARAM_STRUCT;
	vgsp_put32(p, 0, 0x01000001);
	return NV_OK;
}

/*
 * 0x2080_a026 (0x214 bytes): {w0, w1, w2, w3, count, count × {domain, 0,
 * kHz, 0}}. Measured: w1's low byte answers 3, w2 4, w3 1; domain 1 is the
 * GPC clock (1980000 on the H200), domain 0x10 the memory clock.
 */
#define CLKF_LIST_OFF		20
#define CLKF_ENTRY		16
#define CLKF_LIST_MAX		32

static u32 gss_legacy_a026(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	const struct vgsp_chip *c = gsp->dev->profile->chip;
	u32 n, i;

	if (size < CLKF_LIST_OFF + CLKF_ENTRY * CLKF_LIST_MAX)
		return NV_ERR_INVALID_PARAM_STRUCT;
	n = vgsp_get32(p, 16);
	if (n > CLKF_LIST_MAX)
		return NV_ERR_INVALID_ARGUMENT;
	for (i = 0; i < n; i++) {
		u8 *e = p + CLKF_LIST_OFF + CLKF_ENTRY * i;
		u32 dom = vgsp_get32(e, 0);

		if (dom != 1 && dom != 0x10)
			return NV_ERR_NOT_SUPPORTED;
		vgsp_put32(e, 4, 0);
		vgsp_put32(e, 8, dom == 1 ? c->gpc_clk_max_khz :
			   c->mem_clk_max_khz);
		vgsp_put32(e, 12, 0);
	}
	vgsp_put32(p, 4, (vgsp_get32(p, 4) & ~0xffU) | 3);
	vgsp_put32(p, 8, 4);
	vgsp_put32(p, 12, 1);
	return NV_OK;
}

/*
 * GPU_GET_INFO_V2: CPU-RM answers the indices it knows and forwards the
 * rest with bit 31 set in the index (getGpuInfos). Those are GSP-RM's:
 * none of them is a capability a vGPU slice has, so each reads 0 (the
 * "no"/"disabled" value of every such index); the flag is cleared.
 */
#define GPU_INFO_LIST			4
#define GPU_INFO_MAX			64	/* NV2080_CTRL_GPU_INFO_INDEX_MAX + 1 */
#define GPU_INFO_FORWARD		0x80000000U

/*
 * BUS_GET_INFO_V2 as kbusSendBusInfo sends it (one entry): the PCIe
 * generation CPU-RM forwards (a Gen5 x16 part at Gen5, as H100 SXM), and
 * 0 for the link error counters, ASPM and MSI state of a virtual link.
 */
#define BUS_INFO_LIST			4
#define BUS_INFO_MAX			0x34
#define BUS_INFO_SIZE			(BUS_INFO_LIST + 8 * BUS_INFO_MAX)
#define BUS_INFO_PCIE_GEN2_INFO		0x14
#define BUS_INFO_PCIE_GEN_INFO		0x2d
#define BUS_PCIE_GEN5_ALL		(4U << 12 | 4U << 16 | 4U << 20)

static u32 bus_get_info_v2(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 n = vgsp_get32(p, 0), i;

	if (!n || n > BUS_INFO_MAX)
		return NV_ERR_INVALID_ARGUMENT;
	for (i = 0; i < n; i++) {
		u8 *e = p + BUS_INFO_LIST + 8 * i;
		u32 idx = vgsp_get32(e, 0);

		vgsp_put32(e, 4, idx == BUS_INFO_PCIE_GEN_INFO ||
				 idx == BUS_INFO_PCIE_GEN2_INFO ?
				 BUS_PCIE_GEN5_ALL : 0);
	}
	return NV_OK;
}

/*
 * FB_GET_INFO_V2 carries only the indices CPU-RM routes to GSP-RM
 * (kmemsysCtrlCmdFbGetInfoV2: topology, RAM type, reserved sizes); the
 * sizes of FB it answers itself from static info. Indices not listed read
 * 0, which for each of them is the "none"/"not present" value.
 */
#define FB_INFO_LIST			4

static u32 fb_info(u32 idx)
{
	switch (idx) {
	case 0x04:			/* PARTITION_COUNT */
	case 0x19:			/* FBP_COUNT */
		return 10;
	case 0x0b:			/* BUS_WIDTH */
		return R535_FB_BUS_WIDTH;
	case 0x0d:			/* RAM_TYPE */
		return 0x14;		/* HBM3 */
	case 0x14:			/* PARTITION_MASK */
		return R535_FBIO_MASK;
	case 0x1a:			/* FBP_MASK */
		return R535_FBP_MASK;
	case 0x1b:			/* L2CACHE_SIZE */
		return R535_L2_CACHE_SIZE;
	case 0x22:			/* LTC_COUNT: 2 per FBP */
		return 20;
	case 0x23:			/* LTS_COUNT: 4 slices per LTC */
		return 80;
	case 0x2b:			/* LTC_MASK */
		return 0xfffff;
	default:
		return 0;
	}
}

static u32 fb_get_info_v2(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 max = r535_lay(gsp)->fb_info_max, n, i;

	if (size != FB_INFO_LIST + 8 * max)
		return NV_ERR_INVALID_PARAM_STRUCT;
	n = vgsp_get32(p, 0);
	if (n > max)
		return NV_ERR_INVALID_ARGUMENT;
	for (i = 0; i < n; i++) {
		u8 *e = p + FB_INFO_LIST + 8 * i;
		u32 idx = vgsp_get32(e, 0);

		if (idx >= max)
			return NV_ERR_INVALID_ARGUMENT;
		vgsp_put32(e, 4, fb_info(idx));
	}
	return NV_OK;
}

/*
 * Copy-engine capabilities GSP-RM reports (kceGetDeviceCaps and UVM's CE
 * selection read them), from the engine table (engines.c).
 */
#define CE_CAPS_V2_SIZE			8
#define CE_PCE_MASK_SIZE		8

/* capsTbl[rows][2], then the present mask (u32 in 535, u64 in 550) */
static u32 ce_get_all_physical_caps(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	const struct r535_layout *l = r535_lay(gsp);

	if (size != 2 * l->ce_caps_rows + l->ce_present_size)
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	vgsp_put32(p, 2 * l->ce_caps_rows,
		   r535_ce_all_caps(p, l->ce_caps_rows));
	return NV_OK;
}

static u32 ce_get_physical_caps(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 pce;

	if (r535_ce_caps(vgsp_get32(p, 0), p + 4, &pce))
		return NV_ERR_INVALID_ARGUMENT;
	return NV_OK;
}

static u32 ce_get_pce_mask(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u8 caps[2];
	u32 pce;

	if (r535_ce_caps(vgsp_get32(p, 0), caps, &pce))
		return NV_ERR_INVALID_ARGUMENT;
	vgsp_put32(p, 4, pce);
	return NV_OK;
}

/*
 * GSP_GET_FEATURES: UVM is enabled (libcuda reads this bit before it uses
 * the GPU), the mask is valid, GSP-RM is the default on this GPU, and the
 * firmware build is the driver version the guest announced.
 */
#define GSP_FEATURES_SIZE		0x48
#define GSP_FEATURES_UVM_ENABLED	0x1
#define GSP_FEATURES_VERSION		6
#define GSP_FEATURES_VERSION_LEN	64

static u32 gsp_get_features(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	unsigned int i;

	memset(p, 0, size);
	vgsp_put32(p, 0, GSP_FEATURES_UVM_ENABLED);
	p[4] = 1;			/* bValid */
	p[5] = 1;			/* bDefaultGspRmGpu */
	for (i = 0; i + 1 < GSP_FEATURES_VERSION_LEN &&
	     i < sizeof(gsp->guest_version) && gsp->guest_version[i]; i++)
		p[GSP_FEATURES_VERSION + i] = gsp->guest_version[i];
	return NV_OK;
}

/*
 * Controls with bit 15 of the command set (0x2080_8xxx, "legacy") go to
 * GSP-RM as raw buffers, with no NVOC entry (rmapi_gss_legacy_control.c).
 * libcuda's cuInit sends two; on real hardware 0x20808159 answers NV_OK
 * with the request unchanged and 0x20808162 NV_OK with its first byte 1
 * (measured by others on a GA106, cuInit ioctl trace). Nothing more is
 * known of them, so nothing more is claimed.
 */
static u32 gss_legacy_8162(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (size < 1)
		return NV_ERR_INVALID_PARAM_STRUCT;
	p[0] = 1;
	return NV_OK;
}

/*
 * Zeroed answers that are the hardware's: no C2C link (Grace-Hopper only),
 * no PCIe atomics across the virtual link.
 */
static u32 zero_ok(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	memset(p, 0, size);
	return NV_OK;
}

static u32 gpu_get_info_v2(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 max = r535_lay(gsp)->gpu_info_max, n, i;

	if (size != GPU_INFO_LIST + 8 * max)
		return NV_ERR_INVALID_PARAM_STRUCT;
	n = vgsp_get32(p, 0);
	if (!n || n > max)
		return NV_ERR_INVALID_ARGUMENT;
	for (i = 0; i < n; i++) {
		u8 *e = p + GPU_INFO_LIST + 8 * i;
		u32 idx = vgsp_get32(e, 0);

		if (!(idx & GPU_INFO_FORWARD))
			continue;
		idx &= ~GPU_INFO_FORWARD;
		if (idx >= GPU_INFO_MAX)
			return NV_ERR_INVALID_ARGUMENT;
		vgsp_put32(e, 0, idx);
		vgsp_put32(e, 4, 0);
	}
	return NV_OK;
}

/*
 * Deliberately NOT_SUPPORTED, as GSP-RM answers on this configuration:
 * NVLINK_GET_NVLINK_DEVICE_INFO (no NVLink on a vGPU slice),
 * GPU_GET_VMMU_SEGMENT_SIZE ("no VMMU", which CPU-RM takes as
 * segment size 0, gpuInitVmmuInfo).
 */
static u32 not_supported(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	return NV_ERR_NOT_SUPPORTED;
}

static u32 get_name_string(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 flags = vgsp_get32(p, 0);
	char name[64];
	unsigned int i;

	r535_gpu_name(gsp, name, sizeof(name));
	memset(p + 4, 0, NAME_PARAMS_SIZE - 4);
	for (i = 0; name[i]; i++) {
		if (flags & NAME_FLAGS_UNICODE)
			p[4 + 2 * i] = name[i];
		else
			p[4 + i] = name[i];
	}
	return NV_OK;
}

static u32 get_short_name_string(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	const char *s = gsp->dev->profile->chip->name;
	unsigned int i;

	memset(p, 0, SHORT_NAME_SIZE);
	for (i = 0; i + 1 < SHORT_NAME_SIZE && s[i]; i++)
		p[i] = s[i];
	return NV_OK;
}

/* "GPU-" + the UUID in text, or the 16 raw bytes. */
static u32 get_gid_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 flags = vgsp_get32(p, 4);
	char text[64];

	memset(p + 8, 0, GID_PARAMS_SIZE - 8);
	switch (flags & GID_FLAGS_FORMAT_MASK) {
	case R535_GID_FLAGS_FORMAT_BINARY:
		vgsp_put32(p, 8, R535_GID_LEN_BINARY);
		memcpy(p + 12, gsp->dev->uuid, R535_GID_LEN_BINARY);
		return NV_OK;
	case R535_GID_FLAGS_FORMAT_ASCII:
		memcpy(text, "GPU-", 4);
		vgsp_uuid_to_str(gsp->dev->uuid, text + 4);
		vgsp_put32(p, 8, (u32)strlen(text) + 1);
		memcpy(p + 12, text, strlen(text) + 1);
		return NV_OK;
	default:
		return NV_ERR_INVALID_ARGUMENT;
	}
}

static const struct r535_ctrl r535_ctrls[] = {
	{ CMD_INTR_GET_KERNEL_TABLE, "INTERNAL_INTR_GET_KERNEL_TABLE", 0,
	  intr_get_kernel_table },
	{ CMD_GPU_GET_CHIP_INFO, "INTERNAL_GPU_GET_CHIP_INFO", 0,
	  gpu_get_chip_info },
	{ CMD_USER_REGISTER_ACCESS_MAP,
	  "INTERNAL_GPU_GET_USER_REGISTER_ACCESS_MAP",
	  USER_REGISTER_ACCESS_MAP_SIZE, zeroed },
	{ CMD_GET_CONSTRUCTED_FALCON_INFO,
	  "INTERNAL_GET_CONSTRUCTED_FALCON_INFO", CONSTRUCTED_FALCON_INFO_SIZE,
	  zeroed },
	{ CMD_MEMSYS_GET_STATIC_CONFIG, "INTERNAL_MEMSYS_GET_STATIC_CONFIG", 0,
	  memsys_get_static_config },
	{ CMD_GPU_GET_SMC_MODE, "INTERNAL_GPU_GET_SMC_MODE", 4, get_smc_mode },
	{ CMD_FIFO_GET_NUM_CHANNELS, "INTERNAL_FIFO_GET_NUM_CHANNELS", 8,
	  fifo_get_num_channels },
	{ CMD_GET_COHERENT_FB_APERTURE,
	  "INTERNAL_GET_COHERENT_FB_APERTURE_SIZE", 8, coherent_fb_aperture },
	{ CMD_BUS_FLUSH_WITH_SYSMEMBAR, "INTERNAL_BUS_FLUSH_WITH_SYSMEMBAR", 0,
	  ack },
	{ CMD_FIFO_PROMOTE_RUNLIST_BUFS,
	  "INTERNAL_FIFO_PROMOTE_RUNLIST_BUFFERS", 0, ack },
	{ CMD_GPU_GET_NAME_STRING, "GPU_GET_NAME_STRING", NAME_PARAMS_SIZE,
	  get_name_string },
	{ CMD_GPU_GET_SHORT_NAME_STRING, "GPU_GET_SHORT_NAME_STRING",
	  SHORT_NAME_SIZE, get_short_name_string },
	{ 0x20800102, "GPU_GET_INFO_V2", 0, gpu_get_info_v2 },
	{ 0x20801823, "BUS_GET_INFO_V2", BUS_INFO_SIZE, bus_get_info_v2 },
	{ 0x20801303, "FB_GET_INFO_V2", 0, fb_get_info_v2 },
	{ 0x20803601, "GSP_GET_FEATURES", GSP_FEATURES_SIZE, gsp_get_features },
	/*
	 * Scheduling of TSGs and channels GSP-RM owns: channels here run as
	 * soon as they are rung, each in bounded slices, and a preempt, stop
	 * or eviction finds no work in flight (the fifo worker completes a
	 * slice before it lets the device lock go), so each is accepted.
	 */
	{ 0xa06c0101, "TSG_GPFIFO_SCHEDULE", 0, ack },
	{ 0xa06c0103, "TSG_SET_TIMESLICE", 0, ack },
	{ 0xa06c0105, "TSG_PREEMPT", 0, ack },
	{ 0xa06c0107, "TSG_SET_INTERLEAVE_LEVEL", 0, ack },
	{ 0xa06f0109, "GPFIFO_SET_INTERLEAVE_LEVEL", 0, ack },
	{ 0xa06f0111, "GPFIFO_RESTART_RUNLIST", 0, ack },
	{ 0xa06f0112, "GPFIFO_STOP_CHANNEL", 0, ack },
	{ 0x2080012c, "GPU_EVICT_CTX", 0, ack },
	/*
	 * CUDA limit ("CUDA safe" clocks) of a device: libcuda 550 turns it on
	 * per context and CPU-RM forwards the change (kern_cuda_limit.c); a
	 * vGPU slice has no clocks to limit. NOT_SUPPORTED failed cuCtxCreate.
	 */
	{ 0x00802009, "INTERNAL_PERF_CUDA_LIMIT_SET_CONTROL", 1, ack },
	{ 0x00802004, "INTERNAL_PERF_CUDA_LIMIT_DISABLE", 0, ack },
	/* GR_SET_CTXSW_PREEMPTION_MODE: no context switching on this GR */
	{ 0x20801210, "GR_SET_CTXSW_PREEMPTION_MODE", 0, ack },
	/* INTERNAL_PERF_BOOST_SET_2X (PERF_BOOST's half): no P-states */
	{ 0x20800a9a, "INTERNAL_PERF_BOOST_SET_2X", 0, ack },
	/*
	 * MC_SERVICE_INTERRUPTS: nothing is ever left pending for GSP-RM to
	 * service here (completions are in memory; non-stall interrupts are
	 * not raised yet).
	 */
	{ 0x20801702, "MC_SERVICE_INTERRUPTS", 0, ack },
	/* the debugger's exception mask: no SM exceptions are raised */
	{ 0x83de0309, "DEBUG_SET_EXCEPTION_MASK", 0, ack },
	/*
	 * UNSET_PAGE_DIRECTORY (control form): the VA space goes back to
	 * CPU-RM's root, which CPU-RM re-announces; the externally owned root
	 * is no longer used by any channel after UVM's unregistration.
	 */
	{ 0x00801814, "DMA_UNSET_PAGE_DIRECTORY", 0, ack },
	{ 0x20808159, "GSS_LEGACY_0x8159", 0, ack },
	{ 0x20808162, "GSS_LEGACY_0x8162", 0, gss_legacy_8162 },
	/*
	 * A legacy device control libcuda sends while it creates a context
	 * (0x0080_99xx: device PERF, 1 byte). Its layout is not public;
	 * answered NV_OK with the request unchanged. Unverified against real
	 * hardware: see docs/work-path.md.
	 */
	{ 0x00809909, "GSS_LEGACY_0x0080_9909", 0, ack },
	{ 0x20809009, "GSS_LEGACY_0x9009", 0, gss_legacy_9009 },
	{ 0x20809064, "GSS_LEGACY_0x9064", 0, gss_legacy_9064 },
	{ 0x20809001, "GSS_LEGACY_0x9001", 0, gss_legacy_9001 },
	{ 0x2080a084, "GSS_LEGACY_0xa084", 0, gss_legacy_a084 },
	{ 0x2080a026, "GSS_LEGACY_0xa026", 0, gss_legacy_a026 },
	{ 0x20809038, "GSS_LEGACY_0x9038", 0, zero_ok },
	{ 0x2080182b, "BUS_GET_C2C_INFO", 0, zero_ok },
	{ 0x2080182a, "BUS_GET_PCIE_SUPPORTED_GPU_ATOMICS", 0, zero_ok },
	/*
	 * Fault and access-counter buffers: GSP-RM would point the MMU's
	 * fault/notify hardware at them. No engine here raises replayable
	 * faults or counts accesses (the sim walks page tables on every
	 * access), so registering is accepted and the buffers stay empty:
	 * their GET/PUT registers read 0.
	 */
	{ 0x20800a9b, "INTERNAL_GMMU_REGISTER_FAULT_BUFFER", 0, ack },
	{ 0x20800a9c, "INTERNAL_GMMU_UNREGISTER_FAULT_BUFFER", 0, ack },
	{ 0x20800a9d, "INTERNAL_GMMU_REGISTER_CLIENT_SHADOW_FAULT_BUFFER", 0,
	  ack },
	{ 0x20800a9e, "INTERNAL_GMMU_UNREGISTER_CLIENT_SHADOW_FAULT_BUFFER", 0,
	  ack },
	{ 0x20800a1d, "INTERNAL_UVM_REGISTER_ACCESS_CNTR_BUFFER", 0, ack },
	{ 0x20800a1e, "INTERNAL_UVM_UNREGISTER_ACCESS_CNTR_BUFFER", 0, ack },
	/* TSG construction fails without it; every field is the guest's input */
	{ 0xa06c010a, "INTERNAL_PROMOTE_FAULT_METHOD_BUFFERS", 0, ack },
	{ 0x20802a0b, "CE_GET_ALL_PHYSICAL_CAPS", 0,
	  ce_get_all_physical_caps },
	{ 0x20802a07, "CE_GET_PHYSICAL_CAPS", CE_CAPS_V2_SIZE,
	  ce_get_physical_caps },
	{ 0x20802a02, "CE_GET_CE_PCE_MASK", CE_PCE_MASK_SIZE, ce_get_pce_mask },
	{ CMD_GPU_GET_GID_INFO, "GPU_GET_GID_INFO", GID_PARAMS_SIZE,
	  get_gid_info },
	{ CMD_GET_DEVICE_INFO_TABLE, "INTERNAL_GET_DEVICE_INFO_TABLE", 0,
	  r535_get_device_info_table },
	{ CMD_FIFO_GET_DEVICE_INFO_TABLE, "FIFO_GET_DEVICE_INFO_TABLE", 0,
	  r535_fifo_get_device_info_table },
	{ CMD_GPU_GET_ENGINES_V2, "GPU_GET_ENGINES_V2", 0,
	  r535_gpu_get_engines_v2 },
	{ CMD_BUS_GET_PCI_BAR_INFO, "BUS_GET_PCI_BAR_INFO", PCI_BAR_INFO_SIZE,
	  bus_get_pci_bar_info },
	{ CMD_CONF_COMPUTE_GET_STATIC, "INTERNAL_CONF_COMPUTE_GET_STATIC_INFO",
	  CONF_COMPUTE_STATIC_INFO_SIZE, conf_compute_get_static_info },
	{ CMD_BIF_GET_STATIC_INFO, "INTERNAL_BIF_GET_STATIC_INFO",
	  BIF_STATIC_INFO_SIZE, bif_get_static_info },
	{ CMD_CE_GET_FAULT_METHOD_BUF, "CE_GET_FAULT_METHOD_BUFFER_SIZE", 4,
	  ce_get_fault_method_buffer_size },
	{ CMD_CE_UPDATE_CLASS_DB, "CE_UPDATE_CLASS_DB", 4, ce_update_class_db },
	{ CMD_GMMU_GET_STATIC_INFO, "INTERNAL_GMMU_GET_STATIC_INFO",
	  GMMU_STATIC_INFO_SIZE, gmmu_get_static_info },
	{ CMD_PERF_BOOST_SYNC_GET_INFO, "INTERNAL_PERF_GPU_BOOST_SYNC_GET_INFO",
	  PERF_BOOST_SYNC_INFO_SIZE, zeroed },
	{ CMD_FIFO_NUM_SECURE_CHANNELS, "INTERNAL_FIFO_GET_NUM_SECURE_CHANNELS",
	  FIFO_NUM_SECURE_CHANNELS_SIZE, zeroed },
	{ CMD_PMGR_GET_MODULE_INFO, "PMGR_GET_MODULE_INFO",
	  PMGR_MODULE_INFO_SIZE, zeroed },
	{ CMD_CCU_MAP, "INTERNAL_CCU_MAP", 0, ack },
	{ CMD_CE_GET_HUB_PCE_MASK, "CE_GET_HUB_PCE_MASK", CE_HUB_PCE_MASK_SIZE,
	  ce_get_hub_pce_mask },
	{ CMD_CE_UPDATE_PCE_LCE_MAPPINGS, "CE_UPDATE_PCE_LCE_MAPPINGS", 0, ack },
	{ CMD_GR_GET_FECS_TRACE_HW_ENABLE, "INTERNAL_GR_GET_FECS_TRACE_HW_ENABLE",
	  0, ack },
	/*
	 * Cache and page-directory maintenance with nothing to do here: the
	 * FB store has no L2 in front of it, and BAR2/VA-space walks read
	 * CPU-RM's page tables directly (the PDEs CPU-RM copies to "server"
	 * side are where it wrote them).
	 */
	{ CMD_MEMSYS_L2_INVALIDATE_EVICT, "INTERNAL_MEMSYS_L2_INVALIDATE_EVICT",
	  0, ack },
	{ CMD_GMMU_COPY_SPLIT_PDES,
	  "INTERNAL_GMMU_COPY_RESERVED_SPLIT_GVASPACE_PDES_TO_SERVER", 0, ack },
	{ CMD_VASPACE_COPY_SERVER_PDES, "VASPACE_COPY_SERVER_RESERVED_PDES", 0,
	  ack },
	/* GR0 static info (gr.c) */
	{ 0x20800a1f, "INTERNAL_STATIC_KGR_GET_CAPS", 0, r535_kgr_get_caps },
	{ 0x20800a2a, "INTERNAL_STATIC_KGR_GET_INFO", 0, r535_kgr_get_info },
	{ 0x20800a26, "INTERNAL_STATIC_KGR_GET_FLOORSWEEPING_MASKS", 0,
	  r535_kgr_get_floorsweeping_masks },
	{ 0x20800a22, "INTERNAL_STATIC_KGR_GET_GLOBAL_SM_ORDER", 0,
	  r535_kgr_get_global_sm_order },
	{ 0x20800a32, "INTERNAL_STATIC_KGR_GET_CONTEXT_BUFFERS_INFO", 0,
	  r535_kgr_get_context_buffers_info },
	{ 0x20800a2c, "INTERNAL_STATIC_KGR_GET_ZCULL_INFO", 0,
	  r535_kgr_get_zcull_info },
	{ 0x20800a2e, "INTERNAL_STATIC_KGR_GET_ROP_INFO", 0,
	  r535_kgr_get_rop_info },
	{ 0x20800a30, "INTERNAL_STATIC_KGR_GET_PPC_MASKS", 0,
	  r535_kgr_get_ppc_masks },
	{ 0x20800a34, "INTERNAL_STATIC_KGR_GET_SM_ISSUE_RATE_MODIFIER", 0,
	  r535_kgr_get_sm_issue_rate_modifier },
	{ 0x20800a3f, "INTERNAL_STATIC_KGR_GET_FECS_TRACE_DEFINES", 0,
	  r535_kgr_get_fecs_trace_defines },
	{ 0x20800a3d, "INTERNAL_STATIC_KGR_GET_FECS_RECORD_SIZE", 0,
	  r535_kgr_get_fecs_record_size },
	{ 0x20800a48, "INTERNAL_STATIC_KGR_GET_PDB_PROPERTIES", 0,
	  r535_kgr_get_pdb_properties },
	{ 0x20800a37, "INTERNAL_GR_SET_FECS_TRACE_HW_ENABLE", 0, ack },
	/*
	 * NVA06F_CTRL_CMD_GPFIFO_SCHEDULE {bEnable, bSkipSubmit}: the channel
	 * is "scheduled"; nothing executes its pushbuffer (no engine model).
	 */
	{ 0xa06f0103, "GPFIFO_SCHEDULE", 0, ack },
	/*
	 * NV2080_CTRL_CMD_EVENT_SET_NOTIFICATION {event, action, ...}: armed;
	 * no engine raises the events (nothing executes).
	 */
	{ 0x20800301, "EVENT_SET_NOTIFICATION", 0, ack },
	/*
	 * GPU_PROMOTE_CTX: context buffers CPU-RM allocated are recorded by
	 * GSP-RM for the channel; accepted (no context switching modelled).
	 * MEMSYS_SET_PARTITIONABLE_MEM: MIG memory split; accepted, unused.
	 */
	{ 0x2080012b, "GPU_PROMOTE_CTX", 0, ack },
	{ 0x20800a51, "INTERNAL_MEMSYS_SET_PARTITIONABLE_MEM", 0, ack },
	/*
	 * KMEMSYS_GET_MIG_MEMORY_CONFIG: memBoundaryCfgA/B/C u64 and a
	 * boundary config u32; all 0 = no MIG memory boundaries (no MIG).
	 * CCU_UNMAP: the counter-collection buffer mapped by CCU_MAP is let go.
	 */
	{ 0x20800a67, "INTERNAL_KMEMSYS_GET_MIG_MEMORY_CONFIG", 0x20, zeroed },
	{ 0x20800ab4, "INTERNAL_CCU_UNMAP", 0, ack },
	/* nvidia-smi -q: no reset required, no drain recommended */
	{ 0x208001ab, "GPU_GET_RESET_STATUS", 1, zeroed },
	{ 0x208001ae, "GPU_GET_DRAIN_AND_RESET_STATUS", 1, zeroed },
	/* vGPU manager config (host-side vGPU support): accepted, unused */
	{ CMD_VGPU_MGR_SET_CONFIG, "VGPU_MGR_INTERNAL_SET_VGPU_MGR_CONFIG", 0,
	  ack },
	{ CMD_NVLINK_GET_DEVICE_INFO, "NVLINK_GET_NVLINK_DEVICE_INFO", 0,
	  not_supported },
	{ CMD_GPU_GET_VMMU_SEGMENT_SIZE, "GPU_GET_VMMU_SEGMENT_SIZE", 0,
	  not_supported },
};

/* Names of commands seen on the init path that are not answered yet. */
static const struct {
	u32 cmd;
	const char *name;
} r535_ctrl_names[] = {
	{ 0x20800a63, "INTERNAL_STATIC_KMIGMGR_GET_PROFILES" },
	{ 0x20800a65, "INTERNAL_STATIC_KMIGMGR_GET_PARTITIONABLE_ENGINES" },
	{ 0x20800aa2, "INTERNAL_STATIC_GRMGR_GET_SKYLINE_INFO" },
	{ 0x20800a6b, "INTERNAL_MEMSYS_GET_MIG_MEMORY_PARTITION_TABLE" },
	{ 0x20800a01, "INTERNAL_DISPLAY_GET_STATIC_INFO" },
	{ 0x20800ac6, "INTERNAL_INIT_BRIGHTC_STATE_LOAD" },
	{ 0x208001f4, "INTERNAL_GPU_GET_FABRIC_PROBE_INFO" },
	{ 0x20800ab8, "INTERNAL_GET_PCIE_P2P_CAPS" },
};

static const struct r535_ctrl *ctrl_scan(u32 cmd)
{
	unsigned int i;

	for (i = 0; i < VGSP_ARRAY_SIZE(r535_ctrls); i++)
		if (r535_ctrls[i].cmd == cmd)
			return &r535_ctrls[i];
	return NULL;
}

/*
 * An index of r535_ctrls by command (open addressing, at least twice the
 * table's size): every GSP_RM_CONTROL looks its command up, and a scan
 * cost a few instructions per entry before it. Built once, by the first
 * lookup that gets to; lookups meanwhile scan. Entries are added in table
 * order, so a probe finds the same entry the scan would.
 */
#define CTRL_HASH_BITS	9
#define CTRL_HASH	(1U << CTRL_HASH_BITS)
enum { CTRL_HASH_NONE, CTRL_HASH_BUILDING, CTRL_HASH_READY };
static u16 ctrl_hash[CTRL_HASH];	/* table index + 1, 0: empty */
static int ctrl_hash_state;

static __always_inline unsigned int ctrl_bucket(u32 cmd)
{
	return vgsp_hash32(cmd, CTRL_HASH_BITS);
}

static void ctrl_hash_build(void)
{
	unsigned int i, b;

	for (i = 0; i < VGSP_ARRAY_SIZE(r535_ctrls); i++) {
		b = ctrl_bucket(r535_ctrls[i].cmd);
		while (ctrl_hash[b])
			b = (b + 1) & (CTRL_HASH - 1);
		ctrl_hash[b] = (u16)(i + 1);
	}
}

static __always_inline const struct r535_ctrl *ctrl_find(u32 cmd)
{
	int st = __atomic_load_n(&ctrl_hash_state, __ATOMIC_ACQUIRE);
	unsigned int b, n;

	if (st != CTRL_HASH_READY) {
		int none = CTRL_HASH_NONE;

		if (VGSP_ARRAY_SIZE(r535_ctrls) > CTRL_HASH / 2 ||
		    st != CTRL_HASH_NONE ||
		    !__atomic_compare_exchange_n(&ctrl_hash_state, &none,
						 CTRL_HASH_BUILDING, false,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			return ctrl_scan(cmd);
		ctrl_hash_build();
		__atomic_store_n(&ctrl_hash_state, CTRL_HASH_READY,
				 __ATOMIC_RELEASE);
	}
	b = ctrl_bucket(cmd);
	for (n = 0; n < CTRL_HASH && ctrl_hash[b]; n++) {
		const struct r535_ctrl *c = &r535_ctrls[ctrl_hash[b] - 1];

		if (c->cmd == cmd)
			return c;
		b = (b + 1) & (CTRL_HASH - 1);
	}
	return NULL;
}

/* For the unit test: the index finds what the scan finds (0), or -1. */
int r535_ctrl_index_check(void)
{
	unsigned int i;
	u32 cmd;

	for (i = 0; i < VGSP_ARRAY_SIZE(r535_ctrls); i++) {
		cmd = r535_ctrls[i].cmd;
		if (ctrl_find(cmd) != ctrl_scan(cmd) ||
		    ctrl_find(cmd ^ 0x00010000U) != ctrl_scan(cmd ^ 0x00010000U))
			return -1;
	}
	return __atomic_load_n(&ctrl_hash_state, __ATOMIC_ACQUIRE) ==
	       CTRL_HASH_READY ? 0 : -1;
}

VGSP_HOT u32 r535_control(struct vgsp_gsp *gsp, u32 cmd, u8 *params,
			  u32 size, bool *known)
{
	const struct r535_layout *l = r535_lay(gsp);
	const struct r535_ctrl *c;
	u32 st;

	if (l->control) {
		st = l->control(gsp, cmd, params, size, known);
		if (*known)
			return st;
	}
	c = ctrl_find(cmd);

	*known = c != NULL;
	if (!c)
		return NV_ERR_NOT_SUPPORTED;
	if (c->size && size != c->size)
		return NV_ERR_INVALID_PARAM_STRUCT;
	return c->fn(gsp, params, size);
}

const char *r535_ctrl_name(u32 cmd)
{
	const struct r535_ctrl *c = ctrl_find(cmd);
	unsigned int i;

	if (c)
		return c->name;
	for (i = 0; i < VGSP_ARRAY_SIZE(r535_ctrl_names); i++)
		if (r535_ctrl_names[i].cmd == cmd)
			return r535_ctrl_names[i].name;
	return "?";
}
