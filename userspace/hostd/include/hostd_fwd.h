/* SPDX-License-Identifier: MIT */
/*
 * hostd_fwd.h - running a guest's compute launches on the physical GPU
 * with the guest's GPU address space mirrored at the same virtual
 * addresses (docs/forwarding.md, ../shared/docs/reference/forwarding-map.md
 * §8). Three layers:
 *
 *  - backing: host memory the GPU may reach, registered with RM as an
 *    OS descriptor (the instance's FB store, each guest-RAM DMA window);
 *  - hd_vas:  one host VA space per guest VA space, its guest-usable
 *    ranges reserved before any channel exists, holding exactly the runs
 *    the caller hands to hd_vas_sync() (the planner diffs old and new);
 *  - hd_fwd_chan: a compute channel in such a VA space; a launch replays
 *    the guest's compute-class state methods, sends the guest's QMD by
 *    its VA (the GPU reads it, and everything it names, through the
 *    mirror) and waits for a fence. The channel is allocated with
 *    DENY_PHYSICAL_MODE_CE | DENY_AUTH_LEVEL_PRIV, so nothing a guest
 *    writes reaches memory outside its mirror.
 */
#ifndef VGSP_HOSTD_FWD_H
#define VGSP_HOSTD_FWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hostd.h"

/* ---- base: client, device, subdevice, usermode page; no channel ------- */
/* Fails (-1, d->stage/d->last_status say where) if the driver is not the
 * branch hostd's ABI was written for (hd_driver_version() names it). */
int hd_open_base(struct hd_dev *d, FILE *log);
/*
 * (added) The boost request a CUDA context makes when it is created
 * (NV2080_CTRL_CMD_PERF_BOOST: CUDA, high priority, to max, until cleared;
 * RM drops it with the client): without it the GPU runs hostd's channels
 * at its idle clock. 0 or -1 (d->last_status).
 */
int hd_perf_boost(struct hd_dev *d);
/* The physical copy engines behind COPY@copy_index (0..9): 0, or -1 (RM refused). */
int hd_ce_pce_mask(struct hd_dev *d, unsigned int copy_index, uint32_t *mask);
/* "580.159.04" or "" if the query failed */
const char *hd_driver_version(struct hd_dev *d);
/* (added) the driver branch nvrm_abi.h is pinned to, and the gate (pure):
 * 1 if @ver is "<branch><digit>...", else 0 */
#define HD_DRIVER_BRANCH "580."
int hd_driver_version_ok(const char *ver);

/* ---- host memory the GPU may reach ------------------------------------ */
struct hd_backing {
	uint32_t h;        /* RM handle of the OS-descriptor object */
	void *cpu;         /* page-aligned */
	uint64_t size;     /* multiple of 4 KiB */
	int map_fd;        /* (vidmem) the fd behind the CPU mapping, else 0 */
	bool vid;          /* video memory of the GPU, not host memory */
};
/* NV01_MEMORY_SYSTEM_OS_DESCRIPTOR on /dev/nvidia0 (RM pins the pages). */
int hd_backing_register(struct hd_dev *d, void *cpu, uint64_t size,
			struct hd_backing *b);
/*
 * (added) @size bytes of the GPU's own memory (NV01_MEMORY_LOCAL_USER, 2 MiB
 * pages, non-contiguous, zeroed by RM) mapped for the CPU through BAR1
 * (uncached: reads cost a PCIe round trip each); b->cpu is the mapping.
 * Freed by hd_backing_unregister(). 0 or -1 (d->stage/last_status).
 */
int hd_backing_vidmem(struct hd_dev *d, uint64_t size, struct hd_backing *b);
void hd_backing_unregister(struct hd_dev *d, struct hd_backing *b);

/* ---- mirrored VA spaces ------------------------------------------------ */
/* One mapping: [va, va+len) -> [off, off+len) of memory object hmem. */
struct hd_run {
	uint64_t va, len;
	uint32_t hmem;
	uint64_t off;
	bool ro;
	/* (added, vas.c's own, not part of what a run is) how hd_vas_sync()
	 * mapped it: false 4 KiB PTEs, true hd_run_pieces() */
	bool large;
};

/*
 * (added, pure) A run of the large-page memory split into pieces that
 * each map with one page size: 2 MiB where va and off are both aligned
 * and a whole page fits, else 64 KiB, else 4 KiB (va - off decides what
 * can ever line up). Natively CUDA maps its vidmem with 2 MiB pages; the
 * mirror's 4 KiB PTEs cost the copy engine (and kernels) TLB misses.
 * Returns the number of pieces (at most 5), or 0 if @cap is too small.
 */
