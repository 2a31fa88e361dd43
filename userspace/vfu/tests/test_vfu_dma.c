// SPDX-License-Identifier: GPL-2.0 OR MIT
/* DMA windows: mmap of client fds, IOVA bounds, overlap, unmap. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "dma.h"

/* Sealed against shrinking, as QEMU's memory-backend-memfd makes them. */
static int memfd(size_t size)
{
	int fd = memfd_create("vfu-test", MFD_ALLOW_SEALING);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW), 0);
	return fd;
}

static struct vfu_dma d;

static void test_map_rw(void **st)
{
	struct vfu_dma_map m = { .argsz = 32, .flags = 3, .offset = 0x1000,
				 .iova = 0x10000, .size = 0x2000 };
	int fd = memfd(0x4000);
	uint8_t *peer = mmap(NULL, 0x4000, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	uint32_t v = 0x12345678, r = 0;

	vfu_dma_init(&d);
	assert_int_equal(vfu_dma_add(&d, &m, dup(fd)), 0);
	/* the server sees what the client wrote at file offset 0x1000 + 0x10 */
	memcpy(peer + 0x1010, &v, 4);
	assert_int_equal(vfu_dma_rw(&d, 0x10010, &r, 4, false), 0);
	assert_int_equal(r, 0x12345678);
	v = 0xcafef00d;
	assert_int_equal(vfu_dma_rw(&d, 0x11ffc, &v, 4, true), 0);
	assert_memory_equal(peer + 0x2ffc, &v, 4);
	/* last byte in, one past out, straddling the end out */
	assert_int_equal(vfu_dma_rw(&d, 0x11fff, &r, 1, false), 0);
	assert_int_equal(vfu_dma_rw(&d, 0x12000, &r, 1, false), -EFAULT);
	assert_int_equal(vfu_dma_rw(&d, 0x11ffe, &r, 4, false), -EFAULT);
	assert_int_equal(vfu_dma_rw(&d, 0xffff, &r, 2, false), -EFAULT);
	assert_int_equal(vfu_dma_rw(&d, ~0ull - 1, &r, 4, false), -EFAULT);
	/* overlap refused; adjacent window accepted and spanned */
	m.iova = 0x11000;
	assert_int_equal(vfu_dma_add(&d, &m, dup(fd)), -EEXIST);
	m.iova = 0x12000;
	m.offset = 0x3000;
	m.size = 0x1000;
	assert_int_equal(vfu_dma_add(&d, &m, dup(fd)), 0);
	memcpy(peer + 0x3000, "\xaa\xbb", 2);
	{
		uint8_t b[4];

		assert_int_equal(vfu_dma_rw(&d, 0x11ffe, b, 4, false), 0);
		assert_int_equal(b[2], 0xaa);
		assert_int_equal(b[3], 0xbb);
	}
	/* unmap needs an exact match */
	assert_int_equal(vfu_dma_remove(&d, 0x12000, 0x2000), -ENOENT);
	assert_int_equal(vfu_dma_remove(&d, 0x12000, 0x1000), 0);
	assert_int_equal(vfu_dma_rw(&d, 0x12000, &r, 1, false), -EFAULT);
	vfu_dma_remove_all(&d, NULL, NULL);
	assert_int_equal(d.n, 0);
	assert_int_equal(vfu_dma_rw(&d, 0x10010, &r, 4, false), -EFAULT);
	munmap(peer, 0x4000);
	close(fd);
}

static void test_bad_windows(void **st)
{
	struct vfu_dma_map m = { .argsz = 32, .flags = 1, .offset = 0,
				 .iova = 0x10000, .size = 0x2000 };
	int fd = memfd(0x1000);
	uint32_t r = 0, w = 1;

	vfu_dma_init(&d);
	/* window past the end of the file would SIGBUS: refused */
	assert_int_equal(vfu_dma_add(&d, &m, dup(fd)), -EINVAL);
	/* a pipe is not mappable memory */
	{
		int p[2];

		assert_int_equal(pipe(p), 0);
		close(p[1]);
		assert_int_equal(vfu_dma_add(&d, &m, p[0]), -EINVAL);
	}
	/* read-only window: reads work, writes fault */
	m.size = 0x1000;
	assert_int_equal(vfu_dma_add(&d, &m, dup(fd)), 0);
	assert_int_equal(vfu_dma_rw(&d, 0x10000, &r, 4, false), 0);
	assert_int_equal(vfu_dma_rw(&d, 0x10000, &w, 4, true), -EFAULT);
	/* window without fd: known but not accessible */
	m.iova = 0x20000;
	assert_int_equal(vfu_dma_add(&d, &m, -1), 0);
	assert_int_equal(vfu_dma_rw(&d, 0x20000, &r, 4, false), -EFAULT);
	assert_int_equal(d.faults, 2);
	vfu_dma_remove_all(&d, NULL, NULL);
	close(fd);
}

/*
 * Review 1e: a file the client may shrink after DMA_MAP would SIGBUS the
 * server on the next access. Unsealed files are refused; a sealed one
 * cannot shrink, so its window stays valid.
 */
static void test_unsealed_refused(void **st)
{
	struct vfu_dma_map m = { .argsz = 32, .flags = 3, .offset = 0,
				 .iova = 0x10000, .size = 0x2000 };
	int fd = memfd_create("vfu-unsealed", 0), sealed = memfd(0x2000);
	uint32_t r = 0;

	vfu_dma_init(&d);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 0x2000), 0);
	assert_int_equal(vfu_dma_add(&d, &m, dup(fd)), -EPERM);
	assert_int_equal(d.n, 0);
	/* the old behaviour: mapped, shrunk, and the next read is SIGBUS */
	assert_int_equal(vfu_dma_add(&d, &m, dup(sealed)), 0);
	assert_int_not_equal(ftruncate(sealed, 0), 0);
	assert_int_equal(vfu_dma_rw(&d, 0x11ffc, &r, 4, false), 0);
	vfu_dma_remove_all(&d, NULL, NULL);
	close(fd);
	close(sealed);
}

