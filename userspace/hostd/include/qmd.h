/* SPDX-License-Identifier: MIT */
/*
 * qmd.h - Queue Meta Data (compute launch descriptor) encoder for
 * HOPPER_COMPUTE_A, layout QMDV03_00 (256 bytes) as documented in NVIDIA's
 * open-gpu-doc clcbc0qmd.h.  Field positions are "MW(hi:lo)" bit ranges over
 * the QMD viewed as an array of little-endian 32-bit words.
 */
#ifndef VGSP_QMD_H
#define VGSP_QMD_H

#include <stdint.h>

#define QMD_V03_BYTES 256u
#define QMD_V03_DWORDS (QMD_V03_BYTES / 4u)

struct qmd_launch {
	uint64_t program_va;     /* GPU VA of the kernel's first instruction */
	uint32_t program_bytes;  /* size of the code, for instruction prefetch */
	uint32_t grid[3];        /* CTAs */
	uint16_t block[3];       /* threads per CTA */
	uint32_t regs;           /* registers per thread (from the cubin) */
	uint32_t shared_bytes;   /* static + dynamic shared memory */
	uint64_t cb0_va;         /* constant bank 0: driver area + kernel params */
	uint32_t cb0_bytes;
	uint64_t release_va;     /* 0: no completion semaphore */
	uint32_t release_payload;
	uint32_t sass_version;   /* 0x90 for sm_90 */
	uint32_t local_bytes;    /* shader local memory per thread (high) */
};

/* Set bits hi:lo of the QMD to v (v is truncated to the field width). */
void qmd_set(uint32_t *q, unsigned hi, unsigned lo, uint32_t v);
uint32_t qmd_get(const uint32_t *q, unsigned hi, unsigned lo);

/* Encode into q[QMD_V03_DWORDS].  Returns 0, or -1 when a value does not
 * fit its field (grid/block/regs/addresses) - never a truncated QMD. */
int qmd_v03_encode(uint32_t *q, const struct qmd_launch *l);

/* Hopper's own layout, QMDV04_00 (384 bytes, same struct qmd_launch).
 * Differences that matter: GRID_* instead of CTA_RASTER_*, constant-buffer
 * addresses stored >> 6, a QMD_TYPE field, release semaphores up front. */
#define QMD_V04_BYTES 384u
#define QMD_V04_DWORDS (QMD_V04_BYTES / 4u)
int qmd_v04_encode(uint32_t *q, const struct qmd_launch *l);

#define Q4_QMD_GROUP_ID 21, 16
#define Q4_QMD_TYPE 25, 23              /* 2 = GRID_CTA */
#define Q4_RELEASE0_ENABLE 320, 320
#define Q4_RELEASE0_STRUCTURE_SIZE 322, 321
#define Q4_RELEASE0_MEMBAR_TYPE 323, 323
#define Q4_CONSTANT_BUFFER_VALID0 416, 416
#define Q4_CONSTANT_BUFFER_INVALIDATE0 419, 419
#define Q4_SASS_VERSION 543, 536
#define Q4_SHADER_LOCAL_MEMORY_HIGH_SIZE 567, 544
#define Q4_API_VISIBLE_CALL_LIMIT 568, 568
#define Q4_SAMPLER_INDEX 569, 569
#define Q4_QMD_MINOR_VERSION 579, 576
#define Q4_QMD_MAJOR_VERSION 583, 580
#define Q4_SHARED_MEMORY_SIZE 601, 584
#define Q4_INVALIDATE_ALL 607, 602       /* texture header/sampler/data, shader data, instruction, constant */
#define Q4_MIN_SM_CONFIG_SHARED_MEM_SIZE 613, 608
#define Q4_MAX_SM_CONFIG_SHARED_MEM_SIZE 619, 614
#define Q4_TARGET_SM_CONFIG_SHARED_MEM_SIZE 625, 620
#define Q4_RELEASE_SEMAPHORE0_ADDR_LOWER 671, 640
#define Q4_RELEASE_SEMAPHORE0_ADDR_UPPER 696, 672
#define Q4_RELEASE_SEMAPHORE0_PAYLOAD_LOWER 735, 704
#define Q4_GRID_WIDTH 1055, 1024
#define Q4_GRID_HEIGHT 1071, 1056
#define Q4_GRID_DEPTH 1103, 1088
#define Q4_CWD_MEMBAR_TYPE 1137, 1136
#define Q4_CTA_THREAD_DIMENSION0 1167, 1152
#define Q4_CTA_THREAD_DIMENSION1 1183, 1168
#define Q4_CTA_THREAD_DIMENSION2 1199, 1184
#define Q4_REGISTER_COUNT 1208, 1200
#define Q4_BARRIER_COUNT 1215, 1211
#define Q4_PROGRAM_ADDRESS_LOWER 1247, 1216
#define Q4_PROGRAM_ADDRESS_UPPER 1272, 1248
#define Q4_PROGRAM_PREFETCH_ADDR_LOWER_SHIFTED 1375, 1344
#define Q4_PROGRAM_PREFETCH_ADDR_UPPER_SHIFTED 1392, 1376
#define Q4_PROGRAM_PREFETCH_SIZE 1401, 1393
#define Q4_CONSTANT_BUFFER_ADDR_LOWER_SHIFTED6_0 1567, 1536
#define Q4_CONSTANT_BUFFER_ADDR_UPPER_SHIFTED6_0 1586, 1568
#define Q4_CONSTANT_BUFFER_SIZE_SHIFTED4_0 1599, 1587

