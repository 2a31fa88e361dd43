// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel <-> hostd ring (kernel/core/hostd_ring.h) without a kernel:
 * the core's ring backend (backend/ring.c) on one instance and hostd's end
 * (userspace/hostd/ring_serve.c, its CPU executor) served in-process by a
 * loopback link. The protocol: wrap, a full completion ring, impossible
 * indices and statuses from either peer refused with a counter, hostd's
 * death. Parity: the same copy-engine transfers and launches on a sim
 * instance and on a ring instance leave the same bytes and statuses, with
 * guest RAM staged by the kernel and with hostd reaching it through its
 * own view (VGSP_HR_FEAT_GUEST_VIEW; here the test's RAM window). And a
 * guest channel on the ring: its copy runs through hostd, and hostd's
 * death stops the channel with its error notifier.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "profiles.h"
#include "mm/mm.h"
#include "fifo/fifo.h"
#include "rm/rm.h"
#include "backend/ring.h"
#include "helpers/fake_fe.h"
#include "../../userspace/hostd/include/ring_serve.h"

#define RAM_IOVA	0x100000ULL
#define RAM_SIZE	(1u << 20)
#define FB_SPAN		(4u << 20)	/* FB bytes compared */
#define PD4		0x10000ULL
#define VA_PA		0x200000ULL	/* VA [0, 2 MiB) maps here */

enum loop_mode { SERVE, STALL, DIE, BAD_HEAD, BAD_STATUS, STALE };

struct loop {
	struct hr_server srv;
	struct vgsp_ring_be *rb;
	u8 *area;
	enum loop_mode mode;
	unsigned int kicks, waits;
};

static struct vgsp_hr_ctl *ctl(u8 *area)
{
	return (struct vgsp_hr_ctl *)area;
}

static void loop_kick(void *link)
{
	struct loop *l = link;
	struct vgsp_hr_ctl *c = ctl(l->area);
	struct vgsp_hr_comp *e;

	l->kicks++;
	switch (l->mode) {
	case SERVE:
		assert_true(hr_server_run(&l->srv, 64) > 0);
		break;
	case BAD_HEAD:		/* 100 completions in a ring of 16 */
		vgsp_hr_store(&c->comp_head, c->comp_tail + 100);
		break;
	case BAD_STATUS:
	case STALE:
		assert_int_equal(hr_server_run(&l->srv, 64), 1);
		e = (void *)(l->area + VGSP_HR_COMP_OFF +
			     ((c->comp_head - 1) % VGSP_HR_COMP_ENTRIES) *
			     sizeof(*e));
		if (l->mode == BAD_STATUS)
			e->status = 7;
		else
			e->cookie ^= 0x5a5a;
		break;
	default:
		break;
	}
}

static int loop_wait(void *link, u64 timeout_ns)
{
	struct loop *l = link;
	struct timespec ts = { 0, 1000000 };

	l->waits++;
	if (l->mode == DIE)	/* hostd's fd released while the item waits */
		vgsp_ring_be_fail(l->rb);
	else
		nanosleep(&ts, NULL);
	return 0;
}

static const struct vgsp_ring_link_ops loop_ops = {
	.kick = loop_kick,
	.wait = loop_wait,
};

struct pair {
	struct fake_fe fe_a, fe_b;
	struct vgsp_dev *a, *b;		/* sim, ring */
	struct vgsp_ring_be rb;
	struct loop lp;
	u8 *area;
	bool direct;			/* hostd maps guest RAM itself */
};

static void fb64(struct vgsp_dev *d, u64 pa, u64 v)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	assert_int_equal(vgsp_fb_write(d, pa, b, 8), 0);
}

/* The same bytes on both: FB [0, FB_SPAN) and guest RAM, then the VM. */
static void seed(struct pair *p)
{
	u8 *buf = malloc(FB_SPAN);
	unsigned int i;
	u32 x = 0x12345678;

	assert_non_null(buf);
	for (i = 0; i < FB_SPAN; i++) {
		x = x * 1103515245 + 12345;
		buf[i] = x >> 24;
	}
	for (i = 0; i < FB_SPAN; i += 65536) {
		assert_int_equal(vgsp_fb_write(p->a, i, buf + i, 65536), 0);
		assert_int_equal(vgsp_fb_write(p->b, i, buf + i, 65536), 0);
	}
	memcpy(p->fe_a.mem, buf + 12345, RAM_SIZE);
	memcpy(p->fe_b.mem, buf + 12345, RAM_SIZE);
	memset(buf, 0, 0x5000);		/* the page directories */
	assert_int_equal(vgsp_fb_write(p->a, PD4, buf, 0x5000), 0);
	assert_int_equal(vgsp_fb_write(p->b, PD4, buf, 0x5000), 0);
	free(buf);
	for (i = 0; i < 4; i++) {
		fb64(p->a, PD4 + 0x1000 * i, (PD4 + 0x1000 * (i + 1)) | 2);
		fb64(p->b, PD4 + 0x1000 * i, (PD4 + 0x1000 * (i + 1)) | 2);
	}
	fb64(p->a, PD4 + 0x4000, VA_PA | 1);
	fb64(p->b, PD4 + 0x4000, VA_PA | 1);
}

