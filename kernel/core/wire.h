/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Little-endian field access in byte buffers copied from guest memory.
 * Guest structures are never cast to C structs: offsets are explicit and
 * every access goes through these helpers, so alignment and padding of
 * the host compiler never matter.
 */
#ifndef VGSP_GSP_WIRE_H
#define VGSP_GSP_WIRE_H

#include "vgsp_types.h"

static inline u32 vgsp_get32(const u8 *b, u32 off)
{
	return (u32)b[off] | (u32)b[off + 1] << 8 | (u32)b[off + 2] << 16 |
	       (u32)b[off + 3] << 24;
}

static inline u64 vgsp_get64(const u8 *b, u32 off)
{
	return (u64)vgsp_get32(b, off) | (u64)vgsp_get32(b, off + 4) << 32;
}

static inline void vgsp_put16(u8 *b, u32 off, u16 v)
{
	b[off] = v & 0xff;
	b[off + 1] = v >> 8;
}

static inline void vgsp_put32(u8 *b, u32 off, u32 v)
{
	b[off] = v & 0xff;
	b[off + 1] = (v >> 8) & 0xff;
	b[off + 2] = (v >> 16) & 0xff;
	b[off + 3] = v >> 24;
}

static inline void vgsp_put64(u8 *b, u32 off, u64 v)
{
	vgsp_put32(b, off, (u32)v);
	vgsp_put32(b, off + 4, (u32)(v >> 32));
}

#endif /* VGSP_GSP_WIRE_H */
