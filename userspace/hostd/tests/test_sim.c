/* SPDX-License-Identifier: MIT */
/* test_sim.c - the sim backend: CE copies and semaphores on the CPU, the
 * command scanner's refusals, and GR refusal. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "pb.h"
#include "vgsp_backend.h"

#define SRC_VA 0x100000000ull
#define DST_VA 0x200000000ull
#define SEM_VA 0x300000000ull
#define PB_VA 0x400000000ull
#define RO_VA 0x500000000ull
#define BUF 65536u

struct fx {
	struct vgsp_backend *b;
	uint8_t *src, *dst, *ro;
	uint32_t *sem, *pbuf;
	struct vgsp_be_completion got[8];
	unsigned ngot;
};

static void on_complete(void *ctx, const struct vgsp_be_completion *c)
{
	struct fx *f = ctx;
	if (f->ngot < 8)
		f->got[f->ngot] = *c;
	f->ngot++;
}

static const struct vgsp_backend_ops *ops = &vgsp_sim_backend_ops;

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct vgsp_be_config cfg = { VGSP_BACKEND_ABI, on_complete, f, NULL, 0 };
	f->src = malloc(BUF);
	f->dst = calloc(1, BUF);
	f->ro = calloc(1, 4096);
	f->sem = calloc(1, 4096);
	f->pbuf = calloc(1, 4096);
	for (unsigned i = 0; i < BUF; i++)
		f->src[i] = (uint8_t)(i * 7 + 3);
	assert_int_equal(ops->open(&cfg, &f->b), 0);
	struct vgsp_be_mem m[] = {
		{ SRC_VA, BUF, f->src, 0 }, { DST_VA, BUF, f->dst, 0 },
		{ SEM_VA, 4096, f->sem, 0 }, { PB_VA, 4096, f->pbuf, 0 },
		{ RO_VA, 4096, f->ro, VGSP_BE_MEM_READONLY },
	};
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(ops->map_mem(f->b, &m[i]), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	ops->close(f->b);
	free(f->src); free(f->dst); free(f->ro); free(f->sem); free(f->pbuf);
	free(f);
	return 0;
}

static void test_copy_descriptor(void **state)
{
	struct fx *f = *state;
	struct vgsp_ce_work w = { .kind = VGSP_CE_COPY };
	w.u.copy = (struct vgsp_ce_copy){ SRC_VA + 16, DST_VA + 32, 16384, SEM_VA + 8, 0x1234, 0 };
	assert_int_equal(ops->submit_ce(f->b, &w, 77), 0);
	assert_int_equal(ops->poll(f->b, 8, 0), 1);
	assert_int_equal(f->got[0].cookie, 77);
	assert_int_equal(f->got[0].status, 0);
	assert_int_equal(f->got[0].engine, VGSP_BE_CAP_CE);
	assert_memory_equal(f->dst + 32, f->src + 16, 16384);
	assert_int_equal(f->dst[31], 0);
	assert_int_equal(f->dst[32 + 16384], 0);
	assert_int_equal(f->sem[2], 0x1234);
	assert_int_equal(ops->poll(f->b, 8, 0), 0); /* exactly once */
}

static void test_copy_out_of_range(void **state)
{
	struct fx *f = *state;
	struct vgsp_ce_work w = { .kind = VGSP_CE_COPY };
	/* destination runs 1 byte past its region */
	w.u.copy = (struct vgsp_ce_copy){ SRC_VA, DST_VA + BUF - 100, 101, SEM_VA, 5, 0 };
	assert_int_equal(ops->submit_ce(f->b, &w, 1), 0);
	assert_int_equal(ops->poll(f->b, 8, 0), 1);
	assert_int_equal(f->got[0].status, VGSP_BE_EFAULT);
	assert_int_equal(f->dst[BUF - 100], 0); /* nothing written */
	assert_int_equal(f->sem[0], 0);          /* no release after a fault */
	/* source in an unregistered hole */
	w.u.copy = (struct vgsp_ce_copy){ SRC_VA + BUF, DST_VA, 4, 0, 0, 0 };
	assert_int_equal(ops->submit_ce(f->b, &w, 2), 0);
	assert_int_equal(ops->poll(f->b, 8, 0), 1);
	assert_int_equal(f->got[1].status, VGSP_BE_EFAULT);
	/* read-only destination */
	w.u.copy = (struct vgsp_ce_copy){ SRC_VA, RO_VA, 4, 0, 0, 0 };
	assert_int_equal(ops->submit_ce(f->b, &w, 3), 0);
	assert_int_equal(ops->poll(f->b, 8, 0), 1);
	assert_int_equal(f->got[2].status, VGSP_BE_EFAULT);
	assert_int_equal(f->ro[0], 0);
	/* zero length and reserved flags are malformed */
	w.u.copy = (struct vgsp_ce_copy){ SRC_VA, DST_VA, 0, 0, 0, 0 };
	assert_int_equal(ops->submit_ce(f->b, &w, 4), VGSP_BE_EINVAL);
}

