// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vgsp-vfu end to end against the real core: message dispatch (vfu_handle)
 * and a whole session over a socketpair with fds passed the way QEMU does.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <cmocka.h>
#include "device.h"
#include "os_user.h"
#include "codec.h"
#include "server.h"

static struct vfu_server s;
static volatile sig_atomic_t stop;

static int setup(void **st)
{
	static const u8 uuid[16] = { 1, 2, 3 };

	vgsp_os_user_init();
	assert_int_equal(vfu_server_init(&s, 8), 0);
	s.stop = &stop;
	s.dev = vgsp_dev_create(vgsp_profile_find("h100-10g"), uuid, 8, &vfu_fe_ops, &s);
	assert_non_null(s.dev);
	return 0;
}

static int teardown(void **st)
{
	vgsp_dev_destroy(s.dev);
	vfu_server_fini(&s);
	return 0;
}

/* Build a message in @buf; returns the header. */
static struct vfu_hdr *msg(uint8_t *buf, uint16_t cmd, const void *p, uint32_t plen,
			   uint32_t flags)
{
	struct vfu_hdr *h = (struct vfu_hdr *)buf;

	h->id = 7;
	h->cmd = cmd;
	h->size = (uint32_t)sizeof(*h) + plen;
	h->flags = flags;
	h->error = 0;
	if (plen)
		memcpy(buf + sizeof(*h), p, plen);
	return h;
}

static const struct vfu_hdr *reply(void)
{
	return (const struct vfu_hdr *)s.tx;
}

static size_t handle(uint16_t cmd, const void *p, uint32_t plen, uint32_t flags)
{
	static uint8_t buf[4096];
	struct vfu_hdr *h = msg(buf, cmd, p, plen, flags);

	return vfu_handle(&s, h, buf + sizeof(*h), NULL, 0);
}

static void negotiate(void)
{
	uint8_t v[4] = { 0 };

	assert_true(handle(VFU_CMD_VERSION, v, 4, 0) > 20);
	assert_int_equal(reply()->flags, VFU_F_TYPE_REPLY);
}

static void test_version_first(void **st)
{
	struct vfu_device_info d = { .argsz = 16 };

	s.negotiated = false;
	/* anything before VERSION is refused */
	assert_int_equal(handle(VFU_CMD_DEVICE_GET_INFO, &d, 16, 0), 16);
	assert_int_equal(reply()->flags, VFU_F_TYPE_REPLY | VFU_F_ERROR);
	assert_int_equal(reply()->error, EINVAL);
	assert_int_equal(reply()->id, 7);
	negotiate();
	assert_int_equal(handle(VFU_CMD_DEVICE_GET_INFO, &d, 16, 0), 32);
	memcpy(&d, s.tx + 16, 16);
	assert_int_equal(d.num_regions, 9);
	assert_int_equal(d.num_irqs, 5);
	assert_int_equal(d.flags, VFU_DEV_F_PCI | VFU_DEV_F_RESET);
}

