// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A fake of hostd's forwarding API (hostd_fwd.h) for the vfu backend's
 * tests: no GPU, every call recorded in fake_rm so a test can check what
 * the backend asked RM for, and each call's answer can be forced.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <time.h>

#include "hostd_fwd.h"
#include "fake_hostd.h"

/* hostd's clock (hd_now_ns: CLOCK_MONOTONIC), which the core uses too */
uint64_t fake_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct fake_rm fake_rm;

void fake_rm_reset(void)
{
	free(fake_rm.runs);
	memset(&fake_rm, 0, sizeof(fake_rm));
	fake_rm.next = 0x100;
}

int hd_open_base(struct hd_dev *d, FILE *log)
{
	memset(d, 0, sizeof(*d));
	d->log = log;
	if (fake_rm.open_fails) {
		d->stage = "driver version";
		d->last_status = 0x56;
		return -1;
	}
	return 0;
}

const char *hd_driver_version(struct hd_dev *d)
{
	return fake_rm.open_fails ? "535.0" : "580.159.04";
}

void hd_close(struct hd_dev *d)
{
	fake_rm.closed++;
}

int hd_backing_register(struct hd_dev *d, void *cpu, uint64_t size,
			struct hd_backing *b)
{
	memset(b, 0, sizeof(*b));
	if (fake_rm.register_fails)
		return -1;
	b->h = fake_rm.next++;
	b->cpu = cpu;
	b->size = size;
	fake_rm.registered++;
	if (fake_rm.nmem < 16)
		fake_rm.mem[fake_rm.nmem++] = (typeof(fake_rm.mem[0])){
			b->h, cpu, size };
	return 0;
}

