// SPDX-License-Identifier: GPL-2.0 OR MIT
/* vfio-user codec: every rule a malformed client message can break. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>
#include "codec.h"

static void test_hdr(void **st)
{
	struct vfu_hdr h = { .size = 16 };

	assert_int_equal(vfu_hdr_check(&h), 0);
	h.size = 15;
	assert_int_equal(vfu_hdr_check(&h), -EINVAL);
	h.size = VFU_MAX_MSG + 1;
	assert_int_equal(vfu_hdr_check(&h), -E2BIG);
	h.size = 16;
	h.flags = 2;	/* neither command nor reply */
	assert_int_equal(vfu_hdr_check(&h), -EINVAL);
	h.flags = VFU_F_TYPE_REPLY | VFU_F_NO_REPLY;
	assert_int_equal(vfu_hdr_check(&h), 0);
}

static void test_version(void **st)
{
	uint8_t in[64] = { 0 }, out[512];
	const char *json = "{\"capabilities\":{}}";
	int n;

	memcpy(in + 4, json, strlen(json) + 1);
	n = vfu_version_reply(in, 4 + strlen(json) + 1, out, sizeof(out), 16, 1 << 20);
	assert_true(n > 4);
	assert_int_equal(out[n - 1], '\0');
	assert_non_null(strstr((char *)out + 4, "\"max_msg_fds\":16"));
	assert_non_null(strstr((char *)out + 4, "\"pgsizes\":4096"));
	/* version with no JSON at all is fine */
	assert_true(vfu_version_reply(in, 4, out, sizeof(out), 16, 1 << 20) > 4);
	/* unterminated JSON */
	memset(in + 4, 'x', 20);
	assert_int_equal(vfu_version_reply(in, 24, out, sizeof(out), 16, 1 << 20), -EINVAL);
	/* major 1 is not ours */
	in[0] = 1;
	assert_int_equal(vfu_version_reply(in, 4, out, sizeof(out), 16, 1 << 20), -ENOTSUP);
	in[0] = 0;
	/* short payload, tiny output buffer */
	assert_int_equal(vfu_version_reply(in, 3, out, sizeof(out), 16, 1 << 20), -EINVAL);
	assert_int_equal(vfu_version_reply(in, 4, out, 8, 16, 1 << 20), -ENOSPC);
}

static void test_dma_map(void **st)
{
	struct vfu_dma_map m = { .argsz = 32, .flags = 3, .offset = 0x1000,
				 .iova = 0x100000, .size = 0x2000 }, o;

	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m), 1, &o), 0);
	assert_int_equal(o.iova, 0x100000);
	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m) - 1, 1, &o), -EINVAL);
	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m), 2, &o), -EINVAL);
	m.argsz = 8;
	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m), 1, &o), -EINVAL);
	m.argsz = 32;
	m.flags = 4;
	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m), 1, &o), -EINVAL);
	m.flags = 1;
	m.size = 0;
	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m), 1, &o), -EINVAL);
	m.size = 0x1800;	/* not page sized */
	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m), 1, &o), -EINVAL);
	m.size = 0x1000;
	m.iova = ~0ull - 0xfff;	/* wraps */
	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m), 1, &o), -EINVAL);
	m.iova = 0;
	m.offset = ~0ull - 0xfff;
	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m), 1, &o), -EINVAL);
	m.offset = 0;
	assert_int_equal(vfu_parse_dma_map(&m, sizeof(m), 0, &o), 0);	/* no fd */
}

