/* SPDX-License-Identifier: MIT */
/* hostd.c - channel bring-up, memory and submission (see hostd.h). */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hostd.h"
#include "nvrm_abi.h"
#include "pb.h"

#define HD_RING_BYTES (2u << 20)
#define HD_PB_BYTES (8u << 20)

uint64_t hd_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint32_t hd_new_handle(struct hd_dev *d)
{
	/* not 0xcaf0xxxx: RM generates its own internal handles there */
	return 0x5a6d0000u | __atomic_add_fetch(&d->next, 1, __ATOMIC_RELAXED);
}

#define new_handle hd_new_handle

#define STAGE(s) (d->stage = (s), d->log ? fprintf(d->log, "stage: %s\n", (s)) : 0)

int hd_alloc(struct hd_dev *d, struct hd_mem *m, uint64_t size, int flags)
{
	return hd_alloc_at(d, m, size, flags, d->virt, 0);
}

int hd_alloc_at(struct hd_dev *d, struct hd_mem *m, uint64_t size, int flags, uint32_t hdma,
		uint64_t va)
{
	struct nv_memory_alloc p;
	int vid = (flags & HD_MEM_VID) != 0;
	uint64_t page = (vid && size >= (8u << 20)) ? (2u << 20) : 4096;

	memset(m, 0, sizeof(*m));
	m->map_fd = -1;
	size = (size + page - 1) & ~(page - 1);
	memset(&p, 0, sizeof(p));
	p.owner = d->client;
	p.type = vid ? NVOS32_TYPE_IMAGE : NVOS32_TYPE_NOTIFIER;
	p.flags = NVOS32_ALLOC_FLAGS_ALIGNMENT_FORCE | NVOS32_ALLOC_FLAGS_IGNORE_BANK_PLACEMENT |
		  NVOS32_ALLOC_FLAGS_MAP_NOT_REQUIRED | (vid ? NVOS32_ALLOC_FLAGS_PERSISTENT_VIDMEM : 0);
	p.attr = (NVOS32_ATTR_PHYSICALITY_ALLOW_NONCONTIGUOUS << NVOS32_ATTR_PHYSICALITY_SHIFT) |
		 ((vid ? NVOS32_ATTR_LOCATION_VIDMEM : NVOS32_ATTR_LOCATION_PCI) << NVOS32_ATTR_LOCATION_SHIFT) |
		 (page > 4096 ? NVOS32_ATTR_PAGE_SIZE_HUGE << NVOS32_ATTR_PAGE_SIZE_SHIFT : 0);
	p.attr2 = NVOS32_ATTR2_ZBC_PREFER_NO_ZBC |
		  ((vid ? NVOS32_ATTR2_GPU_CACHEABLE_YES : NVOS32_ATTR2_GPU_CACHEABLE_NO)
		   << NVOS32_ATTR2_GPU_CACHEABLE_SHIFT) |
		  (page > 4096 ? NVOS32_ATTR2_PAGE_SIZE_HUGE_2MB << NVOS32_ATTR2_PAGE_SIZE_HUGE_SHIFT : 0);
	p.format = 6; /* PTE kind: generic memory */
	p.size = size;
	p.alignment = page;
	p.limit = size - 1;
	m->h = new_handle(d);
	if (rm_alloc(d, d->device, &m->h, vid ? NV01_MEMORY_LOCAL_USER : NV01_MEMORY_SYSTEM, &p,
		     sizeof(p), vid ? "alloc vidmem" : "alloc sysmem"))
		return -1;
	m->size = size;
	m->flags = flags;
	/* page size left to RM (DEFAULT): it matches the allocation; a fixed
	 * VA names it explicitly (DEFAULT may over-map or move the VA) */
	uint32_t mflags = vid ? 0 : NVOS46_FLAGS_CACHE_SNOOP_ENABLE;
	if (va) {
		if (va & (page - 1))
			goto fail;
		mflags |= NVOS46_FLAGS_DMA_OFFSET_FIXED |
			  ((page > 4096 ? NVOS46_FLAGS_PAGE_SIZE_HUGE : NVOS46_FLAGS_PAGE_SIZE_4KB)
			   << NVOS46_FLAGS_PAGE_SIZE_SHIFT);
	}
	m->va = va;
	if (rm_map_gpu_at(d, hdma, m->h, 0, size, mflags, &m->va, va ? "map to fixed GPU VA" : "map to GPU VA"))
		goto fail;
	if (va && m->va != va) {
		if (d->log)
			fprintf(d->log, "mem: fixed map returned va 0x%llx, asked 0x%llx\n",
				(unsigned long long)m->va, (unsigned long long)va);
		goto fail; /* freeing the object drops the stray mapping */
	}
	if ((flags & HD_MEM_CPU) &&
	    rm_map_cpu(d, d->device, m->h, size, !vid, &m->cpu, &m->map_fd, "map to CPU"))
		goto fail;
	if (d->log)
		fprintf(d->log, "mem: %s %llu KiB handle 0x%x va 0x%llx cpu %p\n", vid ? "vid" : "sys",
			(unsigned long long)(size >> 10), m->h, (unsigned long long)m->va, m->cpu);
	return 0;
fail:
	rm_free(d, d->device, m->h);
	m->h = 0;
	return -1;
}

