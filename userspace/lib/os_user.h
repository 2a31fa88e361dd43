/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Userspace implementation of the core's OS seam. */
#ifndef VGSP_OS_USER_H
#define VGSP_OS_USER_H

#include "vgsp_os.h"

/*
 * Install the userspace ops. VGSP_LOG=<0..3> sets the stderr threshold;
 * VGSP_RPC_INLINE_US=<0..10000> the RPC fast path's budget (gsp/gsp.h);
 * VGSP_TRACE=FILE below.
 */
void vgsp_os_user_init(void);
/* How many log lines of @level were emitted (tests assert on logging). */
unsigned int vgsp_os_user_log_count(enum vgsp_log_level level);
/* The text of the last VGSP_LOG_ERR line, whatever the threshold. */
void vgsp_os_user_last_error(char *buf, size_t len);

/*
 * Trace events (enum vgsp_trace_event in vgsp_os.h) as text lines, without
 * a newline and without a time: the text vgsp.ko's TRACE_EVENTs print,
 * e.g. "vgsp_rpc_end: dev=<uuid> fn=76 GSP_RM_CONTROL status=0x0 reply=..."
 * (docs/tracing.md). @sink gets each line, from whichever thread raised the
 * event (BAR traps, workers): it must be thread-safe. NULL: tracing off.
 * Once this returns, the previous sink is not running and is never called
 * again (its @arg may be freed).
 * A host with a transcript (vgsp-vfu --log) passes a sink that writes the
 * line there; VGSP_TRACE=FILE ("-" for stderr) at vgsp_os_user_init()
 * installs a sink that appends "<monotonic s> <line>" to FILE.
 */
typedef void (*vgsp_trace_sink)(void *arg, const char *line);
void vgsp_os_user_trace(vgsp_trace_sink sink, void *arg);
/* The line of one event into @buf (snprintf semantics). */
int vgsp_os_user_trace_format(const struct vgsp_trace_rec *rec, char *buf,
			      size_t len);

#endif /* VGSP_OS_USER_H */
