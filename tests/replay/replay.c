// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Guest-driver replay client (see replay.h). Memory layout, queue
 * protocol and boot order follow OpenRM 535.261.03 on GH100:
 * GspMsgQueuesInit (non-contiguous shared region + page table),
 * kgspBootstrapRiscvOSEarly_GH100 (queue 72/73, FSP COT, lockdown release,
 * RISC-V active), GspStatusQueueInit, kgspWaitForRmInitDone, then the
 * synchronous RPCs of kgspInitRm and CPU-RM state init.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay.h"

/* ---- layout constants (gsp-protocol.md §B.6, §C, §D, §E) ---- */
#define PAGE			0x1000u
#define SHM_PAGES		129u	/* 1 page table + 2 x 64 queue pages */
#define CMDQ_OFF		0x1000u
#define QUEUE_SIZE		0x40000u
#define STATQ_OFF		(CMDQ_OFF + QUEUE_SIZE)
#define MSG_COUNT		((QUEUE_SIZE - PAGE) / PAGE)	/* 63 */
#define ELEM_HDR		0x30u
#define RPC_HDR			0x20u
#define MSG_MAX			(16u * PAGE)
#define RPC_MAX			(MSG_MAX - ELEM_HDR)	/* maxRpcSize 0xffd0 */

/* arena pages */
enum { A_LIBOS, A_RMARGS, A_FMC, A_WPR, A_LOGINIT, A_LOGINTR, A_LOGRM,
       A_FMC_IMAGE, A_SHM, A_TOTAL = A_SHM + SHM_PAGES };

/* BAR0 */
#define PMC_BOOT_0		0x000000
#define PMC_BOOT_42		0x000a00
#define FSP_BOOT_COMPLETE	0x0200bc
#define GSP_FLCN		0x110000
#define GSP_IRQSCLR		(GSP_FLCN + 0x004)
#define GSP_IRQSTAT		(GSP_FLCN + 0x008)
#define GSP_MAILBOX0		(GSP_FLCN + 0x040)
#define GSP_FALCON_OS		(GSP_FLCN + 0x080)
#define GSP_HWCFG2		(GSP_FLCN + 0x0f4)
#define GSP_ENGINE		(GSP_FLCN + 0x3c0)
#define GSP_QUEUE_HEAD0		0x110c00
#define GSP_RISCV_CPUCTL	0x111388
#define FSP_EMEMC0		0x8f2ac0
#define FSP_EMEMD0		0x8f2ac4
#define FSP_QUEUE_HEAD0		0x8f2c00
#define FSP_QUEUE_TAIL0		0x8f2c04
#define FSP_MSGQ_HEAD0		0x8f2c80
#define FSP_MSGQ_TAIL0		0x8f2c84
#define INTR_LEAF(i)		(0xb81000 + 4 * (i))
#define INTR_LEAF_EN_SET(i)	(0xb81200 + 4 * (i))
#define INTR_TOP_EN_SET		0xb81608

#define APP_VERSION		0x0535261u	/* written to FALCON_OS */
#define HWCFG2_LOCKDOWN		(1u << 13)

/* RPC functions / events / controls (535) */
#define FN_SET_GUEST_SYSTEM_INFO	1
#define FN_FREE				10
#define FN_UNLOADING_GUEST_DRIVER	47
#define FN_GET_GSP_STATIC_INFO		65
#define FN_CONTINUATION_RECORD		71
#define FN_GSP_SET_SYSTEM_INFO		72
#define FN_SET_REGISTRY			73
#define FN_GSP_RM_CONTROL		76
#define FN_GSP_RM_ALLOC			103
#define EV_GSP_INIT_DONE		0x1001
#define CTRL_INTR_GET_KERNEL_TABLE	0x20800a5cu
#define CTRL_GET_SMC_MODE		0x20800a4cu
#define CTRL_FIFO_GET_NUM_CHANNELS	0x20800a61u
#define CTRL_COHERENT_FB_APERTURE	0x20800adau
#define CTRL_BUS_FLUSH_SYSMEMBAR	0x20800a70u
#define CTRL_GPU_GET_CHIP_INFO		0x20800a36u
#define CTRL_GET_DEVICE_INFO_TABLE	0x20800a40u
#define CTRL_FIFO_GET_DEVICE_INFO_TABLE	0x20801112u
#define CTRL_UNSUPPORTED		0x20800a63u	/* KMIGMGR_GET_PROFILES */
#define CTRL_GPU_GET_NAME_STRING	0x20800110u
#define CTRL_GPU_GET_SHORT_NAME		0x20800111u
#define CTRL_GPU_GET_GID_INFO		0x2080014au

#define TIMEOUT_MS		10000
#define H_CLIENT		0xc1d00001u
#define H_DEVICE		0xde1d0001u
#define H_SUBDEVICE		0x5d1d0001u

struct rp_client {
	const struct rp_transport *t;
	struct rp_transcript tr;
	uint8_t *arena;
	uint64_t arena_iova;
	uint32_t cmd_wptr, cmd_seq;
	uint32_t stat_rptr, stat_seq;
	/* the last RPC: doorbell written, reply's header first seen */
	uint64_t t_doorbell, t_reply;
	uint32_t irq_vector;
	bool irq_on;
	uint32_t h_client, h_device, h_subdevice;	/* GSP-RM internal */
	uint8_t msg[MSG_MAX];
	uint8_t rep[MSG_MAX];
	uint32_t rep_len;	/* RPC length of the last reply */
	int errors;
};

/* ---- little helpers ---- */

static uint32_t get32(const uint8_t *b, uint32_t o)
{
	uint32_t v;

	memcpy(&v, b + o, 4);
	return v;
}

static uint64_t get64(const uint8_t *b, uint32_t o)
{
	uint64_t v;

	memcpy(&v, b + o, 8);
	return v;
}

static void put32(uint8_t *b, uint32_t o, uint32_t v)
{
	memcpy(b + o, &v, 4);
}

static void put64(uint8_t *b, uint32_t o, uint64_t v)
{
	memcpy(b + o, &v, 8);
}

static void T(struct rp_client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void T(struct rp_client *c, const char *fmt, ...)
{
	struct rp_transcript *tr = &c->tr;
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(tr->buf + tr->len, tr->cap - tr->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n + 2 < tr->cap - tr->len)
			break;
		tr->cap = tr->cap * 2 + (size_t)n + 64;
		tr->buf = realloc(tr->buf, tr->cap);
		if (!tr->buf)
			abort();
	}
	tr->len += (size_t)n;
	tr->buf[tr->len++] = '\n';
	tr->buf[tr->len] = '\0';
}

static void bad(struct rp_client *c, const char *what)
{
	c->errors++;
	T(c, "ERROR %s", what);
}

static uint32_t rd(struct rp_client *c, uint32_t off)
{
	return c->t->rd32(c->t->ctx, off);
}

static void wr(struct rp_client *c, uint32_t off, uint32_t v)
{
	c->t->wr32(c->t->ctx, off, v);
}

static uint64_t now(struct rp_client *c)
{
	return c->t->now_ns(c->t->ctx);
}

static void fence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Poll BAR0 until (reg & mask) == val. */
static bool poll_reg(struct rp_client *c, uint32_t off, uint32_t mask,
		     uint32_t val)
{
	uint64_t end = now(c) + TIMEOUT_MS * 1000000ull;

	while ((rd(c, off) & mask) != val) {
		if (now(c) > end)
			return false;
		sched_yield();
	}
	return true;
}

/* ---- guest memory ---- */

static uint8_t *apage(struct rp_client *c, unsigned int i)
{
	return c->arena + (size_t)i * PAGE;
}

static uint64_t aiova(struct rp_client *c, unsigned int i)
{
	return c->arena_iova + (uint64_t)i * PAGE;
}

/* OpenRM allocates the region page by page: scatter it over the arena. */
static unsigned int shm_arena_page(unsigned int page)
{
	return A_SHM + (page * 37u) % SHM_PAGES;
}

static uint8_t *shm(struct rp_client *c, uint32_t off)
{
	return apage(c, shm_arena_page(off / PAGE)) + off % PAGE;
}

static void shm_write(struct rp_client *c, uint32_t off, const void *src,
		      uint32_t len)
{
	const uint8_t *s = src;

	while (len) {
		uint32_t n = PAGE - off % PAGE;

		if (n > len)
			n = len;
		memcpy(shm(c, off), s, n);
		off += n;
		s += n;
		len -= n;
	}
}

