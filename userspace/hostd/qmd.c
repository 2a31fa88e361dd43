/* SPDX-License-Identifier: MIT */
/* qmd.c - QMDV03_00 encoder (see qmd.h). */
#include "qmd.h"

#include <string.h>

void qmd_set(uint32_t *q, unsigned hi, unsigned lo, uint32_t v)
{
	for (unsigned b = lo; b <= hi; b++) {
		uint32_t bit = (v >> (b - lo)) & 1u;
		q[b / 32] = (q[b / 32] & ~(1u << (b % 32))) | (bit << (b % 32));
	}
}

uint32_t qmd_get(const uint32_t *q, unsigned hi, unsigned lo)
{
	uint32_t v = 0;
	for (unsigned b = hi + 1; b-- > lo;)
		v = (v << 1) | ((q[b / 32] >> (b % 32)) & 1u);
	return v;
}

#define SET(f, v) qmd_set(q, f, (v))

/* Shared-memory carve-out encoding: (KiB / 4) + 1.  32 KiB is enough for
 * kernels hostd launches; the maximum allows the 100 KiB configuration. */
static uint32_t smem_cfg(uint32_t shared_bytes)
{
	uint32_t kib = shared_bytes <= 32u * 1024 ? 32 : shared_bytes <= 64u * 1024 ? 64 : 100;
	return kib / 4 + 1;
}

int qmd_v03_encode(uint32_t *q, const struct qmd_launch *l)
{
	memset(q, 0, QMD_V03_BYTES);
	if (l->grid[0] == 0 || l->grid[1] == 0 || l->grid[2] == 0 ||
	    l->grid[1] > 0xffff || l->grid[2] > 0xffff ||
	    l->block[0] == 0 || l->block[1] == 0 || l->block[2] == 0 ||
	    (uint32_t)l->block[0] * l->block[1] * l->block[2] > 1024 ||
	    l->regs > 255 || l->shared_bytes > 100u * 1024 || l->local_bytes > 0xffffffu ||
	    (l->program_va >> 49) || (l->cb0_va >> 49) || (l->release_va >> 40) ||
	    (l->cb0_va & 0xffu) || (l->program_va & 0x7fu) ||
	    l->cb0_bytes == 0 || ((l->cb0_bytes + 15u) >> 4) > 0x1fffu)
		return -1;

	SET(QMD_GROUP_ID, 0x3f);
	SET(QMD_SM_GLOBAL_CACHING_ENABLE, 1);
	/* Fresh code/constants every launch: invalidate all SM-side caches. */
	SET(QMD_INVALIDATE_TEXTURE_HEADER_CACHE, 1);
	SET(QMD_INVALIDATE_TEXTURE_SAMPLER_CACHE, 1);
	SET(QMD_INVALIDATE_TEXTURE_DATA_CACHE, 1);
	SET(QMD_INVALIDATE_SHADER_DATA_CACHE, 1);
	SET(QMD_INVALIDATE_INSTRUCTION_CACHE, 1);
	SET(QMD_INVALIDATE_SHADER_CONSTANT_CACHE, 1);
	SET(QMD_CWD_MEMBAR_TYPE, 1);          /* L1_SYSMEMBAR after the grid */
	SET(QMD_API_VISIBLE_CALL_LIMIT, 1);   /* NO_CHECK */
	SET(QMD_SAMPLER_INDEX, 1);            /* VIA_HEADER_INDEX */

	SET(QMD_CTA_RASTER_WIDTH, l->grid[0]);
	SET(QMD_CTA_RASTER_HEIGHT, l->grid[1]);
	SET(QMD_CTA_RASTER_DEPTH, l->grid[2]);
	SET(QMD_CTA_THREAD_DIMENSION0, l->block[0]);
	SET(QMD_CTA_THREAD_DIMENSION1, l->block[1]);
	SET(QMD_CTA_THREAD_DIMENSION2, l->block[2]);

	SET(QMD_SHARED_MEMORY_SIZE, (l->shared_bytes + 127u) & ~127u);
	SET(QMD_MIN_SM_CONFIG_SHARED_MEM_SIZE, smem_cfg(l->shared_bytes));
	SET(QMD_TARGET_SM_CONFIG_SHARED_MEM_SIZE, smem_cfg(l->shared_bytes));
	SET(QMD_MAX_SM_CONFIG_SHARED_MEM_SIZE, 100 / 4 + 1);
	SET(QMD_QMD_VERSION, 0);
	SET(QMD_QMD_MAJOR_VERSION, 3);
	SET(QMD_REGISTER_COUNT_V, l->regs);
	SET(QMD_BARRIER_COUNT, 1);

	SET(QMD_CONSTANT_BUFFER_VALID0, 1);
	SET(QMD_CONSTANT_BUFFER_ADDR_LOWER0, (uint32_t)l->cb0_va);
	SET(QMD_CONSTANT_BUFFER_ADDR_UPPER0, (uint32_t)(l->cb0_va >> 32));
	SET(QMD_CONSTANT_BUFFER_INVALIDATE0, 1);
	SET(QMD_CONSTANT_BUFFER_SIZE_SHIFTED4_0, (l->cb0_bytes + 15u) >> 4);

	SET(QMD_PROGRAM_ADDRESS_LOWER, (uint32_t)l->program_va);
	SET(QMD_PROGRAM_ADDRESS_UPPER, (uint32_t)(l->program_va >> 32));
	SET(QMD_PROGRAM_PREFETCH_ADDR_LOWER_SHIFTED, (uint32_t)(l->program_va >> 8));
	SET(QMD_PROGRAM_PREFETCH_ADDR_UPPER_SHIFTED, (uint32_t)(l->program_va >> 40));
	SET(QMD_PROGRAM_PREFETCH_SIZE, (l->program_bytes >> 8) > 0x1ff ? 0x1ff : l->program_bytes >> 8);
	SET(QMD_SASS_VERSION, l->sass_version);
	SET(QMD_SHADER_LOCAL_MEMORY_HIGH_SIZE, l->local_bytes);

	if (l->release_va) {
		SET(QMD_RELEASE0_ADDRESS_LOWER, (uint32_t)l->release_va);
		SET(QMD_RELEASE0_ADDRESS_UPPER, (uint32_t)(l->release_va >> 32));
		SET(QMD_RELEASE0_MEMBAR_TYPE, 1);     /* FE_SYSMEMBAR first */
		SET(QMD_RELEASE0_STRUCTURE_SIZE, 1);  /* ONE_WORD */
		SET(QMD_RELEASE0_PAYLOAD_LOWER, l->release_payload);
		SET(QMD_RELEASE0_ENABLE, 1);
	}
	return 0;
}