static int setup_mode(void **state, bool direct)
{
	struct pair *p = calloc(1, sizeof(*p));
	const struct vgsp_profile *prof;
	u8 ua[16] = { 1 }, ub[16] = { 2 };
	struct vgsp_dev_opts o = { .backend = &vgsp_backend_ring };

	vgsp_os_user_init();
	assert_non_null(p);
	prof = vgsp_profile_find("h100-10g");
	fake_fe_init(&p->fe_a, RAM_IOVA, RAM_SIZE);
	fake_fe_init(&p->fe_b, RAM_IOVA, RAM_SIZE);
	p->area = aligned_alloc(4096, VGSP_HR_MAP_BYTES);
	assert_non_null(p->area);
	memset(p->area, 0, VGSP_HR_MAP_BYTES);
	assert_int_equal(vgsp_ring_be_init(&p->rb, p->area, 3, &loop_ops,
					   &p->lp), 0);
	p->lp.rb = &p->rb;
	p->lp.area = p->area;
	p->direct = direct;
	if (direct)
		vgsp_ring_be_features(&p->rb, VGSP_HR_FEAT_GUEST_VIEW);
	assert_int_equal(hr_server_init(&p->lp.srv, p->area,
					VGSP_HR_MAP_BYTES), 0);
	/* the view: the ring instance's guest RAM, by IOVA */
	if (direct)
		assert_int_equal(hr_server_set_view(&p->lp.srv, p->fe_b.mem,
						     RAM_IOVA, RAM_SIZE), 0);
	o.backend_priv = &p->rb;
	p->a = vgsp_dev_create(prof, ua, 8, &fake_fe_ops, &p->fe_a);
	p->b = vgsp_dev_create_opts(prof, ub, 8, &fake_fe_ops, &p->fe_b, &o);
	assert_non_null(p->a);
	assert_non_null(p->b);
	assert_string_equal(p->b->backend->name, "hostd");
	fake_bus_master(p->a);
	fake_bus_master(p->b);
	seed(p);
	*state = p;
	return 0;
}

static int setup(void **state)
{
	return setup_mode(state, false);
}

static int setup_direct(void **state)
{
	return setup_mode(state, true);
}

static int teardown(void **state)
{
	struct pair *p = *state;

	vgsp_dev_destroy(p->a);
	vgsp_dev_destroy(p->b);
	hr_server_fini(&p->lp.srv);
	vgsp_ring_be_fini(&p->rb);
	free(p->area);
	fake_fe_fini(&p->fe_a);
	fake_fe_fini(&p->fe_b);
	free(p);
	return 0;
}

static int run_xfer(struct vgsp_dev *d, struct vgsp_ce_xfer x)
{
	int ret, n = 0;

	do {
		ret = d->backend->ce_xfer(d, &x);
	} while (ret == -EAGAIN && ++n < 1000);
	return ret;
}

/* Both instances: same status, then the same bytes everywhere. */
static int both(struct pair *p, const struct vgsp_ce_xfer *x)
{
	static u8 fa[65536], fb[65536];
	int ra = run_xfer(p->a, *x), rb = run_xfer(p->b, *x);
	unsigned int i;

	assert_int_equal(ra, rb);
	for (i = 0; i < FB_SPAN; i += sizeof(fa)) {
		assert_int_equal(vgsp_fb_read(p->a, i, fa, sizeof(fa)), 0);
		assert_int_equal(vgsp_fb_read(p->b, i, fb, sizeof(fb)), 0);
		assert_memory_equal(fa, fb, sizeof(fa));
	}
	assert_memory_equal(p->fe_a.mem, p->fe_b.mem, RAM_SIZE);
	return ra;
}

