// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The hostd backend of vgsp-vfu (see backend_hostd.h).
 *
 * Locking: gr_launch runs on the core's fifo worker (fifo lock held),
 * chan_gone under the device and fifo locks, the DMA hooks on the socket
 * thread with no core lock. h->mu serialises every RM call and the tables
 * here; it is taken after the core's locks and before the DMA lock (the
 * resync reads guest page tables in guest RAM), never the other way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "device.h"
#include "backend.h"
#include "mm/mm.h"
#include "fifo/fifo.h"
#include "engine/engine.h"
#include "hostd_fwd.h"
#include "backend_hostd.h"
#include "backend_hostd_priv.h"
#include "pt_mirror.h"

uint64_t vfu_hostd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static struct fwd *fwd_find(struct vfu_hostd *h, const struct vgsp_chan *ch)
{
	unsigned int i;

	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++)
		if (h->fwd[i].used && h->fwd[i].ch == ch &&
		    h->fwd[i].client == ch->d.client &&
		    h->fwd[i].handle == ch->d.handle)
			return &h->fwd[i];
	return NULL;
}

/* The live host group of @ch's guest group in @m, opened if none. */
static struct fwd_group *group_get(struct vfu_hostd *h,
				   const struct vgsp_chan *ch,
				   struct mirror *m)
{
	struct fwd_group *free_g = NULL;
	unsigned int i;

	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		struct fwd_group *g = &h->grp[i];

		if (g->used && !g->g.dead && g->m == m &&
		    g->client == ch->d.client && g->parent == ch->d.parent)
			return g;
		if (!g->used && !free_g)
			free_g = g;
	}
	if (!free_g || hd_fwd_group_open(&h->d, &m->v, &free_g->g))
		return NULL;
	free_g->used = true;
	free_g->m = m;
	free_g->client = ch->d.client;
	free_g->parent = ch->d.parent;
	h->group_opens++;
	return free_g;
}

/* A group goes with its last channel (before its mirror's VA space). */
static void group_put(struct vfu_hostd *h, struct fwd_group *g)
{
	if (g->g.chans)
		return;
	h->group_chan_schedules += g->g.chan_schedules;
	hd_fwd_group_close(&h->d, &g->g);
	memset(g, 0, sizeof(*g));
}

static void fwd_close(struct vfu_hostd *h, struct fwd *f)
{
	hd_fwd_chan_close(&h->d, &f->c);
	if (f->grp)
		group_put(h, f->grp);
	vfu_hostd_mirror_put(h, f->m);
	memset(f, 0, sizeof(*f));
}

/*
 * @ch's host channel in its guest group's host group, or (should RM
 * refuse the group or the channel in it) in a group of its own. 0 or -1.
 */
static int fwd_open(struct vfu_hostd *h, const struct vgsp_chan *ch,
		    struct mirror *m, struct fwd *f)
{
	struct fwd_group *g = group_get(h, ch, m);

	if (g) {
		if (!hd_fwd_chan_open_in(&h->d, &m->v, &g->g, &f->c)) {
			f->grp = g;
			return 0;
		}
		group_put(h, g);
	}
	h->group_fallbacks++;
	return hd_fwd_chan_open(&h->d, &m->v, &f->c) ? -1 : 0;
}

/*
 * The host channel of @ch, (re)opened in @m when it has none, died, or
 * is in a group RM stopped because another of its channels died (its
 * work would never run there).
 */
static struct fwd *fwd_get(struct vfu_hostd *h, const struct vgsp_chan *ch,
			   struct mirror *m)
{
	struct fwd *f = fwd_find(h, ch);
	unsigned int i;

