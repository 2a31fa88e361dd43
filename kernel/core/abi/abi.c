// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The GSP ABIs this core carries, and the choice among them: the guest
 * names its driver in SET_GUEST_SYSTEM_INFO (a layout every branch since
 * 535 shares), and only an exact match is served.
 */
#include "abi.h"

static const struct vgsp_abi *const vgsp_abis[] = {
	&vgsp_abi_r535,
	&vgsp_abi_r550,
};

const struct vgsp_abi *vgsp_abi_find(const char *driver_version,
				     u32 vgx_major, u32 vgx_minor)
{
	unsigned int i;

	for (i = 0; i < VGSP_ARRAY_SIZE(vgsp_abis); i++) {
		const struct vgsp_abi *a = vgsp_abis[i];

		if (a->vgx_major == vgx_major && a->vgx_minor == vgx_minor &&
		    !strcmp(a->driver_version, driver_version))
			return a;
	}
	return NULL;
}

void vgsp_abi_versions(char *buf, unsigned int len)
{
	unsigned int i, n = 0;
	const char *s;

	if (!len)
		return;
	for (i = 0; i < VGSP_ARRAY_SIZE(vgsp_abis); i++) {
		for (s = i ? ", " : ""; *s && n + 1 < len; s++)
			buf[n++] = *s;
		for (s = vgsp_abis[i]->driver_version; *s && n + 1 < len; s++)
			buf[n++] = *s;
	}
	buf[n] = '\0';
}
