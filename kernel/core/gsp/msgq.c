// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The GSP side of the libos message queues (§D). The guest produces the
 * command queue and owns its header; we own the status queue's header.
 * With SWAP_RX on both sides our command read pointer lives in the status
 * queue's rx header and the guest's status read pointer in the command
 * queue's rx header. Every header value is re-read and re-validated on
 * each pass: the guest can rewrite it at any time.
 */
#include "gsp_priv.h"

#define DIV_ROUND_UP_U32(n, d)	(((n) + (d) - 1) / (d))
#define ROUND8(n)		(((n) + 7U) & ~7U)
#define MIN_QUEUE_SLOTS		2
#define BATCH			64	/* messages per worker pass */

/*
 * @x mod @n for @x < 2 * @n, as every ring index sum here is (both terms
 * already reduced): a compare instead of a division, which under TCG is a
 * helper call, and a small RPC made eight.
 */
static __always_inline u32 wrap(u32 x, u32 n)
{
	return x >= n ? x - n : x;
}

struct cmdq_view {
	u32 count;		/* msgCount */
	u32 entry_off;
	u32 wptr;		/* guest's writePtr */
	u32 cpu_rptr;		/* guest's status read pointer */
};

/* Inline in both hot callers: a call level costs under TCG (gsp.c). */
static __always_inline u32 checksum(const u8 *buf, u32 len)
{
	u64 x = 0;
	u32 i;

	/* 32 bytes a turn: a small RPC is a few of them, not 16 turns */
	for (i = 0; i + 32 <= len; i += 32)
		x ^= vgsp_get64(buf, i) ^ vgsp_get64(buf, i + 8) ^
		     vgsp_get64(buf, i + 16) ^ vgsp_get64(buf, i + 24);
	for (; i + 8 <= len; i += 8)
		x ^= vgsp_get64(buf, i);
	return (u32)(x >> 32) ^ (u32)x;
}

u32 vgsp_msgq_checksum(const u8 *buf, u32 len)
{
	return checksum(buf, len);
}

static __always_inline u32 stat_slot_off(const struct vgsp_msgq *q, u32 slot)
{
	return q->statq_off + VGSP_ENTRY_OFF + slot * VGSP_MSG_SLOT;
}

static int write_u32(struct vgsp_gsp *gsp, u64 off, u32 v)
{
	u8 b[4];

	vgsp_put32(b, 0, v);
	return vgsp_shm_write(gsp, off, b, 4);
}

/*
 * The header bytes other than the write pointer are those last found
 * valid: CPU-RM writes them once, at init, so a doorbell only needs the
 * write pointer checked.
 */
static __always_inline bool geo_same(const struct vgsp_msgq *q, const u8 *h)
{
	return q->cmd_geo_ok &&
	       vgsp_get64(h, VGSP_TXH_VERSION) == q->cmd_geo[0] &&
	       vgsp_get64(h, VGSP_TXH_MSG_SIZE) == q->cmd_geo[1] &&
	       vgsp_get32(h, VGSP_TXH_FLAGS) == q->cmd_geo_flags &&
	       vgsp_get32(h, VGSP_TXH_RX_HDR_OFF) == q->cmd_rx_off &&
	       vgsp_get32(h, VGSP_TXH_ENTRY_OFF) == q->cmd_entry_off;
}

/*
 * Validate the command-queue header @h (VGSP_TXH_LEN bytes) into @v, all
 * but cpu_rptr; -EINVAL (counted) when it is not usable.
 */
static int check_cmdq(struct vgsp_gsp *gsp, const u8 *h, struct cmdq_view *v)
{
	struct vgsp_msgq *q = &gsp->q;
	u32 size, msg_size, rx_off;

	v->wptr = vgsp_get32(h, VGSP_TXH_WRITE_PTR);
	if (geo_same(q, h)) {
		v->count = q->cmd_count;
		v->entry_off = q->cmd_entry_off;
		if (v->wptr < v->count)
			return 0;
		goto bad;
	}
	size = vgsp_get32(h, VGSP_TXH_SIZE);
	msg_size = vgsp_get32(h, VGSP_TXH_MSG_SIZE);
	v->count = vgsp_get32(h, VGSP_TXH_MSG_COUNT);
	v->entry_off = vgsp_get32(h, VGSP_TXH_ENTRY_OFF);
	rx_off = vgsp_get32(h, VGSP_TXH_RX_HDR_OFF);
	if (vgsp_get32(h, VGSP_TXH_VERSION) != 0 || size != q->cmdq_size ||
	    msg_size != VGSP_MSG_SLOT || v->entry_off < VGSP_ENTRY_OFF ||
	    v->entry_off % VGSP_MSG_SLOT || v->entry_off >= size ||
	    v->count != (size - v->entry_off) / VGSP_MSG_SLOT ||
	    v->count < MIN_QUEUE_SLOTS || v->wptr >= v->count ||
	    !(vgsp_get32(h, VGSP_TXH_FLAGS) & VGSP_MSGQ_FLAG_SWAP_RX) ||
	    rx_off < VGSP_TXH_LEN || rx_off % 4 || rx_off > v->entry_off - 4)
		goto bad;
	q->cmd_geo_ok = true;
	q->cmd_geo[0] = vgsp_get64(h, VGSP_TXH_VERSION);
	q->cmd_geo[1] = vgsp_get64(h, VGSP_TXH_MSG_SIZE);
	q->cmd_geo_flags = vgsp_get32(h, VGSP_TXH_FLAGS);
	q->cmd_entry_off = v->entry_off;
	q->cmd_rx_off = rx_off;
	q->cmd_count = v->count;
	return 0;
bad:
	q->cmd_geo_ok = false;
	gsp->st.e.cmdq_hdr_bad++;
	return -EINVAL;
}

