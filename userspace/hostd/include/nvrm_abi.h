/* SPDX-License-Identifier: MIT */
/*
 * nvrm_abi.h - the slice of the NVIDIA resource-manager (RM) user ABI that
 * hostd uses, declared here from the public class/ioctl documentation of the
 * open kernel modules (580 branch, checked against 580.105.08 headers).
 *
 * Why our own declarations: we must not vendor NVIDIA headers, and every
 * layout we depend on is pinned below with _Static_assert so a mismatch is a
 * build error, not a silent ioctl corruption.  The kernel side checks the
 * ioctl argument size exactly (escape.c: dataSize != sizeof(...)), so a wrong
 * size fails with EINVAL rather than misbehaving.
 */
#ifndef VGSP_NVRM_ABI_H
#define VGSP_NVRM_ABI_H

#include <stddef.h>
#include <stdint.h>

/* ---- ioctl numbering (nv-ioctl-numbers.h, nv_escape.h) ---------------- */
#define NVRM_IOCTL_MAGIC 'F'
#define NVRM_IOCTL_BASE 200
#define NV_ESC_CARD_INFO (NVRM_IOCTL_BASE + 0)
#define NV_ESC_REGISTER_FD (NVRM_IOCTL_BASE + 1)
#define NV_ESC_CHECK_VERSION_STR (NVRM_IOCTL_BASE + 10) /* /dev/nvidiactl */
#define NV_ESC_RM_ALLOC_MEMORY 0x27
#define NV_ESC_RM_FREE 0x29
#define NV_ESC_RM_CONTROL 0x2A
#define NV_ESC_RM_ALLOC 0x2B
#define NV_ESC_RM_MAP_MEMORY 0x4E
#define NV_ESC_RM_UNMAP_MEMORY 0x4F
#define NV_ESC_RM_MAP_MEMORY_DMA 0x57
#define NV_ESC_RM_UNMAP_MEMORY_DMA 0x58

/* Linux _IOWR('F', nr, size) spelled out so the header has no <sys/ioctl.h>
 * dependency (it is also compiled into unit tests). */
#define NVRM_IOWR(nr, size) \
	((3u << 30) | (((uint32_t)(size) & 0x3fffu) << 16) | \
	 ((uint32_t)NVRM_IOCTL_MAGIC << 8) | ((uint32_t)(nr) & 0xffu))

/* ---- class numbers ----------------------------------------------------- */
#define NV01_ROOT_CLIENT 0x00000041u
#define NV01_DEVICE_0 0x00000080u
#define NV20_SUBDEVICE_0 0x00002080u
#define NV01_MEMORY_SYSTEM 0x0000003Eu
#define NV01_MEMORY_LOCAL_USER 0x00000040u
#define NV01_MEMORY_VIRTUAL 0x00000070u
#define FERMI_VASPACE_A 0x000090F1u
#define FERMI_CONTEXT_SHARE_A 0x00009067u
#define KEPLER_CHANNEL_GROUP_A 0x0000A06Cu
#define HOPPER_USERMODE_A 0x0000C661u
#define HOPPER_CHANNEL_GPFIFO_A 0x0000C86Fu
#define HOPPER_DMA_COPY_A 0x0000C8B5u
#define HOPPER_COMPUTE_A 0x0000CBC0u
#define NV01_MEMORY_SYSTEM_OS_DESCRIPTOR 0x00000071u
#define NV50_MEMORY_VIRTUAL 0x000050A0u

/* ---- control commands -------------------------------------------------- */
#define NV0080_CTRL_CMD_GPU_GET_CLASSLIST 0x00800201u
#define NVA06C_CTRL_CMD_GPFIFO_SCHEDULE 0xA06C0101u
#define NVA06F_CTRL_CMD_GPFIFO_SCHEDULE 0xA06F0103u
#define NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN 0xC36F0108u
#define NV0080_CTRL_CMD_DMA_INVALIDATE_TLB 0x0080180Cu
#define NV2080_CTRL_CMD_PERF_BOOST 0x2080200Au
#define NV2080_CTRL_CMD_CE_GET_CE_PCE_MASK 0x20802A02u
/* NV2080_CTRL_PERF_BOOST_FLAGS: CMD 1:0 (2 = BOOST_TO_MAX), CUDA 4:4,
 * CUDA_PRIORITY 6:6 (1 = HIGH); duration 0xffffffff: until cleared */
