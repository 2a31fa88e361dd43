// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target over the emulated GSP's queue and RPC decoders.
 *
 * Each input runs on a freshly reset instance: the replay client boots it
 * the way OpenRM does (so the fuzzer starts past the FSP handshake with
 * linked queues), then the input is a program of operations:
 *   0 RAW   len16 bytes   raw element(s) into the command queue
 *   1 RPC   fn32 len16 bytes   well-formed element (checksum, seq) with a
 *                              fuzzed RPC payload
 *   2 HDR   off8 val32    overwrite a command-queue header field
 *   3 BELL  n8            ring the doorbell n times
 *   4 REG   idx8 val32    write a GSP/FSP/interrupt register
 *   5 DRAIN               the guest consumes all status messages
 *   6 LARGE fn32 total32 bytes   a large RPC: first part of maxRpcSize,
 *                              CONTINUATION_RECORDs; total (< 256 KiB)
 *                              and the record count (byte 3 of fn32 as
 *                              int8: < 0 all, else at most that many)
 *                              fuzzed; payload zero-padded
 * RPC (1) lengths run up to maxRpcSize (a full-size RPC starts a large
 * one), with the payload zero-padded past the input's end.
 * The worker runs synchronously after every operation (a custom OS seam),
 * so a crash reproduces from the input alone.
 */
#include "harness.h"
#include "gsp/gsp_priv.h"
#include "../replay/replay.c"

/* Run the workers until they have nothing left (bounded). */
static void run_worker(void)
{
	fz_run_workers(64);
}

static struct {
	struct vgsp_dev *dev;
	struct rp_transport t;
} F;

static uint32_t t_rd32(void *ctx, uint32_t off)
{
	u32 v = 0;

	vgsp_dev_bar_read(F.dev, VGSP_BAR0, off, &v, 4);
	return v;
}
static void t_wr32(void *ctx, uint32_t off, uint32_t v)
{
	vgsp_dev_bar_write(F.dev, VGSP_BAR0, off, &v, 4);
	run_worker();
}
static int t_alloc(void *ctx, size_t size, void **va, uint64_t *iova)
{
	if (size > fz_mem_size)
		return -ENOMEM;
	*va = fz_mem;
	*iova = FZ_ARENA_IOVA;
	return 0;
}
/* Synchronous device: an armed interrupt has always fired already. */
static int t_wait(void *ctx, unsigned int ms) { return ms ? 0 : -ETIMEDOUT; }
/*
 * The client's clock: 1 ms per reading. The device is synchronous, so a
 * wait that is not over at once never will be (a queue the input broke):
 * the client's 10 s timeouts then cost 10 000 polls, not 10 s.
 */
static uint64_t t_now(void *ctx)
{
	static uint64_t t;

	return t += 1000000;
}
static int t_reset(void *ctx) { vgsp_dev_reset(F.dev); return 0; }
static int t_bus_master(void *ctx)
{
	static const u8 cmd[2] = { 0x06, 0 };	/* memory + bus master */

	return vgsp_dev_cfg_write(F.dev, 4, cmd, 2);
}

static const u32 fuzz_regs[] = {
	0x110000, 0x110004, 0x110010, 0x110014, 0x110040, 0x110100,
	0x1103c0, 0x1103e8, 0x110c00, 0x8f2ac0, 0x8f2ac4, 0x8f2c00,
	0x8f2c04, 0x8f2c80, 0x8f2c84, 0xb81000, 0xb81010, 0xb81200,
	0xb81210, 0xb81400, 0xb81608, 0xb81610, 0xb81640,
};

static struct rp_client *client;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const u8 uuid[16] = { 0xf0, 0x22, 0x33 };

	F.dev = fz_dev_create((size_t)A_TOTAL * PAGE);
	F.t = (struct rp_transport){
		.rd32 = t_rd32, .wr32 = t_wr32, .mem_alloc = t_alloc,
		.wait_irq = t_wait, .now_ns = t_now, .reset = t_reset,
		.bus_master = t_bus_master,
	};
	memcpy(F.t.uuid, uuid, 16);
	client = rp_new(&F.t);
	if (!client)
		abort();
	return 0;
}

