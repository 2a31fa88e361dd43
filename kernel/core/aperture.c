// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Sparse, lazily backed BAR apertures (see aperture.h). */
#include "aperture.h"
#include "vgsp_os.h"

struct vgsp_aperture *vgsp_aperture_new(u64 size)
{
	struct vgsp_aperture *ap = vgsp_zalloc(sizeof(*ap));

	if (!ap)
		return NULL;
	ap->size = size;
	ap->nchunks = (u32)((size + VGSP_APERTURE_CHUNK - 1) /
			    VGSP_APERTURE_CHUNK);
	ap->chunks = vgsp_zalloc(sizeof(*ap->chunks) * ap->nchunks);
	if (!ap->chunks) {
		vgsp_free(ap);
		return NULL;
	}
	return ap;
}

void vgsp_aperture_clear(struct vgsp_aperture *ap)
{
	u32 i;

	for (i = 0; i < ap->nchunks; i++) {
		vgsp_free(ap->chunks[i]);
		ap->chunks[i] = NULL;
	}
	ap->backed = 0;
}

void vgsp_aperture_free(struct vgsp_aperture *ap)
{
	if (!ap)
		return;
	vgsp_aperture_clear(ap);
	vgsp_free(ap->chunks);
	vgsp_free(ap);
}

void vgsp_aperture_read(const struct vgsp_aperture *ap, u64 off, void *buf,
			u32 len)
{
	u8 *out = buf;

	while (len) {
		u32 c = (u32)(off / VGSP_APERTURE_CHUNK);
		u32 in = (u32)(off % VGSP_APERTURE_CHUNK);
		u32 n = VGSP_APERTURE_CHUNK - in;

		if (n > len)
			n = len;
		if (ap->chunks[c])
			memcpy(out, ap->chunks[c] + in, n);
		else
			memset(out, 0, n);
		out += n;
		off += n;
		len -= n;
	}
}

int vgsp_aperture_write(struct vgsp_aperture *ap, u64 off, const void *buf,
			u32 len)
{
	const u8 *in_buf = buf;

	while (len) {
		u32 c = (u32)(off / VGSP_APERTURE_CHUNK);
		u32 in = (u32)(off % VGSP_APERTURE_CHUNK);
		u32 n = VGSP_APERTURE_CHUNK - in;

		if (n > len)
			n = len;
		if (!ap->chunks[c]) {
			if (ap->backed + VGSP_APERTURE_CHUNK > VGSP_APERTURE_CAP)
				return -ENOMEM;
			ap->chunks[c] = vgsp_zalloc(VGSP_APERTURE_CHUNK);
			if (!ap->chunks[c])
				return -ENOMEM;
			ap->backed += VGSP_APERTURE_CHUNK;
		}
		memcpy(ap->chunks[c] + in, in_buf, n);
		in_buf += n;
		off += n;
		len -= n;
	}
	return 0;
}