static void bus_master_off(struct vgsp_dev *d)
{
	u8 cmd[2];

	assert_int_equal(vgsp_dev_cfg_read(d, 4, cmd, 2), 0);
	cmd[0] &= ~0x04;
	assert_int_equal(vgsp_dev_cfg_write(d, 4, cmd, 2), 0);
}

static struct vgsp_ce_end phys(enum vgsp_mem_target t, u64 addr)
{
	struct vgsp_ce_end e = { .virt = false, .target = t, .addr = addr };

	return e;
}

static struct vgsp_ce_end virt(u64 va)
{
	struct vgsp_ce_end e = { .virt = true, .addr = va };

	e.vm.pdb = PD4;
	e.vm.target = VGSP_MEM_VID;
	return e;
}

static void test_parity_copies(void **state)
{
	struct pair *p = *state;
	struct vgsp_ce_xfer x;
	u64 before = p->rb.st.items;

	/* FB -> FB, 300 KiB from an odd address: three items */
	memset(&x, 0, sizeof(x));
	x.src = phys(VGSP_MEM_VID, 0x300003);
	x.dst = phys(VGSP_MEM_VID, 0x250001);
	x.line_bytes = 300 * 1024;
	x.lines = 1;
	assert_int_equal(both(p, &x), 0);
	assert_int_equal(p->rb.st.items - before, 3);

	/* pitched FB -> guest RAM: 37 lines of 1000 bytes */
	memset(&x, 0, sizeof(x));
	x.src = phys(VGSP_MEM_VID, 0x280000);
	x.dst = phys(VGSP_MEM_SYS, RAM_IOVA + 0x1000);
	x.line_bytes = 1000;
	x.lines = 37;
	x.pitch_in = 4096;
	x.pitch_out = 1536;
	assert_int_equal(both(p, &x), 0);

	/* guest RAM -> a VA of the channel's address space */
	memset(&x, 0, sizeof(x));
	x.src = phys(VGSP_MEM_SYS, RAM_IOVA + 0x40000);
	x.dst = virt(0x10000);
	x.line_bytes = 200000;
	x.lines = 1;
	assert_int_equal(both(p, &x), 0);
	assert_int_equal(p->rb.st.item_errors, 0);
	assert_true(p->rb.st.bytes >= 300 * 1024 + 37000 + 200000);
	/* guest RAM went through hostd's view, or was staged by the kernel */
	assert_int_equal(p->rb.st.view_bytes, p->direct ? 37000 + 200000 : 0);
	assert_int_equal(p->lp.srv.st.view_bytes, p->rb.st.view_bytes);

	/* guest RAM -> guest RAM, both ends in the view */
	memset(&x, 0, sizeof(x));
	x.src = phys(VGSP_MEM_SYS, RAM_IOVA + 0x20001);
	x.dst = phys(VGSP_MEM_SYS, RAM_IOVA + 0xc0800);
	x.line_bytes = 0x23000;
	x.lines = 1;
	assert_int_equal(both(p, &x), 0);
}

static void test_parity_fills_and_faults(void **state)
{
	struct pair *p = *state;
	struct vgsp_ce_xfer x;

	memset(&x, 0, sizeof(x));
	x.fill = true;
	x.elem_size = 4;
	memcpy(x.elem, "\x11\x22\x33\x44", 4);
	x.dst = phys(VGSP_MEM_VID, 0x200100);
	x.line_bytes = 3 * 50000 * 4ULL;	/* more than one item */
	x.lines = 1;
	assert_int_equal(both(p, &x), 0);

	x.elem_size = 3;			/* the byte-wise path */
	memcpy(x.elem, "\xa1\xb2\xc3", 3);
	x.dst = virt(0x1234);
	x.line_bytes = 3 * 1001;
	x.lines = 5;
	x.pitch_out = 4000;
	assert_int_equal(both(p, &x), 0);

	/* a VA past the 2 MiB mapping faults on both, nothing written */
	memset(&x, 0, sizeof(x));
	x.src = virt(0x1ff000);
	x.dst = phys(VGSP_MEM_VID, 0x100000);
	x.line_bytes = 0x2000;
	x.lines = 1;
	assert_int_equal(both(p, &x), -EFAULT);
	/* guest RAM outside the window (hostd: outside its view) */
	x.src = phys(VGSP_MEM_SYS, RAM_IOVA + RAM_SIZE - 16);
	x.line_bytes = 32;
	assert_int_equal(both(p, &x), -EFAULT);
	x.src = phys(VGSP_MEM_VID, 0x100000);
	x.dst = phys(VGSP_MEM_SYS, RAM_IOVA - 8);
	assert_int_equal(both(p, &x), -EFAULT);
	assert_int_equal(p->lp.srv.st.view_refused, p->direct ? 2 : 0);

	/* a fill of guest RAM, 3-byte element, odd start */
	memset(&x, 0, sizeof(x));
	x.fill = true;
	x.elem_size = 3;
	memcpy(x.elem, "\x5a\x6b\x7c", 3);
	x.dst = phys(VGSP_MEM_SYS, RAM_IOVA + 0x80001);
	x.line_bytes = 3 * 70001;
	x.lines = 1;
	assert_int_equal(both(p, &x), 0);
	assert_int_equal(p->rb.st.view_bytes, p->direct ? 3 * 70001 : 0);

	/* Bus Master Enable off: no guest RAM reached, through a view or not */
	bus_master_off(p->a);
	bus_master_off(p->b);
	x.line_bytes = 300;
	assert_int_equal(both(p, &x), -EFAULT);
	assert_int_equal(p->rb.st.view_bytes, p->direct ? 3 * 70001 : 0);
}