/* Video memory in 2 MiB pages mapped for the CPU only (no GPU VA). */
int hd_alloc_vid_cpu(struct hd_dev *d, struct hd_mem *m, uint64_t size)
{
	struct nv_memory_alloc p;
	const uint64_t page = 2u << 20;

	memset(m, 0, sizeof(*m));
	m->map_fd = -1;
	size = (size + page - 1) & ~(page - 1);
	memset(&p, 0, sizeof(p));
	p.owner = d->client;
	p.type = NVOS32_TYPE_IMAGE;
	p.flags = NVOS32_ALLOC_FLAGS_ALIGNMENT_FORCE | NVOS32_ALLOC_FLAGS_IGNORE_BANK_PLACEMENT |
		  NVOS32_ALLOC_FLAGS_MAP_NOT_REQUIRED | NVOS32_ALLOC_FLAGS_PERSISTENT_VIDMEM;
	p.attr = (NVOS32_ATTR_PHYSICALITY_ALLOW_NONCONTIGUOUS << NVOS32_ATTR_PHYSICALITY_SHIFT) |
		 (NVOS32_ATTR_LOCATION_VIDMEM << NVOS32_ATTR_LOCATION_SHIFT) |
		 (NVOS32_ATTR_PAGE_SIZE_HUGE << NVOS32_ATTR_PAGE_SIZE_SHIFT);
	p.attr2 = NVOS32_ATTR2_ZBC_PREFER_NO_ZBC |
		  (NVOS32_ATTR2_GPU_CACHEABLE_YES << NVOS32_ATTR2_GPU_CACHEABLE_SHIFT) |
		  (NVOS32_ATTR2_PAGE_SIZE_HUGE_2MB << NVOS32_ATTR2_PAGE_SIZE_HUGE_SHIFT);
	p.format = 6; /* PTE kind: generic memory */
	p.size = size;
	p.alignment = page;
	p.limit = size - 1;
	m->h = new_handle(d);
	if (rm_alloc(d, d->device, &m->h, NV01_MEMORY_LOCAL_USER, &p, sizeof(p),
		     "alloc vidmem (FB partition)")) {
		m->h = 0;
		return -1;
	}
	m->size = size;
	m->flags = HD_MEM_VID | HD_MEM_CPU;
	if (rm_map_cpu(d, d->device, m->h, size, 0, &m->cpu, &m->map_fd,
		       "map FB partition to CPU")) {
		rm_free(d, d->device, m->h);
		m->h = 0;
		return -1;
	}
	if (d->log)
		fprintf(d->log, "mem: FB partition %llu MiB handle 0x%x cpu %p\n",
			(unsigned long long)(size >> 20), m->h, m->cpu);
	return 0;
}

