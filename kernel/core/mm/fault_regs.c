// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The MMU's fault-buffer and access-counter notify-buffer registers in the
 * VF window (tu102 dev_vm.h, the layout GH100 shares): UVM and CPU-RM
 * program a buffer's address and read its size, GET and PUT. No engine
 * here reports replayable faults or access counts (the sim walks page
 * tables on every access), so PUT stays 0: the buffers are empty, and the
 * GETPTR_CORRUPTED/OVERFLOW bits UVM checks read 0. The access-counter
 * buffer advertises 4096 entries of 32 bytes, which CPU-RM allocates
 * (uvmInitAccessCntrBuffer: SIZE register × NV_ACCESS_COUNTER_NOTIFY_BUF_SIZE).
 */
#include "mm.h"

#define VF_BASE				0xb80000
#define FAULT_BUFFER(i)			(VF_BASE + 0x3000 + 32 * (i))
#define ACCESS_CNTR_CONFIG		(VF_BASE + 0x3100)
#define ACCESS_CNTR_BUFFER_LO		(VF_BASE + 0x3108)
#define ACCESS_CNTR_BUFFER_HI		(VF_BASE + 0x310c)
#define ACCESS_CNTR_BUFFER_SIZE		(VF_BASE + 0x3110)
#define ACCESS_CNTR_BUFFER_GET		(VF_BASE + 0x3114)
#define ACCESS_CNTR_BUFFER_PUT		(VF_BASE + 0x3118)
#define ACCESS_CNTR_BUFFER_INFO		(VF_BASE + 0x311c)
#define ACCESS_CNTR_ENTRIES		4096
#define ACCESS_CNTR_CONFIG_INIT		0x80	/* THRESHOLD */
#define ACCESS_CNTR_INFO_PUSHED		0x2

static const struct vgsp_reg fault_regs[] = {
	/* LO, HI, GET, PUT (read-only), SIZE for buffers 0 and 1 */
	{ .name = "VF_MMU_FAULT_BUFFER_LO", .offset = FAULT_BUFFER(0),
	  .count = 2, .stride = 32 },
	{ .name = "VF_MMU_FAULT_BUFFER_HI", .offset = FAULT_BUFFER(0) + 4,
	  .count = 2, .stride = 32 },
	{ .name = "VF_MMU_FAULT_BUFFER_GET", .offset = FAULT_BUFFER(0) + 8,
	  .count = 2, .stride = 32, .ro_mask = 0xfff00000 },
	{ .name = "VF_MMU_FAULT_BUFFER_PUT", .offset = FAULT_BUFFER(0) + 12,
	  .count = 2, .stride = 32, .ro_mask = ~0U },
	{ .name = "VF_MMU_FAULT_BUFFER_SIZE", .offset = FAULT_BUFFER(0) + 16,
	  .count = 2, .stride = 32 },
	{ .name = "VF_ACCESS_COUNTER_CONFIG", .offset = ACCESS_CNTR_CONFIG,
	  .reset = ACCESS_CNTR_CONFIG_INIT },
	{ .name = "VF_ACCESS_COUNTER_NOTIFY_BUFFER_LO",
	  .offset = ACCESS_CNTR_BUFFER_LO },
	{ .name = "VF_ACCESS_COUNTER_NOTIFY_BUFFER_HI",
	  .offset = ACCESS_CNTR_BUFFER_HI },
	{ .name = "VF_ACCESS_COUNTER_NOTIFY_BUFFER_SIZE",
	  .offset = ACCESS_CNTR_BUFFER_SIZE, .reset = ACCESS_CNTR_ENTRIES,
	  .ro_mask = ~0U },
	{ .name = "VF_ACCESS_COUNTER_NOTIFY_BUFFER_GET",
	  .offset = ACCESS_CNTR_BUFFER_GET },
	{ .name = "VF_ACCESS_COUNTER_NOTIFY_BUFFER_PUT",
	  .offset = ACCESS_CNTR_BUFFER_PUT, .ro_mask = ~0U },
	{ .name = "VF_ACCESS_COUNTER_NOTIFY_BUFFER_INFO",
	  .offset = ACCESS_CNTR_BUFFER_INFO, .reset = ACCESS_CNTR_INFO_PUSHED,
	  .ro_mask = ~0U },
};

const struct vgsp_reg_table vgsp_mm_fault_reg_table = VGSP_REG_TABLE(fault_regs);