static void test_dma_unmap(void **st)
{
	struct vfu_dma_unmap u = { .argsz = 24, .iova = 0x1000, .size = 0x1000 }, o;

	assert_int_equal(vfu_parse_dma_unmap(&u, sizeof(u), &o), 0);
	assert_int_equal(vfu_parse_dma_unmap(&u, 23, &o), -EINVAL);
	u.flags = VFU_UNMAP_F_DIRTY_BITMAP;
	assert_int_equal(vfu_parse_dma_unmap(&u, sizeof(u), &o), -ENOTSUP);
	u.flags = VFU_UNMAP_F_ALL;
	assert_int_equal(vfu_parse_dma_unmap(&u, sizeof(u), &o), -EINVAL);
	u.iova = u.size = 0;
	assert_int_equal(vfu_parse_dma_unmap(&u, sizeof(u), &o), 0);
	u.flags = 8;
	assert_int_equal(vfu_parse_dma_unmap(&u, sizeof(u), &o), -EINVAL);
	u.flags = 0;
	assert_int_equal(vfu_parse_dma_unmap(&u, sizeof(u), &o), -EINVAL);	/* size 0 */
	u.iova = ~0ull;
	u.size = 2;
	assert_int_equal(vfu_parse_dma_unmap(&u, sizeof(u), &o), -EINVAL);
}

static void test_info(void **st)
{
	struct vfu_device_info d = { .argsz = 16 };
	struct vfu_region_info r = { .argsz = 32, .index = 7 }, ro;
	struct vfu_irq_info i = { .argsz = 16, .index = 2 }, io;
	uint32_t argsz;

	assert_int_equal(vfu_parse_device_info(&d, sizeof(d), &argsz), 0);
	assert_int_equal(argsz, 16);
	assert_int_equal(vfu_parse_device_info(&d, 8, &argsz), -EINVAL);
	d.argsz = 4;
	assert_int_equal(vfu_parse_device_info(&d, sizeof(d), &argsz), -EINVAL);
	assert_int_equal(vfu_parse_region_info(&r, sizeof(r), &ro), 0);
	assert_int_equal(ro.index, 7);
	assert_int_equal(vfu_parse_region_info(&r, 16, &ro), -EINVAL);
	r.argsz = 16;
	assert_int_equal(vfu_parse_region_info(&r, sizeof(r), &ro), -EINVAL);
	assert_int_equal(vfu_parse_irq_info(&i, sizeof(i), &io), 0);
	assert_int_equal(vfu_parse_irq_info(&i, 12, &io), -EINVAL);
}

static void test_set_irqs(void **st)
{
	uint8_t buf[64] = { 0 };
	struct vfu_irq_set s = { .argsz = 20, .index = 2, .start = 0, .count = 3,
		.flags = VFU_IRQ_SET_DATA_EVENTFD | VFU_IRQ_SET_ACTION_TRIGGER }, o;
	const uint8_t *bools;

	memcpy(buf, &s, sizeof(s));
	assert_int_equal(vfu_parse_set_irqs(buf, 20, 3, &o, &bools), 0);
	assert_int_equal(vfu_parse_set_irqs(buf, 20, 0, &o, &bools), 0);	/* de-assign */
	assert_int_equal(vfu_parse_set_irqs(buf, 20, 2, &o, &bools), -EINVAL);
	assert_int_equal(vfu_parse_set_irqs(buf, 19, 3, &o, &bools), -EINVAL);
	/* two data flags */
	s.flags = VFU_IRQ_SET_DATA_EVENTFD | VFU_IRQ_SET_DATA_BOOL | VFU_IRQ_SET_ACTION_TRIGGER;
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(vfu_parse_set_irqs(buf, 20, 0, &o, &bools), -EINVAL);
	/* no action */
	s.flags = VFU_IRQ_SET_DATA_NONE;
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(vfu_parse_set_irqs(buf, 20, 0, &o, &bools), -EINVAL);
	/* unknown bit */
	s.flags = VFU_IRQ_SET_DATA_NONE | VFU_IRQ_SET_ACTION_TRIGGER | 0x100;
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(vfu_parse_set_irqs(buf, 20, 0, &o, &bools), -EINVAL);
	/* DATA_NONE with fds */
	s.flags = VFU_IRQ_SET_DATA_NONE | VFU_IRQ_SET_ACTION_TRIGGER;
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(vfu_parse_set_irqs(buf, 20, 1, &o, &bools), -EINVAL);
	/* DATA_BOOL needs count bytes */
	s.flags = VFU_IRQ_SET_DATA_BOOL | VFU_IRQ_SET_ACTION_TRIGGER;
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(vfu_parse_set_irqs(buf, 22, 0, &o, &bools), -EINVAL);
	assert_int_equal(vfu_parse_set_irqs(buf, 23, 0, &o, &bools), 0);
	assert_ptr_equal(bools, buf + 20);
	/* start + count wraps */
	s.flags = VFU_IRQ_SET_DATA_NONE | VFU_IRQ_SET_ACTION_TRIGGER;
	s.start = 0xffffffffu;
	s.count = 2;
	memcpy(buf, &s, sizeof(s));
	assert_int_equal(vfu_parse_set_irqs(buf, 20, 0, &o, &bools), -EINVAL);
}