/* The QMD @q at VA 0x8000 of both instances, launched on both: status. */
static int launch_both(struct pair *p, struct vgsp_chan *ch, const u8 *q)
{
	static u8 fa[65536], fb[65536];
	unsigned int i;
	int ra, rb;

	for (i = 0; i < 256; i += 8) {
		fb64(p->a, VA_PA + 0x8000 + i, vgsp_get64(q, i));
		fb64(p->b, VA_PA + 0x8000 + i, vgsp_get64(q, i));
	}
	ra = p->a->backend->gr_launch(p->a, ch, 0x8000);
	rb = p->b->backend->gr_launch(p->b, ch, 0x8000);
	assert_int_equal(ra, rb);
	for (i = 0; i < FB_SPAN; i += sizeof(fa)) {
		assert_int_equal(vgsp_fb_read(p->a, i, fa, sizeof(fa)), 0);
		assert_int_equal(vgsp_fb_read(p->b, i, fb, sizeof(fb)), 0);
		assert_memory_equal(fa, fb, sizeof(fa));
	}
	return ra;
}

/* QMD V04_00, grid @w x @h x @d, release 0 (one word) of @payload at
 * VA 0x9000 + @slot * 8. */
static void qmd_make(u8 *q, u32 w, u32 h, u32 d, u32 payload, u32 slot)
{
	memset(q, 0, 256);
	vgsp_put32(q, 18 * 4, 4 << 4);
	vgsp_put32(q, 32 * 4, w);
	vgsp_put32(q, 33 * 4, h);
	vgsp_put32(q, 34 * 4, d);
	vgsp_put32(q, 10 * 4, 0x1 | 1 << 1);	/* RELEASE0 on, one word */
	vgsp_put32(q, 20 * 4, 0x9000 + 8 * slot);
	vgsp_put32(q, 22 * 4, payload);
}

static void test_parity_launches(void **state)
{
	struct pair *p = *state;
	struct vgsp_chan ch;
	u8 q[256];
	u32 v;

	memset(&ch, 0, sizeof(ch));
	ch.vm_ok = true;
	ch.vm.pdb = PD4;
	ch.vm.target = VGSP_MEM_VID;
	ch.d.chid = 5;
	/* empty grids (each dimension 0): completed, the release written */
	qmd_make(q, 0, 1, 1, 0xa1, 0);
	assert_int_equal(launch_both(p, &ch, q), 0);
	qmd_make(q, 4, 0, 1, 0xa2, 1);
	assert_int_equal(launch_both(p, &ch, q), 0);
	qmd_make(q, 4, 2, 0, 0xa3, 2);
	assert_int_equal(launch_both(p, &ch, q), 0);
	assert_int_equal(vgsp_fb_read(p->b, VA_PA + 0x9010, &v, 4), 0);
	assert_int_equal(v, 0xa3);
	assert_int_equal(p->lp.srv.st.launches_empty, 3);
	assert_int_equal(p->rb.st.item_errors, 0);
	/* a 1x1x1 grid has work: refused on both, nothing released */
	qmd_make(q, 1, 1, 1, 0xb1, 3);
	assert_int_equal(launch_both(p, &ch, q), -EOPNOTSUPP);
	assert_int_equal(p->rb.st.item_errors, 1);
	/* empty, but a dependent QMD, or not V04_00: refused as by sim */
	qmd_make(q, 0, 1, 1, 0xb2, 4);
	vgsp_put32(q, 11 * 4, 1u << 16);
	assert_int_equal(launch_both(p, &ch, q), -EOPNOTSUPP);
	qmd_make(q, 0, 1, 1, 0xb3, 5);
	vgsp_put32(q, 18 * 4, 3 << 4);
	assert_int_equal(launch_both(p, &ch, q), -EOPNOTSUPP);
	/* an empty grid whose release faults: the same error on both */
	qmd_make(q, 0, 1, 1, 0xb4, 6);
	vgsp_put32(q, 20 * 4, 0x3ff000);
	assert_int_equal(launch_both(p, &ch, q), -EFAULT);
	assert_int_equal(p->rb.st.items, 7);
	/* a QMD the kernel cannot read never reaches the ring */
	ch.vm_ok = false;
	assert_int_equal(p->b->backend->gr_launch(p->b, &ch, 0x8000),
			 -EFAULT);
	assert_int_equal(p->rb.st.items, 7);
}

