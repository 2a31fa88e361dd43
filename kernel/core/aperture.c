// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Sparse, lazily backed BAR apertures (see aperture.h). */
#include "aperture.h"
#include "vgsp_os.h"

/* The lent page under @off, or NULL. */
static u8 *lent_page(const struct vgsp_aperture *ap, u32 c, u32 in)
{
	if (!ap->loans || !ap->loans[c])
		return NULL;
	return ap->loans[c]->page[in / VGSP_APERTURE_PAGE];
}

/* Bytes from @in to the end of its page, at most @n. */
static u32 page_rest(u32 in, u32 n)
{
	u32 r = VGSP_APERTURE_PAGE - in % VGSP_APERTURE_PAGE;

	return r < n ? r : n;
}

static bool pinned(const struct vgsp_aperture *ap, u32 c)
{
	return ap->pinned && (ap->pinned[c / 64] >> (c % 64) & 1);
}

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
		u32 p;

		if (pinned(ap, i)) {	/* mapped: zeroed in place */
			memset(ap->chunks[i], 0, VGSP_APERTURE_CHUNK);
			continue;
		}
		if (ap->chunks[i])
			ap->backed -= VGSP_APERTURE_CHUNK;
		vgsp_free(ap->chunks[i]);
		ap->chunks[i] = NULL;
		for (p = 0; ap->loans && ap->loans[i] &&
			    p < VGSP_APERTURE_PAGES; p++)
			if (ap->loans[i]->page[p])
				memset(ap->loans[i]->page[p], 0,
				       VGSP_APERTURE_PAGE);
	}
}

