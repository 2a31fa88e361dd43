// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target over vgsp-vfu's message path: the header check and the
 * payload decoders (codec.c), the dispatch and every handler (server.c),
 * DMA windows (dma.c: map, unmap, accesses by the core) and interrupt
 * setup (irq.c: SET_IRQS with eventfds, masks, triggers), in front of a
 * real core instance, as vfu_serve hands each received message over.
 *
 * Each input starts with a fresh connection: no windows, no eventfds, not
 * negotiated (unless bit 0 of the first byte negotiates first), a reset
 * device. Then messages:
 *   cmd16 flags8 fds8 size_mode8 len16 payload[len]
 * flags is the header's flags byte; fds bit 0 attaches a sealed 64 KiB
 * memfd, bits 1-2 up to three eventfds; size_mode 0 makes the header size
 * exact, otherwise a fuzzed size goes through vfu_hdr_check. Each payload
 * lives in its own exact-size allocation, so an over-read is an ASan
 * report. After each input no file descriptor may be left open beyond
 * the connection's own: every descriptor the input passed must be closed
 * once the windows are dropped and the eventfds closed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include "harness.h"
#include "codec.h"
#include "server.h"

static struct vfu_server s;
static volatile sig_atomic_t stop;
/* Every descriptor an input created: all must be closed at its end. */
static int made[64 * 4];
static unsigned int nmade;

static int track(int fd)
{
	if (fd < 0)
		abort();
	if (nmade < VGSP_ARRAY_SIZE(made))
		made[nmade++] = fd;
	return fd;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const u8 uuid[16] = { 1, 2, 3 };

	vgsp_os_set(&fz_os);
	if (vfu_server_init(&s, 8))
		abort();
	s.stop = &stop;
	s.dev = vgsp_dev_create(fz_profile(), uuid, 8, &vfu_fe_ops, &s);
	if (!s.dev)
		abort();
	return 0;
}

static int new_memfd(void)
{
	int fd = memfd_create("fuzz-ram", MFD_ALLOW_SEALING);

	track(fd);
	if (ftruncate(fd, 0x10000) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW))
		abort();
	return fd;
}

static void one_message(struct fz_in *in)
{
	struct vfu_hdr h = { 0 };
	int fds[VFU_MAX_FDS];
	unsigned int nfds = 0, i, ne;
	u8 fdsel, size_mode;
	u32 len;
	u8 *p;

	h.id = 7;
	h.cmd = fz_u16(in);
	h.flags = fz_u8(in);
	fdsel = fz_u8(in);
	size_mode = fz_u8(in);
	len = fz_u16(in);
	if (len > in->n)
		len = (u32)in->n;
	h.size = (u32)sizeof(h) + len;
	if (size_mode)
		h.size = size_mode & 1 ? (u32)fz_u32(in) : h.size ^ size_mode;
	if (vfu_hdr_check(&h))
		return;			/* vfu_serve drains and refuses it */
	if (h.size < sizeof(h) || h.size - sizeof(h) > len)
		return;			/* the stream would just stall */
	len = h.size - (u32)sizeof(h);
	p = malloc(len ? len : 1);
	if (!p)
		abort();
	fz_bytes(in, p, len);
	if (fdsel & 1)
		fds[nfds++] = new_memfd();
	ne = (fdsel >> 1) & 3;
	for (i = 0; i < ne; i++) {
		fds[nfds++] = track(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
	}
	vfu_handle(&s, &h, p, fds, nfds);
	free(p);
	fz_run_workers(8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	unsigned int steps = 0, i;

	vfu_dma_remove_all(&s.dma, NULL, NULL);
	vfu_irqs_close_all(&s.irqs);
	vfu_irqs_init(&s.irqs, 8);
	vgsp_dev_reset(s.dev);
	s.negotiated = false;
	nmade = 0;
	if (fz_u8(&in) & 1) {
		u8 v[4] = { 0 };
		struct vfu_hdr h = { .id = 1, .cmd = VFU_CMD_VERSION,
				     .size = sizeof(h) + 4 };

		vfu_handle(&s, &h, v, NULL, 0);
	}
	while (fz_more(&in) && steps++ < 64)
		one_message(&in);

	vfu_dma_remove_all(&s.dma, NULL, NULL);
	vfu_irqs_close_all(&s.irqs);
	for (i = 0; i < nmade; i++)
		if (fcntl(made[i], F_GETFD) != -1)
			abort();	/* a handler leaked a descriptor */
	return 0;
}
