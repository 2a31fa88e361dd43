/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * GSP firmware ABI of the 535 branch as OpenRM 535.261.03 speaks it:
 * RPC header, function/event numbers, payload offsets, control IDs and
 * the GspStaticConfigInfo layout. Offsets are bytes from the start of the
 * named structure (see docs/reference gsp-protocol.md §E, §F).
 * Everything here is private to abi/r535/.
 */
#ifndef VGSP_ABI_R535_H
#define VGSP_ABI_R535_H

#include "../../gsp/gsp_priv.h"

/* Guest driver this ABI directory speaks for (SET_GUEST_SYSTEM_INFO). */
#define R535_DRIVER_VERSION		"535.261.03"
#define R535_VGX_MAJOR			0x23
#define R535_VGX_MINOR			0x05

/* rpc_message_header_v03_00 */
#define R535_RPC_HDR_SIZE		0x20
#define R535_RPC_HDR_VERSION		0x03000000
#define R535_RPC_SIGNATURE		0x43505256	/* "VRPC" */
#define R535_RPC_VERSION		0x00
#define R535_RPC_SIGNATURE_OFF		0x04
#define R535_RPC_LENGTH			0x08
#define R535_RPC_FUNCTION		0x0c
#define R535_RPC_RESULT			0x10
#define R535_RPC_RESULT_PRIV		0x14
#define R535_RPC_SEQUENCE		0x18
#define R535_RPC_SPARE			0x1c
#define R535_RPC_MAX_LENGTH		0xffd0	/* 16 slots minus element hdr */

/* NV_VGPU_MSG_FUNCTION_* */
enum r535_function {
	R535_FN_NOP = 0,
	R535_FN_SET_GUEST_SYSTEM_INFO = 1,
	R535_FN_ALLOC_MEMORY = 4,
	R535_FN_FREE = 10,
	R535_FN_DUP_OBJECT = 21,
	R535_FN_UNLOADING_GUEST_DRIVER = 47,
	R535_FN_GET_GSP_STATIC_INFO = 65,
	R535_FN_SET_PAGE_DIRECTORY = 54,
	R535_FN_UPDATE_BAR_PDE = 70,
	R535_FN_CONTINUATION_RECORD = 71,
	R535_FN_GSP_SET_SYSTEM_INFO = 72,
	R535_FN_SET_REGISTRY = 73,
	R535_FN_GSP_RM_CONTROL = 76,
	R535_FN_GSP_RM_ALLOC = 103,
	R535_FN_NUM = 203,
};

/* NV_VGPU_MSG_EVENT_* (rpc_global_enums.h) */
#define R535_EVENT_GSP_INIT_DONE	0x1001
#define R535_EVENT_RC_TRIGGERED		0x1004
#define R535_EVENT_OS_ERROR_LOG		0x1006

/*
 * rpc_rc_triggered_v17_02 (g_rpc-structures.h), read by CPU-RM's
 * _kgspRpcRCTriggered (kernel_gsp.c): the channel is looked up by
 * (nv2080EngineType -> runlist, chid) when gfid is the PF's (0);
 * rcJournalBufferSize bytes of RcDiag records follow.
 */
#define R535_RCT_ENGINE_TYPE		0x00
#define R535_RCT_CHID			0x04
#define R535_RCT_GFID			0x08
#define R535_RCT_EXCEPT_TYPE		0x0c
#define R535_RCT_SCOPE			0x10	/* RC_NOTIFIER_SCOPE_* */
#define R535_RCT_PARTITION_ID		0x14	/* u16 */
#define R535_RCT_JOURNAL_SIZE		0x18
#define R535_RCT_SIZE			0x1c	/* rcJournalBuffer[] follows */
#define R535_RC_SCOPE_CHANNEL		0
#define R535_GFID_PF			0
/* KMIGMGR_INSTANCE_ATTRIBUTION_ID_INVALID: 15 * 15 + 8 (no MIG) */
#define R535_ATTRIBUTION_ID_INVALID	233

/*
 * rpc_os_error_log_v17_00, read by _kgspRpcOsErrorLog: the channel by
 * (runlistId, chid) for the process named in the Xid line, then
 * nvErrorLog_va(exceptType, "%s", errString).
 */
#define R535_OEL_EXCEPT_TYPE		0x00
#define R535_OEL_RUNLIST		0x04
#define R535_OEL_CHID			0x08
#define R535_OEL_STRING			0x0c	/* char[0x100] */
#define R535_OEL_STRING_LEN		0x100
#define R535_OEL_SIZE			0x10c