void hd_free(struct hd_dev *d, struct hd_mem *m)
{
	if (m->cpu)
		munmap(m->cpu, m->size);
	if (m->map_fd >= 0)
		close(m->map_fd);
	if (m->h)
		rm_free(d, d->device, m->h);
	memset(m, 0, sizeof(*m));
	m->map_fd = -1;
}

int hd_has_class(const struct hd_dev *d, uint32_t cls)
{
	for (uint32_t i = 0; i < d->nclasses; i++)
		if (d->classes[i] == cls)
			return 1;
	return 0;
}

/* Ring/pushbuffer memory: video memory mapped through BAR1 when possible,
 * else coherent system memory (both are read by the GPU's host unit). */
static int alloc_cpu_visible(struct hd_dev *d, struct hd_mem *m, uint64_t size)
{
	if (!hd_alloc(d, m, size, HD_MEM_VID | HD_MEM_CPU))
		return 0;
	if (d->log)
		fprintf(d->log, "note: vidmem CPU mapping failed, falling back to sysmem\n");
	return hd_alloc(d, m, size, HD_MEM_SYS | HD_MEM_CPU);
}

static int open_common(struct hd_dev *d, enum hd_mode mode, FILE *log);

int hd_open(struct hd_dev *d, enum hd_mode mode, FILE *log)
{
	memset(d, 0, sizeof(*d));
	return open_common(d, mode, log);
}

int hd_open_ce(struct hd_dev *d, unsigned copy_index, FILE *log)
{
	memset(d, 0, sizeof(*d));
	if (copy_index > 9)
		return -1;
	d->ce_engine = NV2080_ENGINE_TYPE_COPY0 + copy_index;
	return open_common(d, HD_MODE_CE, log);
}

int hd_open_files(struct hd_dev *d, FILE *log)
{
	d->ctl = d->gpu = d->usermode_fd = -1;
	d->ring.map_fd = d->pbm.map_fd = d->notif.map_fd = -1;
	d->log = log;
	STAGE("open device files");
	d->ctl = open("/dev/nvidiactl", O_RDWR | O_CLOEXEC);
	d->gpu = open("/dev/nvidia0", O_RDWR | O_CLOEXEC);
	if (d->ctl < 0 || d->gpu < 0)
		return -1;
	if (!rm_version_query(d, d->drv_version, sizeof(d->drv_version)) && log)
		fprintf(log, "driver: %s\n", d->drv_version);
	return 0;
}

int hd_open_device(struct hd_dev *d, uint32_t va_mode)
{
	FILE *log = d->log;

	STAGE("root client");
	if (rm_alloc(d, 0, &d->client, NV01_ROOT_CLIENT, NULL, 0, "alloc NV01_ROOT_CLIENT"))
		return -1;

	STAGE("device + subdevice");
	struct nv0080_alloc dev;
	memset(&dev, 0, sizeof(dev));
	dev.hClientShare = d->client;
	dev.vaMode = va_mode;
	d->device = new_handle(d);
	if (rm_alloc(d, d->client, &d->device, NV01_DEVICE_0, &dev, sizeof(dev), "alloc NV01_DEVICE_0"))
		return -1;
	struct nv2080_alloc sub = { 0 };
	d->subdevice = new_handle(d);
	if (rm_alloc(d, d->device, &d->subdevice, NV20_SUBDEVICE_0, &sub, sizeof(sub),
		     "alloc NV20_SUBDEVICE_0"))
		return -1;

	STAGE("class list");
	struct nv0080_classlist cl = { 0, 0, 0 };
	if (rm_control(d, d->device, NV0080_CTRL_CMD_GPU_GET_CLASSLIST, &cl, sizeof(cl),
		       "ctrl GPU_GET_CLASSLIST (count)"))
		return -1;
	if (cl.numClasses > 256)
		cl.numClasses = 256;
	cl.classList = (uint64_t)(uintptr_t)d->classes;
	if (rm_control(d, d->device, NV0080_CTRL_CMD_GPU_GET_CLASSLIST, &cl, sizeof(cl),
		       "ctrl GPU_GET_CLASSLIST (list)"))
		return -1;
	d->nclasses = cl.numClasses;
	if (log)
		fprintf(log, "classes: %u; usermode C661 %s, gpfifo C86F %s, copy C8B5 %s, compute CBC0 %s\n",
			d->nclasses, hd_has_class(d, HOPPER_USERMODE_A) ? "yes" : "no",
			hd_has_class(d, HOPPER_CHANNEL_GPFIFO_A) ? "yes" : "no",
			hd_has_class(d, HOPPER_DMA_COPY_A) ? "yes" : "no",
			hd_has_class(d, HOPPER_COMPUTE_A) ? "yes" : "no");

	STAGE("usermode doorbell page");
	d->usermode = new_handle(d);
	if (rm_alloc(d, d->subdevice, &d->usermode, HOPPER_USERMODE_A, NULL, 0, "alloc HOPPER_USERMODE_A"))
		return -1;
	void *um;
	if (rm_map_cpu(d, d->device, d->usermode, 0x10000, 0, &um, &d->usermode_fd,
		       "map usermode (device)") &&
	    rm_map_cpu(d, d->subdevice, d->usermode, 0x10000, 0, &um, &d->usermode_fd,
		       "map usermode (subdevice)"))
		return -1;
	d->usermode_map = um;

	return 0;
}

