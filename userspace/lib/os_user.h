/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Userspace implementation of the core's OS seam. */
#ifndef VGSP_OS_USER_H
#define VGSP_OS_USER_H

#include "vgsp_os.h"

/* Install the userspace ops. VGSP_LOG=<0..3> sets the stderr threshold. */
void vgsp_os_user_init(void);
/* How many log lines of @level were emitted (tests assert on logging). */
unsigned int vgsp_os_user_log_count(enum vgsp_log_level level);

#endif /* VGSP_OS_USER_H */