static const u8 *take(const u8 **p, size_t *n, size_t want)
{
	const u8 *r = *p;

	if (*n < want)
		return NULL;
	*p += want;
	*n -= want;
	return r;
}

/*
 * @len bytes of input in a buffer of their own; input shorter than that
 * is zero-padded, so a short input still reaches large sizes.
 */
static u8 large[RPC_HDR + 0x40000];

static const u8 *padded(const u8 **p, size_t *n, u32 len)
{
	static u8 buf[sizeof(large)];
	u32 have = len < *n ? len : (u32)*n;

	memcpy(buf, *p, have);
	memset(buf + have, 0, len - have);
	*p += have;
	*n -= have;
	return buf;
}

static void raw_element(const u8 *b, u32 len)
{
	struct rp_client *c = client;
	u32 slots = (len + PAGE - 1) / PAGE, k;

	if (!slots)
		return;
	memset(c->msg, 0, (size_t)slots * PAGE);
	memcpy(c->msg, b, len);
	for (k = 0; k < slots; k++)
		shm_write(c, CMDQ_OFF + PAGE + ((c->cmd_wptr + k) % MSG_COUNT) *
			  PAGE, c->msg + k * PAGE, PAGE);
	c->cmd_wptr = (c->cmd_wptr + slots) % MSG_COUNT;
	shm_w32(c, CMDQ_OFF + 0x10, c->cmd_wptr);
	t_wr32(NULL, GSP_QUEUE_HEAD0, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rp_client *c = client;
	const u8 *op;
	unsigned int steps = 0;
	u32 len;

	vgsp_dev_reset(F.dev);
	c->tr.len = 0;
	if (rp_boot(c))
		abort();	/* a clean boot must always work */

	while ((op = take(&data, &size, 1)) && steps++ < 64) {
		const u8 *a, *b;

		switch (*op % 7) {
		case 0:
			a = take(&data, &size, 2);
			if (!a)
				break;
			len = (a[0] | a[1] << 8) % (MSG_MAX + 1);
			if (len > size)
				len = (u32)size;
			b = take(&data, &size, len);
			raw_element(b, len);
			break;
		case 1:
			a = take(&data, &size, 6);
			if (!a)
				break;
			/* up to maxRpcSize: a full-size RPC starts a large one */
			len = (a[4] | a[5] << 8) % (RPC_MAX - RPC_HDR + 1);
			send_rpc(c, get32(a, 0) % 256, padded(&data, &size, len),
				 len, 0, &no_tamper);
			run_worker();
			break;
		case 6:
			/*
			 * A large RPC the way _issueRpcLarge sends it: the
			 * first maxRpcSize bytes, then CONTINUATION_RECORDs;
			 * total and record count fuzzed (a short count leaves
			 * the sequence broken).
			 */
			a = take(&data, &size, 8);
			if (!a)
				break;
			len = RPC_HDR + (get32(a, 4) & 0x3ffff);
			b = padded(&data, &size, len);
			memcpy(large, b, len);
			put32(large, 0x00, 0x03000000);
			put32(large, 0x04, 0x43505256);
			put32(large, 0x0c, get32(a, 0) % 256);
			send_large(c, large, len, (int8_t)a[3]);
			run_worker();
			break;
		case 2:
			a = take(&data, &size, 5);
			if (a)
				shm_w32(c, CMDQ_OFF + (a[0] % 0x24 & ~3u),
					get32(a, 1));
			break;
		case 3:
			a = take(&data, &size, 1);
			for (len = 0; a && len < a[0]; len++)
				t_wr32(NULL, GSP_QUEUE_HEAD0, 0);
			break;
		case 4:
			a = take(&data, &size, 5);
			if (a)
				t_wr32(NULL, fuzz_regs[a[0] %
					VGSP_ARRAY_SIZE(fuzz_regs)],
				       get32(a, 1));
			break;
		case 5:
			c->stat_rptr = shm32(c, STATQ_OFF + 0x10) % MSG_COUNT;
			shm_w32(c, CMDQ_OFF + 0x20, c->stat_rptr);
			break;
		}
		run_worker();
	}
	/* Whatever happened, every view still prints. */
	fz_show_all(F.dev);
	return 0;
}
