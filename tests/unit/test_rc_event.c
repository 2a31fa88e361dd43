// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A stopped channel reaches CPU-RM as GSP-RM reports it: after the error
 * notifier is written, one OS_ERROR_LOG event (0x1006, the Xid line:
 * rpc_os_error_log_v17_00 exceptType/runlistId/chid/errString) and one
 * RC_TRIGGERED event (0x1004: rpc_rc_triggered_v17_02 nv2080EngineType,
 * chid, gfid 0, exceptType, scope CHANNEL, no journal) in the status
 * queue, naming the channel as CPU-RM allocated it. A healthy channel
 * produces nothing; a full status queue delays the events, never loses
 * them. The GSP is booted by the replay client (tests/replay/replay.c)
 * in-process; the channels run from FB on the sim backend.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "mm/mm.h"
#include "fifo/fifo.h"
#include "rm/rm.h"
#include "gsp/gsp_priv.h"
#include "../replay/replay.c"

#define ARENA_IOVA	0x2345670000ULL

#define CLIENT		0xc1e00002
#define HDEVICE		0x1
#define HCHAN		0x2
#define PD4		0x10000ULL
#define VA_PA		0x200000ULL	/* VA 0 .. 2 MiB maps here */
#define GPFIFO_VA	0x1000
#define PB_VA		0x2000
#define SEM_VA		0x3000
#define QMD_VA		0x4000		/* zeros: not a QMD sim runs */
#define ERRNOT_PA	0x5000ULL
#define USERD_PA	0x300000ULL
#define CHID		5
#define ENGINE_GR0	0x01
#define ENGINE_COPY0	0x09

#define EV_RC_TRIGGERED	0x1004
#define EV_OS_ERROR_LOG	0x1006

static const u8 inst_uuid[16] = { 0x5e, 0x1f, 0x00, 0x2a, 0x91, 0x3c,
				  0x4d, 0x7e, 0x8f, 0x90, 0xa1, 0xb2,
				  0xc3, 0xd4, 0xe5, 0xf6 };

struct inproc {
	struct vgsp_dev *dev;
	struct rp_transport t;
	struct rp_client *c;
	u8 *mem;
	size_t size;
	pthread_mutex_t m;
	pthread_cond_t cv;
	unsigned int irqs;
};

static int ip_dma(struct inproc *ip, u64 iova, void *buf, size_t len,
		  bool write)
{
	if (!ip->mem || iova < ARENA_IOVA || iova - ARENA_IOVA > ip->size ||
	    len > ip->size - (iova - ARENA_IOVA))
		return -EFAULT;
	if (write)
		memcpy(ip->mem + (iova - ARENA_IOVA), buf, len);
	else
		memcpy(buf, ip->mem + (iova - ARENA_IOVA), len);
	return 0;
}

static int ip_dma_read(void *fe, u64 iova, void *buf, size_t len)
{
	return ip_dma(fe, iova, buf, len, false);
}

static int ip_dma_write(void *fe, u64 iova, const void *buf, size_t len)
{
	return ip_dma(fe, iova, (void *)buf, len, true);
}

static bool ip_irq(void *fe, unsigned int vector)
{
	struct inproc *ip = fe;

	pthread_mutex_lock(&ip->m);
	ip->irqs++;
	pthread_cond_signal(&ip->cv);
	pthread_mutex_unlock(&ip->m);
	return true;
}

static const struct vgsp_fe_ops ip_fe_ops = {
	.dma_read = ip_dma_read,
	.dma_write = ip_dma_write,
	.irq_signal = ip_irq,
};

static uint32_t ip_rd32(void *ctx, uint32_t off)
{
	struct inproc *ip = ctx;
	u32 v = 0xffffffff;

	vgsp_dev_bar_read(ip->dev, VGSP_BAR0, off, &v, 4);
	return v;
}

