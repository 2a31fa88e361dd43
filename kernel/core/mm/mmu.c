// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * GMMU ver3 (GH100) page-table walk from any page directory base:
 * PD4 (VA 56), PD3 55:47, PD2 46:38, PD1 37:29 (may hold a 512 MiB PTE),
 * PD0 28:21 with 16-byte dual entries (a 2 MiB PTE in the low half, or a
 * 64 KiB big-page table low and a 4 KiB table high), then the PTE.
 * Depth is fixed by the format, so a walk reads at most 7 entries.
 *
 * PDE aperture 2:1: 0 invalid, 1 video, 2/3 system; PTE aperture 2:1:
 * 0 video, 1 peer, 2/3 system. PTE address: video 39:12, system 51:12.
 */
#include "mm.h"

#define PDE_SIZE		8
#define DUAL_PDE_SIZE		16
#define PTE_SIZE		8
#define E_VALID			0x1ULL		/* PTE valid / PDE IS_PTE */
#define E_APERTURE(e)		((unsigned int)((e) >> 1) & 0x3)
#define PDE_ADDR_MASK		0x000ffffffffff000ULL	/* 51:12 */
#define PDE_BIG_ADDR_MASK	0x000fffffffffff00ULL	/* 51:8 */
#define PTE_VID_ADDR_MASK	0x000000fffffff000ULL	/* 39:12 */
#define PTE_SYS_ADDR_MASK	0x000ffffffffff000ULL	/* 51:12 */
#define PTE_PCF(e)		((unsigned int)((e) >> 3) & 0x1f)
#define PTE_PCF_RO		0x4
#define PTE_KIND(e)		((u8)(((e) >> 8) & 0xf))
#define VA_BITS			57

struct level {
	u8 hi, lo;
};

static const struct level pd[] = {
	{ 56, 56 }, { 55, 47 }, { 46, 38 }, { 37, 29 },
};

#define PD0_HI			28
#define PD0_LO			21
#define BIG_SHIFT		16
#define SMALL_SHIFT		12

static u64 va_index(u64 va, unsigned int hi, unsigned int lo)
{
	return (va >> lo) & ((1ULL << (hi - lo + 1)) - 1);
}

static enum vgsp_mem_target pde_target(u64 e)
{
	return E_APERTURE(e) == 1 ? VGSP_MEM_VID : VGSP_MEM_SYS;
}

static int rd64(struct vgsp_dev *dev, enum vgsp_mem_target t, u64 pa, u64 *v)
{
	u8 b[8];

	if (vgsp_mem_read(dev, t, pa, b, 8))
		return -EFAULT;
	*v = vgsp_get64(b, 0);
	return 0;
}

/* A table entry that points at a valid PTE of @shift-sized pages. */
static int sub_pte(struct vgsp_dev *dev, u64 pde, u64 mask, u64 va,
		   unsigned int shift, u64 *e)
{
	u64 off = va_index(va, PD0_LO - 1, shift) * PTE_SIZE;

	if (!E_APERTURE(pde))
		return -EFAULT;
	if (rd64(dev, pde_target(pde), (pde & mask) + off, e) ||
	    !(*e & E_VALID))
		return -EFAULT;
	return 0;
}

static int walk(struct vgsp_dev *dev, const struct vgsp_vm *vm, u64 va,
		u64 *pte, unsigned int *shift)
{
	enum vgsp_mem_target t = vm->target;
	u64 table = vm->pdb, e, lo, hi, off;
	unsigned int i;

	if (va >> VA_BITS)
		return -EFAULT;
	for (i = 0; i < VGSP_ARRAY_SIZE(pd); i++) {
		off = va_index(va, pd[i].hi, pd[i].lo) * PDE_SIZE;
		if (rd64(dev, t, table + off, &e))
			return -EFAULT;
		if (e & E_VALID) {
			*shift = pd[i].lo;
			*pte = e;
			return i == 3 ? 0 : -EFAULT;	/* only PD1 maps pages */
		}
		if (!E_APERTURE(e))
			return -EFAULT;
		t = pde_target(e);
		table = e & PDE_ADDR_MASK;
	}
	off = va_index(va, PD0_HI, PD0_LO) * DUAL_PDE_SIZE;
	if (rd64(dev, t, table + off, &lo) || rd64(dev, t, table + off + 8, &hi))
		return -EFAULT;
	if (lo & E_VALID) {
		*shift = PD0_LO;
		*pte = lo;
		return 0;
	}
	/* the small table wins where both map the address */
	if (!sub_pte(dev, hi, PDE_ADDR_MASK, va, SMALL_SHIFT, pte)) {
		*shift = SMALL_SHIFT;
		return 0;
	}
	if (!sub_pte(dev, lo, PDE_BIG_ADDR_MASK, va, BIG_SHIFT, pte)) {
		*shift = BIG_SHIFT;
		return 0;
	}
	return -EFAULT;
}

int vgsp_mmu_translate(struct vgsp_dev *dev, const struct vgsp_vm *vm,
		       u64 va, struct vgsp_xlate *x)
{
	unsigned int shift;
	u64 e;

	vgsp_inc(&dev->mm->st.mmu_walks);
	if (vm->target == VGSP_MEM_PEER || walk(dev, vm, va, &e, &shift) ||
	    !(e & E_VALID))
		goto fault;
	x->page = 1ULL << shift;
	x->kind = PTE_KIND(e);
	x->ro = PTE_PCF(e) & PTE_PCF_RO;
	switch (E_APERTURE(e)) {
	case 0:
		x->target = VGSP_MEM_VID;
		x->pa = (e & PTE_VID_ADDR_MASK) + (va & (x->page - 1));
		return 0;
	case 1:
		goto fault;		/* peer: no peer GPU exists */
	default:
		x->target = VGSP_MEM_SYS;
		x->pa = (e & PTE_SYS_ADDR_MASK) + (va & (x->page - 1));
		return 0;
	}
fault:
	vgsp_inc(&dev->mm->st.mmu_faults);
	return -EFAULT;
}

static int vm_rw(struct vgsp_dev *dev, const struct vgsp_vm *vm, u64 va,
		 u8 *p, u32 len, bool write)
{
	while (len) {
		struct vgsp_xlate x;
		u32 n;
		int ret;

		if (vgsp_mmu_translate(dev, vm, va, &x))
			return -EFAULT;
		if (write && (x.ro || x.kind == VGSP_PTE_KIND_SMSKED_MESSAGE))
			return -EFAULT;
		n = x.page - (va & (x.page - 1)) < len ?
		    (u32)(x.page - (va & (x.page - 1))) : len;
		ret = write ? vgsp_mem_write(dev, x.target, x.pa, p, n) :
			      vgsp_mem_read(dev, x.target, x.pa, p, n);
		if (ret)
			return -EFAULT;
		va += n;
		p += n;
		len -= n;
	}
	return 0;
}

int vgsp_vm_read(struct vgsp_dev *dev, const struct vgsp_vm *vm, u64 va,
		 void *buf, u32 len)
{
	return vm_rw(dev, vm, va, buf, len, false);
}

int vgsp_vm_write(struct vgsp_dev *dev, const struct vgsp_vm *vm, u64 va,
		  const void *buf, u32 len)
{
	return vm_rw(dev, vm, va, (u8 *)buf, len, true);
}
