// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Emulated PCI config space (kernel/core/pci_cfg.c) against the fixed
 * layout in docs/interfaces.md "Config space".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "pci_cfg.h"
#include "profiles.h"
#include "os_user.h"

/* Standard PCI offsets (PCI Local Bus / PCIe base spec). */
#define PCI_COMMAND		0x04
#define PCI_STATUS		0x06
#define PCI_BAR(n)		(0x10 + 4 * (n))
#define PCI_ROM			0x30
#define PCI_CAP_PTR		0x34
#define PCI_INT_LINE		0x3c
#define PCI_INT_PIN		0x3d

struct fix {
	struct vgsp_cfg cfg;
	const struct vgsp_profile *p;
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));

	vgsp_os_user_init();
	assert_non_null(f);
	f->p = vgsp_profile_find("h100-10g");
	assert_non_null(f->p);
	vgsp_cfg_init(&f->cfg, f->p, 8);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* Little-endian reads of 1/2/4 bytes, asserting the access succeeds. */
static u32 rd(const struct vgsp_cfg *c, u32 off, u32 len)
{
	u8 b[4] = { 0 };

	assert_int_equal(vgsp_cfg_read(c, off, b, len), 0);
	return b[0] | (b[1] << 8) | (b[2] << 16) | ((u32)b[3] << 24);
}

static void wr(struct vgsp_cfg *c, u32 off, u32 v, u32 len)
{
	u8 b[4] = { v, v >> 8, v >> 16, v >> 24 };

	assert_int_equal(vgsp_cfg_write(c, off, b, len), 0);
}

static void test_identity(void **state)
{
	struct fix *f = *state;

	assert_int_equal(rd(&f->cfg, 0x00, 2), 0x10de);
	assert_int_equal(rd(&f->cfg, 0x02, 2), 0x2330);
	assert_int_equal(rd(&f->cfg, 0x00, 4), 0x233010de);
	assert_int_equal(rd(&f->cfg, 0x08, 1), 0xa1);		/* revision */
	assert_int_equal(rd(&f->cfg, 0x08, 4), 0x030200a1);	/* class 0x030200 */
	assert_int_equal(rd(&f->cfg, 0x0e, 1), 0x00);		/* header type 0 */
	assert_int_equal(rd(&f->cfg, 0x2c, 2), 0x10de);
	assert_int_equal(rd(&f->cfg, 0x2e, 2), 0x16c1);
	assert_int_equal(rd(&f->cfg, PCI_INT_LINE, 1), 0xff);
	assert_int_equal(rd(&f->cfg, PCI_INT_PIN, 1), 0x01);	/* INTA */
	assert_int_equal(rd(&f->cfg, PCI_COMMAND, 2), 0);
	/* Capability list bit in status. */
	assert_int_equal(rd(&f->cfg, PCI_STATUS, 2), 0x0010);
	assert_int_equal(rd(&f->cfg, PCI_ROM, 4), 0);
	/* No extended capabilities: header dword at 0x100 is 0. */
	assert_int_equal(rd(&f->cfg, 0x100, 4), 0);
}

static void test_cap_chain(void **state)
{
	static const struct { u8 off, id; } want[] = {
		{ 0x40, 0x01 },	/* PM */
		{ 0x48, 0x05 },	/* MSI */
		{ 0x60, 0x10 },	/* PCI Express: LNKCAP at 0x6c, as GH100 */
		{ 0xb0, 0x11 },	/* MSI-X */
	};
	struct fix *f = *state;
	u32 ptr = rd(&f->cfg, PCI_CAP_PTR, 1);
	unsigned int i;

	for (i = 0; i < VGSP_ARRAY_SIZE(want); i++) {
		assert_int_equal(ptr, want[i].off);
		assert_int_equal(rd(&f->cfg, ptr, 1), want[i].id);
		ptr = rd(&f->cfg, ptr + 1, 1);
	}
	assert_int_equal(ptr, 0);	/* end of chain */
}

