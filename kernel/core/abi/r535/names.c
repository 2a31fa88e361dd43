// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Names of r535 RPC functions and events, for views and log lines. */
#include "r535.h"

static const struct {
	u32 fn;
	const char *name;
} r535_fns[] = {
	{ R535_FN_NOP, "NOP" },
	{ R535_FN_SET_GUEST_SYSTEM_INFO, "SET_GUEST_SYSTEM_INFO" },
	{ R535_FN_ALLOC_MEMORY, "ALLOC_MEMORY" },
	{ R535_FN_FREE, "FREE" },
	{ R535_FN_DUP_OBJECT, "DUP_OBJECT" },
	{ R535_FN_UNLOADING_GUEST_DRIVER, "UNLOADING_GUEST_DRIVER" },
	{ R535_FN_GET_GSP_STATIC_INFO, "GET_GSP_STATIC_INFO" },
	{ R535_FN_SET_PAGE_DIRECTORY, "SET_PAGE_DIRECTORY" },
	{ R535_FN_UPDATE_BAR_PDE, "UPDATE_BAR_PDE" },
	{ R535_FN_CONTINUATION_RECORD, "CONTINUATION_RECORD" },
	{ R535_FN_GSP_SET_SYSTEM_INFO, "GSP_SET_SYSTEM_INFO" },
	{ R535_FN_SET_REGISTRY, "SET_REGISTRY" },
	{ R535_FN_GSP_RM_CONTROL, "GSP_RM_CONTROL" },
	{ R535_FN_GSP_RM_ALLOC, "GSP_RM_ALLOC" },
	{ R535_EVENT_GSP_INIT_DONE, "GSP_INIT_DONE" },
	{ R535_EVENT_RC_TRIGGERED, "RC_TRIGGERED" },
	{ R535_EVENT_OS_ERROR_LOG, "OS_ERROR_LOG" },
};

const char *r535_fn_name(u32 function)
{
	unsigned int i;

	for (i = 0; i < VGSP_ARRAY_SIZE(r535_fns); i++)
		if (r535_fns[i].fn == function)
			return r535_fns[i].name;
	return "?";
}
