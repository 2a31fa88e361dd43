// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The r550 ABI: abi/r535's operations over the 550 layout. A guest that
 * announces 550.163.01 in SET_GUEST_SYSTEM_INFO is served by this table.
 */
#include "r550.h"

static const struct r535_layout r550_layout = {
	.si_size = R550_SI_SIZE,
	.si_fb_num_regions = R550_SI_FB_NUM_REGIONS,
	.si_fb_region = R550_SI_FB_REGION,
	.si_compute_branding = 0,	/* no such field in 550 */
	.si_engine_caps = R550_SI_ENGINE_CAPS,
	.si_fb_length = R550_SI_FB_LENGTH,
	.si_fbio_mask = R550_SI_FBIO_MASK,
	.si_fb_bus_width = R550_SI_FB_BUS_WIDTH,
	.si_fbp_mask = R550_SI_FBP_MASK,
	.si_l2_cache_size = R550_SI_L2_CACHE_SIZE,
	.si_name = R550_SI_NAME,
	.si_short_name = R550_SI_SHORT_NAME,
	.si_name_unicode = R550_SI_NAME_UNICODE,
	.si_is_tesla = R550_SI_IS_TESLA,
	.si_bar1_pde_base = R550_SI_BAR1_PDE_BASE,
	.si_bar2_pde_base = R550_SI_BAR2_PDE_BASE,
	.si_h_internal_client = R550_SI_H_INTERNAL_CLIENT,
	.si_h_internal_device = R550_SI_H_INTERNAL_DEVICE,
	.si_h_internal_subdevice = R550_SI_H_INTERNAL_SUBDEVICE,
	.mc_gsp = R550_MC_ENGINE_IDX_GSP,
	.mc_replayable_fault = R550_MC_ENGINE_IDX_REPLAYABLE_FAULT,
	.mc_access_cntr = R550_MC_ENGINE_IDX_ACCESS_CNTR,
	.mc_gr0 = R550_MC_ENGINE_IDX_GR0,
	.gpu_info_max = R550_GPU_INFO_MAX_LIST,
	.fb_info_max = R550_FB_INFO_MAX_LIST,
	.engines_v2_max = R550_ENGINES_V2_MAX,
	.devinfo_max = R550_DEVINFO_MAX,
	.ce_caps_rows = R550_CE_CAPS_ROWS,
	.ce_present_size = R550_CE_PRESENT_SIZE,
	.gr_info_rows = R550_GR_INFO_ROWS,
	.ctxbuf_ids = R550_CTXBUF_IDS,
	.control = r550_control,
};

const struct vgsp_abi vgsp_abi_r550 = {
	.name = "r550",
	.driver_version = R550_DRIVER_VERSION,
	.vgx_major = R550_VGX_MAJOR,
	.vgx_minor = R550_VGX_MINOR,
	.layout = &r550_layout,
	R535_ABI_OPS,
	.ctrl_name = r550_ctrl_name,
};
