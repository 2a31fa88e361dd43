/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One-line digest of `nvidia-smi -q -d CLOCK`: per GPU, each clock section
 * that has numbers, e.g.
 *   "GPU 00000000:00:06.0 | Clocks: Graphics=1980 MHz, SM=1980 MHz, ... |
 *    Max Clocks: ..." (driver version first when the text has it).
 * Sections whose values are all N/A / Not Found are left out.
 */
#ifndef PERF_CLOCK_DIGEST_H
#define PERF_CLOCK_DIGEST_H

#include <stddef.h>

/* 0 on success; -1 if the file can't be read or holds no clock values. */
int clock_digest_file(const char *path, char *out, size_t outlen);

#endif
