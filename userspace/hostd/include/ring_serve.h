/* SPDX-License-Identifier: MIT */
/*
 * ring_serve.h - hostd's end of the kernel <-> hostd ring (the wire format
 * is kernel/core/hostd_ring.h): take the submissions vgsp.ko published for
 * one instance, run them on the CPU executor (sim_backend.c, ce_interp.c)
 * over the bytes staged in the data area and, when hostd maps the
 * instance's guest RAM (VGSP_HR_FEAT_GUEST_VIEW), over that view for the
 * VGSP_HR_TARGET_VIEW extents; publish the completions. A launch with an
 * empty grid completes (the kernel then writes its releases), any other
 * is refused as the in-kernel sim refuses it.
 *
 * The kernel is trusted more than hostd, but a ring is still checked: a
 * bad index stops serving that instance (-EPROTO), a malformed item gets a
 * VGSP_BE_EINVAL completion. No OS calls here: the attach loop
 * (hostd_attach.c) owns the device file, the eventfd and the kick.
 */
#ifndef VGSP_RING_SERVE_H
#define VGSP_RING_SERVE_H

#include <stddef.h>
#include <stdint.h>

struct vgsp_backend;

struct hr_server_stats {
	uint64_t items;      /* submissions taken */
	uint64_t completed;  /* completions published */
	uint64_t errors;     /* completions with status != 0 */
	uint64_t bad_item;   /* malformed submissions (VGSP_BE_EINVAL) */
	uint64_t bad_index;  /* the kernel's index was impossible */
	uint64_t view_bytes; /* moved through the guest-RAM view */
	uint64_t view_refused; /* a VIEW extent outside the view: EFAULT */
	uint64_t view_faults;  /* an access to the view faulted (hr_server_abort) */
	uint64_t launches_empty; /* empty-grid launches completed */
};

struct hr_server {
	uint8_t *area;
	uint32_t sub_tail, comp_head, comp_tail_seen; /* own copies */
	struct vgsp_backend *be;                       /* the CPU executor */
	int status;                                    /* of the last item */
	int done;
	uint32_t features;                             /* ctl.features */
	struct {
		uint8_t *host;                         /* NULL: no view */
		uint64_t iova, bytes;                  /* what it covers */
	} view;
	int busy;                                      /* an item is executing */
	uint64_t cur_cookie;                           /* its cookie, op */
	uint32_t cur_op;
	struct hr_server_stats st;
};

/* @area: the instance's mapping, @bytes its size. 0 or VGSP_BE_EINVAL
 * (wrong magic, version or layout), VGSP_BE_ENOMEM. */
int hr_server_init(struct hr_server *s, void *area, size_t bytes);
void hr_server_fini(struct hr_server *s);
/* The instance's guest RAM at @host, IOVAs [@iova, @iova + @bytes): where
 * VIEW extents are read and written. 0 or VGSP_BE_EINVAL. */
int hr_server_set_view(struct hr_server *s, void *host, uint64_t iova, uint64_t bytes);
/* The item being executed faulted on the view (hostd's SIGBUS handler
 * jumped out of hr_server_run): complete it with @status. 1 if there was
 * one, else 0. */
int hr_server_abort(struct hr_server *s, int status);
/* Serve up to @max items: the number completed (0: nothing to do, or the
 * completion ring is full), or -71 (EPROTO) when the ring is broken. */
int hr_server_run(struct hr_server *s, unsigned max);
/* The kernel closed this area (its instance went; the id may be reused). */
int hr_server_closed(struct hr_server *s);

#endif
