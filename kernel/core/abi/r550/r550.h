/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * GSP firmware ABI of the 550 branch as OpenRM 550.163.01 speaks it. Only
 * what differs from abi/r535 lives here (docs/abi-versions.md lists each
 * difference and where it was read); the RPC header, function and event
 * numbers, the RPC payloads vgsp decodes, the message queues, the boot
 * arguments and every control number are 535's, and abi/r535's code
 * serves them through struct r535_layout.
 */
#ifndef VGSP_ABI_R550_H
#define VGSP_ABI_R550_H

#include "../r535/r535.h"

/* SET_GUEST_SYSTEM_INFO of 550.163.01 (vgpu_version.h) */
#define R550_DRIVER_VERSION		"550.163.01"
#define R550_VGX_MAJOR			0x25
#define R550_VGX_MINOR			0x1b

/*
 * GspStaticConfigInfo (550.163.01, 0x888 bytes): SKUInfo grew by 0x10
 * (chipSKU[9], chipSKUMod[5], skuConfigVersion) and computeBranding is
 * gone, so everything from fbRegionInfoParams on moves.
 */
#define R550_SI_SIZE			0x888
#define R550_SI_FB_NUM_REGIONS		0x358
#define R550_SI_FB_REGION		0x360
#define R550_SI_ENGINE_CAPS		0x6b4
#define R550_SI_FB_LENGTH		0x6e8
#define R550_SI_FBIO_MASK		0x6f0
#define R550_SI_FB_BUS_WIDTH		0x6f4
#define R550_SI_FBP_MASK		0x6fc
#define R550_SI_L2_CACHE_SIZE		0x700
#define R550_SI_NAME			0x72c
#define R550_SI_SHORT_NAME		0x76c
#define R550_SI_NAME_UNICODE		0x7ac
#define R550_SI_IS_TESLA		0x833
#define R550_SI_BAR1_PDE_BASE		0x838
#define R550_SI_BAR2_PDE_BASE		0x840
#define R550_SI_H_INTERNAL_CLIENT	0x878
#define R550_SI_H_INTERNAL_DEVICE	0x87c
#define R550_SI_H_INTERNAL_SUBDEVICE	0x880

/* MC_ENGINE_IDX_* (engine_idx.h): one more engine before GSP, two before GR */
#define R550_MC_ENGINE_IDX_GSP		50
#define R550_MC_ENGINE_IDX_REPLAYABLE_FAULT	59
#define R550_MC_ENGINE_IDX_ACCESS_CNTR	60
#define R550_MC_ENGINE_IDX_GR0		84

/* Control lists that grew (the same names as in struct r535_layout) */
#define R550_GPU_INFO_MAX_LIST		0x41
#define R550_FB_INFO_MAX_LIST		0x37	/* + FB_INFO_INDEX_IS_ZERO_FB */
#define R550_ENGINES_V2_MAX		0x40
#define R550_DEVINFO_MAX		256
#define R550_CE_CAPS_ROWS		64	/* NV2080_CTRL_MAX_CES */
#define R550_CE_PRESENT_SIZE		8	/* NvU64 present */
#define R550_GR_INFO_ROWS		0x38
#define R550_CTXBUF_IDS			0x1a	/* + GR_CTX_BUFFER_SETUP */

/*
 * GPU_GET_CONSTRUCTED_FALCON_INFO: 535's INTERNAL_GET_CONSTRUCTED_FALCON_
 * INFO (0x20800a42) became a GPU control, same params (count + 64 x 20).
 */
#define R550_CMD_GPU_GET_CONSTRUCTED_FALCON_INFO	0x208001b0
#define R550_CONSTRUCTED_FALCON_INFO_SIZE		0x504

/*
 * INTERNAL_MEMSYS_GET_STATIC_CONFIG (0x20800a1c) lost bReservedMemAtBottom
 * and maximumBlacklistPages: 0x28 bytes, bFbpaPresent at 0x10, ltcCount
 * at 0x20, ltsPerLtcCount at 0x24.
 */
#define R550_CMD_MEMSYS_GET_STATIC_CONFIG	0x20800a1c
#define R550_MEMSYS_STATIC_CONFIG_SIZE	0x28
#define R550_MEMSYS_FBPA_PRESENT	0x10
#define R550_MEMSYS_LTC_COUNT		0x20

/*
 * New in 550: CPU-RM hands GSP-RM the physical address of its user shared
 * data page (RUSD) and the mask of data to poll into it. Accepted; vgsp
 * never writes that page, so polled readings stay 0 (not available).
 */
#define R550_CMD_INIT_USER_SHARED_DATA		0x20800afe
#define R550_CMD_USER_SHARED_DATA_SET_DATA_POLL	0x20800aff
#define R550_USER_SHARED_DATA_PARAMS_SIZE	8

u32 r550_control(struct vgsp_gsp *gsp, u32 cmd, u8 *params, u32 size,
		 bool *known);
const char *r550_ctrl_name(u32 cmd);

#endif /* VGSP_ABI_R550_H */
