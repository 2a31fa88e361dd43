/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * debugfs counters: read the per-instance file and compare exact deltas,
 * so a test proves both that its accesses were counted and that nothing
 * else moved.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rig.h"

int ctrs_read(const char *uuid, struct ctrs *c)
{
	char path[PATH_MAX], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/vgsp/%s/counters", uuid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	c->n = 0;
	while (c->n < MAX_CTRS && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s %llu", c->name[c->n], &c->val[c->n]) == 2)
			c->n++;
	}
	fclose(f);
	return c->n ? 0 : -1;
}

/* Is @name listed in the comma list @list ("a,b" or "a=1,b=2")? Value out. */
static bool listed(const char *list, const char *name, long long *val)
{
	size_t nl = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l >= nl && !strncmp(p, name, nl) && (l == nl || p[nl] == '=')) {
			if (val)
				*val = l > nl ? strtoll(p + nl + 1, NULL, 0) : 0;
			return true;
		}
		p = e ? e + 1 : NULL;
	}
	return false;
}

bool ctrs_check(const char *name, const struct ctrs *b, const struct ctrs *a,
		const char *expect, const char *ignore)
{
	char why[1024] = "";
	size_t w = 0;

	if (a->n != b->n || !a->n) {
		fail(name, "counter sets differ (%u vs %u names)", b->n, a->n);
		return false;
	}
	for (unsigned int i = 0; i < a->n; i++) {
		long long want = 0, got = (long long)(a->val[i] - b->val[i]);

		if (strcmp(a->name[i], b->name[i])) {
			fail(name, "counter order changed at %u", i);
			return false;
		}
		if (listed(ignore, a->name[i], NULL))
			continue;
		listed(expect, a->name[i], &want);
		if (got != want && w < sizeof(why) - 64)
			w += (size_t)snprintf(why + w, sizeof(why) - w, " %s:+%lld(want +%lld)",
					      a->name[i], got, want);
	}
	/* Every expected name must exist, or a typo would pass silently. */
	for (const char *p = expect; p && *p;) {
		char nm[32];
		const char *e = strchr(p, '=');
		size_t l = e ? (size_t)(e - p) : 0;
		bool found = false;

		if (!e || l >= sizeof(nm))
			break;
		memcpy(nm, p, l);
		nm[l] = 0;
		for (unsigned int i = 0; i < a->n; i++)
			found |= !strcmp(a->name[i], nm);
		if (!found && w < sizeof(why) - 64)
			w += (size_t)snprintf(why + w, sizeof(why) - w, " missing:%s", nm);
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return check(!w, name, "deltas:%s", why);
}
