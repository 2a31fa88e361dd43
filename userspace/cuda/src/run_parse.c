/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Line parser for perf-harness output; strict, so a garbled run is refused. */
#define _POSIX_C_SOURCE 200809L
#include "run_parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const double *run_metric_get(const struct run_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].name, name))
			return &r->m[i].value;
	return NULL;
}

/* Copies "key=VALUE" from a run_cfg line into dst, or fails. */
static int cfg_field(const char *line, const char *key, char *dst, size_t len)
{
	char pat[40];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	n = strcspn(p, " \n");
	if (n == 0 || n >= len)
		return -1;
	memcpy(dst, p, n);
	dst[n] = '\0';
	return 0;
}

static int parse_metric(struct run_result *r, const char *rest)
{
	char name[RUN_NAME_LEN + 1], *end;
	const char *v;
	double val;
	size_t n = strcspn(rest, " ");

	if (n == 0 || n >= RUN_NAME_LEN || rest[n] != ' ')
		return -1;
	memcpy(name, rest, n);
	name[n] = '\0';
	v = rest + n + 1;
	errno = 0;
	val = strtod(v, &end);
	if (errno || end == v || (*end && *end != '\n') || !isfinite(val))
		return -1;
	if (run_metric_get(r, name) || r->nm == RUN_MAX_METRICS)
		return -1;
	strcpy(r->m[r->nm].name, name);
	r->m[r->nm++].value = val;
	return 0;
}

/* "NAME REASON": kept, so results.json can say what was skipped and why. */
static int parse_skipped(struct run_result *r, const char *rest)
{
	size_t n = strcspn(rest, " "), i;
	const char *why = rest + n + 1;

	if (n == 0 || n >= RUN_NAME_LEN || rest[n] != ' ' || !*why ||
	    strlen(why) >= RUN_REASON_LEN || r->nskipped == RUN_MAX_SKIPPED)
		return -1;
	for (i = 0; i < r->nskipped; i++)
		if (!strncmp(r->skipped[i].name, rest, n) && !r->skipped[i].name[n])
			return -1;
	memcpy(r->skipped[r->nskipped].name, rest, n);
	r->skipped[r->nskipped].name[n] = '\0';
	strcpy(r->skipped[r->nskipped].reason, why);
	r->nskipped++;
	return 0;
}

const char *run_skipped_get(const struct run_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nskipped; i++)
		if (!strcmp(r->skipped[i].name, name))
			return r->skipped[i].reason;
	return NULL;
}

int run_parse_file(const char *path, struct run_result *r, char *err,
		   size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned lineno = 0;
	int header = 0, cfg = 0;

	memset(r, 0, sizeof(*r));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "open-iov-perf-run 1")) {
			header = 1;
		} else if (!strncmp(line, "run_cfg ", 8)) {
			char *l = line + 7; /* keep the space before the first key */
			if (cfg_field(l, "n_warm", r->n_warm, sizeof(r->n_warm)) ||
			    cfg_field(l, "n_malloc", r->n_malloc, sizeof(r->n_malloc)) ||
			    cfg_field(l, "n_thru", r->n_thru, sizeof(r->n_thru)) ||
			    cfg_field(l, "sizes", r->sizes, sizeof(r->sizes)))
				goto bad;
			cfg = 1;
		} else if (!strncmp(line, "metric ", 7)) {
			if (parse_metric(r, line + 7))
				goto bad;
		} else if (!strncmp(line, "skipped ", 8)) {
			if (parse_skipped(r, line + 8))
				goto bad;
		} else if (!strncmp(line, "device ", 7)) {
			if (strlen(line + 7) >= sizeof(r->device) || !line[7])
				goto bad;
			strcpy(r->device, line + 7);
		} else if (!strncmp(line, "driver_api_version ", 19)) {
			r->driver_api_version = atoi(line + 19);
		} else if (!strncmp(line, "verify ", 7)) {
			if (sscanf(line + 7, "checks=%llu bad=%llu", &r->checks,
				   &r->bad) != 2)
				goto bad;
			r->has_verify = 1;
		} else if (!strcmp(line, "status OK")) {
			r->status_ok = 1;
		} else if (!strcmp(line, "status FAIL")) {
			r->status_ok = 0;
		}
		/* cc, sms, check, info lines: informational, kept in the raw log. */
	}
	fclose(f);
	for (size_t i = 0; i < r->nskipped; i++)
		if (run_metric_get(r, r->skipped[i].name)) {
			snprintf(err, errlen, "%s: %s is both measured and skipped",
				 path, r->skipped[i].name);
			return -1;
		}
	if (!header || !cfg) {
		snprintf(err, errlen, "%s: not a perf-harness output (no %s)", path,
			 header ? "run_cfg line" : "header");
		return -1;
	}
	return 0;
bad:
	fclose(f);
	snprintf(err, errlen, "%s:%u: malformed line: %s", path, lineno, line);
	return -1;
}