static void test_pcie_cap(void **state)
{
	struct fix *f = *state;
	u32 lnkcap = rd(&f->cfg, VGSP_CAP_PCIE + 12, 4);
	u32 lnksta = rd(&f->cfg, VGSP_CAP_PCIE + 18, 2);
	u32 flags = rd(&f->cfg, VGSP_CAP_PCIE + 2, 2);

	assert_int_equal(flags & 0xf, 2);		/* capability version 2 */
	assert_int_equal((flags >> 4) & 0xf, 0);	/* PCIe endpoint */
	assert_int_equal(lnkcap & 0xf, 5);		/* Gen5 */
	assert_int_equal((lnkcap >> 4) & 0x3f, 16);	/* x16 */
	assert_int_equal(lnksta & 0xf, 5);
	assert_int_equal((lnksta >> 4) & 0x3f, 16);
	/* Device control is writable. */
	wr(&f->cfg, VGSP_CAP_PCIE + 8, 0x0010, 2);
	assert_int_equal(rd(&f->cfg, VGSP_CAP_PCIE + 8, 2), 0x0010);
	/* Link capabilities are not. */
	wr(&f->cfg, VGSP_CAP_PCIE + 12, 0, 4);
	assert_int_equal(rd(&f->cfg, VGSP_CAP_PCIE + 12, 4), lnkcap);
}

/* Size a BAR dword: write all-ones, read back, restore 0. */
static u32 size_bar(struct vgsp_cfg *c, unsigned int slot)
{
	u32 v;

	wr(c, PCI_BAR(slot), 0xffffffff, 4);
	v = rd(c, PCI_BAR(slot), 4);
	wr(c, PCI_BAR(slot), 0, 4);
	return v;
}

static void check_bars(struct vgsp_cfg *c, const struct vgsp_profile *p)
{
	u64 b1 = p->bar1_size;

	/* Before sizing: type bits only. */
	assert_int_equal(rd(c, PCI_BAR(0), 4), 0x0);	/* 32-bit, non-prefetch */
	assert_int_equal(rd(c, PCI_BAR(1), 4), 0xc);	/* 64-bit, prefetch */
	assert_int_equal(rd(c, PCI_BAR(3), 4), 0xc);

	assert_int_equal(size_bar(c, 0), 0xff000000);	/* 16 MiB */
	assert_int_equal(size_bar(c, 1), (u32)~(b1 - 1) | 0xc);
	assert_int_equal(size_bar(c, 2), (u32)(~(b1 - 1) >> 32));
	assert_int_equal(size_bar(c, 3), 0xfe00000c);	/* 32 MiB */
	assert_int_equal(size_bar(c, 4), 0xffffffff);
	assert_int_equal(size_bar(c, 5), 0);		/* unused */
	assert_int_equal(c->bar[0].size, 16 * VGSP_MIB);
	assert_int_equal(c->bar[1].size, b1);
	assert_int_equal(c->bar[2].size, 0);
	assert_int_equal(c->bar[3].size, 32 * VGSP_MIB);
	assert_int_equal(c->bar[4].size, 0);
	assert_int_equal(c->bar[5].size, 0);
}

static void test_bar_sizing_256m(void **state)
{
	struct fix *f = *state;

	/* The contract's example: 256 MiB BAR1. */
	assert_int_equal(f->p->bar1_size, 256 * VGSP_MIB);
	assert_int_equal(size_bar(&f->cfg, 1), 0xf000000c);
	assert_int_equal(size_bar(&f->cfg, 2), 0xffffffff);
	check_bars(&f->cfg, f->p);
}

static void test_bar_sizing_all_profiles(void **state)
{
	struct fix *f = *state;
	unsigned int i;

	for (i = 0; i < vgsp_nprofiles; i++) {
		vgsp_cfg_init(&f->cfg, &vgsp_profiles[i], 8);
		check_bars(&f->cfg, &vgsp_profiles[i]);
	}
}

