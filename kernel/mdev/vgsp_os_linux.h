/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The OS seam's lock as vgsp_os_linux.c implements it, for kernel-side
 * code that asserts it is held (vgsp_pincache.h).
 */
#ifndef VGSP_OS_LINUX_H
#define VGSP_OS_LINUX_H

#include <linux/mutex.h>

struct vgsp_lock {
	struct mutex m;
};

#endif /* VGSP_OS_LINUX_H */
