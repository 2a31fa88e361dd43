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

	if (va >= VGSP_MMU_VA_END)
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
		if (vm->vid_tables && t != VGSP_MEM_VID)
			return -EFAULT;
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
	if (vm->vid_tables) {	/* a table in system memory: as none */
		if (pde_target(hi) != VGSP_MEM_VID)
			hi = 0;
		if (pde_target(lo) != VGSP_MEM_VID)
			lo = 0;
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

int vgsp_mmu_translate_write(struct vgsp_dev *dev, const struct vgsp_vm *vm,
			     u64 va, struct vgsp_xlate *x)
{
	if (vgsp_mmu_translate(dev, vm, va, x))
		return -EFAULT;
	return x->ro || x->kind == VGSP_PTE_KIND_SMSKED_MESSAGE ? -EFAULT : 0;
}

static int vm_rw(struct vgsp_dev *dev, const struct vgsp_vm *vm, u64 va,
		 u8 *p, u32 len, bool write)
{
	while (len) {
		struct vgsp_xlate x;
		u32 n;
		int ret;

		if (write ? vgsp_mmu_translate_write(dev, vm, va, &x) :
			    vgsp_mmu_translate(dev, vm, va, &x))
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

/* ---- enumeration of every mapping (a mirroring backend's resync) ---- */

#define TABLE_BYTES		4096

struct enum_walk {
	struct vgsp_dev *dev;
	u32 max_tables, ntables;
	u64 lo, end;		/* the VA range asked for */
	vgsp_mmu_leaf_fn fn;
	int (*table)(void *ctx, enum vgsp_mem_target t, u64 pa, u32 len,
		     u64 va, u64 span);
	void *ctx;
	u8 *buf[6];		/* one table per level: PD4..PD0, small PT */
	u8 *big;		/* the big-page table beside the small one */
};

/*
 * A whole table covering [@va, @va + @span) into @b; -E2BIG past the
 * bound, -EFAULT unreadable, or what the table callback returned.
 */
static int enum_read(struct enum_walk *w, u64 pde, u64 mask, u8 *b, u32 len,
		     u64 va, u64 span)
{
	if (++w->ntables > w->max_tables)
		return -E2BIG;
	/*
	 * Told before the read: a tracker that starts watching the table now
	 * sees every write that the read below may have missed.
	 */
	if (w->table) {
		int ret = w->table(w->ctx, pde_target(pde), pde & mask, len,
				   va, span);

		/* keep -EFAULT for "unreadable": the walk skips those */
		if (ret)
			return ret == -EFAULT ? -EIO : ret;
	}
	if (vgsp_mem_read(w->dev, pde_target(pde), pde & mask, b, len)) {
		vgsp_inc(&w->dev->mm->st.mmu_faults);
		return -EFAULT;
	}
	return 0;
}

/* Does [@va, @va + @span) meet the range asked for? */
static bool enum_wanted(const struct enum_walk *w, u64 va, u64 span)
{
	return va < w->end && va + span > w->lo;
}

/* A valid PTE of a @shift page at @va → @fn; peer pages are skipped. */
static int enum_leaf(struct enum_walk *w, u64 va, u64 e, unsigned int shift,
		     u64 sub)
{
	struct vgsp_xlate x;

	x.page = 1ULL << shift;
	x.kind = PTE_KIND(e);
	x.ro = PTE_PCF(e) & PTE_PCF_RO;
	switch (E_APERTURE(e)) {
	case 0:
		x.target = VGSP_MEM_VID;
		x.pa = (e & PTE_VID_ADDR_MASK) + sub;
		break;
	case 1:
		vgsp_inc(&w->dev->mm->st.mmu_faults);
		return 0;
	default:
		x.target = VGSP_MEM_SYS;
		x.pa = (e & PTE_SYS_ADDR_MASK) + sub;
		break;
	}
	return w->fn(w->ctx, va, &x);
}

/* The 2 MiB at @va under one dual PD0 entry. */
static int enum_pd0_entry(struct enum_walk *w, u64 va, u64 lo, u64 hi)
{
	u8 *small = w->buf[5], *big = w->big;
	bool has_small = false, has_big = false;
	unsigned int b, j;
	int ret;

	if (lo & E_VALID)
		return enum_leaf(w, va, lo, PD0_LO, 0);
	if (E_APERTURE(hi)) {
		ret = enum_read(w, hi, PDE_ADDR_MASK, small, TABLE_BYTES, va,
				1ULL << PD0_LO);
		if (ret && ret != -EFAULT)
			return ret;
		has_small = !ret;
	}
	if (E_APERTURE(lo)) {
		ret = enum_read(w, lo, PDE_BIG_ADDR_MASK, big, 32 * PTE_SIZE,
				va, 1ULL << PD0_LO);
		if (ret && ret != -EFAULT)
			return ret;
		has_big = !ret;
	}
	for (b = 0; b < 32; b++) {
		u64 be = has_big ? vgsp_get64(big, b * PTE_SIZE) : 0;
		u64 bva = va + ((u64)b << BIG_SHIFT);
		bool any_small = false;

		for (j = 0; has_small && j < 16; j++)
			if (vgsp_get64(small, (b * 16 + j) * PTE_SIZE) & E_VALID)
				any_small = true;
		if (!any_small) {
			if (be & E_VALID) {
				ret = enum_leaf(w, bva, be, BIG_SHIFT, 0);
				if (ret)
					return ret;
			}
			continue;
		}
		/* the small table wins where both map the address */
		for (j = 0; j < 16; j++) {
			u64 se = vgsp_get64(small, (b * 16 + j) * PTE_SIZE);
			u64 sva = bva + ((u64)j << SMALL_SHIFT);

			if (se & E_VALID)
				ret = enum_leaf(w, sva, se, SMALL_SHIFT, 0);
			else if (be & E_VALID)
				ret = enum_leaf(w, sva, be, SMALL_SHIFT,
						(u64)j << SMALL_SHIFT);
			else
				ret = 0;
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Level @lvl (0 = PD4 .. 3 = PD1, 4 = PD0) of the table now in buf[lvl]. */
static int enum_level(struct enum_walk *w, unsigned int lvl, u64 va_base)
{
	u8 *t = w->buf[lvl];
	unsigned int i, n;
	int ret;

	if (lvl == 4) {
		for (i = 0; i < 256; i++) {
			u64 lo = vgsp_get64(t, i * DUAL_PDE_SIZE);
			u64 hi = vgsp_get64(t, i * DUAL_PDE_SIZE + 8);

			if (!(lo & E_VALID) && !E_APERTURE(lo) && !E_APERTURE(hi))
				continue;
			if (!enum_wanted(w, va_base + ((u64)i << PD0_LO),
					 1ULL << PD0_LO))
				continue;
			ret = enum_pd0_entry(w, va_base + ((u64)i << PD0_LO),
					     lo, hi);
			if (ret)
				return ret;
		}
		return 0;
	}
	n = 1U << (pd[lvl].hi - pd[lvl].lo + 1);
	for (i = 0; i < n; i++) {
		u64 e = vgsp_get64(t, i * PDE_SIZE);
		u64 va = va_base + ((u64)i << pd[lvl].lo);

		if (!enum_wanted(w, va, 1ULL << pd[lvl].lo))
			continue;
		if (e & E_VALID) {
			if (lvl == 3) {		/* only PD1 maps pages */
				ret = enum_leaf(w, va, e, pd[lvl].lo, 0);
				if (ret)
					return ret;
			}
			continue;
		}
		if (!E_APERTURE(e))
			continue;
		ret = enum_read(w, e, PDE_ADDR_MASK, w->buf[lvl + 1],
				TABLE_BYTES, va, 1ULL << pd[lvl].lo);
		if (ret == -EFAULT)
			continue;
		if (!ret)
			ret = enum_level(w, lvl + 1, va);
		if (ret)
			return ret;
	}
	return 0;
}

int vgsp_mmu_walk_range(struct vgsp_dev *dev, const struct vgsp_vm *vm,
			const struct vgsp_mmu_walk *req)
{
	struct enum_walk w = { .dev = dev, .max_tables = req->max_tables,
			       .lo = req->va_lo, .end = req->va_end,
			       .fn = req->leaf, .table = req->table,
			       .ctx = req->ctx };
	unsigned int i;
	int ret = -ENOMEM;

	if (vm->target == VGSP_MEM_PEER)
		return -EFAULT;
	if (w.lo >= w.end || w.end > VGSP_MMU_VA_END ||
	    ((w.lo | w.end) & ((1ULL << PD0_LO) - 1)))
		return -EINVAL;
	for (i = 0; i < VGSP_ARRAY_SIZE(w.buf); i++) {
		w.buf[i] = vgsp_zalloc(TABLE_BYTES);
		if (!w.buf[i])
			goto out;
	}
	w.big = vgsp_zalloc(32 * PTE_SIZE);
	if (!w.big)
		goto out;
	/* the root: PD4, two entries, where the VM says it is */
	ret = ++w.ntables > w.max_tables ? -E2BIG : 0;
	if (!ret && w.table)
		ret = w.table(w.ctx, vm->target, vm->pdb, 2 * PDE_SIZE, 0,
			      VGSP_MMU_VA_END);
	if (!ret && vgsp_mem_read(dev, vm->target, vm->pdb, w.buf[0],
				  2 * PDE_SIZE))
		ret = -EFAULT;
	if (!ret)
		ret = enum_level(&w, 0, 0);
out:
	for (i = 0; i < VGSP_ARRAY_SIZE(w.buf); i++)
		vgsp_free(w.buf[i]);
	vgsp_free(w.big);
	return ret;
}

int vgsp_mmu_for_each(struct vgsp_dev *dev, const struct vgsp_vm *vm,
		      u32 max_tables, vgsp_mmu_leaf_fn fn, void *ctx)
{
	struct vgsp_mmu_walk req = { .va_lo = 0, .va_end = VGSP_MMU_VA_END,
				     .max_tables = max_tables, .leaf = fn,
				     .ctx = ctx };

	return vgsp_mmu_walk_range(dev, vm, &req);
}
