// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the core's ring backend (kernel/core/backend/ring.c)
 * against a hostile hostd. hostd is trusted less than the kernel, so
 * whatever it writes into the shared area (its indices, completion
 * entries, the staged destination bytes) must end in a clean status and
 * a counter, never a crash, a hang or a write outside the transfer.
 *
 * Input: staged or view mode (guest RAM not staged), a transfer (fill or
 * copy, FB or guest-RAM ends, lengths, lines, pitches), then hostd's
 * moves, one byte opcode each, consumed at every kick and wait:
 *   0 complete the newest submission (status from the input)
 *   1 complete with a cookie from the input
 *   2 set comp_head to any u32      3 set sub_tail to any u32
 *   4 scribble on the data area      5 die (the fd is released)
 *   6 nothing (the kernel waits; time moves on to the timeout)
 * Out of input: hostd dies. The last step is a launch on a channel.
 */
#include "harness.h"
#include "backend/ring.h"
#include "mm/mm.h"

#define ARENA		(1u << 20)
#define FB_WINDOW	(8u << 20)

static struct vgsp_dev *dev;
static u8 *area;
static struct vgsp_ring_be rb;
static struct fz_in *cur;

static struct vgsp_hr_ctl *ctl(void)
{
	return (struct vgsp_hr_ctl *)area;
}

static void hostd_move(void)
{
	struct vgsp_hr_ctl *c = ctl();
	struct vgsp_hr_comp e = { 0 };
	const struct vgsp_hr_sub *s;
	u32 head;

	if (!fz_more(cur)) {
		vgsp_ring_be_fail(&rb);
		return;
	}
	switch (fz_u8(cur) % 7) {
	case 0:
	case 1:
		s = (void *)(area + VGSP_HR_SUB_OFF +
			     ((c->sub_head - 1) % VGSP_HR_SUB_ENTRIES) *
			     VGSP_HR_SUB_BYTES);
		e.cookie = s->cookie;
		if (fz_u8(cur) & 1)
			e.cookie = fz_u64(cur);
		e.status = (s32)fz_u32(cur);
		if (e.status & 0x100)	/* mostly plausible statuses */
			e.status = -(e.status & 0xff);
		head = c->comp_head;
		memcpy(area + VGSP_HR_COMP_OFF +
		       (head % VGSP_HR_COMP_ENTRIES) * sizeof(e), &e, sizeof(e));
		c->sub_tail = c->sub_head;
		vgsp_hr_store(&c->comp_head, head + 1);
		break;
	case 2:
		vgsp_hr_store(&c->comp_head, fz_u32(cur));
		break;
	case 3:
		vgsp_hr_store(&c->sub_tail, fz_u32(cur));
		break;
	case 4:
		fz_bytes(cur, area + VGSP_HR_DATA_OFF +
			 fz_u32(cur) % (VGSP_HR_DATA_BYTES - 16), 16);
		break;
	case 5:
		vgsp_ring_be_fail(&rb);
		break;
	default:
		break;
	}
}

static void link_kick(void *link)
{
	hostd_move();
}

static int link_wait(void *link, u64 timeout_ns)
{
	hostd_move();
	return 0;
}

static const struct vgsp_ring_link_ops link_ops = {
	.kick = link_kick,
	.wait = link_wait,
};

static void setup(void)
{
	static const u8 uuid[16] = { 0xf0, 0x44 };
	struct vgsp_dev_opts o = { .backend = &vgsp_backend_ring,
				   .backend_priv = &rb };

	vgsp_os_set(&fz_os);
	fz_mem = calloc(1, ARENA);
	fz_mem_size = ARENA;
	area = calloc(1, VGSP_HR_MAP_BYTES);
	dev = vgsp_dev_create_opts(fz_profile(), uuid, 8, &fz_fe, NULL, &o);
	if (!fz_mem || !area || !dev)
		abort();
	fz_bus_master(dev);
}

static struct vgsp_ce_end end_of(struct fz_in *in)
{
	struct vgsp_ce_end e = { 0 };
	u8 k = fz_u8(in);

	e.target = k & 1 ? VGSP_MEM_SYS : VGSP_MEM_VID;
	e.addr = (k & 1 ? FZ_ARENA_IOVA : 0) + fz_u32(in) % (k & 2 ?
		 0xffffffffu : (k & 1 ? ARENA : FB_WINDOW));
	return e;
}

static bool status_ok(int r)
{
	return r == 0 || r == -EAGAIN || (r < 0 && r >= -4095);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct vgsp_ce_xfer x;
	struct vgsp_chan ch;
	int r, n;

	if (!dev)
		setup();
	memset(area, 0, VGSP_HR_MAP_BYTES);
	vgsp_ring_be_fini(&rb);
	if (vgsp_ring_be_init(&rb, area, 1, &link_ops, NULL))
		abort();
	rb.timeout_ns = 50 * 1000;	/* fz_now moves 1 us a call */
	cur = &in;
	/* hostd maps guest RAM itself (nothing staged) or not */
	if (fz_u8(&in) & 1)
		vgsp_ring_be_features(&rb, VGSP_HR_FEAT_GUEST_VIEW);

	memset(&x, 0, sizeof(x));
	x.fill = fz_u8(&in) & 1;
	x.elem_size = fz_u8(&in) % 17;
	fz_bytes(&in, x.elem, sizeof(x.elem));
	x.src = end_of(&in);
	x.dst = end_of(&in);
	x.line_bytes = fz_u32(&in) % (600u << 10);
	x.lines = fz_u8(&in) % 9;
	x.pitch_in = fz_u32(&in) % (1u << 20);
	x.pitch_out = fz_u32(&in) % (1u << 20);
	for (n = 0; n < 64; n++) {
		u32 line = x.line;

		r = dev->backend->ce_xfer(dev, &x);
		if (!status_ok(r) || x.line > x.lines || x.line < line)
			abort();
		if (r == 0 && x.line != x.lines && x.lines && x.line_bytes)
			abort();
		if (r != -EAGAIN)
			break;
	}
	/* whatever hostd did, the counters add up */
	if (rb.st.completions > rb.st.items ||
	    rb.st.item_errors > rb.st.completions)
		abort();

	memset(&ch, 0, sizeof(ch));
	ch.vm_ok = true;
	ch.vm.pdb = fz_u32(&in) % FB_WINDOW;
	ch.vm.target = VGSP_MEM_VID;
	r = dev->backend->gr_launch(dev, &ch, fz_u64(&in));
	if (!status_ok(r) || r == -EAGAIN)
		abort();
	cur = NULL;
	return 0;
}
