// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target over the rung-2 work path: GPFIFO entries and method
 * streams through fifo/ (gpfifo.c: entry fetch, control entries, the
 * method-header decoder) into engine/ (host.c semaphores and memory ops,
 * ce.c copies, fills and semaphores, gr.c compute-class methods) with the
 * sim backend executing the work, as the fifo worker runs it.
 *
 * Each input starts on a reset instance with one channel the way the RM
 * layer creates it: a VA space whose root is in the FB store (VA 0..2 MiB
 * mapped by one 2 MiB PTE to FB 0x200000, as tests/unit/test_fifo.c),
 * a 64-entry GPFIFO at VA 0x1000, USERD and the error notifier in the FB
 * (or, by the first byte, in guest system memory). Then operations:
 *   0 PUSH  n16 dwords        pushbuffer dwords at the cursor, queued as
 *                             one GPFIFO entry
 *   1 GP    e0_32 e1_32       a raw GPFIFO entry
 *   2 POKE  off24 val32       a dword anywhere in the mapped 2 MiB
 *   3 BELL                    publish GP_PUT, ring the doorbell (BAR0
 *                             usermode), run the workers
 *   4 PUT   val32             a raw GP_PUT in USERD
 *   5 PTE   level8 idx16 val64  a page-table entry of the VA space
 *   6 REG   sel8 val32        a host register (doorbell with any token,
 *                             MMU invalidate, TIME)
 *   7 SYS   off16 len8 data   guest system memory
 * The workers run after the input's last operation as well.
 */
#include "harness.h"
#include "engine/engine.h"

#define ARENA_BYTES	(64u * 1024)
#define CLIENT		0xc1e00001
#define HDEVICE		0x1
#define HCHAN		0x2
#define PD4		0x10000ULL
#define VA_PA		0x200000ULL
#define GPFIFO_VA	0x1000ULL
#define GP_ENTRIES	64
#define PB_VA		0x10000ULL
#define PB_END		0x100000ULL
#define USERD_PA	0x300000ULL
#define ERRNOT_PA	0x5000ULL
#define CHID		3
#define RUNLIST		1
#define USERMODE_DOORBELL	0xbb0090

static struct vgsp_dev *dev;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	dev = fz_dev_create(ARENA_BYTES);
	return 0;
}

static void fb32(u64 pa, u32 v)
{
	u8 b[4];

	vgsp_put32(b, 0, v);
	vgsp_fb_write(dev, pa, b, 4);
}

static void fb64(u64 pa, u64 v)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	vgsp_fb_write(dev, pa, b, 8);
}

static struct {
	bool sys_userd;
	u32 gp_put;
	u64 pb_cur;
} S;

static void userd_put(u32 v)
{
	u8 b[4];

	vgsp_put32(b, 0, v);
	if (S.sys_userd)
		memcpy(fz_mem + VGSP_USERD_GP_PUT, b, 4);
	else
		vgsp_fb_write(dev, USERD_PA + VGSP_USERD_GP_PUT, b, 4);
}

static void make_channel(u8 mode)
{
	struct vgsp_chan_desc d = {
		.client = CLIENT, .handle = HCHAN, .parent = HDEVICE,
		.hdevice = HDEVICE, .chid = CHID, .runlist = RUNLIST,
		.engine_type = mode & 2 ? 1 : 9, .gpfifo_va = GPFIFO_VA,
		.gpfifo_entries = GP_ENTRIES,
		.userd_pa = USERD_PA, .userd_target = VGSP_MEM_VID,
		.errnot_pa = ERRNOT_PA, .errnot_target = VGSP_MEM_VID,
		.has_errnot = !(mode & 4),
	};
	unsigned int i;

	S.sys_userd = mode & 1;
	if (S.sys_userd) {
		d.userd_pa = FZ_ARENA_IOVA;
		d.userd_target = VGSP_MEM_SYS;
		d.errnot_pa = FZ_ARENA_IOVA + 0x1000;
		d.errnot_target = VGSP_MEM_SYS;
	}
	vgsp_dev_lock(dev);
	for (i = 0; i < 4; i++)
		fb64(PD4 + 0x1000 * i, (PD4 + 0x1000 * (i + 1)) | 2);
	fb64(PD4 + 0x4000, VA_PA | 1);
	if (vgsp_rm_vas_set_pd(dev, CLIENT, HDEVICE, 0, PD4, VGSP_MEM_VID) ||
	    vgsp_fifo_chan_alloc(dev, &d))
		abort();
	vgsp_dev_unlock(dev);
}

