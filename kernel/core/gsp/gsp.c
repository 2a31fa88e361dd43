// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Placeholder until the emulated GSP lands (issue 3): an instance has no
 * GSP state, so the guest driver's GSP boot will time out exactly as on a
 * device that only has an identity.
 */
#include "gsp.h"

int vgsp_gsp_create(struct vgsp_dev *dev)
{
	dev->gsp = NULL;
	return 0;
}

void vgsp_gsp_reset(struct vgsp_dev *dev)
{
}

void vgsp_gsp_destroy(struct vgsp_dev *dev)
{
}

unsigned int vgsp_gsp_reg_tables(const struct vgsp_chip *chip,
				 const struct vgsp_reg_table **tables)
{
	*tables = NULL;
	return 0;
}

const struct vgsp_view vgsp_gsp_views[1];
const unsigned int vgsp_gsp_nviews;
