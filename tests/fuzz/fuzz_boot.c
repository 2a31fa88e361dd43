// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target over the GSP boot chain a guest hands the device: the
 * FSP COT packet contents (written through EMEM, with its length and the
 * queue head/tail), the boot parameters it points at (the FMC arguments),
 * the LibOS memory-region table, the RM arguments (shared region address,
 * page count, queue offsets), the shared region's own page table and the
 * queue headers; then the first messages through the queues that chain
 * found.
 *
 * Each input starts on a reset instance with guest memory laid out the way
 * tests/replay/replay.c (build_memory, after OpenRM's GspMsgQueuesInit)
 * lays it out, then applies the input's operations before and during the
 * boot:
 *   0 ARENA  page8 off16 len8 data   bytes into a guest-memory page
 *   1 ARENA64 page8 off9 val64       one aligned 64-bit field of a page
 *   2 SHM    off24 val64             8 bytes at a shared-region offset
 *                                    (the page table, the queue headers)
 *   3 PKT    idx8 val32              a dword of the COT packet
 *   4 LEN    ndw16 tail32 head32     EMEM words written, queue tail/head
 *   5 BOOT                           send the COT packet (FSP handshake)
 *   6 START                          FALCON_OS (the GSP starts, finds its
 *                                    queues), doorbell
 *   7 ELEM   fn32 len16 data         a well-formed queue element (RPC)
 *   8 REG    idx8 val32              a GSP/FSP register write
 *   9 DRAIN                          the guest consumes the status queue
 * An input that never says BOOT/START gets both at its end.
 */
#include "harness.h"
#include "../replay/replay.c"

static struct vgsp_dev *dev;
static struct rp_client *client;

static uint32_t t_rd32(void *ctx, uint32_t off)
{
	u32 v = 0;

	vgsp_dev_bar_read(dev, VGSP_BAR0, off, &v, 4);
	return v;
}
static void t_wr32(void *ctx, uint32_t off, uint32_t v)
{
	vgsp_dev_bar_write(dev, VGSP_BAR0, off, &v, 4);
	fz_run_workers(16);
}
static int t_alloc(void *ctx, size_t size, void **va, uint64_t *iova)
{
	if (size > fz_mem_size)
		return -ENOMEM;
	*va = fz_mem;
	*iova = FZ_ARENA_IOVA;
	return 0;
}
static int t_wait(void *ctx, unsigned int ms) { return ms ? 0 : -ETIMEDOUT; }
static uint64_t t_now(void *ctx) { return fz_now(); }
static int t_reset(void *ctx) { vgsp_dev_reset(dev); return 0; }
static int t_bus_master(void *ctx) { fz_bus_master(dev); return 0; }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static struct rp_transport t = {
		.rd32 = t_rd32, .wr32 = t_wr32, .mem_alloc = t_alloc,
		.wait_irq = t_wait, .now_ns = t_now, .reset = t_reset,
		.bus_master = t_bus_master,
	};

	dev = fz_dev_create((size_t)A_TOTAL * PAGE);
	client = rp_new(&t);
	if (!client)
		abort();
	return 0;
}

static const u32 regs[] = {
	GSP_QUEUE_HEAD0, GSP_IRQSCLR, GSP_MAILBOX0, GSP_FALCON_OS,
	GSP_RISCV_CPUCTL, GSP_ENGINE, FSP_EMEMC0, FSP_EMEMD0, FSP_QUEUE_HEAD0,
	FSP_QUEUE_TAIL0, FSP_MSGQ_HEAD0, FSP_MSGQ_TAIL0, INTR_LEAF(2),
	INTR_LEAF_EN_SET(2), INTR_TOP_EN_SET,
};

/* The COT packet as fsp_cot() builds it. */
static struct {
	uint8_t pkt[8 + 860];
	uint32_t ndw, tail, head;
	bool booted, started;
} B;

static void cot_default(struct rp_client *c)
{
	memset(&B, 0, sizeof(B));
	put32(B.pkt, 0, 1u << 31 | 1u << 30);
	put32(B.pkt, 4, 0x7e | 0x10de << 8 | 0x14u << 24);
	B.pkt[8] = 1;
	B.pkt[10] = 860 & 0xff;
	B.pkt[11] = 860 >> 8;
	put64(B.pkt, 8 + 4, aiova(c, A_FMC_IMAGE));
	put64(B.pkt, 8 + 24, 0x100000);
	put32(B.pkt, 8 + 32, 0x100000);
	put64(B.pkt, 8 + 852, aiova(c, A_FMC));
	B.ndw = sizeof(B.pkt) / 4;
	B.tail = B.ndw * 4 - 4;
	B.head = 0;
}