static void shm_read(struct rp_client *c, uint32_t off, void *dst,
		     uint32_t len)
{
	uint8_t *d = dst;

	while (len) {
		uint32_t n = PAGE - off % PAGE;

		if (n > len)
			n = len;
		memcpy(d, shm(c, off), n);
		off += n;
		d += n;
		len -= n;
	}
}

static uint32_t shm32(struct rp_client *c, uint32_t off)
{
	uint32_t v;

	fence();
	shm_read(c, off, &v, 4);
	return v;
}

static void shm_w32(struct rp_client *c, uint32_t off, uint32_t v)
{
	shm_write(c, off, &v, 4);
	fence();
}

static void id8(uint8_t *e, const char *s, uint64_t pa, uint64_t size)
{
	uint64_t v = 0;

	while (*s)
		v = v << 8 | (uint8_t)*s++;
	put64(e, 0x00, v);
	put64(e, 0x08, pa);
	put64(e, 0x10, size);
	e[0x18] = 1;		/* CONTIGUOUS */
	e[0x19] = 1;		/* SYSMEM */
}

/* Boot arguments, page table and empty queues, as GspMsgQueuesInit. */
static void build_memory(struct rp_client *c)
{
	uint8_t *p, h[0x20];
	unsigned int i;

	memset(c->arena, 0, (size_t)A_TOTAL * PAGE);

	p = apage(c, A_LIBOS);
	id8(p + 0x00, "LOGINIT", aiova(c, A_LOGINIT), PAGE);
	id8(p + 0x20, "LOGINTR", aiova(c, A_LOGINTR), PAGE);
	id8(p + 0x40, "LOGRM", aiova(c, A_LOGRM), PAGE);
	id8(p + 0x60, "RMARGS", aiova(c, A_RMARGS), PAGE);

	p = apage(c, A_RMARGS);
	put64(p, 0x00, aiova(c, shm_arena_page(0)));
	put32(p, 0x08, SHM_PAGES);
	put64(p, 0x10, CMDQ_OFF);
	put64(p, 0x18, STATQ_OFF);

	p = apage(c, A_FMC);
	put32(p, 0x08, 1);			/* coherent sysmem */
	put32(p, 0x0c, 256);
	put64(p, 0x10, aiova(c, A_WPR));
	p[0x24] = 1;				/* bIsGspRmBoot */
	put32(p, 0x28, 1);
	put64(p, 0x30, aiova(c, A_LIBOS));

	p = apage(c, A_WPR);
	put64(p, 0x00, 0xdc3aae21371a60b3ull);
	put64(p, 0x08, 1);

	for (i = 0; i < SHM_PAGES; i++) {
		uint64_t pa = aiova(c, shm_arena_page(i));

		shm_write(c, i * 8, &pa, 8);
	}

	memset(h, 0, sizeof(h));
	put32(h, 0x04, QUEUE_SIZE);
	put32(h, 0x08, PAGE);
	put32(h, 0x0c, MSG_COUNT);
	put32(h, 0x10, 0);
	put32(h, 0x14, 1);			/* SWAP_RX */
	put32(h, 0x18, 0x20);
	put32(h, 0x1c, PAGE);
	shm_write(c, CMDQ_OFF, h, sizeof(h));
	fence();

	c->cmd_wptr = c->cmd_seq = 0;
	c->stat_rptr = c->stat_seq = 0;
	c->irq_on = false;
}

/* ---- command queue ---- */

