// SPDX-License-Identifier: GPL-2.0 OR MIT
/* vfio-user message codec (see codec.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "codec.h"

int vfu_hdr_check(const struct vfu_hdr *h)
{
	if (h->size < sizeof(*h))
		return -EINVAL;
	if ((h->flags & VFU_F_TYPE_MASK) > VFU_F_TYPE_REPLY)
		return -EINVAL;
	if (h->size > VFU_MAX_MSG)
		return -E2BIG;
	return 0;
}

int vfu_version_reply(const void *p, size_t plen, void *out, size_t outcap,
		      unsigned int max_fds, unsigned int max_xfer)
{
	struct vfu_version v;
	int n;

	if (plen < sizeof(v))
		return -EINVAL;
	memcpy(&v, p, sizeof(v));
	if (v.major != 0)
		return -ENOTSUP;
	/* JSON, if any, must be terminated inside the message. */
	if (plen > sizeof(v) && memchr((const char *)p + sizeof(v), '\0',
				       plen - sizeof(v)) == NULL)
		return -EINVAL;
	if (outcap < sizeof(v) + 1)
		return -ENOSPC;
	v.major = 0;
	v.minor = 0;
	memcpy(out, &v, sizeof(v));
	/* Only what we honour; write_multiple is accepted if sent anyway. */
	n = snprintf((char *)out + sizeof(v), outcap - sizeof(v),
		     "{\"capabilities\":{\"max_msg_fds\":%u,"
		     "\"max_data_xfer_size\":%u,\"pgsizes\":%llu,"
		     "\"max_dma_maps\":%u}}",
		     max_fds, max_xfer, VFU_PAGE, 1024u);
	if (n < 0 || (size_t)n + 1 > outcap - sizeof(v))
		return -ENOSPC;
	return (int)(sizeof(v) + (size_t)n + 1);
}

int vfu_parse_dma_map(const void *p, size_t plen, unsigned int nfds,
		      struct vfu_dma_map *m)
{
	if (plen < sizeof(*m))
		return -EINVAL;
	memcpy(m, p, sizeof(*m));
	if (m->argsz < sizeof(*m))
		return -EINVAL;
	if (m->flags & ~(VFU_DMA_F_READ | VFU_DMA_F_WRITE))
		return -EINVAL;
	if (nfds > 1)
		return -EINVAL;
	if (m->size == 0 || m->iova + m->size < m->iova ||
	    m->offset + m->size < m->offset)
		return -EINVAL;
	/* mmap works in pages; QEMU maps RAM in 4 KiB multiples. */
	if ((m->iova | m->size | m->offset) & (VFU_PAGE - 1))
		return -EINVAL;
	return 0;
}

int vfu_parse_dma_unmap(const void *p, size_t plen, struct vfu_dma_unmap *u)
{
	if (plen < sizeof(*u))
		return -EINVAL;
	memcpy(u, p, sizeof(*u));
	if (u->argsz < sizeof(*u))
		return -EINVAL;
	if (u->flags & VFU_UNMAP_F_DIRTY_BITMAP)
		return -ENOTSUP;
	if (u->flags & ~VFU_UNMAP_F_ALL)
		return -EINVAL;
	if (u->flags & VFU_UNMAP_F_ALL)
		return (u->iova || u->size) ? -EINVAL : 0;
	if (u->size == 0 || u->iova + u->size < u->iova)
		return -EINVAL;
	return 0;
}

int vfu_parse_device_info(const void *p, size_t plen, uint32_t *argsz)
{
	struct vfu_device_info d;

	if (plen < sizeof(d))
		return -EINVAL;
	memcpy(&d, p, sizeof(d));
	if (d.argsz < sizeof(d))
		return -EINVAL;
	*argsz = d.argsz;
	return 0;
}

int vfu_parse_region_info(const void *p, size_t plen,
			  struct vfu_region_info *r)
{
	if (plen < sizeof(*r))
		return -EINVAL;
	memcpy(r, p, sizeof(*r));
	if (r->argsz < sizeof(*r))
		return -EINVAL;
	return 0;
}

int vfu_parse_irq_info(const void *p, size_t plen, struct vfu_irq_info *i)
{
	if (plen < sizeof(*i))
		return -EINVAL;
	memcpy(i, p, sizeof(*i));
	if (i->argsz < sizeof(*i))
		return -EINVAL;
	return 0;
}

static bool one_bit(uint32_t v)
{
	return v && !(v & (v - 1));
}