static void test_regions(void **st)
{
	struct vfu_region_info r = { .argsz = 32 };
	struct vfu_region_rw rw = { .offset = 0, .region = VFU_PCI_CONFIG, .count = 4 };
	uint32_t v;

	negotiate();
	r.index = 0;
	assert_int_equal(handle(VFU_CMD_DEVICE_GET_REGION_INFO, &r, 32, 0), 48);
	memcpy(&r, s.tx + 16, 32);
	assert_int_equal(r.size, 16u << 20);
	assert_int_equal(r.flags, VFU_REGION_F_READ | VFU_REGION_F_WRITE);
	r.index = 9;
	assert_int_equal(handle(VFU_CMD_DEVICE_GET_REGION_INFO, &r, 32, 0), 16);
	assert_int_equal(reply()->error, EINVAL);
	/* vendor/device from config space */
	assert_int_equal(handle(VFU_CMD_REGION_READ, &rw, 16, 0), 36);
	memcpy(&v, s.tx + 32, 4);
	assert_int_equal(v, 0x233010de);
	/* a whole-config-space read is one access, counted once (as in vgsp.ko) */
	{
		uint64_t before = s.dev->cnt.cfg_reads, rb = s.dev->cnt.region_bad;
		uint64_t b0 = s.dev->cnt.bar0_bad;

		rw.count = 4096;
		assert_int_equal(handle(VFU_CMD_REGION_READ, &rw, 16, 0), 32 + 4096);
		assert_int_equal(s.dev->cnt.cfg_reads, before + 1);
		rw.count = 4097;
		assert_int_equal(handle(VFU_CMD_REGION_READ, &rw, 16, 0), 16);
		/* BARs: more than 8 bytes is refused by the frontend ... */
		rw.region = 0;
		rw.count = 16;
		assert_int_equal(handle(VFU_CMD_REGION_READ, &rw, 16, 0), 16);
		assert_int_equal(s.dev->cnt.region_bad, rb + 2);
		/* ... misalignment by the core */
		rw.offset = 2;
		rw.count = 4;
		assert_int_equal(handle(VFU_CMD_REGION_READ, &rw, 16, 0), 16);
		assert_int_equal(reply()->error, EINVAL);
		assert_int_equal(s.dev->cnt.bar0_bad, b0 + 1);
		rw.offset = 0;
		rw.region = VFU_PCI_CONFIG;
	}
	/* PMC_BOOT_0 */
	rw.region = 0;
	rw.count = 4;
	assert_int_equal(handle(VFU_CMD_REGION_READ, &rw, 16, 0), 36);
	memcpy(&v, s.tx + 32, 4);
	assert_int_equal(v, s.dev->profile->chip->pmc_boot_0);
	/* out of range, unaligned past the end, nonexistent region */
	rw.offset = (16u << 20) - 2;
	assert_int_equal(handle(VFU_CMD_REGION_READ, &rw, 16, 0), 16);
	assert_int_equal(reply()->error, EINVAL);
	rw.offset = 0;
	rw.region = VFU_PCI_ROM;
	assert_int_equal(handle(VFU_CMD_REGION_READ, &rw, 16, 0), 16);
	assert_int_equal(reply()->error, EINVAL);
	assert_true(s.dev->cnt.region_bad >= 1);
	rw.region = 200;
	assert_int_equal(handle(VFU_CMD_REGION_READ, &rw, 16, 0), 16);
	assert_int_equal(reply()->flags & VFU_F_ERROR, VFU_F_ERROR);
}

static void test_writes_and_no_reply(void **st)
{
	uint8_t p[16 + 4];
	struct vfu_region_rw rw = { .offset = 0x3c, .region = VFU_PCI_CONFIG, .count = 1 };
	uint64_t before = s.dev->cnt.cfg_writes;

	negotiate();
	memcpy(p, &rw, 16);
	p[16] = 0x5a;
	/* posted write: no reply, but applied */
	assert_int_equal(handle(VFU_CMD_REGION_WRITE, p, 17, VFU_F_NO_REPLY), 0);
	assert_int_equal(s.dev->cnt.cfg_writes, before + 1);
	/* size mismatch: error reply */
	assert_int_equal(handle(VFU_CMD_REGION_WRITE, p, 18, 0), 16);
	assert_int_equal(reply()->error, EINVAL);
	/* reply-typed message from the client is dropped silently */
	assert_int_equal(handle(VFU_CMD_REGION_WRITE, p, 17, VFU_F_TYPE_REPLY), 0);
	/* unknown and unsupported commands */
	assert_int_equal(handle(77, NULL, 0, 0), 16);
	assert_int_equal(reply()->error, ENOTSUP);
	assert_int_equal(handle(VFU_CMD_DEVICE_FEATURE, p, 8, 0), 16);
	assert_int_equal(reply()->error, ENOTSUP);
	/* reset with a payload is malformed; without, it resets */
	assert_int_equal(handle(VFU_CMD_DEVICE_RESET, p, 4, 0), 16);
	assert_int_equal(reply()->error, EINVAL);
	before = s.dev->cnt.resets;
	assert_int_equal(handle(VFU_CMD_DEVICE_RESET, NULL, 0, 0), 16);
	assert_int_equal(reply()->flags, VFU_F_TYPE_REPLY);
	assert_int_equal(s.dev->cnt.resets, before + 1);
}

