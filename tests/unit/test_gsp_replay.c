// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The emulated GSP driven end to end by the guest-driver replay client
 * (tests/replay/replay.c) in-process: guest memory is a malloc'd arena
 * behind the frontend's dma ops, interrupts a counter and a condvar.
 * Transcripts are compared with the golden files the VM run also uses.
 * Set VGSP_UPDATE_GOLDEN=1 to rewrite them (then review the diff).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "device.h"
#include "view.h"
#include "os_user.h"
#include "gsp/gsp_priv.h"
#include "helpers/trace_rec.h"
#include "../replay/replay.c"

#define ARENA_IOVA	0x2345670000ULL
#define GOLDEN_DIR	"tests/replay/golden/"

static const u8 inst_uuid[16] = { 0x5e, 0x1f, 0x00, 0x2a, 0x91, 0x3c,
				  0x4d, 0x7e, 0x8f, 0x90, 0xa1, 0xb2,
				  0xc3, 0xd4, 0xe5, 0xf6 };

struct inproc {
	struct vgsp_dev *dev;
	struct rp_transport t;
	u8 *mem;
	size_t size;
	bool dma_fail;
	pthread_mutex_t m;
	pthread_cond_t cv;
	unsigned int irqs;
};

static int ip_dma(struct inproc *ip, u64 iova, void *buf, size_t len,
		  bool write)
{
	if (ip->dma_fail || !ip->mem || iova < ARENA_IOVA ||
	    iova - ARENA_IOVA > ip->size || len > ip->size - (iova - ARENA_IOVA))
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

/* As vgsp.ko's: the pieces in order, the first failure ends the call. */
static int ip_dma_hot_v(void *fe, const struct vgsp_dma_seg *seg,
			unsigned int n, bool write)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = ip_dma(fe, seg[i].iova, seg[i].buf, seg[i].len, write);
		if (ret)
			return ret;
	}
	return 0;
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
	.dma_hot_v = ip_dma_hot_v,
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
	pthread_mutex_lock(&ip->m);
	ip->irqs = 0;
	pthread_mutex_unlock(&ip->m);
	return 0;
}

/* Command register: memory decode + Bus Master Enable. */
static int ip_bus_master(void *ctx)
{
	struct inproc *ip = ctx;
	u8 cmd[2];

	if (vgsp_dev_cfg_read(ip->dev, 4, cmd, 2))
		return -EIO;
	cmd[0] |= 0x06;
	return vgsp_dev_cfg_write(ip->dev, 4, cmd, 2);
}

/* As a frontend does on VFIO_IOMMU_UNMAP_DMA: accesses fail from now. */
static int ip_unmap(void *ctx)
{
	struct inproc *ip = ctx;

	ip->dma_fail = true;
	vgsp_dev_dma_unmapped(ip->dev, ARENA_IOVA, ip->size);
	return 0;
}

static int ip_remap(void *ctx)
{
	struct inproc *ip = ctx;

	ip->dma_fail = false;
	return 0;
}

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
	assert_non_null(ip->dev->gsp);
	ip->t = (struct rp_transport){
		.ctx = ip, .rd32 = ip_rd32, .wr32 = ip_wr32,
		.mem_alloc = ip_mem_alloc, .wait_irq = ip_wait_irq,
		.now_ns = ip_now, .reset = ip_reset,
		.mem_unmap = ip_unmap, .mem_remap = ip_remap,
		.bus_master = ip_bus_master,
	};
	memcpy(ip->t.uuid, inst_uuid, 16);
	*state = ip;
	return 0;
}

