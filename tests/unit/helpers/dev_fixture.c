// SPDX-License-Identifier: GPL-2.0 OR MIT
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "profiles.h"
#include "helpers/dev_fixture.h"

struct dev_fx *dev_fx_new(u64 iova, size_t size, u8 id)
{
	u8 uuid[16] = { id, id };
	struct dev_fx *f = calloc(1, sizeof(*f));

	vgsp_os_user_init();
	if (!f)
		return NULL;
	fake_fe_init(&f->fe, iova, size);
	f->dev = vgsp_dev_create(vgsp_profile_find("h100-10g"), uuid, 8,
				 &fake_fe_ops, &f->fe);
	if (!f->dev) {
		fake_fe_fini(&f->fe);
		free(f);
		return NULL;
	}
	return f;
}

void dev_fx_free(struct dev_fx *f)
{
	vgsp_dev_destroy(f->dev);
	fake_fe_fini(&f->fe);
	free(f);
}

int dev_fx_setup(void **state)
{
	struct dev_fx *f = dev_fx_new(0x100000, 0x10000, 7);

	assert_non_null(f);
	*state = f;
	return 0;
}

int dev_fx_teardown(void **state)
{
	dev_fx_free(*state);
	return 0;
}
