// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Sparse, lazily backed BAR apertures (see aperture.h). */
#include "aperture.h"
#include "vgsp_os.h"

struct vgsp_aperture *vgsp_aperture_new(u64 size, u64 cap)
{
	struct vgsp_aperture *ap = vgsp_zalloc(sizeof(*ap));

	if (!ap)
		return NULL;
	ap->size = size;
	ap->cap = cap;
	ap->nchunks = (u32)((size + VGSP_APERTURE_CHUNK - 1) /
			    VGSP_APERTURE_CHUNK);
	ap->chunks = vgsp_zalloc(sizeof(*ap->chunks) * ap->nchunks);
	if (!ap->chunks) {
		vgsp_free(ap);
		return NULL;
	}
	return ap;
}

struct vgsp_aperture *vgsp_aperture_new_flat(u64 size, void *base)
{
	struct vgsp_aperture *ap;

	if (!base || !size)
		return NULL;
	ap = vgsp_zalloc(sizeof(*ap));
	if (!ap)
		return NULL;
	ap->size = size;
	ap->cap = size;
	ap->backed = size;
	ap->flat = base;
	return ap;
}

void vgsp_aperture_clear(struct vgsp_aperture *ap)
{
	u32 i;

	if (ap->flat) {
		memset(ap->flat, 0, ap->size);
		return;
	}
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
	if (!ap->flat)
		vgsp_aperture_clear(ap);
	vgsp_free(ap->chunks);
	vgsp_free(ap);
}

void vgsp_aperture_read(const struct vgsp_aperture *ap, u64 off, void *buf,
			u32 len)
{
	u8 *out = buf;

	if (ap->flat) {
		memcpy(out, ap->flat + off, len);
		return;
	}
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

static bool all_zero(const u8 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static int chunk_alloc(struct vgsp_aperture *ap, u32 c)
{
	if (ap->backed + VGSP_APERTURE_CHUNK > ap->cap)
		return -ENOMEM;
	ap->chunks[c] = vgsp_zalloc(VGSP_APERTURE_CHUNK);
	if (!ap->chunks[c])
		return -ENOMEM;
	ap->backed += VGSP_APERTURE_CHUNK;
	return 0;
}

int vgsp_aperture_write(struct vgsp_aperture *ap, u64 off, const void *buf,
			u32 len)
{
	const u8 *in_buf = buf;

	if (ap->flat) {
		memcpy(ap->flat + off, in_buf, len);
		return 0;
	}
	while (len) {
		u32 c = (u32)(off / VGSP_APERTURE_CHUNK);
		u32 in = (u32)(off % VGSP_APERTURE_CHUNK);
		u32 n = VGSP_APERTURE_CHUNK - in;

		if (n > len)
			n = len;
		if (!ap->chunks[c] && !all_zero(in_buf, n)) {
			if (chunk_alloc(ap, c))
				return -ENOMEM;
		}
		if (ap->chunks[c])
			memcpy(ap->chunks[c] + in, in_buf, n);
		in_buf += n;
		off += n;
		len -= n;
	}
	return 0;
}

int vgsp_aperture_fill(struct vgsp_aperture *ap, u64 off, u32 pattern,
		       u64 len)
{
	u64 start = off;

	if (ap->flat) {
		u8 *p = ap->flat + off;
		u64 i;

		/* the scrub of a whole FB is a repeated byte: one memset */
		if (pattern == (pattern & 0xff) * 0x01010101U) {
			memset(p, pattern & 0xff, len);
			return 0;
		}
		for (i = 0; i < len; i++)
			p[i] = (u8)(pattern >> (8 * (i & 3)));
		return 0;
	}
	while (len) {
		u32 c = (u32)(off / VGSP_APERTURE_CHUNK);
		u32 in = (u32)(off % VGSP_APERTURE_CHUNK);
		u32 n = VGSP_APERTURE_CHUNK - in, i;
		u8 *p;

		if (n > len)
			n = (u32)len;
		if (!pattern && n == VGSP_APERTURE_CHUNK) {
			/* a whole chunk of zeros: give the backing back */
			if (ap->chunks[c]) {
				vgsp_free(ap->chunks[c]);
				ap->chunks[c] = NULL;
				ap->backed -= VGSP_APERTURE_CHUNK;
			}
		} else if (ap->chunks[c] || pattern) {
			if (!ap->chunks[c] && chunk_alloc(ap, c))
				return -ENOMEM;
			p = ap->chunks[c] + in;
			for (i = 0; i < n; i++)
				p[i] = (u8)(pattern >> (8 * ((off - start + i) & 3)));
		}
		off += n;
		len -= n;
	}
	return 0;
}
