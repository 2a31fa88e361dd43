/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * PCI config space through VFIO region 7: identity, the fixed capability
 * chain, writable vs read-only fields and BAR sizing (docs/interfaces.md).
 */
#include <stdio.h>
#include <string.h>
#include "rig.h"

#define CFG VFIO_PCI_CONFIG_REGION_INDEX

static void t_identity(struct vdev *d)
{
	uint64_t q = 0;
	uint8_t bulk[CFG_SIZE];
	int r;

	check(cfg32(d, 0x00) == (VGSP_DEVICE << 16 | VGSP_VENDOR), "cfg.id",
	      "0x%08x", cfg32(d, 0x00));
	check(cfg32(d, 0x08) == VGSP_CLASSREV, "cfg.class_rev", "0x%08x want 0x%08x",
	      cfg32(d, 0x08), VGSP_CLASSREV);
	check(cfg32(d, 0x2c) == VGSP_SUBSYS, "cfg.subsystem", "0x%08x", cfg32(d, 0x2c));
	check(cfg16(d, 0x06) & 0x10, "cfg.status_caplist", "status 0x%04x", cfg16(d, 0x06));
	check(cfg8(d, 0x34) == CAP_PM, "cfg.cap_ptr", "0x%02x", cfg8(d, 0x34));
	check(cfg8(d, 0x3d) == 1, "cfg.int_pin", "pin %u, want 1 (INTA)", cfg8(d, 0x3d));
	check(cfg8(d, 0x0e) == 0, "cfg.header_type", "0x%02x", cfg8(d, 0x0e));
	/* Sub-dword and 8-byte reads see the same bytes. */
	check(cfg8(d, 0x00) == 0xde && cfg8(d, 0x03) == 0x23 && cfg16(d, 0x02) == VGSP_DEVICE,
	      "cfg.read_sizes_1_2", "byte0 0x%02x byte3 0x%02x word2 0x%04x",
	      cfg8(d, 0), cfg8(d, 3), cfg16(d, 2));
	r = reg_rd(d, CFG, 0x08, &q, 8);
	check(!r && q == ((uint64_t)cfg32(d, 0x0c) << 32 | cfg32(d, 0x08)), "cfg.read_size_8",
	      "r=%d q=0x%016llx", r, (unsigned long long)q);
	/* QEMU's vfio-pci reads the whole config space with one pread. */
	r = reg_rd(d, CFG, 0, bulk, sizeof(bulk));
	check(!r && !memcmp(bulk, &(uint32_t){ cfg32(d, 0) }, 4) &&
	      bulk[0x34] == CAP_PM && bulk[CAP_MSIX] == 0x11, "cfg.bulk_read_4096",
	      "pread of 4096 bytes: r=%d (QEMU vfio-pci needs this at realize)", r);
}

