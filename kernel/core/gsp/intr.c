// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * CPU interrupt tree of Turing and later (§B.7), PF view at 0xB80000:
 * leaf pending bits (write-1-to-clear), leaf and top enables, top summary
 * and the software trigger. The GSP's vector is the chip's choice and is
 * reported to the guest through INTR_GET_KERNEL_TABLE. An interrupt is
 * delivered (MSI-X vector 0) when a pending GSP leaf bit is enabled at
 * both levels. The top level comes up enabled, as GSP-RM leaves it: the
 * 535 driver only programs leaf enables (measured: LEAF_EN_CLEAR(0..15),
 * then LEAF_EN_SET of the GSP vector, no TOP_EN write).
 *
 * Engine notification (non-stall) vectors go pending the same way; CPU-RM
 * finds them through the table's non-stall column and the notification
 * subtree, clears the leaf bit and services them itself. Enabling a leaf
 * or a subtree delivers whatever is already pending under it.
 */
#include "gsp_priv.h"

#define INTR_BASE		0xb80000
#define INTR_LEAF(i)		(INTR_BASE + 0x1000 + 4 * (i))
#define INTR_LEAF_EN_SET(i)	(INTR_BASE + 0x1200 + 4 * (i))
#define INTR_LEAF_EN_CLEAR(i)	(INTR_BASE + 0x1400 + 4 * (i))
#define INTR_TOP(i)		(INTR_BASE + 0x1600 + 4 * (i))
#define INTR_TOP_EN_SET		(INTR_BASE + 0x1608)
#define INTR_TOP_EN_CLEAR	(INTR_BASE + 0x1610)
#define INTR_LEAF_TRIGGER	(INTR_BASE + 0x1640)
#define INTR_TOPS		2
#define MSIX_VECTOR		0

/* Top bit n summarises leaves 2n and 2n+1. */
static u32 top_bit(unsigned int leaf)
{
	return 1U << (leaf / 2);
}

/* The register slot of @vector's leaf, or -1 (no such leaf). */
static int leaf_slot(struct vgsp_gsp *gsp, u32 vector)
{
	return vector / 32 < VGSP_INTR_LEAVES ?
	       vgsp_regmodel_find(&gsp->dev->regs, INTR_LEAF(vector / 32)) : -1;
}

/*
 * @vector goes pending in its leaf (register slot @slot, -1: none) and is
 * delivered when enabled at both levels.
 */
static void raise_at(struct vgsp_gsp *gsp, u32 vector, int slot)
{
	unsigned int leaf = vector / 32;
	u32 bit = 1U << (vector % 32);

	if (slot < 0 || leaf >= VGSP_INTR_LEAVES)
		return;
	gsp->dev->regs.values[slot] |= bit;
	if ((gsp->leaf_en[leaf] & bit) && (gsp->top_en & top_bit(leaf))) {
		gsp->st.e.irqs++;
		vgsp_dev_raise_irq(gsp->dev, MSIX_VECTOR);
	}
}

static void raise_vector(struct vgsp_gsp *gsp, u32 vector)
{
	raise_at(gsp, vector, leaf_slot(gsp, vector));
}

/* Any pending vector enabled at both levels: one MSI-X. */
static void deliver_any_armed(struct vgsp_gsp *gsp)
{
	unsigned int leaf;

	for (leaf = 0; leaf < VGSP_INTR_LEAVES; leaf++) {
		if ((vgsp_gsp_reg(gsp, INTR_LEAF(leaf)) & gsp->leaf_en[leaf]) &&
		    (gsp->top_en & top_bit(leaf))) {
			gsp->st.e.irqs++;
			vgsp_dev_raise_irq(gsp->dev, MSIX_VECTOR);
			return;
		}
	}
}

bool vgsp_gsp_nonstall_raise(struct vgsp_dev *dev, u32 engine_type)
{
	struct vgsp_gsp *gsp = dev->gsp;
	u32 vector;

	if (!gsp || engine_type != VGSP_ENGINE_TYPE_GR0 ||
	    !gsp->chip->gr_nonstall_vector)
		return false;
	vector = gsp->chip->gr_nonstall_vector;
	gsp->st.e.nonstall_raised++;
	raise_vector(gsp, vector);
	return true;
}

void vgsp_intr_init(struct vgsp_gsp *gsp)
{
	gsp->reg_irqstat = vgsp_regmodel_find(&gsp->dev->regs,
					      VGSP_GSP_FALCON_BASE +
					      VGSP_FLCN_IRQSTAT);
	gsp->reg_gsp_leaf = leaf_slot(gsp, gsp->chip->irq_vector);
}