struct hd_run_piece {
	uint64_t va, off, len, page;
};
#define HD_RUN_PIECES_MAX 5
size_t hd_run_pieces(const struct hd_run *r, struct hd_run_piece *p, size_t cap);

/* Guest VAs that can be mirrored: [HD_VA_MIN, HD_VA_MAX) minus the host
 * RM's reserved [4 GiB, 4.5 GiB). hd_vas_sync() skips (and counts) runs
 * outside; hostd's own buffers live above HD_VA_MAX. */
#define HD_VA_MIN 0x100000ull
#define HD_VA_RSVD_LO 0x100000000ull
#define HD_VA_RSVD_HI 0x120000000ull
#define HD_VA_MAX (1ull << 56)
/* (added) hostd's own window: channel rings, pushbuffers, fences and
 * hd_vas_alloc() memory are fixed maps through hvirt here (the VA space is
 * REQUIRE_FIXED_OFFSET, so RM refuses maps without a fixed VA). RM's own
 * context buffers grow up from HD_VA_MAX; this is 2^55 above. One 2^40
 * pushbuffer segment: the first GPFIFO entry of a channel sets its
 * extended base (C86F SET_PB_SEGMENT_EXTENDED_BASE). */
#define HD_VA_OWN_BASE ((1ull << 56) + (1ull << 55))
#define HD_VA_OWN_SIZE (1ull << 40)

struct hd_vas {
	uint32_t hvas, hvirt, rsv_lo, rsv_hi;
	struct hd_run *runs;   /* what is mapped now, sorted by va */
	size_t nruns, cap;
	uint64_t maps, unmaps, map_errors, skipped, syncs;
	uint64_t own_next;     /* (added) next free VA in hostd's window */
	uint64_t tlb_invalidates; /* (added) */
	/* (added) runs of this memory (the FB partition in vidmem, 2 MiB
	 * pages) are mapped with large pages where they line up; 0 none */
	uint32_t large_hmem;
	uint64_t large_maps, large_fallbacks; /* (added) runs mapped so;
					       * refused, mapped 4 KiB */
};
/* FERMI_VASPACE_A (REQUIRE_FIXED_OFFSET) + the two NV50 reservations. */
int hd_vas_create(struct hd_dev *d, struct hd_vas *v);
/*
 * Make the host VA space map exactly @runs (sorted by va, non-overlapping;
 * 4 KiB-aligned va/len/off): unmap runs that went or changed, map the new
 * ones (explicit 4 KiB page size, returned VA checked), one TLB invalidate
 * at the end. 0, or -1 with v->map_errors counted (the mirror is then
 * whatever succeeded; the next sync retries).
 */
int hd_vas_sync(struct hd_dev *d, struct hd_vas *v, const struct hd_run *runs,
		size_t n);
/* Unmaps every run, then frees the range object, both reservations and
 * the VA space. Close the VA space's channels (and hd_free() its
 * hd_vas_alloc() memory) first. */
void hd_vas_destroy(struct hd_dev *d, struct hd_vas *v);
/* (added) hostd memory (HD_MEM_*) mapped into the VA space at a fixed VA in
 * hostd's window (e.g. a channel's shader local memory); free with
 * hd_free() before hd_vas_destroy() */
int hd_vas_alloc(struct hd_dev *d, struct hd_vas *v, struct hd_mem *m, uint64_t size, int flags);

/* (added, pure) which reservation holds [va, va+len): 0 low, 1 high,
 * -1 none (outside both, or crossing a boundary) */
int hd_va_region(uint64_t va, uint64_t len);
/* (added, pure) the mirrorable parts of @in: runs split at the reservation
 * boundaries, parts outside both dropped and counted in *skipped. @in must
 * be sorted by va, non-overlapping, 4 KiB-aligned (va, len, off), len > 0;
 * @out needs room for 2 * n runs. Returns the number of runs written, or
 * -1 if @in breaks a rule or @out is too small (@out is then garbage). */
long hd_vas_clip_runs(const struct hd_run *in, size_t n, struct hd_run *out, size_t cap,
		      uint64_t *skipped);

/* The planner behind hd_vas_sync, pure (unit-tested with fake ops). */
struct hd_plan_ops {
	int (*unmap)(void *ctx, const struct hd_run *r);
	int (*map)(void *ctx, const struct hd_run *r);
};
/* Calls unmap for every old run not identical in new, then map for every
 * new run not identical in old. Returns the number of failed calls. The
 * run pointers handed to the ops point into @old / @new_runs. */
