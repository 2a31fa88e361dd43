// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ABI's rpc_info reach: how much of a one-slot request the transport
 * gathers for its handler (gsp/msgq.c copies that, not the 4 KiB slot).
 * It must cover every structure a handler checks and the params that
 * follow ALLOC and CONTROL (535.261.03's ALLOC header length omits them),
 * never less than the header length, and say "all" when it cannot tell.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "abi/abi.h"
#include "abi/r535/r535.h"
#include "wire.h"

#define HDR		0x20	/* rpc_message_header_v */
#define ALL		0xffffffffU

static u32 reach(const struct vgsp_abi *abi, u32 fn, u32 len, u32 size_off,
		 u32 size, u32 have)
{
	struct vgsp_rpc_info info;
	u8 rpc[0x80];

	memset(rpc, 0, sizeof(rpc));
	vgsp_put32(rpc, 0x08, len);
	vgsp_put32(rpc, 0x0c, fn);
	if (size_off)
		vgsp_put32(rpc, HDR + size_off, size);
	abi->rpc_info(rpc, have, 0x1000 - 0x30, &info);
	return info.reach;
}

static void check_abi(const struct vgsp_abi *abi)
{
	/* GSP_RM_CONTROL: header + rpc_gsp_rm_control (0x18) + paramsSize */
	assert_int_equal(reach(abi, 76, HDR + 0x1c, 0x10, 4, 0x50), HDR + 0x1c);
	assert_int_equal(reach(abi, 76, HDR, 0x10, 0x200, 0x50),
			 HDR + 0x18 + 0x200);
	/* GSP_RM_ALLOC: the params past the header length count */
	assert_int_equal(reach(abi, 103, HDR + 0x20, 0x14, 0x100, 0x50),
			 HDR + 0x20 + 0x100);
	/* a size that overflows means the whole slot */
	assert_int_equal(reach(abi, 103, HDR + 0x20, 0x14, ALL, 0x50), ALL);
	/* the size field not among the bytes seen: the whole slot */
	assert_int_equal(reach(abi, 76, HDR + 0x1c, 0x10, 4, HDR + 0x10), ALL);
	/* fixed structures: SET_GUEST_SYSTEM_INFO, FREE, UNLOADING */
	assert_int_equal(reach(abi, 1, HDR, 0, 0, 0x50), HDR + 0x318);
	assert_int_equal(reach(abi, 10, HDR, 0, 0, 0x50), HDR + 0x10);
	assert_int_equal(reach(abi, 47, HDR, 0, 0, 0x50), HDR + 0x08);
	/* never less than the header length; an unknown function: that */
	assert_int_equal(reach(abi, 10, 0x400, 0, 0, 0x50), 0x400);
	assert_int_equal(reach(abi, 999, HDR + 8, 0, 0, 0x50), HDR + 8);
	assert_int_equal(reach(abi, 999, 0, 0, 0, 0x50), HDR);
}

/* The rest of rpc_info: header fields, a large control's total, reply cap */
static void check_info(const struct vgsp_abi *abi)
{
	struct vgsp_rpc_info i;
	u8 rpc[0x80];

	memset(rpc, 0, sizeof(rpc));
	vgsp_put32(rpc, 0x08, HDR + 0x18 + 0x10);	/* a first part */
	vgsp_put32(rpc, 0x0c, 76);			/* GSP_RM_CONTROL */
	vgsp_put32(rpc, HDR + 0x10, 0x20000);		/* paramsSize */
	abi->rpc_info(rpc, 0x50, 0x1000 - 0x30, &i);
	assert_int_equal(i.length, HDR + 0x28);
	assert_int_equal(i.function, 76);
	assert_int_equal(i.total, HDR + 0x18 + 0x20000);
	/* a reply may be the largest static info (0x900) or the request */
	assert_int_equal(i.max_reply, 0x1000 - 0x30);
	abi->rpc_info(rpc, 0x50, 0x100, &i);
	assert_int_equal(i.max_reply, HDR + 0x900);
	/* complete: total is the length; other functions never continue */
	vgsp_put32(rpc, HDR + 0x10, 0x10);
	abi->rpc_info(rpc, 0x50, 0x100, &i);
	assert_int_equal(i.total, HDR + 0x28);
	vgsp_put32(rpc, 0x0c, 103);
	vgsp_put32(rpc, HDR + 0x10, 0x20000);
	abi->rpc_info(rpc, 0x50, 0x100, &i);
	assert_int_equal(i.total, HDR + 0x28);
}

static void test_info_r535(void **state)
{
	check_info(&vgsp_abi_r535);
}

static void test_info_r550(void **state)
{
	check_info(&vgsp_abi_r550);
}

/* r535's control index finds what a scan of its table finds. */
static void test_ctrl_index(void **state)
{
	assert_int_equal(r535_ctrl_index_check(), 0);
}

static void test_reach_r535(void **state)
{
	check_abi(&vgsp_abi_r535);
}

static void test_reach_r550(void **state)
{
	check_abi(&vgsp_abi_r550);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reach_r535),
		cmocka_unit_test(test_reach_r550),
		cmocka_unit_test(test_info_r535),
		cmocka_unit_test(test_info_r550),
		cmocka_unit_test(test_ctrl_index),
	};

	return cmocka_run_group_tests_name("rpc_reach", tests, NULL, NULL);
}