#define NV2080_PERF_BOOST_CUDA_MAX ((2u << 0) | (1u << 4) | (1u << 6))
#define NV2080_PERF_BOOST_DURATION_INFINITE 0xffffffffu

/* engine type numbering shared by NV2080_ENGINE_TYPE_* and RM_ENGINE_TYPE_* */
#define NV2080_ENGINE_TYPE_GRAPHICS 0x1u
#define NV2080_ENGINE_TYPE_COPY0 0x9u      /* COPY0..COPY9 = 0x9..0x12 */

/* ---- RM status codes used in messages (nvstatuscodes.h) ---------------- */
#define NV_OK 0x0u
#define NV_ERR_INVALID_ARGUMENT 0x1Fu
#define NV_ERR_INVALID_CLASS 0x22u
#define NV_ERR_INVALID_OBJECT_PARENT 0x36u
#define NV_ERR_INVALID_STATE 0x40u
#define NV_ERR_NO_MEMORY 0x51u
#define NV_ERR_NOT_SUPPORTED 0x56u

/* ---- NVOS32 memory attributes (nvos.h) ------------------------------- */
#define NVOS32_TYPE_IMAGE 0u
#define NVOS32_TYPE_NOTIFIER 13u
#define NVOS32_ATTR_PAGE_SIZE_SHIFT 23 /* 24:23 */
#define NVOS32_ATTR_PAGE_SIZE_HUGE 3u
#define NVOS32_ATTR_LOCATION_SHIFT 25 /* 26:25 */
#define NVOS32_ATTR_LOCATION_VIDMEM 0u
#define NVOS32_ATTR_LOCATION_PCI 1u
#define NVOS32_ATTR_PHYSICALITY_SHIFT 27 /* 28:27 */
#define NVOS32_ATTR_PHYSICALITY_NONCONTIGUOUS 1u
#define NVOS32_ATTR_PHYSICALITY_CONTIGUOUS 2u
#define NVOS32_ATTR_PHYSICALITY_ALLOW_NONCONTIGUOUS 3u
#define NVOS32_ATTR_COHERENCY_SHIFT 29 /* 31:29 */
#define NVOS32_ATTR_COHERENCY_UNCACHED 0u
#define NVOS32_ATTR_COHERENCY_CACHED 1u
#define NVOS32_ATTR2_ZBC_PREFER_NO_ZBC 1u /* 1:0 */
#define NVOS32_ATTR2_GPU_CACHEABLE_SHIFT 2 /* 3:2 */
#define NVOS32_ATTR2_GPU_CACHEABLE_YES 1u
#define NVOS32_ATTR2_GPU_CACHEABLE_NO 2u
#define NVOS32_ATTR2_PAGE_SIZE_HUGE_SHIFT 20 /* 21:20 */
#define NVOS32_ATTR2_PAGE_SIZE_HUGE_2MB 1u
#define NVOS32_ATTR_PAGE_SIZE_BIG 2u        /* 24:23, 64 KiB on Hopper */
#define NVOS32_ALLOC_FLAGS_IGNORE_BANK_PLACEMENT 0x00000001u
#define NVOS32_ALLOC_FLAGS_FIXED_ADDRESS_ALLOCATE 0x00000010u
#define NVOS32_ALLOC_FLAGS_LAZY 0x00000400u
#define NVOS32_ALLOC_FLAGS_VIRTUAL 0x00080000u
#define NVOS32_ALLOC_FLAGS_ALIGNMENT_FORCE 0x00000100u
#define NVOS32_ALLOC_FLAGS_MAP_NOT_REQUIRED 0x00008000u
#define NVOS32_ALLOC_FLAGS_PERSISTENT_VIDMEM 0x00010000u