static uint32_t checksum(const uint8_t *b, uint32_t len)
{
	uint64_t x = 0;
	uint32_t i;

	for (i = 0; i + 8 <= len; i += 8)
		x ^= get64(b, i);
	return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

/* Mutations the bad-input suite applies to one message. */
struct tamper {
	bool bad_checksum;
	bool bad_signature;
	int elem_count;		/* >= 0: override elemCount */
	int64_t length;		/* >= 0: override RPC length */
	uint32_t publish;	/* slots to publish (0 = elemCount) */
};

static const struct tamper no_tamper = { .elem_count = -1, .length = -1 };

/*
 * Queue one RPC. @len is the header length field (payload + 0x20); @extra
 * bytes of payload beyond it travel in the same slot (GSP_RM_ALLOC quirk).
 */
static int send_rpc(struct rp_client *c, uint32_t fn, const void *payload,
		    uint32_t len, uint32_t extra, const struct tamper *tp)
{
	uint32_t rlen = RPC_HDR + len, total = ELEM_HDR + rlen + extra;
	uint32_t elems = (total + PAGE - 1) / PAGE, k, gsp_rptr, free_slots;
	uint32_t cks_len = (ELEM_HDR + rlen + 7) & ~7u;
	uint64_t end = now(c) + TIMEOUT_MS * 1000000ull;

	if (total > MSG_MAX)
		return -EINVAL;
	memset(c->msg, 0, (size_t)elems * PAGE);
	put32(c->msg, 0x24, c->cmd_seq);
	put32(c->msg, 0x28, tp->elem_count >= 0 ? (uint32_t)tp->elem_count :
		      elems);
	put32(c->msg, ELEM_HDR + 0x00, 0x03000000);
	put32(c->msg, ELEM_HDR + 0x04, tp->bad_signature ? 0x12345678 :
		      0x43505256);
	put32(c->msg, ELEM_HDR + 0x08, tp->length >= 0 ? (uint32_t)tp->length :
		      rlen);
	put32(c->msg, ELEM_HDR + 0x0c, fn);
	put32(c->msg, ELEM_HDR + 0x10, 0xffffffff);
	put32(c->msg, ELEM_HDR + 0x14, 0xffffffff);
	memcpy(c->msg + ELEM_HDR + RPC_HDR, payload, len + extra);
	if (cks_len > elems * PAGE)
		cks_len = elems * PAGE;
	put32(c->msg, 0x20, checksum(c->msg, cks_len) ^
		      (tp->bad_checksum ? 0x5a5a : 0));

	/* Wait for room: the GSP's read pointer is in the status queue. */
	for (;;) {
		gsp_rptr = shm32(c, STATQ_OFF + 0x20);
		free_slots = gsp_rptr >= MSG_COUNT ? 0 :
			(gsp_rptr + MSG_COUNT - c->cmd_wptr - 1) % MSG_COUNT;
		if (free_slots >= elems)
			break;
		if (now(c) > end)
			return -ETIMEDOUT;
		sched_yield();
	}
	for (k = 0; k < elems; k++)
		shm_write(c, CMDQ_OFF + PAGE + ((c->cmd_wptr + k) % MSG_COUNT) *
			  PAGE, c->msg + k * PAGE, PAGE);
	fence();
	k = tp->publish ? tp->publish : elems;
	c->cmd_wptr = (c->cmd_wptr + k) % MSG_COUNT;
	shm_w32(c, CMDQ_OFF + 0x10, c->cmd_wptr);
	c->cmd_seq++;
	c->t_doorbell = now(c);
	wr(c, GSP_QUEUE_HEAD0, 0);
	return 0;
}

/* Receive one status message into c->rep; 0, -ETIMEDOUT or -EPROTO. */
static int recv_msg(struct rp_client *c, unsigned int ms, uint32_t *fn)
{
	uint64_t end = now(c) + ms * 1000000ull;
	uint32_t wptr, elems, len, k;

	while ((wptr = shm32(c, STATQ_OFF + 0x10)) == c->stat_rptr) {
		if (now(c) > end)
			return -ETIMEDOUT;
		sched_yield();
	}
	c->t_reply = now(c);
	if (wptr >= MSG_COUNT)
		return -EPROTO;
	shm_read(c, STATQ_OFF + PAGE + c->stat_rptr * PAGE, c->rep, PAGE);
	elems = get32(c->rep, 0x28);
	if (!elems || elems > 16)
		return -EPROTO;
	for (k = 1; k < elems; k++)
		shm_read(c, STATQ_OFF + PAGE +
			 ((c->stat_rptr + k) % MSG_COUNT) * PAGE,
			 c->rep + k * PAGE, PAGE);
	len = get32(c->rep, ELEM_HDR + 0x08);
	if (len < RPC_HDR || ELEM_HDR + len > elems * PAGE)
		return -EPROTO;
	/* OpenRM's checks: checksum folds to 0, seqNum strictly +1. */
	if (checksum(c->rep, (ELEM_HDR + len + 7) & ~7u))
		return -EPROTO;
	if (get32(c->rep, 0x24) != c->stat_seq)
		return -EPROTO;
	c->stat_seq++;
	c->stat_rptr = (c->stat_rptr + elems) % MSG_COUNT;
	shm_w32(c, CMDQ_OFF + 0x20, c->stat_rptr);
	c->rep_len = len;
	*fn = get32(c->rep, ELEM_HDR + 0x0c);
	return 0;
}

static const uint8_t *rep_payload(struct rp_client *c)
{
	return c->rep + ELEM_HDR + RPC_HDR;
}

static uint32_t rep_result(struct rp_client *c)
{
	return get32(c->rep, ELEM_HDR + 0x10);
}

/*
 * Wait for the reply to @fn. Events in front of it are noted. With the
 * interrupt armed, the reply must also have raised it (noted as irq=).
 */
static int wait_reply(struct rp_client *c, uint32_t fn, int *irq)
{
	uint32_t got;
	int ret;

	*irq = -1;
	if (c->irq_on) {
		*irq = c->t->wait_irq(c->t->ctx, TIMEOUT_MS) == 0;
		/* Acknowledge as kgspService: SWGEN0, then the leaf bit. */
		wr(c, GSP_IRQSCLR, 0x40);
		wr(c, INTR_LEAF(c->irq_vector / 32), 1u << (c->irq_vector % 32));
	}
	for (;;) {
		ret = recv_msg(c, TIMEOUT_MS, &got);
		if (ret)
			return ret;
		if (got == fn)
			return 0;
		T(c, "event fn=0x%x result=0x%x", got, rep_result(c));
	}
}

static const char *irq_str(int irq)
{
	return irq < 0 ? "" : irq ? " irq=1" : " irq=0";
}

/* Synchronous RPC: send, wait for the same function, note failures. */
static int rpc(struct rp_client *c, uint32_t fn, const void *payload,
	       uint32_t len, uint32_t extra, int *irq)
{
	int ret = send_rpc(c, fn, payload, len, extra, &no_tamper);

	if (!ret)
		ret = wait_reply(c, fn, irq);
	if (ret) {
		T(c, "rpc fn=%u FAILED %s", fn, ret == -ETIMEDOUT ?
		  "timeout" : "protocol");
		c->errors++;
	}
	return ret;
}

/* GSP_RM_CONTROL: params in/out; returns the control status. */
static uint32_t control(struct rp_client *c, uint32_t h_client,
			uint32_t h_object, uint32_t cmd, void *params,
			uint32_t size, int *irq)
{
	uint8_t p[0x18 + 0x1000];

	memset(p, 0, 0x18);
	put32(p, 0x00, h_client);
	put32(p, 0x04, h_object);
	put32(p, 0x08, cmd);
	put32(p, 0x0c, 0xffffffff);
	put32(p, 0x10, size);
	memcpy(p + 0x18, params, size);
	if (rpc(c, FN_GSP_RM_CONTROL, p, 0x18 + size, 0, irq))
		return 0xffffffff;
	if (rep_result(c))
		return rep_result(c);
	if (get32(rep_payload(c), 0x10) != size)
		bad(c, "control reply paramsSize");
	memcpy(params, rep_payload(c) + 0x18, size);
	return get32(rep_payload(c), 0x0c);
}

/* GSP_RM_ALLOC with 535.261.03's header length (params not counted). */
static uint32_t alloc(struct rp_client *c, uint32_t h_client,
		      uint32_t h_parent, uint32_t h_object, uint32_t cls,
		      uint32_t psize)
{
	uint8_t p[0x20 + 0x100];
	int irq;

	memset(p, 0, sizeof(p));
	put32(p, 0x00, h_client);
	put32(p, 0x04, h_parent);
	put32(p, 0x08, h_object);
	put32(p, 0x0c, cls);
	put32(p, 0x10, 0xffffffff);
	put32(p, 0x14, psize);
	if (rpc(c, FN_GSP_RM_ALLOC, p, 0x20, psize, &irq))
		return 0xffffffff;
	T(c, "alloc class=0x%04x result=0x%x status=0x%x%s", cls,
	  rep_result(c), get32(rep_payload(c), 0x10), irq_str(irq));
	return get32(rep_payload(c), 0x10);
}

static uint32_t rm_free(struct rp_client *c, uint32_t h_client,
			uint32_t h_object)
{
	uint8_t p[0x10];
	int irq;

	memset(p, 0, sizeof(p));
	put32(p, 0x00, h_client);
	put32(p, 0x08, h_object);
	if (rpc(c, FN_FREE, p, sizeof(p), 0, &irq))
		return 0xffffffff;
	T(c, "free result=0x%x status=0x%x%s", rep_result(c),
	  get32(rep_payload(c), 0x0c), irq_str(irq));
	return get32(rep_payload(c), 0x0c);
}

/* ---- boot ---- */

static int fsp_cot(struct rp_client *c)
{
	uint8_t pkt[8 + 860];
	uint32_t ndw = sizeof(pkt) / 4, i, ememc, head, tail, size;
	uint8_t resp[64];

	if (rd(c, FSP_QUEUE_HEAD0) != rd(c, FSP_QUEUE_TAIL0) ||
	    rd(c, FSP_MSGQ_HEAD0) != rd(c, FSP_MSGQ_TAIL0)) {
		bad(c, "fsp queues not empty");
		return -EBUSY;
	}
	memset(pkt, 0, sizeof(pkt));
	put32(pkt, 0, 1u << 31 | 1u << 30);		/* SOM | EOM */
	put32(pkt, 4, 0x7e | 0x10de << 8 | 0x14u << 24);	/* COT */
	pkt[8] = 1;					/* version */
	pkt[10] = 860 & 0xff;
	pkt[11] = 860 >> 8;
	put64(pkt, 8 + 4, aiova(c, A_FMC_IMAGE));	/* gspFmcSysmemOffset */
	put64(pkt, 8 + 24, 0x100000);			/* frtsVidmemOffset */
	put32(pkt, 8 + 32, 0x100000);			/* frtsVidmemSize */
	put64(pkt, 8 + 852, aiova(c, A_FMC));		/* boot params */

	wr(c, FSP_EMEMC0, 1u << 24);			/* offset 0, AINCW */
	for (i = 0; i < ndw; i++)
		wr(c, FSP_EMEMD0, get32(pkt, i * 4));
	ememc = rd(c, FSP_EMEMC0);
	if (((ememc >> 8) & 0xff) * 64 + ((ememc >> 2) & 0x3f) != ndw)
		bad(c, "EMEMC auto-increment");
	wr(c, FSP_QUEUE_TAIL0, ndw * 4 - 4);
	wr(c, FSP_QUEUE_HEAD0, 0);

	{
		uint64_t end = now(c) + TIMEOUT_MS * 1000000ull;

		while (rd(c, FSP_MSGQ_HEAD0) == rd(c, FSP_MSGQ_TAIL0)) {
			if (now(c) > end) {
				bad(c, "fsp response timeout");
				return -ETIMEDOUT;
			}
			sched_yield();
		}
	}
	head = rd(c, FSP_MSGQ_HEAD0);
	tail = rd(c, FSP_MSGQ_TAIL0);
	size = tail - head + 4;
	if (size > sizeof(resp) || size < 20) {
		bad(c, "fsp response size");
		return -EPROTO;
	}
	wr(c, FSP_EMEMC0, head | 1u << 25);		/* AINCR */
	for (i = 0; i < size / 4; i++)
		put32(resp, i * 4, rd(c, FSP_EMEMD0));
	wr(c, FSP_MSGQ_TAIL0, head);			/* ack */
	T(c, "fsp response size=%u som_eom=%u msgtype=0x%x vendor=0x%x nvdm=0x%x cmd=0x%x error=%u",
	  size, get32(resp, 0) >> 30, resp[4] & 0x7f,
	  (get32(resp, 4) >> 8) & 0xffff, resp[7], get32(resp, 12),
	  get32(resp, 16));
	return get32(resp, 16) ? -EIO : 0;
}

static int link_statq(struct rp_client *c)
{
	uint64_t end = now(c) + TIMEOUT_MS * 1000000ull;
	uint8_t h[0x20];

	for (;;) {
		fence();
		shm_read(c, STATQ_OFF, h, sizeof(h));
		/* msgqRxLink's checks */
		if (get32(h, 0x04) == QUEUE_SIZE && get32(h, 0x08) == PAGE &&
		    get32(h, 0x00) == 0 && get32(h, 0x18) >= 0x20 &&
		    get32(h, 0x1c) >= 0x24 &&
		    get32(h, 0x0c) == (QUEUE_SIZE - get32(h, 0x1c)) / PAGE)
			break;
		if (now(c) > end) {
			bad(c, "status queue header never valid");
			return -ETIMEDOUT;
		}
		sched_yield();
	}
	/* writePtr is left out: INIT_DONE may or may not be there yet. */
	T(c, "statq size=0x%x msgSize=0x%x msgCount=%u flags=0x%x rxHdrOff=0x%x entryOff=0x%x",
	  get32(h, 0x04), get32(h, 0x08), get32(h, 0x0c), get32(h, 0x14),
	  get32(h, 0x18), get32(h, 0x1c));
	shm_w32(c, CMDQ_OFF + 0x20, 0);
	return 0;
}

static void queue_prestart(struct rp_client *c)
{
	uint8_t sys[0x2a0], reg[0x40];

	/* GspSystemInfo: BAR addresses as the guest saw them (any value). */
	memset(sys, 0, sizeof(sys));
	put64(sys, 0x00, 0xf0000000ull);
	put64(sys, 0x08, 0x3800000000ull);
	put64(sys, 0x10, 0x3802000000ull);
	send_rpc(c, FN_GSP_SET_SYSTEM_INFO, sys, sizeof(sys), 0, &no_tamper);

	/* PACKED_REGISTRY_TABLE with one DWORD entry. */
	memset(reg, 0, sizeof(reg));
	put32(reg, 0x00, sizeof(reg));
	put32(reg, 0x04, 1);
	put32(reg, 0x08 + 0x00, 0x18);			/* nameOffset */
	reg[0x08 + 0x04] = 1;				/* DWORD */
	put32(reg, 0x08 + 0x08, 1);
	put32(reg, 0x08 + 0x0c, 4);
	memcpy(reg + 0x18, "RmSecBusResetEnable", 20);
	send_rpc(c, FN_SET_REGISTRY, reg, sizeof(reg), 0, &no_tamper);
	T(c, "queued fn=%u fn=%u cmdq_writePtr=%u", FN_GSP_SET_SYSTEM_INFO,
	  FN_SET_REGISTRY, c->cmd_wptr);
}

/* SET_GUEST_SYSTEM_INFO naming @version with vgx version @major.@minor. */
static void guest_system_info_vgx(struct rp_client *c, const char *version,
				  uint32_t major, uint32_t minor)
{
	uint8_t p[0x318];
	int irq;

	memset(p, 0, sizeof(p));
	put32(p, 0x00, major);
	put32(p, 0x04, minor);
	put32(p, 0x08, 256);
	put32(p, 0x0c, 256);
	put32(p, 0x10, 256);
	snprintf((char *)p + 0x18, 256, "%s", version);
	snprintf((char *)p + 0x118, 256, "rel/gpu_drv/r535/r535_00-%s", "0");
	snprintf((char *)p + 0x218, 256, "NVIDIA UNIX Open Kernel Module");
	if (rpc(c, FN_SET_GUEST_SYSTEM_INFO, p, sizeof(p), 0, &irq))
		return;
	T(c, "rpc SET_GUEST_SYSTEM_INFO result=0x%x vgx=0x%x.0x%x%s",
	  rep_result(c), get32(rep_payload(c), 0), get32(rep_payload(c), 4),
	  irq_str(irq));
}

/* 535.261.03's vgx version 0x23.0x05 */
static void guest_system_info(struct rp_client *c, const char *version)
{
	guest_system_info_vgx(c, version, 0x23, 0x05);
}

static void uuid_text(const uint8_t *u, char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int i, k = 0;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		out[k++] = hex[u[i] >> 4];
		out[k++] = hex[u[i] & 15];
	}
	out[k] = 0;
}