static struct vgsp_ce_xfer small_copy(void)
{
	struct vgsp_ce_xfer x;

	memset(&x, 0, sizeof(x));
	x.src = phys(VGSP_MEM_VID, 0x300000);
	x.dst = phys(VGSP_MEM_VID, 0x310000);
	x.line_bytes = 4096;
	x.lines = 1;
	return x;
}

/* hostd says 100 completions are waiting in a ring of 16 */
static void test_kernel_refuses_bad_comp_head(void **state)
{
	struct pair *p = *state;
	struct vgsp_ce_xfer x = small_copy();
	u8 before[16], after[16];

	assert_int_equal(vgsp_fb_read(p->b, 0x310000, before, 16), 0);
	p->lp.mode = BAD_HEAD;
	assert_int_equal(run_xfer(p->b, x), -EIO);
	assert_int_equal(p->rb.st.bad_index, 1);
	assert_true(vgsp_ring_be_failed(&p->rb));
	assert_int_equal(vgsp_fb_read(p->b, 0x310000, after, 16), 0);
	assert_memory_equal(before, after, 16);
	/* failed for good: nothing more is published */
	p->lp.mode = SERVE;
	assert_int_equal(run_xfer(p->b, x), -EIO);
	assert_int_equal(p->rb.st.failed_items, 1);
	assert_int_equal(p->rb.st.items, 1);
}

/* hostd moves its submission tail backwards */
static void test_kernel_refuses_bad_sub_tail(void **state)
{
	struct pair *p = *state;

	assert_int_equal(run_xfer(p->b, small_copy()), 0);
	vgsp_hr_store(&ctl(p->area)->sub_tail, 0xfffffff0);
	assert_int_equal(run_xfer(p->b, small_copy()), -EIO);
	assert_int_equal(p->rb.st.bad_index, 1);
	assert_true(vgsp_ring_be_failed(&p->rb));
}

static void test_kernel_refuses_bad_status(void **state)
{
	struct pair *p = *state;

	p->lp.mode = BAD_STATUS;
	assert_int_equal(run_xfer(p->b, small_copy()), -EIO);
	assert_int_equal(p->rb.st.bad_completion, 1);
	assert_true(vgsp_ring_be_failed(&p->rb));
}

/* a completion for an item the kernel is not waiting for, then nothing */
static void test_stale_completion_times_out(void **state)
{
	struct pair *p = *state;

	p->rb.timeout_ns = 20 * 1000 * 1000;
	p->lp.mode = STALE;
	assert_int_equal(run_xfer(p->b, small_copy()), -ETIMEDOUT);
	assert_int_equal(p->rb.st.stale, 1);
	assert_int_equal(p->rb.st.timeouts, 1);
	assert_false(vgsp_ring_be_failed(&p->rb));
	p->lp.mode = SERVE;
	assert_int_equal(run_xfer(p->b, small_copy()), 0);
}

static void test_hostd_death_fails_pending(void **state)
{
	struct pair *p = *state;

	p->lp.mode = DIE;
	assert_int_equal(run_xfer(p->b, small_copy()), -EIO);
	assert_int_equal(p->rb.st.items, 1);
	assert_int_equal(p->rb.st.failed_items, 1);
	assert_int_equal(p->rb.st.completions, 0);
	assert_true(vgsp_ring_be_failed(&p->rb));
}

