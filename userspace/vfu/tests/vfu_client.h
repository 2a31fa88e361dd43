/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A small vfio-user client (the VMM's side of the socket), for the lifecycle
 * and many-tenant tests of vgsp-vfu: connect and negotiate, region
 * read/write, guest memory as a sealed memfd passed with DMA_MAP, an MSI-X
 * eventfd, device reset, and raw messages for hostile input. It also plugs
 * into the guest-driver replay client (tests/replay) as its transport, so a
 * test can boot the emulated GSP and run RPCs through the real server.
 *
 * Every call returns 0 or -errno (the server's error for an error reply,
 * -EIO / -ETIMEDOUT when the socket fails or the server does not answer in
 * time). Counts of what this client sent are kept, so a test can compare
 * them with the server's counters exactly.
 */
#ifndef VFU_CLIENT_H
#define VFU_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include "proto.h"

struct rp_transport;

struct vc {
	int sock;
	uint16_t id;
	unsigned int timeout_ms;	/* per reply (default 10 s) */
	/* guest memory */
	int memfd;
	void *mem;
	size_t mem_size;
	uint64_t iova;
	int efd;			/* MSI-X vector 0 eventfd, or -1 */
	/* what we sent that the server counts (successful accesses) */
	uint64_t bar0_reads, bar0_writes, cfg_reads, cfg_writes;
};

/* Connect to @path and negotiate (VERSION). */
int vc_connect(struct vc *c, const char *path, unsigned int timeout_ms);
/* Close the socket and drop the guest memory and eventfd. */
void vc_close(struct vc *c);

/*
 * One request and its reply. @fd (or -1) travels as SCM_RIGHTS. The reply's
 * payload (without header) goes to @rep (up to @cap bytes), its length to
 * *replen. Returns 0, the negated error of an error reply, or -EIO.
 */
int vc_call(struct vc *c, uint16_t cmd, const void *p, uint32_t plen, int fd,
	    void *rep, uint32_t cap, uint32_t *replen);
/* Send raw bytes as they are (hostile framing); 0 or -EIO. */
int vc_send_raw(struct vc *c, const void *buf, size_t len);
/* Wait for one reply of any id; 0 (error replies included) or -EIO. */
int vc_recv_any(struct vc *c, struct vfu_hdr *h);

int vc_read(struct vc *c, uint32_t region, uint64_t off, void *buf, uint32_t n);
int vc_write(struct vc *c, uint32_t region, uint64_t off, const void *buf,
	     uint32_t n);
uint32_t vc_rd32(struct vc *c, uint32_t bar0_off);	/* ~0 on error */
int vc_wr32(struct vc *c, uint32_t bar0_off, uint32_t val);

/* Guest memory: a sealed memfd of @size bytes, mapped at @iova. */
int vc_mem(struct vc *c, size_t size, uint64_t iova);
/* MSI-X vector 0 -> a fresh eventfd. */
int vc_msix0(struct vc *c);
int vc_reset(struct vc *c);
/* Memory decode + Bus Master Enable, as pci_set_master(). */
int vc_bus_master(struct vc *c);

/* Fill @t to drive the replay client through this connection. */
void vc_transport(struct vc *c, struct rp_transport *t, const uint8_t uuid[16]);

#endif /* VFU_CLIENT_H */