/* NVOS33 (CPU map) and NVOS46 (GPU map) flags */
#define NVOS33_FLAGS_CACHING_TYPE_SHIFT 23 /* 25:23 */
#define NVOS33_FLAGS_CACHING_TYPE_WRITECOMBINED 2u
#define NVOS46_FLAGS_CACHE_SNOOP_ENABLE (1u << 4)
#define NVOS46_FLAGS_PAGE_SIZE_SHIFT 8 /* 11:8 */
#define NVOS46_FLAGS_PAGE_SIZE_4KB 1u
#define NVOS46_FLAGS_PAGE_SIZE_HUGE 4u
#define NVOS46_FLAGS_PAGE_SIZE_BIG 2u
#define NVOS46_FLAGS_ACCESS_READ_ONLY 1u           /* ACCESS 1:0 */
#define NVOS46_FLAGS_DMA_OFFSET_FIXED (1u << 15)
#define NVOS46_FLAGS_DEFER_TLB_INVALIDATION (1u << 31)
#define NVOS47_FLAGS_DEFER_TLB_INVALIDATION 1u     /* 0:0 */

/* NVOS02 (NV_ESC_RM_ALLOC_MEMORY) flags */
#define NVOS02_FLAGS_PHYSICALITY_NONCONTIGUOUS (1u << 4)  /* 7:4 = 1 */
#define NVOS02_FLAGS_LOCATION_PCI (0u << 8)               /* 11:8 = 0 */
#define NVOS02_FLAGS_COHERENCY_CACHED (1u << 12)          /* 15:12 = 1 */
#define NVOS02_FLAGS_MAPPING_NO_MAP (1u << 30)            /* 31:30 = 1 */

/* NV0080_ALLOC_PARAMETERS.vaMode */
#define NV_DEVICE_ALLOCATION_VAMODE_OPTIONAL_MULTIPLE_VASPACES 0u
#define NV_DEVICE_ALLOCATION_VAMODE_MULTIPLE_VASPACES 2u
/* NV_VASPACE_ALLOCATION_PARAMETERS */
#define NV_VASPACE_ALLOCATION_FLAGS_REQUIRE_FIXED_OFFSET (1u << 12)
#define NV_VASPACE_BIG_PAGE_SIZE_64K (64u * 1024u)
/* NV_CHANNEL_ALLOC_PARAMS.flags (NVOS04_FLAGS_CHANNEL_*) */
#define NVOS04_FLAGS_CHANNEL_DENY_PHYSICAL_MODE_CE (1u << 7)
#define NVOS04_FLAGS_CHANNEL_DENY_AUTH_LEVEL_PRIV (1u << 22)
/* NV_RM_API_VERSION_CMD_QUERY: copy the driver's version string out */
#define NV_RM_API_VERSION_CMD_QUERY '2'

#define NV_CTXSHARE_ALLOCATION_FLAGS_SUBCONTEXT_ASYNC 1u

/* ---- parameter blocks ------------------------------------------------- */
/* All 64-bit members are 8-byte aligned in the kernel's layout
 * (NV_ALIGN_BYTES(8)); uint64_t on x86-64 already is. */

struct nvos00_free {            /* NVOS00_PARAMETERS */
	uint32_t hRoot, hObjectParent, hObjectOld, status;
};

struct nvos64_alloc {           /* NVOS64_PARAMETERS (NV_ESC_RM_ALLOC) */
	uint32_t hRoot, hObjectParent, hObjectNew, hClass;
	uint64_t pAllocParms;
	uint64_t pRightsRequested;
	uint32_t paramsSize, flags, status;
	uint32_t pad0;
};

struct nvos54_control {         /* NVOS54_PARAMETERS (NV_ESC_RM_CONTROL) */
	uint32_t hClient, hObject, cmd, flags;
	uint64_t params;
	uint32_t paramsSize, status;
};

struct nvos33_map {             /* NVOS33_PARAMETERS (CPU mapping) */
	uint32_t hClient, hDevice, hMemory, pad0;
	uint64_t offset, length, pLinearAddress;
	uint32_t status, flags;
};