static void test_fds_on_wrong_command(void **st)
{
	uint8_t buf[64];
	struct vfu_device_info d = { .argsz = 16 };
	struct vfu_hdr *h = msg(buf, VFU_CMD_DEVICE_GET_INFO, &d, 16, 0);
	int p[2];
	int fds[1];

	negotiate();
	assert_int_equal(pipe(p), 0);
	fds[0] = p[0];
	assert_int_equal(vfu_handle(&s, h, buf + 16, fds, 1), 16);
	assert_int_equal(reply()->error, EINVAL);
	/* the fd was closed: the pipe's write end sees no reader */
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(write(p[1], "x", 1), -1);
	close(p[1]);
}


/*
 * Random and half-plausible messages straight into the dispatcher: every one
 * must get a well-formed reply (or none for NO_REPLY) and nothing may crash.
 */
static void test_fuzz_dispatch(void **st)
{
	static uint8_t buf[16 + 512];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int i, k;

	negotiate();
	for (i = 0; i < 200000; i++) {
		struct vfu_hdr *h = (struct vfu_hdr *)buf;
		uint32_t plen;
		size_t n;

		for (k = 0; k < sizeof(buf); k += 8) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			memcpy(buf + k, &x, 8);
		}
		plen = (uint32_t)(x % 96);
		h->cmd = (uint16_t)(1 + (x >> 8) % 18);
		h->flags = (x >> 16) & 1 ? VFU_F_NO_REPLY : 0;
		h->size = 16 + plen;
		if (h->cmd == VFU_CMD_REGION_READ || h->cmd == VFU_CMD_REGION_WRITE) {
			struct vfu_region_rw *rw = (struct vfu_region_rw *)(buf + 16);

			/* keep most of them inside real regions so the core runs */
			rw->region = (uint32_t)((x >> 24) % 10);
			rw->offset = (x >> 32) % (17u << 20);
			rw->count = 1u << ((x >> 40) % 4);
			if (h->cmd == VFU_CMD_REGION_WRITE && (x >> 44) & 1)
				h->size = 16 + 16 + rw->count;
			else if (h->cmd == VFU_CMD_REGION_READ && (x >> 44) & 1)
				h->size = 16 + 16;
		}
		if (h->cmd == VFU_CMD_VERSION || h->cmd == VFU_CMD_DEVICE_RESET)
			continue;	/* valid ones would reset state; covered above */
		n = vfu_handle(&s, h, buf + 16, NULL, 0);
		if (h->flags & VFU_F_NO_REPLY) {
			assert_int_equal(n, 0);
			continue;
		}
		assert_true(n >= 16 && n <= 16 + 16 + 8 + 32);
		assert_int_equal(reply()->size, n);
		assert_int_equal(reply()->cmd, h->cmd);
		assert_true(reply()->flags & VFU_F_TYPE_REPLY);
		if (reply()->flags & VFU_F_ERROR)
			assert_int_equal(n, 16);
	}
	vfu_dma_remove_all(&s.dma, NULL, NULL);
	vfu_irqs_close_all(&s.irqs);
}

/* ---- a whole session over a socketpair --------------------------------- */

static void *serve_thread(void *arg)
{
	vfu_serve(&s, *(int *)arg);
	return NULL;
}

