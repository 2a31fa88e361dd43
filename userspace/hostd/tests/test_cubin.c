/* SPDX-License-Identifier: MIT */
/* test_cubin.c - the cubin reader against a synthetic ELF64 image laid out
 * like nvcc's output (.text.<k> with the register count in sh_info 31:24,
 * .nv.constant0.<k>, .nv.info.<k> with EIATTR_PARAM_CBANK, .nv.shared.<k>). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cubin.h"

static uint8_t img[2048];
static const char strtab[] = "\0.shstrtab\0.text.k\0.nv.constant0.k\0.nv.info.k\0.nv.shared.k\0";

static void w16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void w32(uint8_t *p, uint32_t v) { w16(p, (uint16_t)v); w16(p + 2, (uint16_t)(v >> 16)); }
static void w64(uint8_t *p, uint64_t v) { w32(p, (uint32_t)v); w32(p + 4, (uint32_t)(v >> 32)); }

static void sh(unsigned i, uint32_t name, uint32_t type, uint64_t off, uint64_t size, uint32_t info)
{
	uint8_t *h = img + 1024 + i * 64;
	w32(h, name); w32(h + 4, type); w64(h + 24, off); w64(h + 32, size); w32(h + 44, info);
}

static size_t build(void)
{
	memset(img, 0, sizeof(img));
	memcpy(img, "\177ELF\2\1", 6);
	w64(img + 0x28, 1024); w16(img + 0x3a, 64); w16(img + 0x3c, 6); w16(img + 0x3e, 1);
	memcpy(img + 64, strtab, sizeof(strtab));
	for (unsigned i = 0; i < 256; i++)
		img[256 + i] = (uint8_t)i;                   /* "code" */
	uint8_t *info = img + 600;                           /* PARAM_CBANK record */
	info[0] = 0x04; info[1] = 0x0a; w16(info + 2, 8);
	w32(info + 4, 3); w16(info + 8, 0x210); w16(info + 10, 0x18);
	sh(1, 1, 3, 64, sizeof(strtab), 0);                  /* .shstrtab */
	sh(2, 11, 1, 256, 256, (24u << 24) | 3);             /* .text.k, 24 regs */
	sh(3, 19, 1, 512, 0x228, 0);                         /* .nv.constant0.k */
	sh(4, 35, 0x70000000, 600, 12, 0);                   /* .nv.info.k */
	sh(5, 46, 8, 0, 0x100, 0);                           /* .nv.shared.k NOBITS */
	return sizeof(img);
}

static void test_parse(void **s)
{
	(void)s;
	struct cubin_kernel k;
	size_t n = build();
	assert_int_equal(cubin_find_kernel(img, n, "k", &k), 0);
	assert_string_equal(k.name, "k");
	assert_ptr_equal(k.code, img + 256);
	assert_int_equal(k.code_bytes, 256);
	assert_int_equal(k.regs, 24);
	assert_int_equal(k.cb0_bytes, 0x228);
	assert_int_equal(k.param_offset, 0x210);
	assert_int_equal(k.param_bytes, 0x18);
	assert_int_equal(k.shared_bytes, 0x100);
	assert_int_equal(k.has_relocs, 0);
	assert_int_equal(cubin_find_kernel(img, n, NULL, &k), 0);
	assert_string_equal(k.name, "k");
	assert_int_equal(cubin_find_kernel(img, n, "other", &k), -1);
}

static void test_malformed(void **s)
{
	(void)s;
	struct cubin_kernel k;
	size_t n = build();
	assert_int_equal(cubin_find_kernel(img, 63, "k", &k), -1);     /* truncated */
	img[1] = 'X';
	assert_int_equal(cubin_find_kernel(img, n, "k", &k), -1);      /* bad magic */
	build();
	sh(2, 11, 1, 2000, 256, 24u << 24);                            /* code past end */
	assert_int_equal(cubin_find_kernel(img, n, "k", &k), -1);
	build();
	sh(2, 5000, 1, 256, 256, 24u << 24);                           /* name past strtab */
	assert_int_equal(cubin_find_kernel(img, n, "k", &k), -1);
	build();
	w16(img + 0x3c, 200);                                          /* headers past end */
	assert_int_equal(cubin_find_kernel(img, n, "k", &k), -1);
	build();
	uint8_t *info = img + 600;
	w16(info + 2, 0xffff);                                         /* record past end: ignored */
	assert_int_equal(cubin_find_kernel(img, n, "k", &k), 0);
	assert_int_equal(k.param_offset, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests_name("cubin", tests, NULL, NULL);
}
