/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vfio-user message codec: validation and decoding of client requests and
 * encoding of replies. Pure functions over byte buffers (no I/O, no device)
 * so every rule a malformed message can break is unit-testable.
 * All functions return 0 or a negative errno that goes into the error reply.
 */
#ifndef VFU_CODEC_H
#define VFU_CODEC_H

#include <stddef.h>
#include <stdbool.h>
#include "proto.h"

/* Largest payload we accept for region/DMA data (advertised to the client). */
#define VFU_MAX_XFER		(1u << 20)
/* Largest message we read at all; bigger ones are drained and refused. */
#define VFU_MAX_MSG		(VFU_MAX_XFER + 4096u)
#define VFU_MAX_FDS		16u
#define VFU_PAGE		4096ull

/* Header sanity for an incoming message (size, type). */
int vfu_hdr_check(const struct vfu_hdr *h);

/*
 * VERSION: accepts major 0; the optional JSON must be NUL-terminated inside
 * the payload. Writes the reply payload (version + our capabilities JSON)
 * into @out (cap @outcap) and returns its length, or -errno.
 */
int vfu_version_reply(const void *p, size_t plen, void *out, size_t outcap,
		      unsigned int max_fds, unsigned int max_xfer);

int vfu_parse_dma_map(const void *p, size_t plen, unsigned int nfds,
		      struct vfu_dma_map *out);
int vfu_parse_dma_unmap(const void *p, size_t plen, struct vfu_dma_unmap *out);
int vfu_parse_device_info(const void *p, size_t plen, uint32_t *argsz);
int vfu_parse_region_info(const void *p, size_t plen,
			  struct vfu_region_info *out);
int vfu_parse_irq_info(const void *p, size_t plen, struct vfu_irq_info *out);
/*
 * SET_IRQS: exactly one DATA and one ACTION flag; start+count must not wrap;
 * DATA_BOOL needs count bytes; DATA_EVENTFD takes count fds or none
 * (none = de-assign). *@bools points at the bool array when present.
 */
int vfu_parse_set_irqs(const void *p, size_t plen, unsigned int nfds,
		       struct vfu_irq_set *out, const uint8_t **bools);
/* REGION_READ (@write false) / REGION_WRITE: count 1..max_xfer, data size. */
int vfu_parse_region_rw(const void *p, size_t plen, bool write,
			struct vfu_region_rw *out, const uint8_t **data);
/* REGION_WRITE_MULTI: wr_cnt 1..VFU_MULTI_MAX entries of count 1..8. */
int vfu_parse_write_multi(const void *p, size_t plen, uint64_t *cnt,
			  const struct vfu_wr_one **wrs);

/* [off, off+len) inside [0, size) without overflow. */
static inline bool vfu_range_ok(uint64_t off, uint64_t len, uint64_t size)
{
	return len <= size && off <= size - len;
}

const char *vfu_cmd_name(unsigned int cmd);

#endif /* VFU_CODEC_H */
