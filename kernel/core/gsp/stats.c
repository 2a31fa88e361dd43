// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * RPC statistics of one instance: per-function request/ok/error counts,
 * a log2 latency histogram (doorbell to reply visible), the control
 * command histogram (the worklist for the real driver) and a ring of the
 * last RPCs. Only numbers are kept, never guest data.
 */
#include "gsp_priv.h"

const char *const vgsp_gsp_err_names[] = {
#define VGSP_GSP_ERR_NAME(n) #n,
	VGSP_GSP_ERR_LIST(VGSP_GSP_ERR_NAME)
#undef VGSP_GSP_ERR_NAME
};
const unsigned int vgsp_gsp_nerrs = VGSP_ARRAY_SIZE(vgsp_gsp_err_names);

/* floor(log2(ns)), capped: one instruction, not a loop per bit. */
static unsigned int log2_bucket(u64 ns)
{
	unsigned int b = ns > 1 ? 63 - (unsigned int)__builtin_clzll(ns) : 0;

	return b < VGSP_LAT_BUCKETS - 1 ? b : VGSP_LAT_BUCKETS - 1;
}

void vgsp_stats_rpc(struct vgsp_gsp *gsp, const struct vgsp_rpc_outcome *o,
		    u64 latency_ns, bool replied)
{
	struct vgsp_gsp_stats *st = &gsp->st;
	struct vgsp_fn_stat *f = o->function < VGSP_FN_TRACK ?
				 &st->fn[o->function] : &st->fn_other;
	struct vgsp_rpc_log_entry *l = &st->log[st->log_seq % VGSP_RPC_LOG];

	f->req++;
	if (o->error)
		f->err++;
	else
		f->ok++;
	if (replied && latency_ns) {
		st->lat_hist[log2_bucket(latency_ns)]++;
		st->lat_count++;
		st->lat_total_ns += latency_ns;
		if (latency_ns > st->lat_max_ns)
			st->lat_max_ns = latency_ns;
	}
	l->seq = st->log_seq++;
	l->function = o->function;
	l->cmd = o->cmd;
	l->status = o->status;
	l->flags = (o->has_cmd ? 1 : 0) | (o->error ? 2 : 0) |
		   (replied ? 0 : 4);
	l->latency_ns = latency_ns;
}

bool vgsp_stats_ctrl(struct vgsp_gsp *gsp, u32 cmd, u32 size, u32 status,
		     bool supported)
{
	struct vgsp_gsp_stats *st = &gsp->st;
	struct vgsp_ctrl_stat *c = NULL;
	unsigned int b = vgsp_hash32(cmd, VGSP_CTRL_HASH_BITS), n;
	bool first;

	/* at most VGSP_CTRL_TRACK of the buckets are taken: probes end */
	for (n = 0; n < VGSP_CTRL_HASH && st->ctrl_idx[b]; n++) {
		if (st->ctrl[st->ctrl_idx[b] - 1].cmd == cmd) {
			c = &st->ctrl[st->ctrl_idx[b] - 1];
			break;
		}
		b = (b + 1) % VGSP_CTRL_HASH;
	}
	if (!c) {
		if (st->nctrl == VGSP_CTRL_TRACK || st->ctrl_idx[b]) {
			st->ctrl_untracked++;
			return false;
		}
		c = &st->ctrl[st->nctrl++];
		c->cmd = cmd;
		st->ctrl_idx[b] = (u8)st->nctrl;
	}
	c->count++;
	c->last_status = status;
	c->last_size = size;
	if (supported)
		return false;
	first = c->unsupported == 0;
	c->unsupported++;
	gsp->st.e.unknown_controls++;
	return first;
}