	if (f && (f->c.dead || (f->grp && f->grp->g.dead)))
		fwd_close(h, f), f = NULL;
	if (f)
		return f;
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS && h->fwd[i].used; i++)
		;
	if (i == VGSP_FIFO_MAX_CHANNELS)
		return NULL;
	f = &h->fwd[i];
	memset(f, 0, sizeof(*f));
	if (fwd_open(h, ch, m, f))
		return NULL;
	f->used = true;
	f->ch = ch;
	f->client = ch->d.client;
	f->handle = ch->d.handle;
	f->m = m;
	m->users++;
	h->chan_opens++;
	vfu_hostd_boost_once(h);
	return f;
}

void vfu_hostd_boost_once(struct vfu_hostd *h)
{
	if (h->boost)
		return;
	h->boost = hd_perf_boost(&h->d) ? -1 : 1;
	if (h->boost < 0)
		fprintf(stderr, "vgsp-vfu: hostd: the GPU refused the CUDA perf boost (RM status 0x%x): guest work runs at whatever clock the GPU picks\n",
			h->d.last_status);
}

static int hostd_gr_launch(struct vgsp_dev *dev, struct vgsp_chan *ch,
			   u64 qmd_va)
{
	struct vfu_hostd *h = dev->backend_priv;
	uint64_t gen = vgsp_load64(&dev->mm->pt_gen), t0 = vfu_hostd_now_ns(), dt;
	const struct hd_mthd *m;
	struct mirror *mir;
	struct fwd *f;
	uint32_t rc = 0;
	u64 seq;
	size_t n;
	int ret;

	if (!ch->vm_ok)
		return -EFAULT;
	pthread_mutex_lock(&h->mu);
	h->launches++;
	f = fwd_find(h, ch);
	mir = f ? f->m : vfu_hostd_mirror_get(h, &ch->vm);
	ret = -EIO;
	if (!mir)
		goto out;
	ret = vfu_hostd_mirror_current(h, dev, mir, gen);
	if (ret)
		goto out;
	ret = -EIO;
	f = fwd_get(h, ch, mir);
	if (!f) {
		vfu_hostd_mirror_drop_unused(h, mir);	/* made for this launch only */
		goto out;
	}
	seq = dev->fifo->gr_seq;
	m = vfu_hostd_replay_list(h, dev, ch, f->sent_seq, &n);
	if (!m)
		goto out;
	/*
	 * A CUDA event recorded just before this launch is stamped now, as
	 * the GPU would stamp it, not before the resync and replay above.
	 */
	if (vgsp_sem_flush(dev, ch) != VGSP_ENG_OK) {
		ret = -EFAULT;
		goto out;
	}
	ret = hd_fwd_launch(&h->d, &f->c, m, n, qmd_va, LAUNCH_TIMEOUT_NS,
			    &rc);
	/* the host channel's doorbell and fence, for the latency figures */
	ch->op_t.sub_ns = f->c.t_submit_ns;
	ch->op_t.done_ns = f->c.t_done_ns;
	if (!ret) {
		f->sent_seq = seq;
	} else if (ret == -EFAULT) {
		h->faults++;
		h->last_rc = rc;
	} else if (ret == -ETIMEDOUT) {
		h->timeouts++;
	}
out:
	if (ret)
		h->launch_errors++;
	dt = vfu_hostd_now_ns() - t0;
	h->last_launch_ns = dt;
	if (dt > h->max_launch_ns)
		h->max_launch_ns = dt;
	pthread_mutex_unlock(&h->mu);
	if (ret && ret != -EFAULT)
		vgsp_dev_log(dev, VGSP_LOG_WARN, "vgsp: %s: channel %u: launch of QMD 0x%llx on the GPU failed (%d, RM stage %s status 0x%x)\n",
			     dev->name, ch->d.chid, (unsigned long long)qmd_va,
			     ret, h->d.stage ? h->d.stage : "-",
			     h->d.last_status);
	return ret;
}