static void test_bar_address(void **state)
{
	struct fix *f = *state;

	/* Address bits stick, flag bits and sub-size bits do not. */
	wr(&f->cfg, PCI_BAR(0), 0xfd123456, 4);
	assert_int_equal(rd(&f->cfg, PCI_BAR(0), 4), 0xfd000000);
	wr(&f->cfg, PCI_BAR(1), 0x30000003, 4);
	assert_int_equal(rd(&f->cfg, PCI_BAR(1), 4), 0x3000000c);
	wr(&f->cfg, PCI_BAR(2), 0x00000038, 4);
	assert_int_equal(rd(&f->cfg, PCI_BAR(2), 4), 0x00000038);
	wr(&f->cfg, PCI_BAR(5), 0xffffffff, 4);
	assert_int_equal(rd(&f->cfg, PCI_BAR(5), 4), 0);
	wr(&f->cfg, PCI_ROM, 0xffffffff, 4);
	assert_int_equal(rd(&f->cfg, PCI_ROM, 4), 0);
}

static void test_command(void **state)
{
	struct fix *f = *state;

	/* IO MEM MASTER PARITY SERR INTX_DISABLE = 0x0547 stick, nothing else. */
	wr(&f->cfg, PCI_COMMAND, 0xffff, 2);
	assert_int_equal(rd(&f->cfg, PCI_COMMAND, 2), 0x0547);
	assert_int_equal(vgsp_cfg_command(&f->cfg), 0x0547);
	wr(&f->cfg, PCI_COMMAND, 0x0002, 2);
	assert_int_equal(vgsp_cfg_command(&f->cfg), 0x0002);
	/* A byte write to the high byte touches only SERR and INTX_DISABLE. */
	wr(&f->cfg, PCI_COMMAND + 1, 0xff, 1);
	assert_int_equal(vgsp_cfg_command(&f->cfg), 0x0502);
	/* A dword write of command+status: status ones do not stick. */
	wr(&f->cfg, PCI_COMMAND, 0xffff0006, 4);
	assert_int_equal(rd(&f->cfg, PCI_COMMAND, 4), 0x00100006);
}

static void test_status_w1c(void **state)
{
	struct fix *f = *state;

	/* Device side latches error bits (the model never sets them itself). */
	f->cfg.data[PCI_STATUS + 1] |= 0xf9;
	assert_int_equal(rd(&f->cfg, PCI_STATUS, 2), 0xf910);
	/* 0s keep them. */
	wr(&f->cfg, PCI_STATUS, 0x0000, 2);
	assert_int_equal(rd(&f->cfg, PCI_STATUS, 2), 0xf910);
	/* 1s clear only the bits written; the cap-list bit is read-only. */
	wr(&f->cfg, PCI_STATUS, 0x0110, 2);
	assert_int_equal(rd(&f->cfg, PCI_STATUS, 2), 0xf810);
	wr(&f->cfg, PCI_STATUS, 0xffff, 2);
	assert_int_equal(rd(&f->cfg, PCI_STATUS, 2), 0x0010);
	/* Writing a command value leaves status alone. */
	f->cfg.data[PCI_STATUS + 1] |= 0x80;
	wr(&f->cfg, PCI_COMMAND, 0x0002, 2);
	assert_int_equal(rd(&f->cfg, PCI_STATUS, 2), 0x8010);
}

static void test_readonly_fields(void **state)
{
	/* IDs, class, header type, cap pointers/IDs, MSI-X BIR/offsets. */
	static const struct { u32 off, len; } ro[] = {
		{ 0x00, 4 }, { 0x08, 4 }, { 0x0c, 4 }, { 0x2c, 4 },
		{ PCI_CAP_PTR, 4 }, { VGSP_CAP_PM, 4 }, { VGSP_CAP_MSI, 2 },
		{ VGSP_CAP_PCIE, 4 }, { VGSP_CAP_MSIX, 2 },
		{ VGSP_CAP_MSIX + 4, 4 }, { VGSP_CAP_MSIX + 8, 4 },
		{ 0x100, 4 },
	};
	struct fix *f = *state;
	unsigned int i;

	for (i = 0; i < VGSP_ARRAY_SIZE(ro); i++) {
		u32 before = rd(&f->cfg, ro[i].off, ro[i].len);

		wr(&f->cfg, ro[i].off, 0xffffffff, ro[i].len);
		assert_int_equal(rd(&f->cfg, ro[i].off, ro[i].len), before);
		wr(&f->cfg, ro[i].off, 0, ro[i].len);
		assert_int_equal(rd(&f->cfg, ro[i].off, ro[i].len), before);
	}
	/* Interrupt line is RW, pin is not. */
	wr(&f->cfg, PCI_INT_LINE, 0x010b, 2);
	assert_int_equal(rd(&f->cfg, PCI_INT_LINE, 2), 0x010b);
	wr(&f->cfg, PCI_INT_LINE, 0x0000, 2);
	assert_int_equal(rd(&f->cfg, PCI_INT_LINE, 2), 0x0100);
}