/* Read and validate the guest's command-queue header. */
static int read_cmdq(struct vgsp_gsp *gsp, struct cmdq_view *v)
{
	struct vgsp_msgq *q = &gsp->q;
	u8 h[VGSP_TXH_LEN + 4], r[4];
	int ret;

	/* The rx header usually follows: both in one read of guest memory. */
	ret = vgsp_shm_read(gsp, q->cmdq_off, h, sizeof(h));
	if (ret) {
		gsp->st.e.shm_errors++;
		return ret;
	}
	ret = check_cmdq(gsp, h, v);
	if (ret)
		return ret;
	if (q->cmd_rx_off == VGSP_TXH_LEN) {
		memcpy(r, h + VGSP_TXH_LEN, sizeof(r));
	} else {
		ret = vgsp_shm_read(gsp, q->cmdq_off + q->cmd_rx_off, r,
				    sizeof(r));
		if (ret) {
			gsp->st.e.shm_errors++;
			return ret;
		}
	}
	v->cpu_rptr = vgsp_get32(r, 0);
	q->cpu_wptr = v->wptr;
	q->cpu_rptr = v->cpu_rptr;
	return 0;
}

static __always_inline u32 stat_free(const struct vgsp_msgq *q, u32 cpu_rptr)
{
	if (!q->stat_count || cpu_rptr >= q->stat_count)
		return 0;	/* a pointer out of range means "full" */
	return wrap(cpu_rptr + q->stat_count - q->stat_wptr - 1, q->stat_count);
}

u32 vgsp_msgq_free_slots(struct vgsp_gsp *gsp)
{
	return stat_free(&gsp->q, gsp->q.cpu_rptr);
}

/*
 * The status queue's header from its write pointer on, at @t: our write
 * pointer @wptr, the fields after it, and (at VGSP_RXH_OFF) our command
 * read pointer @rptr. A reply writes only this part (publish_seg()).
 */
#define STAT_TAIL_LEN	(VGSP_RXH_OFF + 4 - VGSP_TXH_WRITE_PTR)
#define TAIL(field)	((field) - VGSP_TXH_WRITE_PTR)

static __always_inline void stat_tail(u8 t[STAT_TAIL_LEN], u32 wptr, u32 rptr)
{
	vgsp_put32(t, TAIL(VGSP_TXH_WRITE_PTR), wptr);
	vgsp_put32(t, TAIL(VGSP_TXH_FLAGS), VGSP_MSGQ_FLAG_SWAP_RX);
	vgsp_put32(t, TAIL(VGSP_TXH_RX_HDR_OFF), VGSP_RXH_OFF);
	vgsp_put32(t, TAIL(VGSP_TXH_ENTRY_OFF), VGSP_ENTRY_OFF);
	vgsp_put32(t, TAIL(VGSP_RXH_OFF), rptr);
}

/* The status queue's header, which we own: msgqTxHeader and our rx one. */
static void stat_header(const struct vgsp_msgq *q, u8 h[VGSP_RXH_OFF + 4],
			u32 wptr, u32 rptr)
{
	vgsp_put32(h, VGSP_TXH_VERSION, 0);
	vgsp_put32(h, VGSP_TXH_SIZE, q->statq_size);
	vgsp_put32(h, VGSP_TXH_MSG_SIZE, VGSP_MSG_SLOT);
	vgsp_put32(h, VGSP_TXH_MSG_COUNT, q->stat_count);
	stat_tail(h + VGSP_TXH_WRITE_PTR, wptr, rptr);
}