/* NV_STATUS values the emulation returns */
#define NV_OK				0x00
#define NV_ERR_INSERT_DUPLICATE_NAME	0x19
#define NV_ERR_INSUFFICIENT_RESOURCES	0x1a
#define NV_ERR_INVALID_ARGUMENT		0x1f
#define NV_ERR_INVALID_CLASS		0x22
#define NV_ERR_INVALID_CLIENT		0x23
#define NV_ERR_INVALID_OBJECT_HANDLE	0x33
#define NV_ERR_INVALID_OBJECT_PARENT	0x36
#define NV_ERR_INVALID_PARAM_STRUCT	0x3a
#define NV_ERR_INVALID_STATE		0x40
#define NV_ERR_NOT_SUPPORTED		0x56
#define NV_ERR_OBJECT_NOT_FOUND		0x57
#define NV_ERR_GENERIC			0xffff

/* rpc_set_guest_system_info_v03_00 (payload) */
#define R535_SGSI_VGX_MAJOR		0x000
#define R535_SGSI_VGX_MINOR		0x004
#define R535_SGSI_DRIVER_VERSION	0x018	/* char[256] */
#define R535_SGSI_SIZE			0x318

/* rpc_gsp_rm_alloc_v03_00 (payload) */
#define R535_ALLOC_HCLIENT		0x00
#define R535_ALLOC_HPARENT		0x04
#define R535_ALLOC_HOBJECT		0x08
#define R535_ALLOC_HCLASS		0x0c
#define R535_ALLOC_STATUS		0x10
#define R535_ALLOC_PARAMS_SIZE		0x14
#define R535_ALLOC_FLAGS		0x18
#define R535_ALLOC_PARAMS		0x20

/* rpc_free_v03_00: NVOS00_PARAMETERS */
#define R535_FREE_HROOT			0x00
#define R535_FREE_HPARENT		0x04
#define R535_FREE_HOBJECT		0x08
#define R535_FREE_STATUS		0x0c
#define R535_FREE_SIZE			0x10

/* rpc_gsp_rm_control_v03_00 (payload) */
#define R535_CTRL_HCLIENT		0x00
#define R535_CTRL_HOBJECT		0x04
#define R535_CTRL_CMD			0x08
#define R535_CTRL_STATUS		0x0c
#define R535_CTRL_PARAMS_SIZE		0x10
#define R535_CTRL_FLAGS			0x14
#define R535_CTRL_PARAMS		0x18
#define R535_CTRL_FLAG_SERIALIZED	0x2

/* rpc_unloading_guest_driver_v1F_07 */
#define R535_UNLOAD_SIZE		0x08
#define R535_GSP_SUSPENDED		0x80000000	/* MAILBOX0 after unload */

/* Classes with a fixed place in the object tree */
#define NV01_ROOT			0x0000
#define NV01_ROOT_NON_PRIV		0x0001
#define NV01_ROOT_CLIENT		0x0041
#define NV01_DEVICE_0			0x0080
#define NV20_SUBDEVICE_0		0x2080

/* GspStaticConfigInfo (535.261.03, 0x878 bytes) */
#define R535_SI_SIZE			0x878
#define R535_SI_GID_INDEX		0x018
#define R535_SI_GID_FLAGS		0x01c
#define R535_SI_GID_LENGTH		0x020
#define R535_SI_GID_DATA		0x024
#define R535_SI_GPC_MASK		0x124
#define R535_SI_TPC_INFO		0x128	/* [32] { gpcId, tpcMask } */
#define R535_SI_FB_NUM_REGIONS		0x348
#define R535_SI_FB_REGION		0x350	/* [16] x 0x30 */
#define R535_SI_FB_REGION_SIZE		0x30
#define R535_SI_FBR_BASE		0x00
#define R535_SI_FBR_LIMIT		0x08
#define R535_SI_FBR_RESERVED		0x10
#define R535_SI_FBR_PERF		0x18
#define R535_SI_FBR_COMPRESSED		0x1c
#define R535_SI_FBR_ISO			0x1d
#define R535_SI_FBR_PROTECTED		0x1e
#define R535_SI_COMPUTE_BRANDING	0x650	/* COMPUTE_BRANDING_TYPE */
#define R535_COMPUTE_BRANDING_TESLA	1
#define R535_SI_ENGINE_CAPS		0x6a4	/* u32[2] */
#define R535_SI_FB_LENGTH		0x6d8
#define R535_SI_FBIO_MASK		0x6e0
#define R535_SI_FB_BUS_WIDTH		0x6e4
#define R535_SI_FBP_MASK		0x6ec
#define R535_SI_L2_CACHE_SIZE		0x6f0
#define R535_SI_NAME			0x71c	/* char[64] */
#define R535_SI_SHORT_NAME		0x75c	/* char[64] */
#define R535_SI_NAME_UNICODE		0x79c	/* u16[64] */
#define R535_SI_IS_TESLA		0x823
#define R535_SI_BAR1_PDE_BASE		0x828
#define R535_SI_BAR2_PDE_BASE		0x830
#define R535_SI_H_INTERNAL_CLIENT	0x868
#define R535_SI_H_INTERNAL_DEVICE	0x86c
#define R535_SI_H_INTERNAL_SUBDEVICE	0x870