static void ip_wr32(void *ctx, uint32_t off, uint32_t val)
{
	struct inproc *ip = ctx;

	vgsp_dev_bar_write(ip->dev, VGSP_BAR0, off, &val, 4);
}

static int ip_mem_alloc(void *ctx, size_t size, void **va, uint64_t *iova)
{
	struct inproc *ip = ctx;

	ip->mem = aligned_alloc(4096, size);
	if (!ip->mem)
		return -ENOMEM;
	memset(ip->mem, 0, size);
	ip->size = size;
	*va = ip->mem;
	*iova = ARENA_IOVA;
	return 0;
}

static int ip_wait_irq(void *ctx, unsigned int ms)
{
	struct inproc *ip = ctx;
	struct timespec ts;
	int ret = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&ip->m);
	while (!ip->irqs && ret == 0)
		ret = pthread_cond_timedwait(&ip->cv, &ip->m, &ts);
	if (ip->irqs) {
		ip->irqs--;
		ret = 0;
	} else {
		ret = -ETIMEDOUT;
	}
	pthread_mutex_unlock(&ip->m);
	return ret;
}

static uint64_t ip_now(void *ctx)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int ip_reset(void *ctx)
{
	struct inproc *ip = ctx;

	vgsp_dev_reset(ip->dev);
	return 0;
}

static int ip_bus_master(void *ctx)
{
	struct inproc *ip = ctx;
	u8 cmd[2];

	if (vgsp_dev_cfg_read(ip->dev, 4, cmd, 2))
		return -EIO;
	cmd[0] |= 0x06;
	return vgsp_dev_cfg_write(ip->dev, 4, cmd, 2);
}

/* An instance whose GSP runs (boot, handshake, static info, intr table). */
static int setup(void **state)
{
	struct inproc *ip = calloc(1, sizeof(*ip));

	vgsp_os_user_init();
	assert_non_null(ip);
	pthread_mutex_init(&ip->m, NULL);
	pthread_cond_init(&ip->cv, NULL);
	ip->dev = vgsp_dev_create(vgsp_profile_find("h100-10g"), inst_uuid, 8,
				  &ip_fe_ops, ip);
	assert_non_null(ip->dev);
	ip->t = (struct rp_transport){
		.ctx = ip, .rd32 = ip_rd32, .wr32 = ip_wr32,
		.mem_alloc = ip_mem_alloc, .wait_irq = ip_wait_irq,
		.now_ns = ip_now, .reset = ip_reset,
		.bus_master = ip_bus_master,
	};
	memcpy(ip->t.uuid, inst_uuid, 16);
	ip->c = rp_new(&ip->t);
	assert_non_null(ip->c);
	assert_int_equal(rp_boot(ip->c), 0);
	*state = ip;
	return 0;
}

static int teardown(void **state)
{
	struct inproc *ip = *state;

	rp_free(ip->c);
	vgsp_dev_destroy(ip->dev);
	free(ip->mem);
	free(ip);
	return 0;
}

static void nap(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

/* Device lock held. */
static void put(struct inproc *ip, u64 pa, u64 v, u32 n)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	assert_int_equal(vgsp_fb_write(ip->dev, pa, b, n), 0);
}

static u32 fb_rd(struct inproc *ip, u64 pa)
{
	u8 b[4];

	vgsp_dev_lock(ip->dev);
	assert_int_equal(vgsp_fb_read(ip->dev, pa, b, 4), 0);
	vgsp_dev_unlock(ip->dev);
	return vgsp_get32(b, 0);
}

