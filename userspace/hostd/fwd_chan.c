/* SPDX-License-Identifier: MIT */
/*
 * fwd_chan.c - compute and copy channels in a mirrored VA space
 * (forwarding-map.md §6, §8.7): channel group + subcontext +
 * HOPPER_CHANNEL_GPFIFO_A with DENY_PHYSICAL_MODE_CE | DENY_AUTH_LEVEL_PRIV,
 * hostd's ring, pushbuffer, fence and error notifier in hostd's window of
 * the VA space; a launch that replays the guest's compute state, sends its
 * QMD by VA and waits for a host semaphore (or the error notifier); a copy
 * between two VAs of the mirror that waits for the copy engine's semaphore.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>

#include "hostd_fwd.h"
#include "nvrm_abi.h"
#include "pb.h"

#define FWD_PB_BYTES (1u << 20)
#define FWD_RING_BYTES (HD_USERD_OFF + 4096u)
#define FWD_OPEN_TIMEOUT_NS 2000000000ull
#define FWD_SPIN_NS 50000ull        /* hot-spin this long, then sleep */
/*
 * Naps grow to this and no further: a launch ends up to one nap (plus the
 * timer's slack) after its fence, and that lateness is added to every
 * forwarded kernel: up to 250 µs with 200 µs naps and the default 50 µs
 * slack, against an 8.7 ms kernel_fma (B/A run 6 measured B 0.55 ms over
 * native). 20 µs naps with a 1 µs slack bound it to about 21 µs, for the
 * price of one wake-up per 20 µs while a long kernel runs.
 */
#define FWD_SLEEP_MAX_NS 20000ull
#define FWD_TIMER_SLACK_NS 1000ul

/* Once per waiting thread: its sleeps end when asked, not up to 50 µs later. */
static void tight_timer_slack(void)
{
	static __thread int done;

	if (!done) {
		(void)prctl(PR_SET_TIMERSLACK, FWD_TIMER_SLACK_NS, 0, 0, 0);
		done = 1;
	}
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause");
#endif
}

/* RM stops a whole channel group on an RC, so its other channels must not
 * be reused either, nor new ones opened in it. */
static void mark_dead(struct hd_fwd_chan *c)
{
	c->dead = true;
	if (c->group)
		c->group->dead = true;
}

/* 0 fence reached; -EFAULT the notifier reports an RC (*rc = info32);
 * -ETIMEDOUT. Either error marks the channel dead. */
static int wait_fence(struct hd_fwd_chan *c, uint32_t want, uint64_t timeout_ns, uint32_t *rc)
{
	const volatile uint32_t *f = c->fence.cpu;
	const volatile struct nv_notification *n = c->notif.cpu;
	uint64_t t0 = hd_now_ns(), nap = 10000;
	for (;;) {
		if (n->status) {
			c->rc_info32 = n->info32;
			if (rc)
				*rc = c->rc_info32;
			mark_dead(c);
			return -EFAULT;
		}
		if ((int32_t)(*f - want) >= 0)
			return 0;
		uint64_t el = hd_now_ns() - t0;
		if (el > timeout_ns) {
			mark_dead(c);
			return -ETIMEDOUT;
		}
		if (el < FWD_SPIN_NS) {
			cpu_relax();
			continue;
		}
		struct timespec ts = { 0, (long)nap };
		tight_timer_slack();
		nanosleep(&ts, NULL);
		if (nap < FWD_SLEEP_MAX_NS)
			nap *= 2;
	}
}

static int submit(struct hd_dev *d, struct hd_fwd_chan *c, const uint32_t *dw, size_t n)
{
	return hd_ring_submit(d, &c->ring, &c->pbm, &c->gp_put, &c->pb_off, c->token, dw, n);
}

/* What a channel runs: the group's engine and the class it binds. */
struct fwd_kind {
	uint32_t engine, cls, subch;
	void *params;
	uint32_t params_size;
	const char *what;
	uint32_t tsg_engine;	/* 0: engine */
	bool no_deny;		/* ce-bench only */
};