static void hostd_chan_gone(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	struct vfu_hostd *h = dev->backend_priv;
	struct vgsp_fifo *fifo = dev->fifo;
	struct mirror *m;
	unsigned int c;
	struct fwd *f;

	pthread_mutex_lock(&h->mu);
	f = fwd_find(h, ch);
	if (f)
		fwd_close(h, f);
	/* the last channel of a VA space takes its copy channel along */
	m = vfu_hostd_mirror_find(h, &ch->vm);
	for (c = 0; m && c < VGSP_FIFO_MAX_CHANNELS; c++) {
		const struct vgsp_chan *y = &fifo->chan[c];

		if (y != ch && y->used && y->vm_ok &&
		    y->vm.pdb == m->vm.pdb && y->vm.target == m->vm.target)
			m = NULL;
	}
	if (m)
		vfu_hostd_ce_close(h, m);
	pthread_mutex_unlock(&h->mu);
}

static struct vgsp_backend_ops hostd_ops = {
	.name = "hostd",
	.ce_xfer = vfu_hostd_ce_xfer,
	.gr_launch = hostd_gr_launch,
	.gr_state = true,
	.stamps_at_submit = true,
	.chan_gone = hostd_chan_gone,
};

/* ---- windows --------------------------------------------------------- */

int vfu_hostd_dma_added(void *arg, uint64_t iova, uint64_t size, void *base)
{
	struct vfu_hostd *h = arg;
	struct win *w;
	int ret = 0;

	if (!base)
		return 0;		/* no fd: the core cannot reach it either */
	pthread_mutex_lock(&h->mu);
	if (h->nwin == MAX_WINDOWS) {
		ret = -ENOSPC;
	} else {
		w = &h->win[h->nwin];
		memset(w, 0, sizeof(*w));
		if (hd_backing_register(&h->d, base, size, &w->b)) {
			ret = -EIO;
		} else {
			w->iova = iova;
			w->size = size;
			h->nwin++;
			vfu_hostd_phys_stale(h);
		}
	}
	if (ret)
		h->windows_refused++;
	pthread_mutex_unlock(&h->mu);
	if (ret)
		fprintf(stderr, "vgsp-vfu: hostd: guest memory iova 0x%llx size 0x%llx cannot be given to the GPU (%d, RM status 0x%x): refused\n",
			(unsigned long long)iova, (unsigned long long)size, ret,
			h->d.last_status);
	return ret;
}

void vfu_hostd_dma_removed(void *arg, uint64_t iova, uint64_t size)
{
	struct vfu_hostd *h = arg;
	unsigned int i, j;

	pthread_mutex_lock(&h->mu);
	for (i = 0; i < h->nwin; i++) {
		struct hd_backing gone;

		if (h->win[i].iova != iova || h->win[i].size != size)
			continue;
		gone = h->win[i].b;
		h->win[i] = h->win[--h->nwin];
		/* the physical space stops mapping it before it is freed */
		vfu_hostd_phys_window_gone(h);
		hd_backing_unregister(&h->d, &gone);
		/* mirrors named it: map again from the guest's tables */
		for (j = 0; j < MAX_VAS; j++)
			h->mir[j].synced = false;
		break;
	}
	pthread_mutex_unlock(&h->mu);
}

/* ---- life ------------------------------------------------------------ */

/* The FB store in host memory, registered with RM (the GPU reads and
 * writes it over PCIe). */