/* NV2080_GPU_CMD_GPU_GET_GID_FLAGS */
#define R535_GID_FLAGS_FORMAT_ASCII	0x0
#define R535_GID_FLAGS_FORMAT_BINARY	0x2
#define R535_GID_LEN_BINARY		16

/* MC_ENGINE_IDX_*: rows CPU-RM looks up in the kernel interrupt table */
#define R535_MC_ENGINE_IDX_GSP		49
/* measured: 535.261.03 asks for 59 (access counter) then 58 (replayable fault) */
#define R535_MC_ENGINE_IDX_REPLAYABLE_FAULT	58
#define R535_MC_ENGINE_IDX_ACCESS_CNTR	59
#define R535_MC_ENGINE_IDX_GR0		82	/* MC_ENGINE_IDX_GR */
#define R535_INTR_VECTOR_INVALID	0xffffffff

/* List capacities of controls (the same names in struct r535_layout) */
#define R535_GPU_INFO_MAX_LIST		64
#define R535_FB_INFO_MAX_LIST		0x36
#define R535_ENGINES_V2_MAX		0x3e
#define R535_DEVINFO_MAX		88
#define R535_CE_CAPS_ROWS		32	/* NV2080_CTRL_MAX_PCES */
#define R535_GR_INFO_ROWS		0x35
#define R535_CTXBUF_IDS			0x19

/*
 * Handles of the RM objects GSP-RM owns (reported in static info). CPU-RM
 * numbers its own clients 0xc1e00001, 0xc1e00002, ... and mirrors them
 * here, so ours sit far from that sequence.
 */
#define R535_H_INTERNAL_CLIENT		0xc1fe0001
#define R535_H_INTERNAL_DEVICE		0xde1fe001
#define R535_H_INTERNAL_SUBDEVICE	0x5d1fe001

/*
 * What the branches that reuse this directory's code (abi/r550/) lay out
 * differently, read through r535_lay(gsp). Everything not in here is the
 * same in every such branch; abi/r535 fills r535_layout from the R535_*
 * values above. An offset of 0 is a field the branch does not have.
 */
struct r535_layout {
	/* GspStaticConfigInfo */
	u32 si_size;
	u32 si_fb_num_regions, si_fb_region, si_compute_branding;
	u32 si_engine_caps, si_fb_length, si_fbio_mask, si_fb_bus_width;
	u32 si_fbp_mask, si_l2_cache_size;
	u32 si_name, si_short_name, si_name_unicode, si_is_tesla;
	u32 si_bar1_pde_base, si_bar2_pde_base;
	u32 si_h_internal_client, si_h_internal_device;
	u32 si_h_internal_subdevice;
	/* MC_ENGINE_IDX_* rows of the kernel interrupt table */
	u16 mc_gsp, mc_replayable_fault, mc_access_cntr, mc_gr0;
	/* capacities of control lists that grew */
	u32 gpu_info_max;	/* NV2080_CTRL_GPU_INFO_MAX_LIST_SIZE */
	u32 fb_info_max;	/* NV2080_CTRL_FB_INFO_MAX_LIST_SIZE */
	u32 engines_v2_max;	/* NV2080_GPU_MAX_ENGINES_LIST_SIZE */
	u32 devinfo_max;	/* ..._INTERNAL_DEVICE_INFO_MAX_ENTRIES */
	u32 ce_caps_rows;	/* CE_GET_ALL_PHYSICAL_CAPS capsTbl rows */
	u32 ce_present_size;	/* its present mask: 4 or 8 bytes */
	u32 gr_info_rows;	/* NV0080_CTRL_GR_INFO_MAX_SIZE */
	u32 ctxbuf_ids;		/* ..._CONTEXT_PROPERTIES_ENGINE_ID_COUNT */
	/*
	 * Controls whose number or params layout differs in the branch:
	 * tried first; *known = false leaves the command to abi/r535's table.
	 */
	u32 (*control)(struct vgsp_gsp *gsp, u32 cmd, u8 *params, u32 size,
		       bool *known);
};

extern const struct r535_layout r535_layout;

