// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The installed OS seam (see vgsp_os.h). */
#include "vgsp_os.h"

const struct vgsp_os_ops *vgsp_os;

void vgsp_os_set(const struct vgsp_os_ops *ops)
{
	vgsp_os = ops;
}
