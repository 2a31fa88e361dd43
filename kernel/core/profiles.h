/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vGPU profiles: the data table behind the mdev types. Identity (PCI IDs,
 * chip), frame-buffer size and BAR1 aperture per profile.
 */
#ifndef VGSP_PROFILES_H
#define VGSP_PROFILES_H

#include "chip.h"

#define VGSP_GIB (1ULL << 30)
#define VGSP_MIB (1ULL << 20)

struct vgsp_profile {
	const char *id;			/* sysfs type suffix, e.g. "h100-10g" */
	const char *name;		/* human name, e.g. "H100-SXM5-10GB" */
	const char *product;		/* marketing name the guest sees */
	const struct vgsp_chip *chip;
	u16 vendor, device;
	u16 subsys_vendor, subsys_device;
	u64 fb_size;			/* bytes of guest frame buffer */
	u64 bar1_size;			/* FB aperture, power of two */
};

extern const struct vgsp_profile vgsp_profiles[];
extern const unsigned int vgsp_nprofiles;

const struct vgsp_profile *vgsp_profile_find(const char *id);

/* Instances of @p that still fit in @fb_free bytes of the FB budget. */
unsigned int vgsp_profile_fit(const struct vgsp_profile *p, u64 fb_free);

#endif /* VGSP_PROFILES_H */
