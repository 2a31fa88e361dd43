// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * INTERNAL_STATIC_KGR_*: the static description of GR0 that CPU-RM's
 * KernelGraphics loads in state post-load (kgraphicsLoadStaticInfo) and
 * KernelGraphicsManager keeps as the legacy (non-MIG) static info that
 * channel allocation needs (subcontext count, context buffer sizes).
 * CPU-RM answers GR_GET_INFO, GR_GET_GLOBAL_SM_ORDER, GR_GET_GPC_MASK,
 * GR_GET_TPC_MASK, GR_GET_NUM_TPCS_FOR_GPC and GET_SM_TO_GPC_TPC_MAPPINGS
 * from these copies; libcuda takes its SM count from them.
 *
 * Every parameter block is an array over NV2080_CTRL_INTERNAL_GR_MAX_ENGINES
 * (8) GR engines; only GR0 exists, the other rows stay zero. The topology
 * is the chip's (struct vgsp_chip_gr: GH100 as an H100 SXM5, 8 GPCs, 66
 * TPCs, 132 SMs), the same GspStaticConfigInfo reports; sm_90.
 *
 * Fidelity: coherent values. The context-buffer sizes are uniform
 * placeholders (64 KiB, 4 KiB aligned): nothing executes in them.
 */
#include "r535.h"

#define GR_ENGINES			8
#define GR_MAX_GPC			12
#define GR_MAX_TPC_PER_GPC		10
#define GR_MAX_SM			240

/* The PES units that hold at least one enabled TPC of @gpc. */
static u32 pes_mask(const struct vgsp_chip_gr *gr, unsigned int gpc)
{
	unsigned int t;
	u32 m = 0;

	for (t = 0; t < gr->tpcs[gpc]; t++)
		m |= 1U << (t / gr->tpcs_per_pes);
	return m;
}

