// SPDX-License-Identifier: GPL-2.0 OR MIT
/* A small vfio-user client for the vgsp-vfu lifecycle tests (see vfu_client.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "vfu_client.h"
#include "replay.h"

#define VC_MAX_REPLY	(16 + 16 + 4096)

static int poll_in(int fd, unsigned int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;

	do
		r = poll(&p, 1, (int)ms);
	while (r < 0 && errno == EINTR);
	return r == 1 ? 0 : r == 0 ? -ETIMEDOUT : -EIO;
}

static int read_full(struct vc *c, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n;
		int r = poll_in(c->sock, c->timeout_ms);

		if (r)
			return r;
		n = read(c->sock, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int vc_send_raw(struct vc *c, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(c->sock, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int send_msg(struct vc *c, const struct vfu_hdr *h, const void *p,
		    uint32_t plen, int fd)
{
	union { char b[CMSG_SPACE(sizeof(int))]; struct cmsghdr a; } cb;
	struct iovec iov[2] = {
		{ .iov_base = (void *)h, .iov_len = sizeof(*h) },
		{ .iov_base = (void *)p, .iov_len = plen },
	};
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = plen ? 2 : 1 };
	size_t want = sizeof(*h) + plen;
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *cm;

		m.msg_control = cb.b;
		m.msg_controllen = sizeof(cb.b);
		cm = CMSG_FIRSTHDR(&m);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	do
		n = sendmsg(c->sock, &m, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -EIO;
	if ((size_t)n < want) {
		/* the rest without the fd */
		uint8_t tmp[sizeof(*h)];
		size_t done = (size_t)n;

		if (done < sizeof(*h)) {
			memcpy(tmp, h, sizeof(*h));
			if (vc_send_raw(c, tmp + done, sizeof(*h) - done))
				return -EIO;
			done = sizeof(*h);
		}
		return vc_send_raw(c, (const uint8_t *)p + (done - sizeof(*h)),
				   want - done);
	}
	return 0;
}

int vc_recv_any(struct vc *c, struct vfu_hdr *h)
{
	static uint8_t sink[4096];
	uint32_t left;
	int r = read_full(c, h, sizeof(*h));

	if (r)
		return r;
	if (h->size < sizeof(*h))
		return -EIO;
	for (left = h->size - (uint32_t)sizeof(*h); left;) {
		uint32_t n = left > sizeof(sink) ? (uint32_t)sizeof(sink) : left;

		if ((r = read_full(c, sink, n)))
			return r;
		left -= n;
	}
	return 0;
}

int vc_call(struct vc *c, uint16_t cmd, const void *p, uint32_t plen, int fd,
	    void *rep, uint32_t cap, uint32_t *replen)
{
	struct vfu_hdr h = { .id = ++c->id, .cmd = cmd,
			     .size = (uint32_t)sizeof(h) + plen };
	uint8_t buf[VC_MAX_REPLY];
	uint32_t n;
	int r = send_msg(c, &h, p, plen, fd);

	if (r)
		return r;
	if ((r = read_full(c, &h, sizeof(h))))
		return r;
	if (h.size < sizeof(h) || h.size > sizeof(h) + sizeof(buf) ||
	    h.id != c->id || h.cmd != cmd ||
	    (h.flags & VFU_F_TYPE_MASK) != VFU_F_TYPE_REPLY)
		return -EIO;
	n = h.size - (uint32_t)sizeof(h);
	if ((r = read_full(c, buf, n)))
		return r;
	if (h.flags & VFU_F_ERROR)
		return h.error ? -(int)h.error : -EIO;
	if (rep)
		memcpy(rep, buf, n < cap ? n : cap);
	if (replen)
		*replen = n;
	return 0;
}

int vc_connect(struct vc *c, const char *path, unsigned int timeout_ms)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	static const char v[] = "\x00\x00\x00\x00{\"capabilities\":{}}";
	uint8_t rep[256];
	uint32_t n = 0;
	int r;

	memset(c, 0, sizeof(*c));
	c->memfd = c->efd = -1;
	c->timeout_ms = timeout_ms ? timeout_ms : 10000;
	if (strlen(path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	strcpy(a.sun_path, path);
	c->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->sock < 0)
		return -errno;
	if (connect(c->sock, (struct sockaddr *)&a, sizeof(a))) {
		r = -errno;
		close(c->sock);
		c->sock = -1;
		return r;
	}
	r = vc_call(c, VFU_CMD_VERSION, v, sizeof(v), -1, rep, sizeof(rep), &n);
	if (!r && n < 4)
		r = -EPROTO;
	return r;
}

void vc_close(struct vc *c)
{
	if (c->sock >= 0)
		close(c->sock);
	if (c->mem)
		munmap(c->mem, c->mem_size);
	if (c->memfd >= 0)
		close(c->memfd);
	if (c->efd >= 0)
		close(c->efd);
	c->sock = c->memfd = c->efd = -1;
	c->mem = NULL;
}

