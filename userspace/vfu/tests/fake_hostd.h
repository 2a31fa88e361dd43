/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* What the fake hostd (fake_hostd.c) was asked, and what it answers. */
#ifndef VFU_FAKE_HOSTD_H
#define VFU_FAKE_HOSTD_H

#include <stddef.h>
#include <stdint.h>

#define FAKE_RM_MTHDS 64
#define FAKE_RM_CHV 64

struct fake_rm {
	/* answers */
	int open_fails, register_fails, launch_rc;
	uint64_t launch_ns;		/* a launch's time on the "GPU" */
	uint64_t sync_ns;		/* a mirror sync's time in "RM" */
	int ce_open_fails, copy_rc;	/* forced answers for copy channels */
	int boost_fails;
	int pce_fails;			/* CE_GET_CE_PCE_MASK refused */
	unsigned int pce_wide;		/* this COPY (if not 0) has 12 PCEs */
	unsigned int pce_refuse_from;	/* COPYn from here: no mask (0: none) */
	int group_open_fails, chan_in_group_fails;	/* shared groups */
	/* calls */
	unsigned int registered, unregistered, vas_created, vas_destroyed;
	unsigned int vidmem;		/* FB partitions made */
	unsigned int syncs, chan_opens, chan_closes, launches, closed;
	/* shared channel groups: opened, closed, closed with channels in
	 * them (a bug), the group of the last channel opened in one and of
	 * the last launch (0: a group of its own) */
	unsigned int group_opens, group_closes, group_close_busy;
	uint32_t last_group, last_launch_group;
	uint32_t large_hmem;		/* the last sync's VA space's */
	uint32_t next;			/* next handle */
	struct hd_run *runs;		/* the last sync's runs */
	size_t nruns;
	uint64_t qmd_va;
	struct hd_mthd mthd[FAKE_RM_MTHDS];	/* the last launch's replay */
	size_t nmthd, nmthd_total;
	/* copy channels and copies, done on the registered memory */
	unsigned int ce_opens, ce_closes, copies, fills, phys_syncs, boosts;
	unsigned int phys_sys_runs;	/* windows in the last physical sync */
	struct { uint32_t chan; struct hd_vas *v; } chv[FAKE_RM_CHV];
	unsigned int ce_engine;		/* the last copy channel's engine */
	struct hd_copy last_copy;
	struct { uint32_t h; uint8_t *cpu; uint64_t size; } mem[16];
	unsigned int nmem;
};

extern struct fake_rm fake_rm;
void fake_rm_reset(void);
/* The clock hostd and the core stamp with (CLOCK_MONOTONIC, ns). */
uint64_t fake_now(void);

#endif