static void test_guest_pushbuffer(void **state)
{
	struct fx *f = *state;
	struct pb p;
	pb_init(&p, f->pbuf, 1024);
	pb_set_object(&p, PB_SUBCH_COPY, 0xC8B5);
	/* 2-D copy: 4 lines of 100 bytes, src pitch 256, dst pitch 128 */
	uint32_t off[4] = { 1, 0x1000, 2, 0x2000 };
	pb_inc(&p, PB_SUBCH_COPY, C8B5_OFFSET_IN_UPPER, off, 4);
	uint32_t geo[4] = { 256, 128, 100, 4 };
	pb_inc(&p, PB_SUBCH_COPY, C8B5_PITCH_IN, geo, 4);
	uint32_t sem[3] = { 3, 0x40, 0xfeed };
	pb_inc(&p, PB_SUBCH_COPY, C8B5_SET_SEMAPHORE_A, sem, 3);
	pb_mthd1(&p, PB_SUBCH_COPY, C8B5_LAUNCH_DMA,
		 C8B5_LD_XFER_NON_PIPELINED | C8B5_LD_SRC_PITCH | C8B5_LD_DST_PITCH |
		 C8B5_LD_MULTI_LINE | C8B5_LD_SEM_RELEASE_FOUR_WORD);
	pb_host_sem_release(&p, SEM_VA + 0x80, 0xbeef);
	assert_int_equal(p.overflow, 0);

	struct vgsp_ce_work w = { .kind = VGSP_CE_PUSHBUF };
	w.u.seg = (struct vgsp_pb_seg){ PB_VA, (uint32_t)p.len, 0 };
	assert_int_equal(ops->submit_ce(f->b, &w, 9), 0);
	assert_int_equal(ops->poll(f->b, 8, 0), 1);
	assert_int_equal(f->got[0].status, 0);
	for (unsigned l = 0; l < 4; l++) {
		assert_memory_equal(f->dst + 0x2000 + l * 128, f->src + 0x1000 + l * 256, 100);
		assert_int_equal(f->dst[0x2000 + l * 128 + 100], 0);
	}
	/* four-word release: payload, 0, timestamp lo/hi (non-zero) */
	assert_int_equal(f->sem[0x40 / 4], 0xfeed);
	assert_int_equal(f->sem[0x40 / 4 + 1], 0);
	assert_true(f->sem[0x40 / 4 + 2] != 0);
	assert_int_equal(f->sem[0x80 / 4], 0xbeef);
}

static void submit_expect(struct fx *f, const uint32_t *seg, unsigned n, int status)
{
	memcpy(f->pbuf, seg, n * 4);
	struct vgsp_ce_work w = { .kind = VGSP_CE_PUSHBUF };
	w.u.seg = (struct vgsp_pb_seg){ PB_VA, n, 0 };
	f->ngot = 0;
	assert_int_equal(ops->submit_ce(f->b, &w, 0), 0);
	assert_int_equal(ops->poll(f->b, 8, 0), 1);
	assert_int_equal(f->got[0].status, status);
}

/* A copy-class segment: offsets, then PITCH_IN/OUT, LINE_LENGTH, LINE_COUNT, then LAUNCH_DMA. */
static unsigned copy_segment(uint32_t *buf, unsigned cap, const uint32_t off[4],
			     const uint32_t geo[4], uint32_t launch)
{
	struct pb p;

	pb_init(&p, buf, cap);
	pb_set_object(&p, PB_SUBCH_COPY, 0xC8B5);
	pb_inc(&p, PB_SUBCH_COPY, C8B5_OFFSET_IN_UPPER, off, 4);
	pb_inc(&p, PB_SUBCH_COPY, C8B5_PITCH_IN, geo, 4);
	pb_mthd1(&p, PB_SUBCH_COPY, C8B5_LAUNCH_DMA, launch);
	assert_int_equal(p.overflow, 0);
	return (unsigned)p.len;
}

/*
 * Fuzz finding F1: LINE_COUNT 0xffffffff with pitch 0 was validated (and
 * executed) line by line, hours of work for one guest method. The extent
 * is now checked once and the CPU's share is bounded: refused at once.
 * A multi-line copy whose last line leaves the region is refused too.
 */