static void static_info(struct rp_client *c)
{
	static uint8_t si[0x878];
	const uint8_t *r;
	int irq;

	memset(si, 0, sizeof(si));
	if (rpc(c, FN_GET_GSP_STATIC_INFO, si, sizeof(si), 0, &irq))
		return;
	r = rep_payload(c);
	if (c->rep_len < RPC_HDR + sizeof(si))
		bad(c, "static info shorter than GspStaticConfigInfo");
	c->h_client = get32(r, 0x868);
	c->h_device = get32(r, 0x86c);
	c->h_subdevice = get32(r, 0x870);
	T(c, "rpc GET_GSP_STATIC_INFO result=0x%x len=0x%x%s", rep_result(c),
	  c->rep_len, irq_str(irq));
	T(c, "  fb_length=0x%llx regions=%u region0=0x%llx-0x%llx reserved=%llu compressed=%u iso=%u",
	  (unsigned long long)get64(r, 0x6d8), get32(r, 0x348),
	  (unsigned long long)get64(r, 0x350),
	  (unsigned long long)get64(r, 0x358),
	  (unsigned long long)get64(r, 0x360), r[0x350 + 0x1c],
	  r[0x350 + 0x1d]);
	T(c, "  region1=0x%llx-0x%llx reserved=0x%llx engine_caps=0x%x",
	  (unsigned long long)get64(r, 0x380),
	  (unsigned long long)get64(r, 0x388),
	  (unsigned long long)get64(r, 0x390), get32(r, 0x6a4));
	T(c, "  gid flags=0x%x length=%u uuid=%s", get32(r, 0x1c),
	  get32(r, 0x20),
	  memcmp(r + 0x24, c->t->uuid, 16) ? "MISMATCH" : "instance");
	T(c, "  gpc_mask=0x%x tpc0=%u/0x%x name=\"%.64s\" short=\"%.64s\" tesla=%u",
	  get32(r, 0x124), get32(r, 0x128), get32(r, 0x12c),
	  (const char *)r + 0x71c, (const char *)r + 0x75c, r[0x823]);
	T(c, "  bar1_pde=0x%llx bar2_pde=0x%llx hClient=0x%x hDevice=0x%x hSubdevice=0x%x",
	  (unsigned long long)get64(r, 0x828),
	  (unsigned long long)get64(r, 0x830), c->h_client, c->h_device,
	  c->h_subdevice);
}

/* The interrupt table gives the GSP vector; arm it in the CPU tree. */
static void intr_table(struct rp_client *c)
{
	static uint8_t p[0x814];	/* 535.261.03 size, with subtreeMap */
	uint32_t st;
	int irq;

	memset(p, 0, sizeof(p));
	st = control(c, c->h_client, c->h_subdevice,
		     CTRL_INTR_GET_KERNEL_TABLE, p, sizeof(p), &irq);
	c->irq_vector = get32(p, 4 + 8);
	T(c, "ctrl INTR_GET_KERNEL_TABLE status=0x%x rows=%u engine=%u stall=0x%x nonstall=0x%x%s",
	  st, get32(p, 0), p[4], c->irq_vector, get32(p, 4 + 12),
	  irq_str(irq));
	T(c, "  rows: %u/0x%x %u/0x%x subtrees default=%u-%u uvm_owned=%u-%u uvm_shared=%u-%u",
	  p[4 + 16], get32(p, 4 + 16 + 8), p[4 + 32], get32(p, 4 + 32 + 8),
	  p[0x804], p[0x805], p[0x804 + 10], p[0x805 + 10], p[0x804 + 12],
	  p[0x805 + 12]);
	if (st || c->irq_vector >= 256)
		return;
	wr(c, INTR_LEAF_EN_SET(c->irq_vector / 32),
	   1u << (c->irq_vector % 32));
	wr(c, INTR_TOP_EN_SET, 1u << (c->irq_vector / 64));
	/* Clear what is pending from before (INIT_DONE and the replies). */
	wr(c, GSP_IRQSCLR, 0x40);
	wr(c, INTR_LEAF(c->irq_vector / 32), 1u << (c->irq_vector % 32));
	while (c->t->wait_irq(c->t->ctx, 0) == 0)
		;
	c->irq_on = true;
}

