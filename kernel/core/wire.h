/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Little-endian field access in byte buffers copied from guest memory.
 * Guest structures are never cast to C structs: offsets are explicit and
 * every access goes through these helpers, so alignment and padding of
 * the host compiler never matter. Each reads through one pointer (b + off)
 * so that the compiler can merge the bytes into one load or store; they
 * are forced inline, as the kernel's inliner judges the eight-byte forms
 * too big before it merges them and made each a call.
 */
#ifndef VGSP_GSP_WIRE_H
#define VGSP_GSP_WIRE_H

#include "vgsp_types.h"

static __always_inline u32 vgsp_get32(const u8 *b, u32 off)
{
	const u8 *p = b + off;

	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 |
	       (u32)p[3] << 24;
}

static __always_inline u64 vgsp_get64(const u8 *b, u32 off)
{
	const u8 *p = b + off;

	return (u64)p[0] | (u64)p[1] << 8 | (u64)p[2] << 16 |
	       (u64)p[3] << 24 | (u64)p[4] << 32 | (u64)p[5] << 40 |
	       (u64)p[6] << 48 | (u64)p[7] << 56;
}

static __always_inline void vgsp_put16(u8 *b, u32 off, u16 v)
{
	u8 *p = b + off;

	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static __always_inline void vgsp_put32(u8 *b, u32 off, u32 v)
{
	u8 *p = b + off;

	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

static __always_inline void vgsp_put64(u8 *b, u32 off, u64 v)
{
	vgsp_put32(b, off, (u32)v);
	vgsp_put32(b, off + 4, (u32)(v >> 32));
}

#endif /* VGSP_GSP_WIRE_H */
