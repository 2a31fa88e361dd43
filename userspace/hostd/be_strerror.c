/* SPDX-License-Identifier: MIT */
/* be_strerror.c - names for VGSP_BE_* status codes (log lines, CLI). */
#include "vgsp_backend.h"

const char *vgsp_be_strerror(int status)
{
	switch (status) {
	case VGSP_BE_OK: return "ok";
	case VGSP_BE_EPERM: return "method or class not allowed";
	case VGSP_BE_EIO: return "device error";
	case VGSP_BE_EAGAIN: return "try again (queue full or acquire unmet)";
	case VGSP_BE_ENOMEM: return "out of memory";
	case VGSP_BE_EFAULT: return "address outside instance memory";
	case VGSP_BE_EBUSY: return "busy";
	case VGSP_BE_EINVAL: return "invalid argument or malformed pushbuffer";
	case VGSP_BE_ENOTSUP: return "not supported by this backend";
	case VGSP_BE_ETIMEDOUT: return "timed out";
	default: return "unknown status";
	}
}