/*
 * SWGEN0's edge (0 -> 1, gsp_priv.h's vgsp_intr_gsp_raise): the leaf bit
 * and the MSI-X. Register slots are looked up once (intr_init).
 */
void vgsp_intr_gsp_edge(struct vgsp_gsp *gsp)
{
	raise_at(gsp, gsp->chip->irq_vector, gsp->reg_gsp_leaf);
}

void vgsp_intr_gsp_retrigger(struct vgsp_gsp *gsp)
{
	u32 irq = VGSP_GSP_FALCON_BASE + VGSP_FLCN_IRQSTAT;

	if (!(vgsp_gsp_reg(gsp, irq) & VGSP_IRQ_SWGEN0))
		return;
	raise_at(gsp, gsp->chip->irq_vector, gsp->reg_gsp_leaf);
}

void vgsp_intr_reset(struct vgsp_gsp *gsp)
{
	memset(gsp->leaf_en, 0, sizeof(gsp->leaf_en));
	gsp->top_en = VGSP_INTR_TOP_EN_RESET;
}

static u32 leaf_en_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			unsigned int idx, u32 stored)
{
	return dev->gsp && idx < VGSP_INTR_LEAVES ? dev->gsp->leaf_en[idx] : 0;
}

static void leaf_en_set_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			      unsigned int idx, u32 old, u32 val)
{
	struct vgsp_gsp *gsp = dev->gsp;

	if (!gsp || idx >= VGSP_INTR_LEAVES)
		return;
	gsp->leaf_en[idx] |= val;
	deliver_any_armed(gsp);
}

static void leaf_en_clear_write(struct vgsp_dev *dev,
				const struct vgsp_reg *reg, unsigned int idx,
				u32 old, u32 val)
{
	if (dev->gsp && idx < VGSP_INTR_LEAVES)
		dev->gsp->leaf_en[idx] &= ~val;
}

static u32 top_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		    unsigned int idx, u32 stored)
{
	struct vgsp_gsp *gsp = dev->gsp;
	unsigned int leaf;
	u32 v = 0;

	if (!gsp || idx != 0)
		return 0;
	for (leaf = 0; leaf < VGSP_INTR_LEAVES; leaf++)
		if (vgsp_gsp_reg(gsp, INTR_LEAF(leaf)))
			v |= top_bit(leaf);
	return v;
}

static u32 top_en_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		       unsigned int idx, u32 stored)
{
	return dev->gsp ? dev->gsp->top_en : 0;
}

static void top_en_set_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			     unsigned int idx, u32 old, u32 val)
{
	struct vgsp_gsp *gsp = dev->gsp;

	if (!gsp)
		return;
	gsp->top_en |= val;
	deliver_any_armed(gsp);
}

static void top_en_clear_write(struct vgsp_dev *dev,
			       const struct vgsp_reg *reg, unsigned int idx,
			       u32 old, u32 val)
{
	if (dev->gsp)
		dev->gsp->top_en &= ~val;
}

static void trigger_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			  unsigned int idx, u32 old, u32 val)
{
	struct vgsp_gsp *gsp = dev->gsp;
	u32 vector = val & 0xfff;

	if (!gsp)
		return;
	raise_vector(gsp, vector);
}

const struct vgsp_reg vgsp_intr_regs[] = {
	{ .name = "CPU_INTR_LEAF", .offset = INTR_LEAF(0),
	  .count = VGSP_INTR_LEAVES, .stride = 4, .w1c_mask = ~0U },
	{ .name = "CPU_INTR_LEAF_EN_SET", .offset = INTR_LEAF_EN_SET(0),
	  .count = VGSP_INTR_LEAVES, .stride = 4,
	  .read = leaf_en_read, .write = leaf_en_set_write, .strobe = true },
	{ .name = "CPU_INTR_LEAF_EN_CLEAR", .offset = INTR_LEAF_EN_CLEAR(0),
	  .count = VGSP_INTR_LEAVES, .stride = 4,
	  .read = leaf_en_read, .write = leaf_en_clear_write, .strobe = true },
	{ .name = "CPU_INTR_TOP", .offset = INTR_TOP(0), .count = INTR_TOPS,
	  .stride = 4, .ro_mask = ~0U, .read = top_read },
	{ .name = "CPU_INTR_TOP_EN_SET", .offset = INTR_TOP_EN_SET,
	  .read = top_en_read, .write = top_en_set_write, .strobe = true },
	{ .name = "CPU_INTR_TOP_EN_CLEAR", .offset = INTR_TOP_EN_CLEAR,
	  .read = top_en_read, .write = top_en_clear_write, .strobe = true },
	{ .name = "CPU_INTR_LEAF_TRIGGER", .offset = INTR_LEAF_TRIGGER,
	  .write = trigger_write, .strobe = true },
};
