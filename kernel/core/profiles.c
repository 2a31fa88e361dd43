// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The profile table behind the mdev types. All profiles present an H100
 * SXM5 80GB identity (the product name OpenRM 535 derives from 10de:2330
 * is "NVIDIA H100 80GB HBM3") and differ in frame-buffer size.
 *
 * BAR1 is deliberately small: the guest learns the FB size from the GSP's
 * static info, not from BAR1, and a multi-GiB BAR1 would not fit the
 * 64-bit PCI window of a default QEMU q35 guest.
 */
#include "profiles.h"

#define H100_SXM5(_id, _name, _fb_gib, _bar1_mib) {			\
	.id = _id,							\
	.name = _name,							\
	.product = "NVIDIA H100 80GB HBM3",				\
	.chip = &vgsp_chip_gh100,					\
	.vendor = 0x10de, .device = 0x2330,				\
	.subsys_vendor = 0x10de, .subsys_device = 0x16c1,		\
	.fb_size = (_fb_gib) * VGSP_GIB,				\
	.bar1_size = (_bar1_mib) * VGSP_MIB,				\
}

const struct vgsp_profile vgsp_profiles[] = {
	H100_SXM5("h100-10g", "H100-SXM5-10GB", 10, 256),
	H100_SXM5("h100-20g", "H100-SXM5-20GB", 20, 512),
	H100_SXM5("h100-40g", "H100-SXM5-40GB", 40, 1024),
	H100_SXM5("h100-80g", "H100-SXM5-80GB", 80, 2048),
};

const unsigned int vgsp_nprofiles = VGSP_ARRAY_SIZE(vgsp_profiles);

const struct vgsp_profile *vgsp_profile_find(const char *id)
{
	unsigned int i;

	for (i = 0; i < vgsp_nprofiles; i++)
		if (!strcmp(vgsp_profiles[i].id, id))
			return &vgsp_profiles[i];
	return NULL;
}

unsigned int vgsp_profile_fit(const struct vgsp_profile *p, u64 fb_free)
{
	u64 n = fb_free / p->fb_size;

	return n > 0xffffffffULL ? 0xffffffffU : (unsigned int)n;
}