int vgsp_msgq_link(struct vgsp_gsp *gsp, u64 shm_pa, u32 npages,
		   u64 cmdq_off, u64 statq_off)
{
	struct vgsp_msgq *q = &gsp->q;
	u64 total = (u64)npages * VGSP_PAGE_SIZE;
	u64 min_q = VGSP_ENTRY_OFF + MIN_QUEUE_SLOTS * VGSP_MSG_SLOT;
	u8 h[VGSP_RXH_OFF + 4];

	/* Offsets are the guest's: bound them by the region before summing. */
	if ((shm_pa & (VGSP_PAGE_SIZE - 1)) || npages < 2 ||
	    npages > VGSP_SHM_MAX_PAGES || cmdq_off >= total ||
	    statq_off >= total || cmdq_off % VGSP_PAGE_SIZE ||
	    statq_off % VGSP_PAGE_SIZE ||
	    cmdq_off < DIV_ROUND_UP_U32(npages * 8, VGSP_PAGE_SIZE) *
		       (u64)VGSP_PAGE_SIZE ||
	    statq_off < cmdq_off + min_q || statq_off + min_q > total)
		return -EINVAL;

	memset(q, 0, sizeof(*q));
	q->shm_pa = shm_pa;
	q->npages = npages;
	q->cmdq_off = (u32)cmdq_off;
	q->statq_off = (u32)statq_off;
	q->cmdq_size = (u32)(statq_off - cmdq_off);
	q->statq_size = (u32)(total - statq_off);
	q->stat_count = (q->statq_size - VGSP_ENTRY_OFF) / VGSP_MSG_SLOT;

	stat_header(q, h, 0, 0);
	if (vgsp_shm_write(gsp, q->statq_off, h, sizeof(h))) {
		q->npages = 0;
		return -EFAULT;
	}
	return 0;
}

/*
 * @reread: read the guest's status read pointer again (else the one
 * read_cmdq() just stored: the guest only moves it forward, so an older
 * value can only understate the free space).
 * @rptr: our new command read pointer, published with the write pointer
 * (NO_CONSUME: none).
 */
#define NO_CONSUME	0xffffffffU

/*
 * The piece that publishes a reply: our status-queue write pointer, and
 * with @rptr != NO_CONSUME our command read pointer too, in one write:
 * both are in the header we own, 0x10 apart, and the fields between them
 * are stat_header()'s, as link wrote them. CPU-RM reads each pointer on
 * its own (the write pointer for replies, the read pointer for room to
 * send), so nothing needs one visible before the other; the reply slot is
 * written before either.
 */
static __always_inline void publish_seg(struct vgsp_gsp *gsp,
					struct vgsp_shm_seg *seg,
					u8 t[STAT_TAIL_LEN], u32 wptr,
					u32 rptr)
{
	seg->off = gsp->q.statq_off + VGSP_TXH_WRITE_PTR;
	seg->buf = t;
	if (rptr == NO_CONSUME) {
		vgsp_put32(t, 0, wptr);
		seg->len = 4;
	} else {
		stat_tail(t, wptr, rptr);
		seg->len = STAT_TAIL_LEN;
	}
}

static __always_inline int send(struct vgsp_gsp *gsp, u8 *msg, u32 rpc_len,
				bool reread, u32 rptr)
{
	struct vgsp_msgq *q = &gsp->q;
	struct vgsp_shm_seg seg[2] VGSP_NOINIT;
	u8 t[STAT_TAIL_LEN] VGSP_NOINIT;
	struct cmdq_view v VGSP_NOINIT;
	u32 total, len8, elems, k, cpu_rptr, wptr;

	if (rpc_len < VGSP_ELEM_MIN_RPC || rpc_len > VGSP_MSG_MAX - VGSP_ELEM_HDR)
		return -EINVAL;
	total = VGSP_ELEM_HDR + rpc_len;
	len8 = ROUND8(total);
	elems = DIV_ROUND_UP_U32(total, VGSP_MSG_SLOT);
	/* The guest's status read pointer, as fresh as needed. */
	cpu_rptr = !reread || read_cmdq(gsp, &v) ? q->cpu_rptr : v.cpu_rptr;
	if (stat_free(q, cpu_rptr) < elems) {
		gsp->st.e.statq_full++;
		return -ENOSPC;
	}
	/* plain stores: a memset here is a string op, slow under TCG */
	for (k = 0; k < VGSP_ELEM_HDR; k += 8)
		vgsp_put64(msg, k, 0);
	if (total & 7)	/* the checksummed pad: zero, not a stale byte */
		vgsp_put64(msg, total & ~7U, vgsp_get64(msg, total & ~7U) &
			   ((1ULL << 8 * (total & 7)) - 1));
	vgsp_put32(msg, VGSP_ELEM_SEQ, q->tx_seq);
	vgsp_put32(msg, VGSP_ELEM_COUNT, elems);
	vgsp_put32(msg, VGSP_ELEM_CHECKSUM, checksum(msg, len8));
	wptr = wrap(q->stat_wptr + elems, q->stat_count);
	/* Each slot complete before the pointer that publishes them. */
	if (elems == 1) {
		/* the usual reply: slot and pointers in one access */
		seg[0].off = stat_slot_off(q, q->stat_wptr);
		seg[0].buf = msg;
		seg[0].len = len8;
		publish_seg(gsp, &seg[1], t, wptr, rptr);
		if (vgsp_shm_xfer_v(gsp, seg, 2, true))
			goto fault;
	} else {
		for (k = 0; k < elems; k++) {
			u32 chunk = len8 - k * VGSP_MSG_SLOT;
			u32 slot = wrap(q->stat_wptr + k, q->stat_count);

			if (chunk > VGSP_MSG_SLOT)
				chunk = VGSP_MSG_SLOT;
			if (vgsp_shm_write(gsp, stat_slot_off(q, slot),
					   msg + k * VGSP_MSG_SLOT, chunk))
				goto fault;
		}
		publish_seg(gsp, &seg[1], t, wptr, rptr);
		if (vgsp_shm_write(gsp, seg[1].off, t, seg[1].len))
			goto fault;
	}
	if (rptr != NO_CONSUME)
		q->cmd_rptr = rptr;
	q->stat_wptr = wptr;
	q->tx_seq++;
	gsp->st.e.msgs_tx++;
	vgsp_intr_gsp_raise(gsp);
	return 0;
fault:
	gsp->st.e.shm_errors++;
	return -EFAULT;
}

