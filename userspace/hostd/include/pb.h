/* SPDX-License-Identifier: MIT */
/*
 * pb.h - pushbuffer / GPFIFO encoder for Hopper channels (host class C86F,
 * copy class C8B5, compute class CBC0).  Plain C, no OS calls: the same code
 * builds into unit tests (golden bytes), the hostd GPU path and the sim
 * backend's decoder.
 */
#ifndef VGSP_PB_H
#define VGSP_PB_H

#include <stddef.h>
#include <stdint.h>

/* Method header (C86F NVC86F_DMA_*): SEC_OP 31:29, COUNT 28:16 (or
 * immediate data), SUBCHANNEL 15:13, METHOD ADDRESS (dwords) 11:0. */
#define PB_SECOP_INC 1u   /* incrementing method */
#define PB_SECOP_NINC 3u  /* non-incrementing method */
#define PB_SECOP_IMMD 4u  /* immediate data in COUNT field */
#define PB_SECOP_ONEINC 5u /* first data to mthd, the rest to mthd+4 */
#define PB_SECOP_END 7u   /* end of pushbuffer segment */
#define PB_MAX_COUNT 0x1fffu
#define PB_MAX_IMMD 0x1fffu

/* Subchannel convention used by hostd (and by CUDA/nouveau): */
#define PB_SUBCH_COMPUTE 1u
#define PB_SUBCH_COPY 4u

/* Host (C86F) methods */
#define C86F_SEM_ADDR_LO 0x005Cu
#define C86F_SEM_ADDR_HI 0x0060u
#define C86F_SEM_PAYLOAD_LO 0x0064u
#define C86F_SEM_PAYLOAD_HI 0x0068u
#define C86F_SEM_EXECUTE 0x006Cu
#define C86F_SEM_EXECUTE_RELEASE 1u
#define C86F_SEM_EXECUTE_ACQ_GEQ 2u
#define C86F_SEM_EXECUTE_RELEASE_WFI (1u << 20)
#define C86F_SEM_EXECUTE_PAYLOAD_64BIT (1u << 24)
#define C86F_WFI 0x0078u

/* Copy engine (C8B5) methods */
#define C8B5_SET_SEMAPHORE_A 0x0240u
#define C8B5_SET_SEMAPHORE_B 0x0244u
#define C8B5_SET_SEMAPHORE_PAYLOAD 0x0248u
#define C8B5_LAUNCH_DMA 0x0300u
#define C8B5_OFFSET_IN_UPPER 0x0400u
#define C8B5_OFFSET_IN_LOWER 0x0404u
#define C8B5_OFFSET_OUT_UPPER 0x0408u
#define C8B5_OFFSET_OUT_LOWER 0x040Cu
#define C8B5_PITCH_IN 0x0410u
#define C8B5_PITCH_OUT 0x0414u
#define C8B5_LINE_LENGTH_IN 0x0418u
#define C8B5_LINE_COUNT 0x041Cu
/* LAUNCH_DMA fields */
#define C8B5_LD_XFER_NONE 0u
#define C8B5_LD_XFER_PIPELINED 1u
#define C8B5_LD_XFER_NON_PIPELINED 2u
#define C8B5_LD_FLUSH_ENABLE (1u << 2)
#define C8B5_LD_SEM_RELEASE_ONE_WORD (1u << 3)   /* SEMAPHORE_TYPE 4:3 = 1 */
#define C8B5_LD_SEM_RELEASE_FOUR_WORD (2u << 3)  /* SEMAPHORE_TYPE 4:3 = 2 */
#define C8B5_LD_SRC_PITCH (1u << 7)
#define C8B5_LD_DST_PITCH (1u << 8)
#define C8B5_LD_MULTI_LINE (1u << 9)
#define C8B5_LD_SRC_PHYSICAL (1u << 12)
#define C8B5_LD_DST_PHYSICAL (1u << 13)