/* FSP boot up to GSP_INIT_DONE, before any RPC of the driver's own. */
static int boot_to_init_done(struct rp_client *c)
{
	uint32_t fn, hwcfg2;
	int ret;

	c->errors = 0;
	if (!c->t->bus_master || c->t->bus_master(c->t->ctx)) {
		bad(c, "bus master enable");
		return -EIO;
	}
	build_memory(c);
	T(c, "chip boot0=0x%08x boot42=0x%08x", rd(c, PMC_BOOT_0),
	  rd(c, PMC_BOOT_42));
	if (!poll_reg(c, FSP_BOOT_COMPLETE, 0xff, 0xff)) {
		bad(c, "FSP boot complete");
		return -ETIMEDOUT;
	}
	hwcfg2 = rd(c, GSP_HWCFG2);
	T(c, "fsp boot_complete=0x%x gsp hwcfg2.riscv=%u lockdown=%u",
	  rd(c, FSP_BOOT_COMPLETE), hwcfg2 >> 10 & 1, hwcfg2 >> 13 & 1);
	queue_prestart(c);
	ret = fsp_cot(c);
	if (ret)
		return ret;
	/* kfspWaitForGspTargetMaskReleased + lockdown release */
	hwcfg2 = rd(c, GSP_HWCFG2);
	if (!hwcfg2 || (hwcfg2 & 0xffffff00u) == 0xbadf4100u)
		bad(c, "GSP target mask not released");
	if (!poll_reg(c, GSP_HWCFG2, HWCFG2_LOCKDOWN, 0) &&
	    !rd(c, GSP_MAILBOX0))
		bad(c, "GSP lockdown not released");
	T(c, "gsp lockdown=%u mailbox0=0x%x", rd(c, GSP_HWCFG2) >> 13 & 1,
	  rd(c, GSP_MAILBOX0));
	wr(c, GSP_FALCON_OS, APP_VERSION);
	T(c, "gsp riscv_active=%u", rd(c, GSP_RISCV_CPUCTL) >> 7 & 1);
	ret = link_statq(c);
	if (ret)
		return ret;
	ret = recv_msg(c, TIMEOUT_MS, &fn);
	if (ret) {
		bad(c, "no GSP_INIT_DONE");
		return ret;
	}
	T(c, "event fn=0x%x result=0x%x seq=%u%s", fn, rep_result(c),
	  c->stat_seq - 1, fn == EV_GSP_INIT_DONE ? " GSP_INIT_DONE" : "");
	T(c, "gsp irqstat.swgen0=%u", rd(c, GSP_IRQSTAT) >> 6 & 1);
	return c->errors ? -EIO : 0;
}

int rp_boot(struct rp_client *c)
{
	int ret = boot_to_init_done(c);

	if (ret)
		return ret;
	guest_system_info(c, "535.261.03");
	static_info(c);
	intr_table(c);
	return c->errors ? -EIO : 0;
}

static void init_controls(struct rp_client *c)
{
	static uint8_t big[0xc8c];
	uint8_t p[0x200];
	char want[48], text[64];
	uint32_t st;
	int irq;

	memset(p, 0, sizeof(p));
	st = control(c, c->h_client, c->h_subdevice, CTRL_GET_SMC_MODE, p, 4,
		     &irq);
	T(c, "ctrl GPU_GET_SMC_MODE status=0x%x smcMode=%u%s", st,
	  get32(p, 0), irq_str(irq));

	memset(p, 0, sizeof(p));
	st = control(c, c->h_client, c->h_subdevice,
		     CTRL_FIFO_GET_NUM_CHANNELS, p, 8, &irq);
	T(c, "ctrl FIFO_GET_NUM_CHANNELS status=0x%x numChannels=%u%s", st,
	  get32(p, 4), irq_str(irq));

	memset(p, 0, sizeof(p));
	st = control(c, c->h_client, c->h_subdevice,
		     CTRL_COHERENT_FB_APERTURE, p, 8, &irq);
	T(c, "ctrl GET_COHERENT_FB_APERTURE_SIZE status=0x%x size=%llu%s", st,
	  (unsigned long long)get64(p, 0), irq_str(irq));

	st = control(c, c->h_client, c->h_subdevice, CTRL_BUS_FLUSH_SYSMEMBAR,
		     p, 0, &irq);
	T(c, "ctrl BUS_FLUSH_WITH_SYSMEMBAR status=0x%x%s", st, irq_str(irq));

	memset(p, 0, sizeof(p));
	st = control(c, c->h_client, c->h_subdevice, CTRL_GPU_GET_CHIP_INFO,
		     p, 0x58, &irq);
	T(c, "ctrl GPU_GET_CHIP_INFO status=0x%x subRev=%u pciDeviceId=0x%08x pciSubDeviceId=0x%08x pciRevisionId=0x%x%s",
	  st, p[0], get32(p, 0x0c), get32(p, 0x10), get32(p, 0x14),
	  irq_str(irq));

	/* Not emulated yet: must come back NOT_SUPPORTED and be counted. */
	memset(big, 0, sizeof(big));
	st = control(c, c->h_client, c->h_subdevice, CTRL_UNSUPPORTED, big,
		     0xb04, &irq);
	T(c, "ctrl STATIC_KMIGMGR_GET_PROFILES status=0x%x%s", st, irq_str(irq));

	/* DEVICE_INFO2 rows: numEntries, then 9 u32 per row */
	memset(big, 0, sizeof(big));
	st = control(c, c->h_client, c->h_subdevice,
		     CTRL_GET_DEVICE_INFO_TABLE, big, 0xc64, &irq);
	T(c, "ctrl GET_DEVICE_INFO_TABLE status=0x%x entries=%u type0=0x%x type1=0x%x%s",
	  st, get32(big, 0), get32(big, 4 + 8), get32(big, 4 + 36 + 8),
	  irq_str(irq));

	/* FIFO engine list from baseIndex 0: numEntries, bMore, rows of 100 */
	memset(big, 0, sizeof(big));
	st = control(c, c->h_client, c->h_subdevice,
		     CTRL_FIFO_GET_DEVICE_INFO_TABLE, big, 0xc8c, &irq);
	T(c, "ctrl FIFO_GET_DEVICE_INFO_TABLE status=0x%x entries=%u more=%u rmtype0=%u rmtype1=%u name0=\"%.15s\"%s",
	  st, get32(big, 4), big[8], get32(big, 0x0c + 8),
	  get32(big, 0x0c + 100 + 8), (const char *)big + 0x0c + 84,
	  irq_str(irq));

	memset(p, 0, sizeof(p));
	st = control(c, c->h_client, c->h_subdevice, CTRL_GPU_GET_NAME_STRING,
		     p, 0x84, &irq);
	T(c, "ctrl GPU_GET_NAME_STRING status=0x%x name=\"%.64s\"%s", st,
	  (const char *)p + 4, irq_str(irq));

	memset(p, 0, sizeof(p));
	st = control(c, c->h_client, c->h_subdevice, CTRL_GPU_GET_GID_INFO,
		     p, 0x10c, &irq);
	memcpy(want, "GPU-", 4);
	uuid_text(c->t->uuid, want + 4);
	snprintf(text, sizeof(text), "%.63s", (const char *)p + 12);
	T(c, "ctrl GPU_GET_GID_INFO status=0x%x length=%u gid=%s%s", st,
	  get32(p, 8), strcmp(text, want) ? "MISMATCH" : "GPU-<instance>",
	  irq_str(irq));
}

int rp_run_init(struct rp_client *c)
{
	uint8_t p[0x40];
	uint32_t st;
	int irq;

	if (rp_boot(c))
		return -EIO;
	init_controls(c);

	/*
	 * A client of the guest's CPU-RM, mirrored on GSP-RM; 535.261.03
	 * sends a client with hParent = hObject = 0.
	 */
	alloc(c, H_CLIENT, 0, 0, 0x0000, 0x6c);
	alloc(c, H_CLIENT, H_CLIENT, H_DEVICE, 0x0080, 0x38);
	alloc(c, H_CLIENT, H_DEVICE, H_SUBDEVICE, 0x2080, 0x4);
	memset(p, 0, sizeof(p));
	st = control(c, H_CLIENT, H_SUBDEVICE, CTRL_GPU_GET_SHORT_NAME, p,
		     0x40, &irq);
	T(c, "ctrl GPU_GET_SHORT_NAME_STRING status=0x%x name=\"%.64s\"%s",
	  st, (const char *)p, irq_str(irq));
	rm_free(c, H_CLIENT, H_CLIENT);

	memset(p, 0, sizeof(p));
	if (!rpc(c, FN_UNLOADING_GUEST_DRIVER, p, 8, 0, &irq))
		T(c, "rpc UNLOADING_GUEST_DRIVER result=0x%x%s", rep_result(c),
		  irq_str(irq));
	T(c, "gsp mailbox0=0x%x", rd(c, GSP_MAILBOX0));
	T(c, "done errors=%d", c->errors);
	return c->errors ? -EIO : 0;
}