int vgsp_msgq_send(struct vgsp_gsp *gsp, u8 *msg, u32 rpc_len)
{
	return send(gsp, msg, rpc_len, true, NO_CONSUME);
}

/* Mark @elems command slots consumed (our pointer in the status queue). */
static __always_inline int consume(struct vgsp_gsp *gsp, u32 new_rptr)
{
	gsp->q.cmd_rptr = new_rptr;
	if (write_u32(gsp, gsp->q.statq_off + VGSP_RXH_OFF, new_rptr)) {
		gsp->st.e.shm_errors++;
		return -EFAULT;
	}
	return 0;
}

/*
 * Gather bytes [@from, @to) of the message starting at @slot into gsp->rx
 * (the message is contiguous there, its slots wrap in the queue).
 */
static int gather(struct vgsp_gsp *gsp, const struct cmdq_view *v, u32 slot,
		  u32 from, u32 to)
{
	while (from < to) {
		u32 k = from / VGSP_MSG_SLOT, in = from % VGSP_MSG_SLOT;
		u32 n = VGSP_MSG_SLOT - in;
		u32 s = wrap(slot + k, v->count);

		if (n > to - from)
			n = to - from;
		if (vgsp_shm_read(gsp, gsp->q.cmdq_off + v->entry_off +
				  s * VGSP_MSG_SLOT + in, gsp->rx + from, n)) {
			gsp->st.e.shm_errors++;
			return -EFAULT;
		}
		from += n;
	}
	return 0;
}

/*
 * The bytes of a one-slot message to gather: its checksummed span
 * (ROUND8(element header + RPC length)) and whatever its handler may read
 * past it (rpc_info's reach), within the slot. Copying the whole slot
 * costs more than the rest of a small RPC under TCG.
 */
static __always_inline u32 rx_span(u32 rpc_len, u32 reach)
{
	u32 want = ROUND8(VGSP_ELEM_HDR + rpc_len);

	if (reach >= VGSP_MSG_SLOT - VGSP_ELEM_HDR)
		return VGSP_MSG_SLOT;
	if (VGSP_ELEM_HDR + reach > want)
		want = VGSP_ELEM_HDR + reach;
	return want < VGSP_RX_FIRST ? VGSP_RX_FIRST : want;
}

/*
 * @got: bytes of the message in gsp->rx (the handler reads no further).
 * The reply goes out with the command consumed up to @next; returns false
 * when there was none to send it with (the caller consumes).
 */
static __always_inline bool dispatch(struct vgsp_gsp *gsp, u32 got,
				     u64 doorbell_ns, u32 next)
{
	struct vgsp_rpc_outcome out;
	bool sent = false;
	u64 lat = 0;
	u32 len;

	memset(&out, 0, sizeof(out));
	vgsp_trace_rpc_begin(gsp, gsp->rx + VGSP_ELEM_HDR, 0);
	len = vgsp_abi_handle(gsp->abi, gsp, gsp->rx + VGSP_ELEM_HDR,
			      got - VGSP_ELEM_HDR, gsp->tx + VGSP_ELEM_HDR,
			      VGSP_MSG_MAX - VGSP_ELEM_HDR, &out);
	vgsp_trace_rpc_end(gsp, &out, len);
	/* process() read the queue header for this command: no second read */
	if (len && send(gsp, gsp->tx, len, false, next) == 0) {
		sent = true;
		if (doorbell_ns)
			lat = vgsp_now_ns() - doorbell_ns;
	}
	vgsp_stats_rpc(gsp, &out, lat, len != 0);
	return sent;
}

