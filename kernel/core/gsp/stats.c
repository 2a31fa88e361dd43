// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * RPC statistics of one instance: per-function request/ok/error counts,
 * a log2 latency histogram (doorbell to reply visible), the control
 * command histogram (the worklist for the real driver) and a ring of the
 * last RPCs. Only numbers are kept, never guest data. The counting is
 * inline in gsp_priv.h (vgsp_stats_rpc, vgsp_stats_ctrl): it runs on
 * every RPC. Here: the names the views print.
 */
#include "gsp_priv.h"

const char *const vgsp_gsp_err_names[] = {
#define VGSP_GSP_ERR_NAME(n) #n,
	VGSP_GSP_ERR_LIST(VGSP_GSP_ERR_NAME)
#undef VGSP_GSP_ERR_NAME
};
const unsigned int vgsp_gsp_nerrs = VGSP_ARRAY_SIZE(vgsp_gsp_err_names);
