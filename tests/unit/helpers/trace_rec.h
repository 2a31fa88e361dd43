/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A recording trace op for tests: trace_rec_start() installs a copy of the
 * current OS ops whose trace op appends every event to a list (from any
 * thread); trace_rec_stop() puts the previous ops back.
 */
#ifndef VGSP_TEST_TRACE_REC_H
#define VGSP_TEST_TRACE_REC_H

#include "vgsp_os.h"

struct trace_ev {
	enum vgsp_trace_event ev;
	u64 a, b, c, d;
	char name[40];		/* RPC function name, "" for the others */
	char dev[40];
};

void trace_rec_start(void);
void trace_rec_stop(void);
unsigned int trace_rec_count(void);
/* A copy of event @i (taken under the list's lock). */
struct trace_ev trace_rec_get(unsigned int i);
/* Wait up to @ms for an event @ev at or after index @from: its index, or -1. */
int trace_rec_wait(unsigned int from, enum vgsp_trace_event ev, unsigned int ms);
/* The recorded events as one line of names, e.g. "doorbell rpc_begin". */
const char *trace_rec_names(char *buf, size_t len);

#endif