static void t_caps(struct vdev *d)
{
	static const struct { uint8_t at, id, next; } chain[] = {
		{ CAP_PM, 0x01, CAP_MSI }, { CAP_MSI, 0x05, CAP_PCIE },
		{ CAP_PCIE, 0x10, CAP_MSIX }, { CAP_MSIX, 0x11, 0x00 },
	};
	long nmsix = read_long("/sys/module/vgsp/parameters/msix_vectors");
	uint16_t msi = cfg16(d, CAP_MSI + 2), pcie = cfg16(d, CAP_PCIE + 2);
	uint32_t link = cfg32(d, CAP_PCIE + 0x0c);
	uint16_t mx = cfg16(d, CAP_MSIX + 2);
	char name[48];

	for (size_t i = 0; i < sizeof(chain) / sizeof(chain[0]); i++) {
		uint16_t h = cfg16(d, chain[i].at);

		snprintf(name, sizeof(name), "cfg.cap_0x%02x", chain[i].at);
		check((h & 0xff) == chain[i].id && (h >> 8) == chain[i].next, name,
		      "id 0x%02x next 0x%02x, want 0x%02x 0x%02x", h & 0xff, h >> 8,
		      chain[i].id, chain[i].next);
	}
	check((msi & 0x80) && !(msi & 0x0e) && !(msi & 1), "cfg.msi_control",
	      "0x%04x: want 64-bit, 1 vector, disabled", msi);
	check((pcie & 0xf) == 2 && ((pcie >> 4) & 0xf) == 0, "cfg.pcie_v2_endpoint",
	      "flags 0x%04x", pcie);
	check((link & 0xf) == 5 && ((link >> 4) & 0x3f) == 16, "cfg.pcie_link_gen5_x16",
	      "link cap 0x%08x", link);
	check((mx & 0x7ff) == (uint16_t)(nmsix - 1) && !(mx & 0xc000), "cfg.msix_control",
	      "0x%04x with msix_vectors=%ld", mx, nmsix);
	check(cfg32(d, CAP_MSIX + 4) == MSIX_TABLE_OFF && cfg32(d, CAP_MSIX + 8) == MSIX_PBA_OFF,
	      "cfg.msix_table_pba", "table 0x%08x pba 0x%08x", cfg32(d, CAP_MSIX + 4),
	      cfg32(d, CAP_MSIX + 8));
	check(cfg32(d, 0x100) == 0, "cfg.no_ext_caps", "0x%08x", cfg32(d, 0x100));
}

/* All-ones sizing write, read back, restore 0: the BAR's size mask. */
static uint32_t size_probe(struct vdev *d, uint32_t off)
{
	uint32_t v;

	cfg_w32(d, off, 0xffffffffu);
	v = cfg32(d, off);
	cfg_w32(d, off, 0);
	return v;
}

static void t_bar_sizing(struct vdev *d)
{
	char type[64] = "";
	uint64_t b1;
	uint32_t v, want;

	mdev_type_of(d->uuid, type, sizeof(type));
	b1 = profile_bar1_size(type);
	v = size_probe(d, 0x10);
	check(v == 0xff000000u, "cfg.bar0_sizing", "0x%08x want 0xff000000", v);
	want = (uint32_t)(~(b1 - 1) & 0xfffffff0u) | 0xc;
	v = size_probe(d, 0x14);
	check(v == want, "cfg.bar1_sizing_lo", "0x%08x want 0x%08x", v, want);
	v = size_probe(d, 0x18);
	check(v == 0xffffffffu, "cfg.bar1_sizing_hi", "0x%08x", v);
	v = size_probe(d, 0x1c);
	check(v == 0xfe00000cu, "cfg.bar3_sizing_lo", "0x%08x want 0xfe00000c", v);
	v = size_probe(d, 0x20);
	check(v == 0xffffffffu, "cfg.bar3_sizing_hi", "0x%08x", v);
	v = size_probe(d, 0x24);
	check(v == 0, "cfg.bar5_absent", "0x%08x", v);
	v = size_probe(d, 0x30);
	check(v == 0, "cfg.rom_absent", "0x%08x", v);

	/* Programmed addresses keep only the address bits of the BAR size. */
	cfg_w32(d, 0x10, 0xfd123456u);
	check(cfg32(d, 0x10) == 0xfd000000u, "cfg.bar0_address", "0x%08x", cfg32(d, 0x10));
	cfg_w32(d, 0x14, 0xe0000000u);
	cfg_w32(d, 0x18, 0x1);
	want = (uint32_t)(0xe0000000ull & ~(b1 - 1)) | 0xc;
	check(cfg32(d, 0x14) == want && cfg32(d, 0x18) == 1, "cfg.bar1_address",
	      "lo 0x%08x hi 0x%08x want 0x%08x 1", cfg32(d, 0x14), cfg32(d, 0x18), want);
	cfg_w32(d, 0x10, 0);
	cfg_w32(d, 0x14, 0);
	cfg_w32(d, 0x18, 0);
}