/* Compute (CBC0) methods */
#define CBC0_SET_OBJECT 0x0000u
#define CBC0_SET_SHADER_SHARED_MEMORY_WINDOW_A 0x02A0u
#define CBC0_SET_SHADER_LOCAL_MEMORY_WINDOW_A 0x07B0u
#define CBC0_SEND_PCAS_A 0x02B4u
#define CBC0_SEND_SIGNALING_PCAS_B 0x02BCu   /* INVALIDATE 0, SCHEDULE 1 */
#define CBC0_SEND_SIGNALING_PCAS2_B 0x02C0u
#define CBC0_SET_SHADER_LOCAL_MEMORY_NON_THROTTLED_A 0x02E4u
#define CBC0_SET_SHADER_LOCAL_MEMORY_A 0x0790u
#define CBC0_PCAS_ACTION_PREFETCH_SCHEDULE 9u
#define CBC0_PCAS_ACTION_INVALIDATE_COPY_SCHEDULE 3u
#define CBC0_INVALIDATE_SHADER_CACHES_NO_WFI 0x1698u
#define CBC0_INVALIDATE_NO_WFI_ALL ((1u << 0) | (1u << 4) | (1u << 12))

struct pb {
	uint32_t *buf;
	size_t cap;      /* dwords */
	size_t len;      /* dwords written */
	int overflow;    /* sticky: set when a write did not fit */
};

void pb_init(struct pb *p, uint32_t *buf, size_t cap_dwords);

/* header helpers (pure) */
uint32_t pb_hdr(unsigned secop, unsigned subch, uint32_t mthd, unsigned count);

/* raw emitters; return 0 or -1 on overflow / bad argument */
int pb_inc(struct pb *p, unsigned subch, uint32_t mthd, const uint32_t *data, unsigned n);
int pb_imm(struct pb *p, unsigned subch, uint32_t mthd, uint32_t data13);
int pb_mthd1(struct pb *p, unsigned subch, uint32_t mthd, uint32_t v);
int pb_mthd2(struct pb *p, unsigned subch, uint32_t mthd, uint32_t a, uint32_t b);

/* high level sequences */
int pb_set_object(struct pb *p, unsigned subch, uint32_t cls);
/* 1-D virtual->virtual copy of len bytes (len <= 4 GiB - 1 per launch);
 * sem_va != 0 adds a one-word semaphore release of `payload` after it. */
int pb_ce_copy(struct pb *p, uint64_t src, uint64_t dst, uint32_t len,
	       uint64_t sem_va, uint32_t payload);
/* semaphore release through the copy engine only (no transfer) */
int pb_ce_sem_release(struct pb *p, uint64_t sem_va, uint32_t payload);
/* host (PBDMA) semaphore release with wait-for-idle, 32-bit payload */
int pb_host_sem_release(struct pb *p, uint64_t sem_va, uint32_t payload);
/* host semaphore acquire (wait until *sem >= payload) */
int pb_host_sem_acquire_geq(struct pb *p, uint64_t sem_va, uint32_t payload);
/* compute: windows, then launch of a QMD already written at qmd_va
 * (256-byte aligned) */
int pb_compute_windows(struct pb *p, uint64_t shared_window, uint64_t local_window);
int pb_compute_launch(struct pb *p, uint64_t qmd_va);
/* launch with an explicit signalling method: 0 = PCAS2_B INVALIDATE_COPY_
 * SCHEDULE (default), 1 = PCAS2_B PREFETCH_SCHEDULE, 2 = legacy PCAS_B
 * INVALIDATE|SCHEDULE */
int pb_compute_launch_v(struct pb *p, uint64_t qmd_va, unsigned variant);
/* shader local memory (per-thread stack/spill area every CTA needs):
 * base VA, bytes per TPC and the SM-count limit */
int pb_compute_local_memory(struct pb *p, uint64_t va, uint64_t bytes_per_tpc);

/* GPFIFO entry (C86F GP_ENTRY0/1): pushbuffer VA (4-byte aligned, 40 bits)
 * and length in dwords (LENGTH 30:10, 21 bits), LEVEL main, no sync. */
uint64_t pb_gpfifo_entry(uint64_t pb_va, uint32_t ndwords);

/* decoder (used by the sim backend and the command scanner) */
struct pb_method {
	unsigned subch;
	uint32_t mthd;      /* byte offset */
	uint32_t data;
};
/* Iterate methods of a segment: calls fn for every (subch, method, data)
 * in execution order.  Returns 0, or -1 on a malformed header
 * (reserved SEC_OP, count running past the end), or the first non-zero
 * value returned by fn. */
typedef int (*pb_method_fn)(void *ctx, const struct pb_method *m);
int pb_decode(const uint32_t *seg, size_t ndwords, pb_method_fn fn, void *ctx);

#endif