/* hostd's end alone, acting as the kernel by hand */
static void publish(u8 *area, u32 *head, u32 op, u64 cookie)
{
	struct vgsp_hr_sub *s = (void *)(area + VGSP_HR_SUB_OFF +
		(*head % VGSP_HR_SUB_ENTRIES) * VGSP_HR_SUB_BYTES);

	memset(s, 0, sizeof(*s));
	s->op = op;
	s->cookie = cookie;
	s->len = sizeof(s->u.ce);
	s->u.ce.nbytes = 8;
	s->u.ce.dst_off = 64;
	s->u.ce.ndst = 1;
	s->u.ce.ext[VGSP_HR_MAX_EXT].len = 8;
	s->u.ce.elem_size = 1;
	s->u.ce.elem[0] = (u8)cookie;
	vgsp_hr_store(&ctl(area)->sub_head, ++*head);
}

static struct vgsp_hr_comp comp_at(u8 *area, u32 i)
{
	struct vgsp_hr_comp e;

	memcpy(&e, area + VGSP_HR_COMP_OFF +
	       (i % VGSP_HR_COMP_ENTRIES) * sizeof(e), sizeof(e));
	return e;
}

static void test_server_wraps_and_stops_when_full(void **state)
{
	struct pair *p = *state;
	struct vgsp_hr_ctl *c = ctl(p->area);
	struct hr_server s;
	u32 head = 0xfffffff8, tail = head, i;
	u64 cookie = 1;

	c->sub_head = c->sub_tail = c->comp_head = c->comp_tail = head;
	assert_int_equal(hr_server_init(&s, p->area, VGSP_HR_MAP_BYTES), 0);
	for (i = 0; i < VGSP_HR_SUB_ENTRIES; i++)
		publish(p->area, &head, VGSP_HR_OP_CE_FILL, cookie++);
	assert_int_equal(hr_server_run(&s, 100), VGSP_HR_SUB_ENTRIES);
	for (i = 0; i < VGSP_HR_SUB_ENTRIES; i++)
		publish(p->area, &head, VGSP_HR_OP_CE_FILL, cookie++);
	/* completions not taken: the completion ring is full */
	assert_int_equal(hr_server_run(&s, 100), 0);
	for (i = 0; i < VGSP_HR_COMP_ENTRIES; i++) {
		struct vgsp_hr_comp e = comp_at(p->area, tail);

		assert_int_equal(e.cookie, i + 1);
		assert_int_equal(e.status, 0);
		vgsp_hr_store(&c->comp_tail, ++tail);
	}
	assert_int_equal(hr_server_run(&s, 100), VGSP_HR_SUB_ENTRIES);
	assert_int_equal(comp_at(p->area, tail).cookie, 17);
	assert_true(c->sub_tail < 0x100);	/* wrapped */
	assert_int_equal(p->area[VGSP_HR_DATA_OFF + 64], 32);
	assert_int_equal(s.st.completed, 32);
	hr_server_fini(&s);
}

static void test_server_refuses_bad_kernel_input(void **state)
{
	struct pair *p = *state;
	struct vgsp_hr_ctl *c = ctl(p->area);
	struct hr_server s, s2;
	struct vgsp_hr_sub *w = (void *)(p->area + VGSP_HR_SUB_OFF);
	u32 head = 0;

	/* a layout that is not this version's is not served */
	c->version = 99;
	assert_int_equal(hr_server_init(&s, p->area, VGSP_HR_MAP_BYTES), -22);
	c->version = VGSP_HR_VERSION;
	assert_int_equal(hr_server_init(&s, p->area, VGSP_HR_MAP_BYTES), 0);
	/* an unknown op and an IOVA list that does not add up: EINVAL */
	publish(p->area, &head, 99, 1);
	assert_int_equal(hr_server_run(&s, 10), 1);
	assert_int_equal(comp_at(p->area, 0).status, -22);
	publish(p->area, &head, VGSP_HR_OP_CE_COPY, 2);
	w[1].u.ce.nsrc = 1;
	w[1].u.ce.ext[0].len = 9;
	assert_int_equal(hr_server_run(&s, 10), 1);
	assert_int_equal(comp_at(p->area, 1).status, -22);
	/* a VIEW extent for a hostd that did not ask for one: EINVAL */
	publish(p->area, &head, VGSP_HR_OP_CE_FILL, 3);
	w[2].u.ce.ext[VGSP_HR_MAX_EXT].target = VGSP_HR_TARGET_VIEW;
	assert_int_equal(hr_server_run(&s, 10), 1);
	assert_int_equal(comp_at(p->area, 2).status, -22);
	assert_int_equal(s.st.bad_item, 3);
	/* a view past the IOVA space, or a second one, is refused */
	assert_int_equal(hr_server_set_view(&s, p->area, 1, VGSP_HR_VIEW_BYTES), -22);
	assert_int_equal(hr_server_set_view(&s, p->area, 0, 4096), 0);
	assert_int_equal(hr_server_set_view(&s, p->area, 0, 4096), -22);
	/* features this hostd does not know: the layout is not served */
	ctl(p->area)->features = 0x80;
	assert_int_equal(hr_server_init(&s2, p->area, VGSP_HR_MAP_BYTES), -22);
	ctl(p->area)->features = 0;
	/* the kernel's head 17 ahead: the instance is dropped */
	vgsp_hr_store(&c->sub_head, head + VGSP_HR_SUB_ENTRIES + 1);
	assert_int_equal(hr_server_run(&s, 10), -71);
	assert_int_equal(s.st.bad_index, 1);
	/* the kernel closes the area when the instance goes */
	assert_false(hr_server_closed(&s));
	vgsp_ring_be_fini(&p->rb);
	assert_true(hr_server_closed(&s));
	hr_server_fini(&s);
}

