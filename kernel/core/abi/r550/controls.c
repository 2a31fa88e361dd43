// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The GSP_RM_CONTROL commands whose number or params layout differs in
 * 550.163.01; every other command is answered by abi/r535's table (with
 * the list capacities of struct r535_layout).
 */
#include "r550.h"

u32 r550_control(struct vgsp_gsp *gsp, u32 cmd, u8 *p, u32 size,
		 bool *known)
{
	*known = true;
	switch (cmd) {
	case R550_CMD_GPU_GET_CONSTRUCTED_FALCON_INFO:
		/* 0 entries: no generic falcons owned by CPU-RM, as in 535 */
		if (size != R550_CONSTRUCTED_FALCON_INFO_SIZE)
			return NV_ERR_INVALID_PARAM_STRUCT;
		memset(p, 0, size);
		return NV_OK;
	case R550_CMD_MEMSYS_GET_STATIC_CONFIG:
		if (size != R550_MEMSYS_STATIC_CONFIG_SIZE)
			return NV_ERR_INVALID_PARAM_STRUCT;
		return r535_memsys_fill(p, size, R550_MEMSYS_FBPA_PRESENT,
					R550_MEMSYS_LTC_COUNT);
	case R550_CMD_INIT_USER_SHARED_DATA:
	case R550_CMD_USER_SHARED_DATA_SET_DATA_POLL:
		if (size != R550_USER_SHARED_DATA_PARAMS_SIZE)
			return NV_ERR_INVALID_PARAM_STRUCT;
		return NV_OK;
	}
	*known = false;
	return NV_ERR_NOT_SUPPORTED;
}

const char *r550_ctrl_name(u32 cmd)
{
	switch (cmd) {
	case R550_CMD_GPU_GET_CONSTRUCTED_FALCON_INFO:
		return "GPU_GET_CONSTRUCTED_FALCON_INFO";
	case R550_CMD_INIT_USER_SHARED_DATA:
		return "INTERNAL_INIT_USER_SHARED_DATA";
	case R550_CMD_USER_SHARED_DATA_SET_DATA_POLL:
		return "INTERNAL_USER_SHARED_DATA_SET_DATA_POLL";
	}
	return r535_ctrl_name(cmd);
}