static int alloc_group(struct hd_dev *d, struct hd_vas *v, uint32_t engine, const char *what,
		       uint32_t *tsg_out, uint32_t *ctxshare_out)
{
	struct nv_channel_group_alloc tsg;
	uint32_t h = hd_new_handle(d), cs_h;

	memset(&tsg, 0, sizeof(tsg));
	tsg.hVASpace = v->hvas;
	tsg.engineType = engine;
	if (rm_alloc(d, d->device, &h, KEPLER_CHANNEL_GROUP_A, &tsg, sizeof(tsg), what))
		return -1;
	struct nv_ctxshare_alloc cs = { v->hvas, NV_CTXSHARE_ALLOCATION_FLAGS_SUBCONTEXT_ASYNC, 0 };
	cs_h = hd_new_handle(d);
	if (rm_alloc(d, h, &cs_h, FERMI_CONTEXT_SHARE_A, &cs, sizeof(cs),
		     "alloc FERMI_CONTEXT_SHARE_A (fwd)")) {
		rm_free(d, d->device, h);
		return -1;
	}
	*tsg_out = h;
	*ctxshare_out = cs_h;
	return 0;
}

int hd_fwd_group_open(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_group *g)
{
	memset(g, 0, sizeof(*g));
	if (!v->hvas || !v->hvirt)
		return -1;
	return alloc_group(d, v, NV2080_ENGINE_TYPE_GRAPHICS,
			   "alloc KEPLER_CHANNEL_GROUP_A (fwd, shared)", &g->tsg, &g->ctxshare);
}

void hd_fwd_group_close(struct hd_dev *d, struct hd_fwd_group *g)
{
	if (g->tsg)
		rm_free(d, d->device, g->tsg); /* its subcontext */
	memset(g, 0, sizeof(*g));
}

/*
 * A channel joining group @g: the group's first channel schedules the
 * group (as when each had its own); a later one is scheduled on its own,
 * as UVM does for the channels it adds to a group, and should RM refuse
 * that, by scheduling the group again.
 */
static int schedule(struct hd_dev *d, struct hd_fwd_chan *c, struct hd_fwd_group *g)
{
	struct nv_gpfifo_schedule sched = { 1, 0, 0 };

	if (g && g->scheduled) {
		if (!rm_control(d, c->chan, NVA06F_CTRL_CMD_GPFIFO_SCHEDULE, &sched, sizeof(sched),
				"ctrl channel GPFIFO_SCHEDULE (fwd, in a running group)")) {
			g->chan_schedules++;
			return 0;
		}
	}
	if (rm_control(d, g ? g->tsg : c->tsg, NVA06C_CTRL_CMD_GPFIFO_SCHEDULE, &sched,
		       sizeof(sched), "ctrl TSG GPFIFO_SCHEDULE (fwd)"))
		return -1;
	if (g)
		g->scheduled = true;
	return 0;
}

/* 0; -1 an RM call failed; -2 the channel was created but its first
 * pushbuffer did not complete (worth one retry with other ring memory).
 * @g: the group to open it in, or NULL for one of its own. */