static int fb_in_sysmem(struct vfu_hostd *h, const struct vgsp_profile *prof)
{
	h->fb = mmap(NULL, prof->fb_size, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (h->fb == MAP_FAILED) {
		perror("vgsp-vfu: hostd: FB store");
		return -1;
	}
	if (hd_backing_register(&h->d, h->fb, prof->fb_size, &h->fb_b)) {
		fprintf(stderr, "vgsp-vfu: hostd: the FB store (%llu MiB) cannot be registered with the GPU: RM status 0x%x\n",
			(unsigned long long)(prof->fb_size >> 20),
			h->d.last_status);
		munmap(h->fb, prof->fb_size);
		return -1;
	}
	return 0;
}

/* The FB store as a partition of the GPU's memory, which the core reaches
 * through the GPU's BAR1 (uncached). */
static int fb_in_vidmem(struct vfu_hostd *h, const struct vgsp_profile *prof)
{
	if (hd_backing_vidmem(&h->d, prof->fb_size, &h->fb_b)) {
		fprintf(stderr, "vgsp-vfu: hostd: no FB partition of %llu MiB in the GPU's memory (stage '%s', RM status 0x%x)\n",
			(unsigned long long)(prof->fb_size >> 20),
			h->d.stage ? h->d.stage : "-", h->d.last_status);
		return -1;
	}
	h->fb = h->fb_b.cpu;
	return 0;
}

struct vfu_hostd *vfu_hostd_open(const struct vgsp_profile *prof,
				 FILE *rm_log, bool fb_vidmem)
{
	struct vfu_hostd *h = calloc(1, sizeof(*h));
	uint64_t t0 = vfu_hostd_now_ns();

	if (!h)
		return NULL;
	pthread_mutex_init(&h->mu, NULL);
	h->ce_index = -1;
	h->prof = prof;
	h->log = rm_log;
	if (hd_open_base(&h->d, rm_log)) {
		fprintf(stderr, "vgsp-vfu: hostd: the GPU cannot be used: stage '%s', RM status 0x%x, driver '%s'\n",
			h->d.stage ? h->d.stage : "open",
			h->d.last_status, hd_driver_version(&h->d));
		free(h);
		return NULL;
	}
	if (fb_vidmem ? fb_in_vidmem(h, prof) : fb_in_sysmem(h, prof)) {
		hd_close(&h->d);
		free(h);
		return NULL;
	}
	fprintf(stderr, "vgsp-vfu: hostd: driver %s, FB store %llu MiB in %s, ready in %llu ms\n",
		hd_driver_version(&h->d),
		(unsigned long long)(prof->fb_size >> 20),
		fb_vidmem ? "the GPU's memory (BAR1)" : "host memory (registered)",
		(unsigned long long)((vfu_hostd_now_ns() - t0) / 1000000));
	return h;
}

void vfu_hostd_dev_opts(struct vfu_hostd *h, struct vgsp_dev_opts *o)
{
	o->backend = &hostd_ops;
	o->backend_priv = h;
	o->fb_flat = h->fb;
	if (h->fb_b.vid)
		o->fb_cache_pages = VFU_HOSTD_FB_CACHE_PAGES;
}

void vfu_hostd_show(void *arg, FILE *f)
{
	struct vfu_hostd *h = arg;
	unsigned int i, nm = 0, nf = 0, ng = 0, nshared = 0;
	uint64_t chan_sched = h->group_chan_schedules;
	uint64_t lmaps = h->gone_large_maps, lfalls = h->gone_large_fallbacks;

	pthread_mutex_lock(&h->mu);
	for (i = 0; i < MAX_VAS; i++) {
		nm += h->mir[i].used;
		lmaps += h->mir[i].v.large_maps;
		lfalls += h->mir[i].v.large_fallbacks;
	}
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++) {
		nf += h->fwd[i].used;
		nshared += h->fwd[i].used && h->fwd[i].grp;
		ng += h->grp[i].used;
		chan_sched += h->grp[i].g.chan_schedules;
	}
	fprintf(f, "driver %s fb_store_mib %llu fb_in %s windows %u windows_refused %llu\n",
		hd_driver_version(&h->d),
		(unsigned long long)(h->fb_b.size >> 20),
		h->fb_b.vid ? "vidmem" : "sysmem", h->nwin,
		(unsigned long long)h->windows_refused);
	fprintf(f, "launches %llu launch_errors %llu faults %llu timeouts %llu last_rc %u chan_opens %llu channels %u mirrors %u\n",
		(unsigned long long)h->launches,
		(unsigned long long)h->launch_errors,
		(unsigned long long)h->faults,
		(unsigned long long)h->timeouts, h->last_rc,
		(unsigned long long)h->chan_opens, nf, nm);
	/* channels_in_groups < channels: some run in a group of their own */
	fprintf(f, "groups %u group_opens %llu group_fallbacks %llu channels_in_groups %u channel_schedules %llu\n",
		ng, (unsigned long long)h->group_opens,
		(unsigned long long)h->group_fallbacks, nshared,
		(unsigned long long)chan_sched);
	/* mirror runs of the FB partition mapped with 2 MiB / 64 KiB PTEs
	 * (--fb vidmem), all mirrors so far; fallbacks took 4 KiB */
	fprintf(f, "large_maps %llu large_fallbacks %llu\n",
		(unsigned long long)lmaps, (unsigned long long)lfalls);
	fprintf(f, "resyncs %llu resync_errors %llu unbacked_leaves %llu launch_us last %llu max %llu resync_us last %llu max %llu\n",
		(unsigned long long)h->resyncs,
		(unsigned long long)h->resync_errors,
		(unsigned long long)h->unbacked,
		(unsigned long long)(h->last_launch_ns / 1000),
		(unsigned long long)(h->max_launch_ns / 1000),
		(unsigned long long)(h->last_resync_ns / 1000),
		(unsigned long long)(h->max_resync_ns / 1000));
	fprintf(f, "resync_full %llu resync_partial %llu resync_none %llu resync_tables %llu last_resync_tables %llu\n",
		(unsigned long long)h->resync_full,
		(unsigned long long)h->resync_partial,
		(unsigned long long)h->resync_none,
		(unsigned long long)h->resync_tables,
		(unsigned long long)h->last_resync_tables);
	fprintf(f, "perf_boost %s\n", h->boost > 0 ? "asked" :
		h->boost < 0 ? "refused" : "not_yet");
	vfu_hostd_ce_show(h, f);
	for (i = 0; i < MAX_VAS; i++) {
		struct mirror *m = &h->mir[i];

		if (!m->used)
			continue;
		fprintf(f, "  mirror pdb 0x%llx users %u runs %zu maps %llu unmaps %llu map_errors %llu skipped %llu syncs %llu large_maps %llu large_fallbacks %llu\n",
			(unsigned long long)m->vm.pdb, m->users, m->v.nruns,
			(unsigned long long)m->v.maps,
			(unsigned long long)m->v.unmaps,
			(unsigned long long)m->v.map_errors,
			(unsigned long long)m->v.skipped,
			(unsigned long long)m->v.syncs,
			(unsigned long long)m->v.large_maps,
			(unsigned long long)m->v.large_fallbacks);
	}
	pthread_mutex_unlock(&h->mu);
}

void vfu_hostd_close(struct vfu_hostd *h)
{
	unsigned int i;

	if (!h)
		return;
	for (i = 0; i < VGSP_FIFO_MAX_CHANNELS; i++)
		if (h->fwd[i].used)
			fwd_close(h, &h->fwd[i]);
	for (i = 0; i < MAX_VAS; i++)
		if (h->mir[i].used)
			vfu_hostd_ce_close(h, &h->mir[i]);
	vfu_hostd_phys_close(h);
	for (i = 0; i < MAX_VAS; i++) {
		if (h->mir[i].used)
			hd_vas_destroy(&h->d, &h->mir[i].v);
		ptm_free(&h->mir[i].pm);
	}
	for (i = 0; i < h->nwin; i++)
		hd_backing_unregister(&h->d, &h->win[i].b);
	if (h->fb_b.vid) {
		hd_backing_unregister(&h->d, &h->fb_b);	/* unmaps it too */
	} else {
		hd_backing_unregister(&h->d, &h->fb_b);
		munmap(h->fb, h->prof->fb_size);
	}
	hd_close(&h->d);
	pthread_mutex_destroy(&h->mu);
	free(h->rp);
	free(h);
}