struct nvos33_map_with_fd {     /* nv_ioctl_nvos33_parameters_with_fd */
	struct nvos33_map params;
	int32_t fd;
	uint32_t pad0;
};

struct nvos34_unmap {           /* NVOS34_PARAMETERS */
	uint32_t hClient, hDevice, hMemory, pad0;
	uint64_t pLinearAddress;
	uint32_t status, flags;
};

struct nvos46_map_dma {         /* NVOS46_PARAMETERS (GPU VA mapping) */
	uint32_t hClient, hDevice, hDma, hMemory;
	uint64_t offset, length;
	uint32_t flags, flags2, kindOverride, pad0;
	uint64_t dmaOffset;
	uint32_t status, pad1;
};

struct nvos47_unmap_dma {       /* NVOS47_PARAMETERS (580: + size) */
	uint32_t hClient, hDevice, hDma, hMemory, flags, pad0;
	uint64_t dmaOffset;
	uint64_t size;          /* 0: the whole mapping */
	uint32_t status, pad1;
};

struct nvos02_alloc_memory {    /* NVOS02_PARAMETERS */
	uint32_t hRoot, hObjectParent, hObjectNew, hClass, flags, pad0;
	uint64_t pMemory, limit;
	uint32_t status, pad1;
};

struct nvos02_with_fd {         /* nv_ioctl_nvos02_parameters_with_fd */
	struct nvos02_alloc_memory params;
	int32_t fd;             /* unused for class 0x71: -1 */
	uint32_t pad0;
};

struct nv_rm_api_version {      /* nv_ioctl_rm_api_version_t */
	uint32_t cmd, reply;
	char versionString[64];
};

struct nv0080_invalidate_tlb {  /* NV0080_CTRL_DMA_INVALIDATE_TLB_PARAMS */
	uint32_t hVASpace, flags;
};

struct nv_notification {        /* NvNotification (nvgputypes.h) */
	uint32_t timeStamp[2];
	uint32_t info32;        /* RC: exception type, e.g. 31 MMU fault */
	uint16_t info16;
	uint16_t status;        /* 0 until RM writes an error (0xffff) */
};

struct nv_register_fd {         /* nv_ioctl_register_fd_t */
	int32_t ctl_fd;
};

struct nv0080_alloc {           /* NV0080_ALLOC_PARAMETERS */
	uint32_t deviceId, hClientShare, hTargetClient, hTargetDevice, flags;
	uint32_t pad0;
	uint64_t vaSpaceSize, vaStartInternal, vaLimitInternal;
	uint32_t vaMode, pad1;
};

struct nv2080_alloc {           /* NV2080_ALLOC_PARAMETERS */
	uint32_t subDeviceId;
};

struct nv_memory_alloc {        /* NV_MEMORY_ALLOCATION_PARAMS */
	uint32_t owner, type, flags, width, height;
	int32_t pitch;
	uint32_t attr, attr2, format, comprCovg, zcullCovg, pad0;
	uint64_t rangeLo, rangeHi, size, alignment, offset, limit, address;
	uint32_t ctagOffset, hVASpace, internalflags, tag;
	int32_t numaNode;
	uint32_t pad1;
};

struct nv_memory_virtual_alloc { /* NV_MEMORY_VIRTUAL_ALLOCATION_PARAMS */
	uint64_t offset, limit;
	uint32_t hVASpace, pad0;
};

struct nv_vaspace_alloc {       /* NV_VASPACE_ALLOCATION_PARAMETERS */
	uint32_t index, flags;
	uint64_t vaSize, vaStartInternal, vaLimitInternal;
	uint32_t bigPageSize, pad0;
	uint64_t vaBase;
	uint32_t pasid, pad1;
};

struct nv_channel_group_alloc { /* NV_CHANNEL_GROUP_ALLOCATION_PARAMETERS */
	uint32_t hObjectError, hObjectEccError, hVASpace, engineType;
	uint8_t bIsCallingContextVgpuPlugin;
	uint8_t pad0[3];
};