static int open_common(struct hd_dev *d, enum hd_mode mode, FILE *log)
{
	if (hd_open_files(d, log))
		return -1;
	d->mode = mode;
	if (log)
		fprintf(log, "hostd: bring-up mode %s\n", mode == HD_MODE_TSG ? "tsg" :
			mode == HD_MODE_CE ? "async-ce" : "simple");
	if (hd_open_device(d, NV_DEVICE_ALLOCATION_VAMODE_OPTIONAL_MULTIPLE_VASPACES))
		return -1;

	STAGE("VA space");
	if (mode != HD_MODE_SIMPLE) {
		struct nv_vaspace_alloc va;
		memset(&va, 0, sizeof(va));
		d->vaspace = new_handle(d);
		if (rm_alloc(d, d->device, &d->vaspace, FERMI_VASPACE_A, &va, sizeof(va), "alloc FERMI_VASPACE_A"))
			return -1;
	}
	struct nv_memory_virtual_alloc vm;
	memset(&vm, 0, sizeof(vm));
	vm.hVASpace = d->vaspace; /* 0: the device's default VA space */
	d->virt = new_handle(d);
	if (rm_alloc(d, d->device, &d->virt, NV01_MEMORY_VIRTUAL, &vm, sizeof(vm), "alloc NV01_MEMORY_VIRTUAL"))
		return -1;

	STAGE("channel memory (GPFIFO+USERD, pushbuffer, error notifier)");
	if (alloc_cpu_visible(d, &d->ring, HD_RING_BYTES) || alloc_cpu_visible(d, &d->pbm, HD_PB_BYTES) ||
	    hd_alloc(d, &d->notif, 4096, HD_MEM_SYS | HD_MEM_CPU))
		return -1;
	memset(d->ring.cpu, 0, HD_USERD_OFF + 512);

	uint32_t parent = d->device;
	if (mode != HD_MODE_SIMPLE) {
		STAGE("channel group + context share");
		struct nv_channel_group_alloc tsg;
		memset(&tsg, 0, sizeof(tsg));
		tsg.engineType = mode == HD_MODE_CE ? d->ce_engine : NV2080_ENGINE_TYPE_GRAPHICS;
		d->tsg = new_handle(d);
		if (rm_alloc(d, d->device, &d->tsg, KEPLER_CHANNEL_GROUP_A, &tsg, sizeof(tsg),
			     "alloc KEPLER_CHANNEL_GROUP_A"))
			return -1;
		struct nv_ctxshare_alloc cs = { d->vaspace, NV_CTXSHARE_ALLOCATION_FLAGS_SUBCONTEXT_ASYNC, 0 };
		d->ctxshare = new_handle(d);
		if (rm_alloc(d, d->tsg, &d->ctxshare, FERMI_CONTEXT_SHARE_A, &cs, sizeof(cs),
			     "alloc FERMI_CONTEXT_SHARE_A"))
			return -1;
		parent = d->tsg;
	}

	STAGE("channel HOPPER_CHANNEL_GPFIFO_A");
	struct nv_channel_alloc ch;
	memset(&ch, 0, sizeof(ch));
	ch.hObjectError = d->notif.h;
	ch.hObjectBuffer = d->virt;
	ch.gpFifoOffset = d->ring.va;
	ch.gpFifoEntries = HD_GP_ENTRIES;
	ch.hContextShare = d->ctxshare;
	ch.hUserdMemory[0] = d->ring.h;
	ch.userdOffset[0] = HD_USERD_OFF;
	ch.engineType = mode == HD_MODE_SIMPLE ? NV2080_ENGINE_TYPE_GRAPHICS : 0;
	d->chan = new_handle(d);
	if (rm_alloc(d, parent, &d->chan, HOPPER_CHANNEL_GPFIFO_A, &ch, sizeof(ch),
		     "alloc HOPPER_CHANNEL_GPFIFO_A"))
		return -1;
	d->gp_entries = HD_GP_ENTRIES;

	STAGE("engine objects HOPPER_COMPUTE_A + HOPPER_DMA_COPY_A");
	if (mode != HD_MODE_CE) {
		d->gr = new_handle(d);
		if (rm_alloc(d, d->chan, &d->gr, HOPPER_COMPUTE_A, NULL, 0, "alloc HOPPER_COMPUTE_A"))
			return -1;
	}
	struct nvb0b5_alloc cea = { 1, d->ce_engine };
	d->ce = new_handle(d);
	if (rm_alloc(d, d->chan, &d->ce, HOPPER_DMA_COPY_A, mode == HD_MODE_CE ? &cea : NULL,
		     mode == HD_MODE_CE ? sizeof(cea) : 0, "alloc HOPPER_DMA_COPY_A"))
		return -1;

	STAGE("work-submit token + schedule");
	struct nv_gpfifo_schedule sched = { 1, 0, 0 };
	struct nv_work_submit_token tok = { 0xffffffffu };
	if (mode != HD_MODE_SIMPLE) {
		if (rm_control(d, d->chan, NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN, &tok, sizeof(tok),
			       "ctrl GET_WORK_SUBMIT_TOKEN") ||
		    rm_control(d, d->tsg, NVA06C_CTRL_CMD_GPFIFO_SCHEDULE, &sched, sizeof(sched),
			       "ctrl TSG GPFIFO_SCHEDULE"))
			return -1;
	} else {
		if (rm_control(d, d->chan, NVA06F_CTRL_CMD_GPFIFO_SCHEDULE, &sched, sizeof(sched),
			       "ctrl channel GPFIFO_SCHEDULE") ||
		    rm_control(d, d->chan, NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN, &tok, sizeof(tok),
			       "ctrl GET_WORK_SUBMIT_TOKEN"))
			return -1;
	}
	d->token = tok.workSubmitToken;
	if (log)
		fprintf(log, "channel: token 0x%x gpfifo va 0x%llx userd +0x%x pushbuffer va 0x%llx\n",
			d->token, (unsigned long long)d->ring.va, HD_USERD_OFF,
			(unsigned long long)d->pbm.va);
	STAGE("channel ready");
	return 0;
}

