// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Read-only text views of the device core (see view.h). */
#include "view.h"
#include "device.h"
#include "mm/mm.h"
#include "aperture.h"
#include "fifo/fifo.h"
#include "rm/rm.h"

static void show_counters(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	unsigned int i;

	for (i = 0; i < vgsp_ncounters; i++)
		p->print(p, "%s %llu\n", vgsp_counter_descs[i].name,
			 (unsigned long long)vgsp_counter_get(&dev->cnt, i));
}

static void show_info(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	const struct vgsp_profile *pr = dev->profile;

	p->print(p, "uuid %s\n", dev->name);
	p->print(p, "type %s\n", pr->id);
	p->print(p, "name %s\n", pr->name);
	p->print(p, "product %s\n", pr->product);
	p->print(p, "id %04x:%04x\n", pr->vendor, pr->device);
	p->print(p, "subsystem %04x:%04x\n", pr->subsys_vendor,
		 pr->subsys_device);
	p->print(p, "chip %s\n", pr->chip->name);
	p->print(p, "fb_bytes %llu\n", (unsigned long long)pr->fb_size);
	p->print(p, "bar0_size %llu\n",
		 (unsigned long long)vgsp_dev_bar_size(dev, VGSP_BAR0));
	p->print(p, "bar1_size %llu\n",
		 (unsigned long long)vgsp_dev_bar_size(dev, VGSP_BAR1));
	p->print(p, "bar3_size %llu\n",
		 (unsigned long long)vgsp_dev_bar_size(dev, VGSP_BAR3));
	p->print(p, "msix_vectors %u\n", dev->cfg.msix_vectors);
}

/* Copy under the lock so the listing is consistent; print without it. */
static void show_bar0_unknown(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_unknown_hist *h = vgsp_zalloc(sizeof(*h));
	unsigned int i;

	if (!h)
		return;
	vgsp_dev_lock(dev);
	*h = dev->regs.unknown;
	vgsp_dev_unlock(dev);
	for (i = 0; i < h->n; i++)
		p->print(p, "0x%06x reads %llu writes %llu\n", h->offset[i],
			 (unsigned long long)h->reads[i],
			 (unsigned long long)h->writes[i]);
	p->print(p, "untracked %llu\n", (unsigned long long)h->untracked);
	vgsp_free(h);
}

static const char * const mm_names[] = {
#define VGSP_MM_NAME(n) #n,
	VGSP_MM_ERR_LIST(VGSP_MM_NAME)
#undef VGSP_MM_NAME
};

static const char * const fbc_names[] = {
#define VGSP_FBC_NAME(n) #n,
	VGSP_FBC_STAT_LIST(VGSP_FBC_NAME)
#undef VGSP_FBC_NAME
};

/* The FB read cache (mm/fb_cache.c): "fb_cache none" without one. */
static void show_fb_cache(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_fbc_stats st;
	const u64 *f = (const u64 *)&st;
	unsigned int i;

	if (!vgsp_fbc_stats(dev, &st)) {
		p->print(p, "fb_cache none\n");
		return;
	}
	p->print(p, "fb_cache %s pages %llu cap %llu\n", st.off ? "off" : "on",
		 (unsigned long long)st.pages, (unsigned long long)st.cap);
	for (i = 0; i < VGSP_ARRAY_SIZE(fbc_names); i++)
		p->print(p, "fb_cache_%s %llu\n", fbc_names[i],
			 (unsigned long long)f[i]);
}

/* FB backing, BAR view state and the mm counters. */
static void show_mm(struct vgsp_dev *dev, struct vgsp_printer *p)
{
	struct vgsp_mm_stats st;
	struct vgsp_bar1_map_stats b1;
	const u64 *b = (const u64 *)&b1;
	u64 backed, v[VGSP_VIEW_COUNT];
	bool on[VGSP_VIEW_COUNT];
	const u64 *f = (const u64 *)&st;
	unsigned int i;

	vgsp_dev_lock(dev);
	st = dev->mm->st;
	backed = vgsp_fb_backed(dev);
	for (i = 0; i < VGSP_VIEW_COUNT; i++) {
		v[i] = dev->mm->bar_pdb[i];
		on[i] = dev->mm->bar_active[i];
	}
	vgsp_dev_unlock(dev);
	p->print(p, "fb_backed_bytes %llu\n", (unsigned long long)backed);
	for (i = 0; i < VGSP_VIEW_COUNT; i++)
		p->print(p, "bar%u %s root 0x%llx\n", i == 0 ? 1 : 2,
			 on[i] ? "translated" : "flat",
			 (unsigned long long)v[i]);
	for (i = 0; i < VGSP_ARRAY_SIZE(mm_names); i++)
		p->print(p, "%s %llu\n", mm_names[i], (unsigned long long)f[i]);
	vgsp_bar1_map_stats(dev, &b1);	/* BAR1 mapped: bar1_map.h */
	for (i = 0; i < VGSP_BAR1_MAP_COUNT; i++)
		p->print(p, "bar1_map_%s %llu\n", vgsp_bar1_map_names[i],
			 (unsigned long long)b[i]);
	show_fb_cache(dev, p);
}

const struct vgsp_view vgsp_core_views[] = {
	{ "counters", show_counters },
	{ "info", show_info },
	{ "bar0_unknown", show_bar0_unknown },
	{ "mm", show_mm },
	{ "channels", vgsp_fifo_show_channels },
	{ "op_latency", vgsp_fifo_show_op_latency },
	{ "vaspaces", vgsp_rm_show_vaspaces },
};

const unsigned int vgsp_core_nviews = VGSP_ARRAY_SIZE(vgsp_core_views);
