/* SPDX-License-Identifier: MIT */
/*
 * hostd.h - a GPU channel owned by this process through the host NVIDIA
 * driver's resource-manager ioctls (no CUDA runtime or driver library).
 *
 * hd_open() brings up: client -> device -> subdevice -> usermode doorbell
 * page -> VA space -> channel group + context share -> HOPPER_CHANNEL_GPFIFO_A
 * (GPFIFO + USERD in our own memory) -> HOPPER_COMPUTE_A + HOPPER_DMA_COPY_A
 * -> schedule -> work-submit token.  Every RM call is logged with its status
 * so a failed bring-up says exactly how far it got.
 */
#ifndef VGSP_HOSTD_H
#define VGSP_HOSTD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HD_MEM_VID 1      /* video memory (FB) */
#define HD_MEM_SYS 2      /* system memory, GPU-coherent */
#define HD_MEM_CPU 0x10   /* also map it for the CPU */

struct hd_mem {
	uint32_t h;        /* RM memory handle */
	uint64_t size;
	uint64_t va;       /* GPU VA in the channel's VA space */
	void *cpu;         /* CPU mapping or NULL */
	int flags;         /* HD_MEM_* as allocated */
	int map_fd;        /* fd backing the CPU mapping */
};

enum hd_mode {
	HD_MODE_TSG = 0,   /* own VA space + channel group + subcontext */
	HD_MODE_SIMPLE = 1, /* device default VA space, channel under device */
	HD_MODE_CE = 2      /* copy-only channel group on an async copy engine */
};

struct hd_dev {
	int ctl, gpu;
	FILE *log;
	enum hd_mode mode;
	uint32_t ce_engine;               /* HD_MODE_CE: NV2080_ENGINE_TYPE_COPYn */
	uint32_t client, device, subdevice, usermode, vaspace, virt, tsg, ctxshare;
	uint32_t chan, gr, ce, next;
	volatile uint32_t *usermode_map;  /* 64 KiB doorbell page */
	int usermode_fd;
	uint32_t token;
	struct hd_mem ring;    /* GPFIFO entries, then USERD */
	struct hd_mem pbm;     /* pushbuffer ring */
	struct hd_mem notif;   /* channel error notifier */
	uint32_t gp_entries, gp_put;
	uint64_t pb_off;
	const char *stage;     /* last bring-up stage reached */
	uint32_t last_status;  /* RM status of the last failing call */
	uint32_t classes[256];
	uint32_t nclasses;
	char drv_version[64];  /* NV_ESC_CHECK_VERSION_STR, "" if unknown */
};

/* GPFIFO ring layout of every hostd channel: entries, then USERD */
#define HD_GP_ENTRIES 8192u         /* 64 KiB of GPFIFO entries */
#define HD_USERD_OFF (HD_GP_ENTRIES * 8u)

/* an extra channel (own channel group, copy class only) sharing the
 * device's client and VA space: copies on several async copy engines */
struct hd_chan {
	uint32_t engine, tsg, ctxshare, chan, ce, token, gp_put;
	uint64_t pb_off;
	struct hd_mem ring, pbm;
};

uint64_t hd_now_ns(void);

int hd_open(struct hd_dev *d, enum hd_mode mode, FILE *log);
/* channel on async copy engine COPY<index> (no compute object) */
int hd_open_ce(struct hd_dev *d, unsigned copy_index, FILE *log);
void hd_close(struct hd_dev *d);

int hd_alloc(struct hd_dev *d, struct hd_mem *m, uint64_t size, int flags);
void hd_free(struct hd_dev *d, struct hd_mem *m);

/* Copy n dwords into the pushbuffer ring, append a GPFIFO entry, update
 * GP_PUT in USERD and ring the doorbell. 0 or -1. */