static unsigned int cb_calls;
static void count_cb(void *arg, uint64_t iova, uint64_t size)
{
	cb_calls++;
}

static void test_remove_all_cb(void **st)
{
	struct vfu_dma_map m = { .argsz = 32, .flags = 3, .size = 0x1000 };
	int fd = memfd(0x1000);
	int i;

	vfu_dma_init(&d);
	for (i = 0; i < 5; i++) {
		m.iova = 0x100000 * (uint64_t)(i + 1);
		assert_int_equal(vfu_dma_add(&d, &m, dup(fd)), 0);
	}
	vfu_dma_remove_all(&d, count_cb, NULL);
	assert_int_equal(cb_calls, 5);
	close(fd);
}


/*
 * The GSP worker reads guest memory while the socket thread maps and unmaps:
 * an access either completes on a live window or faults, never touches an
 * unmapped one (this would crash) and never sees torn window state.
 */
static int stop_hammer;	/* __atomic: TSan-clean flag */
static uint64_t hammered;	/* __atomic: accesses so far */
static void *hammer(void *arg)
{
	uint64_t ok = 0, fault = 0;
	uint32_t v;

	while (!__atomic_load_n(&stop_hammer, __ATOMIC_RELAXED)) {
		if (vfu_dma_rw(&d, 0x40000 + (ok & 0xff) * 4, &v, 4, false) == 0)
			ok++;
		else
			fault++;
		__atomic_add_fetch(&hammered, 1, __ATOMIC_RELAXED);
	}
	*(uint64_t *)arg = ok + fault;
	return NULL;
}

static void test_concurrent_unmap(void **st)
{
	struct vfu_dma_map m = { .argsz = 32, .flags = 3, .iova = 0x40000, .size = 0x1000 };
	int fd = memfd(0x1000);
	pthread_t t;
	uint64_t accesses = 0;
	int i;

	vfu_dma_init(&d);
	__atomic_store_n(&stop_hammer, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&hammered, 0, __ATOMIC_RELAXED);
	assert_int_equal(pthread_create(&t, NULL, hammer, &accesses), 0);
	/* on a loaded machine the thread may start late: the unmaps must
	 * race with it, so wait (at most 10 s) until it is reading */
	for (i = 0; i < 10000 && !__atomic_load_n(&hammered, __ATOMIC_RELAXED); i++) {
		struct timespec ms = { 0, 1000000 };

		nanosleep(&ms, NULL);
	}
	for (i = 0; i < 2000; i++) {
		assert_int_equal(vfu_dma_add(&d, &m, dup(fd)), 0);
		assert_int_equal(vfu_dma_remove(&d, m.iova, m.size), 0);
	}
	__atomic_store_n(&stop_hammer, 1, __ATOMIC_RELAXED);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(accesses > 0);
	assert_int_equal(d.n, 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_rw),
		cmocka_unit_test(test_unsealed_refused),
		cmocka_unit_test(test_bad_windows),
		cmocka_unit_test(test_remove_all_cb),
		cmocka_unit_test(test_concurrent_unmap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