static int open_once(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c, int ringmem,
		     const struct fwd_kind *k, struct hd_fwd_group *g)
{
	uint32_t parent;

	memset(c, 0, sizeof(*c));
	c->ring.map_fd = c->pbm.map_fd = c->fence.map_fd = c->notif.map_fd = -1;
	c->vid_ring = ringmem == HD_MEM_VID;
	if (hd_vas_alloc(d, v, &c->ring, FWD_RING_BYTES, ringmem | HD_MEM_CPU) ||
	    hd_vas_alloc(d, v, &c->pbm, FWD_PB_BYTES, ringmem | HD_MEM_CPU) ||
	    hd_vas_alloc(d, v, &c->fence, 4096, HD_MEM_SYS | HD_MEM_CPU) ||
	    hd_vas_alloc(d, v, &c->notif, 4096, HD_MEM_SYS | HD_MEM_CPU))
		return -1;
	memset(c->ring.cpu, 0, HD_USERD_OFF + 512);
	memset(c->fence.cpu, 0, 4096);
	memset(c->notif.cpu, 0, 4096);

	if (g) {
		if (g->dead || !g->tsg)
			return -1;
		parent = g->tsg;
	} else {
		if (alloc_group(d, v, k->tsg_engine ? k->tsg_engine : k->engine, k->what,
				&c->tsg, &c->ctxshare))
			return -1;
		parent = c->tsg;
	}
	struct nv_channel_alloc ch;
	memset(&ch, 0, sizeof(ch));
	ch.hObjectError = c->notif.h;
	ch.hObjectBuffer = v->hvirt;
	ch.gpFifoOffset = c->ring.va;
	ch.gpFifoEntries = HD_GP_ENTRIES;
	ch.flags = k->no_deny ? 0 :
		   NVOS04_FLAGS_CHANNEL_DENY_PHYSICAL_MODE_CE | NVOS04_FLAGS_CHANNEL_DENY_AUTH_LEVEL_PRIV;
	ch.hContextShare = g ? g->ctxshare : c->ctxshare;
	ch.hUserdMemory[0] = c->ring.h;
	ch.userdOffset[0] = HD_USERD_OFF;
	c->chan = hd_new_handle(d);
	c->gr = hd_new_handle(d);
	struct nv_work_submit_token tok = { 0xffffffffu };
	if (rm_alloc(d, parent, &c->chan, HOPPER_CHANNEL_GPFIFO_A, &ch, sizeof(ch),
		     "alloc HOPPER_CHANNEL_GPFIFO_A (fwd, deny phys-CE/priv)")) {
		c->chan = 0;
		return -1;
	}
	if (g) {
		/* from here hd_fwd_chan_close() frees the channel alone */
		c->group = g;
		g->chans++;
	}
	if (rm_alloc(d, c->chan, &c->gr, k->cls, k->params, k->params_size, k->what) ||
	    rm_control(d, c->chan, NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN, &tok, sizeof(tok),
		       "ctrl GET_WORK_SUBMIT_TOKEN (fwd)") ||
	    schedule(d, c, g))
		return -1;
	c->token = tok.workSubmitToken;
	c->gp_entries = HD_GP_ENTRIES;

	/* entry 0: the pushbuffer lives above 2^40 (hostd's window), so set
	 * the segment's extended base once; entry 1: bind the class on its
	 * subchannel and release the fence */
	volatile uint64_t *gp = c->ring.cpu;
	gp[0] = hd_gpfifo_ext_base(c->pbm.va);
	c->gp_put = 1;
	uint32_t buf[16];
	struct pb p;
	pb_init(&p, buf, 16);
	pb_set_object(&p, k->subch, k->cls);
	pb_host_sem_release(&p, c->fence.va, ++c->seq);
	if (p.overflow || submit(d, c, buf, p.len))
		return -1;
	uint32_t rc = 0;
	int r = wait_fence(c, c->seq, FWD_OPEN_TIMEOUT_NS, &rc);
	if (d->log)
		fprintf(d->log, "fwd %s channel: token 0x%x ring %s va 0x%llx pushbuffer va 0x%llx fence va "
			"0x%llx: first segment %s (GP_GET %u, notifier info32 %u)\n",
			k->cls == HOPPER_DMA_COPY_A ? "copy" : "compute",
			c->token, c->vid_ring ? "vidmem" : "sysmem", (unsigned long long)c->ring.va,
			(unsigned long long)c->pbm.va, (unsigned long long)c->fence.va,
			r ? (r == -EFAULT ? "RC" : "timed out") : "done",
			((volatile uint32_t *)((uint8_t *)c->ring.cpu + HD_USERD_OFF))[0x88 / 4], rc);
	if (r) {
		d->last_status = r == -EFAULT ? rc : NV_ERR_INVALID_STATE;
		return -2;
	}
	return 0;
}

static int open_kind(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c,
		     const struct fwd_kind *k, struct hd_fwd_group *g)
{
	if (!v->hvas || !v->hvirt)
		return -1;
	int r = open_once(d, v, c, HD_MEM_SYS, k, g);
	if (r == -2) {
		/* sysmem GPFIFO/USERD did not run: the bring-up hostd verified
		 * on the GPU has them in vidmem (BAR1) */
		hd_fwd_chan_close(d, c);
		if (d->log)
			fprintf(d->log, "fwd channel: retrying with the ring and pushbuffer in vidmem\n");
		r = open_once(d, v, c, HD_MEM_VID, k, g);
	}
	if (r) {
		hd_fwd_chan_close(d, c);
		return -1;
	}
	return 0;
}

static const struct fwd_kind compute = {
	NV2080_ENGINE_TYPE_GRAPHICS, HOPPER_COMPUTE_A, PB_SUBCH_COMPUTE,
	NULL, 0, "fwd compute channel (deny phys-CE/priv)", 0, false
};

int hd_fwd_chan_open(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c)
{
	return open_kind(d, v, c, &compute, NULL);
}

int hd_fwd_chan_open_in(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_group *g,
			struct hd_fwd_chan *c)
{
	return open_kind(d, v, c, &compute, g);
}

