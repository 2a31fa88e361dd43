// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BAR3 mapped by the client (bar_map.h, kernel/core/mm/bar_share.h):
 * REGION_INFO advertises the sparse mmap with the memfd (over the socket,
 * as QEMU receives it), and bytes written through a client mapping of that
 * fd are the FB bytes the core reads, and the other way round, through
 * BAR2's page tables, their changes, an FB page mapped twice (mirror),
 * the trapped top and a reset.
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
#include "mm/mm.h"
#include "mm/bar_share.h"
#include "os_user.h"
#include "codec.h"
#include "server.h"

#define MAP_LEN		(VGSP_BAR3_SIZE - VGSP_SHARE_TRAP_TOP)
/* BAR2's tables in FB, GMMU ver3 as CPU-RM writes them */
#define ROOT		0x0f0000ULL	/* PD4, GSP-RM's (static info) */
#define PD3		0x100000ULL
#define PD2		0x101000ULL
#define PD1		0x102000ULL
#define PD0		0x103000ULL
#define PT_LOW		0x104000ULL	/* VA [0, 2 MiB) */
#define PT_TOP		0x105000ULL	/* VA [30 MiB, 32 MiB) */
#define PDE_VID(a)	((a) | (1ULL << 1))
#define PTE_VID(a)	((a) | 1ULL)
#define PTE_SYS(a)	((a) | 1ULL | (2ULL << 1))
#define SELF_VA		0x1ff0000ULL	/* PT_LOW seen through BAR2, trapped */
#define MMU_INVALIDATE	0xb830b0

static struct vfu_server s;
static volatile sig_atomic_t stop;
static uint8_t *client;		/* the client's own mapping of the fd */

static int setup(void **st)
{
	static const u8 uuid[16] = { 4, 5, 6 };
	struct vgsp_dev_opts o = { 0 };

	vgsp_os_user_init();
	assert_int_equal(vfu_server_init(&s, 8), 0);
	s.stop = &stop;
	assert_int_equal(vfu_bar_map_open(&s.bar3, VGSP_BAR3_SIZE), 0);
	o.bar3_shared = s.bar3.mem;
	s.dev = vgsp_dev_create_opts(vgsp_profile_find("h100-10g"), uuid, 8,
				     &vfu_fe_ops, &s, &o);
	assert_non_null(s.dev);
	return 0;
}

static int teardown(void **st)
{
	vgsp_dev_destroy(s.dev);
	vfu_server_fini(&s);
	return 0;
}

static size_t region_info(uint32_t index, uint32_t argsz)
{
	static uint8_t buf[256];
	struct vfu_hdr *h = (struct vfu_hdr *)buf;
	struct vfu_region_info r = { .argsz = argsz, .index = index };

	memset(h, 0, sizeof(*h));
	h->cmd = VFU_CMD_DEVICE_GET_REGION_INFO;
	h->size = sizeof(*h) + sizeof(r);
	memcpy(buf + sizeof(*h), &r, sizeof(r));
	return vfu_handle(&s, h, buf + sizeof(*h), NULL, 0);
}