static u32 pes_count(const struct vgsp_chip_gr *gr, unsigned int gpc)
{
	u32 m = pes_mask(gr, gpc), n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

/* GET_CAPS: capsTbl[23] per engine; no optional capability bits. */
#define GR_CAPS_ROW			23

/* GET_INFO: gr_info_rows (0x35 in 535) x { index, data } per engine */

/* Indices whose value is the same on every part of the family. */
static const struct {
	u32 index, data;
} gr_info[] = {
	{ 0x03, 0x100 },	/* BUFFER_ALIGNMENT */
	{ 0x0c, 0x900 },	/* SM_VERSION: sm_90 */
	{ 0x0d, 64 },		/* MAX_WARPS_PER_SM */
	{ 0x0e, 32 },		/* MAX_THREADS_PER_WARP */
	{ 0x11, 32 },		/* FB_MEMORY_REQUEST_GRANULARITY */
	{ 0x12, 32 },		/* HOST_MEMORY_REQUEST_GRANULARITY */
	{ 0x13, 128 },		/* MAX_SP_PER_SM */
	{ 0x15, 10 },		/* LITTER_NUM_FBPS */
	{ 0x1a, 1 },		/* TIMESLICE_ENABLED */
	{ 0x1b, 10 },		/* LITTER_NUM_FBPAS */
	{ 0x24, 1 },		/* LITTER_NUM_GRS */
	{ 0x25, 10 },		/* LITTER_NUM_LTCS */
	{ 0x26, 40 },		/* LITTER_NUM_LTC_SLICES */
	{ 0x27, 1 },		/* LITTER_NUM_GPCMMU_PER_GPC */
	{ 0x28, 1 },		/* LITTER_NUM_LTC_PER_FBP */
	{ 0x2b, 1 },		/* LITTER_NUM_FBPA_PER_FBP */
	{ 0x2c, 64 },		/* MAX_SUBCONTEXT_COUNT */
	{ 0x2d, 2 },		/* MAX_LEGACY_SUBCONTEXT_COUNT */
	{ 0x2e, 64 },		/* MAX_PER_ENGINE_SUBCONTEXT_COUNT */
	{ 0x32, 4 },		/* LITTER_NUM_SLICES_PER_LTC */
};

/* FLOORSWEEPING_MASKS: 296 bytes per engine */
#define FS_ROW				296
#define FS_GPC_MASK			0
#define FS_TPC_MASK			4
#define FS_TPC_COUNT			52
#define FS_PHYS_GPC_MASK		100
#define FS_MMU_PER_GPC			104
#define FS_TPC_TO_PES			152
#define FS_NUM_PES_PER_GPC		192

/* GLOBAL_SM_ORDER: 240 x 6 u16, numSm, numTpc per engine */
#define SM_ENTRY			12
#define SM_ROW				(GR_MAX_SM * SM_ENTRY + 4)

/* CONTEXT_BUFFERS_INFO: ctxbuf_ids (0x19 in 535) x { size, alignment } per engine */
#define CTXBUF_SIZE			0x10000
#define CTXBUF_ALIGN			0x1000

/* ZCULL_INFO: 10 u32 per engine; ROP_INFO: 3 u32; FECS record: 1 u32 */
#define ZCULL_ROW			40
#define ROP_ROW				12
#define FECS_RECORD_SIZE		64
#define PDB_ROW				1

static u32 need(u32 size, u32 row)
{
	return size >= GR_ENGINES * row && !(size % GR_ENGINES) ?
	       NV_OK : NV_ERR_INVALID_PARAM_STRUCT;
}

u32 r535_kgr_get_caps(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (need(size, GR_CAPS_ROW))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	return NV_OK;
}

static void put_info(u8 *p, u32 index, u32 data)
{
	vgsp_put32(p, 8 * index + 4, data);
}

/*
 * The counts of the floorswept part, as RM reports them (a captured
 * GA106, 3 GPCs / 14 TPCs / 28 SMs, answers SHADER_PIPE_COUNT 3,
 * SHADER_PIPE_SUB_COUNT 14, THREAD_STACK_SCALING_FACTOR 28, GPU_CORE_COUNT
 * 28 x 128): SHADER_PIPE_COUNT the enabled GPCs, SHADER_PIPE_SUB_COUNT the
 * enabled TPCs (UVM's tpcCount, nv_gpu_ops.c), THREAD_STACK_SCALING_FACTOR
 * the enabled SMs. libcuda 535 needs SHADER_PIPE_SUB_COUNT: left 0, it
 * reports 8 SMs whatever GLOBAL_SM_ORDER says; set, it takes GLOBAL_SM_
 * ORDER's numSm. LITTER_* are the die's design values.
 */
u32 r535_kgr_get_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	const struct vgsp_chip *c = gsp->dev->profile->chip;
	const struct vgsp_chip_gr *gr = &c->gr;
	u32 nsm = vgsp_chip_num_sms(c);
	u32 rows = r535_lay(gsp)->gr_info_rows;
	unsigned int i;

	if (size != GR_ENGINES * rows * 8)
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	for (i = 0; i < rows; i++)
		vgsp_put32(p, 8 * i, i);
	for (i = 0; i < VGSP_ARRAY_SIZE(gr_info); i++)
		put_info(p, gr_info[i].index, gr_info[i].data);
	put_info(p, 0x07, gr->gpcs);		/* SHADER_PIPE_COUNT */
	put_info(p, 0x08, nsm);			/* THREAD_STACK_SCALING_FACTOR */
	put_info(p, 0x09, vgsp_chip_num_tpcs(c)); /* SHADER_PIPE_SUB_COUNT */
	put_info(p, 0x14, gr->max_gpcs);	/* LITTER_NUM_GPCS */
	put_info(p, 0x17, gr->max_tpcs_per_gpc); /* LITTER_NUM_TPC_PER_GPC */
	put_info(p, 0x1c, gr->pes_per_gpc);	/* LITTER_NUM_PES_PER_GPC */
	put_info(p, 0x1d, nsm * gr->cores_per_sm); /* GPU_CORE_COUNT */
	put_info(p, 0x1e, gr->tpcs_per_pes);	/* LITTER_NUM_TPCS_PER_PES */
	put_info(p, 0x20, gr->sms_per_tpc);	/* LITTER_NUM_SM_PER_TPC */
	put_info(p, 0x23, nsm * gr->tensor_cores_per_sm); /* TENSOR_CORE_COUNT */
	put_info(p, 0x2a, gr->max_tpcs_per_gpc); /* FAMILY_MAX_TPC_PER_GPC */
	return NV_OK;
}

u32 r535_kgr_get_floorsweeping_masks(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	const struct vgsp_chip *c = gsp->dev->profile->chip;
	const struct vgsp_chip_gr *gr = &c->gr;
	unsigned int i;

	if (need(size, FS_ROW))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	vgsp_put32(p, FS_GPC_MASK, vgsp_chip_gpc_mask(c));
	vgsp_put32(p, FS_PHYS_GPC_MASK, vgsp_chip_gpc_mask(c));
	for (i = 0; i < gr->gpcs && i < GR_MAX_GPC; i++) {
		vgsp_put32(p, FS_TPC_MASK + 4 * i, vgsp_chip_tpc_mask(c, i));
		vgsp_put32(p, FS_TPC_COUNT + 4 * i, gr->tpcs[i]);
		vgsp_put32(p, FS_MMU_PER_GPC + 4 * i, 1);
		vgsp_put32(p, FS_NUM_PES_PER_GPC + 4 * i,
			   pes_count(gr, i));
	}
	for (i = 0; i < GR_MAX_TPC_PER_GPC; i++)
		vgsp_put32(p, FS_TPC_TO_PES + 4 * i, i / gr->tpcs_per_pes);
	return NV_OK;
}

