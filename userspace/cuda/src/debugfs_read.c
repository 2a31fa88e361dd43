/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* debugfs snapshot readers; formats in debugfs_read.h. */
#define _POSIX_C_SOURCE 200809L
#include "debugfs_read.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GR_FILE "gr_launches"

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* One "key<sep>VALUE" line into obj; -1 if the line is not of that form. */
static int counter_line(char *line, json_t *obj)
{
	char *p = line, *key, *end;
	unsigned long long v;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0; /* blank lines are fine */
	key = p;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-')
		p++;
	if (p == key)
		return -1;
	if (*p != ':' && *p != '=' && !isspace((unsigned char)*p))
		return -1;
	*p++ = '\0';
	while (isspace((unsigned char)*p) || *p == ':' || *p == '=')
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	v = strtoull(p, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || *end || v > (unsigned long long)LLONG_MAX)
		return -1;
	json_object_set_new(obj, key, json_integer((json_int_t)v));
	return 0;
}

/* The file as a counter group, or NULL if any line is not a counter. */
static json_t *counter_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	json_t *obj;

	if (!f)
		return NULL;
	obj = json_object();
	while (fgets(line, sizeof(line), f)) {
		if (counter_line(line, obj)) {
			json_decref(obj);
			obj = NULL;
			break;
		}
	}
	fclose(f);
	if (obj && json_object_size(obj) == 0) {
		json_decref(obj);
		obj = NULL;
	}
	return obj;
}

/* Visits DIR/NAME and DIR/SUB/NAME regular files, sorted for stable output. */
typedef void (*visit_fn)(const char *path, const char *group, void *ctx);

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *dir, const char *prefix, int depth, visit_fn fn,
		 void *ctx)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		char path[4096], group[512];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(group, sizeof(group), "%s%s%s", prefix, *prefix ? "." : "",
			 names[i]);
		if (is_file(path))
			fn(path, group, ctx);
		else if (depth == 0 && is_dir(path))
			walk(path, group, 1, fn, ctx);
		free(names[i]);
	}
	free(names);
}

static void visit_counter(const char *path, const char *group, void *ctx)
{
	const char *base = strrchr(path, '/');
	json_t *obj;

	if (base && !strcmp(base + 1, GR_FILE))
		return;
	obj = counter_file(path);
	if (obj)
		json_object_set_new((json_t *)ctx, group, obj);
}

json_t *debugfs_counters(const char *dir, char *why, size_t whylen)
{
	json_t *all;

	if (!dir || !is_dir(dir)) {
		snprintf(why, whylen, "vgsp debugfs not found at %s",
			 dir ? dir : "none given");
		return NULL;
	}
	all = json_object();
	walk(dir, "", 0, visit_counter, all);
	if (json_object_size(all) == 0) {
		json_decref(all);
		snprintf(why, whylen, "no counter files under %s", dir);
		return NULL;
	}
	return all;
}

json_t *debugfs_counters_delta(const json_t *before, const json_t *after)
{
	json_t *delta = json_object();
	const char *g, *k;
	json_t *ga, *va;

	json_object_foreach((json_t *)after, g, ga) {
		json_t *gb = json_object_get(before, g), *gd = json_object();

		json_object_foreach(ga, k, va) {
			json_t *vb = json_object_get(gb, k);

			if (json_is_integer(vb))
				json_object_set_new(gd, k, json_integer(
					json_integer_value(va) - json_integer_value(vb)));
		}
		json_object_set_new(delta, g, gd);
	}
	return delta;
}

struct gr_ctx {
	json_t *arr;
	int bad;
};

static int gr_line(char *line, json_t *arr)
{
	char *tok, *save = NULL;
	json_t *o = json_object();
	int seen = 0;

	for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(tok, '='), *end;
		double v;

		if (!eq)
			goto bad;
		*eq = '\0';
		if (strcmp(tok, "elapsed_ms") && strcmp(tok, "submit_to_ok_ms") &&
		    strcmp(tok, "ok"))
			continue; /* other keys are ignored: newer module, older reader */
		v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || v < 0)
			goto bad;
		if (!strcmp(tok, "elapsed_ms") || !strcmp(tok, "submit_to_ok_ms")) {
			json_object_set_new(o, tok, json_real(v));
			seen |= !strcmp(tok, "elapsed_ms") ? 1 : 4;
		} else if (!strcmp(tok, "ok")) {
			json_object_set_new(o, tok, json_integer((json_int_t)v));
			seen |= 2;
		}
	}
	if (seen == 0) {
		json_decref(o);
		return 0; /* blank line */
	}
	if (seen != 7)
		goto bad;
	json_array_append_new(arr, o);
	return 0;
bad:
	json_decref(o);
	return -1;
}

static void visit_gr(const char *path, const char *group, void *ctx)
{
	struct gr_ctx *c = ctx;
	const char *base = strrchr(path, '/');
	char line[512];
	FILE *f;

	(void)group;
	if (!base || strcmp(base + 1, GR_FILE))
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (gr_line(line, c->arr))
			c->bad++;
	fclose(f);
}

json_t *debugfs_gr_launches(const char *dir, char *why, size_t whylen)
{
	struct gr_ctx c = { json_array(), 0 };

	if (!dir || !is_dir(dir)) {
		snprintf(why, whylen, "vgsp debugfs not found at %s",
			 dir ? dir : "none given");
		json_decref(c.arr);
		return NULL;
	}
	walk(dir, "", 0, visit_gr, &c);
	if (c.bad) {
		snprintf(why, whylen, "%d malformed line(s) in %s under %s", c.bad,
			 GR_FILE, dir);
		json_decref(c.arr);
		return NULL;
	}
	if (json_array_size(c.arr) == 0) {
		snprintf(why, whylen, "no GR launches recorded (%s) under %s",
			 GR_FILE, dir);
		json_decref(c.arr);
		return NULL;
	}
	return c.arr;
}