static void test_huge_line_count_refused_fast(void **state)
{
	struct fx *f = *state;
	uint32_t buf[256];
	uint32_t off[4] = { 1, 0, 2, 0 };
	uint32_t geo[4] = { 0, 0, 16, 0xffffffffu };
	const uint32_t ld = C8B5_LD_XFER_NON_PIPELINED | C8B5_LD_SRC_PITCH |
			    C8B5_LD_DST_PITCH | C8B5_LD_MULTI_LINE;
	struct timespec t0, t1;
	unsigned n = copy_segment(buf, 256, off, geo, ld);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	submit_expect(f, buf, n, VGSP_BE_ENOTSUP);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 2);

	/* 2 lines of 16 bytes, pitch BUF: the second line is past the region */
	geo[0] = geo[1] = BUF;
	geo[3] = 2;
	n = copy_segment(buf, 256, off, geo, ld);
	submit_expect(f, buf, n, VGSP_BE_EFAULT);
	/* a pitch that wraps 64 bits */
	geo[0] = 0xffffffffu;
	n = copy_segment(buf, 256, off, geo, ld);
	submit_expect(f, buf, n, VGSP_BE_EFAULT);
}

static void test_scanner_refusals(void **state)
{
	struct fx *f = *state;
	/* binding the compute class on the CE path */
	uint32_t compute[] = { pb_hdr(PB_SECOP_INC, 1, 0, 1), 0xCBC0 };
	submit_expect(f, compute, 2, VGSP_BE_EPERM);
	/* CE method on an unbound subchannel */
	uint32_t unbound[] = { pb_hdr(PB_SECOP_INC, 2, C8B5_LAUNCH_DMA, 1), 0x186 };
	submit_expect(f, unbound, 2, VGSP_BE_EPERM);
	/* physical addressing would bypass the instance's page tables */
	uint32_t phys[] = { pb_hdr(PB_SECOP_INC, 4, 0, 1), 0xC8B5,
			    pb_hdr(PB_SECOP_INC, 4, C8B5_OFFSET_IN_UPPER, 4), 0, 0, 0, 0,
			    pb_hdr(PB_SECOP_INC, 4, C8B5_LINE_LENGTH_IN, 1), 16,
			    pb_hdr(PB_SECOP_INC, 4, C8B5_LAUNCH_DMA, 1),
			    0x186 | C8B5_LD_SRC_PHYSICAL };
	submit_expect(f, phys, 11, VGSP_BE_EPERM);
	/* a non-whitelisted CE method (SET_REMAP_CONST_A 0x700) */
	uint32_t remap[] = { pb_hdr(PB_SECOP_INC, 4, 0, 1), 0xC8B5,
			     pb_hdr(PB_SECOP_INC, 4, 0x700, 1), 0 };
	submit_expect(f, remap, 4, VGSP_BE_EPERM);
	/* a non-whitelisted host method (MEM_OP_D 0x34: TLB/L2 operations) */
	uint32_t memop[] = { pb_hdr(PB_SECOP_INC, 0, 0x34, 1), 0 };
	submit_expect(f, memop, 2, VGSP_BE_EPERM);
	/* malformed header: count past the end of the segment */
	uint32_t trunc[] = { pb_hdr(PB_SECOP_INC, 4, C8B5_OFFSET_IN_UPPER, 4), 0, 0 };
	submit_expect(f, trunc, 3, VGSP_BE_EINVAL);
	/* semaphore release into unregistered memory */
	uint32_t badsem[] = { pb_hdr(PB_SECOP_INC, 0, 0x5C, 5), 0, 0x7, 1, 0, 0x00100001 };
	submit_expect(f, badsem, 6, VGSP_BE_EFAULT);
	/* segment itself outside instance memory: refused at submit */
	struct vgsp_ce_work w = { .kind = VGSP_CE_PUSHBUF };
	w.u.seg = (struct vgsp_pb_seg){ PB_VA + 4096 - 4, 2, 0 };
	assert_int_equal(ops->submit_ce(f->b, &w, 0), VGSP_BE_EFAULT);
}

static void test_gr_refused(void **state)
{
	struct fx *f = *state;
	struct vgsp_gr_launch l;
	memset(&l, 0, sizeof(l));
	l.grid[0] = l.grid[1] = l.grid[2] = 1;
	l.block[0] = l.block[1] = l.block[2] = 1;
	l.sem_va = SEM_VA;
	l.sem_payload = 1;
	assert_int_equal(ops->submit_gr(f->b, &l, 5), VGSP_BE_ENOTSUP);
	assert_int_equal(ops->poll(f->b, 8, 0), 0); /* never "completed" */
	assert_int_equal(f->sem[0], 0);
	assert_true((ops->caps & VGSP_BE_CAP_GR) == 0);
}