static void test_pm(void **state)
{
	struct fix *f = *state;
	u32 pmcsr = VGSP_CAP_PM + 4;
	u32 fixed = rd(&f->cfg, pmcsr, 2) & ~0x3u;

	/* Power-on state is D0. */
	assert_int_equal(rd(&f->cfg, pmcsr, 2) & 0x3, 0);
	/* State field (bits 1:0) writable, everything else fixed. */
	wr(&f->cfg, pmcsr, 0xffff, 2);
	assert_int_equal(rd(&f->cfg, pmcsr, 2), fixed | 0x3);
	wr(&f->cfg, pmcsr, 0x0000, 2);
	assert_int_equal(rd(&f->cfg, pmcsr, 2), fixed);
}

static void test_msi(void **state)
{
	struct fix *f = *state;
	u32 ctl = VGSP_CAP_MSI + 2;
	u32 c0 = rd(&f->cfg, ctl, 2);

	assert_int_equal(c0 & 0x0080, 0x0080);		/* 64-bit address */
	assert_int_equal((c0 >> 1) & 0x7, 0);		/* 1 vector */
	assert_false(vgsp_cfg_msi_enabled(&f->cfg));
	wr(&f->cfg, ctl, 0xffff, 2);
	assert_int_equal(rd(&f->cfg, ctl, 2), c0 | 1);
	assert_true(vgsp_cfg_msi_enabled(&f->cfg));
	wr(&f->cfg, ctl, 0, 2);
	assert_false(vgsp_cfg_msi_enabled(&f->cfg));
	/* Address (dword aligned), upper address, data. */
	wr(&f->cfg, VGSP_CAP_MSI + 4, 0xfee01003, 4);
	assert_int_equal(rd(&f->cfg, VGSP_CAP_MSI + 4, 4), 0xfee01000);
	wr(&f->cfg, VGSP_CAP_MSI + 8, 0x12345678, 4);
	assert_int_equal(rd(&f->cfg, VGSP_CAP_MSI + 8, 4), 0x12345678);
	wr(&f->cfg, VGSP_CAP_MSI + 12, 0x4041, 2);
	assert_int_equal(rd(&f->cfg, VGSP_CAP_MSI + 12, 2), 0x4041);
}

static void test_msix(void **state)
{
	struct fix *f = *state;
	u32 ctl = VGSP_CAP_MSIX + 2;
	unsigned int n;

	assert_int_equal(rd(&f->cfg, ctl, 2), 8 - 1);
	/* Table and PBA in BAR0 (BIR 0) at the documented offsets. */
	assert_int_equal(rd(&f->cfg, VGSP_CAP_MSIX + 4, 4), 0xb90000);
	assert_int_equal(rd(&f->cfg, VGSP_CAP_MSIX + 8, 4), 0xba0000);
	assert_false(vgsp_cfg_msix_enabled(&f->cfg));
	/* Enable + function mask writable, table size not. */
	wr(&f->cfg, ctl, 0xffff, 2);
	assert_int_equal(rd(&f->cfg, ctl, 2), 0xc000 | 7);
	assert_true(vgsp_cfg_msix_enabled(&f->cfg));
	wr(&f->cfg, ctl, 0x4000, 2);
	assert_int_equal(rd(&f->cfg, ctl, 2), 0x4000 | 7);
	assert_false(vgsp_cfg_msix_enabled(&f->cfg));

	for (n = 1; n <= VGSP_MSIX_MAX; n++) {
		vgsp_cfg_init(&f->cfg, f->p, n);
		assert_int_equal(f->cfg.msix_vectors, n);
		assert_int_equal(rd(&f->cfg, ctl, 2), n - 1);
	}
	/* Out-of-range vector counts are clamped to 1..64. */
	vgsp_cfg_init(&f->cfg, f->p, 0);
	assert_int_equal(rd(&f->cfg, ctl, 2), 0);
	vgsp_cfg_init(&f->cfg, f->p, VGSP_MSIX_MAX + 1);
	assert_int_equal(rd(&f->cfg, ctl, 2), VGSP_MSIX_MAX - 1);
}