struct nv_ctxshare_alloc {      /* NV_CTXSHARE_ALLOCATION_PARAMETERS */
	uint32_t hVASpace, flags, subctxId;
};

struct nv_memdesc {             /* NV_MEMORY_DESC_PARAMS */
	uint64_t base, size;
	uint32_t addressSpace, cacheAttrib;
};

struct nv_channel_alloc {       /* NV_CHANNEL_ALLOC_PARAMS */
	uint32_t hObjectError, hObjectBuffer;
	uint64_t gpFifoOffset;
	uint32_t gpFifoEntries, flags, hContextShare, hVASpace;
	uint32_t hUserdMemory[8];
	uint64_t userdOffset[8];
	uint32_t engineType, cid, subDeviceId, hObjectEccError;
	struct nv_memdesc instanceMem, userdMem, ramfcMem, mthdbufMem;
	uint32_t hPhysChannelGroup, internalFlags;
	struct nv_memdesc errorNotifierMem, eccErrorNotifierMem;
	uint32_t ProcessID, SubProcessID;
	uint32_t encryptIv[3], decryptIv[3], hmacNonce[8];
	uint32_t tpcConfigID, pad0;
};

struct nvb0b5_alloc {           /* NVB0B5_ALLOCATION_PARAMETERS */
	uint32_t version;       /* 1: engineType is an NV2080_ENGINE_TYPE */
	uint32_t engineType;
};

struct nv_perf_boost {          /* NV2080_CTRL_PERF_BOOST_PARAMS */
	uint32_t flags, duration;
};

struct nv_ce_pce_mask {         /* NV2080_CTRL_CE_GET_CE_PCE_MASK_PARAMS */
	uint32_t ceEngineType;  /* NV2080_ENGINE_TYPE_COPYn */
	uint32_t pceMask;       /* the physical copy engines behind it */
};

struct nv_gpfifo_schedule {     /* NVA06F/NVA06C_CTRL_GPFIFO_SCHEDULE_PARAMS */
	uint8_t bEnable, bSkipSubmit, bSkipEnable;
};

struct nv_work_submit_token {   /* NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN_PARAMS */
	uint32_t workSubmitToken;
};

struct nv0080_classlist {       /* NV0080_CTRL_GPU_GET_CLASSLIST_PARAMS */
	uint32_t numClasses, pad0;
	uint64_t classList;
};

/* ---- layout pins: offsets/sizes from the 580 headers ----------------- */
#define NVRM_PIN(t, m, off) _Static_assert(offsetof(t, m) == (off), #t "." #m)
#define NVRM_SIZE(t, sz) _Static_assert(sizeof(t) == (sz), "sizeof " #t)