static void doorbell(u32 token)
{
	vgsp_dev_bar_write(dev, VGSP_BAR0, USERMODE_DOORBELL, &token, 4);
	fz_run_workers(16);
}

static const u32 host_regs[] = {
	USERMODE_DOORBELL, 0xb830a0, 0xb830a4, 0xb830b0, 0xbb0080, 0xbb0084,
	0xb83000, 0xb83008, 0xb8300c,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u32 pb[4096];
	struct fz_in in = { data, size };
	unsigned int steps = 0, i;
	u32 token = RUNLIST << 16 | CHID;

	vgsp_dev_reset(dev);
	memset(fz_mem, 0, fz_mem_size);
	fz_bus_master(dev);
	S.gp_put = 0;
	S.pb_cur = PB_VA;
	make_channel(fz_u8(&in));

	while (fz_more(&in) && steps++ < 128) {
		u8 op = fz_u8(&in);
		u32 n, v;
		u64 e;

		vgsp_dev_lock(dev);
		switch (op % 8) {
		case 0:
			n = fz_u16(&in) % VGSP_ARRAY_SIZE(pb);
			if (n > in.n / 4 + 1)
				n = (u32)(in.n / 4 + 1);
			for (i = 0; i < n; i++)
				pb[i] = fz_u32(&in);
			if (S.pb_cur + 4ULL * n > PB_END)
				S.pb_cur = PB_VA;
			vgsp_fb_write(dev, VA_PA + S.pb_cur, pb, 4 * n);
			fb32(VA_PA + GPFIFO_VA + 8ULL * S.gp_put, (u32)S.pb_cur);
			fb32(VA_PA + GPFIFO_VA + 8ULL * S.gp_put + 4, n << 10);
			S.gp_put = (S.gp_put + 1) % GP_ENTRIES;
			S.pb_cur += 4ULL * n;
			break;
		case 1:
			fb32(VA_PA + GPFIFO_VA + 8ULL * S.gp_put, fz_u32(&in));
			fb32(VA_PA + GPFIFO_VA + 8ULL * S.gp_put + 4,
			     fz_u32(&in));
			S.gp_put = (S.gp_put + 1) % GP_ENTRIES;
			break;
		case 2:
			e = fz_uint(&in, 3) & 0x1ffffc;
			fb32(VA_PA + e, fz_u32(&in));
			break;
		case 3:
			userd_put(S.gp_put);
			vgsp_dev_unlock(dev);
			doorbell(token);
			continue;
		case 4:
			userd_put(fz_u32(&in));
			break;
		case 5:
			v = fz_u8(&in) % 5;
			n = fz_u16(&in);
			e = fz_u64(&in);
			fb64(PD4 + 0x1000 * v + (n % (v == 4 ? 256 : 512)) *
			     (v == 4 ? 16 : 8), e);
			break;
		case 6:
			v = fz_u8(&in);
			n = fz_u32(&in);
			vgsp_dev_unlock(dev);
			vgsp_dev_bar_write(dev, VGSP_BAR0, host_regs[v %
					   VGSP_ARRAY_SIZE(host_regs)], &n, 4);
			fz_run_workers(16);
			continue;
		case 7:
			n = (fz_u16(&in) * 4U) % ARENA_BYTES;
			v = fz_u8(&in);
			if (n + v > ARENA_BYTES)
				v = ARENA_BYTES - n;
			fz_bytes(&in, fz_mem + n, v);
			break;
		}
		vgsp_dev_unlock(dev);
	}
	vgsp_dev_lock(dev);
	userd_put(S.gp_put);
	vgsp_dev_unlock(dev);
	doorbell(token);
	fz_show_all(dev);
	return 0;
}