/* A guest channel on the ring instance (as in test_fifo.c). */
#define CLIENT		0xc1e00001
#define HDEVICE		0x1
#define HCHAN		0x2
#define GPFIFO_VA	0x1000
#define PB_VA		0x2000
#define ERRNOT_PA	0x5000ULL
#define USERD_PA	0x300000ULL
#define CHID		3
#define RUNLIST		1

static void fb32(struct vgsp_dev *d, u64 pa, u32 v)
{
	u8 b[4];

	vgsp_put32(b, 0, v);
	assert_int_equal(vgsp_fb_write(d, pa, b, 4), 0);
}

static u32 rd32(struct vgsp_dev *d, u64 pa)
{
	u8 b[4];

	assert_int_equal(vgsp_fb_read(d, pa, b, 4), 0);
	return vgsp_get32(b, 0);
}

static void make_channel(struct vgsp_dev *d)
{
	struct vgsp_chan_desc cd = {
		.client = CLIENT, .handle = HCHAN, .parent = HDEVICE,
		.hdevice = HDEVICE, .chid = CHID, .runlist = RUNLIST,
		.engine_type = 9, .gpfifo_va = GPFIFO_VA, .gpfifo_entries = 16,
		.userd_pa = USERD_PA, .userd_target = VGSP_MEM_VID,
		.errnot_pa = ERRNOT_PA, .errnot_target = VGSP_MEM_VID,
		.has_errnot = true,
	};
	u8 z[64] = { 0 };

	vgsp_dev_lock(d);
	assert_int_equal(vgsp_fb_write(d, ERRNOT_PA, z, sizeof(z)), 0);
	assert_int_equal(vgsp_fb_write(d, USERD_PA, z, sizeof(z)), 0);
	assert_int_equal(vgsp_fb_write(d, USERD_PA + 64, z, sizeof(z)), 0);
	assert_int_equal(vgsp_fb_write(d, USERD_PA + 128, z, sizeof(z)), 0);
	assert_int_equal(vgsp_rm_vas_set_pd(d, CLIENT, HDEVICE, 0, PD4,
					    VGSP_MEM_VID), 0);
	assert_int_equal(vgsp_fifo_chan_alloc(d, &cd), 0);
	vgsp_dev_unlock(d);
}

/* A 64 KiB copy VA 0x40000 -> 0x80000 as GPFIFO entry @slot. */
static void submit_copy(struct vgsp_dev *d, u32 slot)
{
	const u32 pb[] = {
		0x20010000, 0x0000c8b5,		/* SET_OBJECT copy */
		0x20020100, 0, 0x40000,		/* OFFSET_IN */
		0x20020102, 0, 0x80000,		/* OFFSET_OUT */
		0x20010106, 0x10000,		/* LINE_LENGTH_IN */
		0x200100c0, 0x182,		/* LAUNCH_DMA pitch, virtual */
	};
	u32 i, off = slot * 0x100, token = RUNLIST << 16 | CHID;

	vgsp_dev_lock(d);
	for (i = 0; i < VGSP_ARRAY_SIZE(pb); i++)
		fb32(d, VA_PA + PB_VA + off + 4 * i, pb[i]);
	fb32(d, VA_PA + GPFIFO_VA + 8 * slot, PB_VA + off);
	fb32(d, VA_PA + GPFIFO_VA + 8 * slot + 4,
	     (u32)VGSP_ARRAY_SIZE(pb) << 10);
	fb32(d, USERD_PA + VGSP_USERD_GP_PUT, slot + 1);
	vgsp_dev_unlock(d);
	assert_int_equal(vgsp_dev_bar_write(d, VGSP_BAR0, 0xbb0090, &token,
					    4), 0);
}

