/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The instance most unit tests start from: an h100-10g vgsp_dev on a fake
 * frontend whose guest RAM is [iova, iova + size), as cmocka setup and
 * teardown functions.
 */
#ifndef VGSP_TEST_DEV_FIXTURE_H
#define VGSP_TEST_DEV_FIXTURE_H

#include "helpers/fake_fe.h"

struct dev_fx {
	struct fake_fe fe;
	struct vgsp_dev *dev;
};

/* NULL when the instance cannot be created. */
struct dev_fx *dev_fx_new(u64 iova, size_t size, u8 id);
void dev_fx_free(struct dev_fx *f);

/* cmocka: guest RAM 64 KiB at 1 MiB, UUID 07 07 00.. */
int dev_fx_setup(void **state);
int dev_fx_teardown(void **state);

#endif