int hd_plan_apply(const struct hd_run *old, size_t nold,
		  const struct hd_run *new_runs, size_t nnew,
		  const struct hd_plan_ops *ops, void *ctx);

/* ---- compute channels in a mirrored VA space --------------------------- */
/*
 * (added) A host channel group on GR (KEPLER_CHANNEL_GROUP_A + one async
 * subcontext) that several compute channels of one VA space share, as a
 * CUDA context's channels share one group and one GR context natively.
 * With a group per channel the GPU switched GR context at every launch
 * that followed another channel's: 175.9 us p50 doorbell to fence against
 * 9.1 us (B/A run 9, results/20261203T1934Z-ba-hostd/).
 */
struct hd_fwd_group {
	uint32_t tsg, ctxshare;
	unsigned int chans;    /* channels open in it */
	bool scheduled;        /* the group's GPFIFO_SCHEDULE went through */
	bool dead;             /* a channel in it was RC'd or timed out: RM
				* stops the whole group, so new channels go
				* into a new one */
	uint64_t chan_schedules; /* channels scheduled on their own (the
				  * group already ran) */
};
/* 0 or -1 (nothing left allocated). */
int hd_fwd_group_open(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_group *g);
/* Frees the group; its channels must be closed first (chans == 0). */
void hd_fwd_group_close(struct hd_dev *d, struct hd_fwd_group *g);

struct hd_fwd_chan {
	uint32_t tsg, ctxshare, chan, gr, token;
	struct hd_fwd_group *group; /* (added) the group it is in, or NULL:
				     * its own (tsg, ctxshare) */
	struct hd_mem ring;    /* GPFIFO + USERD (hostd's, above HD_VA_MAX) */
	struct hd_mem pbm;     /* pushbuffer */
	struct hd_mem fence;   /* 4 KiB sysmem: fence word at 0 */
	struct hd_mem notif;   /* error notifier */
	uint32_t gp_entries, gp_put, seq;
	uint64_t pb_off;
	bool dead;             /* RC'd or timed out: close and reopen */
	bool vid_ring;         /* (added) ring + pushbuffer fell back to vidmem */
	uint32_t rc_info32;    /* (added) notifier info32 of the last RC */
	/* the last launch: doorbell written, fence seen (CLOCK_MONOTONIC ns;
	 * 0 when it did not get that far) - the forwarding latency figures */
	uint64_t t_submit_ns, t_done_ns;
};
/* A method of the compute class: byte offset and data. */
struct hd_mthd {
	uint32_t mthd, data;
};
int hd_fwd_chan_open(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c);
/* (added) The same, in group @g (opened on @v): the group's first channel
 * schedules the group, later ones themselves. 0 (g->chans counts it) or
 * -1. hd_fwd_chan_close() takes it out of the group. */
int hd_fwd_chan_open_in(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_group *g,
			struct hd_fwd_chan *c);
/*
 * Send @n compute-class methods (in order), then SEND_PCAS_A(qmd_va >> 8)
 * + SEND_SIGNALING_PCAS2_B(INVALIDATE_SCHEDULE), then a host semaphore
 * release with WFI of ++seq into the fence; wait up to @timeout_ns.
 * 0 done; -ETIMEDOUT; -EFAULT the channel was RC'd (*rc = notifier
 * info32, e.g. 31 MMU fault); -EIO other failure. Any error marks the
 * channel dead, except (added) -EINVAL: @m holds a host method (< 0x100)
 * or a method past 0x3ffc, or qmd_va is not 256-aligned below 2^40 -
 * refused before anything reached the GPU, the channel stays usable.
 */
int hd_fwd_launch(struct hd_dev *d, struct hd_fwd_chan *c,
		  const struct hd_mthd *m, size_t n, uint64_t qmd_va,
		  uint64_t timeout_ns, uint32_t *rc);
void hd_fwd_chan_close(struct hd_dev *d, struct hd_fwd_chan *c);

/* ---- copy channels in a mirrored VA space ------------------------------- */
/*
 * A copy: @lines lines of @line_bytes, @pitch_* apart, from VA @src to VA
 * @dst of the channel's VA space (pitch layouts; the host CE reads and
 * writes only what the mirror maps).
 */