/*
 * Large RPCs (continuation records). CPU-RM's _issueRpcLarge sends the
 * first VGSP_RPC_MAX bytes of the RPC as a message of the RPC's own
 * function (header length = that message's bytes), then the rest in
 * CONTINUATION_RECORD messages: a header (length = header + chunk) and
 * the next chunk of VGSP_RPC_MAX - header bytes, the last one shorter.
 * A bidirectional caller then receives the reply the same way: the first
 * message of the RPC's function, then CONTINUATION_RECORDs until the
 * bytes cover its buffer; the result is read from the last header.
 */
static void large_drop(struct vgsp_msgq *q)
{
	q->big_total = 0;
	q->big_have = 0;
	q->big_skip = false;
}

/* Bytes [@off, @off + @n) of the reply: from big_rep, zeros past it. */
static void rep_copy(struct vgsp_gsp *gsp, u8 *dst, u32 off, u32 n)
{
	u32 have = gsp->q.rep_have, k = 0;

	if (off < have)
		k = have - off < n ? have - off : n;
	memcpy(dst, gsp->big_rep + off, k);
	memset(dst + k, 0, n - k);
}

/* Post what fits of the reply in big_rep; true while some remains. */
static bool send_pending(struct vgsp_gsp *gsp)
{
	const struct vgsp_abi *abi = gsp->abi;
	struct vgsp_msgq *q = &gsp->q;
	u32 hs = abi->rpc_hdr_size;
	struct cmdq_view v;

	while (q->rep_off < q->rep_len) {
		u8 *m = gsp->tx + VGSP_ELEM_HDR;
		u32 n, len, fn, cpu_rptr;

		if (!q->rep_off) {
			n = q->rep_len < VGSP_RPC_MAX ? q->rep_len : VGSP_RPC_MAX;
			rep_copy(gsp, m, 0, n);
			len = n;
			fn = abi->rpc_function(gsp->big_rep);
		} else {
			n = q->rep_len - q->rep_off;
			if (n > VGSP_RPC_MAX - hs)
				n = VGSP_RPC_MAX - hs;
			memcpy(m, gsp->big_rep, hs);	/* same result */
			rep_copy(gsp, m + hs, q->rep_off, n);
			len = hs + n;
			fn = abi->cont_function;
		}
		abi->rpc_frame(m, fn, len);
		cpu_rptr = read_cmdq(gsp, &v) ? q->cpu_rptr : v.cpu_rptr;
		if (stat_free(q, cpu_rptr) <
		    DIV_ROUND_UP_U32(VGSP_ELEM_HDR + len, VGSP_MSG_SLOT)) {
			/* The guest drains while it polls: try again. */
			if (vgsp_now_ns() - q->rep_since_ns <
			    VGSP_LARGE_REPLY_TIMEOUT_NS) {
				q->tx_blocked = true;
				return true;
			}
			gsp->st.e.large_abandoned++;
			break;
		}
		if (vgsp_msgq_send(gsp, gsp->tx, len))
			break;		/* guest memory failed: counted */
		q->rep_off += n;
		q->rep_since_ns = vgsp_now_ns();
		vgsp_yield();
	}
	q->rep_len = 0;
	q->rep_off = 0;
	q->rep_have = 0;
	return false;
}

/* Whole request in big_req: handle it, start sending the reply. */
static void dispatch_large(struct vgsp_gsp *gsp, u64 doorbell_ns)
{
	struct vgsp_msgq *q = &gsp->q;
	struct vgsp_rpc_outcome out;
	u64 lat = 0;
	u32 len;

	u32 total = q->big_total;
	bool skip = q->big_skip;

	memset(&out, 0, sizeof(out));
	vgsp_trace_rpc_begin(gsp, gsp->big_req, total);
	len = vgsp_abi_handle(gsp->abi, gsp, gsp->big_req,
			      skip ? VGSP_RPC_MAX : total, gsp->big_rep,
			      VGSP_LARGE_MAX, &out);
	vgsp_trace_rpc_end(gsp, &out, len);
	large_drop(q);
	gsp->st.e.large_rx++;
	if (len > VGSP_LARGE_MAX)
		len = 0;
	q->rep_have = len;
	if (len && skip && len < total)
		len = total;	/* zero-padded: covers the request */
	if (len) {
		if (len > VGSP_RPC_MAX)
			gsp->st.e.large_tx++;
		q->rep_len = len;
		q->rep_off = 0;
		q->rep_since_ns = vgsp_now_ns();
		send_pending(gsp);
		if (doorbell_ns)
			lat = vgsp_now_ns() - doorbell_ns;
	}
	vgsp_stats_rpc(gsp, &out, lat, len != 0);
}

