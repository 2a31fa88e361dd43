/* SPDX-License-Identifier: MIT */
/* cubin.c - minimal cubin reader (see cubin.h). */
#include "cubin.h"

#include <string.h>

#define SHT_NOBITS 8u
#define EIATTR_PARAM_CBANK 0x0au
#define EIATTR_REGCOUNT 0x2fu
#define EIFMT_SVAL 0x04u

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

struct sec {
	const char *name;
	uint32_t type, info;
	uint64_t off, size;
};

static int get_sec(const uint8_t *e, size_t size, unsigned i, uint64_t shoff,
		   const struct sec *strtab, struct sec *s)
{
	const uint8_t *h = e + shoff + (uint64_t)i * 64;
	uint32_t name = rd32(h);
	s->type = rd32(h + 4);
	s->off = rd64(h + 24);
	s->size = rd64(h + 32);
	s->info = rd32(h + 44);
	if (s->type != SHT_NOBITS && (s->off > size || s->size > size - s->off))
		return -1;
	s->name = "";
	if (strtab) {
		if (name >= strtab->size)
			return -1;
		const char *n = (const char *)e + strtab->off + name;
		if (!memchr(n, 0, strtab->size - name))
			return -1;
		s->name = n;
	}
	return 0;
}

/* walk .nv.info-style attribute records */
static void scan_info(const uint8_t *p, uint64_t n, struct cubin_kernel *k, int per_kernel)
{
	uint64_t i = 0;
	while (i + 4 <= n) {
		unsigned fmt = p[i], attr = p[i + 1];
		uint16_t sz = rd16(p + i + 2);
		uint64_t payload = fmt == EIFMT_SVAL ? sz : 0;
		if (payload > n - i - 4)
			return;
		const uint8_t *d = p + i + 4;
		if (per_kernel && attr == EIATTR_PARAM_CBANK && payload >= 8) {
			k->param_offset = rd16(d + 4);
			k->param_bytes = rd16(d + 6);
		}
		if (!per_kernel && attr == EIATTR_REGCOUNT && payload >= 8 && !k->regs)
			k->regs = rd32(d + 4);
		i += 4 + payload;
	}
}

int cubin_find_kernel(const void *elf, size_t size, const char *name, struct cubin_kernel *out)
{
	const uint8_t *e = elf;
	memset(out, 0, sizeof(*out));
	if (size < 64 || memcmp(e, "\177ELF", 4) || e[4] != 2 /* 64-bit */ || e[5] != 1 /* LE */)
		return -1;
	uint64_t shoff = rd64(e + 0x28);
	unsigned shentsize = rd16(e + 0x3a), shnum = rd16(e + 0x3c), shstrndx = rd16(e + 0x3e);
	if (shentsize != 64 || shnum == 0 || shstrndx >= shnum || shoff > size ||
	    (uint64_t)shnum * 64 > size - shoff)
		return -1;
	struct sec strtab;
	if (get_sec(e, size, shstrndx, shoff, NULL, &strtab) || strtab.type == SHT_NOBITS)
		return -1;

	/* pass 1: find the kernel's .text section */
	int text = -1;
	for (unsigned i = 0; i < shnum && text < 0; i++) {
		struct sec s;
		if (get_sec(e, size, i, shoff, &strtab, &s))
			return -1;
		if (strncmp(s.name, ".text.", 6) || s.type == SHT_NOBITS)
			continue;
		if (name && strcmp(s.name + 6, name))
			continue;
		if (strlen(s.name + 6) >= sizeof(out->name) || s.size == 0 || s.size > 0xffffffffu)
			return -1;
		strcpy(out->name, s.name + 6);
		out->code = e + s.off;
		out->code_bytes = (uint32_t)s.size;
		out->regs = s.info >> 24; /* nvcc keeps the register count here */
		text = (int)i;
	}
	if (text < 0)
		return -1;

	/* pass 2: sections that describe this kernel */
	for (unsigned i = 0; i < shnum; i++) {
		struct sec s;
		if (get_sec(e, size, i, shoff, &strtab, &s))
			return -1;
		const char *n = s.name;
		if (!strncmp(n, ".nv.constant0.", 14) && !strcmp(n + 14, out->name))
			out->cb0_bytes = (uint32_t)s.size;
		else if (!strncmp(n, ".nv.shared.", 11) && !strcmp(n + 11, out->name))
			out->shared_bytes = (uint32_t)s.size;
		else if (!strncmp(n, ".nv.info.", 9) && !strcmp(n + 9, out->name) && s.type != SHT_NOBITS)
			scan_info(e + s.off, s.size, out, 1);
		else if (!strcmp(n, ".nv.info") && s.type != SHT_NOBITS)
			scan_info(e + s.off, s.size, out, 0);
		else if ((!strncmp(n, ".rel.text.", 10) && !strcmp(n + 10, out->name)) ||
			 (!strncmp(n, ".rela.text.", 11) && !strcmp(n + 11, out->name)))
			out->has_relocs = 1;
	}
	if (out->regs == 0 || out->cb0_bytes == 0)
		return -1;
	return 0;
}
