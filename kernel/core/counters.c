// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Name table for struct vgsp_counters, generated from the same list. */
#include "counters.h"

const struct vgsp_counter_desc vgsp_counter_descs[] = {
#define VGSP_COUNTER_DESC(n) { #n, offsetof(struct vgsp_counters, n) },
	VGSP_COUNTER_LIST(VGSP_COUNTER_DESC)
#undef VGSP_COUNTER_DESC
};

const unsigned int vgsp_ncounters = VGSP_ARRAY_SIZE(vgsp_counter_descs);