/*
 * The first message of a large request in gsp->rx: keep it (only it when
 * the whole is over VGSP_LARGE_MAX). Returns false when the request cannot
 * be reassembled (it is then dispatched as received and the ABI refuses
 * it).
 */
static bool large_start(struct vgsp_gsp *gsp, u32 rpc_len, u32 total)
{
	struct vgsp_msgq *q = &gsp->q;

	if (rpc_len != VGSP_RPC_MAX || total > VGSP_LARGE_SKIP_MAX) {
		gsp->st.e.large_bad++;
		return false;
	}
	memcpy(gsp->big_req, gsp->rx + VGSP_ELEM_HDR, rpc_len);
	q->big_total = total;
	q->big_have = rpc_len;
	q->big_skip = total > VGSP_LARGE_MAX;
	if (q->big_skip)
		gsp->st.e.large_bad++;
	return true;
}

/*
 * A CONTINUATION_RECORD of @rpc_len bytes in gsp->rx: append its chunk.
 * Every chunk but the last is full; none may run past the total.
 * Returns true when the request is complete.
 */
static bool large_append(struct vgsp_gsp *gsp, u32 rpc_len)
{
	struct vgsp_msgq *q = &gsp->q;
	u32 hs = gsp->abi->rpc_hdr_size, n, left;

	if (!q->big_total) {
		gsp->st.e.cont_orphan++;
		gsp->st.e.msgs_dropped++;
		return false;
	}
	left = q->big_total - q->big_have;
	n = rpc_len - hs;
	if (rpc_len <= hs || n > left ||
	    (n < left && n != VGSP_RPC_MAX - hs)) {
		gsp->st.e.large_bad++;
		gsp->st.e.msgs_dropped++;
		large_drop(q);
		return false;
	}
	if (!q->big_skip)
		memcpy(gsp->big_req + q->big_have,
		       gsp->rx + VGSP_ELEM_HDR + hs, n);
	q->big_have += n;
	gsp->st.e.cont_rx++;
	gsp->st.e.msgs_rx++;
	return q->big_have == q->big_total;
}

/* What fast_one() did. */
enum vgsp_fast {
	VGSP_FAST_NO,		/* not the common case: the pass looks */
	VGSP_FAST_EMPTY,	/* nothing (more) queued */
	VGSP_FAST_MORE,		/* answered one, more are queued */
};

/*
 * A doorbell's common case in two accesses of guest memory: the queue
 * header with the command at our read pointer (the header's geometry is
 * the one validated last, so the command's slot is known before the
 * header is read), then the reply with the pointers that publish it.
 * It takes only a command vgsp_msgq_pass() would answer as it is: one
 * slot, not part of a large RPC, checksum and sequence right, room for
 * its reply. For anything else it consumes nothing and counts nothing
 * (it only notes the guest's pointers, as any header read does): the
 * pass reads the queue again and counts what is wrong, so bad input has
 * one path.
 */
