// SPDX-License-Identifier: GPL-2.0 OR MIT
/* vfio-user message dispatch onto the vgsp core (see server.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include "device.h"
#include "codec.h"
#include "server.h"

/* ---- fe_ops: what the core calls back into ---------------------------- */

static void tlog(struct vfu_server *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Guest-memory access from the core (GSP worker or region handlers). */
static int fe_dma(void *fe, u64 iova, void *buf, size_t len, bool write)
{
	struct vfu_server *s = fe;
	int ret = vfu_dma_rw(&s->dma, iova, buf, len, write);

	if (s->log_dma)
		tlog(s, "DMA %c iova=0x%llx len=0x%zx -> %d", write ? 'W' : 'R',
		     (unsigned long long)iova, len, ret);
	return ret;
}

static int fe_dma_read(void *fe, u64 iova, void *buf, size_t len)
{
	return fe_dma(fe, iova, buf, len, false);
}

static int fe_dma_write(void *fe, u64 iova, const void *buf, size_t len)
{
	return fe_dma(fe, iova, (void *)buf, len, true);
}

static bool fe_irq_signal(void *fe, unsigned int vector)
{
	return vfu_irqs_signal(&((struct vfu_server *)fe)->irqs, vector);
}

const struct vgsp_fe_ops vfu_fe_ops = {
	.dma_read = fe_dma_read,
	.dma_write = fe_dma_write,
	.irq_signal = fe_irq_signal,
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int vfu_server_init(struct vfu_server *s, unsigned int msix_vectors)
{
	memset(s, 0, sizeof(*s));
	vfu_dma_init(&s->dma);
	vfu_irqs_init(&s->irqs, msix_vectors);
	s->rx = malloc(VFU_MAX_MSG);
	s->tx = malloc(VFU_MAX_MSG);
	s->log_budget = 200000;
	s->log_reads_per_off = 4;
	s->bar3.fd = -1;
	s->reply_fd = -1;
	s->t0 = now_s();
	pthread_mutex_init(&s->log_lock, NULL);
	return (s->rx && s->tx) ? 0 : -ENOMEM;
}

void vfu_server_fini(struct vfu_server *s)
{
	vfu_dma_remove_all(&s->dma, NULL, NULL);
	vfu_irqs_close_all(&s->irqs);
	vfu_bar_map_close(&s->bar3);
	free(s->rx);
	free(s->tx);
}

static void tlog(struct vfu_server *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->log)
		return;
	pthread_mutex_lock(&s->log_lock);
	if (s->log_lines < s->log_budget) {
		if (++s->log_lines == s->log_budget) {
			fprintf(s->log, "%.3f transcript budget reached, further lines dropped\n",
				now_s() - s->t0);
		} else {
			fprintf(s->log, "%.3f ", now_s() - s->t0);
			va_start(ap, fmt);
			vfprintf(s->log, fmt, ap);
			va_end(ap);
			fputc('\n', s->log);
		}
	}
	pthread_mutex_unlock(&s->log_lock);
}

void vfu_server_trace_line(void *arg, const char *line)
{
	tlog(arg, "trace %s", line);
}

/* First few reads of each (region, offset) are worth a transcript line. */
static bool read_worth_logging(struct vfu_server *s, unsigned int region,
			       uint64_t off)
{
	uint64_t key = ((uint64_t)region << 56) ^ off, h = key * 0x9e3779b97f4a7c15ull;
	unsigned int i, k;

	for (i = 0; i < 16; i++) {
		k = (unsigned int)((h >> 40) + i) % VFU_TOUCH_SLOTS;
		if (s->touch[k].n == 0) {
			s->touch[k].key = key;
			s->touch[k].n = 1;
			return true;
		}
		if (s->touch[k].key == key)
			return s->touch[k].n++ < s->log_reads_per_off;
	}
	return false;
}

static void bump_dev(struct vfu_server *s, u64 *ctr)
{
	vgsp_dev_lock(s->dev);
	(*ctr)++;
	vgsp_dev_unlock(s->dev);
}

static uint64_t region_size(struct vfu_server *s, unsigned int index)
{
	if (index == VFU_PCI_CONFIG)
		return VGSP_CFG_SIZE;
	if (index <= VFU_PCI_BAR5)
		return vgsp_dev_bar_size(s->dev, index);
	return 0;
}

/*
 * One region access, with the same rules as vgsp.ko's VFIO read/write so the
 * two frontends count alike: config space takes any length inside it (QEMU
 * reads it whole), BARs take 1, 2, 4 or 8 bytes (the core checks alignment
 * and range). Anything else bumps region_bad and fails with EINVAL.
 */
static int region_access(struct vfu_server *s, unsigned int region,
			 uint64_t off, uint8_t *buf, uint32_t count, bool write)
{
	uint64_t size = region_size(s, region);

	if (!size || !count || count > VGSP_CFG_SIZE ||
	    (region != VFU_PCI_CONFIG && count > 8)) {
		bump_dev(s, &s->dev->cnt.region_bad);
		return -EINVAL;
	}
	if (region == VFU_PCI_CONFIG) {
		if (off > UINT32_MAX)
			off = UINT32_MAX;	/* still out of range: the core refuses */
		return write ? vgsp_dev_cfg_write(s->dev, (u32)off, buf, count)
			     : vgsp_dev_cfg_read(s->dev, (u32)off, buf, count);
	}
	return write ? vgsp_dev_bar_write(s->dev, region, off, buf, count)
		     : vgsp_dev_bar_read(s->dev, region, off, buf, count);
}

static uint64_t le_val(const uint8_t *d, uint32_t n)
{
	uint64_t v = 0;

	memcpy(&v, d, n > 8 ? 8 : n);
	return v;
}

static void dev_unmapped(void *arg, uint64_t iova, uint64_t size)
{
	struct vfu_server *s = arg;

	vgsp_dev_dma_unmapped(s->dev, iova, size);
	if (s->be && s->be->dma_removed)
		s->be->dma_removed(s->be_arg, iova, size);
}

static void close_fds(int *fds, unsigned int nfds)
{
	unsigned int i;

	for (i = 0; i < nfds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* ---- handlers: return reply payload length (>= 0) or -errno ----------- */

static int h_version(struct vfu_server *s, const uint8_t *p, size_t plen,
		     uint8_t *out, size_t cap)
{
	int n = vfu_version_reply(p, plen, out, cap, VFU_MAX_FDS, VFU_MAX_XFER);

	if (n >= 0) {
		s->negotiated = true;
		tlog(s, "VERSION client=\"%.*s\" -> %s", (int)(plen > 4 ? plen - 5 : 0),
		     plen > 4 ? (const char *)p + 4 : "", (const char *)out + 4);
	}
	return n;
}

static int h_dma_map(struct vfu_server *s, const uint8_t *p, size_t plen,
		     int *fds, unsigned int nfds)
{
	struct vfu_dma_map m = { 0 };
	int ret = vfu_parse_dma_map(p, plen, nfds, &m);

	if (!ret) {
		ret = vfu_dma_add(&s->dma, &m, nfds ? fds[0] : -1);
		if (nfds)
			fds[0] = -1;	/* consumed by vfu_dma_add */
		if (ret == -EPERM)
			fprintf(stderr, "vgsp-vfu: DMA_MAP iova=0x%llx refused: the memory file is not sealed with F_SEAL_SHRINK (use memory-backend-memfd with seal=on, the default)\n",
				(unsigned long long)m.iova);
		if (!ret && s->be && s->be->dma_added) {
			bool wr = false;
			uint8_t *base = vfu_dma_window(&s->dma, m.iova, &wr);

			/* read-only windows (ROMs) stay out of the GPU's reach */
			if (base && wr)
				ret = s->be->dma_added(s->be_arg, m.iova,
						       m.size, base);
			if (ret)
				vfu_dma_remove(&s->dma, m.iova, m.size);
		}
	}
	tlog(s, "DMA_MAP iova=0x%llx size=0x%llx off=0x%llx flags=%u fd=%s -> %d",
	     (unsigned long long)m.iova, (unsigned long long)m.size,
	     (unsigned long long)m.offset, m.flags, nfds ? "yes" : "no", ret);
	return ret;
}

static int h_dma_unmap(struct vfu_server *s, const uint8_t *p, size_t plen,
		       uint8_t *out)
{
	struct vfu_dma_unmap u = { 0 };
	int ret = vfu_parse_dma_unmap(p, plen, &u);

	if (!ret) {
		if (u.flags & VFU_UNMAP_F_ALL) {
			vfu_dma_remove_all(&s->dma, dev_unmapped, s);
		} else {
			/* Tell the core first: it must stop relying on the range. */
			vgsp_dev_dma_unmapped(s->dev, u.iova, u.size);
			if (s->be && s->be->dma_removed)
				s->be->dma_removed(s->be_arg, u.iova, u.size);
			ret = vfu_dma_remove(&s->dma, u.iova, u.size);
		}
	}
	tlog(s, "DMA_UNMAP iova=0x%llx size=0x%llx flags=%u -> %d",
	     (unsigned long long)u.iova, (unsigned long long)u.size, u.flags, ret);
	if (ret)
		return ret;
	u.argsz = sizeof(u);
	memcpy(out, &u, sizeof(u));
	return sizeof(u);
}

static int h_device_info(struct vfu_server *s, const uint8_t *p, size_t plen,
			 uint8_t *out)
{
	struct vfu_device_info d = {
		.argsz = sizeof(d),
		.flags = VFU_DEV_F_PCI | VFU_DEV_F_RESET,
		.num_regions = VFU_PCI_NUM_REGIONS,
		.num_irqs = VFU_NUM_IRQS,
	};
	uint32_t argsz;
	int ret = vfu_parse_device_info(p, plen, &argsz);

	tlog(s, "DEVICE_GET_INFO -> %d regions=%u irqs=%u", ret, d.num_regions,
	     d.num_irqs);
	if (ret)
		return ret;
	memcpy(out, &d, sizeof(d));
	return sizeof(d);
}

/*
 * A region the client may map: MMAP, and a sparse-mmap capability with one
 * area, the first @len bytes (the core traps the rest), when argsz leaves
 * room for it (else argsz says how much to ask for, as VFIO does). The
 * memfd goes with the reply.
 */
static int region_info_mmap(struct vfu_server *s, struct vfu_region_info *r,
			    uint32_t argsz, uint64_t len, uint8_t *out)
{
	struct vfu_cap_sparse_mmap cap = {
		.id = VFU_CAP_SPARSE_MMAP, .version = 1, .nr_areas = 1,
		.area_offset = 0, .area_size = len,
	};

	r->flags |= VFU_REGION_F_MMAP;
	r->offset = 0;			/* of the memfd */
	r->argsz = sizeof(*r) + sizeof(cap);
	if (argsz < r->argsz) {
		/* QEMU refuses CAPS with no cap_offset: only say the size */
		memcpy(out, r, sizeof(*r));
		return sizeof(*r);
	}
	r->flags |= VFU_REGION_F_CAPS;
	r->cap_offset = sizeof(*r);
	s->reply_fd = s->bar3.fd;
	memcpy(out, r, sizeof(*r));
	memcpy(out + sizeof(*r), &cap, sizeof(cap));
	return sizeof(*r) + sizeof(cap);
}

static int h_region_info(struct vfu_server *s, const uint8_t *p, size_t plen,
			 uint8_t *out)
{
	struct vfu_region_info r;
	int ret = vfu_parse_region_info(p, plen, &r);
	uint32_t argsz;
	uint64_t len;

	if (ret)
		return ret;
	if (r.index >= VFU_PCI_NUM_REGIONS)
		return -EINVAL;
	argsz = r.argsz;
	r.argsz = sizeof(r);
	r.size = region_size(s, r.index);
	r.flags = r.size ? (VFU_REGION_F_READ | VFU_REGION_F_WRITE) : 0;
	r.cap_offset = 0;
	r.offset = (uint64_t)r.index << 40;	/* not mapped: no MMAP flag */
	len = vgsp_dev_bar_mmap_len(s->dev, r.index);
	if (r.size && len && s->bar3.fd >= 0 && r.size == s->bar3.size) {
		ret = region_info_mmap(s, &r, argsz, len, out);
		tlog(s, "DEVICE_GET_REGION_INFO index=%u size=0x%llx flags=%u mmap=0x0+0x%llx%s",
		     r.index, (unsigned long long)r.size, r.flags,
		     (unsigned long long)len,
		     r.cap_offset ? " fd" : " (argsz short)");
		return ret;
	}
	tlog(s, "DEVICE_GET_REGION_INFO index=%u size=0x%llx flags=%u", r.index,
	     (unsigned long long)r.size, r.flags);
	memcpy(out, &r, sizeof(r));
	return sizeof(r);
}

static int h_irq_info(struct vfu_server *s, const uint8_t *p, size_t plen,
		      uint8_t *out)
{
	struct vfu_irq_info i;
	int ret = vfu_parse_irq_info(p, plen, &i);

	if (ret)
		return ret;
	if (i.index >= VFU_NUM_IRQS)
		return -EINVAL;
	i.argsz = sizeof(i);
	i.flags = vfu_irq_info_flags(i.index);
	i.count = s->irqs.count[i.index];
	tlog(s, "DEVICE_GET_IRQ_INFO index=%u count=%u flags=%u", i.index,
	     i.count, i.flags);
	memcpy(out, &i, sizeof(i));
	return sizeof(i);
}

static int h_set_irqs(struct vfu_server *s, const uint8_t *p, size_t plen,
		      int *fds, unsigned int nfds)
{
	struct vfu_irq_set set = { 0 };
	const uint8_t *bools;
	int ret = vfu_parse_set_irqs(p, plen, nfds, &set, &bools);

	if (ret) {
		close_fds(fds, nfds);
		return ret;
	}
	ret = vfu_irqs_set(&s->irqs, &set, bools, fds, nfds);
	s->irq_mode_last = vfu_irqs_mode(&s->irqs);
	tlog(s, "DEVICE_SET_IRQS index=%u start=%u count=%u flags=0x%x fds=%u -> %d mode=%s",
	     set.index, set.start, set.count, set.flags, nfds, ret,
	     vfu_irqs_mode(&s->irqs));
	return ret;
}

static int h_region_read(struct vfu_server *s, const uint8_t *p, size_t plen,
			 uint8_t *out, size_t cap)
{
	struct vfu_region_rw rw;
	const uint8_t *unused;
	int ret = vfu_parse_region_rw(p, plen, false, &rw, &unused);

	if (ret)
		return ret;
	if (sizeof(rw) + rw.count > cap)
		return -E2BIG;
	ret = region_access(s, rw.region, rw.offset, out + sizeof(rw), rw.count,
			    false);
	if (rw.region == VFU_PCI_CONFIG ||
	    read_worth_logging(s, rw.region, rw.offset))
		tlog(s, "R region=%u off=0x%llx n=%u -> %d val=0x%llx", rw.region,
		     (unsigned long long)rw.offset, rw.count, ret,
		     ret ? 0ull : (unsigned long long)le_val(out + sizeof(rw), rw.count));
	if (ret)
		return ret;
	memcpy(out, &rw, sizeof(rw));
	return (int)(sizeof(rw) + rw.count);
}

static int h_region_write(struct vfu_server *s, const uint8_t *p, size_t plen,
			  uint8_t *out)
{
	struct vfu_region_rw rw;
	const uint8_t *data;
	uint8_t tmp[8];
	int ret = vfu_parse_region_rw(p, plen, true, &rw, &data);

	if (ret)
		return ret;
	/* The core may keep a pointer only for the call; data lives in rx. */
	ret = region_access(s, rw.region, rw.offset, (uint8_t *)data, rw.count, true);
	memcpy(tmp, data, rw.count < 8 ? rw.count : 8);
	tlog(s, "W region=%u off=0x%llx n=%u val=0x%llx -> %d", rw.region,
	     (unsigned long long)rw.offset, rw.count,
	     (unsigned long long)le_val(tmp, rw.count), ret);
	if (ret)
		return ret;
	memcpy(out, &rw, sizeof(rw));
	return sizeof(rw);
}

static int h_write_multi(struct vfu_server *s, const uint8_t *p, size_t plen,
			 uint8_t *out)
{
	const struct vfu_wr_one *w;
	uint64_t n, i;
	int ret = vfu_parse_write_multi(p, plen, &n, &w);

	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		uint8_t d[VFU_MULTI_DATA];

		memcpy(d, w[i].data, sizeof(d));
		ret = region_access(s, w[i].region, w[i].offset, d, w[i].count, true);
		tlog(s, "W* region=%u off=0x%llx n=%u val=0x%llx -> %d", w[i].region,
		     (unsigned long long)w[i].offset, w[i].count,
		     (unsigned long long)le_val(d, w[i].count), ret);
		if (ret)
			return ret;
	}
	memcpy(out, &n, sizeof(n));
	return sizeof(n);
}

size_t vfu_handle(struct vfu_server *s, const struct vfu_hdr *h,
		  const uint8_t *p, int *fds, unsigned int nfds)
{
	struct vfu_hdr *r = (struct vfu_hdr *)s->tx;
	uint8_t *out = s->tx + sizeof(*r);
	size_t cap = VFU_MAX_MSG - sizeof(*r);
	size_t plen = h->size - sizeof(*h);
	unsigned int cmd = h->cmd < VFU_CMD_MAX ? h->cmd : VFU_CMD_MAX;
	int ret;

	s->msgs[cmd]++;
	if ((h->flags & VFU_F_TYPE_MASK) != VFU_F_TYPE_COMMAND) {
		/* We never send requests, so no reply can be expected. */
		close_fds(fds, nfds);
		s->bad_msgs++;
		tlog(s, "unexpected reply-type message id=%u cmd=%u", h->id, h->cmd);
		return 0;
	}
	if (!s->negotiated && h->cmd != VFU_CMD_VERSION) {
		ret = -EINVAL;
		close_fds(fds, nfds);
		goto done;
	}
	/* Handlers that take no fds get none: close whatever came along. */
	if (h->cmd != VFU_CMD_DMA_MAP && h->cmd != VFU_CMD_DEVICE_SET_IRQS && nfds) {
		close_fds(fds, nfds);
		ret = -EINVAL;
		goto done;
	}
	switch (h->cmd) {
	case VFU_CMD_VERSION:
		ret = h_version(s, p, plen, out, cap);
		break;
	case VFU_CMD_DMA_MAP:
		ret = h_dma_map(s, p, plen, fds, nfds);
		close_fds(fds, nfds);
		break;
	case VFU_CMD_DMA_UNMAP:
		ret = h_dma_unmap(s, p, plen, out);
		break;
	case VFU_CMD_DEVICE_GET_INFO:
		ret = h_device_info(s, p, plen, out);
		break;
	case VFU_CMD_DEVICE_GET_REGION_INFO:
		ret = h_region_info(s, p, plen, out);
		break;
	case VFU_CMD_DEVICE_GET_IRQ_INFO:
		ret = h_irq_info(s, p, plen, out);
		break;
	case VFU_CMD_DEVICE_SET_IRQS:
		ret = h_set_irqs(s, p, plen, fds, nfds);
		break;
	case VFU_CMD_REGION_READ:
		ret = h_region_read(s, p, plen, out, cap);
		break;
	case VFU_CMD_REGION_WRITE:
		ret = h_region_write(s, p, plen, out);
		break;
	case VFU_CMD_REGION_WRITE_MULTI:
		ret = h_write_multi(s, p, plen, out);
		break;
	case VFU_CMD_DEVICE_RESET:
		ret = plen ? -EINVAL : 0;
		if (!ret)
			vgsp_dev_reset(s->dev);
		tlog(s, "DEVICE_RESET -> %d", ret);
		break;
	default:
		/* IO_FDS, DMA_READ/WRITE (server->client only), dirty pages,
		 * features (migration): not offered. */
		ret = -ENOTSUP;
		tlog(s, "%s (%u) -> not supported", vfu_cmd_name(h->cmd), h->cmd);
		break;
	}
done:
	if (ret < 0) {
		s->errs[cmd]++;
		if (h->cmd != VFU_CMD_REGION_READ && h->cmd != VFU_CMD_REGION_WRITE)
			tlog(s, "%s id=%u -> error %d", vfu_cmd_name(h->cmd), h->id, ret);
	}
	if (h->flags & VFU_F_NO_REPLY)
		return 0;
	r->id = h->id;
	r->cmd = h->cmd;
	r->flags = VFU_F_TYPE_REPLY | (ret < 0 ? VFU_F_ERROR : 0);
	r->error = ret < 0 ? (uint32_t)-ret : 0;
	r->size = (uint32_t)sizeof(*r) + (ret > 0 ? (uint32_t)ret : 0);
	return r->size;
}

/* ---- socket I/O ------------------------------------------------------- */

/* Read exactly @len bytes; 0 on success, -1 on EOF/error. */
static int read_full(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		/* EAGAIN: the receive timeout fired mid-message; keep waiting. */
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Receive the header and any SCM_RIGHTS fds that came with it. Returns 1 on
 * a message, 0 on EOF, -1 on error, -2 when idle (receive timeout / signal).
 * Truncated control data closes what came.
 */
static int recv_hdr(int fd, struct vfu_hdr *h, int *fds, unsigned int *nfds)
{
	union {
		char buf[CMSG_SPACE(VFU_MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} c;
	struct iovec iov = { .iov_base = h, .iov_len = sizeof(*h) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = c.buf, .msg_controllen = sizeof(c.buf) };
	struct cmsghdr *cm;
	ssize_t n;
	bool trunc;

	*nfds = 0;
	n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return -2;	/* idle (receive timeout) or a signal */
	if (n <= 0)
		return n == 0 ? 0 : -1;
	trunc = m.msg_flags & MSG_CTRUNC;
	for (cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm)) {
		unsigned int k, cnt;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		cnt = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (k = 0; k < cnt; k++) {
			int f;

			memcpy(&f, CMSG_DATA(cm) + k * sizeof(int), sizeof(int));
			if (*nfds < VFU_MAX_FDS)
				fds[(*nfds)++] = f;
			else
				close(f);
		}
	}
	if (trunc) {
		close_fds(fds, *nfds);
		*nfds = 0;
		return -1;
	}
	if ((size_t)n < sizeof(*h) && read_full(fd, (uint8_t *)h + n, sizeof(*h) - n))
		return -1;
	return 1;
}

/* Discard @len bytes of an oversized message. */
static int drain(int fd, uint8_t *scratch, size_t len)
{
	while (len) {
		size_t n = len > VFU_MAX_MSG ? VFU_MAX_MSG : len;

		if (read_full(fd, scratch, n))
			return -1;
		len -= n;
	}
	return 0;
}

/*
 * Send @len bytes of @buf with @passfd as SCM_RIGHTS in one sendmsg (the
 * client reads the header and its fds in one go): bytes sent, or -1.
 */
static int send_fd(int fd, const uint8_t *buf, size_t len, int passfd)
{
	union {
		char b[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.b, .msg_controllen = sizeof(u.b) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	ssize_t n;

	memset(&u, 0, sizeof(u));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &passfd, sizeof(int));
	do {
		n = sendmsg(fd, &mh, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	return n < (ssize_t)sizeof(struct vfu_hdr) ? -1 : (int)n;
}

int vfu_serve(struct vfu_server *s, int fd)
{
	struct timeval tv = { .tv_sec = 1 };
	int fds[VFU_MAX_FDS];
	unsigned int nfds;
	double last_tick;
	int ret = 0;

	s->conns++;
	s->negotiated = false;
	bump_dev(s, &s->dev->cnt.opens);
	tlog(s, "client connected");
	/*
	 * No poll() per message: a blocking recvmsg with a 1 s receive timeout
	 * saves a syscall on the hot region-read path and still lets us tick.
	 */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	last_tick = now_s();
	while (!*s->stop) {
		struct vfu_hdr h;
		size_t rlen;
		int r;

		if (s->tick && now_s() - last_tick >= 1.0) {
			last_tick = now_s();
			s->tick(s);
		}
		r = recv_hdr(fd, &h, fds, &nfds);
		if (r == -2)
			continue;
		if (r <= 0) {
			ret = r ? -EIO : 0;
			break;
		}
		s->bytes_in += sizeof(h);
		if (h.size < sizeof(h)) {
			/* Cannot find the next message boundary: give up. */
			close_fds(fds, nfds);
			s->bad_msgs++;
			tlog(s, "bad header size %u: closing", h.size);
			ret = -EPROTO;
			break;
		}
		if ((r = vfu_hdr_check(&h))) {
			close_fds(fds, nfds);
			s->bad_msgs++;
			if (h.size > 64u * VFU_MAX_MSG || drain(fd, s->rx, h.size - sizeof(h))) {
				ret = -EPROTO;
				break;
			}
			tlog(s, "refused message id=%u cmd=%u size=%u", h.id, h.cmd, h.size);
			if (!(h.flags & VFU_F_NO_REPLY)) {
				struct vfu_hdr e = { .id = h.id, .cmd = h.cmd, .size = sizeof(e),
						     .flags = VFU_F_TYPE_REPLY | VFU_F_ERROR,
						     .error = (uint32_t)-r };
				if (write_full(fd, &e, sizeof(e)))
					break;
			}
			continue;
		}
		if (read_full(fd, s->rx, h.size - sizeof(h))) {
			close_fds(fds, nfds);
			ret = -EIO;
			break;
		}
		s->bytes_in += h.size - sizeof(h);
		rlen = vfu_handle(s, &h, s->rx, fds, nfds);
		if (rlen && s->reply_fd >= 0) {
			r = send_fd(fd, s->tx, rlen, s->reply_fd);
			s->reply_fd = -1;
			if (r < 0 || write_full(fd, s->tx + r, rlen - (size_t)r)) {
				ret = -EIO;
				break;
			}
			s->bytes_out += rlen;
		} else if (rlen) {
			if (write_full(fd, s->tx, rlen)) {
				ret = -EIO;
				break;
			}
			s->bytes_out += rlen;
		}
		s->reply_fd = -1;	/* never carried over to another reply */
	}
	/*
	 * Drop the client's memory and eventfds, and reset the device (as
	 * vgsp.ko does on close): with --persist the next client must not
	 * see this one's FB, BARs, config or GSP state (review 1d). Reset
	 * first, so the GSP worker stops using the memory before it goes.
	 */
	vfu_irqs_close_all(&s->irqs);
	vgsp_dev_reset(s->dev);
	vfu_dma_remove_all(&s->dma, dev_unmapped, s);
	bump_dev(s, &s->dev->cnt.closes);
	tlog(s, "client gone (%d)", ret);
	if (s->log)
		fflush(s->log);
	return ret;
}

void vfu_server_show(struct vfu_server *s, FILE *f)
{
	unsigned int i;

	fprintf(f, "connections %llu\n", (unsigned long long)s->conns);
	fprintf(f, "bytes_in %llu\nbytes_out %llu\nbad_msgs %llu\n",
		(unsigned long long)s->bytes_in, (unsigned long long)s->bytes_out,
		(unsigned long long)s->bad_msgs);
	for (i = 1; i <= VFU_CMD_MAX; i++)
		if (s->msgs[i])
			fprintf(f, "msg %s %llu errors %llu\n", vfu_cmd_name(i),
				(unsigned long long)s->msgs[i],
				(unsigned long long)s->errs[i]);
	pthread_mutex_lock(&s->dma.lock);
	fprintf(f, "dma_windows %u\n", s->dma.n);
	for (i = 0; i < s->dma.n; i++)
		fprintf(f, "dma_window iova=0x%llx size=0x%llx %s\n",
			(unsigned long long)s->dma.win[i].iova,
			(unsigned long long)s->dma.win[i].size,
			s->dma.win[i].base ? (s->dma.win[i].writable ? "rw" : "ro") : "no-fd");
	fprintf(f, "dma_reads %llu\ndma_writes %llu\ndma_faults %llu\n",
		(unsigned long long)s->dma.reads, (unsigned long long)s->dma.writes,
		(unsigned long long)s->dma.faults);
	pthread_mutex_unlock(&s->dma.lock);
	fprintf(f, "irq_mode %s\nirq_mode_last_set %s\nirq_signalled %llu\nirq_suppressed %llu\n",
		vfu_irqs_mode(&s->irqs), s->irq_mode_last ? s->irq_mode_last : "none",
		(unsigned long long)s->irqs.signalled,
		(unsigned long long)s->irqs.suppressed);
}
