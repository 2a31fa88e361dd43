// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fw-standin — a stand-in for the GSP firmware file (gsp_ga10x.bin) that
 * compresses to almost nothing: the same ELF, byte for byte, except that the
 * contents of the named sections (default: .fwimage, the GSP-RM image, 36 MiB
 * of RISC-V code) are zeroed. Header, section table, section names and
 * sizes, offsets, alignment, .fwversion and the signatures stay as they were.
 *
 * Why this is enough for the emulated GSP (OpenRM 535.261.03):
 *  - the driver requests the file (kernel-open/nvidia/nv.c nv_get_firmware,
 *    src/nvidia/arch/nvalloc/unix/src/osinit.c RmFetchGspRmImages);
 *  - kernel_gsp.c _kgspPrepareGspRmBinaryImage parses the ELF section table
 *    (_kgspFwContainerGetSection: magic, ELFCLASS64, little endian,
 *    shentsize, every section inside the file), requires .fwversion to be
 *    exactly NV_VERSION_STRING plus its NUL (_kgspFwContainerVerifyVersion),
 *    copies .fwsignature_<chip> into a sysmem buffer and .fwimage into the
 *    radix3 buffer (kgspCreateRadix3) — copied, never inspected or hashed;
 *  - kgspCalculateFbLayout_GH100 puts their addresses and sizes in
 *    GspFwWprMeta for the FSP/GSP-FMC, which on hardware would verify and
 *    run the image. vgsp's emulated FSP (kernel/core/gsp/fsp_gh100.c) reads
 *    only the COT's boot-argument address, and gsp.c find_queues follows
 *    FMC params -> libos args -> RMARGS -> the shared region: nothing reads
 *    the WPR metadata, the radix3 image or the signature.
 *
 * usage: fw-standin IN OUT [SECTION...]     (default SECTION: .fwimage)
 * Prints one line per zeroed section and the .fwversion string; exit 1 on a
 * file that is not such an ELF or lacks a named section.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shdr {
	uint64_t name_off, offset, size;
	const char *name;
};

static uint64_t get(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static int die(const char *what)
{
	fprintf(stderr, "fw-standin: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	static const char *def[] = { ".fwimage" };
	const char **names = def;
	int nnames = 1, i, j;
	unsigned char *buf;
	long len;
	FILE *f;
	uint64_t shoff, shnum, shstrndx, stroff, strsz;
	struct shdr *sh;

	if (argc < 3)
		return die("usage: fw-standin IN OUT [SECTION...]");
	if (argc > 3) {
		names = (const char **)argv + 3;
		nnames = argc - 3;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 64 || fseek(f, 0, SEEK_SET))
		return die("cannot read the input file");
	buf = malloc(len);
	if (!buf || fread(buf, 1, len, f) != (size_t)len)
		return die("cannot read the input file");
	fclose(f);
	/* The driver's own checks (_kgspFwContainerGetSection). */
	if (memcmp(buf, "\177ELF", 4) || buf[4] != 2 || buf[5] != 1)
		return die("not a little-endian ELF64 file");
	shoff = get(buf + 0x28, 8);
	shnum = get(buf + 0x3c, 2);
	shstrndx = get(buf + 0x3e, 2);
	if (get(buf + 0x3a, 2) != 64 || !shnum || shstrndx >= shnum ||
	    shoff > (uint64_t)len || shnum * 64 > (uint64_t)len - shoff)
		return die("bad section header table");
	sh = calloc(shnum, sizeof(*sh));
	if (!sh)
		return die("out of memory");
	for (i = 0; i < (int)shnum; i++) {
		const unsigned char *h = buf + shoff + (uint64_t)i * 64;

		sh[i].name_off = get(h, 4);
		sh[i].offset = get(h + 0x18, 8);
		sh[i].size = get(h + 0x20, 8);
		if (get(h + 4, 4) != 8 /* SHT_NOBITS */ &&
		    (sh[i].offset > (uint64_t)len || sh[i].size > (uint64_t)len - sh[i].offset))
			return die("a section lies outside the file");
	}
	stroff = sh[shstrndx].offset;
	strsz = sh[shstrndx].size;
	if (!strsz || buf[stroff + strsz - 1])
		return die("bad section name table");
	for (i = 0; i < (int)shnum; i++) {
		if (sh[i].name_off >= strsz)
			return die("a section name lies outside the name table");
		sh[i].name = (const char *)buf + stroff + sh[i].name_off;
	}
	for (j = 0; j < nnames; j++) {
		for (i = 0; i < (int)shnum && strcmp(sh[i].name, names[j]); i++)
			;
		if (i == (int)shnum) {
			fprintf(stderr, "fw-standin: no section %s\n", names[j]);
			return 1;
		}
		memset(buf + sh[i].offset, 0, sh[i].size);
		printf("fw-standin: %s zeroed (%llu bytes at 0x%llx)\n", names[j],
		       (unsigned long long)sh[i].size, (unsigned long long)sh[i].offset);
	}
	for (i = 0; i < (int)shnum; i++)
		if (!strcmp(sh[i].name, ".fwversion") && sh[i].size &&
		    !buf[sh[i].offset + sh[i].size - 1])
			printf("fw-standin: .fwversion kept: %s\n", buf + sh[i].offset);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, len, f) != (size_t)len || fclose(f))
		return die("cannot write the output file");
	return 0;
}
