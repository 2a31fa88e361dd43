/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Emulated PCI configuration space of one instance: header, BARs with
 * sizing, command/status semantics and the capability chain (PM, MSI,
 * PCI Express, MSI-X). Writes go through per-byte write and
 * write-1-to-clear masks so read-only fields stay read-only.
 */
#ifndef VGSP_PCI_CFG_H
#define VGSP_PCI_CFG_H

#include "vgsp_types.h"

#define VGSP_CFG_SIZE		4096
#define VGSP_NUM_BARS		6

/*
 * Capability placement: GH100's (dev_xtl_ep_pcfg_gpu.h: MSI header 0x48,
 * PCI Express device/link registers 0x64..0x70, MSI-X header 0xb0). CPU-RM
 * reads the link capabilities at the fixed offset 0x6c (kbifGetBusOptions
 * Addr_GH100), and UVM refuses a GPU whose PCIe speed it cannot decode.
 * Documented in docs/interfaces.md.
 */
#define VGSP_CAP_PM		0x40
#define VGSP_CAP_MSI		0x48
#define VGSP_CAP_PCIE		0x60
#define VGSP_CAP_MSIX		0xb0

#define VGSP_MSIX_MAX		64
#define VGSP_MSIX_TABLE_OFF	0xb90000	/* in BAR0, away from registers */
#define VGSP_MSIX_PBA_OFF	0xba0000

struct vgsp_profile;

struct vgsp_bar {
	u64 size;		/* 0: not implemented */
	bool is64, prefetch;
};

struct vgsp_cfg {
	u8 data[VGSP_CFG_SIZE];
	u8 wmask[VGSP_CFG_SIZE];
	u8 w1c[VGSP_CFG_SIZE];
	struct vgsp_bar bar[VGSP_NUM_BARS];	/* by config BAR slot */
	unsigned int msix_vectors;
};

void vgsp_cfg_init(struct vgsp_cfg *cfg, const struct vgsp_profile *p,
		   unsigned int msix_vectors);
/* Back to power-on values (BAR addresses cleared, MSI/MSI-X disabled). */
void vgsp_cfg_reset(struct vgsp_cfg *cfg, const struct vgsp_profile *p);

/* Any offset/length inside the space (1..8 bytes); -EINVAL otherwise. */
int vgsp_cfg_read(const struct vgsp_cfg *cfg, u32 off, void *buf, u32 len);
int vgsp_cfg_write(struct vgsp_cfg *cfg, u32 off, const void *buf, u32 len);

#define VGSP_CMD_MASTER		0x0004	/* Bus Master Enable */
#define VGSP_CMD_INTX_DISABLE	0x0400

u16 vgsp_cfg_command(const struct vgsp_cfg *cfg);
bool vgsp_cfg_msi_enabled(const struct vgsp_cfg *cfg);
bool vgsp_cfg_msix_enabled(const struct vgsp_cfg *cfg);
/*
 * Command bit 2 (in the register's low byte, config offset 4): the only
 * permission the device has to touch memory. Inline: every guest-memory
 * access asks.
 */
static inline bool vgsp_cfg_bus_master(const struct vgsp_cfg *cfg)
{
	return cfg->data[4] & VGSP_CMD_MASTER;
}
/* MSI-X (not function-masked), MSI, or INTx not disabled. */
bool vgsp_cfg_irq_enabled(const struct vgsp_cfg *cfg);

#endif /* VGSP_PCI_CFG_H */