int hd_fwd_ce_open(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c,
		   unsigned int copy_index)
{
	return hd_fwd_ce_open_how(d, v, c, copy_index, false, false);
}

int hd_fwd_ce_open_how(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c,
		       unsigned int copy_index, bool tsg_gr, bool no_deny)
{
	struct nvb0b5_alloc cea = { 1, NV2080_ENGINE_TYPE_COPY0 + copy_index };
	struct fwd_kind ce = {
		cea.engineType, HOPPER_DMA_COPY_A, PB_SUBCH_COPY,
		&cea, sizeof(cea), "fwd copy channel (deny phys-CE/priv)",
		tsg_gr ? NV2080_ENGINE_TYPE_GRAPHICS : 0, no_deny
	};

	if (copy_index > 9)
		return -1;
	return open_kind(d, v, c, &ce, NULL);
}

/* A segment @len dwords long (< 0: refused by its encoder) that ends by
 * releasing the fence with c->seq + 1: rung, and the time noted. */
static int submit_fenced(struct hd_dev *d, struct hd_fwd_chan *c, const uint32_t *buf,
			 long len)
{
	c->t_submit_ns = c->t_done_ns = 0;
	if (len < 0)
		return -EINVAL;	/* refused before anything reached the GPU */
	c->seq++;
	if (submit(d, c, buf, (size_t)len)) {
		c->dead = true;
		return -EIO;
	}
	c->t_submit_ns = hd_now_ns();
	return 0;
}

int hd_fwd_copy_submit(struct hd_dev *d, struct hd_fwd_chan *c, const struct hd_copy *cp,
		       uint32_t *payload)
{
	uint32_t buf[32];
	int r;

	if (c->dead || !c->chan)
		return -EIO;
	r = submit_fenced(d, c, buf, hd_fwd_encode_copy(buf, 32, cp, c->fence.va, c->seq + 1));
	if (!r)
		*payload = c->seq;
	return r;
}

int hd_fwd_wait(struct hd_fwd_chan *c, uint32_t payload, uint64_t timeout_ns, uint32_t *rc)
{
	int r;

	if (rc)
		*rc = 0;
	r = wait_fence(c, payload, timeout_ns, rc);
	if (!r)
		c->t_done_ns = hd_now_ns();
	return r;
}

int hd_fwd_copy(struct hd_dev *d, struct hd_fwd_chan *c,
		const struct hd_copy *cp, uint64_t timeout_ns, uint32_t *rc)
{
	uint32_t payload;
	int r;

	if (rc)
		*rc = 0;
	r = hd_fwd_copy_submit(d, c, cp, &payload);
	return r ? r : hd_fwd_wait(c, payload, timeout_ns, rc);
}

int hd_fwd_launch(struct hd_dev *d, struct hd_fwd_chan *c,
		  const struct hd_mthd *m, size_t n, uint64_t qmd_va,
		  uint64_t timeout_ns, uint32_t *rc)
{
	uint32_t local[512], *buf = local;
	size_t cap = 2 * n + 16;
	if (rc)
		*rc = 0;
	if (c->dead || !c->chan)
		return -EIO;
	/* SEND_PCAS_A holds qmd_va >> 8 in 32 bits */
	if ((qmd_va & 0xffu) || (qmd_va >> 40))
		return -EINVAL;
	if (cap > sizeof(local) / 4 && !(buf = malloc(cap * 4)))
		return -ENOMEM;
	int r = submit_fenced(d, c, buf, hd_fwd_encode_launch(buf, cap, m, n, qmd_va,
							       c->fence.va, c->seq + 1));
	if (!r)
		r = hd_fwd_wait(c, c->seq, timeout_ns, rc);
	if (buf != local)
		free(buf);
	return r;
}

void hd_fwd_chan_close(struct hd_dev *d, struct hd_fwd_chan *c)
{
	if (c->group) {
		/* the channel and its compute object; the group stays */
		if (c->chan)
			rm_free(d, c->group->tsg, c->chan);
		c->group->chans--;
	} else if (c->tsg) {
		rm_free(d, d->device, c->tsg); /* channel, compute object, ctxshare */
	}
	hd_free(d, &c->ring);
	hd_free(d, &c->pbm);
	hd_free(d, &c->fence);
	hd_free(d, &c->notif);
	memset(c, 0, sizeof(*c));
	c->ring.map_fd = c->pbm.map_fd = c->fence.map_fd = c->notif.map_fd = -1;
}