/* ---- bad input ---- */

/* Send a tampered GET_SMC_MODE and report whether anything came back. */
static void tampered(struct rp_client *c, const char *name,
		     const struct tamper *tp)
{
	uint8_t p[0x18 + 4];
	uint64_t end;
	uint32_t fn;
	int ret;

	memset(p, 0, sizeof(p));
	put32(p, 0x00, c->h_client);
	put32(p, 0x04, c->h_subdevice);
	put32(p, 0x08, CTRL_GET_SMC_MODE);
	put32(p, 0x10, 4);
	send_rpc(c, FN_GSP_RM_CONTROL, p, sizeof(p), 0, tp);
	/*
	 * Deterministic verdict: wait until the device has consumed (or
	 * dropped) what we published, then look for a reply.
	 */
	end = now(c) + TIMEOUT_MS * 1000000ull;
	while (shm32(c, STATQ_OFF + 0x20) != c->cmd_wptr && now(c) < end)
		sched_yield();
	if (shm32(c, STATQ_OFF + 0x10) == c->stat_rptr)
		ret = -ETIMEDOUT;
	else
		ret = recv_msg(c, TIMEOUT_MS, &fn);
	if (ret == -ETIMEDOUT)
		T(c, "bad %s: no reply", name);
	else if (ret)
		T(c, "bad %s: PROTOCOL ERROR", name);
	else
		T(c, "bad %s: reply fn=%u result=0x%x", name, fn,
		  rep_result(c));
	/* Our producer state follows what the device consumed. */
	c->cmd_wptr = shm32(c, STATQ_OFF + 0x20);
	shm_w32(c, CMDQ_OFF + 0x10, c->cmd_wptr);
	if (c->irq_on) {
		wr(c, GSP_IRQSCLR, 0x40);
		wr(c, INTR_LEAF(c->irq_vector / 32),
		   1u << (c->irq_vector % 32));
		while (c->t->wait_irq(c->t->ctx, 0) == 0)
			;
	}
}

/* Acknowledge and forget whatever interrupts are pending. */
static void ret_irq_drain(struct rp_client *c)
{
	if (!c->irq_on)
		return;
	wr(c, GSP_IRQSCLR, 0x40);
	wr(c, INTR_LEAF(c->irq_vector / 32), 1u << (c->irq_vector % 32));
	while (c->t->wait_irq(c->t->ctx, 0) == 0)
		;
}

/* A valid control after the bad one: the queue still works. */
static void still_alive(struct rp_client *c, const char *after)
{
	uint8_t p[4] = { 0 };
	uint32_t st;
	int irq;

	st = control(c, c->h_client, c->h_subdevice, CTRL_GET_SMC_MODE, p, 4,
		     &irq);
	T(c, "  after %s: ctrl status=0x%x", after, st);
}

static void bad_header(struct rp_client *c, const char *name, uint32_t off,
		       uint32_t val)
{
	uint32_t old = shm32(c, CMDQ_OFF + off), fn;
	int ret;

	shm_w32(c, CMDQ_OFF + off, val);
	wr(c, GSP_QUEUE_HEAD0, 0);
	ret = recv_msg(c, 200, &fn);
	T(c, "bad %s: %s", name, ret == -ETIMEDOUT ? "no reply" : "REPLY");
	shm_w32(c, CMDQ_OFF + off, old);
	still_alive(c, name);
}

int rp_run_bad(struct rp_client *c)
{
	struct tamper tp;
	uint32_t fn, st, i;
	uint8_t p[0x20];
	int irq;

	if (rp_boot(c))
		return -EIO;

	tp = no_tamper;
	tp.bad_checksum = true;
	tampered(c, "checksum", &tp);
	still_alive(c, "checksum");

	tp = no_tamper;
	tp.elem_count = 0;
	tampered(c, "elem_count_0", &tp);
	still_alive(c, "elem_count_0");

	tp = no_tamper;
	tp.elem_count = 17;
	tampered(c, "elem_count_17", &tp);
	still_alive(c, "elem_count_17");

	tp = no_tamper;
	tp.elem_count = 3;		/* more slots than were published */
	tampered(c, "elem_count_past_writeptr", &tp);
	still_alive(c, "elem_count_past_writeptr");

	tp = no_tamper;
	tp.length = 0x2000;		/* past the message's one slot */
	tampered(c, "length_past_queue", &tp);
	still_alive(c, "length_past_queue");

	tp = no_tamper;
	tp.length = 0x10;		/* shorter than an RPC header */
	tampered(c, "length_short", &tp);
	still_alive(c, "length_short");

	tp = no_tamper;
	tp.bad_signature = true;
	tampered(c, "rpc_signature", &tp);

	bad_header(c, "cmdq_write_ptr", 0x10, 1000);
	bad_header(c, "cmdq_msg_size", 0x08, 0x800);
	bad_header(c, "cmdq_msg_count", 0x0c, 5000);
	bad_header(c, "cmdq_entry_off", 0x1c, 0x30);

	memset(p, 0, sizeof(p));
	if (!rpc(c, 150, p, sizeof(p), 0, &irq))
		T(c, "bad unknown_function: result=0x%x", rep_result(c));

	/* handle abuse */
	T(c, "handles:");
	alloc(c, H_CLIENT, 0, 0, 0x0000, 0x6c);
	alloc(c, H_CLIENT, H_CLIENT, H_CLIENT, 0x0000, 0x10);	/* dup */
	alloc(c, 0x1111, 0, 0x2222, 0x0000, 0x10);	/* client != handle */
	alloc(c, 0x1234, 0x1234, H_DEVICE, 0x0080, 0x38);	/* no client */
	alloc(c, H_CLIENT, H_CLIENT, H_SUBDEVICE, 0x2080, 0x4); /* parent */
	alloc(c, H_CLIENT, 0x7777, 0x9999, 0xc86f, 0x8);	/* no parent */
	alloc(c, H_CLIENT, H_CLIENT, 0, 0x0080, 0x38);		/* handle 0 */
	alloc(c, H_CLIENT, H_CLIENT, H_DEVICE, 0x0080, 0x38);
	alloc(c, H_CLIENT, H_DEVICE, H_DEVICE, 0x2080, 0x4);	/* dup */
	rm_free(c, H_CLIENT, 0xabcdef);				/* unknown */
	rm_free(c, c->h_client, c->h_subdevice);		/* internal */
	memset(p, 0, sizeof(p));
	st = control(c, H_CLIENT, 0xabcdef, CTRL_GET_SMC_MODE, p, 4, &irq);
	T(c, "ctrl on unknown object status=0x%x", st);
	st = control(c, c->h_client, c->h_subdevice, CTRL_GET_SMC_MODE, p, 8,
		     &irq);
	T(c, "ctrl with wrong params size status=0x%x", st);
	rm_free(c, H_CLIENT, H_CLIENT);
	st = control(c, H_CLIENT, H_DEVICE, CTRL_GET_SMC_MODE, p, 4, &irq);
	T(c, "ctrl on freed object status=0x%x", st);

	/* doorbell storm with nothing queued */
	for (i = 0; i < 5000; i++)
		wr(c, GSP_QUEUE_HEAD0, 0);
	T(c, "bad doorbell_storm: %s",
	  recv_msg(c, 200, &fn) == -ETIMEDOUT ? "no reply" : "REPLY");
	still_alive(c, "doorbell_storm");

	/*
	 * Queue memory unmapped mid-flight: the command cannot be read, no
	 * reply, nothing hangs; once the memory is back the next doorbell
	 * serves it.
	 */
	if (c->t->mem_unmap && c->t->mem_remap) {
		uint8_t q[0x18 + 4];
		uint32_t got;

		memset(q, 0, sizeof(q));
		put32(q, 0x00, c->h_client);
		put32(q, 0x04, c->h_subdevice);
		put32(q, 0x08, CTRL_GET_SMC_MODE);
		put32(q, 0x10, 4);
		T(c, "unmap rc=%d", c->t->mem_unmap(c->t->ctx));
		send_rpc(c, FN_GSP_RM_CONTROL, q, sizeof(q), 0, &no_tamper);
		/* give the device time to try (and fail) */
		c->t->wait_irq(c->t->ctx, 1000);
		T(c, "remap rc=%d", c->t->mem_remap(c->t->ctx));
		wr(c, GSP_QUEUE_HEAD0, 0);
		ret_irq_drain(c);
		if (!recv_msg(c, TIMEOUT_MS, &got))
			T(c, "  after remap: reply fn=%u status=0x%x", got,
			  get32(rep_payload(c), 0x0c));
		else
			bad(c, "no reply after remap");
		ret_irq_drain(c);
	}

	/*
	 * The driver retries a boot without a device reset: it resets the
	 * GSP core (kflcnReset) and sends the FSP boot commands again.
	 */
	wr(c, GSP_ENGINE, 1);
	wr(c, GSP_ENGINE, 0);
	T(c, "reboot without device reset: engine=0x%x", rd(c, GSP_ENGINE));
	if (rp_boot(c))
		return -EIO;
	still_alive(c, "reboot");

	/* unsupported guest driver, then everything is refused */
	guest_system_info(c, "999.99.99");
	memset(p, 0, sizeof(p));
	if (!rpc(c, FN_GET_GSP_STATIC_INFO, p, 0x20, 0, &irq))
		T(c, "after refusal: static info result=0x%x", rep_result(c));

	/* reset, then a fresh init must work */
	T(c, "reset rc=%d", c->t->reset(c->t->ctx));
	return rp_run_init(c);
}

