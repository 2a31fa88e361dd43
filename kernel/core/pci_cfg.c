// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * PCI configuration space of an emulated instance. Each byte has a value,
 * a write mask and a write-1-to-clear mask; BAR sizing falls out of the
 * masks (the low address bits of a BAR are not writable, so writing
 * all-ones reads back the size mask), which keeps writes table-driven.
 */
#include "pci_cfg.h"
#include "profiles.h"

/* Standard header offsets and bits (PCI Local Bus spec). */
#define CFG_VENDOR		0x00
#define CFG_DEVICE		0x02
#define CFG_COMMAND		0x04
#define CFG_STATUS		0x06
#define CFG_REVISION		0x08
#define CFG_CLASS_PROG		0x09
#define CFG_HEADER_TYPE		0x0e
#define CFG_BAR0		0x10
#define CFG_SUBSYS_VENDOR	0x2c
#define CFG_SUBSYS_ID		0x2e
#define CFG_CAP_PTR		0x34
#define CFG_INT_LINE		0x3c
#define CFG_INT_PIN		0x3d

#define CMD_WRITABLE		0x0547	/* IO MEM MASTER PARITY SERR INTX_DIS */
#define STATUS_CAP_LIST		0x0010
#define STATUS_W1C		0xf900	/* error bits */

#define BAR_MEM_64		0x4
#define BAR_PREFETCH		0x8

#define CAP_ID_PM		0x01
#define CAP_ID_MSI		0x05
#define CAP_ID_PCIE		0x10
#define CAP_ID_MSIX		0x11

static void put8(struct vgsp_cfg *c, u32 off, u8 v, u8 wmask, u8 w1c)
{
	c->data[off] = v;
	c->wmask[off] = wmask;
	c->w1c[off] = w1c;
}

static void put16(struct vgsp_cfg *c, u32 off, u16 v, u16 wmask, u16 w1c)
{
	put8(c, off, v & 0xff, wmask & 0xff, w1c & 0xff);
	put8(c, off + 1, v >> 8, wmask >> 8, w1c >> 8);
}

static void put32(struct vgsp_cfg *c, u32 off, u32 v, u32 wmask, u32 w1c)
{
	put16(c, off, v & 0xffff, wmask & 0xffff, w1c & 0xffff);
	put16(c, off + 2, v >> 16, wmask >> 16, w1c >> 16);
}

static u16 get16(const struct vgsp_cfg *c, u32 off)
{
	return c->data[off] | (c->data[off + 1] << 8);
}

/* Writable address bits of a memory BAR of @size (a power of two). */
static void put_bar(struct vgsp_cfg *c, unsigned int slot,
		    const struct vgsp_bar *b)
{
	u32 off = CFG_BAR0 + 4 * slot;
	u64 mask = ~(b->size - 1);
	u32 flags = (b->is64 ? BAR_MEM_64 : 0) | (b->prefetch ? BAR_PREFETCH : 0);

	put32(c, off, flags, (u32)mask & ~0xfU, 0);
	if (b->is64)
		put32(c, off + 4, 0, (u32)(mask >> 32), 0);
}

static void build_caps(struct vgsp_cfg *c, unsigned int msix_vectors)
{
	/* Power management v3, D0/D3hot, no soft reset on D3hot->D0. */
	put8(c, VGSP_CAP_PM, CAP_ID_PM, 0, 0);
	put8(c, VGSP_CAP_PM + 1, VGSP_CAP_MSI, 0, 0);
	put16(c, VGSP_CAP_PM + 2, 0x0003, 0, 0);
	put16(c, VGSP_CAP_PM + 4, 0x0008, 0x0003, 0);

	/* MSI: 64-bit address, one vector, no per-vector mask (14 bytes). */
	put8(c, VGSP_CAP_MSI, CAP_ID_MSI, 0, 0);
	put8(c, VGSP_CAP_MSI + 1, VGSP_CAP_PCIE, 0, 0);
	put16(c, VGSP_CAP_MSI + 2, 0x0080, 0x0001, 0);
	put32(c, VGSP_CAP_MSI + 4, 0, 0xfffffffc, 0);
	put32(c, VGSP_CAP_MSI + 8, 0, 0xffffffff, 0);
	put16(c, VGSP_CAP_MSI + 12, 0, 0xffff, 0);

	/* PCI Express v2 endpoint, 256-byte payload, Gen5 x16 link. */
	put8(c, VGSP_CAP_PCIE, CAP_ID_PCIE, 0, 0);
	put8(c, VGSP_CAP_PCIE + 1, VGSP_CAP_MSIX, 0, 0);
	put16(c, VGSP_CAP_PCIE + 2, 0x0002, 0, 0);
	put32(c, VGSP_CAP_PCIE + 4, 0x00008001, 0, 0);	/* DEVCAP */
	put16(c, VGSP_CAP_PCIE + 8, 0x2810, 0x7fff, 0);	/* DEVCTL */
	put16(c, VGSP_CAP_PCIE + 10, 0, 0, 0x000f);	/* DEVSTA */
	put32(c, VGSP_CAP_PCIE + 12, 0x00000105, 0, 0);	/* LNKCAP */
	put16(c, VGSP_CAP_PCIE + 16, 0, 0x0ffb, 0);	/* LNKCTL */
	put16(c, VGSP_CAP_PCIE + 18, 0x0105, 0, 0);	/* LNKSTA */
	put32(c, VGSP_CAP_PCIE + 36, 0, 0, 0);		/* DEVCAP2 */
	put16(c, VGSP_CAP_PCIE + 40, 0, 0x0000, 0);	/* DEVCTL2 */
	put32(c, VGSP_CAP_PCIE + 44, 0x0000003e, 0, 0);	/* LNKCAP2 */
	put16(c, VGSP_CAP_PCIE + 48, 0x0005, 0x000f, 0);	/* LNKCTL2 */

	/* MSI-X: table and PBA in BAR0 where no GPU register lives. */
	put8(c, VGSP_CAP_MSIX, CAP_ID_MSIX, 0, 0);
	put8(c, VGSP_CAP_MSIX + 1, 0, 0, 0);
	put16(c, VGSP_CAP_MSIX + 2, (u16)(msix_vectors - 1), 0xc000, 0);
	put32(c, VGSP_CAP_MSIX + 4, VGSP_MSIX_TABLE_OFF | 0, 0, 0);
	put32(c, VGSP_CAP_MSIX + 8, VGSP_MSIX_PBA_OFF | 0, 0, 0);
}