static void test_region_info(void **st)
{
	struct vfu_region_info r;
	struct vfu_cap_sparse_mmap cap;

	s.negotiated = true;
	/* argsz too small for the cap: the size to ask for, no fd, no CAPS */
	assert_int_equal(region_info(VGSP_BAR3, 32), 16 + 32);
	memcpy(&r, s.tx + 16, sizeof(r));
	assert_int_equal(r.argsz, 32 + sizeof(cap));
	assert_int_equal(r.flags, VFU_REGION_F_READ | VFU_REGION_F_WRITE |
			 VFU_REGION_F_MMAP);
	assert_int_equal(r.cap_offset, 0);
	assert_int_equal(s.reply_fd, -1);
	/* asked again with room: the sparse area and the memfd */
	assert_int_equal(region_info(VGSP_BAR3, 64), 16 + 64);
	memcpy(&r, s.tx + 16, sizeof(r));
	memcpy(&cap, s.tx + 16 + 32, sizeof(cap));
	assert_int_equal(r.flags, VFU_REGION_F_READ | VFU_REGION_F_WRITE |
			 VFU_REGION_F_MMAP | VFU_REGION_F_CAPS);
	assert_int_equal(r.cap_offset, 32);
	assert_int_equal(r.size, VGSP_BAR3_SIZE);
	assert_int_equal(r.offset, 0);
	assert_int_equal(cap.id, VFU_CAP_SPARSE_MMAP);
	assert_int_equal(cap.version, 1);
	assert_int_equal(cap.nr_areas, 1);
	assert_int_equal(cap.area_offset, 0);
	assert_int_equal(cap.area_size, MAP_LEN);
	assert_int_equal(s.reply_fd, s.bar3.fd);
	s.reply_fd = -1;
	/* BAR0 and BAR1 (doorbell pages) are never mapped */
	assert_int_equal(region_info(VGSP_BAR1, 64), 16 + 32);
	memcpy(&r, s.tx + 16, sizeof(r));
	assert_int_equal(r.flags, VFU_REGION_F_READ | VFU_REGION_F_WRITE);
	assert_int_equal(s.reply_fd, -1);
	assert_int_equal(vgsp_dev_bar_mmap_len(s.dev, VGSP_BAR0), 0);
	assert_int_equal(vgsp_dev_bar_mmap_len(s.dev, VGSP_BAR1), 0);
	/* the client cannot shrink the file under the server */
	assert_int_not_equal(ftruncate(s.bar3.fd, 4096), 0);
	assert_int_equal(fcntl(s.bar3.fd, F_GET_SEALS) &
			 (F_SEAL_SHRINK | F_SEAL_GROW),
			 F_SEAL_SHRINK | F_SEAL_GROW);
}

static void *serve_thread(void *arg)
{
	vfu_serve(&s, *(int *)arg);
	return NULL;
}

/* Send @len bytes of @buf; read one reply and the fd that came with it. */
static int call(int sock, const void *buf, size_t len, uint8_t *rep, int *fd)
{
	union {
		char b[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = rep, .iov_len = sizeof(struct vfu_hdr) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.b, .msg_controllen = sizeof(u.b) };
	struct cmsghdr *cm;
	struct vfu_hdr *h = (struct vfu_hdr *)rep;

	*fd = -1;
	assert_int_equal(write(sock, buf, len), (ssize_t)len);
	/* QEMU reads the header and its fds in one recvmsg */
	assert_int_equal(recvmsg(sock, &mh, 0), sizeof(struct vfu_hdr));
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(cm), sizeof(int));
	if (h->size > sizeof(*h))
		assert_int_equal(read(sock, rep + sizeof(*h), h->size - sizeof(*h)),
				 (ssize_t)(h->size - sizeof(*h)));
	return (int)h->size;
}

/* Over the socket, as QEMU: the fd arrives; map it like QEMU does. */
static void test_fd_over_socket(void **st)
{
	uint8_t buf[128], rep[256];
	struct vfu_hdr *h = (struct vfu_hdr *)buf;
	struct vfu_region_info r = { .argsz = 64, .index = VGSP_BAR3 };
	pthread_t th;
	int sv[2], fd;

	s.negotiated = false;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pthread_create(&th, NULL, serve_thread, &sv[1]), 0);
	memset(buf, 0, sizeof(buf));
	h->cmd = VFU_CMD_VERSION;
	h->size = sizeof(*h) + 4;
	call(sv[0], buf, h->size, rep, &fd);
	assert_int_equal(fd, -1);
	h->cmd = VFU_CMD_DEVICE_GET_REGION_INFO;
	h->size = sizeof(*h) + sizeof(r);
	memcpy(buf + sizeof(*h), &r, sizeof(r));
	assert_int_equal(call(sv[0], buf, h->size, rep, &fd), 16 + 64);
	assert_true(fd >= 0);
	memcpy(&r, rep + 16, sizeof(r));
	client = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      (off_t)r.offset);
	assert_true(client != MAP_FAILED);
	close(fd);
	stop = 1;
	shutdown(sv[0], SHUT_RDWR);
	assert_int_equal(pthread_join(th, NULL), 0);
	stop = 0;
	close(sv[0]);
	close(sv[1]);
}

