// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Declarative BAR0 register model: tables merged into a sorted slot index,
 * binary-searched on every access (BAR0 traffic is the hot path for a
 * polling guest driver, so lookups stay O(log n) and allocation-free).
 */
#include "regmodel.h"
#include "vgsp_os.h"

static unsigned int reg_count(const struct vgsp_reg *r)
{
	return r->count ? r->count : 1;
}

static bool reg_valid(const struct vgsp_reg *r)
{
	if (r->offset & 3)
		return false;
	if (reg_count(r) > 1 && (r->stride < 4 || (r->stride & 3)))
		return false;
	return true;
}

/* Insertion sort: tables are a few hundred slots, sorted once per instance. */
static void sort_slots(struct vgsp_reg_slot *s, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++) {
		struct vgsp_reg_slot tmp = s[i];

		for (j = i; j > 0 && s[j - 1].offset > tmp.offset; j--)
			s[j] = s[j - 1];
		s[j] = tmp;
	}
}

int vgsp_regmodel_init(struct vgsp_regmodel *rm,
		       const struct vgsp_reg_table *tables,
		       unsigned int ntables)
{
	unsigned int t, i, k, n = 0;

	memset(rm, 0, sizeof(*rm));
	for (t = 0; t < ntables; t++) {
		for (i = 0; i < tables[t].nregs; i++) {
			const struct vgsp_reg *r = &tables[t].regs[i];

			if (!reg_valid(r)) {
				vgsp_err("vgsp: register %s at 0x%x: bad offset or stride\n",
					 r->name, r->offset);
				return -EINVAL;
			}
			n += reg_count(r);
		}
	}

	rm->slots = vgsp_zalloc(sizeof(*rm->slots) * (n ? n : 1));
	rm->values = vgsp_zalloc(sizeof(*rm->values) * (n ? n : 1));
	if (!rm->slots || !rm->values) {
		vgsp_regmodel_fini(rm);
		return -ENOMEM;
	}

	k = 0;
	for (t = 0; t < ntables; t++) {
		for (i = 0; i < tables[t].nregs; i++) {
			const struct vgsp_reg *r = &tables[t].regs[i];
			unsigned int e;

			for (e = 0; e < reg_count(r); e++) {
				rm->slots[k].offset = r->offset + e * r->stride;
				rm->slots[k].idx = e;
				rm->slots[k].reg = r;
				k++;
			}
		}
	}
	sort_slots(rm->slots, n);
	for (i = 1; i < n; i++) {
		if (rm->slots[i].offset == rm->slots[i - 1].offset) {
			vgsp_err("vgsp: registers %s and %s both claim 0x%x\n",
				 rm->slots[i - 1].reg->name,
				 rm->slots[i].reg->name, rm->slots[i].offset);
			vgsp_regmodel_fini(rm);
			return -EINVAL;
		}
	}
	rm->nslots = n;
	rm->last_write = -1;
	memset(&rm->unknown, 0, sizeof(rm->unknown));
	vgsp_regmodel_reset(rm);
	return 0;
}

void vgsp_regmodel_fini(struct vgsp_regmodel *rm)
{
	vgsp_free(rm->slots);
	vgsp_free(rm->values);
	rm->slots = NULL;
	rm->values = NULL;
	rm->nslots = 0;
}

void vgsp_regmodel_reset(struct vgsp_regmodel *rm)
{
	unsigned int i;

	for (i = 0; i < rm->nslots; i++)
		rm->values[i] = rm->slots[i].reg->reset;
}

int vgsp_regmodel_find(const struct vgsp_regmodel *rm, u32 offset)
{
	unsigned int lo = 0, hi = rm->nslots;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		u32 o = rm->slots[mid].offset;

		if (o == offset)
			return mid;
		if (o < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static void note_unknown(struct vgsp_regmodel *rm, u32 offset, bool write)
{
	struct vgsp_unknown_hist *h = &rm->unknown;
	unsigned int i;

	for (i = 0; i < h->n; i++)
		if (h->offset[i] == offset)
			break;
	if (i == h->n) {
		if (h->n == VGSP_UNKNOWN_TRACK) {
			h->untracked++;
			return;
		}
		h->offset[h->n++] = offset;
	}
	if (write)
		h->writes[i]++;
	else
		h->reads[i]++;
}

bool vgsp_regmodel_read(struct vgsp_dev *dev, struct vgsp_regmodel *rm,
			u32 offset, u32 *val)
{
	int i = vgsp_regmodel_find(rm, offset);
	const struct vgsp_reg_slot *s;

	if (i < 0) {
		note_unknown(rm, offset, false);
		*val = 0;
		return false;
	}
	s = &rm->slots[i];
	*val = rm->values[i];
	if (s->reg->read)
		*val = s->reg->read(dev, s->reg, s->idx, *val);
	return true;
}

bool vgsp_regmodel_write(struct vgsp_dev *dev, struct vgsp_regmodel *rm,
			 u32 offset, u32 val)
{
	int i = vgsp_regmodel_find(rm, offset);

	if (i < 0) {
		note_unknown(rm, offset, true);
		return false;
	}
	vgsp_regmodel_write_slot(dev, rm, i, val);
	return true;
}

u32 vgsp_reg_peek(const struct vgsp_regmodel *rm, u32 offset)
{
	int i = vgsp_regmodel_find(rm, offset);

	return i < 0 ? 0 : rm->values[i];
}

bool vgsp_reg_poke(struct vgsp_regmodel *rm, u32 offset, u32 val)
{
	int i = vgsp_regmodel_find(rm, offset);

	if (i < 0)
		return false;
	rm->values[i] = val;
	return true;
}