void vgsp_cfg_init(struct vgsp_cfg *c, const struct vgsp_profile *p,
		   unsigned int msix_vectors)
{
	memset(c, 0, sizeof(*c));
	if (msix_vectors < 1)
		msix_vectors = 1;
	if (msix_vectors > VGSP_MSIX_MAX)
		msix_vectors = VGSP_MSIX_MAX;
	c->msix_vectors = msix_vectors;

	c->bar[0].size = 16 * VGSP_MIB;
	c->bar[1].size = p->bar1_size;
	c->bar[1].is64 = true;
	c->bar[1].prefetch = true;
	c->bar[3].size = 32 * VGSP_MIB;
	c->bar[3].is64 = true;
	c->bar[3].prefetch = true;
	vgsp_cfg_reset(c, p);
}

void vgsp_cfg_reset(struct vgsp_cfg *c, const struct vgsp_profile *p)
{
	unsigned int slot;

	memset(c->data, 0, sizeof(c->data));
	memset(c->wmask, 0, sizeof(c->wmask));
	memset(c->w1c, 0, sizeof(c->w1c));

	put16(c, CFG_VENDOR, p->vendor, 0, 0);
	put16(c, CFG_DEVICE, p->device, 0, 0);
	put16(c, CFG_COMMAND, 0, CMD_WRITABLE, 0);
	put16(c, CFG_STATUS, STATUS_CAP_LIST, 0, STATUS_W1C);
	put8(c, CFG_REVISION, 0xa1, 0, 0);
	put8(c, CFG_CLASS_PROG, 0x00, 0, 0);
	put16(c, CFG_CLASS_PROG + 1, 0x0302, 0, 0);	/* 3D controller */
	put8(c, CFG_HEADER_TYPE, 0x00, 0, 0);
	for (slot = 0; slot < VGSP_NUM_BARS; slot++)
		if (c->bar[slot].size)
			put_bar(c, slot, &c->bar[slot]);
	put16(c, CFG_SUBSYS_VENDOR, p->subsys_vendor, 0, 0);
	put16(c, CFG_SUBSYS_ID, p->subsys_device, 0, 0);
	put8(c, CFG_CAP_PTR, VGSP_CAP_PM, 0, 0);
	put8(c, CFG_INT_LINE, 0xff, 0xff, 0);
	put8(c, CFG_INT_PIN, 0x01, 0, 0);
	build_caps(c, c->msix_vectors);
}

int vgsp_cfg_read(const struct vgsp_cfg *c, u32 off, void *buf, u32 len)
{
	if (!len || off >= VGSP_CFG_SIZE || len > VGSP_CFG_SIZE - off)
		return -EINVAL;
	memcpy(buf, &c->data[off], len);
	return 0;
}

int vgsp_cfg_write(struct vgsp_cfg *c, u32 off, const void *buf, u32 len)
{
	const u8 *v = buf;
	u32 i;

	if (!len || off >= VGSP_CFG_SIZE || len > VGSP_CFG_SIZE - off)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		u32 o = off + i;
		u8 old = c->data[o];

		c->data[o] = (old & ~c->wmask[o] & ~(v[i] & c->w1c[o])) |
			     (v[i] & c->wmask[o]);
	}
	return 0;
}

u16 vgsp_cfg_command(const struct vgsp_cfg *c)
{
	return get16(c, CFG_COMMAND);
}

bool vgsp_cfg_msi_enabled(const struct vgsp_cfg *c)
{
	return get16(c, VGSP_CAP_MSI + 2) & 0x0001;
}

bool vgsp_cfg_msix_enabled(const struct vgsp_cfg *c)
{
	return get16(c, VGSP_CAP_MSIX + 2) & 0x8000;
}

/*
 * May the function signal an interrupt now? MSI-X takes precedence
 * (function mask holds it back), then MSI, else INTx unless the command
 * register disables it.
 */
bool vgsp_cfg_irq_enabled(const struct vgsp_cfg *c)
{
	if (vgsp_cfg_msix_enabled(c))
		return !(get16(c, VGSP_CAP_MSIX + 2) & 0x4000);
	if (vgsp_cfg_msi_enabled(c))
		return true;
	return !(get16(c, CFG_COMMAND) & VGSP_CMD_INTX_DISABLE);
}