static void t_writes(struct vdev *d)
{
	uint32_t id = cfg32(d, 0), cr = cfg32(d, 0x08), ss = cfg32(d, 0x2c);
	uint16_t st = cfg16(d, 0x06), mx = cfg16(d, CAP_MSIX + 2);
	int r;

	r = cfg_w16(d, 0x04, 0xffff);
	check(!r && cfg16(d, 0x04) == 0x0547, "cfg.command_mask",
	      "r=%d command 0x%04x after writing 0xffff, want 0x0547", r, cfg16(d, 0x04));
	cfg_w16(d, 0x04, 0x0006);
	check(cfg16(d, 0x04) == 0x0006, "cfg.command_mem_master", "0x%04x", cfg16(d, 0x04));
	cfg_w16(d, 0x04, 0);
	cfg_w16(d, 0x06, 0xffff);
	check(cfg16(d, 0x06) == st, "cfg.status_w1c", "0x%04x was 0x%04x", cfg16(d, 0x06), st);

	/* Read-only fields: the write succeeds and changes nothing. */
	r = cfg_w32(d, 0x00, 0x12345678) | cfg_w32(d, 0x08, 0) | cfg_w32(d, 0x2c, 0) |
	    cfg_w8(d, 0x34, 0x40) | cfg_w8(d, 0x3d, 4) | cfg_w32(d, CAP_MSIX + 4, 0);
	check(!r && cfg32(d, 0) == id && cfg32(d, 0x08) == cr && cfg32(d, 0x2c) == ss &&
	      cfg8(d, 0x34) == CAP_PM && cfg8(d, 0x3d) == 1 &&
	      cfg32(d, CAP_MSIX + 4) == MSIX_TABLE_OFF, "cfg.readonly_fields",
	      "r=%d id 0x%08x class 0x%08x subsys 0x%08x cap 0x%02x pin %u", r, cfg32(d, 0),
	      cfg32(d, 0x08), cfg32(d, 0x2c), cfg8(d, 0x34), cfg8(d, 0x3d));

	cfg_w8(d, 0x3c, 0x0b);
	check(cfg8(d, 0x3c) == 0x0b, "cfg.int_line_rw", "0x%02x", cfg8(d, 0x3c));

	cfg_w32(d, CAP_MSI + 4, 0xfee01000u);
	cfg_w32(d, CAP_MSI + 8, 0);
	cfg_w16(d, CAP_MSI + 12, 0x4041);
	cfg_w16(d, CAP_MSI + 2, (uint16_t)(cfg16(d, CAP_MSI + 2) | 1));
	check(cfg32(d, CAP_MSI + 4) == 0xfee01000u && cfg16(d, CAP_MSI + 12) == 0x4041 &&
	      (cfg16(d, CAP_MSI + 2) & 1), "cfg.msi_rw",
	      "addr 0x%08x data 0x%04x ctl 0x%04x", cfg32(d, CAP_MSI + 4),
	      cfg16(d, CAP_MSI + 12), cfg16(d, CAP_MSI + 2));
	cfg_w16(d, CAP_MSI + 2, (uint16_t)(cfg16(d, CAP_MSI + 2) & ~1));

	cfg_w16(d, CAP_MSIX + 2, 0xffff);
	check(cfg16(d, CAP_MSIX + 2) == (mx | 0xc000), "cfg.msix_enable_mask_rw",
	      "0x%04x after 0xffff, was 0x%04x", cfg16(d, CAP_MSIX + 2), mx);
	cfg_w16(d, CAP_MSIX + 2, 0);
	check(cfg16(d, CAP_MSIX + 2) == mx, "cfg.msix_disable", "0x%04x", cfg16(d, CAP_MSIX + 2));
}

void t_config(struct vdev *d)
{
	t_identity(d);
	t_caps(d);
	t_bar_sizing(d);
	t_writes(d);
}