static __always_inline enum vgsp_fast fast_one(struct vgsp_gsp *gsp,
					       u64 doorbell_ns)
{
	struct vgsp_msgq *q = &gsp->q;
	u32 rptr = q->cmd_rptr, count = q->cmd_count, wptr, cpu_rptr;
	u32 rpc_len, got, next;
	struct vgsp_shm_seg seg[2] VGSP_NOINIT;
	u8 h[VGSP_TXH_LEN + 4] VGSP_NOINIT;
	struct vgsp_rpc_info ri VGSP_NOINIT;

	if (vgsp_unlikely(!q->cmd_geo_ok || q->cmd_rx_off != VGSP_TXH_LEN ||
			  q->rep_len || q->big_total || rptr >= count))
		return VGSP_FAST_NO;
	seg[0].off = q->cmdq_off;
	seg[0].buf = h;
	seg[0].len = sizeof(h);
	seg[1].off = q->cmdq_off + q->cmd_entry_off +
		     (u64)rptr * VGSP_MSG_SLOT;
	seg[1].buf = gsp->rx;
	seg[1].len = VGSP_RX_FIRST;
	if (vgsp_unlikely(vgsp_shm_xfer_v(gsp, seg, 2, false) ||
			  !geo_same(q, h)))
		return VGSP_FAST_NO;
	wptr = vgsp_get32(h, VGSP_TXH_WRITE_PTR);
	if (vgsp_unlikely(wptr >= count))
		return VGSP_FAST_NO;
	cpu_rptr = vgsp_get32(h, VGSP_TXH_LEN);
	q->cpu_wptr = wptr;
	q->cpu_rptr = cpu_rptr;
	if (wptr == rptr)
		return VGSP_FAST_EMPTY;
	if (vgsp_unlikely(vgsp_get32(gsp->rx, VGSP_ELEM_COUNT) != 1 ||
			  vgsp_get32(gsp->rx, VGSP_ELEM_SEQ) != q->rx_seq))
		return VGSP_FAST_NO;
	vgsp_abi_rpc_info(gsp->abi, gsp->rx + VGSP_ELEM_HDR,
			  VGSP_RX_FIRST - VGSP_ELEM_HDR,
			  VGSP_MSG_SLOT - VGSP_ELEM_HDR, &ri);
	rpc_len = ri.length;
	if (vgsp_unlikely(rpc_len < VGSP_ELEM_MIN_RPC ||
			  rpc_len > VGSP_MSG_SLOT - VGSP_ELEM_HDR ||
			  ri.function == gsp->abi->cont_function ||
			  ri.total > rpc_len ||
			  stat_free(q, cpu_rptr) <
			  DIV_ROUND_UP_U32(VGSP_ELEM_HDR + ri.max_reply,
					   VGSP_MSG_SLOT)))
		return VGSP_FAST_NO;
	got = rx_span(rpc_len, ri.reach);
	if (got > VGSP_RX_FIRST &&
	    vgsp_shm_read(gsp, seg[1].off + VGSP_RX_FIRST,
			  gsp->rx + VGSP_RX_FIRST, got - VGSP_RX_FIRST))
		return VGSP_FAST_NO;
	if (vgsp_unlikely(checksum(gsp->rx, ROUND8(VGSP_ELEM_HDR + rpc_len))))
		return VGSP_FAST_NO;
	q->rx_seq++;
	next = wrap(rptr + 1, count);
	gsp->st.e.msgs_rx++;
	gsp->st.e.rpcs_inline++;
	gsp->st.e.rpcs_fast++;
	/* consumed with the reply's pointers, or on its own (no reply) */
	if (!dispatch(gsp, got, doorbell_ns, next) && consume(gsp, next))
		return VGSP_FAST_EMPTY;	/* guest memory failed, counted */
	return next == wptr ? VGSP_FAST_EMPTY : VGSP_FAST_MORE;
}

/*
 * @budget_ns: the fast path's (0: the worker's batch, any command).
 * The queue header is read once per pass: a command queued after that
 * read comes with its own doorbell, which runs another pass.
 */