static void cot_send(struct rp_client *c)
{
	uint32_t i, head, tail, n;

	B.booted = true;
	wr(c, FSP_EMEMC0, 1u << 24);
	for (i = 0; i < B.ndw && i < 512; i++)
		wr(c, FSP_EMEMD0, i < sizeof(B.pkt) / 4 ? get32(B.pkt, i * 4) :
		   0);
	wr(c, FSP_QUEUE_TAIL0, B.tail);
	wr(c, FSP_QUEUE_HEAD0, B.head);
	/* read the response back as the driver does, whatever it says */
	head = rd(c, FSP_MSGQ_HEAD0);
	tail = rd(c, FSP_MSGQ_TAIL0);
	wr(c, FSP_EMEMC0, head | 1u << 25);
	n = (tail - head + 4) / 4;
	for (i = 0; i < n && i < 64; i++)
		rd(c, FSP_EMEMD0);
	wr(c, FSP_MSGQ_TAIL0, head);
}

static void gsp_start(struct rp_client *c)
{
	B.started = true;
	rd(c, GSP_HWCFG2);
	wr(c, GSP_FALCON_OS, APP_VERSION);
	rd(c, GSP_RISCV_CPUCTL);
	wr(c, GSP_QUEUE_HEAD0, 0);
}

/* One queue element at the guest's write pointer; no waiting for room. */
static void element(struct rp_client *c, uint32_t fn, struct fz_in *in)
{
	uint32_t len = fz_u16(in) % (RPC_MAX - RPC_HDR + 1);
	uint32_t rlen = RPC_HDR + len, total = ELEM_HDR + rlen;
	uint32_t elems = (total + PAGE - 1) / PAGE, k;

	memset(c->msg, 0, (size_t)elems * PAGE);
	put32(c->msg, 0x24, c->cmd_seq);
	put32(c->msg, 0x28, elems);
	put32(c->msg, ELEM_HDR + 0x00, 0x03000000);
	put32(c->msg, ELEM_HDR + 0x04, 0x43505256);
	put32(c->msg, ELEM_HDR + 0x08, rlen);
	put32(c->msg, ELEM_HDR + 0x0c, fn);
	fz_bytes(in, c->msg + ELEM_HDR + RPC_HDR, len);
	put32(c->msg, 0x20, checksum(c->msg, (total + 7) & ~7u));
	for (k = 0; k < elems; k++)
		shm_write(c, CMDQ_OFF + PAGE + ((c->cmd_wptr + k) % MSG_COUNT) *
			  PAGE, c->msg + k * PAGE, PAGE);
	c->cmd_wptr = (c->cmd_wptr + elems) % MSG_COUNT;
	c->cmd_seq++;
	shm_w32(c, CMDQ_OFF + 0x10, c->cmd_wptr);
	wr(c, GSP_QUEUE_HEAD0, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rp_client *c = client;
	struct fz_in in = { data, size };
	unsigned int steps = 0;
	uint8_t tmp[256];

	vgsp_dev_reset(dev);
	fz_bus_master(dev);
	build_memory(c);
	cot_default(c);

	while (fz_more(&in) && steps++ < 128) {
		uint8_t op = fz_u8(&in);
		uint32_t page, off, len;

		switch (op % 10) {
		case 0:
			page = fz_u8(&in) % A_TOTAL;
			off = fz_u16(&in) % PAGE;
			len = fz_u8(&in);
			if (off + len > PAGE)
				len = PAGE - off;
			fz_bytes(&in, tmp, len);
			memcpy(apage(c, page) + off, tmp, len);
			break;
		case 1:
			page = fz_u8(&in) % A_TOTAL;
			off = (fz_u16(&in) % (PAGE / 8)) * 8;
			put64(apage(c, page), off, fz_u64(&in));
			break;
		case 2:
			off = (uint32_t)fz_uint(&in, 3) % (SHM_PAGES * PAGE - 8);
			put64(tmp, 0, fz_u64(&in));
			shm_write(c, off, tmp, 8);
			break;
		case 3:
			off = fz_u8(&in) % (sizeof(B.pkt) / 4);
			put32(B.pkt, off * 4, fz_u32(&in));
			break;
		case 4:
			B.ndw = fz_u16(&in);
			B.tail = fz_u32(&in);
			B.head = fz_u32(&in);
			break;
		case 5:
			cot_send(c);
			break;
		case 6:
			gsp_start(c);
			break;
		case 7:
			element(c, fz_u32(&in), &in);
			break;
		case 8:
			off = fz_u8(&in);
			wr(c, regs[off % VGSP_ARRAY_SIZE(regs)], fz_u32(&in));
			break;
		case 9:
			c->stat_rptr = shm32(c, STATQ_OFF + 0x10) % MSG_COUNT;
			shm_w32(c, CMDQ_OFF + 0x20, c->stat_rptr);
			wr(c, GSP_QUEUE_HEAD0, 0);
			break;
		}
	}
	if (!B.booted)
		cot_send(c);
	if (!B.started)
		gsp_start(c);
	fz_show_all(dev);
	return 0;
}