int vfu_parse_set_irqs(const void *p, size_t plen, unsigned int nfds,
		       struct vfu_irq_set *s, const uint8_t **bools)
{
	uint32_t data, action;

	*bools = NULL;
	if (plen < sizeof(*s))
		return -EINVAL;
	memcpy(s, p, sizeof(*s));
	if (s->argsz < sizeof(*s))
		return -EINVAL;
	data = s->flags & VFU_IRQ_SET_DATA_MASK;
	action = s->flags & VFU_IRQ_SET_ACTION_MASK_ALL;
	if (s->flags & ~(VFU_IRQ_SET_DATA_MASK | VFU_IRQ_SET_ACTION_MASK_ALL))
		return -EINVAL;
	if (!one_bit(data) || !one_bit(action))
		return -EINVAL;
	if (s->start + s->count < s->start)
		return -EINVAL;
	switch (data) {
	case VFU_IRQ_SET_DATA_NONE:
		if (nfds)
			return -EINVAL;
		break;
	case VFU_IRQ_SET_DATA_BOOL:
		if (nfds || plen - sizeof(*s) < s->count)
			return -EINVAL;
		*bools = (const uint8_t *)p + sizeof(*s);
		break;
	case VFU_IRQ_SET_DATA_EVENTFD:
		if (nfds != 0 && nfds != s->count)
			return -EINVAL;
		break;
	}
	return 0;
}

int vfu_parse_region_rw(const void *p, size_t plen, bool write,
			struct vfu_region_rw *rw, const uint8_t **data)
{
	*data = NULL;
	if (plen < sizeof(*rw))
		return -EINVAL;
	memcpy(rw, p, sizeof(*rw));
	if (rw->count == 0 || rw->count > VFU_MAX_XFER)
		return -EINVAL;
	if (write) {
		if (plen - sizeof(*rw) != rw->count)
			return -EINVAL;
		*data = (const uint8_t *)p + sizeof(*rw);
	} else if (plen != sizeof(*rw)) {
		return -EINVAL;
	}
	return 0;
}

int vfu_parse_write_multi(const void *p, size_t plen, uint64_t *cnt,
			  const struct vfu_wr_one **wrs)
{
	uint64_t n, i;
	const struct vfu_wr_one *w;

	if (plen < sizeof(n))
		return -EINVAL;
	memcpy(&n, p, sizeof(n));
	if (n == 0 || n > VFU_MULTI_MAX ||
	    plen - sizeof(n) < n * sizeof(struct vfu_wr_one))
		return -EINVAL;
	/* The array starts 8 bytes in: aligned for its u64 members. */
	w = (const struct vfu_wr_one *)((const uint8_t *)p + sizeof(n));
	for (i = 0; i < n; i++)
		if (w[i].count == 0 || w[i].count > VFU_MULTI_DATA)
			return -EINVAL;
	*cnt = n;
	*wrs = w;
	return 0;
}

const char *vfu_cmd_name(unsigned int cmd)
{
	static const char *const names[] = {
		[VFU_CMD_VERSION] = "VERSION",
		[VFU_CMD_DMA_MAP] = "DMA_MAP",
		[VFU_CMD_DMA_UNMAP] = "DMA_UNMAP",
		[VFU_CMD_DEVICE_GET_INFO] = "DEVICE_GET_INFO",
		[VFU_CMD_DEVICE_GET_REGION_INFO] = "DEVICE_GET_REGION_INFO",
		[VFU_CMD_DEVICE_GET_REGION_IO_FDS] = "DEVICE_GET_REGION_IO_FDS",
		[VFU_CMD_DEVICE_GET_IRQ_INFO] = "DEVICE_GET_IRQ_INFO",
		[VFU_CMD_DEVICE_SET_IRQS] = "DEVICE_SET_IRQS",
		[VFU_CMD_REGION_READ] = "REGION_READ",
		[VFU_CMD_REGION_WRITE] = "REGION_WRITE",
		[VFU_CMD_DMA_READ] = "DMA_READ",
		[VFU_CMD_DMA_WRITE] = "DMA_WRITE",
		[VFU_CMD_DEVICE_RESET] = "DEVICE_RESET",
		[VFU_CMD_DIRTY_PAGES] = "DIRTY_PAGES",
		[VFU_CMD_REGION_WRITE_MULTI] = "REGION_WRITE_MULTI",
		[VFU_CMD_DEVICE_FEATURE] = "DEVICE_FEATURE",
	};

	if (cmd < sizeof(names) / sizeof(names[0]) && names[cmd])
		return names[cmd];
	return "UNKNOWN";
}