/* A channel as CPU-RM's alloc describes it; GPFIFO, pushbuffer in FB. */
static void make_channel(struct inproc *ip, u32 engine_type, u32 runlist)
{
	struct vgsp_chan_desc d = {
		.client = CLIENT, .handle = HCHAN, .parent = HDEVICE,
		.hdevice = HDEVICE, .chid = CHID, .runlist = runlist,
		.engine_type = engine_type, .gpfifo_va = GPFIFO_VA,
		.gpfifo_entries = 16, .userd_pa = USERD_PA,
		.userd_target = VGSP_MEM_VID, .errnot_pa = ERRNOT_PA,
		.errnot_target = VGSP_MEM_VID, .has_errnot = true,
	};
	unsigned int i;

	vgsp_dev_lock(ip->dev);
	for (i = 0; i < 4; i++)
		put(ip, PD4 + 0x1000 * i, (PD4 + 0x1000 * (i + 1)) | 2, 8);
	put(ip, PD4 + 0x4000, VA_PA | 1, 8);
	assert_int_equal(vgsp_rm_vas_set_pd(ip->dev, CLIENT, HDEVICE, 0, PD4,
					    VGSP_MEM_VID), 0);
	assert_int_equal(vgsp_fifo_chan_alloc(ip->dev, &d), 0);
	vgsp_dev_unlock(ip->dev);
}

static void submit(struct inproc *ip, u32 runlist, const u32 *pb, u32 n)
{
	u32 i, token = runlist << 16 | CHID;

	vgsp_dev_lock(ip->dev);
	for (i = 0; i < n; i++)
		put(ip, VA_PA + PB_VA + 4 * i, pb[i], 4);
	put(ip, VA_PA + GPFIFO_VA, PB_VA, 4);
	put(ip, VA_PA + GPFIFO_VA + 4, n << 10, 4);
	put(ip, USERD_PA + VGSP_USERD_GP_PUT, 1, 4);
	vgsp_dev_unlock(ip->dev);
	ip_wr32(ip, 0xbb0090, token);
}

static bool errnot_written(struct inproc *ip)
{
	return fb_rd(ip, ERRNOT_PA + 12) >> 16 == 0xffff;
}

static void wait_errnot(struct inproc *ip)
{
	int i;

	for (i = 0; i < 2000 && !errnot_written(ip); i++)
		nap();
	assert_true(errnot_written(ip));
}

static struct vgsp_fifo_stats fifo_st(struct inproc *ip)
{
	struct vgsp_fifo_stats s;

	vgsp_dev_lock(ip->dev);
	s = ip->dev->fifo->st;
	vgsp_dev_unlock(ip->dev);
	return s;
}

static u64 gsp_rc_events(struct inproc *ip)
{
	u64 n;

	vgsp_dev_lock(ip->dev);
	n = ip->dev->gsp->st.e.rc_events;
	vgsp_dev_unlock(ip->dev);
	return n;
}

/*
 * The next status message must be @fn; returns its payload. The error
 * notifier must already read as written when it is seen.
 */
static const u8 *expect_event(struct inproc *ip, u32 fn, u32 len)
{
	u32 got = 0;

	assert_int_equal(recv_msg(ip->c, 2000, &got), 0);
	assert_true(errnot_written(ip));
	assert_int_equal(got, fn);
	assert_int_equal(ip->c->rep_len, RPC_HDR + len);
	assert_int_equal(rep_result(ip->c), 0);
	return rep_payload(ip->c);
}

/* Nothing more arrives within 100 ms. */
static void expect_quiet(struct inproc *ip)
{
	u32 got = 0;

	assert_int_equal(recv_msg(ip->c, 100, &got), -ETIMEDOUT);
}

/* The Xid, then the RC notification, of the channel at CHID. */
static void expect_stop(struct inproc *ip, u32 engine_type, u32 runlist,
			u32 xid, const char *text)
{
	const u8 *p;

	p = expect_event(ip, EV_OS_ERROR_LOG, 0x10c);
	assert_int_equal(get32(p, 0x00), xid);		/* exceptType */
	assert_int_equal(get32(p, 0x04), runlist);	/* runlistId */
	assert_int_equal(get32(p, 0x08), CHID);		/* chid */
	assert_int_equal(p[0x0c + 0xff], 0);		/* errString ends */
	assert_string_equal((const char *)p + 0x0c, text);

	p = expect_event(ip, EV_RC_TRIGGERED, 0x1c);
	assert_int_equal(get32(p, 0x00), engine_type);	/* nv2080EngineType */
	assert_int_equal(get32(p, 0x04), CHID);		/* chid */
	assert_int_equal(get32(p, 0x08), 0);		/* gfid: the PF */
	assert_int_equal(get32(p, 0x0c), xid);		/* exceptType */
	assert_int_equal(get32(p, 0x10), 0);		/* scope: channel */
	assert_int_equal(p[0x14] | p[0x15] << 8, 233);	/* no MIG attribution */
	assert_int_equal(get32(p, 0x18), 0);		/* rcJournalBufferSize */
}