/* ---- microbenchmark ---- */

/* ---- large RPCs (continuation records) ---- */

/* Queue one message whose RPC (header included, @rlen bytes) is given. */
static int send_part(struct rp_client *c, const uint8_t *rpc, uint32_t rlen)
{
	uint32_t total = ELEM_HDR + rlen, elems = (total + PAGE - 1) / PAGE;
	uint32_t k, gsp_rptr, free_slots;
	uint64_t end = now(c) + TIMEOUT_MS * 1000000ull;

	if (rlen < RPC_HDR || total > MSG_MAX)
		return -EINVAL;
	memset(c->msg, 0, (size_t)elems * PAGE);
	memcpy(c->msg + ELEM_HDR, rpc, rlen);
	put32(c->msg, 0x24, c->cmd_seq);
	put32(c->msg, 0x28, elems);
	put32(c->msg, 0x20, checksum(c->msg, (total + 7) & ~7u));
	for (;;) {
		gsp_rptr = shm32(c, STATQ_OFF + 0x20);
		free_slots = gsp_rptr >= MSG_COUNT ? 0 :
			(gsp_rptr + MSG_COUNT - c->cmd_wptr - 1) % MSG_COUNT;
		if (free_slots >= elems)
			break;
		if (now(c) > end)
			return -ETIMEDOUT;
		sched_yield();
	}
	for (k = 0; k < elems; k++)
		shm_write(c, CMDQ_OFF + PAGE + ((c->cmd_wptr + k) % MSG_COUNT) *
			  PAGE, c->msg + k * PAGE, PAGE);
	fence();
	c->cmd_wptr = (c->cmd_wptr + elems) % MSG_COUNT;
	shm_w32(c, CMDQ_OFF + 0x10, c->cmd_wptr);
	c->cmd_seq++;
	wr(c, GSP_QUEUE_HEAD0, 0);
	return 0;
}

/*
 * _issueRpcLarge, sending side: the first maxRpcSize bytes as the RPC's
 * own function with header length = that message, then
 * CONTINUATION_RECORDs (header length = header + chunk). @records < 0
 * sends all of them, else at most that many.
 */
static int send_large(struct rp_client *c, uint8_t *buf, uint32_t total,
		      int records)
{
	uint8_t *part = malloc(RPC_MAX);
	uint32_t n = total < RPC_MAX ? total : RPC_MAX, off;
	int ret;

	if (!part)
		return -ENOMEM;
	put32(buf, 0x08, n);
	ret = send_part(c, buf, n);
	for (off = n; !ret && off < total && records; records--) {
		n = total - off;
		if (n > RPC_MAX - RPC_HDR)
			n = RPC_MAX - RPC_HDR;
		memcpy(part, buf, RPC_HDR);
		put32(part, 0x08, RPC_HDR + n);
		put32(part, 0x0c, FN_CONTINUATION_RECORD);
		memcpy(part + RPC_HDR, buf + off, n);
		ret = send_part(c, part, RPC_HDR + n);
		off += n;
	}
	free(part);
	return ret;
}

/*
 * _issueRpcLarge, receiving side (bidirectional): the reply of @fn (at
 * most maxRpcSize bytes), then CONTINUATION_RECORDs until @total bytes
 * are in @buf; the result is that of the last header. Returns the number
 * of continuation records, or -errno.
 */
static int recv_large(struct rp_client *c, uint32_t fn, uint8_t *buf,
		      uint32_t total, uint32_t *result)
{
	uint32_t n, off, got;
	int irq, ret, records = 0;

	ret = wait_reply(c, fn, &irq);
	if (ret)
		return ret;
	n = c->rep_len < total ? c->rep_len : total;
	if (n > RPC_MAX)
		return -EPROTO;
	memcpy(buf, c->rep + ELEM_HDR, n);
	for (off = n; off < total; off += n, records++) {
		ret = recv_msg(c, TIMEOUT_MS, &got);
		if (ret)
			return ret;
		if (got != FN_CONTINUATION_RECORD || c->rep_len > RPC_MAX ||
		    c->rep_len < RPC_HDR)
			return -EPROTO;
		n = c->rep_len - RPC_HDR;
		if (n > total - off)
			n = total - off;
		memcpy(buf + off, c->rep + ELEM_HDR + RPC_HDR, n);
	}
	*result = rep_result(c);
	ret_irq_drain(c);
	return records;
}

/* A control of @psize params bytes (pattern-filled) as a large RPC. */
static uint8_t *large_ctrl_buf(struct rp_client *c, uint32_t cmd,
			       uint32_t psize, uint32_t *total)
{
	uint8_t *buf;
	uint32_t i;

	*total = RPC_HDR + 0x18 + psize;
	buf = calloc(1, *total);
	if (!buf)
		return NULL;
	put32(buf, 0x00, 0x03000000);
	put32(buf, 0x04, 0x43505256);
	put32(buf, 0x0c, FN_GSP_RM_CONTROL);
	put32(buf, 0x10, 0xffffffff);
	put32(buf, 0x14, 0xffffffff);
	put32(buf, RPC_HDR + 0x00, c->h_client);
	put32(buf, RPC_HDR + 0x04, c->h_subdevice);
	put32(buf, RPC_HDR + 0x08, cmd);
	put32(buf, RPC_HDR + 0x0c, 0xffffffff);
	put32(buf, RPC_HDR + 0x10, psize);
	for (i = 0; i < psize; i++)
		buf[RPC_HDR + 0x18 + i] = (uint8_t)(i * 7 + 3);
	return buf;
}

static void large_round_trip(struct rp_client *c, uint32_t cmd,
			     uint32_t psize, bool bad_signature)
{
	uint32_t total, result = 0, i;
	uint8_t *buf = large_ctrl_buf(c, cmd, psize, &total), *rep;
	bool echo = true;
	int ret;

	rep = calloc(1, total);
	if (!buf || !rep) {
		bad(c, "large: no memory");
		goto out;
	}
	if (bad_signature)
		put32(buf, 0x04, 0x12345678);
	ret = send_large(c, buf, total, -1);
	if (!ret)
		ret = recv_large(c, FN_GSP_RM_CONTROL, rep, total, &result);
	if (ret < 0) {
		T(c, "large ctrl=0x%08x total=0x%x FAILED %d", cmd, total, ret);
		c->errors++;
		goto out;
	}
	for (i = 0; i < psize; i++)
		if (rep[RPC_HDR + 0x18 + i] != (uint8_t)(i * 7 + 3))
			echo = false;
	T(c, "large%s ctrl=0x%08x total=0x%x reply=1+%d result=0x%x status=0x%x paramsSize=0x%x params=%s",
	  bad_signature ? " bad_signature" : "", cmd, total, ret, result, get32(rep, RPC_HDR + 0x0c),
	  get32(rep, RPC_HDR + 0x10), echo ? "echoed" : "not-echoed");
out:
	free(buf);
	free(rep);
}