static void put16(u8 *b, u32 off, u16 v)
{
	b[off] = v & 0xff;
	b[off + 1] = v >> 8;
}

/*
 * Global SM ids spread over the GPCs the way RM numbers them (nouveau
 * gf100_gr_oneinit, nvgpu gr_gk20a_init_sm_id_table): local TPC 0 of every
 * GPC, then local TPC 1 of every GPC, ...; the SMs of one TPC are
 * consecutive. virtualGpcId is the GPC (the GPCs are in increasing TPC
 * count, see the chip file), migratableTpcId the local TPC (ctrl2080gr.h).
 */
u32 r535_kgr_get_global_sm_order(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	const struct vgsp_chip *c = gsp->dev->profile->chip;
	const struct vgsp_chip_gr *gr = &c->gr;
	u32 nsm = 0, ntpc = 0, tpc, gpc, sm;

	if (need(size, SM_ROW))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	for (tpc = 0; tpc < gr->max_tpcs_per_gpc; tpc++) {
		for (gpc = 0; gpc < gr->gpcs; gpc++) {
			if (tpc >= gr->tpcs[gpc])
				continue;
			for (sm = 0; sm < gr->sms_per_tpc && nsm < GR_MAX_SM;
			     sm++, nsm++) {
				u8 *e = p + nsm * SM_ENTRY;

				put16(e, 0, gpc);	/* gpcId */
				put16(e, 2, tpc);	/* localTpcId */
				put16(e, 4, sm);	/* localSmId */
				put16(e, 6, ntpc);	/* globalTpcId */
				put16(e, 8, gpc);	/* virtualGpcId */
				put16(e, 10, tpc);	/* migratableTpcId */
			}
			ntpc++;
		}
	}
	put16(p, GR_MAX_SM * SM_ENTRY, nsm);
	put16(p, GR_MAX_SM * SM_ENTRY + 2, ntpc);
	return NV_OK;
}

u32 r535_kgr_get_context_buffers_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	u32 ids = r535_lay(gsp)->ctxbuf_ids;
	unsigned int i;

	if (size != GR_ENGINES * ids * 8)
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	for (i = 0; i < ids; i++) {
		vgsp_put32(p, 8 * i, CTXBUF_SIZE);
		vgsp_put32(p, 8 * i + 4, CTXBUF_ALIGN);
	}
	return NV_OK;
}

/* ZCULL and ROP: present, all zero (no graphics pipe exposed). */
u32 r535_kgr_get_zcull_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (need(size, ZCULL_ROW))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	return NV_OK;
}

u32 r535_kgr_get_rop_info(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (need(size, ROP_ROW))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	return NV_OK;
}

u32 r535_kgr_get_fecs_record_size(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (need(size, 4))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	vgsp_put32(p, 0, FECS_RECORD_SIZE);
	return NV_OK;
}

/* PPC_MASKS: the PES (PPC) units present in each GPC, GR0 only. */
#define PPC_ROW				(GR_MAX_GPC * 4)

u32 r535_kgr_get_ppc_masks(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	const struct vgsp_chip_gr *gr = &gsp->dev->profile->chip->gr;
	unsigned int g;

	if (need(size, PPC_ROW))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	for (g = 0; g < gr->gpcs && g < GR_MAX_GPC; g++)
		vgsp_put32(p, 4 * g, pes_mask(gr, g));
	return NV_OK;
}

/*
 * SM_ISSUE_RATE_MODIFIER: every unit at full speed (0 in each field), as
 * on a data-center part; CUDA derives throughput ratios from these.
 */
#define ISSUE_RATE_ROW			9

u32 r535_kgr_get_sm_issue_rate_modifier(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (need(size, ISSUE_RATE_ROW))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	return NV_OK;
}

/*
 * FECS_TRACE_DEFINES (32 bytes per engine): the record size GET_FECS_
 * RECORD_SIZE reports, the timestamp tag in the top byte of the upper
 * word, 56 bits of timestamp, no low-bit shift.
 */
#define FECS_DEF_ROW			32

u32 r535_kgr_get_fecs_trace_defines(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (need(size, FECS_DEF_ROW))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	vgsp_put32(p, 0, FECS_RECORD_SIZE);
	vgsp_put32(p, 4, 0xff000000);
	p[8] = 24;
	vgsp_put32(p, 16, 0xffffffff);		/* timestampVMask: 56 bits */
	vgsp_put32(p, 20, 0x00ffffff);
	return NV_OK;
}

/* PDB_PROPERTIES: bPerSubCtxheaderSupported (Volta+: yes). */
u32 r535_kgr_get_pdb_properties(struct vgsp_gsp *gsp, u8 *p, u32 size)
{
	if (need(size, PDB_ROW))
		return NV_ERR_INVALID_PARAM_STRUCT;
	memset(p, 0, size);
	p[0] = 1;
	return NV_OK;
}
