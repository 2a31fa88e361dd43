// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Read-only views of the emulated GSP (one debugfs file each in vgsp.ko).
 * Each view copies what it shows under the device lock and prints without
 * it, so a slow reader never stalls the dispatch worker.
 */
#include "gsp_priv.h"

static const char *const boot_names[] = {
	[VGSP_BOOT_OFF] = "off",
	[VGSP_BOOT_STARTING] = "starting",
	[VGSP_BOOT_RUNNING] = "running",
	[VGSP_BOOT_FAILED] = "failed",
};

/* A consistent copy of the whole GSP state, or NULL. */
static struct vgsp_gsp *snapshot(struct vgsp_dev *dev)
{
	struct vgsp_gsp *s;

	if (!dev->gsp)
		return NULL;
	s = vgsp_zalloc(sizeof(*s));
	if (!s)
		return NULL;
	vgsp_dev_lock(dev);
	*s = *dev->gsp;
	vgsp_dev_unlock(dev);
	/* pointers in the copy are not to be followed */
	s->rx = NULL;
	s->tx = NULL;
	s->objs.o = NULL;
	return s;
}

static void show_state(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_gsp *s = snapshot(dev);
	const u64 *e;
	unsigned int i;

	if (!s)
		return;
	p->print(p, "abi %s\n", s->abi->name);
	p->print(p, "boot %s\n", boot_names[s->boot]);
	p->print(p, "guest_version %s\n",
		 s->guest_version[0] ? s->guest_version : "-");
	p->print(p, "version_ok %d\n", s->version_ok);
	p->print(p, "refused %d\n", s->refused);
	p->print(p, "objects %u\n", s->objs.used);
	p->print(p, "object_allocs %llu\n", (unsigned long long)s->objs.allocs);
	p->print(p, "object_frees %llu\n", (unsigned long long)s->objs.frees);
	p->print(p, "object_refused %llu\n",
		 (unsigned long long)s->objs.refused);
	p->print(p, "fsp_last_nvdm 0x%x\n", s->fsp.last_nvdm);
	p->print(p, "fsp_last_error 0x%x\n", s->fsp.last_error);
	e = (const u64 *)&s->st.e;
	for (i = 0; i < vgsp_gsp_nerrs; i++)
		p->print(p, "%s %llu\n", vgsp_gsp_err_names[i],
			 (unsigned long long)e[i]);
	vgsp_free(s);
}

static void show_rpc(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_gsp *s = snapshot(dev);
	unsigned int i;

	if (!s)
		return;
	p->print(p, "function name req ok err\n");
	for (i = 0; i < VGSP_FN_TRACK; i++) {
		const struct vgsp_fn_stat *f = &s->st.fn[i];

		if (!f->req)
			continue;
		p->print(p, "%u %s %llu %llu %llu\n", i, s->abi->fn_name(i),
			 (unsigned long long)f->req, (unsigned long long)f->ok,
			 (unsigned long long)f->err);
	}
	if (s->st.fn_other.req)
		p->print(p, "other - %llu %llu %llu\n",
			 (unsigned long long)s->st.fn_other.req,
			 (unsigned long long)s->st.fn_other.ok,
			 (unsigned long long)s->st.fn_other.err);
	vgsp_free(s);
}

static void show_latency(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_gsp *s = snapshot(dev);
	unsigned int i;

	if (!s)
		return;
	p->print(p, "count %llu\n", (unsigned long long)s->st.lat_count);
	p->print(p, "total_ns %llu\n", (unsigned long long)s->st.lat_total_ns);
	p->print(p, "max_ns %llu\n", (unsigned long long)s->st.lat_max_ns);
	for (i = 0; i < VGSP_LAT_BUCKETS; i++)
		if (s->st.lat_hist[i])
			p->print(p, "le_2^%u_ns %llu\n", i + 1,
				 (unsigned long long)s->st.lat_hist[i]);
	vgsp_free(s);
}

static void show_controls(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_gsp *s = snapshot(dev);
	unsigned int i;

	if (!s)
		return;
	p->print(p, "cmd name count unsupported last_status last_size\n");
	for (i = 0; i < s->st.nctrl; i++) {
		const struct vgsp_ctrl_stat *c = &s->st.ctrl[i];

		p->print(p, "0x%08x %s %llu %llu 0x%x 0x%x\n", c->cmd,
			 s->abi->ctrl_name(c->cmd),
			 (unsigned long long)c->count,
			 (unsigned long long)c->unsupported, c->last_status,
			 c->last_size);
	}
	p->print(p, "untracked %llu\n", (unsigned long long)s->st.ctrl_untracked);
	vgsp_free(s);
}

static void show_queue(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_gsp *s = snapshot(dev);
	const struct vgsp_msgq *q;

	if (!s)
		return;
	q = &s->q;
	p->print(p, "linked %d\n", q->npages != 0);
	p->print(p, "shm_pages %u\n", q->npages);
	p->print(p, "cmdq_offset 0x%x\n", q->cmdq_off);
	p->print(p, "cmdq_size 0x%x\n", q->cmdq_size);
	p->print(p, "cmdq_msg_count %u\n", q->cmd_count);
	p->print(p, "cmdq_guest_write_ptr %u\n", q->cpu_wptr);
	p->print(p, "cmdq_read_ptr %u\n", q->cmd_rptr);
	p->print(p, "cmdq_next_seq %u\n", q->rx_seq);
	p->print(p, "statq_offset 0x%x\n", q->statq_off);
	p->print(p, "statq_size 0x%x\n", q->statq_size);
	p->print(p, "statq_msg_count %u\n", q->stat_count);
	p->print(p, "statq_write_ptr %u\n", q->stat_wptr);
	p->print(p, "statq_guest_read_ptr %u\n", q->cpu_rptr);
	p->print(p, "statq_next_seq %u\n", q->tx_seq);
	vgsp_free(s);
}

static void show_rpc_log(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_gsp *s = snapshot(dev);
	u64 first, i;

	if (!s)
		return;
	p->print(p, "seq function name cmd status latency_ns flags\n");
	first = s->st.log_seq > VGSP_RPC_LOG ? s->st.log_seq - VGSP_RPC_LOG : 0;
	for (i = first; i < s->st.log_seq; i++) {
		const struct vgsp_rpc_log_entry *l = &s->st.log[i % VGSP_RPC_LOG];

		p->print(p, "%llu %u %s 0x%08x 0x%x %llu %s%s%s\n",
			 (unsigned long long)l->seq, l->function,
			 s->abi->fn_name(l->function), l->cmd, l->status,
			 (unsigned long long)l->latency_ns,
			 (l->flags & 1) ? "c" : "-", (l->flags & 2) ? "e" : "-",
			 (l->flags & 4) ? "n" : "-");
	}
	vgsp_free(s);
}

const struct vgsp_view vgsp_gsp_views[] = {
	{ "gsp_state", show_state },
	{ "gsp_rpc", show_rpc },
	{ "gsp_latency", show_latency },
	{ "gsp_controls", show_controls },
	{ "gsp_queue", show_queue },
	{ "rpc_log", show_rpc_log },
};
const unsigned int vgsp_gsp_nviews = VGSP_ARRAY_SIZE(vgsp_gsp_views);