/* QMDV03_00 field positions used by the encoder (and the tests). */
#define QMD_GROUP_ID 133, 128
#define QMD_SM_GLOBAL_CACHING_ENABLE 134, 134
#define QMD_INVALIDATE_TEXTURE_HEADER_CACHE 186, 186
#define QMD_INVALIDATE_TEXTURE_SAMPLER_CACHE 187, 187
#define QMD_INVALIDATE_TEXTURE_DATA_CACHE 188, 188
#define QMD_INVALIDATE_SHADER_DATA_CACHE 189, 189
#define QMD_INVALIDATE_INSTRUCTION_CACHE 190, 190
#define QMD_INVALIDATE_SHADER_CONSTANT_CACHE 191, 191
#define QMD_PROGRAM_PREFETCH_ADDR_LOWER_SHIFTED 287, 256
#define QMD_CWD_MEMBAR_TYPE 369, 368
#define QMD_API_VISIBLE_CALL_LIMIT 378, 378
#define QMD_SAMPLER_INDEX 382, 382
#define QMD_CTA_RASTER_WIDTH 415, 384
#define QMD_CTA_RASTER_HEIGHT 431, 416
#define QMD_CTA_RASTER_DEPTH 463, 448
#define QMD_SHARED_MEMORY_SIZE 561, 544
#define QMD_MIN_SM_CONFIG_SHARED_MEM_SIZE 567, 562
#define QMD_MAX_SM_CONFIG_SHARED_MEM_SIZE 574, 569
#define QMD_QMD_VERSION 579, 576
#define QMD_QMD_MAJOR_VERSION 583, 580
#define QMD_CTA_THREAD_DIMENSION0 607, 592
#define QMD_CTA_THREAD_DIMENSION1 623, 608
#define QMD_CTA_THREAD_DIMENSION2 639, 624
#define QMD_CONSTANT_BUFFER_VALID0 640, 640
#define QMD_REGISTER_COUNT_V 656, 648
#define QMD_TARGET_SM_CONFIG_SHARED_MEM_SIZE 662, 657
#define QMD_BARRIER_COUNT 767, 763
#define QMD_RELEASE0_ADDRESS_LOWER 799, 768
#define QMD_RELEASE0_ADDRESS_UPPER 807, 800
#define QMD_RELEASE0_MEMBAR_TYPE 819, 819
#define QMD_RELEASE0_ENABLE 823, 823
#define QMD_RELEASE0_STRUCTURE_SIZE 831, 830
#define QMD_RELEASE0_PAYLOAD_LOWER 863, 832
#define QMD_CONSTANT_BUFFER_ADDR_LOWER0 1055, 1024
#define QMD_CONSTANT_BUFFER_ADDR_UPPER0 1072, 1056
#define QMD_CONSTANT_BUFFER_INVALIDATE0 1074, 1074
#define QMD_CONSTANT_BUFFER_SIZE_SHIFTED4_0 1087, 1075
#define QMD_PROGRAM_ADDRESS_LOWER 1567, 1536
#define QMD_PROGRAM_ADDRESS_UPPER 1584, 1568
#define QMD_SHADER_LOCAL_MEMORY_HIGH_SIZE 1623, 1600
#define QMD_PROGRAM_PREFETCH_ADDR_UPPER_SHIFTED 1640, 1632
#define QMD_PROGRAM_PREFETCH_SIZE 1649, 1641
#define QMD_SASS_VERSION 1663, 1656

#endif