void hd_close(struct hd_dev *d)
{
	if (d->client) {
		/* freeing the client frees every object below it */
		hd_free(d, &d->ring);
		hd_free(d, &d->pbm);
		hd_free(d, &d->notif);
		rm_free(d, 0, d->client);
	}
	if (d->usermode_map)
		munmap((void *)d->usermode_map, 0x10000);
	if (d->usermode_fd >= 0)
		close(d->usermode_fd);
	if (d->gpu >= 0)
		close(d->gpu);
	if (d->ctl >= 0)
		close(d->ctl);
	d->client = 0;
	d->ctl = d->gpu = d->usermode_fd = -1;
}

static volatile uint32_t *userd(struct hd_dev *d)
{
	return (volatile uint32_t *)((uint8_t *)d->ring.cpu + HD_USERD_OFF);
}

uint32_t hd_gp_get(struct hd_dev *d)
{
	return userd(d)[0x88 / 4];
}

/* order CPU writes (write-combined BAR1 or uncached sysmem) before the
 * GPU is told to look at them */
void hd_wmb(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#if defined(__x86_64__)
	__asm__ __volatile__("sfence" ::: "memory");
#endif
}

/* submission on an extra channel (copy channels, forwarding channels):
 * the same steps as hd_submit(), kept separate so the main channel's path
 * stays exactly the one that was verified on the GPU */