/*
 * SET_OBJECT compute, SEND_PCAS_A (a QMD of zeros), SEND_SIGNALING_PCAS_B
 * with INVALIDATE | SCHEDULE (without SCHEDULE nothing would run)
 */
static const u32 pb_launch[] = {
	0x20012000, 0x0000cbc0,
	0x200120ad, QMD_VA >> 8,
	0x200120af, 0x3,
};

static void test_refused_launch(void **state)
{
	struct inproc *ip = *state;
	struct vgsp_fifo_stats s;

	make_channel(ip, ENGINE_GR0, 0);
	submit(ip, 0, pb_launch, VGSP_ARRAY_SIZE(pb_launch));
	wait_errnot(ip);
	assert_int_equal(fb_rd(ip, ERRNOT_PA + 8), 13);	/* info32 */
	expect_stop(ip, ENGINE_GR0, 0, 13,
		    "Graphics Exception: ChID 0005, Class 0000cbc0, Offset 000002bc, Data 00000003");
	expect_quiet(ip);

	/* the stopped channel ignores its doorbell: no second report */
	ip_wr32(ip, 0xbb0090, CHID);
	expect_quiet(ip);
	s = fifo_st(ip);
	assert_int_equal(s.chan_errors, 1);
	assert_int_equal(s.rc_posted, 1);
	assert_int_equal(s.rc_deferred + s.rc_unsent, 0);
	assert_int_equal(gsp_rc_events(ip), 2);
}

/* A refused copy: the Xid of the channel's own copy engine (CE0: 39). */
static void test_refused_copy(void **state)
{
	struct inproc *ip = *state;
	static const u32 pb[] = {
		0x20018000, 0x0000c8b5,		/* SET_OBJECT copy, subch 4 */
		0x200180c0, 0x00000001,		/* LAUNCH_DMA block-linear */
	};

	make_channel(ip, ENGINE_COPY0, 1);
	submit(ip, 1, pb, VGSP_ARRAY_SIZE(pb));
	wait_errnot(ip);
	assert_int_equal(fb_rd(ip, ERRNOT_PA + 8), 39);
	expect_stop(ip, ENGINE_COPY0, 1, 39,
		    "CE Error: ChID 0005, Class 0000c8b5, Offset 00000300, Data 00000001");
	expect_quiet(ip);
}

/* A channel that does its work says nothing. */
static void test_healthy_channel_quiet(void **state)
{
	struct inproc *ip = *state;
	static const u32 pb[] = {
		0x20012000, 0x0000cbc0,
		0x200426c0, 0, SEM_VA, 0x77, 0x0, /* REPORT_SEMAPHORE release */
	};
	struct vgsp_fifo_stats s;
	int i;

	make_channel(ip, ENGINE_GR0, 0);
	submit(ip, 0, pb, VGSP_ARRAY_SIZE(pb));
	for (i = 0; i < 2000 && fb_rd(ip, VA_PA + SEM_VA) != 0x77; i++)
		nap();
	assert_int_equal(fb_rd(ip, VA_PA + SEM_VA), 0x77);
	expect_quiet(ip);
	assert_false(errnot_written(ip));
	s = fifo_st(ip);
	assert_int_equal(s.chan_errors, 0);
	assert_int_equal(s.rc_posted + s.rc_deferred + s.rc_unsent, 0);
	assert_int_equal(gsp_rc_events(ip), 0);
}

