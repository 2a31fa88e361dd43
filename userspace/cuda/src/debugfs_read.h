/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Reads a snapshot of vgsp's debugfs (a copy of /sys/kernel/debug/vgsp made
 * by perf.sh, or the live directory) into results.json sections.
 *
 * Counters: every regular file at DIR/NAME or DIR/INSTANCE/NAME whose
 * non-empty lines all read "key VALUE", "key: VALUE" or "key=VALUE" (VALUE a
 * non-negative integer) becomes a group named NAME or INSTANCE.NAME.
 *
 * GR launches: DIR/gr_launches or DIR/INSTANCE/gr_launches, one launch a
 * line of key=value tokens: elapsed_ms=<num> ok=<0|1> submit_to_ok_ms=<num>.
 */
#ifndef PERF_DEBUGFS_READ_H
#define PERF_DEBUGFS_READ_H

#include <jansson.h>
#include <stddef.h>

/* Object group -> {key: integer}; NULL with *why set if none found. */
json_t *debugfs_counters(const char *dir, char *why, size_t whylen);

/* after - before for every key present in both (signed). */
json_t *debugfs_counters_delta(const json_t *before, const json_t *after);

/* Array of {elapsed_ms, ok, submit_to_ok_ms}; NULL with *why if none. */
json_t *debugfs_gr_launches(const char *dir, char *why, size_t whylen);

#endif
