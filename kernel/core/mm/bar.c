// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BAR1 (PCI BAR 1) and BAR2 (PCI BAR 3) as views of FB.
 *
 * BAR2: CPU-RM builds its page tables in FB, reads entry 0 of the root
 * GSP-RM reported in static info and hands it over in UPDATE_BAR_PDE
 * (kbusCommitBar2PDEs); BAR2 translates from then on. BAR1: GSP-RM's BAR1
 * root is the one static info reports (bar1PdeBase) and CPU-RM writes its
 * PDEs in place, so BAR1 translates from the moment static info is sent.
 * Every translated access walks those tables, as the real BARs do:
 * CPU-RM's writes of USERD and pushbuffers through BAR1 land in the FB the
 * engines read. Before that (and after a GSP reset) a BAR is the flat
 * aperture of the device core.
 *
 * A BAR1 page with PTE kind SMSKED_MESSAGE in system memory is the VF
 * register window (UVM's HOPPER_USERMODE_A bBar1Mapping doorbell page,
 * kfifoConstructUsermodeMemdescs_GH100): its accesses go to BAR0 at the
 * VF base. Untranslatable accesses read 0 and drop writes, counted.
 */
#include "mm.h"
#include "bar_share.h"

#define VF_BASE			0xb80000	/* NV_VIRTUAL_FUNCTION in BAR0 */
#define VF_SIZE			0x40000

static void fault(struct vgsp_mm *mm, enum vgsp_bar_view view)
{
	if (view == VGSP_VIEW_BAR1)
		mm->st.bar1_faults++;
	else
		mm->st.bar2_faults++;
}

/* A message page: the VF register window, dword accesses only. */
static int vf_access(struct vgsp_dev *dev, u64 pa, void *buf, u32 len,
		     bool write)
{
	if (pa >= VF_SIZE || len > VF_SIZE - pa || (len != 4 && len != 8) ||
	    (pa & 3))
		return -EFAULT;
	if (write)
		dev->mm->st.bar1_doorbells++;
	vgsp_dev_bar0_access(dev, (u32)(VF_BASE + pa), buf, len, write);
	return 0;
}

int vgsp_bar_access(struct vgsp_dev *dev, enum vgsp_bar_view view, u64 va,
		    void *buf, u32 len, bool write)
{
	struct vgsp_mm *mm = dev->mm;
	struct vgsp_vm vm = { .target = VGSP_MEM_VID };
	u8 *p = buf;

	if (view >= VGSP_VIEW_COUNT || !mm->bar_active[view])
		return -ENOENT;
	vm.pdb = mm->bar_pdb[view];
	while (len) {
		struct vgsp_xlate x;
		u32 n;
		int ret;

		if (vgsp_mmu_translate(dev, &vm, va, &x)) {
			fault(mm, view);
			if (!write)
				memset(p, 0, len);
			return 0;
		}
		n = x.page - (va & (x.page - 1)) < len ?
		    (u32)(x.page - (va & (x.page - 1))) : len;
		if (x.kind == VGSP_PTE_KIND_SMSKED_MESSAGE &&
		    x.target == VGSP_MEM_SYS && view == VGSP_VIEW_BAR1)
			ret = vf_access(dev, x.pa, p, n, write);
		else if (write)
			ret = vgsp_mem_write(dev, x.target, x.pa, p, n);
		else
			ret = vgsp_mem_read(dev, x.target, x.pa, p, n);
		if (ret) {
			fault(mm, view);
			if (!write)
				memset(p, 0, n);
		}
		va += n;
		p += n;
		len -= n;
	}
	return 0;
}

void vgsp_bar_set_pdb(struct vgsp_dev *dev, enum vgsp_bar_view view, u64 pdb)
{
	if (view >= VGSP_VIEW_COUNT)
		return;
	dev->mm->bar_pdb[view] = pdb;
	if (view == VGSP_VIEW_BAR1) {
		dev->mm->bar_active[view] = true;
		vgsp_bar1_changed(dev);		/* flat -> translated */
	}
}

int vgsp_bar_set_root(struct vgsp_dev *dev, enum vgsp_bar_view view,
		      u64 entry)
{
	struct vgsp_mm *mm = dev->mm;
	u8 b[8];

	if (view >= VGSP_VIEW_COUNT)
		return -EINVAL;
	vgsp_put64(b, 0, entry);
	if (vgsp_fb_write(dev, mm->bar_pdb[view], b, sizeof(b)))
		return -EINVAL;
	mm->bar_active[view] = entry != 0;
	vgsp_bar_share_sync(dev);
	if (view == VGSP_VIEW_BAR1)
		vgsp_bar1_changed(dev);
	return 0;
}

void vgsp_bar_unbind(struct vgsp_dev *dev)
{
	unsigned int i;

	for (i = 0; i < VGSP_VIEW_COUNT; i++)
		dev->mm->bar_active[i] = false;
	vgsp_bar_share_sync(dev);
	vgsp_bar1_changed(dev);
}