static void test_out_of_range(void **state)
{
	struct fix *f = *state;
	u8 buf[8] = { 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a };
	u8 before[VGSP_CFG_SIZE];

	memcpy(before, f->cfg.data, sizeof(before));
	assert_int_equal(vgsp_cfg_read(&f->cfg, 4096, buf, 1), -EINVAL);
	assert_int_equal(vgsp_cfg_read(&f->cfg, 4095, buf, 2), -EINVAL);
	assert_int_equal(vgsp_cfg_read(&f->cfg, 4092, buf, 8), -EINVAL);
	assert_int_equal(vgsp_cfg_read(&f->cfg, 0, buf, 0), -EINVAL);
	assert_int_equal(vgsp_cfg_read(&f->cfg, 0xffffffff, buf, 2), -EINVAL);
	assert_int_equal(buf[0], 0x5a);		/* nothing copied out */
	assert_int_equal(vgsp_cfg_write(&f->cfg, 4096, buf, 1), -EINVAL);
	assert_int_equal(vgsp_cfg_write(&f->cfg, 4095, buf, 2), -EINVAL);
	assert_int_equal(vgsp_cfg_write(&f->cfg, 0, buf, 0), -EINVAL);
	assert_int_equal(vgsp_cfg_write(&f->cfg, 0xfffffffe, buf, 4), -EINVAL);
	/* A rejected write is not partially applied. */
	assert_memory_equal(before, f->cfg.data, sizeof(before));
	/* The last byte and the last dword are inside. */
	assert_int_equal(vgsp_cfg_read(&f->cfg, 4095, buf, 1), 0);
	assert_int_equal(vgsp_cfg_read(&f->cfg, 4092, buf, 4), 0);
}

static void test_reset(void **state)
{
	struct fix *f = *state;
	u8 pristine[VGSP_CFG_SIZE];

	memcpy(pristine, f->cfg.data, sizeof(pristine));
	wr(&f->cfg, PCI_COMMAND, 0x0407, 2);
	wr(&f->cfg, PCI_BAR(0), 0xfd000000, 4);
	wr(&f->cfg, PCI_BAR(1), 0xffffffff, 4);
	wr(&f->cfg, PCI_BAR(2), 0x00000020, 4);
	wr(&f->cfg, PCI_INT_LINE, 0x0b, 1);
	wr(&f->cfg, VGSP_CAP_MSI + 2, 1, 2);
	wr(&f->cfg, VGSP_CAP_MSIX + 2, 0xc000, 2);
	wr(&f->cfg, VGSP_CAP_PM + 4, 3, 2);
	assert_memory_not_equal(pristine, f->cfg.data, sizeof(pristine));
	vgsp_cfg_reset(&f->cfg, f->p);
	assert_memory_equal(pristine, f->cfg.data, sizeof(pristine));
	assert_false(vgsp_cfg_msi_enabled(&f->cfg));
	assert_false(vgsp_cfg_msix_enabled(&f->cfg));
	/* The MSI-X table size survives reset. */
	assert_int_equal(rd(&f->cfg, VGSP_CAP_MSIX + 2, 2), 7);
	/* Masks are rebuilt too: sizing still works after reset. */
	assert_int_equal(size_bar(&f->cfg, 0), 0xff000000);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_identity),
		T(test_cap_chain),
		T(test_pcie_cap),
		T(test_bar_sizing_256m),
		T(test_bar_sizing_all_profiles),
		T(test_bar_address),
		T(test_command),
		T(test_status_w1c),
		T(test_readonly_fields),
		T(test_pm),
		T(test_msi),
		T(test_msix),
		T(test_out_of_range),
		T(test_reset),
	};
#undef T

	return cmocka_run_group_tests_name("pci_cfg", tests, NULL, NULL);
}
