/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vfio-user wire format (protocol 0.0, as spoken by QEMU's vfio-user-pci
 * client). Own definitions written from the protocol specification; every
 * struct is naturally aligned, host endian, and its size is asserted so a
 * layout mistake fails the build instead of the guest.
 */
#ifndef VFU_PROTO_H
#define VFU_PROTO_H

#include <stdint.h>

enum vfu_cmd {
	VFU_CMD_VERSION = 1,
	VFU_CMD_DMA_MAP = 2,
	VFU_CMD_DMA_UNMAP = 3,
	VFU_CMD_DEVICE_GET_INFO = 4,
	VFU_CMD_DEVICE_GET_REGION_INFO = 5,
	VFU_CMD_DEVICE_GET_REGION_IO_FDS = 6,
	VFU_CMD_DEVICE_GET_IRQ_INFO = 7,
	VFU_CMD_DEVICE_SET_IRQS = 8,
	VFU_CMD_REGION_READ = 9,
	VFU_CMD_REGION_WRITE = 10,
	VFU_CMD_DMA_READ = 11,
	VFU_CMD_DMA_WRITE = 12,
	VFU_CMD_DEVICE_RESET = 13,
	VFU_CMD_DIRTY_PAGES = 14,
	VFU_CMD_REGION_WRITE_MULTI = 15,
	VFU_CMD_DEVICE_FEATURE = 16,
	VFU_CMD_MAX = 19,
};

/* Header flags. */
#define VFU_F_TYPE_MASK		0xfu
#define VFU_F_TYPE_COMMAND	0x0u
#define VFU_F_TYPE_REPLY	0x1u
#define VFU_F_NO_REPLY		0x10u
#define VFU_F_ERROR		0x20u

struct vfu_hdr {
	uint16_t id;
	uint16_t cmd;
	uint32_t size;		/* whole message, header included */
	uint32_t flags;
	uint32_t error;		/* errno in an error reply */
};

struct vfu_version {
	uint16_t major;
	uint16_t minor;
	/* followed by an optional NUL-terminated JSON object */
};

#define VFU_DMA_F_READ		0x1u
#define VFU_DMA_F_WRITE		0x2u
struct vfu_dma_map {
	uint32_t argsz;
	uint32_t flags;
	uint64_t offset;	/* into the passed fd */
	uint64_t iova;
	uint64_t size;
};

#define VFU_UNMAP_F_DIRTY_BITMAP 0x1u
#define VFU_UNMAP_F_ALL		0x2u
struct vfu_dma_unmap {
	uint32_t argsz;
	uint32_t flags;
	uint64_t iova;
	uint64_t size;
};

#define VFU_DEV_F_RESET		0x1u
#define VFU_DEV_F_PCI		0x2u
struct vfu_device_info {
	uint32_t argsz;
	uint32_t flags;
	uint32_t num_regions;
	uint32_t num_irqs;
};

#define VFU_REGION_F_READ	0x1u
#define VFU_REGION_F_WRITE	0x2u
#define VFU_REGION_F_MMAP	0x4u
#define VFU_REGION_F_CAPS	0x8u
struct vfu_region_info {
	uint32_t argsz;
	uint32_t flags;
	uint32_t index;
	uint32_t cap_offset;
	uint64_t size;
	uint64_t offset;
};

#define VFU_IRQ_INFO_EVENTFD	0x1u
#define VFU_IRQ_INFO_MASKABLE	0x2u
#define VFU_IRQ_INFO_AUTOMASKED	0x4u
#define VFU_IRQ_INFO_NORESIZE	0x8u
struct vfu_irq_info {
	uint32_t argsz;
	uint32_t flags;
	uint32_t index;
	uint32_t count;
};

#define VFU_IRQ_SET_DATA_NONE		0x01u
#define VFU_IRQ_SET_DATA_BOOL		0x02u
#define VFU_IRQ_SET_DATA_EVENTFD	0x04u
#define VFU_IRQ_SET_DATA_MASK		0x07u
#define VFU_IRQ_SET_ACTION_MASK		0x08u
#define VFU_IRQ_SET_ACTION_UNMASK	0x10u
#define VFU_IRQ_SET_ACTION_TRIGGER	0x20u
#define VFU_IRQ_SET_ACTION_MASK_ALL	0x38u
struct vfu_irq_set {
	uint32_t argsz;
	uint32_t flags;
	uint32_t index;
	uint32_t start;
	uint32_t count;
	/* DATA_BOOL: count bytes follow */
};

struct vfu_region_rw {
	uint64_t offset;
	uint32_t region;
	uint32_t count;
	/* REGION_WRITE request / REGION_READ reply: count bytes follow */
};

#define VFU_MULTI_DATA	8
#define VFU_MULTI_MAX	200
struct vfu_wr_one {
	uint64_t offset;
	uint32_t region;
	uint32_t count;
	uint8_t data[VFU_MULTI_DATA];
};

/* VFIO PCI region and irq indices (same numbering as <linux/vfio.h>). */
enum {
	VFU_PCI_BAR0 = 0, VFU_PCI_BAR5 = 5, VFU_PCI_ROM = 6,
	VFU_PCI_CONFIG = 7, VFU_PCI_VGA = 8, VFU_PCI_NUM_REGIONS = 9,
};
enum {
	VFU_IRQ_INTX = 0, VFU_IRQ_MSI = 1, VFU_IRQ_MSIX = 2, VFU_IRQ_ERR = 3,
	VFU_IRQ_REQ = 4, VFU_NUM_IRQS = 5,
};

_Static_assert(sizeof(struct vfu_hdr) == 16, "hdr");
_Static_assert(sizeof(struct vfu_version) == 4, "version");
_Static_assert(sizeof(struct vfu_dma_map) == 32, "dma_map");
_Static_assert(sizeof(struct vfu_dma_unmap) == 24, "dma_unmap");
_Static_assert(sizeof(struct vfu_device_info) == 16, "device_info");
_Static_assert(sizeof(struct vfu_region_info) == 32, "region_info");
_Static_assert(sizeof(struct vfu_irq_info) == 16, "irq_info");
_Static_assert(sizeof(struct vfu_irq_set) == 20, "irq_set");
_Static_assert(sizeof(struct vfu_region_rw) == 16, "region_rw");
_Static_assert(sizeof(struct vfu_wr_one) == 24, "wr_one");

#endif /* VFU_PROTO_H */