static void fb64(u64 pa, u64 v)
{
	assert_int_equal(vgsp_fb_write(s.dev, pa, &v, 8), 0);
}

static u32 fb32(u64 pa)
{
	u32 v = 0;

	assert_int_equal(vgsp_fb_read(s.dev, pa, &v, 4), 0);
	return v;
}

static u32 client32(u64 off)
{
	u32 v;

	memcpy(&v, client + off, 4);
	return v;
}

static void client_wr32(u64 off, u32 v)
{
	memcpy(client + off, &v, 4);
}

static void invalidate(void)
{
	u32 v = 0x80010005;	/* TRIGGER | HUBTLB_ONLY | ALL_PDB | ALL_VA */

	assert_int_equal(vgsp_dev_bar_write(s.dev, VGSP_BAR0, MMU_INVALIDATE,
					    &v, 4), 0);
}

static void test_coherent(void **st)
{
	struct vgsp_bar_share_stats bs;
	u32 v, trapped;
	u64 pte;

	assert_non_null(client);
	/* BAR2's tree: VA 0 -> FB 2 MiB, VA 0x1000 -> FB 3 MiB, VA 0x2000 ->
	 * system memory, VA 0x3000 -> FB 2 MiB again; the top maps PT_LOW */
	fb64(ROOT, PDE_VID(PD3));
	fb64(PD3, PDE_VID(PD2));
	fb64(PD2, PDE_VID(PD1));
	fb64(PD1, PDE_VID(PD0));
	fb64(PD0 + 0 * 16 + 8, PDE_VID(PT_LOW));
	fb64(PD0 + 15 * 16 + 8, PDE_VID(PT_TOP));
	fb64(PT_LOW + 0 * 8, PTE_VID(0x200000ULL));
	fb64(PT_LOW + 1 * 8, PTE_VID(0x300000ULL));
	fb64(PT_LOW + 2 * 8, PTE_SYS(0x10000ULL));
	fb64(PT_LOW + 3 * 8, PTE_VID(0x200000ULL));
	fb64(PT_TOP + ((SELF_VA - 0x1e00000) >> 12) * 8, PTE_VID(PT_LOW));
	fb64(0x300020, 0x5151515151515151ULL);
	vgsp_dev_lock(s.dev);
	vgsp_bar_set_pdb(s.dev, VGSP_VIEW_BAR2, ROOT);
	assert_int_equal(vgsp_bar_set_root(s.dev, VGSP_VIEW_BAR2,
					   PDE_VID(PD3)), 0);
	vgsp_dev_unlock(s.dev);
	vgsp_bar_share_stats(s.dev, &bs);
	assert_int_equal(bs.shared, 2);
	assert_int_equal(bs.unshared, 1);	/* the sysmem page */
	assert_int_equal(bs.aliases, 1);	/* VA 0x3000: FB 2 MiB again */

	/* the client writes, the core (and a trapped read) sees it */
	client_wr32(0x10, 0xdeadbeef);
	assert_int_equal(fb32(0x200010), 0xdeadbeef);
	assert_int_equal(vgsp_dev_bar_read(s.dev, VGSP_BAR3, 0x10, &trapped, 4), 0);
	assert_int_equal(trapped, 0xdeadbeef);
	/* what was in FB before the mapping is there; the core writes, the
	 * client sees it */
	assert_int_equal(client32(0x1020), 0x51515151);
	v = 0xcafef00d;
	assert_int_equal(vgsp_fb_write(s.dev, 0x300040, &v, 4), 0);
	assert_int_equal(client32(0x1040), 0xcafef00d);
	/* a trapped write lands where the client looks */
	v = 0x0badf00d;
	assert_int_equal(vgsp_dev_bar_write(s.dev, VGSP_BAR3, 0x1080, &v, 4), 0);
	assert_int_equal(client32(0x1080), 0x0badf00d);

	/* the mirror at VA 0x3000: what the client writes there reaches FB at
	 * the next trapped BAR0 write (a doorbell), and then it shows FB */
	client_wr32(0x3020, 0x600df00d);
	assert_int_equal(fb32(0x200020), 0);
	assert_int_equal(vgsp_dev_bar_read(s.dev, VGSP_BAR0, 0, &v, 4), 0);
	assert_int_equal(fb32(0x200020), 0);		/* reads do not flush */
	v = 0;
	assert_int_equal(vgsp_dev_bar_write(s.dev, VGSP_BAR0, 0x1000, &v, 4), 0);
	assert_int_equal(fb32(0x200020), 0x600df00d);
	assert_int_equal(client32(0x20), 0x600df00d);	/* the lent VA too */
	assert_int_equal(client32(0x3010), 0xdeadbeef);	/* mirror refreshed */

	/* VA 0 moves to FB 5 MiB, told by an invalidate: FB 2 MiB keeps the
	 * client's bytes, the mapping shows FB 5 MiB */
	fb64(0x500010, 0x7777777777777777ULL);
	fb64(PT_LOW + 0 * 8, PTE_VID(0x500000ULL));
	assert_int_equal(client32(0x10), 0xdeadbeef);	/* not yet told */
	invalidate();
	assert_int_equal(client32(0x10), 0x77777777);
	assert_int_equal(fb32(0x200010), 0xdeadbeef);
	client_wr32(0x14, 0x12345678);
	assert_int_equal(fb32(0x500014), 0x12345678);

	/* a PTE written through the trapped top (BAR2's own tables) takes
	 * effect at once, with no invalidate: VA 0x4000 -> FB 6 MiB */
	fb64(0x600000, 0x4242424242424242ULL);
	pte = PTE_VID(0x600000ULL);
	assert_int_equal(vgsp_dev_bar_write(s.dev, VGSP_BAR3, SELF_VA + 4 * 8,
					    &pte, 8), 0);
	assert_int_equal(client32(0x4000), 0x42424242);
	client_wr32(0x4004, 0x99);
	assert_int_equal(fb32(0x600004), 0x99);
	/* FB 2 MiB, no longer VA 0's, went to VA 0x3000 at the last sync */
	assert_int_equal(client32(0x3010), 0xdeadbeef);
	client_wr32(0x3030, 0x31);
	assert_int_equal(fb32(0x200030), 0x31);		/* lent, not mirrored */
	vgsp_bar_share_stats(s.dev, &bs);
	assert_int_equal(bs.shared, 4);
	assert_int_equal(bs.unshared, 1);	/* the sysmem page */
	assert_int_equal(bs.aliases, 0);
	assert_int_equal(bs.alias_bytes, 4);
	assert_int_equal(bs.errors, 0);

	/* unbind (GSP reset): the loans end, FB keeps every byte */
	vgsp_dev_lock(s.dev);
	vgsp_bar_unbind(s.dev);
	vgsp_dev_unlock(s.dev);
	vgsp_bar_share_stats(s.dev, &bs);
	assert_int_equal(bs.shared, 0);
	client_wr32(0x14, 0xffffffff);		/* flat BAR3 now */
	assert_int_equal(fb32(0x500014), 0x12345678);
	assert_int_equal(fb32(0x600004), 0x99);
	assert_int_equal(fb32(0x300040), 0xcafef00d);

	/* device reset: the next tenant sees zeros on both sides */
	vgsp_dev_reset(s.dev);
	assert_int_equal(client32(0x14), 0);
	assert_int_equal(fb32(0x500014), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_region_info),
		cmocka_unit_test(test_fd_over_socket),
		cmocka_unit_test(test_coherent),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
