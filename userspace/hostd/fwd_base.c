/* SPDX-License-Identifier: MIT */
/*
 * fwd_base.c - hd_open_base(): the part of hostd's bring-up every
 * forwarding VA space and channel shares (client, device with
 * MULTIPLE_VASPACES, subdevice, usermode doorbell page), gated on the
 * driver branch nvrm_abi.h is pinned to. The steps are hostd.c's own
 * (hd_open_files / hd_open_device), so hd_open() and hd_open_base() cannot
 * drift apart.
 */
#include <string.h>

#include "hostd_fwd.h"
#include "nvrm_abi.h"

#define STAGE(s) (d->stage = (s), d->log ? fprintf(d->log, "stage: %s\n", (s)) : 0)

int hd_open_base(struct hd_dev *d, FILE *log)
{
	memset(d, 0, sizeof(*d));
	if (hd_open_files(d, log))
		return -1;

	/* before any RM object: every parameter block below is laid out for
	 * one branch; another branch may read them differently */
	STAGE("driver version");
	if (!hd_driver_version_ok(d->drv_version)) {
		if (log)
			fprintf(log, "hostd: driver version '%s' is not the %sx branch hostd's RM ABI "
				"is written for; refusing\n", d->drv_version, HD_DRIVER_BRANCH);
		d->last_status = NV_ERR_NOT_SUPPORTED;
		return -1;
	}

	if (hd_open_device(d, NV_DEVICE_ALLOCATION_VAMODE_MULTIPLE_VASPACES))
		return -1;

	STAGE("classes C86F/CBC0/C661");
	static const uint32_t need[] = { HOPPER_CHANNEL_GPFIFO_A, HOPPER_COMPUTE_A, HOPPER_USERMODE_A };
	for (unsigned i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!hd_has_class(d, need[i])) {
			if (log)
				fprintf(log, "hostd: class 0x%x missing from the class list\n", need[i]);
			d->last_status = NV_ERR_INVALID_CLASS;
			return -1;
		}

	/* NV_ESC_RM_ALLOC_MEMORY (OS descriptors) is only accepted on a
	 * /dev/nvidia0 fd registered to the control fd */
	STAGE("register /dev/nvidia0 fd");
	if (rm_register_fd(d, d->gpu))
		return -1;
	STAGE("base ready");
	return 0;
}

int hd_perf_boost(struct hd_dev *d)
{
	struct nv_perf_boost b = { NV2080_PERF_BOOST_CUDA_MAX, NV2080_PERF_BOOST_DURATION_INFINITE };

	return rm_control(d, d->subdevice, NV2080_CTRL_CMD_PERF_BOOST, &b, sizeof(b),
			  "ctrl PERF_BOOST (CUDA, to max, until the client goes)") ? -1 : 0;
}

int hd_ce_pce_mask(struct hd_dev *d, unsigned int copy_index, uint32_t *mask)
{
	struct nv_ce_pce_mask p = { NV2080_ENGINE_TYPE_COPY0 + copy_index, 0 };

	if (copy_index > 9 ||
	    rm_control(d, d->subdevice, NV2080_CTRL_CMD_CE_GET_CE_PCE_MASK, &p,
		       sizeof(p), "ctrl CE_GET_CE_PCE_MASK"))
		return -1;
	*mask = p.pceMask;
	return 0;
}

const char *hd_driver_version(struct hd_dev *d)
{
	return d->drv_version;
}