int vc_read(struct vc *c, uint32_t region, uint64_t off, void *buf, uint32_t n)
{
	struct vfu_region_rw rw = { .offset = off, .region = region, .count = n };
	uint8_t rep[16 + 4096];
	uint32_t len = 0;
	int r;

	if (n > 4096)
		return -EINVAL;
	r = vc_call(c, VFU_CMD_REGION_READ, &rw, sizeof(rw), -1, rep, sizeof(rep), &len);
	if (r)
		return r;
	if (len != sizeof(rw) + n)
		return -EPROTO;
	memcpy(buf, rep + sizeof(rw), n);
	if (region == VFU_PCI_BAR0)
		c->bar0_reads++;
	else if (region == VFU_PCI_CONFIG)
		c->cfg_reads++;
	return 0;
}

int vc_write(struct vc *c, uint32_t region, uint64_t off, const void *buf,
	     uint32_t n)
{
	uint8_t p[16 + 64];
	struct vfu_region_rw rw = { .offset = off, .region = region, .count = n };
	int r;

	if (n > 64)
		return -EINVAL;
	memcpy(p, &rw, sizeof(rw));
	memcpy(p + sizeof(rw), buf, n);
	r = vc_call(c, VFU_CMD_REGION_WRITE, p, (uint32_t)sizeof(rw) + n, -1,
		    NULL, 0, NULL);
	if (!r && region == VFU_PCI_BAR0)
		c->bar0_writes++;
	else if (!r && region == VFU_PCI_CONFIG)
		c->cfg_writes++;
	return r;
}

uint32_t vc_rd32(struct vc *c, uint32_t off)
{
	uint32_t v;

	return vc_read(c, VFU_PCI_BAR0, off, &v, 4) ? 0xffffffffu : v;
}

int vc_wr32(struct vc *c, uint32_t off, uint32_t val)
{
	return vc_write(c, VFU_PCI_BAR0, off, &val, 4);
}

int vc_mem(struct vc *c, size_t size, uint64_t iova)
{
	struct vfu_dma_map m = { .argsz = sizeof(m),
				 .flags = VFU_DMA_F_READ | VFU_DMA_F_WRITE,
				 .iova = iova, .size = size };
	int fd = memfd_create("vc-guest-ram", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	void *p;
	int r;

	if (fd < 0)
		return -errno;
	/* sealed as QEMU's memory-backend-memfd (seal=on) */
	if (ftruncate(fd, (off_t)size) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW)) {
		r = -errno;
		close(fd);
		return r;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		r = -errno;
		close(fd);
		return r;
	}
	r = vc_call(c, VFU_CMD_DMA_MAP, &m, sizeof(m), fd, NULL, 0, NULL);
	if (r) {
		munmap(p, size);
		close(fd);
		return r;
	}
	c->memfd = fd;
	c->mem = p;
	c->mem_size = size;
	c->iova = iova;
	return 0;
}

int vc_msix0(struct vc *c)
{
	struct vfu_irq_set s = { .argsz = sizeof(s) + 0,
				 .flags = VFU_IRQ_SET_DATA_EVENTFD |
					  VFU_IRQ_SET_ACTION_TRIGGER,
				 .index = VFU_IRQ_MSIX, .start = 0, .count = 1 };
	int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK), r;

	if (fd < 0)
		return -errno;
	r = vc_call(c, VFU_CMD_DEVICE_SET_IRQS, &s, sizeof(s), fd, NULL, 0, NULL);
	if (r) {
		close(fd);
		return r;
	}
	if (c->efd >= 0)
		close(c->efd);
	c->efd = fd;
	return 0;
}

int vc_reset(struct vc *c)
{
	return vc_call(c, VFU_CMD_DEVICE_RESET, NULL, 0, -1, NULL, 0, NULL);
}

int vc_bus_master(struct vc *c)
{
	uint16_t cmd;
	int r = vc_read(c, VFU_PCI_CONFIG, 4, &cmd, 2);

	if (r)
		return r;
	cmd |= 0x06;
	return vc_write(c, VFU_PCI_CONFIG, 4, &cmd, 2);
}

/* ---- replay transport ---- */

static uint32_t t_rd32(void *ctx, uint32_t off)
{
	return vc_rd32(ctx, off);
}

static void t_wr32(void *ctx, uint32_t off, uint32_t val)
{
	(void)vc_wr32(ctx, off, val);
}

#define VC_IOVA	0x80000000ull

static int t_mem_alloc(void *ctx, size_t size, void **va, uint64_t *iova)
{
	struct vc *c = ctx;
	int r = vc_mem(c, size, VC_IOVA);

	if (r)
		return r;
	*va = c->mem;
	*iova = c->iova;
	return 0;
}

static int t_wait_irq(void *ctx, unsigned int ms)
{
	struct vc *c = ctx;
	uint64_t n;

	if (c->efd < 0 || poll_in(c->efd, ms))
		return -ETIMEDOUT;
	return read(c->efd, &n, sizeof(n)) == sizeof(n) ? 0 : -EIO;
}

static uint64_t t_now(void *ctx)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int t_reset(void *ctx)
{
	return vc_reset(ctx);
}

static int t_bus_master(void *ctx)
{
	return vc_bus_master(ctx);
}

void vc_transport(struct vc *c, struct rp_transport *t, const uint8_t uuid[16])
{
	memset(t, 0, sizeof(*t));
	t->ctx = c;
	t->rd32 = t_rd32;
	t->wr32 = t_wr32;
	t->mem_alloc = t_mem_alloc;
	t->wait_irq = t_wait_irq;
	t->now_ns = t_now;
	t->reset = t_reset;
	t->bus_master = t_bus_master;
	memcpy(t->uuid, uuid, 16);
}