int qmd_v04_encode(uint32_t *q, const struct qmd_launch *l)
{
	/* same limits as V03 (shared checks), then the V04 layout */
	uint32_t tmp[QMD_V03_DWORDS];
	if (qmd_v03_encode(tmp, l))
		return -1;
	memset(q, 0, QMD_V04_BYTES);
	SET(Q4_QMD_GROUP_ID, 0x3f);
	SET(Q4_QMD_TYPE, 2);
	SET(Q4_CONSTANT_BUFFER_VALID0, 1);
	SET(Q4_CONSTANT_BUFFER_INVALIDATE0, 1);
	SET(Q4_SASS_VERSION, l->sass_version);
	SET(Q4_SHADER_LOCAL_MEMORY_HIGH_SIZE, l->local_bytes);
	SET(Q4_API_VISIBLE_CALL_LIMIT, 1);
	SET(Q4_SAMPLER_INDEX, 1);
	SET(Q4_QMD_MINOR_VERSION, 0);
	SET(Q4_QMD_MAJOR_VERSION, 4);
	SET(Q4_SHARED_MEMORY_SIZE, (l->shared_bytes + 127u) & ~127u);
	SET(Q4_INVALIDATE_ALL, 0x3f);
	SET(Q4_MIN_SM_CONFIG_SHARED_MEM_SIZE, smem_cfg(l->shared_bytes));
	SET(Q4_MAX_SM_CONFIG_SHARED_MEM_SIZE, 100 / 4 + 1);
	SET(Q4_TARGET_SM_CONFIG_SHARED_MEM_SIZE, smem_cfg(l->shared_bytes));
	SET(Q4_GRID_WIDTH, l->grid[0]);
	SET(Q4_GRID_HEIGHT, l->grid[1]);
	SET(Q4_GRID_DEPTH, l->grid[2]);
	SET(Q4_CWD_MEMBAR_TYPE, 1);
	SET(Q4_CTA_THREAD_DIMENSION0, l->block[0]);
	SET(Q4_CTA_THREAD_DIMENSION1, l->block[1]);
	SET(Q4_CTA_THREAD_DIMENSION2, l->block[2]);
	SET(Q4_REGISTER_COUNT, l->regs);
	SET(Q4_BARRIER_COUNT, 1);
	SET(Q4_PROGRAM_ADDRESS_LOWER, (uint32_t)l->program_va);
	SET(Q4_PROGRAM_ADDRESS_UPPER, (uint32_t)(l->program_va >> 32));
	SET(Q4_PROGRAM_PREFETCH_ADDR_LOWER_SHIFTED, (uint32_t)(l->program_va >> 8));
	SET(Q4_PROGRAM_PREFETCH_ADDR_UPPER_SHIFTED, (uint32_t)(l->program_va >> 40));
	SET(Q4_PROGRAM_PREFETCH_SIZE, (l->program_bytes >> 8) > 0x1ff ? 0x1ff : l->program_bytes >> 8);
	SET(Q4_CONSTANT_BUFFER_ADDR_LOWER_SHIFTED6_0, (uint32_t)(l->cb0_va >> 6));
	SET(Q4_CONSTANT_BUFFER_ADDR_UPPER_SHIFTED6_0, (uint32_t)(l->cb0_va >> 38));
	SET(Q4_CONSTANT_BUFFER_SIZE_SHIFTED4_0, (l->cb0_bytes + 15u) >> 4);
	if (l->release_va) {
		SET(Q4_RELEASE0_ENABLE, 1);
		SET(Q4_RELEASE0_STRUCTURE_SIZE, 1);  /* ONE_WORD */
		SET(Q4_RELEASE0_MEMBAR_TYPE, 1);
		SET(Q4_RELEASE_SEMAPHORE0_ADDR_LOWER, (uint32_t)l->release_va);
		SET(Q4_RELEASE_SEMAPHORE0_ADDR_UPPER, (uint32_t)(l->release_va >> 32));
		SET(Q4_RELEASE_SEMAPHORE0_PAYLOAD_LOWER, l->release_payload);
	}
	return 0;
}
