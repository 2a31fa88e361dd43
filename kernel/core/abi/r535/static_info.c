// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * GspStaticConfigInfo for an instance (§F.3): what CPU-RM learns about
 * "its" GPU in one RPC. Values follow the instance's profile: FB size and
 * regions, name, the per-instance UUID, GPC/TPC masks, the handles of the
 * GSP-RM internal objects.
 */
#include "r535.h"

#define FBIO_MASK		R535_FBIO_MASK
#define FB_BUS_WIDTH		R535_FB_BUS_WIDTH
#define FBP_MASK		R535_FBP_MASK
#define L2_CACHE_SIZE		R535_L2_CACHE_SIZE
/* Top of FB kept for GSP-RM: BAR1/BAR2 page-directory roots live there. */
#define FB_RSVD_TOP		(2ULL << 20)
#define BAR2_PDE_OFF		(64ULL << 10)

void r535_gpu_name(const struct vgsp_gsp *gsp, char *out, unsigned int len)
{
	const char *src = gsp->dev->profile->product;
	unsigned int i;

	for (i = 0; i + 1 < len && src && src[i]; i++)
		out[i] = src[i];
	out[i] = '\0';
}

static void put_str(u8 *si, u32 off, const char *s, unsigned int max)
{
	unsigned int i;

	for (i = 0; i + 1 < max && s[i]; i++)
		si[off + i] = s[i];
}

u32 r535_static_info(struct vgsp_gsp *gsp, u8 *si, u32 cap)
{
	const struct r535_layout *l = r535_lay(gsp);
	const struct vgsp_profile *pr = gsp->dev->profile;
	u64 fb = pr->fb_size, rsvd_base = fb - FB_RSVD_TOP;
	char name[64];
	unsigned int i;
	u8 *r;

	if (cap < l->si_size)
		return 0;
	memset(si, 0, l->si_size);

	/* GPU UUID: the instance UUID, stable across resets. */
	vgsp_put32(si, R535_SI_GID_INDEX, 0);
	vgsp_put32(si, R535_SI_GID_FLAGS, R535_GID_FLAGS_FORMAT_BINARY);
	vgsp_put32(si, R535_SI_GID_LENGTH, R535_GID_LEN_BINARY);
	memcpy(si + R535_SI_GID_DATA, gsp->dev->uuid, R535_GID_LEN_BINARY);

	/* The chip's GPCs and TPCs, as the KGR floorsweeping masks (gr.c). */
	vgsp_put32(si, R535_SI_GPC_MASK, vgsp_chip_gpc_mask(pr->chip));
	for (i = 0; i < pr->chip->gr.gpcs; i++) {
		vgsp_put32(si, R535_SI_TPC_INFO + 8 * i, i);
		vgsp_put32(si, R535_SI_TPC_INFO + 8 * i + 4,
			   vgsp_chip_tpc_mask(pr->chip, i));
	}

	/*
	 * A usable region below the GSP-RM reserve, then the reserve itself
	 * as a reserved region: CPU-RM takes the FB address-space size from
	 * the last region's limit and asserts it covers fb_length
	 * (memmgrInitBaseFbRegions_FWCLIENT).
	 */
	vgsp_put32(si, l->si_fb_num_regions, 2);
	r = si + l->si_fb_region;
	vgsp_put64(r, R535_SI_FBR_BASE, 0);
	vgsp_put64(r, R535_SI_FBR_LIMIT, rsvd_base - 1);
	vgsp_put64(r, R535_SI_FBR_RESERVED, 0);
	vgsp_put32(r, R535_SI_FBR_PERF, 0);
	r[R535_SI_FBR_COMPRESSED] = 1;
	r[R535_SI_FBR_ISO] = 1;
	r[R535_SI_FBR_PROTECTED] = 0;
	r += R535_SI_FB_REGION_SIZE;
	vgsp_put64(r, R535_SI_FBR_BASE, rsvd_base);
	vgsp_put64(r, R535_SI_FBR_LIMIT, fb - 1);
	vgsp_put64(r, R535_SI_FBR_RESERVED, FB_RSVD_TOP);

	/* NV2080_ENGINE_TYPE bits of the engine table (engines.c) */
	vgsp_put32(si, l->si_engine_caps, r535_engine_caps());
	vgsp_put64(si, l->si_fb_length, fb);
	vgsp_put32(si, l->si_fbio_mask, FBIO_MASK);
	vgsp_put32(si, l->si_fb_bus_width, FB_BUS_WIDTH);
	vgsp_put32(si, l->si_fbp_mask, FBP_MASK);
	vgsp_put32(si, l->si_l2_cache_size, L2_CACHE_SIZE);

	r535_gpu_name(gsp, name, sizeof(name));
	put_str(si, l->si_name, name, 64);
	put_str(si, l->si_short_name, pr->chip->name, 64);
	for (i = 0; i < 63 && name[i]; i++)
		si[l->si_name_unicode + 2 * i] = name[i];
	si[l->si_is_tesla] = 1;
	/*
	 * Data-center part: OpenRM refuses other GPUs by default (osinit.c).
	 * 535 reads computeBranding; 550 has no such field and derives the
	 * branding from bIsTesla alone.
	 */
	if (l->si_compute_branding)
		vgsp_put32(si, l->si_compute_branding,
			   R535_COMPUTE_BRANDING_TESLA);

	vgsp_put64(si, l->si_bar1_pde_base, rsvd_base);
	vgsp_put64(si, l->si_bar2_pde_base, rsvd_base + BAR2_PDE_OFF);
	vgsp_bar_set_pdb(gsp->dev, VGSP_VIEW_BAR1, rsvd_base);
	vgsp_bar_set_pdb(gsp->dev, VGSP_VIEW_BAR2, rsvd_base + BAR2_PDE_OFF);
	vgsp_put32(si, l->si_h_internal_client, R535_H_INTERNAL_CLIENT);
	vgsp_put32(si, l->si_h_internal_device, R535_H_INTERNAL_DEVICE);
	vgsp_put32(si, l->si_h_internal_subdevice, R535_H_INTERNAL_SUBDEVICE);
	return l->si_size;
}
