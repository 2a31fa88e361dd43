/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Basic types for the OS-free core. The core is compiled both into vgsp.ko
 * and into a userspace library, so it takes its fixed-width types, string
 * helpers and errno values from here and never includes an OS header itself.
 */
#ifndef VGSP_TYPES_H
#define VGSP_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/compiler.h>
#else
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>
#include <errno.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#endif

#define VGSP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A bucket of a 2^@bits table for @x (Fibonacci hashing), @bits 1..32. */
static inline u32 vgsp_hash32(u32 x, unsigned int bits)
{
	return (u32)(x * 0x9e3779b1U) >> (32 - bits);
}

/*
 * State shared by the BAR-trap path (device lock) and the fifo worker
 * (fifo lock): counters, the pending flags and the timer offset. The
 * compiler's atomics, the same in the kernel and in userspace.
 */
static inline void vgsp_inc(u64 *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static inline u64 vgsp_load64(const u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void vgsp_store64(u64 *p, u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline bool vgsp_xchg_bool(bool *p, bool v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL);
}

static inline int vgsp_load_int(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline bool vgsp_load_bool(const bool *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void vgsp_store_bool(bool *p, bool v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

#endif /* VGSP_TYPES_H */