int hd_submit(struct hd_dev *d, const uint32_t *dw, size_t n);
int hd_chan_open_ce(struct hd_dev *d, struct hd_chan *c, unsigned copy_index);
int hd_chan_submit(struct hd_dev *d, struct hd_chan *c, const uint32_t *dw, size_t n);
void hd_chan_close(struct hd_dev *d, struct hd_chan *c);
/* Wait until the 32-bit word at p reaches want (wrap-safe >=). */
int hd_wait32(const volatile uint32_t *p, uint32_t want, uint64_t timeout_ns);
/* USERD GP_GET / GP_PUT as the GPU sees them (diagnostics). */
uint32_t hd_gp_get(struct hd_dev *d);

/* ---- pieces of the bring-up, shared with hostd_fwd.h's hd_open_base() --- */
/* fds to -1, log, open /dev/nvidiactl + /dev/nvidia0, query the driver
 * version into d->drv_version (d must be zeroed first) */
int hd_open_files(struct hd_dev *d, FILE *log);
/* client -> device (vaMode) -> subdevice -> class list -> usermode page */
int hd_open_device(struct hd_dev *d, uint32_t va_mode);
int hd_has_class(const struct hd_dev *d, uint32_t cls);
/* a new client-unique RM handle (atomic) */
uint32_t hd_new_handle(struct hd_dev *d);
/* hd_alloc() with the GPU mapping made through hdma; va == 0: RM picks
 * the VA (page size DEFAULT), else a fixed map at va with the explicit
 * page size of the allocation (va aligned to it) */
/* video memory in 2 MiB pages, CPU-mapped (BAR1), no GPU VA */
int hd_alloc_vid_cpu(struct hd_dev *d, struct hd_mem *m, uint64_t size);
int hd_alloc_at(struct hd_dev *d, struct hd_mem *m, uint64_t size, int flags, uint32_t hdma,
		uint64_t va);
/* copy n dwords into pbm at *pb_off, append a GPFIFO entry at *gp_put of
 * ring (HD_GP_ENTRIES entries, USERD at HD_USERD_OFF), GP_PUT, doorbell */
int hd_ring_submit(struct hd_dev *d, struct hd_mem *ring, struct hd_mem *pbm, uint32_t *gp_put,
		   uint64_t *pb_off, uint32_t token, const uint32_t *dw, size_t n);
/* order CPU stores before the GPU is told to look at them */
void hd_wmb(void);

/* low level RM calls (rm.c); each logs "name class/cmd -> status" */
int rm_alloc(struct hd_dev *d, uint32_t parent, uint32_t *handle, uint32_t cls,
	     void *params, uint32_t size, const char *what);
int rm_control(struct hd_dev *d, uint32_t obj, uint32_t cmd, void *params, uint32_t size,
	       const char *what);
int rm_free(struct hd_dev *d, uint32_t parent, uint32_t obj);
int rm_map_cpu(struct hd_dev *d, uint32_t hdev, uint32_t hmem, uint64_t size, int use_ctl,
	       void **cpu, int *fd_out, const char *what);
int rm_map_gpu(struct hd_dev *d, uint32_t hmem, uint64_t size, uint32_t flags, uint64_t *va,
	       const char *what);
/* NVOS46 through hdma, [offset, offset+len) of hmem; with
 * NVOS46_FLAGS_DMA_OFFSET_FIXED *va is the requested VA; *va = returned */
int rm_map_gpu_at(struct hd_dev *d, uint32_t hdma, uint32_t hmem, uint64_t offset, uint64_t len,
		  uint32_t flags, uint64_t *va, const char *what);
/* NVOS47, the whole mapping at va */
int rm_unmap_gpu(struct hd_dev *d, uint32_t hdma, uint32_t hmem, uint64_t va, uint32_t flags,
		 const char *what);
int rm_register_fd(struct hd_dev *d, int fd);
/* NV01_MEMORY_SYSTEM_OS_DESCRIPTOR over [cpu, cpu+size) (NVOS02 flags) */
int rm_alloc_os_desc(struct hd_dev *d, uint32_t *handle, void *cpu, uint64_t size, uint32_t flags,
		     const char *what);
/* NV_ESC_CHECK_VERSION_STR query: the driver's version string */
int rm_version_query(struct hd_dev *d, char *out, size_t cap);

#endif