int hd_ring_submit(struct hd_dev *d, struct hd_mem *ring, struct hd_mem *pbm, uint32_t *gp_put,
		   uint64_t *pb_off, uint32_t token, const uint32_t *dw, size_t n)
{
	const uint32_t entries = HD_GP_ENTRIES;
	volatile uint32_t *ud = (volatile uint32_t *)((uint8_t *)ring->cpu + HD_USERD_OFF);
	uint64_t bytes = (uint64_t)n * 4u;
	if (n == 0 || bytes > pbm->size / 4 || n > 0x1fffff)
		return -1;
	uint32_t next = (*gp_put + 1) % entries;
	uint64_t t0 = hd_now_ns();
	while (ud[0x88 / 4] == next) /* GPFIFO full: wait for the GPU */
		if (hd_now_ns() - t0 > 2000000000ull)
			return -1;
	if (*pb_off + bytes > pbm->size) {
		/* wrap: everything before must have been fetched */
		t0 = hd_now_ns();
		while (ud[0x88 / 4] != *gp_put)
			if (hd_now_ns() - t0 > 2000000000ull)
				return -1;
		*pb_off = 0;
	}
	memcpy((uint8_t *)pbm->cpu + *pb_off, dw, bytes);
	volatile uint64_t *gp = ring->cpu;
	gp[*gp_put] = pb_gpfifo_entry(pbm->va + *pb_off, (uint32_t)n);
	*pb_off = (*pb_off + bytes + 255u) & ~255ull;
	*gp_put = next;
	hd_wmb();
	ud[0x8c / 4] = *gp_put;                  /* GP_PUT */
	hd_wmb();
	d->usermode_map[0x90 / 4] = token;       /* NOTIFY_CHANNEL_PENDING */
	return 0;
}

int hd_submit(struct hd_dev *d, const uint32_t *dw, size_t n)
{
	uint64_t bytes = (uint64_t)n * 4u;
	if (n == 0 || bytes > d->pbm.size / 4 || n > 0x1fffff)
		return -1;
	uint32_t next = (d->gp_put + 1) % d->gp_entries;
	uint64_t t0 = hd_now_ns();
	while (hd_gp_get(d) == next) /* GPFIFO full: wait for the GPU */
		if (hd_now_ns() - t0 > 2000000000ull)
			return -1;
	if (d->pb_off + bytes > d->pbm.size) {
		/* wrap: everything before must have been fetched */
		t0 = hd_now_ns();
		while (hd_gp_get(d) != d->gp_put)
			if (hd_now_ns() - t0 > 2000000000ull)
				return -1;
		d->pb_off = 0;
	}
	memcpy((uint8_t *)d->pbm.cpu + d->pb_off, dw, bytes);
	volatile uint64_t *gp = d->ring.cpu;
	gp[d->gp_put] = pb_gpfifo_entry(d->pbm.va + d->pb_off, (uint32_t)n);
	d->pb_off = (d->pb_off + bytes + 255u) & ~255ull;
	d->gp_put = next;
	hd_wmb();
	userd(d)[0x8c / 4] = d->gp_put;          /* GP_PUT */
	hd_wmb();
	d->usermode_map[0x90 / 4] = d->token;    /* NOTIFY_CHANNEL_PENDING */
	return 0;
}

int hd_chan_submit(struct hd_dev *d, struct hd_chan *c, const uint32_t *dw, size_t n)
{
	return hd_ring_submit(d, &c->ring, &c->pbm, &c->gp_put, &c->pb_off, c->token, dw, n);
}