static inline const struct r535_layout *r535_lay(const struct vgsp_gsp *gsp)
{
	return gsp->abi->layout;
}

/* The largest static info of the branches above (the reply cap). */
#define R535_SI_SIZE_MAX		0x900

/*
 * abi/r535 operations abi/r550 reuses as they are (r535_handle and
 * r535_rpc_info are in abi.h: the transport calls them directly)
 */
u32 r535_init_done(struct vgsp_gsp *gsp, u8 *rep, u32 cap);
u32 r535_xid_event(struct vgsp_gsp *gsp, const struct vgsp_rc_event *rc,
		   u8 *rep, u32 cap);
u32 r535_rc_event(struct vgsp_gsp *gsp, const struct vgsp_rc_event *rc,
		  u8 *rep, u32 cap);
u32 r535_rpc_length(const u8 *hdr);
u32 r535_rpc_function(const u8 *hdr);
void r535_rpc_frame(u8 *hdr, u32 function, u32 length);
void r535_reset(struct vgsp_gsp *gsp);

/* abi/r535 internals */
u32 r535_memsys_fill(u8 *p, u32 size, u32 fbpa_present, u32 ltc_count);
u32 r535_static_info(struct vgsp_gsp *gsp, u8 *si, u32 cap);
u32 r535_control(struct vgsp_gsp *gsp, u32 cmd, u8 *params, u32 size,
		 bool *known);
const char *r535_fn_name(u32 function);
const char *r535_ctrl_name(u32 cmd);
int r535_ctrl_index_check(void);

/*
 * The RPC transport and dispatch every ABI built on r535 shares (r535,
 * r550): designated initializers for struct vgsp_abi, so a sibling ABI
 * names only what differs (layout, version, control names).
 */
#define R535_ABI_OPS							\
	.handle = r535_handle,						\
	.init_done = r535_init_done,					\
	.xid_event = r535_xid_event,					\
	.rc_event = r535_rc_event,					\
	.rpc_length = r535_rpc_length,					\
	.rpc_info = r535_rpc_info,					\
	.rpc_hdr_size = R535_RPC_HDR_SIZE,				\
	.cont_function = R535_FN_CONTINUATION_RECORD,			\
	.rpc_function = r535_rpc_function,				\
	.rpc_frame = r535_rpc_frame,					\
	.reset = r535_reset,						\
	.fn_name = r535_fn_name
u32 r535_engine_caps(void);
/* Copy-engine caps (2 bytes) and PCE mask of COPYn @type; -1 if none. */
int r535_ce_caps(u32 type, u8 caps[2], u32 *pce_mask);
/* Every LCE's caps into @tbl[instance * 2]; returns the present mask. */
u32 r535_ce_all_caps(u8 *tbl, unsigned int max);
/* The runlist of NV2080_ENGINE_TYPE @type, or -1 if no such engine. */
int r535_engine_runlist(u32 type);

/* FB topology every FB answer describes (static info, FB_GET_INFO_V2) */
#define R535_FBIO_MASK			0x3ff
#define R535_FB_BUS_WIDTH		5120	/* HBM3, 5 stacks */
#define R535_FBP_MASK			0x3ff
#define R535_L2_CACHE_SIZE		(50U << 20)

/* channels.c: the work path's objects and calls (decode only) */
#define R535_CTRL_COPY_SERVER_PDES	0x90f10106
u32 r535_alloc_hook(struct vgsp_gsp *gsp, u32 client, u32 parent,
		    u32 object, u32 cls, const u8 *p, u32 psize);
void r535_free_hook(struct vgsp_gsp *gsp, u32 client);
u32 r535_dup_hook(struct vgsp_gsp *gsp, u32 client, u32 parent, u32 object,
		  u32 src_client, u32 src_object, u32 cls);
u32 r535_copy_server_pdes(struct vgsp_gsp *gsp, u32 client, u32 object,
			  const u8 *p, u32 psize);
u32 r535_set_page_directory(struct vgsp_gsp *gsp, const u8 *p, u32 len);
u32 r535_get_device_info_table(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_fifo_get_device_info_table(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_gpu_get_engines_v2(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_caps(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_info(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_floorsweeping_masks(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_global_sm_order(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_context_buffers_info(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_zcull_info(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_rop_info(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_ppc_masks(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_sm_issue_rate_modifier(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_fecs_trace_defines(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_fecs_record_size(struct vgsp_gsp *gsp, u8 *p, u32 size);
u32 r535_kgr_get_pdb_properties(struct vgsp_gsp *gsp, u8 *p, u32 size);
void r535_gpu_name(const struct vgsp_gsp *gsp, char *out, unsigned int len);

#endif /* VGSP_ABI_R535_H */