static bool settled(struct vgsp_dev *d, u32 gp_get)
{
	int i;

	for (i = 0; i < 3000; i++) {
		struct timespec ts = { 0, 1000000 };
		bool done;

		vgsp_dev_lock(d);
		done = rd32(d, USERD_PA + VGSP_USERD_GP_GET) == gp_get ||
		       (rd32(d, ERRNOT_PA + 12) >> 16) != 0;
		vgsp_dev_unlock(d);
		if (done)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

static void test_channel_copy_then_hostd_death(void **state)
{
	struct pair *p = *state;
	static u8 a[0x10000], b[0x10000];
	struct vgsp_chan *ch;

	make_channel(p->b);
	submit_copy(p->b, 0);
	assert_true(settled(p->b, 1));
	vgsp_dev_lock(p->b);
	assert_int_equal(rd32(p->b, ERRNOT_PA + 12) >> 16, 0);
	assert_int_equal(vgsp_fb_read(p->b, VA_PA + 0x40000, a, sizeof(a)), 0);
	assert_int_equal(vgsp_fb_read(p->b, VA_PA + 0x80000, b, sizeof(b)), 0);
	vgsp_dev_unlock(p->b);
	assert_memory_equal(a, b, sizeof(a));
	assert_int_equal(p->rb.st.completions, 1);

	/* hostd dies while the next copy waits: the channel stops */
	p->lp.mode = DIE;
	submit_copy(p->b, 1);
	assert_true(settled(p->b, 2));
	vgsp_dev_lock(p->b);
	assert_int_equal(rd32(p->b, ERRNOT_PA + 12) >> 16, 0xffff);
	assert_int_not_equal(rd32(p->b, ERRNOT_PA + 8), 0);
	assert_int_not_equal(rd32(p->b, ERRNOT_PA + 8), 31);	/* not MMU */
	ch = vgsp_fifo_chan_find(p->b, CLIENT, HCHAN);
	assert_non_null(ch);
	assert_int_equal(ch->state, VGSP_CHAN_ERROR);
	vgsp_dev_unlock(p->b);
	assert_int_equal(rd32(p->b, USERD_PA + VGSP_USERD_GP_GET), 1);
	assert_int_equal(p->rb.st.failed_items, 1);
	assert_true(vgsp_ring_be_failed(&p->rb));
}

static void test_index_arithmetic(void **state)
{
	(void)state;
	assert_int_equal(vgsp_hr_avail(5, 5, 16), 0);
	assert_int_equal(vgsp_hr_avail(3, 0xfffffffe, 16), 5);	/* wrap */
	assert_int_equal(vgsp_hr_avail(17, 0, 16), -1);
	assert_int_equal(vgsp_hr_avail(0, 1, 16), -1);
	assert_int_equal(vgsp_hr_space(16, 0, 0, 16), 0);
	assert_int_equal(vgsp_hr_space(2, 0xfffffffa, 0xfffffff8, 16), 8);
	assert_int_equal(vgsp_hr_space(5, 6, 0, 16), -1);	/* ahead */
	assert_int_equal(vgsp_hr_space(20, 3, 4, 16), -1);	/* backwards */
	assert_int_equal(vgsp_hr_space(20, 4, 4, 16), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_arithmetic),
		cmocka_unit_test_setup_teardown(test_parity_copies, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_parity_fills_and_faults,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_launches,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_parity_copies,
						setup_direct, teardown),
		cmocka_unit_test_setup_teardown(test_parity_fills_and_faults,
						setup_direct, teardown),
		cmocka_unit_test_setup_teardown(test_parity_launches,
						setup_direct, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_refuses_bad_comp_head,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_refuses_bad_sub_tail,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_refuses_bad_status,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_completion_times_out,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostd_death_fails_pending,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_channel_copy_then_hostd_death,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_server_wraps_and_stops_when_full,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_server_refuses_bad_kernel_input,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
