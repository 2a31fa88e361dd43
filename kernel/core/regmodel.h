/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Declarative BAR0 register model.
 *
 * A register (or an array of equally spaced registers) is one row in a
 * table: offset, reset value, read-only and write-1-to-clear masks, and
 * optional read/write handlers for registers whose value is computed or
 * whose write has a side effect. Tables come from the chip HAL and from
 * the GSP emulation; vgsp_regmodel_init() merges them into one sorted,
 * duplicate-free index per instance.
 *
 * Offsets outside every table are "unknown": they read 0, drop writes and
 * are counted per offset so the bring-up worklist is visible in debugfs.
 */
#ifndef VGSP_REGMODEL_H
#define VGSP_REGMODEL_H

#include "vgsp_types.h"

struct vgsp_dev;
struct vgsp_reg;

/* Returns the value the guest sees; @stored is the model's current value. */
typedef u32 (*vgsp_reg_read_fn)(struct vgsp_dev *dev,
				const struct vgsp_reg *reg, unsigned int idx,
				u32 stored);
/* Called after the masked value @val has been stored (old value @old). */
typedef void (*vgsp_reg_write_fn)(struct vgsp_dev *dev,
				  const struct vgsp_reg *reg, unsigned int idx,
				  u32 old, u32 val);

struct vgsp_reg {
	const char *name;
	u32 offset;		/* BAR0 offset of element 0, 4-byte aligned */
	u16 count;		/* number of elements; 0 means 1 */
	u16 stride;		/* bytes between elements (multiple of 4) */
	u32 reset;		/* value after creation and after reset */
	u32 ro_mask;		/* bits a guest write never changes */
	u32 w1c_mask;		/* bits a guest write of 1 clears */
	vgsp_reg_read_fn read;
	vgsp_reg_write_fn write;
	/*
	 * A command register (set/clear/trigger): a write is an action, not
	 * state. The stored value returns to @reset after the write handler,
	 * so a later narrow write never re-applies stale bytes of an old one.
	 */
	bool strobe;
};

struct vgsp_reg_table {
	const struct vgsp_reg *regs;
	unsigned int nregs;
};

#define VGSP_REG_TABLE(arr) { (arr), VGSP_ARRAY_SIZE(arr) }

/* One element of one register, as indexed for lookup. */
struct vgsp_reg_slot {
	u32 offset;
	u16 idx;
	const struct vgsp_reg *reg;
};

#define VGSP_UNKNOWN_TRACK 64

struct vgsp_unknown_hist {
	u32 offset[VGSP_UNKNOWN_TRACK];
	u64 reads[VGSP_UNKNOWN_TRACK];
	u64 writes[VGSP_UNKNOWN_TRACK];
	unsigned int n;
	u64 untracked;		/* accesses to offsets beyond the first 64 */
};

struct vgsp_regmodel {
	struct vgsp_reg_slot *slots;	/* sorted by offset */
	u32 *values;			/* parallel to slots */
	unsigned int nslots;
	/*
	 * The slot the last whole-dword write found (-1: none): a doorbell
	 * is written over and over, and the lookup was a twentieth of a
	 * small RPC under TCG.
	 */
	int last_write;
	struct vgsp_unknown_hist unknown;
};

int vgsp_regmodel_init(struct vgsp_regmodel *rm,
		       const struct vgsp_reg_table *tables,
		       unsigned int ntables);
void vgsp_regmodel_fini(struct vgsp_regmodel *rm);
/* Reset values again; the unknown-offset histogram is kept (worklist). */
void vgsp_regmodel_reset(struct vgsp_regmodel *rm);

/* Slot index for a dword offset, or -1. */
int vgsp_regmodel_find(const struct vgsp_regmodel *rm, u32 offset);

/*
 * Guest-visible access to one aligned dword. Return true if the offset is
 * modelled, false if it is unknown (read gives 0, write is dropped; both
 * are recorded in the unknown histogram).
 */
bool vgsp_regmodel_read(struct vgsp_dev *dev, struct vgsp_regmodel *rm,
			u32 offset, u32 *val);
bool vgsp_regmodel_write(struct vgsp_dev *dev, struct vgsp_regmodel *rm,
			 u32 offset, u32 val);
/*
 * The same write to a slot vgsp_regmodel_find() returned (>= 0). Inline:
 * a doorbell's trap is one of these, and under TCG a cold call costs
 * more than the masking (docs/gsp-emulation.md).
 */
static __always_inline void vgsp_regmodel_write_slot(struct vgsp_dev *dev,
						     struct vgsp_regmodel *rm,
						     int slot, u32 val)
{
	const struct vgsp_reg *r = rm->slots[slot].reg;
	u32 old = rm->values[slot], new;

	new = (old & r->ro_mask) |
	      (val & ~r->ro_mask & ~r->w1c_mask) |
	      (old & r->w1c_mask & ~val);
	rm->values[slot] = new;
	if (r->write)
		r->write(dev, r, rm->slots[slot].idx, old, new);
	if (r->strobe)
		rm->values[slot] = r->reset;
}

/*
 * Device-side access for emulation code: no masks, no handlers. Writing an
 * unmodelled offset is a programming error and is ignored (returns false).
 */
u32 vgsp_reg_peek(const struct vgsp_regmodel *rm, u32 offset);
bool vgsp_reg_poke(struct vgsp_regmodel *rm, u32 offset, u32 val);

#endif /* VGSP_REGMODEL_H */