bool vgsp_msgq_pass(struct vgsp_gsp *gsp, u64 doorbell_ns, u64 budget_ns,
		    u32 done)
{
	struct vgsp_msgq *q = &gsp->q;
	struct cmdq_view v;
	bool fresh = false, reread = true;
	bool fast = budget_ns != 0;
	u64 deadline_ns = 0;	/* the fast path's, at its second command */
	u32 budget;

	for (budget = done; budget < BATCH; budget++, fresh = false) {
		u32 avail, elems, rpc_len, need, next, fn, total, got;
		struct vgsp_rpc_info ri;

		/* The fast path leaves large replies to the worker. */
		if (fast && q->rep_len)
			return true;
		/* A large reply goes out whole before the next command. */
		if (q->rep_len && send_pending(gsp))
			return true;
		if (reread) {
			if (read_cmdq(gsp, &v))
				return false;
			fresh = true;
			reread = false;
		}
		if (q->cmd_rptr >= v.count) {
			/* The guest shrank its queue under us: resync. */
			gsp->st.e.cmdq_hdr_bad++;
			consume(gsp, v.wptr);
			return false;
		}
		avail = wrap(v.wptr + v.count - q->cmd_rptr, v.count);
		if (!avail)
			return false;
		if (budget) {
			vgsp_yield();
			/* and late work: no command is begun past the deadline */
			if (fast) {
				u64 now = vgsp_now_ns();

				if (!deadline_ns)
					deadline_ns = (doorbell_ns ? doorbell_ns :
						       now) + budget_ns;
				if (now >= deadline_ns)
					return true;
			}
		}
		if (gather(gsp, &v, q->cmd_rptr, 0, VGSP_RX_FIRST))
			return false;
		elems = vgsp_get32(gsp->rx, VGSP_ELEM_COUNT);
		if (!elems || elems > VGSP_MSG_MAX_ELEMS || elems > avail) {
			/* Cannot find the next message: drop what is queued. */
			gsp->st.e.elem_count_bad++;
			gsp->st.e.msgs_dropped++;
			consume(gsp, v.wptr);
			continue;
		}
		if (fast && elems > 1)
			return true;	/* not small: the worker's */
		next = wrap(q->cmd_rptr + elems, v.count);
		vgsp_abi_rpc_info(gsp->abi, gsp->rx + VGSP_ELEM_HDR,
				  VGSP_RX_FIRST - VGSP_ELEM_HDR,
				  elems * VGSP_MSG_SLOT - VGSP_ELEM_HDR, &ri);
		rpc_len = ri.length;
		if (rpc_len < VGSP_ELEM_MIN_RPC ||
		    rpc_len > elems * VGSP_MSG_SLOT - VGSP_ELEM_HDR) {
			gsp->st.e.length_bad++;
			gsp->st.e.msgs_dropped++;
			consume(gsp, next);
			continue;
		}
		/* One slot: only what the RPC spans; more: every slot. */
		got = elems == 1 ? rx_span(rpc_len, ri.reach) :
			elems * VGSP_MSG_SLOT;
		if (got > VGSP_RX_FIRST &&
		    gather(gsp, &v, q->cmd_rptr, VGSP_RX_FIRST, got))
			return false;
		if (checksum(gsp->rx, ROUND8(VGSP_ELEM_HDR + rpc_len))) {
			gsp->st.e.checksum_bad++;
			gsp->st.e.msgs_dropped++;
			consume(gsp, next);
			continue;
		}
		if (vgsp_get32(gsp->rx, VGSP_ELEM_SEQ) != q->rx_seq) {
			gsp->st.e.seq_bad++;
			/* A record went missing: the request is incomplete. */
			if (q->big_total) {
				gsp->st.e.large_abandoned++;
				large_drop(q);
			}
		}
		q->rx_seq = vgsp_get32(gsp->rx, VGSP_ELEM_SEQ) + 1;

		fn = ri.function;
		if (fn == gsp->abi->cont_function) {
			if (large_append(gsp, rpc_len))
				dispatch_large(gsp, doorbell_ns);
			if (consume(gsp, next))
				return false;
			continue;
		}
		if (q->big_total) {
			/* Another RPC before the last record: give up. */
			gsp->st.e.large_abandoned++;
			large_drop(q);
		}
		total = ri.total;
		if (total > rpc_len && large_start(gsp, rpc_len, total)) {
			gsp->st.e.msgs_rx++;
			if (consume(gsp, next))
				return false;
			continue;
		}

		/* Leave the command queued until its reply fits. */
		need = DIV_ROUND_UP_U32(VGSP_ELEM_HDR + ri.max_reply,
					VGSP_MSG_SLOT);
		if (stat_free(q, v.cpu_rptr) < need) {
			q->rx_seq--;
			if (!fresh) {
				/* The guest may have drained since: look again. */
				reread = true;
				continue;
			}
			gsp->st.e.statq_full++;
			return false;
		}
		gsp->st.e.msgs_rx++;
		if (fast)
			gsp->st.e.rpcs_inline++;
		/*
		 * Consumed once answered, with the reply's write pointer
		 * (publish_seg()); on its own when there is no reply.
		 */
		if (!dispatch(gsp, got, doorbell_ns, next) &&
		    consume(gsp, next))
			return false;
	}
	return true;
}

/*
 * PGSP_QUEUE_HEAD(i) written (lock held); queue 0 is the RM task's, the
 * command queue's doorbell, and the value written carries no meaning.
 * The fast path answers the small RPCs queued now, within the budget
 * (gsp.h): the common case (fast_one), then the pass (one-record commands,
 * no large reply, nothing begun @budget after the doorbell); whatever is
 * left wakes the worker. A wakeup costs a scheduling delay (a timer tick
 * under TCG: issue #13). The register hook itself, so that the trap makes
 * no call between it and the common case.
 */
VGSP_HOT void vgsp_gsp_queue_head_write(struct vgsp_dev *dev,
					const struct vgsp_reg *reg,
					unsigned int idx, u32 old, u32 val)
{
	struct vgsp_gsp *gsp = dev->gsp;
	u32 us = __atomic_load_n(&vgsp_rpc_inline_us, __ATOMIC_RELAXED);
	enum vgsp_fast f;
	u64 now = 0;

	if (idx || !gsp)
		return;
	vgsp_trace_doorbell(dev, VGSP_TRACE_DB_GSP, 0);
	gsp->st.e.doorbells++;
	if (gsp->boot != VGSP_BOOT_RUNNING) {
		/* Pre-start RPCs wait in the queue until the boot. */
		gsp->st.e.doorbells_early++;
		return;
	}
	if (us > VGSP_RPC_INLINE_US_MAX)
		us = VGSP_RPC_INLINE_US_MAX;
	if (!us || !(gsp->lat_tick++ % VGSP_LAT_SAMPLE))
		now = vgsp_now_ns();
	if (us) {
		f = fast_one(gsp, now);
		if ((f == VGSP_FAST_EMPTY ||
		     !vgsp_msgq_pass(gsp, now, us * 1000ULL,
				     f == VGSP_FAST_MORE ? 1 : 0)) &&
		    !gsp->doorbell_pending)
			return;
	}
	if (!gsp->doorbell_pending)
		gsp->doorbell_ns = now ? now : vgsp_now_ns();
	gsp->doorbell_pending = true;
	vgsp_os->worker_wake(gsp->worker);
}