static int teardown(void **state)
{
	struct inproc *ip = *state;

	vgsp_dev_destroy(ip->dev);
	free(ip->mem);
	free(ip);
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void check_golden(const struct rp_client *c, const char *name)
{
	const char *dir = getenv("VGSP_SRCDIR");
	char path[512], why[512];
	char *want;

	snprintf(path, sizeof(path), "%s%s" GOLDEN_DIR "%s",
		 dir ? dir : "", dir ? "/" : "", name);
	if (getenv("VGSP_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "wb");

		assert_non_null(f);
		fputs(rp_transcript(c)->buf, f);
		fclose(f);
	}
	want = slurp(path);
	if (!want)
		fail_msg("golden file %s missing", path);
	if (rp_transcript_diff(rp_transcript(c)->buf, want, why,
			       sizeof(why)) >= 0) {
		fprintf(stderr, "%s", rp_transcript(c)->buf);
		fail_msg("%s differs: %s", name, why);
	}
	free(want);
}

/* Copy of the GSP state under the lock (the worker may be running). */
static struct vgsp_gsp_errs errs(struct inproc *ip)
{
	struct vgsp_gsp_errs e;

	vgsp_dev_lock(ip->dev);
	e = ip->dev->gsp->st.e;
	vgsp_dev_unlock(ip->dev);
	return e;
}

static struct vgsp_fn_stat fn_stat(struct inproc *ip, unsigned int fn)
{
	struct vgsp_fn_stat s;

	vgsp_dev_lock(ip->dev);
	s = ip->dev->gsp->st.fn[fn];
	vgsp_dev_unlock(ip->dev);
	return s;
}

static void test_init_matches_golden(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	struct vgsp_gsp_errs e;

	assert_non_null(c);
	assert_int_equal(rp_run_init(c), 0);
	check_golden(c, "init.txt");

	e = errs(ip);
	assert_int_equal(e.boots, 1);
	assert_int_equal(e.checksum_bad + e.elem_count_bad + e.length_bad +
			 e.cmdq_hdr_bad + e.shm_errors + e.msgs_dropped +
			 e.seq_bad + e.rpc_hdr_bad + e.unknown_functions, 0);
	/* every command consumed; 72/73 counted without replies */
	assert_int_equal(fn_stat(ip, 72).req, 1);
	assert_int_equal(fn_stat(ip, 73).req, 1);
	assert_int_equal(fn_stat(ip, 76).err, 0);
	assert_int_equal(fn_stat(ip, 103).ok, 3);
	assert_int_equal(fn_stat(ip, 10).ok, 1);
	/* INIT_DONE + one reply per synchronous RPC */
	assert_int_equal(e.msgs_tx, e.msgs_rx - 2 + 1);
	assert_true(e.irqs >= 9);
	/* the free cascaded: only GSP-RM's three internal objects remain */
	assert_int_equal(ip->dev->gsp->objs.used, 3);
	rp_free(c);
}

/*
 * Large RPCs: requests reassembled from CONTINUATION_RECORDs and replies
 * cut into them, parsed back the way _issueRpcLarge does; broken record
 * sequences are counted and leave the queue usable.
 */
static void test_large_rpcs(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	struct vgsp_gsp_errs e;

	assert_non_null(c);
	assert_int_equal(rp_run_large(c), 0);
	check_golden(c, "large.txt");
	e = errs(ip);
	/* 5 round trips in pieces (the full-size one is a plain RPC) */
	assert_int_equal(e.large_rx, 5);
	assert_int_equal(e.large_tx, 5);
	/* 1 + 6 + 1 + 24 + 1 records, the partial's 1; not the overlong one */
	assert_int_equal(e.cont_rx, 1 + 6 + 1 + 24 + 1 + 1);
	/* the bad-signature one, answered NV_ERR_INVALID_ARGUMENT in full */
	assert_int_equal(e.rpc_hdr_bad, 1);
	assert_int_equal(e.cont_orphan, 1);
	assert_int_equal(e.large_abandoned, 1);
	/* the 1.5 MiB one (not kept, answered) and the overlong record */
	assert_int_equal(e.large_bad, 2);
	assert_int_equal(e.msgs_dropped, 2);
	assert_int_equal(e.checksum_bad + e.elem_count_bad + e.length_bad +
			 e.seq_bad + e.shm_errors, 0);
	assert_int_equal(ip->dev->gsp->q.big_total, 0);
	assert_int_equal(ip->dev->gsp->q.rep_len, 0);
	rp_free(c);
}

static void test_bad_input_then_fresh_init(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	struct vgsp_gsp_errs e;

	assert_non_null(c);
	assert_int_equal(rp_run_bad(c), 0);
	check_golden(c, "bad.txt");
	e = errs(ip);
	assert_int_equal(e.checksum_bad, 1);
	assert_int_equal(e.elem_count_bad, 3);
	assert_int_equal(e.length_bad, 2);
	assert_int_equal(e.rpc_hdr_bad, 1);
	assert_true(e.cmdq_hdr_bad >= 4);
	assert_int_equal(e.unknown_functions, 1);
	assert_int_equal(e.version_refused, 1);
	assert_int_equal(e.resets, 1);
	assert_int_equal(e.stops, 1);
	/* the unmapped window was noticed, counted, and survived */
	assert_true(e.shm_errors >= 1);
	assert_true(ip->dev->cnt.dma_unmaps >= 1);
	assert_int_equal(e.boots, 3);
	assert_true(e.doorbells > 5000);
	/* the storm woke the worker far fewer times than it rang */
	assert_true(e.worker_runs < e.doorbells);
	rp_free(c);
}

/* Both queues wrap; two-slot messages straddle the end of the ring. */
static void test_wraparound_multislot(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	static u8 p[0x18 + 0x1800];
	unsigned int i;
	int irq;

	assert_non_null(c);
	assert_int_equal(rp_boot(c), 0);
	for (i = 0; i < 150; i++) {
		u32 size = (i % 3) ? 0x1800 : 4;

		memset(p, 0, sizeof(p));
		put32(p, 0x00, c->h_client);
		put32(p, 0x04, c->h_subdevice);
		put32(p, 0x08, (i % 3) ? CTRL_UNSUPPORTED :
			       CTRL_GET_SMC_MODE);
		put32(p, 0x10, size);
		memset(p + 0x18 + 4, (int)i, size - 4);
		assert_int_equal(rpc(c, FN_GSP_RM_CONTROL, p, 0x18 + size, 0,
				     &irq), 0);
		assert_int_equal(irq, 1);
		assert_int_equal(get32(rep_payload(c), 0x0c),
				 (i % 3) ? 0x56 : 0);
		/* params echoed through both wrapping queues intact */
		assert_memory_equal(rep_payload(c) + 0x18 + 4, p + 0x18 + 4,
				    size - 4);
	}
	assert_true(c->cmd_seq > 2 * MSG_COUNT);
	assert_int_equal(errs(ip).seq_bad, 0);
	assert_int_equal(errs(ip).checksum_bad, 0);
	rp_free(c);
}

/* Guest memory disappears mid-flight: errors counted, nothing hangs. */
static void test_unmapped_midflight(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	u8 p[0x18 + 4];
	int i;

	assert_non_null(c);
	assert_int_equal(rp_boot(c), 0);
	memset(p, 0, sizeof(p));
	put32(p, 0x00, c->h_client);
	put32(p, 0x04, c->h_subdevice);
	put32(p, 0x08, CTRL_GET_SMC_MODE);
	put32(p, 0x10, 4);
	ip->dma_fail = true;
	assert_int_equal(send_rpc(c, FN_GSP_RM_CONTROL, p, sizeof(p), 0,
				  &no_tamper), 0);
	for (i = 0; i < 200 && !errs(ip).shm_errors; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	assert_true(errs(ip).shm_errors > 0);
	assert_true(ip->dev->cnt.dma_errors > 0);
	ip->dma_fail = false;
	/* the instance recovers through a reset and a fresh init */
	vgsp_dev_reset(ip->dev);
	c->tr.len = 0;
	assert_int_equal(rp_run_init(c), 0);
	check_golden(c, "init.txt");
	rp_free(c);
}

/* The guest driver reported an unsupported version: refused loudly. */
static void test_unsupported_version(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	unsigned int before = vgsp_os_user_log_count(VGSP_LOG_ERR);

	assert_non_null(c);
	assert_int_equal(rp_boot(c), 0);
	guest_system_info(c, "550.54.14");
	assert_int_equal(rep_result(c), 0x56);
	assert_string_equal(ip->dev->gsp->guest_version, "550.54.14");
	assert_true(ip->dev->gsp->refused);
	assert_int_equal(vgsp_os_user_log_count(VGSP_LOG_ERR), before + 1);
	rp_free(c);
}

/*
 * Issue #14: the ABI is chosen by the guest's announcement. 550.163.01
 * (vgx 0x25.0x1b) gets abi/r550: its static info is 550's layout (0x888
 * bytes, no computeBranding, the name at 0x72c, the internal handles at
 * 0x878); a version no ABI carries is refused with NOT_SUPPORTED and one
 * error line naming it; a known driver string with another vgx version
 * is refused too.
 */
static u32 gated_rpc(struct rp_client *c, u32 fn);

static void test_abi_chosen_by_version(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	unsigned int before;
	uint8_t si[0x888], ctl[0x504];
	uint32_t hc, hs;
	char line[512];
	const uint8_t *r;
	int irq;

	assert_non_null(c);
	assert_int_equal(rp_boot(c), 0);
	assert_ptr_equal(ip->dev->gsp->abi, &vgsp_abi_r535);
	guest_system_info_vgx(c, "550.163.01", 0x25, 0x1b);
	assert_int_equal(rep_result(c), 0);
	assert_ptr_equal(ip->dev->gsp->abi, &vgsp_abi_r550);
	assert_true(ip->dev->gsp->version_ok);
	memset(si, 0, sizeof(si));
	assert_int_equal(rpc(c, FN_GET_GSP_STATIC_INFO, si, sizeof(si), 0,
			     &irq), 0);
	assert_int_equal(rep_result(c), 0);
	assert_int_equal(c->rep_len, RPC_HDR + 0x888);
	r = rep_payload(c);
	assert_string_equal((const char *)r + 0x72c,
			    ip->dev->profile->product);
	assert_int_equal(r[0x833], 1);			/* bIsTesla */
	assert_int_equal(get32(r, 0x358), 2);		/* numFBRegions */
	assert_int_equal(get64(r, 0x6e8), ip->dev->profile->fb_size);
	assert_int_equal(get32(r, 0x878), 0xc1fe0001);	/* hInternalClient */
	assert_int_equal(get32(r, 0x880), 0x5d1fe001);	/* hInternalSubdevice */
	/* 535's computeBranding word (0x650) is inside 550's fbRegion[9] */
	assert_int_equal(get32(r, 0x650), 0);
	/* controls 550 renumbered or laid out differently */
	hc = get32(r, 0x878);
	hs = get32(r, 0x880);
	memset(ctl, 0xa5, sizeof(ctl));
	assert_int_equal(control(c, hc, hs,
				 0x208001b0, ctl, 0x504, &irq), 0);
	assert_int_equal(get32(ctl, 0), 0);		/* no generic falcons */
	memset(ctl, 0xa5, sizeof(ctl));
	assert_int_equal(control(c, hc, hs,
				 0x20800a1c, ctl, 0x28, &irq), 0);
	assert_int_equal(ctl[0x10], 1);			/* bFbpaPresent */
	assert_int_equal(get32(ctl, 0x20), 10);		/* ltcCount */
	assert_int_equal(get32(ctl, 0x24), 4);		/* ltsPerLtcCount */
	memset(ctl, 0, 8);
	assert_int_equal(control(c, hc, hs, 0x20800afe, ctl, 8, &irq), 0);
	assert_int_equal(control(c, hc, hs, 0x20800aff, ctl, 8, &irq), 0);
	/* 535's sizes are refused under 550 */
	assert_int_equal(control(c, hc, hs,
				 0x20800a1c, ctl, 0x38, &irq), 0x3a);

	/* a GSP reboot forgets the announcement: back to the default ABI */
	wr(c, GSP_ENGINE, 1);
	wr(c, GSP_ENGINE, 0);
	assert_ptr_equal(ip->dev->gsp->abi, &vgsp_abi_r535);
	assert_int_equal(boot_to_init_done(c), 0);

	/* a made-up version: refused, one error line naming it */
	before = vgsp_os_user_log_count(VGSP_LOG_ERR);
	guest_system_info_vgx(c, "612.34.56", 0x2a, 0x07);
	assert_int_equal(rep_result(c), 0x56);		/* NV_ERR_NOT_SUPPORTED */
	assert_int_equal(vgsp_os_user_log_count(VGSP_LOG_ERR), before + 1);
	vgsp_os_user_last_error(line, sizeof(line));
	assert_non_null(strstr(line, "\"612.34.56\""));
	assert_non_null(strstr(line, "vgx 0x2a.0x7"));
	assert_non_null(strstr(line, "535.261.03, 550.163.01"));
	assert_ptr_equal(ip->dev->gsp->abi, &vgsp_abi_r535);
	assert_int_equal(gated_rpc(c, FN_GET_GSP_STATIC_INFO), 0x40);
	assert_int_equal(errs(ip).version_refused, 1);

	/* 550.163.01 with 535's vgx version: no ABI has that pair */
	vgsp_dev_reset(ip->dev);
	assert_int_equal(rp_boot(c), 0);
	guest_system_info_vgx(c, "550.163.01", 0x23, 0x05);
	assert_int_equal(rep_result(c), 0x56);
	assert_true(ip->dev->gsp->refused);
	rp_free(c);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Review 1b: a reply larger than the status queue, and a guest that does
 * not drain it. The worker must back off (measured: over 100k passes a
 * second before), yet still deliver the reply once the guest drains,
 * without a doorbell, as _issueRpcLarge does.
 */
static void test_statq_full_no_spin(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	u32 total, result = 0, i;
	u8 *buf, *rep;
	u64 runs;
	int n;

	assert_non_null(c);
	assert_int_equal(rp_boot(c), 0);
	buf = large_ctrl_buf(c, CTRL_GET_SMC_MODE, 0x80000, &total);
	rep = calloc(1, total);
	assert_non_null(buf);
	assert_non_null(rep);
	assert_int_equal(send_large(c, buf, total, -1), 0);
	for (i = 0; i < 2000 && !errs(ip).backoffs; i++)
		sleep_ms(1);
	assert_true(errs(ip).backoffs > 0);

	runs = errs(ip).worker_runs;
	sleep_ms(200);
	runs = errs(ip).worker_runs - runs;
	print_message("worker passes in 200 ms with the status queue full: %llu\n",
		      (unsigned long long)runs);
	assert_true(runs < 100);

	/* the guest drains: the whole reply arrives, echoed */
	n = recv_large(c, FN_GSP_RM_CONTROL, rep, total, &result);
	assert_true(n > 0);
	assert_int_equal(result, 0);
	for (i = 0; i < 0x80000; i++)
		if (rep[RPC_HDR + 0x18 + i] != (u8)(i * 7 + 3))
			fail_msg("reply byte %u not echoed", i);
	assert_int_equal(errs(ip).large_abandoned, 0);

	/* a status read pointer out of range reads as full: no spin either */
	assert_int_equal(send_large(c, buf, total, -1), 0);
	shm_w32(c, CMDQ_OFF + 0x20, 0xffffffffu);
	sleep_ms(50);
	runs = errs(ip).worker_runs;
	sleep_ms(200);
	assert_true(errs(ip).worker_runs - runs < 100);
	free(buf);
	free(rep);
	rp_free(c);
}

/*
 * Review 1c: the version gate was advisory. Before SET_GUEST_SYSTEM_INFO
 * announced a supported version nothing but the boot RPCs is served, and
 * a refusal is not undone by a second handshake, only by a device reset.
 */
static u32 gated_rpc(struct rp_client *c, u32 fn)
{
	u8 p[0x20 + 4];
	int irq;

	memset(p, 0, sizeof(p));
	put32(p, 0x00, c->h_client);
	put32(p, 0x04, c->h_subdevice);
	put32(p, 0x08, CTRL_GET_SMC_MODE);
	put32(p, 0x10, 4);
	assert_int_equal(rpc(c, fn, p, sizeof(p), 0, &irq), 0);
	return rep_result(c);
}

static void test_version_gate(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	static const u32 fns[] = {
		FN_GET_GSP_STATIC_INFO, FN_GSP_RM_CONTROL, FN_GSP_RM_ALLOC,
		FN_FREE, FN_UNLOADING_GUEST_DRIVER,
	};
	unsigned int i;

	assert_non_null(c);
	/* no handshake at all: refused, counted */
	assert_int_equal(boot_to_init_done(c), 0);
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		assert_int_equal(gated_rpc(c, fns[i]), 0x40);
	assert_int_equal(errs(ip).version_gate, 5);
	assert_false(ip->dev->gsp->version_ok);

	/* refused, then a supported version: the refusal sticks */
	guest_system_info(c, "550.54.14");
	assert_int_equal(rep_result(c), 0x56);
	guest_system_info(c, "535.261.03");
	assert_int_not_equal(rep_result(c), 0);
	assert_true(ip->dev->gsp->refused);
	assert_false(ip->dev->gsp->version_ok);
	assert_int_equal(gated_rpc(c, FN_GET_GSP_STATIC_INFO), 0x40);

	/* a GSP core reboot without device reset keeps it too */
	wr(c, GSP_ENGINE, 1);
	wr(c, GSP_ENGINE, 0);
	assert_int_equal(boot_to_init_done(c), 0);
	guest_system_info(c, "535.261.03");
	assert_int_not_equal(rep_result(c), 0);
	assert_int_equal(gated_rpc(c, FN_GET_GSP_STATIC_INFO), 0x40);

	/* device reset: a fresh init works and matches the golden */
	vgsp_dev_reset(ip->dev);
	assert_false(ip->dev->gsp->refused);
	c->tr.len = 0;
	assert_int_equal(rp_run_init(c), 0);
	check_golden(c, "init.txt");
	rp_free(c);
}

struct sbuf {
	struct vgsp_printer p;
	char buf[65536];
	size_t len;
};

static void sbuf_print(struct vgsp_printer *p, const char *fmt, ...)
{
	struct sbuf *s = (struct sbuf *)p;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->len, sizeof(s->buf) - s->len, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(s->buf) - s->len)
		s->len += (size_t)n;
}

static const char *view(struct inproc *ip, const char *name)
{
	static struct sbuf s;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	s.p.print = sbuf_print;
	for (i = 0; i < vgsp_gsp_nviews; i++)
		if (!strcmp(vgsp_gsp_views[i].name, name))
			vgsp_gsp_views[i].show(ip->dev, &s.p);
	return s.buf;
}

static void test_views(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);

	assert_non_null(c);
	assert_int_equal(rp_run_init(c), 0);
	assert_non_null(strstr(view(ip, "gsp_state"), "boot running\n"));
	assert_non_null(strstr(view(ip, "gsp_state"),
			       "guest_version 535.261.03\n"));
	assert_non_null(strstr(view(ip, "gsp_rpc"),
			       "103 GSP_RM_ALLOC 3 3 0\n"));
	assert_non_null(strstr(view(ip, "gsp_rpc"),
			       "72 GSP_SET_SYSTEM_INFO 1 1 0\n"));
	assert_non_null(strstr(view(ip, "gsp_controls"),
			       "0x20800a63 INTERNAL_STATIC_KMIGMGR_GET_PROFILES 1 1 0x56 0xb04\n"));
	assert_non_null(strstr(view(ip, "gsp_controls"),
			       "0x20800a40 INTERNAL_GET_DEVICE_INFO_TABLE 1 0 0x0 0xc64\n"));
	assert_non_null(strstr(view(ip, "gsp_controls"),
			       "0x20800a36 INTERNAL_GPU_GET_CHIP_INFO 1 0 0x0 0x58\n"));
	assert_non_null(strstr(view(ip, "gsp_controls"),
			       "0x20800a5c INTERNAL_INTR_GET_KERNEL_TABLE 1 0 0x0 0x814\n"));
	assert_non_null(strstr(view(ip, "gsp_queue"), "statq_msg_count 63\n"));
	assert_non_null(strstr(view(ip, "gsp_latency"), "count "));
	assert_null(strstr(view(ip, "gsp_latency"), "count 0\n"));
	assert_non_null(strstr(view(ip, "rpc_log"), "GSP_RM_CONTROL 0x20800a4c"));
	rp_free(c);
}

/*
 * One RPC's trace events, in order: the GSP doorbell (BAR trap), the RPC
 * begun and ended in the worker with its function, status, reply size and
 * control command; an interrupt, if any, only after the reply.
 */
static void test_trace_rpc(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	struct trace_ev e;
	unsigned int i;
	int irq;

	assert_non_null(c);
	assert_int_equal(rp_boot(c), 0);
	trace_rec_start();
	assert_int_equal(rp_ping(c, NULL, NULL), 0);
	irq = trace_rec_wait(0, VGSP_TRACE_IRQ, 200);
	trace_rec_stop();
	assert_true(trace_rec_count() >= 3);
	e = trace_rec_get(0);
	assert_int_equal(e.ev, VGSP_TRACE_DOORBELL);
	assert_int_equal(e.a, VGSP_TRACE_DB_GSP);
	assert_string_equal(e.dev, ip->dev->name);
	e = trace_rec_get(1);
	assert_int_equal(e.ev, VGSP_TRACE_RPC_BEGIN);
	assert_int_equal(e.a, FN_GSP_RM_CONTROL);
	assert_string_equal(e.name, "GSP_RM_CONTROL");
	assert_true(e.b >= 0x20 + 0x18);		/* header + params */
	e = trace_rec_get(2);
	assert_int_equal(e.ev, VGSP_TRACE_RPC_END);
	assert_int_equal(e.a, FN_GSP_RM_CONTROL);
	assert_int_equal(e.b, 0);			/* NV_OK */
	assert_true(e.c > 0);				/* a reply */
	assert_int_equal(e.d, CTRL_GET_SMC_MODE);
	/* nothing else but interrupts after the reply */
	for (i = 3; i < trace_rec_count(); i++)
		assert_int_equal(trace_rec_get(i).ev, VGSP_TRACE_IRQ);
	assert_true(irq < 0 || irq >= 3);
	rp_free(c);
}

/*
 * The RPC fast path (gsp.h): with the default budget a ping is answered in
 * its doorbell's own trap (no worker pass); with 0 by the worker; and the
 * replies are the same.
 */
static void test_rpc_fast_path(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	struct vgsp_gsp_errs e0, e1;
	unsigned int saved = vgsp_rpc_inline_us;

	assert_non_null(c);
	assert_int_equal(saved, VGSP_RPC_INLINE_US_DEFAULT);
	assert_int_equal(rp_boot(c), 0);
	assert_true(errs(ip).rpcs_inline > 0);		/* the boot's RPCs */
	sleep_ms(20);					/* the worker idle */
	e0 = errs(ip);
	assert_int_equal(rp_ping(c, NULL, NULL), 0);
	e1 = errs(ip);
	assert_int_equal(e1.rpcs_inline, e0.rpcs_inline + 1);
	assert_int_equal(e1.rpcs_fast, e0.rpcs_fast + 1);
	assert_int_equal(e1.worker_runs, e0.worker_runs);

	vgsp_rpc_inline_us = 0;
	assert_int_equal(rp_ping(c, NULL, NULL), 0);
	vgsp_rpc_inline_us = saved;
	e0 = e1;
	e1 = errs(ip);
	assert_int_equal(e1.rpcs_inline, e0.rpcs_inline);
	assert_true(e1.worker_runs > e0.worker_runs);
	assert_int_equal(e1.msgs_rx, e0.msgs_rx + 1);
	rp_free(c);
}

/*
 * The doorbell's common case (msgq.c: fast_one) only accepts what the
 * pass would answer as it is. A command-queue header changed under it
 * (here its version) goes to the pass, which counts it once and answers
 * nothing. Restored, the next RPC is answered in the trap by the pass,
 * which validates the header anew, and the one after it by the common
 * case again.
 */
static void test_fast_path_header_change(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	struct vgsp_gsp_errs e0, e1;
	uint32_t ver;

	assert_non_null(c);
	assert_int_equal(rp_boot(c), 0);
	assert_int_equal(rp_ping(c, NULL, NULL), 0);
	e0 = errs(ip);
	ver = shm32(c, CMDQ_OFF + 0x00);
	shm_w32(c, CMDQ_OFF + 0x00, ver + 1);
	wr(c, GSP_QUEUE_HEAD0, 0);
	e1 = errs(ip);
	assert_int_equal(e1.cmdq_hdr_bad, e0.cmdq_hdr_bad + 1);
	assert_int_equal(e1.msgs_rx, e0.msgs_rx);
	assert_int_equal(e1.rpcs_inline, e0.rpcs_inline);
	assert_int_equal(e1.rpcs_fast, e0.rpcs_fast);
	shm_w32(c, CMDQ_OFF + 0x00, ver);
	assert_int_equal(rp_ping(c, NULL, NULL), 0);
	e0 = e1;
	e1 = errs(ip);
	assert_int_equal(e1.cmdq_hdr_bad, e0.cmdq_hdr_bad);
	assert_int_equal(e1.rpcs_inline, e0.rpcs_inline + 1);
	assert_int_equal(e1.msgs_rx, e0.msgs_rx + 1);
	/* the pass validated the header again (that RPC), then the fast one */
	assert_int_equal(e1.rpcs_fast, e0.rpcs_fast);
	assert_int_equal(rp_ping(c, NULL, NULL), 0);
	e0 = e1;
	e1 = errs(ip);
	assert_int_equal(e1.rpcs_fast, e0.rpcs_fast + 1);
	assert_int_equal(e1.rpcs_inline, e0.rpcs_inline + 1);
	rp_free(c);
}

static void line_sink(void *arg, const char *line)
{
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	char *buf = arg;
	size_t n;

	pthread_mutex_lock(&m);
	n = strlen(buf);
	if (n + strlen(line) + 2 < 8192)
		sprintf(buf + n, "%s\n", line);
	pthread_mutex_unlock(&m);
}

/*
 * The userspace library's transcript lines for the same RPC: what a sink
 * (vgsp-vfu's --log) gets, and what VGSP_TRACE=FILE appends.
 */
static void test_trace_lines(void **state)
{
	struct inproc *ip = *state;
	struct rp_client *c = rp_new(&ip->t);
	static char buf[8192];
	char want[256], path[] = "/tmp/vgsp-trace-XXXXXX";
	char *file;
	int fd;

	assert_non_null(c);
	assert_int_equal(rp_boot(c), 0);
	buf[0] = 0;
	vgsp_os_user_trace(line_sink, buf);
	assert_int_equal(rp_ping(c, NULL, NULL), 0);
	vgsp_os_user_trace(NULL, NULL);
	snprintf(want, sizeof(want), "vgsp_doorbell: dev=%s queue=gsp token=0x0\n"
		 "vgsp_rpc_begin: dev=%s fn=76 GSP_RM_CONTROL bytes=", ip->dev->name,
		 ip->dev->name);
	assert_non_null(strstr(buf, want));
	snprintf(want, sizeof(want), "vgsp_rpc_end: dev=%s fn=76 GSP_RM_CONTROL status=0x0 reply=",
		 ip->dev->name);
	assert_non_null(strstr(buf, want));
	snprintf(want, sizeof(want), " cmd=0x%x\n", CTRL_GET_SMC_MODE);
	assert_non_null(strstr(buf, want));

	/* VGSP_TRACE=FILE: the same lines, each after a monotonic time */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	setenv("VGSP_TRACE", path, 1);
	vgsp_os_user_init();
	unsetenv("VGSP_TRACE");
	assert_int_equal(rp_ping(c, NULL, NULL), 0);
	vgsp_os_user_trace(NULL, NULL);
	file = slurp(path);
	unlink(path);
	assert_non_null(file);
	assert_non_null(strstr(file, " vgsp_rpc_begin: dev="));
	assert_true(file[0] >= '0' && file[0] <= '9');
	free(file);
	rp_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_large_rpcs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_init_matches_golden,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input_then_fresh_init,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_wraparound_multislot,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmapped_midflight,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsupported_version,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_statq_full_no_spin, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_abi_chosen_by_version,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_version_gate, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_views, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trace_rpc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rpc_fast_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fast_path_header_change,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_trace_lines, setup, teardown),
	};

	return cmocka_run_group_tests_name("gsp_replay", tests, NULL, NULL);
}