struct hd_copy {
	uint64_t src, dst, line_bytes, pitch_in, pitch_out;
	uint32_t lines;
	/* a fill instead: @value's low @elem_size bytes (1, 2 or 4) over
	 * each destination line through the CE's constant remap; src unused */
	bool fill;
	uint8_t elem_size;
	uint32_t value;
	/* (added) PIPELINED: may start before the channel's previous copy
	 * ends (else NON_PIPELINED, as the guest's copies are forwarded) */
	bool pipelined;
};
/*
 * A HOPPER_DMA_COPY_A channel on copy engine @copy_index in @v: its own
 * channel group, DENY_PHYSICAL_MODE_CE | DENY_AUTH_LEVEL_PRIV like the
 * compute channels, so it copies only between VAs of the mirror. The
 * struct is hd_fwd_chan's (c->gr holds the copy object). 0 or -1.
 */
int hd_fwd_ce_open(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c,
		   unsigned int copy_index);
/* (added, for ce-bench) the same with the channel group on GR instead of
 * the copy engine (@tsg_gr), and/or without the DENY flags (@no_deny:
 * only for measuring what RM allows; never for a guest's work) */
int hd_fwd_ce_open_how(struct hd_dev *d, struct hd_vas *v, struct hd_fwd_chan *c,
		       unsigned int copy_index, bool tsg_gr, bool no_deny);
/*
 * Run @cp on copy channel @c and wait for its semaphore (one-word release
 * into the fence after the flush). 0; -EINVAL refused before it reached
 * the GPU (line longer than 4 GiB, 57-bit VA...); -EFAULT RC (*rc =
 * notifier info32); -ETIMEDOUT; -EIO. Errors but -EINVAL mark @c dead.
 * Sets t_submit_ns / t_done_ns like hd_fwd_launch().
 */
int hd_fwd_copy(struct hd_dev *d, struct hd_fwd_chan *c,
		const struct hd_copy *cp, uint64_t timeout_ns, uint32_t *rc);
/* (added) hd_fwd_copy() in its two halves, so that copies on several
 * channels run at once: submit (0, *payload the fence value to wait for;
 * -EINVAL / -EIO as above), then wait for that payload (0 / -EFAULT /
 * -ETIMEDOUT as above; hd_fwd_launch() waits the same way). */
int hd_fwd_copy_submit(struct hd_dev *d, struct hd_fwd_chan *c, const struct hd_copy *cp,
		       uint32_t *payload);
int hd_fwd_wait(struct hd_fwd_chan *c, uint32_t payload, uint64_t timeout_ns, uint32_t *rc);
/* (pure) hd_fwd_copy()'s pushbuffer: OFFSET_IN/OUT, then LINE_LENGTH_IN +
 * LINE_COUNT 1 (one line) or PITCH_IN/OUT + LINE_LENGTH_IN + LINE_COUNT
 * (several, MULTI_LINE), SET_SEMAPHORE_A..PAYLOAD, LAUNCH_DMA (pitch both
 * sides, virtual, non-pipelined, flush, one-word release). A fill has
 * OFFSET_OUT only, LINE_LENGTH_IN in elements, SET_REMAP_CONST_A +
 * _CONST_B + _COMPONENTS (one constant component of elem_size bytes) and
 * REMAP_ENABLE. -1 for what the methods cannot carry, else dwords written
 * (copy 14, or 16 multi-line; fill 15, or 17). */
long hd_fwd_encode_copy(uint32_t *buf, size_t cap, const struct hd_copy *c,
			uint64_t fence_va, uint32_t payload);

/* (added, pure) the pushbuffer hd_fwd_launch() submits: @m on subchannel
 * 1 (consecutive methods share one incrementing header), SEND_PCAS_A +
 * SEND_SIGNALING_PCAS2_B(INVALIDATE_COPY_SCHEDULE), host SEM_ADDR_LO..
 * SEM_EXECUTE(RELEASE | RELEASE_WFI, 32-bit payload). Host methods
 * (< 0x100) and methods past 0x3ffc in @m are refused. Returns the number
 * of dwords written to @buf, or -1. @cap >= 2 * n + 10 always suffices. */
long hd_fwd_encode_launch(uint32_t *buf, size_t cap, const struct hd_mthd *m, size_t n,
			  uint64_t qmd_va, uint64_t fence_va, uint32_t payload);
/* (added, pure) control GPFIFO entry SET_PB_SEGMENT_EXTENDED_BASE: bits
 * 56:40 of the pushbuffer VAs of the entries that follow */
uint64_t hd_gpfifo_ext_base(uint64_t pb_va);

#endif
