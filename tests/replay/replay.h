/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Guest-driver replay client: drives an emulated GH100 the way OpenRM
 * 535.261.03 does at first open (FSP COT boot, message queues in guest
 * memory, INIT_DONE, version handshake, static info, root/device/subdevice,
 * init-time internal controls, free, unload) and writes a deterministic
 * transcript of what came back.
 *
 * It only needs a small transport, so the same code runs in-process
 * against the core (cmocka) and in a VM through VFIO against vgsp.ko.
 */
#ifndef VGSP_REPLAY_H
#define VGSP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rp_transport {
	void *ctx;
	uint32_t (*rd32)(void *ctx, uint32_t off);		/* BAR0 */
	void (*wr32)(void *ctx, uint32_t off, uint32_t val);	/* BAR0 */
	/*
	 * @size bytes (page multiple) of zeroed guest memory the device sees
	 * at *iova; *va is the CPU's view. 0 or -errno.
	 */
	int (*mem_alloc)(void *ctx, size_t size, void **va, uint64_t *iova);
	/* Wait for the device interrupt; 0, or -ETIMEDOUT after @ms. */
	int (*wait_irq)(void *ctx, unsigned int ms);
	uint64_t (*now_ns)(void *ctx);
	/* Device reset (VFIO_DEVICE_RESET / vgsp_dev_reset). 0 or -errno. */
	int (*reset)(void *ctx);
	/*
	 * Optional: take the guest memory away from the device and give it
	 * back (VFIO_IOMMU_UNMAP_DMA / MAP_DMA). 0 or -errno.
	 */
	int (*mem_unmap)(void *ctx);
	int (*mem_remap)(void *ctx);
	/*
	 * Set Bus Master Enable (and memory decode) in the command
	 * register, as the driver's pci_set_master() does: without it the
	 * device does no DMA. 0 or -errno.
	 */
	int (*bus_master)(void *ctx);
	uint8_t uuid[16];	/* instance UUID (checks static info / GID) */
};

struct rp_transcript {
	char *buf;
	size_t len, cap;
};

/* Optional per-RPC timing (microbenchmark). */
struct rp_bench {
	unsigned int n;
	uint64_t *rpc_ns;	/* n samples: doorbell -> reply seen */
	uint64_t *full_ns;	/* n samples or NULL: message composed ->
				 * reply read back and checked */
	uint64_t *bar0_ns;	/* n samples: one BAR0 read */
};

struct rp_client;

struct rp_client *rp_new(const struct rp_transport *t);
void rp_free(struct rp_client *c);
const struct rp_transcript *rp_transcript(const struct rp_client *c);

/* The whole OpenRM-style sequence; 0 if every step behaved. */
int rp_run_init(struct rp_client *c);
/* Boot + handshake only (no unload): for bench and bad-input runs. */
int rp_boot(struct rp_client *c);
/* Malformed input after rp_boot(); transcript of the device's answers. */
int rp_run_bad(struct rp_client *c);
/*
 * Large RPCs after rp_boot(): controls sent and answered in
 * CONTINUATION_RECORDs the way 535.261.03's _issueRpcLarge does, plus
 * broken record sequences; the queue must stay usable throughout.
 */
int rp_run_large(struct rp_client *c);
/*
 * One round trip of a cheap control (GET_SMC_MODE, polled) after rp_boot():
 * 0 when it came back with status 0, -EIO / -EPROTO otherwise. *rpc_ns:
 * doorbell to reply visible; *full_ns: the whole call, composing and
 * reading back included (either may be NULL).
 */
int rp_ping(struct rp_client *c, uint64_t *rpc_ns, uint64_t *full_ns);
/* Round trips of a cheap control and of a BAR0 read (rp_boot() first). */
int rp_run_bench(struct rp_client *c, struct rp_bench *b);

/*
 * For modes built on the open device (copy.c): rp_open() is rp_boot()
 * plus the init-time controls (the golden init up to its first
 * allocation); rp_alloc() sends GSP_RM_ALLOC with @psize bytes of params
 * and returns the RPC result, or the alloc status when that is 0;
 * rp_free_obj() sends FREE; rp_call() sends any RPC and returns its result
 * (0xffffffff when no reply came).
 */
int rp_open(struct rp_client *c);
uint32_t rp_alloc(struct rp_client *c, uint32_t h_client, uint32_t h_parent,
		  uint32_t h_object, uint32_t cls, const void *params,
		  uint32_t psize);
uint32_t rp_free_obj(struct rp_client *c, uint32_t h_client,
		     uint32_t h_object);
uint32_t rp_call(struct rp_client *c, uint32_t fn, const void *payload,
		 uint32_t len);

/*
 * Copy-engine work (copy.c), after rp_open(): a CE channel in its own
 * client, GPFIFO/pushbuffer/USERD/page tables/semaphore in @mem (guest
 * memory at @iova, 2 MiB aligned, @size bytes), copies of @bytes from a
 * source to two destinations in turn, two in flight, physical sysmem
 * addressing. The first copy is compared in full, every later one at 64
 * sampled words. @n copies (0: until killed). Prints PASS/FAIL lines
 * (line-buffered) as it goes; 0 when everything verified.
 */
struct rp_copy {
	uint8_t *mem;
	uint64_t iova;
	size_t size;
	uint64_t bytes;
	unsigned int n;
	const struct rp_transport *t;
};

size_t rp_copy_mem_size(uint64_t bytes);
int rp_run_copy(struct rp_client *c, const struct rp_copy *cp);

/* First differing line of @got vs @want, or -1 if equal. */
int rp_transcript_diff(const char *got, const char *want, char *why,
		       size_t whylen);

#endif /* VGSP_REPLAY_H */