int rp_run_large(struct rp_client *c)
{
	uint32_t total, fn;
	uint8_t *buf;
	int ret;

	ret = rp_boot(c);
	if (ret)
		return ret;
	/* nvidia-smi -q's 88 KiB control: one continuation record */
	large_round_trip(c, 0x2080a637u, 0x157d8, false);
	/* more than the status queue holds: the reply goes out as drained */
	large_round_trip(c, 0x2080a637u, 0x60000, false);
	/* exactly one full message: no continuation record either way */
	large_round_trip(c, 0x2080a637u, RPC_MAX - RPC_HDR - 0x18, false);
	/* refused as a whole (bad RPC header): the error still covers it */
	large_round_trip(c, 0x2080a637u, 0x157d8, true);
	/* over 1 MiB: not kept, refused, answered at full length (zeros) */
	large_round_trip(c, 0x2080a637u, 0x180000, false);

	/* a CONTINUATION_RECORD with nothing pending: dropped */
	buf = large_ctrl_buf(c, 0x2080a637u, 0x157d8, &total);
	if (!buf)
		return -ENOMEM;
	put32(buf, 0x08, RPC_HDR + 0x100);
	put32(buf, 0x0c, FN_CONTINUATION_RECORD);
	ret = send_part(c, buf, RPC_HDR + 0x100);
	T(c, "large orphan record: %s", ret ? "NOT SENT" :
	  recv_msg(c, 200, &fn) == -ETIMEDOUT ? "no reply" : "REPLY");
	still_alive(c, "orphan record");
	free(buf);

	/* the first part of a large request, then a normal RPC */
	buf = large_ctrl_buf(c, 0x2080a637u, 0x20000, &total);
	if (!buf)
		return -ENOMEM;
	ret = send_large(c, buf, total, 1);	/* 1 of 2 records */
	T(c, "large partial request: %s", ret ? "NOT SENT" :
	  recv_msg(c, 200, &fn) == -ETIMEDOUT ? "no reply" : "REPLY");
	still_alive(c, "partial request");
	free(buf);

	/* a record longer than what is left: the request is dropped */
	buf = large_ctrl_buf(c, 0x2080a637u, 0x10000, &total);
	if (!buf)
		return -ENOMEM;
	/* announces 0x10 bytes past the first message; the record has 0x68 */
	put32(buf, RPC_HDR + 0x10, RPC_MAX + 0x10 - RPC_HDR - 0x18);
	ret = send_large(c, buf, total, -1);
	T(c, "large overlong record: %s", ret ? "NOT SENT" :
	  recv_msg(c, 200, &fn) == -ETIMEDOUT ? "no reply" : "REPLY");
	still_alive(c, "overlong record");
	free(buf);

	/* after all that, a large control still round-trips */
	large_round_trip(c, 0x2080a637u, 0x157d8, false);
	return c->errors ? -EIO : 0;
}

int rp_ping(struct rp_client *c, uint64_t *rpc_ns, uint64_t *full_ns)
{
	uint8_t p[0x18 + 4];
	uint64_t t0;
	int irq;

	c->irq_on = false;		/* the polled path, as OpenRM */
	memset(p, 0, sizeof(p));
	put32(p, 0x00, c->h_client);
	put32(p, 0x04, c->h_subdevice);
	put32(p, 0x08, CTRL_GET_SMC_MODE);
	put32(p, 0x10, 4);
	t0 = now(c);
	if (rpc(c, FN_GSP_RM_CONTROL, p, sizeof(p), 0, &irq))
		return -EIO;
	/* the RPC's result and the control's status */
	if (rep_result(c) || get32(rep_payload(c), 0x0c))
		return -EPROTO;
	/*
	 * The emulator's part: from the doorbell write (the message already
	 * in the queue) to the reply's header in the status queue. The whole
	 * call adds the client composing the message and reading the reply
	 * back, which under TCG is emulated memcpy, not vgsp.
	 */
	if (rpc_ns)
		*rpc_ns = c->t_reply - c->t_doorbell;
	if (full_ns)
		*full_ns = now(c) - t0;
	return 0;
}

int rp_run_bench(struct rp_client *c, struct rp_bench *b)
{
	unsigned int i;

	if (rp_boot(c))
		return -EIO;
	for (i = 0; i < b->n; i++) {
		uint64_t t0;

		if (rp_ping(c, &b->rpc_ns[i], b->full_ns ? &b->full_ns[i] : NULL))
			return -EIO;
		t0 = now(c);
		(void)rd(c, PMC_BOOT_0);
		b->bar0_ns[i] = now(c) - t0;
	}
	return 0;
}

/* ---- for other modes (copy.c): the open device, objects, raw RPCs ---- */

int rp_open(struct rp_client *c)
{
	if (rp_boot(c))
		return -EIO;
	init_controls(c);
	return c->errors ? -EIO : 0;
}

uint32_t rp_alloc(struct rp_client *c, uint32_t h_client, uint32_t h_parent,
		  uint32_t h_object, uint32_t cls, const void *params,
		  uint32_t psize)
{
	uint8_t p[0x20 + 0x200];
	int irq;

	if (psize > sizeof(p) - 0x20)
		return 0xffffffff;
	memset(p, 0, sizeof(p));
	put32(p, 0x00, h_client);
	put32(p, 0x04, h_parent);
	put32(p, 0x08, h_object);
	put32(p, 0x0c, cls);
	put32(p, 0x10, 0xffffffff);
	put32(p, 0x14, psize);
	if (psize)
		memcpy(p + 0x20, params, psize);
	/* 535.261.03's header length leaves the params out */
	if (rpc(c, FN_GSP_RM_ALLOC, p, 0x20, psize, &irq))
		return 0xffffffff;
	T(c, "alloc class=0x%04x result=0x%x status=0x%x%s", cls,
	  rep_result(c), get32(rep_payload(c), 0x10), irq_str(irq));
	return rep_result(c) ? rep_result(c) : get32(rep_payload(c), 0x10);
}

uint32_t rp_free_obj(struct rp_client *c, uint32_t h_client,
		     uint32_t h_object)
{
	return rm_free(c, h_client, h_object);
}

uint32_t rp_call(struct rp_client *c, uint32_t fn, const void *payload,
		 uint32_t len)
{
	int irq;

	if (rpc(c, fn, payload, len, 0, &irq))
		return 0xffffffff;
	T(c, "rpc fn=%u result=0x%x%s", fn, rep_result(c), irq_str(irq));
	return rep_result(c);
}

/* ---- lifecycle ---- */

struct rp_client *rp_new(const struct rp_transport *t)
{
	struct rp_client *c = calloc(1, sizeof(*c));
	void *va;

	if (!c)
		return NULL;
	c->t = t;
	c->tr.cap = 4096;
	c->tr.buf = calloc(1, c->tr.cap);
	if (!c->tr.buf ||
	    t->mem_alloc(t->ctx, (size_t)A_TOTAL * PAGE, &va, &c->arena_iova)) {
		rp_free(c);
		return NULL;
	}
	c->arena = va;
	return c;
}

void rp_free(struct rp_client *c)
{
	if (!c)
		return;
	free(c->tr.buf);
	free(c);
}

const struct rp_transcript *rp_transcript(const struct rp_client *c)
{
	return &c->tr;
}

int rp_transcript_diff(const char *got, const char *want, char *why,
		       size_t whylen)
{
	int line = 1;

	while (*got || *want) {
		size_t lg = strcspn(got, "\n"), lw = strcspn(want, "\n");

		if (lg != lw || memcmp(got, want, lg)) {
			snprintf(why, whylen, "line %d: got \"%.*s\" want \"%.*s\"",
				 line, (int)(lg > 160 ? 160 : lg), got,
				 (int)(lw > 160 ? 160 : lw), want);
			return line;
		}
		got += lg + (got[lg] == '\n');
		want += lw + (want[lw] == '\n');
		line++;
	}
	return -1;
}