NVRM_SIZE(struct nvos00_free, 16);
NVRM_PIN(struct nvos64_alloc, pAllocParms, 16);
NVRM_PIN(struct nvos64_alloc, pRightsRequested, 24);
NVRM_PIN(struct nvos64_alloc, paramsSize, 32);
NVRM_PIN(struct nvos64_alloc, status, 40);
NVRM_SIZE(struct nvos64_alloc, 48);
NVRM_PIN(struct nvos54_control, params, 16);
NVRM_PIN(struct nvos54_control, status, 28);
NVRM_SIZE(struct nvos54_control, 32);
NVRM_PIN(struct nvos33_map, offset, 16);
NVRM_PIN(struct nvos33_map, pLinearAddress, 32);
NVRM_PIN(struct nvos33_map, flags, 44);
NVRM_SIZE(struct nvos33_map, 48);
NVRM_PIN(struct nvos33_map_with_fd, fd, 48);
NVRM_SIZE(struct nvos33_map_with_fd, 56);
NVRM_PIN(struct nvos34_unmap, pLinearAddress, 16);
NVRM_SIZE(struct nvos34_unmap, 32);
NVRM_PIN(struct nvos46_map_dma, offset, 16);
NVRM_PIN(struct nvos46_map_dma, flags, 32);
NVRM_PIN(struct nvos46_map_dma, kindOverride, 40);
NVRM_PIN(struct nvos46_map_dma, dmaOffset, 48);
NVRM_PIN(struct nvos46_map_dma, status, 56);
NVRM_SIZE(struct nvos46_map_dma, 64);
NVRM_PIN(struct nvos47_unmap_dma, flags, 16);
NVRM_PIN(struct nvos47_unmap_dma, dmaOffset, 24);
NVRM_PIN(struct nvos47_unmap_dma, size, 32);
NVRM_PIN(struct nvos47_unmap_dma, status, 40);
NVRM_SIZE(struct nvos47_unmap_dma, 48);
NVRM_PIN(struct nvos02_alloc_memory, flags, 16);
NVRM_PIN(struct nvos02_alloc_memory, pMemory, 24);
NVRM_PIN(struct nvos02_alloc_memory, limit, 32);
NVRM_PIN(struct nvos02_alloc_memory, status, 40);
NVRM_SIZE(struct nvos02_alloc_memory, 48);
NVRM_PIN(struct nvos02_with_fd, fd, 48);
NVRM_SIZE(struct nvos02_with_fd, 56);
NVRM_PIN(struct nv_rm_api_version, versionString, 8);
NVRM_SIZE(struct nv_rm_api_version, 72);
NVRM_SIZE(struct nv0080_invalidate_tlb, 8);
NVRM_PIN(struct nv_notification, info32, 8);
NVRM_PIN(struct nv_notification, status, 14);
NVRM_SIZE(struct nv_notification, 16);
NVRM_SIZE(struct nv_register_fd, 4);
NVRM_PIN(struct nv0080_alloc, vaSpaceSize, 24);
NVRM_PIN(struct nv0080_alloc, vaMode, 48);
NVRM_SIZE(struct nv0080_alloc, 56);
NVRM_PIN(struct nv_memory_alloc, rangeLo, 48);
NVRM_PIN(struct nv_memory_alloc, size, 64);
NVRM_PIN(struct nv_memory_alloc, address, 96);
NVRM_PIN(struct nv_memory_alloc, hVASpace, 108);
NVRM_PIN(struct nv_memory_alloc, numaNode, 120);
NVRM_SIZE(struct nv_memory_alloc, 128);
NVRM_SIZE(struct nv_memory_virtual_alloc, 24);
NVRM_PIN(struct nv_vaspace_alloc, vaSize, 8);
NVRM_PIN(struct nv_vaspace_alloc, bigPageSize, 32);
NVRM_PIN(struct nv_vaspace_alloc, vaBase, 40);
NVRM_SIZE(struct nv_vaspace_alloc, 56);
NVRM_SIZE(struct nv_channel_group_alloc, 20);
NVRM_SIZE(struct nv_ctxshare_alloc, 12);
NVRM_SIZE(struct nv_memdesc, 24);
NVRM_PIN(struct nv_channel_alloc, gpFifoOffset, 8);
NVRM_PIN(struct nv_channel_alloc, hContextShare, 24);
NVRM_PIN(struct nv_channel_alloc, hUserdMemory, 32);
NVRM_PIN(struct nv_channel_alloc, userdOffset, 64);
NVRM_PIN(struct nv_channel_alloc, engineType, 128);
NVRM_PIN(struct nv_channel_alloc, instanceMem, 144);
NVRM_PIN(struct nv_channel_alloc, hPhysChannelGroup, 240);
NVRM_PIN(struct nv_channel_alloc, errorNotifierMem, 248);
NVRM_PIN(struct nv_channel_alloc, ProcessID, 296);
NVRM_PIN(struct nv_channel_alloc, hmacNonce, 328);
NVRM_PIN(struct nv_channel_alloc, tpcConfigID, 360);
NVRM_SIZE(struct nv_channel_alloc, 368);
NVRM_SIZE(struct nv_gpfifo_schedule, 3);
NVRM_SIZE(struct nvb0b5_alloc, 8);
NVRM_SIZE(struct nv_perf_boost, 8);
NVRM_SIZE(struct nv_ce_pce_mask, 8);
NVRM_SIZE(struct nv0080_classlist, 16);

#endif
