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

/*
 * The small-RPC path in a BAR trap (docs/gsp-emulation.md, "what an RPC
 * costs under TCG"): its functions go together (GCC's hot section), so
 * that its jumps and calls stay within few pages, and its rare branches
 * go out of line.
 */
#define VGSP_HOT		__attribute__((__hot__))
#define vgsp_unlikely(x)	__builtin_expect(!!(x), 0)
#define vgsp_likely(x)		__builtin_expect(!!(x), 1)
/*
 * Call @f, directly when it is @f1 (the kernel's INDIRECT_CALL_1 idea): a
 * retpoline'd indirect call is a thunk on hardware and three TB lookups
 * under TCG. For an op that is almost always one known function.
 */
#define VGSP_INDIRECT_CALL_1(f, f1, ...)				\
	(vgsp_likely((f) == (f1)) ? f1(__VA_ARGS__) : (f)(__VA_ARGS__))
/*
 * A stack buffer that is written before it is read: exempt from the
 * kernel's zeroing of locals (INIT_STACK_ALL_ZERO), which costs a string
 * store per buffer per RPC. Nothing in one reaches guest memory unless
 * written first.
 */
#if defined(__has_attribute)
#if __has_attribute(__uninitialized__)
#define VGSP_NOINIT		__attribute__((__uninitialized__))
#endif
#endif
#ifndef VGSP_NOINIT
#define VGSP_NOINIT
#endif

/*
 * memcpy for the few bytes an RPC moves at a time (a header, a small
 * command or reply), inline: a kernel memcpy of a length known only at
 * run time is a call, and under TCG a cold call and its return cost more
 * than copying a hundred bytes (docs/gsp-emulation.md). Longer copies
 * take memcpy.
 */
#define VGSP_COPY_INLINE_MAX	256

static __always_inline void vgsp_copy(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (n > VGSP_COPY_INLINE_MAX) {
		memcpy(dst, src, n);
		return;
	}
	/*
	 * 32 bytes a turn (a turn is a jump under TCG); the empty asm keeps
	 * the compiler from making these loops a memcpy call.
	 */
	for (; n >= 32; n -= 32, d += 32, s += 32) {
		__builtin_memcpy(d, s, 8);
		__builtin_memcpy(d + 8, s + 8, 8);
		__builtin_memcpy(d + 16, s + 16, 8);
		__builtin_memcpy(d + 24, s + 24, 8);
		__asm__ volatile("" : : : "memory");
	}
	for (; n >= 8; n -= 8, d += 8, s += 8) {
		__builtin_memcpy(d, s, 8);
		__asm__ volatile("" : : : "memory");
	}
	if (n & 4) {
		__builtin_memcpy(d, s, 4);
		d += 4;
		s += 4;
	}
	if (n & 2) {
		__builtin_memcpy(d, s, 2);
		d += 2;
		s += 2;
	}
	if (n & 1)
		*d = *s;
}

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

static inline void vgsp_add(u64 *c, u64 n)
{
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
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
