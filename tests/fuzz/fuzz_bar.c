// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target over the device's guest-facing regions: BAR0 at any
 * offset and access size (the register model and every register handler,
 * PRAMIN, the usermode doorbell window, the MMU-invalidate and fault
 * registers, the FSP EMEM and queue registers, the GSP falcon, the
 * interrupt tree, the MSI-X table and PBA), BAR1 and BAR3 (flat or
 * through the BAR views), and PCI config space, as a VMM would forward
 * them, with the workers run between accesses.
 *
 * Each input starts from a reset instance with Bus Master Enable set and
 * is a program of operations (opcode byte, then its operands):
 *   0/1 REG    slot16 delta8 len8 [data]  write/read a modelled register
 *                                         (slot of the register table,
 *                                         byte delta, any access size)
 *   2/3 WIN    win8 off16 len8 [data]     write/read near a window base
 *   4/5 BAR    bar8 off64 len8 [data]     write/read any region, any offset
 *   6/7 CFG    off16 len8 [data]          write/read config space
 *   8   MEM    off16 len8 data            guest system memory (arena)
 *   9   RESET                              device reset, then BME again
 *   10  UNMAP  iova64 len32               the VMM unmapped guest memory
 * The workers run after every operation.
 */
#include "harness.h"

#define ARENA_BYTES	(256u * 1024)

static struct vgsp_dev *dev;

/* Window bases a guest driver uses; offsets around them. */
static const u32 windows[] = {
	0x000000,	/* PMC */
	0x0200bc,	/* FSP boot scratch */
	0x100c80,	/* MMU invalidate (legacy window) */
	0x110000,	/* GSP falcon */
	0x111388,	/* GSP RISC-V */
	0x700000,	/* PRAMIN window */
	0x7fff00,	/* PRAMIN end */
	0x8f2ac0,	/* FSP EMEM */
	0x8f2c00,	/* FSP queues */
	0xb80000,	/* VF window */
	0xb81000,	/* interrupt tree */
	0xb830a0,	/* VF MMU invalidate */
	0xb83000,	/* VF fault buffers */
	0xb90000,	/* MSI-X table */
	0xba0000,	/* MSI-X PBA */
	0xbb0000,	/* usermode */
	0xbb0080,	/* usermode doorbell */
	0xfffff8,	/* end of BAR0 */
};

static const unsigned int bars[] = { 0, 1, 3, 2, 4, 5, 6, 0xffffffffu };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	dev = fz_dev_create(ARENA_BYTES);
	return 0;
}

static void access(unsigned int bar, u64 off, u32 len, bool write,
		   struct fz_in *in)
{
	static u8 buf[4096 + 16];

	if (len > sizeof(buf))
		len = sizeof(buf);
	if (write) {
		fz_bytes(in, buf, len);
		vgsp_dev_bar_write(dev, bar, off, buf, len);
	} else {
		vgsp_dev_bar_read(dev, bar, off, buf, len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	unsigned int steps = 0;
	u8 buf[16];

	vgsp_dev_reset(dev);
	memset(fz_mem, 0, fz_mem_size);
	fz_bus_master(dev);

	while (fz_more(&in) && steps++ < 256) {
		u8 op = fz_u8(&in);
		u64 off;
		u32 len;

		switch (op % 11) {
		case 0:
		case 1: {
			const struct vgsp_regmodel *rm = &dev->regs;
			u16 slot = fz_u16(&in);
			int8_t delta = (int8_t)fz_u8(&in);

			off = rm->nslots ? rm->slots[slot % rm->nslots].offset :
			      0;
			off = (u32)((int64_t)off + delta % 8);
			len = fz_len(&in);
			access(VGSP_BAR0, off, len, op % 11 == 0, &in);
			break;
		}
		case 2:
		case 3:
			off = windows[fz_u8(&in) % VGSP_ARRAY_SIZE(windows)];
			off += fz_u16(&in);
			len = fz_len(&in);
			access(VGSP_BAR0, off, len, op % 11 == 2, &in);
			break;
		case 4:
		case 5: {
			unsigned int bar = bars[fz_u8(&in) & 7];

			off = fz_u64(&in);
			len = fz_len(&in);
			access(bar, off, len, op % 11 == 4, &in);
			break;
		}
		case 6:
			off = fz_u16(&in) % (VGSP_CFG_SIZE + 16);
			len = fz_len(&in);
			if (len > sizeof(buf))
				len = sizeof(buf);
			fz_bytes(&in, buf, len);
			vgsp_dev_cfg_write(dev, (u32)off, buf, len);
			break;
		case 7:
			off = fz_u16(&in) % (VGSP_CFG_SIZE + 16);
			len = fz_len(&in);
			if (len > sizeof(buf))
				len = sizeof(buf);
			vgsp_dev_cfg_read(dev, (u32)off, buf, len);
			break;
		case 8:
			off = (u64)fz_u16(&in) * 4;
			len = fz_u8(&in);
			if (off + len <= fz_mem_size)
				fz_bytes(&in, fz_mem + off, len);
			break;
		case 9:
			vgsp_dev_reset(dev);
			fz_bus_master(dev);
			break;
		case 10:
			off = fz_u64(&in);
			vgsp_dev_dma_unmapped(dev, off, fz_u32(&in));
			break;
		}
		fz_run_workers(8);
	}
	fz_show_all(dev);
	return 0;
}
