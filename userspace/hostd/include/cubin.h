/* SPDX-License-Identifier: MIT */
/*
 * cubin.h - just enough of the CUDA cubin (ELF64) format to place one
 * kernel in GPU memory ourselves: its machine code, register count,
 * shared-memory size and where its parameters start in constant bank 0.
 * All offsets are bounds-checked: the input is treated as untrusted.
 */
#ifndef VGSP_CUBIN_H
#define VGSP_CUBIN_H

#include <stddef.h>
#include <stdint.h>

struct cubin_kernel {
	char name[128];
	const uint8_t *code;     /* points into the ELF image */
	uint32_t code_bytes;
	uint32_t regs;           /* registers per thread */
	uint32_t shared_bytes;   /* static shared memory (.nv.shared.<name>) */
	uint32_t cb0_bytes;      /* .nv.constant0.<name> size (driver area + params) */
	uint32_t param_offset;   /* EIATTR_PARAM_CBANK offset (0x210 on sm_90) */
	uint32_t param_bytes;
	int has_relocs;          /* code needs relocation: hostd refuses it */
};

/* name == NULL: the first kernel found.  Returns 0 or -1. */
int cubin_find_kernel(const void *elf, size_t size, const char *name, struct cubin_kernel *out);

#endif
