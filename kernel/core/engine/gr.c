// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * HOPPER_COMPUTE_A: state methods are accepted (the physical backend will
 * need them recorded; sim has no SMs), a launch (SEND_PCAS_A + a signalling
 * PCAS method) goes to the backend. sim refuses it, and the guest sees
 * what real hardware gives for a failed channel: the error notifier and a
 * stopped channel, never a fake completion and never a hang.
 */
#include "engine.h"
#include "../backend.h"

#define M_SEND_PCAS_A			0x2b4
#define M_SEND_SIGNALING_PCAS_B		0x2bc
#define M_SEND_SIGNALING_PCAS2_B	0x2c0

int vgsp_gr_method(struct vgsp_dev *dev, struct vgsp_chan *ch, u32 mthd,
		   u32 data)
{
	switch (mthd) {
	case M_SEND_PCAS_A:
		ch->gr_qmd_va = (u64)data << 8;
		return VGSP_ENG_OK;
	case M_SEND_SIGNALING_PCAS_B:
	case M_SEND_SIGNALING_PCAS2_B:
		ch->st.gr_launches++;
		if (dev->backend->gr_launch(dev, ch, ch->gr_qmd_va)) {
			ch->error_code = VGSP_RC_GR_EXCEPTION;
			return VGSP_ENG_ERROR;
		}
		return VGSP_ENG_OK;
	default:
		return VGSP_ENG_OK;
	}
}