/* "Video memory": host pages the test can read, flagged as vidmem. */
int hd_backing_vidmem(struct hd_dev *d, uint64_t size, struct hd_backing *b)
{
	memset(b, 0, sizeof(*b));
	if (fake_rm.register_fails)
		return -1;
	b->cpu = mmap(NULL, size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (b->cpu == MAP_FAILED)
		return -1;
	b->h = fake_rm.next++;
	b->size = size;
	b->vid = true;
	fake_rm.vidmem++;
	if (fake_rm.nmem < 16)
		fake_rm.mem[fake_rm.nmem++] = (typeof(fake_rm.mem[0])){
			b->h, b->cpu, size };
	return 0;
}

void hd_backing_unregister(struct hd_dev *d, struct hd_backing *b)
{
	if (b->h)
		fake_rm.unregistered++;
	if (b->vid && b->cpu)
		munmap(b->cpu, b->size);
	memset(b, 0, sizeof(*b));
}

int hd_vas_create(struct hd_dev *d, struct hd_vas *v)
{
	memset(v, 0, sizeof(*v));
	v->hvas = fake_rm.next++;
	fake_rm.vas_created++;
	return 0;
}

/*
 * The mirror's last sync in fake_rm.runs (what the tests check), and each
 * VA space's own runs in v->runs (what the fake "GPU" copies through).
 */
int hd_vas_sync(struct hd_dev *d, struct hd_vas *v, const struct hd_run *runs,
		size_t n)
{
	uint64_t t0 = fake_now();

	while (fake_now() - t0 < fake_rm.sync_ns)
		;
	v->syncs++;
	fake_rm.large_hmem = v->large_hmem;
	free(v->runs);
	v->runs = calloc(n ? n : 1, sizeof(*runs));
	memcpy(v->runs, runs, n * sizeof(*runs));
	v->nruns = n;
	if (n && runs[0].va >= (1ULL << 52)) {
		size_t i;

		fake_rm.phys_syncs++;	/* the physical space */
		fake_rm.phys_sys_runs = 0;
		for (i = 0; i < n; i++)
			fake_rm.phys_sys_runs += runs[i].va >= (1ULL << 53);
		return 0;
	}
	fake_rm.syncs++;
	free(fake_rm.runs);
	fake_rm.runs = calloc(n ? n : 1, sizeof(*runs));
	memcpy(fake_rm.runs, runs, n * sizeof(*runs));
	fake_rm.nruns = n;
	return 0;
}

void hd_vas_destroy(struct hd_dev *d, struct hd_vas *v)
{
	fake_rm.vas_destroyed++;
	free(v->runs);
	memset(v, 0, sizeof(*v));
}

int hd_ce_pce_mask(struct hd_dev *d, unsigned int copy_index, uint32_t *mask)
{
	if (fake_rm.pce_fails)
		return -1;
	if (copy_index >= 10 || (fake_rm.pce_refuse_from && copy_index >= fake_rm.pce_refuse_from))
		return -1;
	/* two PCEs per LCE, made up; @pce_wide: twelve, as COPY4 on the H200 */
	*mask = copy_index == fake_rm.pce_wide && fake_rm.pce_wide ? 0xfffu << 16 :
		0x3u << (2 * copy_index);
	return 0;
}

int hd_perf_boost(struct hd_dev *d)
{
	fake_rm.boosts++;
	return fake_rm.boost_fails ? -1 : 0;
}

int hd_fwd_chan_open(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c)
{
	memset(c, 0, sizeof(*c));
	c->chan = fake_rm.next++;
	fake_rm.chan_opens++;
	return 0;
}

int hd_fwd_launch(struct hd_dev *d, struct hd_fwd_chan *c,
		  const struct hd_mthd *m, size_t n, uint64_t qmd_va,
		  uint64_t timeout_ns, uint32_t *rc)
{
	fake_rm.launches++;
	fake_rm.qmd_va = qmd_va;
	fake_rm.nmthd = n < FAKE_RM_MTHDS ? n : FAKE_RM_MTHDS;
	memcpy(fake_rm.mthd, m, fake_rm.nmthd * sizeof(*m));
	fake_rm.nmthd_total = n;
	fake_rm.last_launch_group = c->group ? c->group->tsg : 0;
	if (fake_rm.launch_rc) {
		*rc = 31;
		c->dead = true;
		if (c->group)
			c->group->dead = true;	/* RM stops the whole group */
		return fake_rm.launch_rc;
	}
	/* the doorbell, then launch_ns "on the GPU" until the fence */
	c->t_submit_ns = fake_now();
	while (fake_now() - c->t_submit_ns < fake_rm.launch_ns)
		;
	c->t_done_ns = fake_now();
	return 0;
}

void hd_fwd_chan_close(struct hd_dev *d, struct hd_fwd_chan *c)
{
	if (c->gr == 0xce)
		fake_rm.ce_closes++;
	else
		fake_rm.chan_closes++;
	if (c->group)
		c->group->chans--;
	memset(c, 0, sizeof(*c));
}

int hd_fwd_group_open(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_group *g)
{
	memset(g, 0, sizeof(*g));
	if (fake_rm.group_open_fails)
		return -1;
	g->tsg = fake_rm.next++;
	fake_rm.group_opens++;
	return 0;
}

void hd_fwd_group_close(struct hd_dev *d, struct hd_fwd_group *g)
{
	/* as RM: a group with channels in it cannot go */
	if (g->chans)
		fake_rm.group_close_busy++;
	fake_rm.group_closes++;
	memset(g, 0, sizeof(*g));
}

int hd_fwd_chan_open_in(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_group *g,
			struct hd_fwd_chan *c)
{
	memset(c, 0, sizeof(*c));
	if (g->dead || fake_rm.chan_in_group_fails)
		return -1;
	c->chan = fake_rm.next++;
	c->group = g;
	c->tsg = g->tsg;	/* the fake's record of which group (not RM's) */
	g->chans++;
	fake_rm.chan_opens++;
	fake_rm.last_group = g->tsg;
	return 0;
}

int hd_fwd_ce_open(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c,
		   unsigned int copy_index)
{
	memset(c, 0, sizeof(*c));
	if (fake_rm.ce_open_fails) {
		fake_rm.ce_open_fails--;
		return -1;
	}
	c->chan = fake_rm.next++;
	c->gr = 0xce;
	/* the VA space it copies in (hd_fwd_chan has no field for it) */
	fake_rm.chv[c->chan % FAKE_RM_CHV].chan = c->chan;
	fake_rm.chv[c->chan % FAKE_RM_CHV].v = v;
	fake_rm.ce_engine = copy_index;
	fake_rm.ce_opens++;
	return 0;
}

/* The host pointer behind VA @va of @v (its last sync's runs). */
static uint8_t *fake_va(const struct hd_vas *v, uint64_t va)
{
	size_t i;
	unsigned int j;

	for (i = 0; v && i < v->nruns; i++) {
		const struct hd_run *r = &v->runs[i];

		if (va < r->va || va - r->va >= r->len)
			continue;
		for (j = 0; j < fake_rm.nmem; j++)
			if (fake_rm.mem[j].h == r->hmem &&
			    r->off + (va - r->va) < fake_rm.mem[j].size)
				return fake_rm.mem[j].cpu + r->off + (va - r->va);
	}
	return NULL;
}

/* The "GPU" copies byte by byte through the mirror; unmapped = RC 31. */
int hd_fwd_copy(struct hd_dev *d, struct hd_fwd_chan *c,
		const struct hd_copy *cp, uint64_t timeout_ns, uint32_t *rc)
{
	const struct hd_vas *v = fake_rm.chv[c->chan % FAKE_RM_CHV].chan == c->chan ?
				 fake_rm.chv[c->chan % FAKE_RM_CHV].v : NULL;
	uint64_t l, i;

	fake_rm.last_copy = *cp;
	if (fake_rm.copy_rc) {
		*rc = 31;
		c->dead = true;
		return fake_rm.copy_rc;
	}
	c->t_submit_ns = fake_now();
	for (l = 0; l < cp->lines; l++)
		for (i = 0; i < cp->line_bytes; i++) {
			uint8_t *s = cp->fill ? NULL :
				     fake_va(v, cp->src + l * cp->pitch_in + i);
			uint8_t *t = fake_va(v, cp->dst + l * cp->pitch_out + i);

			if ((!s && !cp->fill) || !t) {
				*rc = 31;
				c->dead = true;
				return -EFAULT;
			}
			*t = cp->fill ? (uint8_t)(cp->value >> (8 * (i % cp->elem_size))) :
					*s;
		}
	if (cp->fill)
		fake_rm.fills++;
	else
		fake_rm.copies++;
	c->t_done_ns = fake_now();
	return 0;
}
