// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The "channels" view: fifo counters, then one block per channel. */
#include "fifo.h"
#include "../view.h"

static const char * const fifo_names[] = {
#define VGSP_FIFO_NAME(n) #n,
	VGSP_FIFO_ERR_LIST(VGSP_FIFO_NAME)
#undef VGSP_FIFO_NAME
};

static const char * const state_names[] = {
	"idle", "running", "blocked", "error",
};

void vgsp_fifo_show_channels(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_fifo *f = vgsp_zalloc(sizeof(*f));
	const u64 *c = (const u64 *)&f->st;
	unsigned int i;

	if (!f)
		return;
	vgsp_os->lock(dev->fifo->lock);
	*f = *dev->fifo;
	vgsp_os->unlock(dev->fifo->lock);
	p->print(p, "backend %s\n", dev->backend->name);
	for (i = 0; i < VGSP_ARRAY_SIZE(fifo_names); i++)
		p->print(p, "%s %llu\n", fifo_names[i], (unsigned long long)c[i]);
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		const struct vgsp_chan *ch = &f->chan[i];
		const struct vgsp_chan_stats *s = &ch->st;

		if (!ch->used)
			continue;
		p->print(p, "channel chid %u runlist %u token 0x%x engine 0x%x state %s error %u method 0x%x class 0x%x\n",
			 ch->d.chid, ch->d.runlist, vgsp_chan_token(ch), ch->d.engine_type,
			 state_names[ch->state], ch->error_code,
			 ch->error_mthd, ch->error_class);
		p->print(p, "  gpfifo 0x%llx entries %u gp_get %u vm %s 0x%llx\n",
			 (unsigned long long)ch->d.gpfifo_va, ch->d.gpfifo_entries,
			 ch->gp_get, ch->vm_ok ? "ok" : "unknown",
			 (unsigned long long)ch->vm.pdb);
		p->print(p, "  doorbells %llu entries %llu segments %llu methods %llu host %llu\n",
			 (unsigned long long)s->doorbells,
			 (unsigned long long)s->entries,
			 (unsigned long long)s->segments,
			 (unsigned long long)s->methods,
			 (unsigned long long)s->host_methods);
		p->print(p, "  ce_launches %llu ce_bytes %llu sem_releases %llu sem_acquires %llu acquire_waits %llu\n",
			 (unsigned long long)s->ce_launches,
			 (unsigned long long)s->ce_bytes,
			 (unsigned long long)s->sem_releases,
			 (unsigned long long)s->sem_acquires,
			 (unsigned long long)s->acquire_waits);
		p->print(p, "  nonstall %llu gr_traps %llu tlb_invalidates %llu gr_launches %llu errors %llu latency_ns last %llu max %llu\n",
			 (unsigned long long)s->nonstall_intrs,
			 (unsigned long long)s->gr_traps,
			 (unsigned long long)s->tlb_invalidates,
			 (unsigned long long)s->gr_launches,
			 (unsigned long long)s->errors,
			 (unsigned long long)s->last_latency_ns,
			 (unsigned long long)s->max_latency_ns);
	}
	vgsp_free(f);
}
