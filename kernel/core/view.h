/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Read-only text views of an instance (counters, info, GSP state...).
 * The core formats them; each frontend decides where they appear
 * (debugfs files in vgsp.ko, a stats socket in vgsp-vfu, stdout in tests).
 */
#ifndef VGSP_VIEW_H
#define VGSP_VIEW_H

#include "vgsp_types.h"

struct vgsp_dev;

struct vgsp_printer {
	__printf(2, 3) void (*print)(struct vgsp_printer *p,
				      const char *fmt, ...);
	void *ctx;
};

struct vgsp_view {
	const char *name;	/* file name, e.g. "counters" */
	void (*show)(struct vgsp_dev *dev, struct vgsp_printer *p);
};

/* Views of the device core (counters, info, bar0_unknown). */
extern const struct vgsp_view vgsp_core_views[];
extern const unsigned int vgsp_core_nviews;

#endif /* VGSP_VIEW_H */