/*
 * The status queue is full when the channel stops (a read pointer out of
 * range reads as full): the events wait, counted, and arrive once the
 * guest drains, without a doorbell, exactly once.
 */
static void test_statq_full_deferred(void **state)
{
	struct inproc *ip = *state;
	struct vgsp_fifo_stats s;
	int i;

	shm_w32(ip->c, CMDQ_OFF + 0x20, 0xffffffffu);
	make_channel(ip, ENGINE_GR0, 0);
	submit(ip, 0, pb_launch, VGSP_ARRAY_SIZE(pb_launch));
	wait_errnot(ip);
	for (i = 0; i < 2000 && fifo_st(ip).rc_deferred < 2; i++)
		nap();
	s = fifo_st(ip);
	assert_true(s.rc_deferred >= 2);	/* retried, not spinning... */
	assert_true(s.rc_deferred < 1000);
	assert_int_equal(s.rc_posted + s.rc_unsent, 0);
	assert_int_equal(shm32(ip->c, STATQ_OFF + 0x10), ip->c->stat_rptr);

	shm_w32(ip->c, CMDQ_OFF + 0x20, ip->c->stat_rptr);
	expect_stop(ip, ENGINE_GR0, 0, 13,
		    "Graphics Exception: ChID 0005, Class 0000cbc0, Offset 000002bc, Data 00000003");
	expect_quiet(ip);
	s = fifo_st(ip);
	assert_int_equal(s.rc_posted, 1);
	assert_int_equal(s.rc_unsent, 0);
}

static bool gone(struct vgsp_dev *dev, u32 client, u32 handle)
{
	return false;
}

/*
 * CPU-RM frees the channel while its events wait for room: they are not
 * sent (CPU-RM would find no such ChID), counted as unsent.
 */
static void test_freed_before_told(void **state)
{
	struct inproc *ip = *state;
	int i;

	shm_w32(ip->c, CMDQ_OFF + 0x20, 0xffffffffu);
	make_channel(ip, ENGINE_GR0, 0);
	submit(ip, 0, pb_launch, VGSP_ARRAY_SIZE(pb_launch));
	wait_errnot(ip);
	for (i = 0; i < 2000 && !fifo_st(ip).rc_deferred; i++)
		nap();
	assert_true(fifo_st(ip).rc_deferred > 0);
	vgsp_dev_lock(ip->dev);
	vgsp_fifo_chan_prune(ip->dev, CLIENT, gone);
	vgsp_dev_unlock(ip->dev);
	shm_w32(ip->c, CMDQ_OFF + 0x20, ip->c->stat_rptr);
	expect_quiet(ip);
	assert_int_equal(fifo_st(ip).rc_unsent, 1);
	assert_int_equal(fifo_st(ip).rc_posted, 0);
	assert_int_equal(gsp_rc_events(ip), 0);
}

/* Without a running GSP there is nobody to tell: counted, nothing sent. */
static void test_no_gsp_unsent(void **state)
{
	struct inproc *ip = *state;
	int i;

	vgsp_dev_lock(ip->dev);
	vgsp_gsp_stop(ip->dev->gsp);
	vgsp_dev_unlock(ip->dev);
	make_channel(ip, ENGINE_GR0, 0);
	submit(ip, 0, pb_launch, VGSP_ARRAY_SIZE(pb_launch));
	wait_errnot(ip);
	for (i = 0; i < 2000 && !fifo_st(ip).rc_unsent; i++)
		nap();
	assert_int_equal(fifo_st(ip).rc_unsent, 1);
	assert_int_equal(fifo_st(ip).rc_posted, 0);
	assert_int_equal(gsp_rc_events(ip), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_refused_launch, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused_copy, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_healthy_channel_quiet,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_statq_full_deferred,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_freed_before_told, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_gsp_unsent, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