static void send_fd(int sock, const void *m, size_t len, int fd)
{
	union { char b[CMSG_SPACE(sizeof(int))]; struct cmsghdr a; } c;
	struct iovec iov = { .iov_base = (void *)m, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	if (fd >= 0) {
		mh.msg_control = c.b;
		mh.msg_controllen = sizeof(c.b);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	assert_int_equal(sendmsg(sock, &mh, 0), (ssize_t)len);
}

static size_t recv_reply(int sock, uint8_t *buf)
{
	struct vfu_hdr *h = (struct vfu_hdr *)buf;
	size_t got = 0;

	while (got < sizeof(*h)) {
		ssize_t n = read(sock, buf + got, sizeof(*h) - got);

		assert_true(n > 0);
		got += (size_t)n;
	}
	while (got < h->size) {
		ssize_t n = read(sock, buf + got, h->size - got);

		assert_true(n > 0);
		got += (size_t)n;
	}
	return got;
}

/* --log: the core's trace events are transcript lines (main.c installs this sink). */
static void test_trace_in_transcript(void **st)
{
	char line[512];
	uint32_t token = 0x1234;
	int found = 0;

	s.log = tmpfile();
	assert_non_null(s.log);
	vgsp_os_user_trace(vfu_server_trace_line, &s);
	assert_int_equal(vgsp_dev_bar_write(s.dev, 0, 0xbb0090, &token, 4), 0);
	vgsp_os_user_trace(NULL, NULL);
	rewind(s.log);
	while (fgets(line, sizeof(line), s.log))
		if (strstr(line, " trace vgsp_doorbell:") && strstr(line, "0x1234"))
			found = 1;
	fclose(s.log);
	s.log = NULL;
	assert_true(found);
}

static void test_session(void **st)
{
	int sv[2], mfd = memfd_create("guest-ram", MFD_ALLOW_SEALING);
	pthread_t th;
	uint8_t buf[256], rb[256];
	struct vfu_dma_map m = { .argsz = 32, .flags = 3, .offset = 0,
				 .iova = 0x100000, .size = 0x10000 };
	struct vfu_dma_unmap u = { .argsz = 24, .iova = 0x100000, .size = 0x10000 };
	uint8_t v[4] = { 0 };
	uint32_t word = 0xfeedbeef, got = 0;
	uint64_t unmaps;
	struct vfu_hdr *h;

	assert_int_equal(ftruncate(mfd, 0x10000), 0);
	/* sealed as QEMU's memory-backend-memfd does (seal=on) */
	assert_int_equal(fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pthread_create(&th, NULL, serve_thread, &sv[1]), 0);

	h = msg(buf, VFU_CMD_VERSION, v, 4, 0);
	send_fd(sv[0], buf, h->size, -1);
	recv_reply(sv[0], rb);
	assert_int_equal(((struct vfu_hdr *)rb)->flags, VFU_F_TYPE_REPLY);

	h = msg(buf, VFU_CMD_DMA_MAP, &m, 32, 0);
	send_fd(sv[0], buf, h->size, mfd);
	recv_reply(sv[0], rb);
	assert_int_equal(((struct vfu_hdr *)rb)->flags, VFU_F_TYPE_REPLY);

	/* Bus Master Enable off (power-on): no DMA at all (review 1i) */
	assert_int_equal(pwrite(mfd, &word, 4, 0x40), 4);
	assert_int_not_equal(vgsp_dev_dma_read(s.dev, 0x100040, &got, 4), 0);
	{
		struct vfu_region_rw rw = { .offset = 4, .region = VFU_PCI_CONFIG,
					    .count = 2 };
		uint8_t p[16 + 2] = { 0 };

		memcpy(p, &rw, 16);
		p[16] = 0x06;		/* memory + bus master, as QEMU writes */
		h = msg(buf, VFU_CMD_REGION_WRITE, p, sizeof(p), 0);
		send_fd(sv[0], buf, h->size, -1);
		recv_reply(sv[0], rb);
		assert_int_equal(((struct vfu_hdr *)rb)->error, 0);
	}
	/* the core's DMA path reaches the client's memory by IOVA */
	assert_int_equal(vgsp_dev_dma_read(s.dev, 0x100040, &got, 4), 0);
	assert_int_equal(got, 0xfeedbeef);
	assert_int_not_equal(vgsp_dev_dma_read(s.dev, 0x200000, &got, 4), 0);

	unmaps = s.dev->cnt.dma_unmaps;
	h = msg(buf, VFU_CMD_DMA_UNMAP, &u, 24, 0);
	send_fd(sv[0], buf, h->size, -1);
	assert_int_equal(recv_reply(sv[0], rb), 16 + 24);
	assert_true(s.dev->cnt.dma_unmaps > unmaps);
	assert_int_not_equal(vgsp_dev_dma_read(s.dev, 0x100040, &got, 4), 0);

	/* a message of unknown type is drained and refused, the session goes on */
	h = msg(buf, VFU_CMD_DEVICE_GET_INFO, "abcd", 4, 2);
	send_fd(sv[0], buf, h->size, -1);
	assert_int_equal(recv_reply(sv[0], rb), 16);
	assert_int_equal(((struct vfu_hdr *)rb)->error, EINVAL);
	/* so is one larger than we accept */
	{
		size_t big = VFU_MAX_MSG + 4096;
		uint8_t *p = calloc(1, big);

		h = msg(p, VFU_CMD_REGION_WRITE, NULL, 0, 0);
		h->size = (uint32_t)big;
		send_fd(sv[0], p, big, -1);
		assert_int_equal(recv_reply(sv[0], rb), 16);
		assert_int_equal(((struct vfu_hdr *)rb)->error, E2BIG);
		free(p);
	}
	h = msg(buf, VFU_CMD_DEVICE_GET_INFO, "\x10\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16, 0);
	send_fd(sv[0], buf, h->size, -1);
	assert_int_equal(recv_reply(sv[0], rb), 32);

	/* a header claiming 8 bytes cannot be framed: the server hangs up */
	h = msg(buf, VFU_CMD_DEVICE_GET_INFO, NULL, 0, 0);
	h->size = 8;
	send_fd(sv[0], buf, 16, -1);
	assert_int_equal(pthread_join(th, NULL), 0);
	close(sv[0]);
	close(sv[1]);
	close(mfd);
}

/*
 * Review 1d: with --persist the next client got the previous client's
 * BAR1/FB contents, config space and GSP state. A disconnect resets the
 * device, as vgsp.ko does on close.
 */
static void test_persist_resets(void **st)
{
	int sv[2];
	pthread_t th;
	uint8_t buf[256], rb[256], v[4] = { 0 }, cmd[2];
	struct vfu_region_rw rw = { .offset = 4, .region = VFU_PCI_CONFIG, .count = 2 };
	uint8_t p[16 + 2] = { 0 };
	uint64_t word = 0x1122334455667788ull, got = 0, resets = s.dev->cnt.resets;
	struct vfu_hdr *h;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pthread_create(&th, NULL, serve_thread, &sv[1]), 0);
	h = msg(buf, VFU_CMD_VERSION, v, 4, 0);
	send_fd(sv[0], buf, h->size, -1);
	recv_reply(sv[0], rb);
	memcpy(p, &rw, 16);
	p[16] = 0x06;
	h = msg(buf, VFU_CMD_REGION_WRITE, p, sizeof(p), 0);
	send_fd(sv[0], buf, h->size, -1);
	recv_reply(sv[0], rb);
	assert_int_equal(vgsp_dev_bar_write(s.dev, VGSP_BAR1, 0x1000, &word, 8), 0);
	assert_int_equal(vgsp_dev_cfg_read(s.dev, 4, cmd, 2), 0);
	assert_int_equal(cmd[0], 0x06);
	/* the client goes away */
	close(sv[0]);
	assert_int_equal(pthread_join(th, NULL), 0);
	close(sv[1]);

	assert_int_equal(s.dev->cnt.resets, resets + 1);
	assert_int_equal(vgsp_dev_cfg_read(s.dev, 4, cmd, 2), 0);
	assert_int_equal(cmd[0] | cmd[1], 0);
	assert_int_equal(vgsp_dev_bar_read(s.dev, VGSP_BAR1, 0x1000, &got, 8), 0);
	assert_int_equal(got, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_first),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_writes_and_no_reply),
		cmocka_unit_test(test_fds_on_wrong_command),
		cmocka_unit_test(test_fuzz_dispatch),
		cmocka_unit_test(test_trace_in_transcript),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_persist_resets),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