void vgsp_aperture_free(struct vgsp_aperture *ap)
{
	if (!ap)
		return;
	if (!ap->flat) {
		u32 i;

		for (i = 0; ap->loans && i < ap->nchunks; i++)
			vgsp_free(ap->loans[i]);
		vgsp_free(ap->loans);
		ap->loans = NULL;	/* lent memory is not ours to clear */
		vgsp_free(ap->pinned);	/* nothing is mapped any more */
		ap->pinned = NULL;
		vgsp_aperture_clear(ap);
	}
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
		if (ap->loans && ap->loans[c])
			n = page_rest(in, n);	/* one page at a time */
		if (lent_page(ap, c, in))
			memcpy(out, lent_page(ap, c, in) +
			       in % VGSP_APERTURE_PAGE, n);
		else if (ap->chunks[c])
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
		if (ap->loans && ap->loans[c]) {
			/* a chunk with loans: one page at a time */
			n = page_rest(in, n);
			if (lent_page(ap, c, in)) {
				memcpy(lent_page(ap, c, in) +
				       in % VGSP_APERTURE_PAGE, in_buf, n);
				goto next;
			}
		}
		if (!ap->chunks[c] && !all_zero(in_buf, n)) {
			if (chunk_alloc(ap, c))
				return -ENOMEM;
		}
		if (ap->chunks[c])
			memcpy(ap->chunks[c] + in, in_buf, n);
next:
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
		if (ap->loans && ap->loans[c]) {
			n = page_rest(in, n);
			p = lent_page(ap, c, in);
			if (p) {
				p += in % VGSP_APERTURE_PAGE;
				for (i = 0; i < n; i++)
					p[i] = (u8)(pattern >>
						    (8 * ((off - start + i) & 3)));
				off += n;
				len -= n;
				continue;
			}
		}
		if (!pattern && n == VGSP_APERTURE_CHUNK && !pinned(ap, c)) {
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

static struct vgsp_ap_loans *loans_of(struct vgsp_aperture *ap, u32 c)
{
	if (!ap->loans) {
		ap->loans = vgsp_zalloc(sizeof(*ap->loans) * ap->nchunks);
		if (!ap->loans)
			return NULL;
	}
	if (!ap->loans[c])
		ap->loans[c] = vgsp_zalloc(sizeof(*ap->loans[c]));
	return ap->loans[c];
}

/* Drop the loan record of page @p of chunk @c (its bytes are elsewhere). */
static void unlend(struct vgsp_aperture *ap, u32 c, u32 p)
{
	ap->loans[c]->page[p] = NULL;
	if (--ap->loans[c]->n == 0) {
		vgsp_free(ap->loans[c]);
		ap->loans[c] = NULL;
	}
}

static bool is_lent(const struct vgsp_aperture *ap, u32 pfn)
{
	u32 c = pfn / VGSP_APERTURE_PAGES;

	return ap->loans && ap->loans[c] &&
	       ap->loans[c]->page[pfn % VGSP_APERTURE_PAGES];
}

int vgsp_aperture_lend(struct vgsp_aperture *ap, u32 pfn, u8 *mem)
{
	u32 c = pfn / VGSP_APERTURE_PAGES, p = pfn % VGSP_APERTURE_PAGES;
	struct vgsp_ap_loans *l;

	if (ap->flat || c >= ap->nchunks || is_lent(ap, pfn))
		return -EINVAL;
	l = loans_of(ap, c);
	if (!l)
		return -ENOMEM;
	if (ap->chunks[c])
		memcpy(mem, ap->chunks[c] + p * VGSP_APERTURE_PAGE,
		       VGSP_APERTURE_PAGE);
	else
		memset(mem, 0, VGSP_APERTURE_PAGE);
	l->page[p] = mem;
	l->n++;
	return 0;
}

int vgsp_aperture_reclaim(struct vgsp_aperture *ap, u32 pfn)
{
	u32 c = pfn / VGSP_APERTURE_PAGES, p = pfn % VGSP_APERTURE_PAGES;
	u8 *mem;

	if (c >= ap->nchunks || !is_lent(ap, pfn))
		return -EINVAL;
	mem = ap->loans[c]->page[p];
	unlend(ap, c, p);
	if (!ap->chunks[c] && all_zero(mem, VGSP_APERTURE_PAGE))
		return 0;
	if (!ap->chunks[c] && chunk_alloc(ap, c))
		return -ENOMEM;
	memcpy(ap->chunks[c] + p * VGSP_APERTURE_PAGE, mem,
	       VGSP_APERTURE_PAGE);
	return 0;
}

void vgsp_aperture_forget(struct vgsp_aperture *ap, u32 pfn)
{
	u32 c = pfn / VGSP_APERTURE_PAGES;

	if (c < ap->nchunks && is_lent(ap, pfn))
		unlend(ap, c, pfn % VGSP_APERTURE_PAGES);
}

void *vgsp_aperture_pin_page(struct vgsp_aperture *ap, u64 off)
{
	u32 c = (u32)(off / VGSP_APERTURE_CHUNK);
	u32 in = (u32)(off % VGSP_APERTURE_CHUNK) & ~(VGSP_APERTURE_PAGE - 1);

	if (ap->flat)
		return ap->flat + (off & ~(u64)(VGSP_APERTURE_PAGE - 1));
	if (c >= ap->nchunks)
		return NULL;
	if (lent_page(ap, c, in))
		return lent_page(ap, c, in);
	if (!ap->pinned) {
		ap->pinned = vgsp_zalloc(sizeof(u64) * ((ap->nchunks + 63) / 64));
		if (!ap->pinned)
			return NULL;
	}
	if (!ap->chunks[c] && chunk_alloc(ap, c))
		return NULL;
	ap->pinned[c / 64] |= 1ULL << (c % 64);
	return ap->chunks[c] + in;
}

void vgsp_aperture_unpin_all(struct vgsp_aperture *ap)
{
	u32 c;

	if (!ap->pinned)
		return;
	for (c = 0; c < ap->nchunks; c++) {
		if (!ap->pinned[c / 64]) {	/* 64 at a time: FB is large */
			c |= 63;
			continue;
		}
		if (!pinned(ap, c))
			continue;
		ap->pinned[c / 64] &= ~(1ULL << (c % 64));
		if (all_zero(ap->chunks[c], VGSP_APERTURE_CHUNK)) {
			vgsp_free(ap->chunks[c]);
			ap->chunks[c] = NULL;
			ap->backed -= VGSP_APERTURE_CHUNK;
		}
	}
}
