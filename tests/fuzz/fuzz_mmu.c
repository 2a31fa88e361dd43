// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target over the GMMU ver3 page-table walk (mm/mmu.c) and the
 * BAR1/BAR2 views built on it (mm/bar.c), over a frame buffer and a guest
 * system memory whose contents the input writes.
 *
 * Ten table pages are at fixed places (0-7 in the FB store, 8-9 in guest
 * system memory); entries are written raw or composed (a PDE that links
 * to another table page, a PTE with chosen aperture/PCF/kind), so walks
 * go deep quickly. Operations (opcode byte, then operands):
 *   0 ENTRY  tbl8 idx16 val64           raw 8-byte entry
 *   1 LINK   tbl8 idx16 to8 flags8      PDE to table page @to
 *   2 PTE    tbl8 idx16 pfn32 flags16   PTE (valid, aperture, PCF, kind)
 *   3 XLATE  root8 va64                 translate a raw VA
 *   4 XLATEI root8 i4 i3 i2 i1 i0 lo    translate a VA built from indices
 *   5 RW     root8 va64 len16 w8 [data] vgsp_vm_read/vgsp_vm_write
 *   6 BARPDB view8 root8 entry64        BAR1/BAR2 root (set_pdb, set_root)
 *   7 BAR    bar8 off32 len8 w8 [data]  BAR1/BAR3 access through the view
 *   8 FB     pa32 len8 data             raw FB bytes
 *   9 UNBIND                            vgsp_bar_unbind
 */
#include "harness.h"

#define ARENA_BYTES	(64u * 1024)
#define NTBL		10
#define FB_TBL		0x100000ULL
#define SYS_TBL_PAGE	4		/* arena page of table 8 */

static struct vgsp_dev *dev;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	dev = fz_dev_create(ARENA_BYTES);
	return 0;
}

static enum vgsp_mem_target tbl_target(unsigned int t)
{
	return t % NTBL < 8 ? VGSP_MEM_VID : VGSP_MEM_SYS;
}

static u64 tbl_pa(unsigned int t)
{
	t %= NTBL;
	if (t < 8)
		return FB_TBL + 0x1000ULL * t;
	return FZ_ARENA_IOVA + 0x1000ULL * (SYS_TBL_PAGE + t - 8);
}

static void put_entry(unsigned int t, u32 idx, u64 v)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	vgsp_mem_write(dev, tbl_target(t), tbl_pa(t) + (idx % 512) * 8ULL,
		       b, 8);
}

static struct vgsp_vm root(u8 r)
{
	struct vgsp_vm vm = { .pdb = tbl_pa(r), .target = tbl_target(r) };

	if (r >= 0xf0)
		vm.target = VGSP_MEM_PEER;
	return vm;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u8 buf[0x3000];
	struct fz_in in = { data, size };
	unsigned int steps = 0;

	vgsp_dev_reset(dev);
	memset(fz_mem, 0, fz_mem_size);
	fz_bus_master(dev);

	while (fz_more(&in) && steps++ < 256) {
		struct vgsp_xlate x;
		struct vgsp_vm vm;
		u8 op = fz_u8(&in), t, f;
		u32 idx, len;
		u64 v;

		switch (op % 10) {
		case 0:
			t = fz_u8(&in);
			idx = fz_u16(&in);
			put_entry(t, idx, fz_u64(&in));
			break;
		case 1:
			t = fz_u8(&in);
			idx = fz_u16(&in);
			v = tbl_pa(fz_u8(&in));
			f = fz_u8(&in);
			/* aperture 2:1 (1 video, 2/3 system); bit 0 IS_PTE */
			put_entry(t, idx, (v & ~0xfffULL) | (f & 0x7) |
				  (u64)(f >> 3) << 52);
			break;
		case 2:
			t = fz_u8(&in);
			idx = fz_u16(&in);
			v = (u64)fz_u32(&in) << 12;
			put_entry(t, idx, v | fz_u16(&in));
			break;
		case 3:
			vm = root(fz_u8(&in));
			vgsp_mmu_translate(dev, &vm, fz_u64(&in), &x);
			break;
		case 4:
			vm = root(fz_u8(&in));
			v = (u64)(fz_u8(&in) & 1) << 56;
			v |= (u64)(fz_u16(&in) & 0x1ff) << 47;
			v |= (u64)(fz_u16(&in) & 0x1ff) << 38;
			v |= (u64)(fz_u16(&in) & 0x1ff) << 29;
			v |= (u64)fz_u8(&in) << 21;
			v |= fz_u32(&in) & 0x1fffff;
			vgsp_mmu_translate(dev, &vm, v, &x);
			break;
		case 5:
			vm = root(fz_u8(&in));
			v = fz_u64(&in);
			len = fz_u16(&in) % sizeof(buf);
			if (fz_u8(&in) & 1) {
				fz_bytes(&in, buf, len);
				vgsp_vm_write(dev, &vm, v, buf, len);
			} else {
				vgsp_vm_read(dev, &vm, v, buf, len);
			}
			break;
		case 6:
			t = fz_u8(&in) & 3;	/* 2, 3: an invalid view */
			v = tbl_pa(fz_u8(&in));
			vgsp_bar_set_pdb(dev, t, v);
			vgsp_bar_set_root(dev, t, fz_u64(&in));
			break;
		case 7: {
			unsigned int bar = fz_u8(&in) & 1 ? VGSP_BAR3 :
					   VGSP_BAR1;

			v = fz_u32(&in);
			len = fz_len(&in);
			if (len > sizeof(buf))
				len = sizeof(buf);
			if (fz_u8(&in) & 1) {
				fz_bytes(&in, buf, len);
				vgsp_dev_bar_write(dev, bar, v, buf, len);
			} else {
				vgsp_dev_bar_read(dev, bar, v, buf, len);
			}
			break;
		}
		case 8:
			v = fz_u32(&in);
			len = fz_u8(&in);
			fz_bytes(&in, buf, len);
			vgsp_fb_write(dev, v, buf, len);
			break;
		case 9:
			vgsp_bar_unbind(dev);
			break;
		}
	}
	fz_show_all(dev);
	return 0;
}