int hd_chan_open_ce(struct hd_dev *d, struct hd_chan *c, unsigned copy_index)
{
	memset(c, 0, sizeof(*c));
	c->ring.map_fd = c->pbm.map_fd = -1;
	if (!d->vaspace || copy_index > 9)
		return -1; /* needs the TSG-mode VA space */
	c->engine = NV2080_ENGINE_TYPE_COPY0 + copy_index;
	struct nv_channel_group_alloc tsg;
	memset(&tsg, 0, sizeof(tsg));
	tsg.engineType = c->engine;
	c->tsg = new_handle(d);
	if (rm_alloc(d, d->device, &c->tsg, KEPLER_CHANNEL_GROUP_A, &tsg, sizeof(tsg),
		     "alloc KEPLER_CHANNEL_GROUP_A (copy)")) {
		c->tsg = 0; /* no such copy engine: nothing to free */
		return -1;
	}
	struct nv_ctxshare_alloc cs = { d->vaspace, NV_CTXSHARE_ALLOCATION_FLAGS_SUBCONTEXT_ASYNC, 0 };
	c->ctxshare = new_handle(d);
	if (rm_alloc(d, c->tsg, &c->ctxshare, FERMI_CONTEXT_SHARE_A, &cs, sizeof(cs),
		     "alloc FERMI_CONTEXT_SHARE_A (copy)") ||
	    alloc_cpu_visible(d, &c->ring, HD_RING_BYTES) ||
	    alloc_cpu_visible(d, &c->pbm, 1u << 20))
		goto fail;
	memset(c->ring.cpu, 0, HD_USERD_OFF + 512);
	struct nv_channel_alloc ch;
	memset(&ch, 0, sizeof(ch));
	ch.hObjectError = d->notif.h;
	ch.hObjectBuffer = d->virt;
	ch.gpFifoOffset = c->ring.va;
	ch.gpFifoEntries = HD_GP_ENTRIES;
	ch.hContextShare = c->ctxshare;
	ch.hUserdMemory[0] = c->ring.h;
	ch.userdOffset[0] = HD_USERD_OFF;
	c->chan = new_handle(d);
	struct nvb0b5_alloc cea = { 1, c->engine };
	c->ce = new_handle(d);
	struct nv_gpfifo_schedule sched = { 1, 0, 0 };
	struct nv_work_submit_token tok = { 0xffffffffu };
	if (rm_alloc(d, c->tsg, &c->chan, HOPPER_CHANNEL_GPFIFO_A, &ch, sizeof(ch),
		     "alloc HOPPER_CHANNEL_GPFIFO_A (copy)") ||
	    rm_alloc(d, c->chan, &c->ce, HOPPER_DMA_COPY_A, &cea, sizeof(cea),
		     "alloc HOPPER_DMA_COPY_A (copy)") ||
	    rm_control(d, c->chan, NVC36F_CTRL_CMD_GPFIFO_GET_WORK_SUBMIT_TOKEN, &tok, sizeof(tok),
		       "ctrl GET_WORK_SUBMIT_TOKEN (copy)") ||
	    rm_control(d, c->tsg, NVA06C_CTRL_CMD_GPFIFO_SCHEDULE, &sched, sizeof(sched),
		       "ctrl TSG GPFIFO_SCHEDULE (copy)"))
		goto fail;
	c->token = tok.workSubmitToken;
	return 0;
fail:
	hd_chan_close(d, c);
	return -1;
}

void hd_chan_close(struct hd_dev *d, struct hd_chan *c)
{
	if (c->tsg)
		rm_free(d, d->device, c->tsg); /* frees the channel group's children */
	hd_free(d, &c->ring);
	hd_free(d, &c->pbm);
	memset(c, 0, sizeof(*c));
	c->ring.map_fd = c->pbm.map_fd = -1;
}

int hd_wait32(const volatile uint32_t *p, uint32_t want, uint64_t timeout_ns)
{
	uint64_t t0 = hd_now_ns();
	for (;;) {
		if ((int32_t)(*p - want) >= 0)
			return 0;
		if (hd_now_ns() - t0 > timeout_ns)
			return -1;
	}
}