static void test_region_rw(void **st)
{
	uint8_t buf[64] = { 0 };
	struct vfu_region_rw rw = { .offset = 0x10, .region = 0, .count = 4 }, o;
	const uint8_t *data;

	memcpy(buf, &rw, sizeof(rw));
	assert_int_equal(vfu_parse_region_rw(buf, 16, false, &o, &data), 0);
	assert_int_equal(vfu_parse_region_rw(buf, 20, false, &o, &data), -EINVAL);
	assert_int_equal(vfu_parse_region_rw(buf, 20, true, &o, &data), 0);
	assert_ptr_equal(data, buf + 16);
	assert_int_equal(vfu_parse_region_rw(buf, 19, true, &o, &data), -EINVAL);
	assert_int_equal(vfu_parse_region_rw(buf, 21, true, &o, &data), -EINVAL);
	assert_int_equal(vfu_parse_region_rw(buf, 15, false, &o, &data), -EINVAL);
	rw.count = 0;
	memcpy(buf, &rw, sizeof(rw));
	assert_int_equal(vfu_parse_region_rw(buf, 16, false, &o, &data), -EINVAL);
	rw.count = VFU_MAX_XFER + 1;
	memcpy(buf, &rw, sizeof(rw));
	assert_int_equal(vfu_parse_region_rw(buf, 16, false, &o, &data), -EINVAL);
	assert_true(vfu_range_ok(0xffc, 4, 0x1000));
	assert_false(vfu_range_ok(0xffd, 4, 0x1000));
	assert_false(vfu_range_ok(~0ull, 2, ~0ull));
}

static void test_write_multi(void **st)
{
	uint8_t buf[8 + 3 * 24] = { 0 };
	struct vfu_wr_one w = { .offset = 4, .region = 0, .count = 4 };
	const struct vfu_wr_one *wrs;
	uint64_t n = 3;

	memcpy(buf, &n, 8);
	for (int i = 0; i < 3; i++)
		memcpy(buf + 8 + i * 24, &w, sizeof(w));
	assert_int_equal(vfu_parse_write_multi(buf, sizeof(buf), &n, &wrs), 0);
	assert_int_equal(n, 3);
	assert_int_equal(vfu_parse_write_multi(buf, sizeof(buf) - 1, &n, &wrs), -EINVAL);
	w.count = 9;
	memcpy(buf + 8 + 24, &w, sizeof(w));
	assert_int_equal(vfu_parse_write_multi(buf, sizeof(buf), &n, &wrs), -EINVAL);
	n = 0;
	memcpy(buf, &n, 8);
	assert_int_equal(vfu_parse_write_multi(buf, sizeof(buf), &n, &wrs), -EINVAL);
	n = 1ull << 62;	/* huge count must not overflow the size check */
	memcpy(buf, &n, 8);
	assert_int_equal(vfu_parse_write_multi(buf, sizeof(buf), &n, &wrs), -EINVAL);
}

static void test_names(void **st)
{
	assert_string_equal(vfu_cmd_name(VFU_CMD_REGION_READ), "REGION_READ");
	assert_string_equal(vfu_cmd_name(999), "UNKNOWN");
	assert_string_equal(vfu_cmd_name(0), "UNKNOWN");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdr),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_dma_map),
		cmocka_unit_test(test_dma_unmap),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_set_irqs),
		cmocka_unit_test(test_region_rw),
		cmocka_unit_test(test_write_multi),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