static void test_map_and_open_validation(void **state)
{
	struct fx *f = *state;
	uint8_t buf[64];
	struct vgsp_be_mem overlap = { DST_VA + 4096, 64, buf, 0 };
	assert_int_equal(ops->map_mem(f->b, &overlap), VGSP_BE_EINVAL);
	struct vgsp_be_mem nohost = { 0x900000000ull, 64, NULL, 0 };
	assert_int_equal(ops->map_mem(f->b, &nohost), VGSP_BE_EINVAL);
	struct vgsp_be_mem wrap = { ~0ull - 10, 64, buf, 0 };
	assert_int_equal(ops->map_mem(f->b, &wrap), VGSP_BE_EINVAL);
	struct vgsp_backend *b2 = NULL;
	struct vgsp_be_config bad = { VGSP_BACKEND_ABI + 1, on_complete, f, NULL, 0 };
	assert_int_equal(ops->open(&bad, &b2), VGSP_BE_EINVAL);
	assert_null(b2);
	assert_string_equal(vgsp_be_strerror(VGSP_BE_ENOTSUP), "not supported by this backend");
}

/* Property: whatever a guest writes into its pushbuffer, the CPU backend
 * never writes outside the instance's registered memory.  Random segments
 * are biased towards valid headers and in-range addresses so that many of
 * them execute real copies and semaphore releases. */
static uint32_t rng(uint32_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 17;
	*st ^= *st << 5;
	return *st;
}

static void test_random_pushbuffers_stay_inside(void **state)
{
	(void)state;
	enum { GUARD = 4096, INNER = 8192 };
	uint8_t *mem = malloc(GUARD + INNER + GUARD);
	uint32_t *seg = malloc(64 * 4);
	memset(mem, 0xA5, GUARD + INNER + GUARD);
	struct vgsp_backend *b;
	struct fx f = { 0 };
	struct vgsp_be_config cfg = { VGSP_BACKEND_ABI, on_complete, &f, NULL, 0 };
	assert_int_equal(ops->open(&cfg, &b), 0);
	const uint64_t base = 0x700000000ull;
	struct vgsp_be_mem m = { base, INNER, mem + GUARD, 0 };
	struct vgsp_be_mem pbm = { 0x800000000ull, 64 * 4, seg, 0 };
	assert_int_equal(ops->map_mem(b, &m), 0);
	assert_int_equal(ops->map_mem(b, &pbm), 0);
	static const uint32_t mthds[] = { 0x0, 0x5C, 0x60, 0x64, 0x68, 0x6C, 0x78, 0x240, 0x244,
					  0x248, 0x300, 0x400, 0x404, 0x408, 0x40C, 0x410, 0x414,
					  0x418, 0x41C, 0x700 };
	uint32_t st = 12345;
	unsigned ok = 0;
	for (unsigned iter = 0; iter < 20000; iter++) {
		unsigned n = 1 + rng(&st) % 64;
		for (unsigned i = 0; i < n; i++) {
			uint32_t r = rng(&st);
			switch (r % 4) {
			case 0: /* header */
				seg[i] = pb_hdr(1 + (r >> 4) % 5, (r >> 8) % 2 ? 4 : (r >> 9) % 8,
						mthds[(r >> 12) % 20], 1 + (r >> 20) % 4);
				break;
			case 1: /* in-range or edge address */
				seg[i] = (uint32_t)base + (rng(&st) % (INNER + 64)) - 32;
				break;
			case 2: /* small value: upper address, length, class */
				seg[i] = (r >> 3) % 3 == 0 ? 0xC8B5u : (r >> 3) % 3 == 1 ? 7u : (r >> 8) % 4096;
				break;
			default:
				seg[i] = r;
			}
		}
		struct vgsp_ce_work w = { .kind = VGSP_CE_PUSHBUF };
		w.u.seg = (struct vgsp_pb_seg){ pbm.gpu_va, n, 0 };
		f.ngot = 0;
		if (ops->submit_ce(b, &w, iter) == 0) {
			assert_int_equal(ops->poll(b, 8, 0), 1);
			ok += f.got[0].status == 0;
		}
	}
	for (unsigned i = 0; i < GUARD; i++) {
		assert_int_equal(mem[i], 0xA5);
		assert_int_equal(mem[GUARD + INNER + i], 0xA5);
	}
	assert_true(ok > 100); /* the generator does reach execution */
	ops->close(b);
	free(mem);
	free(seg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_copy_descriptor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_copy_out_of_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_guest_pushbuffer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_huge_line_count_refused_fast, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_scanner_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gr_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_map_and_open_validation, setup, teardown),
		cmocka_unit_test(test_random_pushbuffers_stay_inside),
	};
	return cmocka_run_group_tests_name("sim_backend", tests, NULL, NULL);
}
