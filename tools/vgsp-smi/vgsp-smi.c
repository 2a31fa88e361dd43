// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vgsp-smi: the operator's host tool for vgsp. One listing of the physical
 * NVIDIA PCI functions (libpci), the mdev parents and their types (sysfs),
 * the vgsp instances of both frontends (vgsp.ko through sysfs + debugfs,
 * vgsp-vfu through its --stats file) with their counters; -q for every view
 * of an instance; dmon for rates per interval. --json for each of them.
 *
 * Field names, JSON schema and exit codes: docs/vgsp-smi.md.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <pci/pci.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SMI_SCHEMA  "vgsp-smi/1"
#define SMI_VERSION "1.0"

enum {
	EX_OK = 0,		/* success */
	EX_ERR = 1,		/* other failure (I/O, unreadable stats file) */
	EX_USAGE = 2,		/* bad command line */
	EX_NOTLOADED = 3,	/* vgsp.ko not loaded (or unloaded while read) */
	EX_NODEBUGFS = 4,	/* no debugfs, or permission denied */
	EX_NOINST = 5,		/* instance not found, or removed while read */
};

enum frontend { FE_KERNEL, FE_VFU };
static const char *const fe_names[] = { "vgsp.ko", "vgsp-vfu" };

static const char *sysfs_root = "/sys";
static const char *debugfs_root = "/sys/kernel/debug";
static const char *proc_root = "/proc";
static bool json_mode;
#define MAX_VFU 32
static const char *vfu_files[MAX_VFU];
static int nvfu;

/* The first error decides the exit code; its line goes to stderr once. */
static int err_code;
static char err_msg[1024];

__attribute__((format(printf, 2, 3)))
static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	if (!err_code) {
		err_code = code;
		va_start(ap, fmt);
		vsnprintf(err_msg, sizeof(err_msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

/* ---- small helpers ------------------------------------------------------ */

__attribute__((format(printf, 3, 4)))
static const char *pathf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return buf;
}

/* Whole file as a NUL-terminated string; NULL with errno set. */
static char *slurp(const char *path)
{
	size_t cap = 4096, n = 0, r;
	char *b, *nb;
	FILE *f = fopen(path, "r");
	int e;

	if (!f)
		return NULL;
	b = malloc(cap);
	if (!b) {
		fclose(f);
		errno = ENOMEM;
		return NULL;
	}
	while ((r = fread(b + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap) {
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			b = nb;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		e = errno;
		free(b);
		fclose(f);
		errno = e ? e : EIO;
		return NULL;
	}
	fclose(f);
	b[n] = 0;
	return b;
}

static void rstrip(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

/* First line of a sysfs attribute, trimmed; NULL with errno set. */
static char *attr(const char *path)
{
	char *s = slurp(path), *nl;

	if (!s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl)
		*nl = 0;
	rstrip(s);
	return s;
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static json_t *jstr(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	return j ? j : json_string("?");	/* not UTF-8 */
}

/* Decimal integers become JSON integers, everything else a string. */
static json_t *jval(const char *s)
{
	unsigned long long v;
	char *end;

	if (*s && strspn(s, "0123456789") == strlen(s) && strlen(s) <= 19) {
		errno = 0;
		v = strtoull(s, &end, 10);
		if (!errno && v <= (unsigned long long)LLONG_MAX)
			return json_integer((json_int_t)v);
	}
	return jstr(s);
}

static json_t *jint_or_null(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	j = jval(s);
	if (json_is_integer(j))
		return j;
	json_decref(j);
	return json_null();
}

static bool is_ident(const char *s)
{
	if (!(islower((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Directory entries (no dot files), sorted; NULL with errno set. */
static char **list_dir(const char *path, int *n)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **v = NULL, **nv;
	int cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (*n + 1 >= cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[(*n)++] = strdup(de->d_name);
	}
	closedir(d);
	if (!v) {
		v = calloc(1, sizeof(*v));
		return v;
	}
	qsort(v, *n, sizeof(*v), cmp_str);
	v[*n] = NULL;
	return v;
}

static void free_list(char **v)
{
	char **p;

	for (p = v; p && *p; p++)
		free(*p);
	free(v);
}

/* Basename of a symlink's target, or NULL. */
static char *link_base(const char *path)
{
	char buf[PATH_MAX], *s;
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return NULL;
	buf[n] = 0;
	s = strrchr(buf, '/');
	return strdup(s ? s + 1 : buf);
}

/* Test-only: VGSP_SMI_TEST_HOOK runs at fixed points (docs/vgsp-smi.md). */
static void test_hook(const char *point, long n)
{
	const char *cmd = getenv("VGSP_SMI_TEST_HOOK");
	char num[32];

	if (!cmd || !*cmd)
		return;
	snprintf(num, sizeof(num), "%ld", n);
	setenv("VGSP_SMI_HOOK_POINT", point, 1);
	setenv("VGSP_SMI_HOOK_N", num, 1);
	fflush(stdout);
	if (system(cmd) == -1)
		perror("vgsp-smi: test hook");
}

/* ---- view text -> JSON -------------------------------------------------- */

#define MAX_TOK 64

/*
 * A view is "key value" lines (fields) or a table whose first line names
 * its columns (rows); a few line shapes are rows too: bar0_unknown's
 * "0xOFF reads N writes N", summary's "type ID instances N available N",
 * vfu's "msg NAME N errors N" and "dma_window iova=.. size=.. MODE".
 */
static json_t *parse_view(const char *name, const char *text)
{
	json_t *v = json_object(), *fields = json_object(), *rows = NULL;
	json_t *windows = NULL;
	char *copy = strdup(text), *save = NULL, *line, *cols[MAX_TOK];
	int ncols = 0, lineno = 0, i;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lineno++) {
		char *tok[MAX_TOK], *ts = NULL, *t, *lc = strdup(line), *rest;
		int nt = 0;

		rstrip(line);
		for (t = strtok_r(lc, " \t", &ts); t && nt < MAX_TOK;
		     t = strtok_r(NULL, " \t", &ts))
			tok[nt++] = t;
		if (!nt) {
			free(lc);
			continue;
		}
		if (lineno == 0 && nt >= 3) {
			for (i = 0; i < nt && is_ident(tok[i]); i++)
				;
			if (i == nt) {
				for (i = 0; i < nt; i++)
					cols[i] = strdup(tok[i]);
				ncols = nt;
				rows = json_array();
				free(lc);
				continue;
			}
		}
		if (nt == 5 && !strncmp(tok[0], "0x", 2) && !strcmp(tok[1], "reads") &&
		    !strcmp(tok[3], "writes")) {
			if (!rows)
				rows = json_array();
			json_array_append_new(rows, json_pack("{s:o,s:o,s:o}",
				"offset", jstr(tok[0]), "reads", jval(tok[2]),
				"writes", jval(tok[4])));
		} else if (!strcmp(name, "summary") && nt == 6 && !strcmp(tok[0], "type") &&
			   !strcmp(tok[2], "instances") && !strcmp(tok[4], "available")) {
			if (!rows)
				rows = json_array();
			json_array_append_new(rows, json_pack("{s:o,s:o,s:o}",
				"type", jstr(tok[1]), "instances", jval(tok[3]),
				"available", jval(tok[5])));
		} else if (!strcmp(name, "vfu") && nt == 5 && !strcmp(tok[0], "msg") &&
			   !strcmp(tok[3], "errors")) {
			if (!rows)
				rows = json_array();
			json_array_append_new(rows, json_pack("{s:o,s:o,s:o}",
				"msg", jstr(tok[1]), "count", jval(tok[2]),
				"errors", jval(tok[4])));
		} else if (!strcmp(name, "vfu") && !strcmp(tok[0], "dma_window")) {
			json_t *w = json_object();

			for (i = 1; i < nt; i++) {
				char *eq = strchr(tok[i], '=');

				if (eq) {
					*eq = 0;
					json_object_set_new(w, tok[i], jstr(eq + 1));
				} else {
					json_object_set_new(w, "mode", jstr(tok[i]));
				}
			}
			if (!windows)
				windows = json_array();
			json_array_append_new(windows, w);
		} else if (ncols && nt == ncols) {
			json_t *r = json_object();

			for (i = 0; i < nt; i++)
				json_object_set_new(r, cols[i], jval(tok[i]));
			json_array_append_new(rows, r);
		} else {
			rest = line + strlen(tok[0]);
			rest += strspn(rest, " \t");
			json_object_set_new(fields, tok[0], jval(rest));
		}
		free(lc);
	}
	json_object_set_new(v, "fields", fields);
	if (ncols) {
		json_t *c = json_array();

		for (i = 0; i < ncols; i++) {
			json_array_append_new(c, json_string(cols[i]));
			free(cols[i]);
		}
		json_object_set_new(v, "columns", c);
	}
	if (rows)
		json_object_set_new(v, "rows", rows);
	if (windows)
		json_object_set_new(v, "windows", windows);
	free(copy);
	return v;
}

static json_t *vfield(json_t *views, const char *view, const char *key)
{
	return json_object_get(json_object_get(json_object_get(views, view), "fields"), key);
}

static const char *vstr(json_t *views, const char *view, const char *key)
{
	json_t *j = vfield(views, view, key);

	return json_is_string(j) ? json_string_value(j) : NULL;
}

/* ---- where things are ----------------------------------------------------- */

static bool vgsp_loaded(void)
{
	char p[PATH_MAX];

	return exists(pathf(p, sizeof(p), "%s/module/vgsp", sysfs_root));
}

/* Why debugfs/vgsp cannot be read: records the error, returns its code. */
static int debugfs_problem(const char *what)
{
	char p[PATH_MAX];
	struct stat st;
	int n = 0;
	char **ents;

	pathf(p, sizeof(p), "%s/vgsp", debugfs_root);
	if (stat(p, &st) == 0 && access(p, R_OK | X_OK) == 0)
		return fail(EX_NODEBUGFS, "cannot read %s: %s", what, strerror(errno ? errno : EIO));
	if (errno == EACCES || (stat(p, &st) == 0))
		return fail(EX_NODEBUGFS, "permission denied reading %s (debugfs needs root)", p);
	if (!vgsp_loaded())
		return fail(EX_NOTLOADED, "vgsp is not loaded (no %s/module/vgsp)", sysfs_root);
	ents = list_dir(debugfs_root, &n);
	if (!ents && errno == EACCES) {
		free_list(ents);
		return fail(EX_NODEBUGFS, "permission denied reading %s (debugfs needs root)",
			    debugfs_root);
	}
	free_list(ents);
	if (!n)
		return fail(EX_NODEBUGFS, "debugfs is not mounted at %s (mount -t debugfs none %s)",
			    debugfs_root, debugfs_root);
	return fail(EX_NODEBUGFS, "no %s although vgsp is loaded (vgsp.ko without debugfs?)", p);
}

static const char *const view_order[] = {
	"counters", "info", "bar0_unknown", "mm", "gsp_state", "gsp_rpc",
	"gsp_latency", "gsp_controls", "gsp_queue", "rpc_log", "vfu",
};

static int view_rank(const char *n)
{
	unsigned int i;

	for (i = 0; i < sizeof(view_order) / sizeof(view_order[0]); i++)
		if (!strcmp(view_order[i], n))
			return (int)i;
	return 1000;
}

static int cmp_view(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int rx = view_rank(x), ry = view_rank(y);

	return rx != ry ? rx - ry : strcmp(x, y);
}

/* Every debugfs view of one vgsp.ko instance, into *out. */
static int read_kernel_views(const char *uuid, json_t **out)
{
	char dir[PATH_MAX], p[PATH_MAX], sys[PATH_MAX];
	char **ents;
	int n, i;
	json_t *views;

	*out = NULL;
	pathf(dir, sizeof(dir), "%s/vgsp/%s", debugfs_root, uuid);
	pathf(sys, sizeof(sys), "%s/bus/mdev/devices/%s", sysfs_root, uuid);
	errno = 0;
	ents = list_dir(dir, &n);
	if (!ents) {
		if (errno == EACCES)
			return fail(EX_NODEBUGFS, "permission denied reading %s (debugfs needs root)", dir);
		pathf(p, sizeof(p), "%s/vgsp", debugfs_root);
		if (!exists(p))
			return debugfs_problem(dir);
		if (!exists(sys))
			return fail(EX_NOINST, "instance %s was removed while being read", uuid);
		return fail(EX_NODEBUGFS, "instance %s has no debugfs directory %s", uuid, dir);
	}
	qsort(ents, n, sizeof(*ents), cmp_view);
	views = json_object();
	for (i = 0; i < n; i++) {
		char *text = slurp(pathf(p, sizeof(p), "%s/%s", dir, ents[i]));

		if (!text) {
			int e = errno;

			json_decref(views);
			free_list(ents);
			if (e == ENOENT || e == ENODEV) {
				if (!vgsp_loaded())
					return fail(EX_NOTLOADED, "vgsp was unloaded while %s was read", uuid);
				return fail(EX_NOINST, "instance %s was removed while being read", uuid);
			}
			if (e == EACCES || e == EPERM)
				return fail(EX_NODEBUGFS, "permission denied reading %s (debugfs needs root)", p);
			return fail(EX_ERR, "cannot read %s: %s", p, strerror(e));
		}
		json_object_set_new(views, ents[i], parse_view(ents[i], text));
		free(text);
	}
	free_list(ents);
	*out = views;
	return 0;
}

/* A vgsp-vfu --stats file: "== view" sections. */
static int read_vfu_views(const char *file, json_t **out)
{
	char *text = slurp(file), *p, *sec, *next, name[128];
	json_t *views;

	*out = NULL;
	if (!text)
		return fail(errno == ENOENT ? EX_NOINST : EX_ERR, "cannot read vgsp-vfu stats %s: %s",
			    file, strerror(errno));
	if (strncmp(text, "== ", 3)) {
		free(text);
		return fail(EX_ERR, "%s is not a vgsp-vfu stats file (no '== view' line)", file);
	}
	views = json_object();
	for (sec = text; sec && !strncmp(sec, "== ", 3); sec = next) {
		char *nl = strchr(sec, '\n'), *body;

		if (!nl)
			break;
		*nl = 0;
		snprintf(name, sizeof(name), "%s", sec + 3);
		rstrip(name);
		body = nl + 1;
		next = strstr(body, "\n== ");
		if (next) {
			*next = 0;
			next++;
		} else if (!strncmp(body, "== ", 3)) {	/* empty section */
			next = body;
			body = "";
		}
		p = strdup(body);
		json_object_set_new(views, name, parse_view(name, p));
		free(p);
	}
	free(text);
	if (!vstr(views, "info", "uuid")) {
		json_decref(views);
		return fail(EX_ERR, "%s has no info view with a uuid", file);
	}
	*out = views;
	return 0;
}

/* ---- physical functions (libpci) ---------------------------------------- */

static sigjmp_buf pci_jb;
static char pci_msg[256];

__attribute__((noreturn, format(printf, 1, 2)))
static void pci_error_cb(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof(pci_msg), msg, ap);
	va_end(ap);
	siglongjmp(pci_jb, 1);
}

__attribute__((format(printf, 1, 2)))
static void pci_quiet_cb(char *msg, ...)
{
	(void)msg;
}

static const char *sort_key;

static int cmp_key(const void *a, const void *b)
{
	return strcmp(json_string_value(json_object_get(*(json_t *const *)a, sort_key)),
		      json_string_value(json_object_get(*(json_t *const *)b, sort_key)));
}

/* A new array of arr's objects in order of their string field key. */
static json_t *sort_by(json_t *arr, const char *key)
{
	size_t n = json_array_size(arr), i;
	json_t **v = calloc(n + 1, sizeof(*v)), *out = json_array();

	for (i = 0; i < n; i++)
		v[i] = json_array_get(arr, i);
	sort_key = key;
	qsort(v, n, sizeof(*v), cmp_key);
	for (i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	json_decref(arr);
	return out;
}

static json_t *collect_gpus(void)
{
	static struct pci_access *a;	/* static: survives the longjmp */
	static json_t *arr;
	struct pci_dev *d;
	char p[PATH_MAX];

	arr = json_array();
	pathf(p, sizeof(p), "%s/bus/pci/devices", sysfs_root);
	if (!exists(p))
		return arr;	/* no PCI (or a fake tree without it) */
	a = pci_alloc();
	a->error = pci_error_cb;
	a->warning = pci_quiet_cb;
	a->debugging = 0;
	a->method = PCI_ACCESS_SYS_BUS_PCI;
	pathf(p, sizeof(p), "%s/bus/pci", sysfs_root);
	pci_set_param(a, "sysfs.path", p);
	if (sigsetjmp(pci_jb, 1)) {
		fprintf(stderr, "vgsp-smi: warning: libpci: %s\n", pci_msg);
		return arr;
	}
	pci_init(a);
	pci_scan_bus(a);
	for (d = a->devices; d; d = d->next) {
		char bdf[32], cls[8], vid[8], did[8], nbuf[256], *name;
		const char *drv;
		json_t *g;

		pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_NUMA_NODE |
			      PCI_FILL_DRIVER);
		if (d->vendor_id != 0x10de)
			continue;
		snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%u", d->domain, d->bus, d->dev, d->func);
		snprintf(vid, sizeof(vid), "%04x", d->vendor_id);
		snprintf(did, sizeof(did), "%04x", d->device_id);
		snprintf(cls, sizeof(cls), "%04x", d->device_class);
		drv = pci_get_string_property(d, PCI_FILL_DRIVER);
		name = pci_lookup_name(a, nbuf, sizeof(nbuf), PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS,
				       d->vendor_id, d->device_id);
		g = json_pack("{s:s,s:s,s:s,s:s,s:o,s:o,s:o}", "bdf", bdf, "vendor_id", vid,
			      "device_id", did, "class", cls, "driver", jstr(drv),
			      "numa_node", d->numa_node >= 0 ? json_integer(d->numa_node) : json_null(),
			      "name", jstr(name));
		json_array_append_new(arr, g);
	}
	pci_cleanup(a);
	return sort_by(arr, "bdf");
}

/* ---- mdev parents and types ---------------------------------------------- */

/* "fb=10GiB ... max_instances=8": the integer after KEY=, or NULL. */
static json_t *desc_int(const char *desc, const char *key)
{
	char pat[64];
	const char *s;
	char *end;
	long long v;

	if (!desc)
		return json_null();
	snprintf(pat, sizeof(pat), "%s=", key);
	for (s = strstr(desc, pat); s; s = strstr(s + 1, pat))
		if (s == desc || s[-1] == ' ')
			break;
	if (!s)
		return json_null();
	v = strtoll(s + strlen(pat), &end, 10);
	return end == s + strlen(pat) ? json_null() : json_integer(v);
}

static json_t *module_info(void)
{
	char p[PATH_MAX];
	json_t *m = json_object();
	static const char *const params[] = { "backend", "phys_gpu", "fb_budget_gib",
					      "max_instances", "msix_vectors" };
	unsigned int i;

	json_object_set_new(m, "loaded", json_boolean(vgsp_loaded()));
	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		char *s = attr(pathf(p, sizeof(p), "%s/module/vgsp/parameters/%s", sysfs_root,
				     params[i]));

		if (i < 2)
			json_object_set_new(m, params[i], jstr(s && *s ? s : (s ? "none" : NULL)));
		else
			json_object_set_new(m, params[i], jint_or_null(s));
		free(s);
	}
	return m;
}

static json_t *collect_parents(json_t *summary)
{
	char p[PATH_MAX], tdir[PATH_MAX];
	char **pars, **types;
	int np, nt, i, j;
	json_t *arr = json_array();

	pars = list_dir(pathf(p, sizeof(p), "%s/class/mdev_bus", sysfs_root), &np);
	for (i = 0; i < np; i++) {
		json_t *par = json_object(), *ta = json_array();
		bool ours = !strcmp(pars[i], "vgsp");

		types = list_dir(pathf(p, sizeof(p), "%s/class/mdev_bus/%s/mdev_supported_types",
				       sysfs_root, pars[i]), &nt);
		for (j = 0; j < nt; j++) {
			char *name, *desc, *api, *avail, **devs;
			int nd = 0;

			if (!strncmp(types[j], "vgsp-", 5))
				ours = true;
			pathf(tdir, sizeof(tdir), "%s/class/mdev_bus/%s/mdev_supported_types/%s",
			      sysfs_root, pars[i], types[j]);
			name = attr(pathf(p, sizeof(p), "%s/name", tdir));
			desc = attr(pathf(p, sizeof(p), "%s/description", tdir));
			api = attr(pathf(p, sizeof(p), "%s/device_api", tdir));
			avail = attr(pathf(p, sizeof(p), "%s/available_instances", tdir));
			devs = list_dir(pathf(p, sizeof(p), "%s/devices", tdir), &nd);
			json_array_append_new(ta, json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:i}",
				"id", types[j], "name", jstr(name), "description", jstr(desc),
				"device_api", jstr(api), "fb_gib", desc_int(desc, "fb"),
				"max_instances", desc_int(desc, "max_instances"),
				"available_instances", jint_or_null(avail), "instances", nd));
			free(name);
			free(desc);
			free(api);
			free(avail);
			free_list(devs);
		}
		free_list(types);
		json_object_set_new(par, "name", json_string(pars[i]));
		json_object_set_new(par, "vgsp", json_boolean(ours));
		if (ours) {
			json_t *m = module_info();

			json_object_set(par, "backend", json_object_get(m, "backend"));
			json_object_set(par, "phys_gpu", json_object_get(m, "phys_gpu"));
			json_object_set(par, "fb_budget_gib", json_object_get(m, "fb_budget_gib"));
			json_object_set_new(par, "fb_used_gib",
				json_incref(vfield(summary, "summary", "fb_used_gib")) ?: json_null());
			json_decref(m);
		} else {
			json_object_set_new(par, "backend", json_null());
			json_object_set_new(par, "phys_gpu", json_null());
			json_object_set_new(par, "fb_budget_gib", json_null());
			json_object_set_new(par, "fb_used_gib", json_null());
		}
		json_object_set_new(par, "types", ta);
		json_array_append_new(arr, par);
	}
	free_list(pars);
	return arr;
}

/* ---- instances ---------------------------------------------------------- */

struct fdref {
	int pid;
	char comm[64];
	char target[PATH_MAX];
};

static struct fdref *fdrefs;
static int nfdrefs, fdrefs_scanned;

/* Every process fd that points into /dev/vfio/ (the VMM holding a group or cdev). */
static void scan_vfio_fds(void)
{
	char p[PATH_MAX], t[PATH_MAX];
	char **pids, **fds;
	int np, nf, i, j, cap = 0;

	if (fdrefs_scanned)
		return;
	fdrefs_scanned = 1;
	pids = list_dir(proc_root, &np);
	for (i = 0; i < np; i++) {
		char *comm = NULL;

		if (!isdigit((unsigned char)pids[i][0]))
			continue;
		fds = list_dir(pathf(p, sizeof(p), "%s/%s/fd", proc_root, pids[i]), &nf);
		for (j = 0; j < nf; j++) {
			ssize_t n = readlink(pathf(p, sizeof(p), "%s/%s/fd/%s", proc_root, pids[i],
						   fds[j]), t, sizeof(t) - 1);

			if (n < 0)
				continue;
			t[n] = 0;
			if (strncmp(t, "/dev/vfio/", 10) || !strcmp(t, "/dev/vfio/vfio"))
				continue;
			if (!comm)
				comm = attr(pathf(p, sizeof(p), "%s/%s/comm", proc_root, pids[i]));
			if (nfdrefs == cap) {
				struct fdref *nr;

				cap = cap ? cap * 2 : 8;
				nr = realloc(fdrefs, cap * sizeof(*fdrefs));
				if (!nr)
					break;
				fdrefs = nr;
			}
			fdrefs[nfdrefs].pid = atoi(pids[i]);
			snprintf(fdrefs[nfdrefs].comm, sizeof(fdrefs[0].comm), "%s", comm ? comm : "?");
			snprintf(fdrefs[nfdrefs].target, sizeof(fdrefs[0].target), "%s", t);
			nfdrefs++;
		}
		free(comm);
		free_list(fds);
	}
	free_list(pids);
}

static json_t *holders_of(const char *group, const char *cdev)
{
	json_t *arr = json_array();
	char g[64], c[64];
	int i, last = -1;

	scan_vfio_fds();
	snprintf(g, sizeof(g), "/dev/vfio/%s", group ? group : "-");
	snprintf(c, sizeof(c), "/dev/vfio/devices/%s", cdev ? cdev : "-");
	for (i = 0; i < nfdrefs; i++) {
		if (strcmp(fdrefs[i].target, g) && strcmp(fdrefs[i].target, c))
			continue;
		if (fdrefs[i].pid == last)
			continue;
		last = fdrefs[i].pid;
		json_array_append_new(arr, json_pack("{s:i,s:s}", "pid", fdrefs[i].pid,
						     "comm", fdrefs[i].comm));
	}
	return arr;
}

/* Sum of the error counters (docs/vgsp-smi.md: *_bad, *_errors, *_faults, msgs_dropped). */
static bool is_error_counter(const char *k)
{
	size_t n = strlen(k);

	return (n > 4 && !strcmp(k + n - 4, "_bad")) || strstr(k, "_bad_") ||
	       (n > 7 && !strcmp(k + n - 7, "_errors")) ||
	       (n > 7 && !strcmp(k + n - 7, "_faults")) || !strcmp(k, "msgs_dropped");
}

static json_t *error_sum(json_t *views)
{
	static const char *const vs[] = { "counters", "gsp_state", "mm" };
	long long sum = 0;
	bool any = false;
	unsigned int i;
	const char *k;
	json_t *v;

	for (i = 0; i < 3; i++) {
		json_object_foreach(json_object_get(json_object_get(views, vs[i]), "fields"), k, v) {
			if (json_is_integer(v) && is_error_counter(k)) {
				sum += json_integer_value(v);
				any = true;
			}
		}
	}
	return any ? json_integer(sum) : json_null();
}

static json_t *copy_field(json_t *views, const char *view, const char *key)
{
	json_t *j = vfield(views, view, key);

	return j ? json_incref(j) : json_null();
}

/* The listing's summary of one instance from its views (views may be NULL). */
static json_t *inst_summary(json_t *views)
{
	json_t *s = json_object(), *open = vfield(views, "info", "open");
	const char *gv = vstr(views, "gsp_state", "guest_version");

	json_object_set_new(s, "profile", copy_field(views, "info", "type"));
	json_object_set_new(s, "product", copy_field(views, "info", "product"));
	json_object_set_new(s, "fb_bytes", copy_field(views, "info", "fb_bytes"));
	json_object_set_new(s, "open", json_is_integer(open) ?
			    json_boolean(json_integer_value(open) != 0) : json_null());
	json_object_set_new(s, "irq_mode", views && vfield(views, "info", "irq_mode") ?
			    copy_field(views, "info", "irq_mode") : copy_field(views, "vfu", "irq_mode"));
	json_object_set_new(s, "guest_driver", gv && strcmp(gv, "-") ? jstr(gv) : json_null());
	json_object_set_new(s, "gsp_boot", copy_field(views, "gsp_state", "boot"));
	json_object_set_new(s, "rpcs", copy_field(views, "gsp_state", "msgs_rx"));
	json_object_set_new(s, "doorbells", copy_field(views, "gsp_state", "doorbells"));
	json_object_set_new(s, "irqs", copy_field(views, "counters", "irqs_signalled"));
	json_object_set_new(s, "errors", views ? error_sum(views) : json_null());
	return s;
}

/* One vgsp.ko instance; *gone if its sysfs directory vanished. */
static int kernel_instance(const char *uuid, bool with_views, json_t **out)
{
	char p[PATH_MAX], dir[PATH_MAX], tl[PATH_MAX], *type, *group, *cdev = NULL, *parent = NULL;
	char **vd;
	int nv = 0, rc = 0;
	ssize_t n;
	json_t *views = NULL, *o, *s;

	*out = NULL;
	pathf(dir, sizeof(dir), "%s/bus/mdev/devices/%s", sysfs_root, uuid);
	type = link_base(pathf(p, sizeof(p), "%s/mdev_type", dir));
	if (!type)
		return exists(dir) ? fail(EX_ERR, "%s has no mdev_type link", dir) :
				     fail(EX_NOINST, "instance %s was removed while being read", uuid);
	n = readlink(p, tl, sizeof(tl) - 1);
	if (n > 0) {
		char *s1, *s2;

		tl[n] = 0;
		/* .../<parent>/mdev_supported_types/<type> */
		s1 = strrchr(tl, '/');
		if (s1) {
			*s1 = 0;
			s2 = strrchr(tl, '/');
			if (s2) {
				*s2 = 0;
				s1 = strrchr(tl, '/');
				parent = strdup(s1 ? s1 + 1 : tl);
			}
		}
	}
	group = link_base(pathf(p, sizeof(p), "%s/iommu_group", dir));
	vd = list_dir(pathf(p, sizeof(p), "%s/vfio-dev", dir), &nv);
	if (nv)
		cdev = strdup(vd[0]);
	free_list(vd);
	if (with_views)
		rc = read_kernel_views(uuid, &views);
	o = json_pack("{s:s,s:s,s:o,s:s,s:s}", "uuid", uuid, "frontend", fe_names[FE_KERNEL],
		      "parent", jstr(parent), "mdev_type", type,
		      "source", pathf(p, sizeof(p), "%s/vgsp/%s", debugfs_root, uuid));
	json_object_set_new(o, "iommu_group", jint_or_null(group));
	json_object_set_new(o, "holders", holders_of(group, cdev));
	s = inst_summary(views);
	if (json_is_null(json_object_get(s, "profile")) && !strncmp(type, "vgsp-", 5))
		json_object_set_new(s, "profile", json_string(type + 5));
	json_object_update(o, s);
	json_decref(s);
	if (views)
		json_object_set_new(o, "views", views);
	free(type);
	free(group);
	free(cdev);
	free(parent);
	*out = o;
	return rc;
}

static int vfu_instance(const char *file, json_t **out)
{
	json_t *views, *o, *s;
	int rc = read_vfu_views(file, &views);

	*out = NULL;
	if (rc)
		return rc;
	o = json_pack("{s:s,s:s,s:n,s:n,s:s,s:n,s:[]}", "uuid", vstr(views, "info", "uuid"),
		      "frontend", fe_names[FE_VFU], "parent", "mdev_type", "source", file,
		      "iommu_group", "holders");
	s = inst_summary(views);
	json_object_update(o, s);
	json_decref(s);
	json_object_set_new(o, "views", views);
	*out = o;
	return 0;
}

/* Instances seen by a walk and gone when read (for the -i error line). */
static char vanished[8][64];
static unsigned int nvanished;

static void note_vanished(const char *u)
{
	if (nvanished < 8)
		snprintf(vanished[nvanished++], sizeof(vanished[0]), "%s", u);
}

static int not_found(const char *id)
{
	unsigned int i;

	for (i = 0; i < nvanished; i++)
		if (!strncasecmp(vanished[i], id, strlen(id)))
			return fail(EX_NOINST, "instance %s was removed while being read", vanished[i]);
	return fail(EX_NOINST, "no instance %s", id);
}

/*
 * All instances (both frontends), with their views. A vgsp.ko instance
 * removed during the walk makes the walk start again (3 tries), so a
 * listing is a consistent snapshot or exit 5.
 */
static int collect_instances(json_t **out, bool need_views)
{
	char p[PATH_MAX];
	char **uu;
	int nu, i, rc = 0, attempt;
	json_t *arr = NULL;

	for (attempt = 0; attempt < 3; attempt++) {
		int saved = err_code;

		arr = json_array();
		uu = list_dir(pathf(p, sizeof(p), "%s/bus/mdev/devices", sysfs_root), &nu);
		test_hook("scan", attempt);
		rc = 0;
		for (i = 0; i < nu && !rc; i++) {
			json_t *o;
			char *type = link_base(pathf(p, sizeof(p), "%s/bus/mdev/devices/%s/mdev_type",
						     sysfs_root, uu[i]));

			/* only vgsp's instances (another parent's mdevs are not ours) */
			if (type && strncmp(type, "vgsp-", 5)) {
				free(type);
				continue;
			}
			free(type);
			rc = kernel_instance(uu[i], need_views, &o);
			if (o)
				json_array_append_new(arr, o);
			if (rc == EX_NOINST)
				note_vanished(uu[i]);
			if (rc == EX_NOINST || (rc && !o))
				break;
			rc = 0;	/* a debugfs problem keeps the sysfs half */
		}
		free_list(uu);
		if (rc != EX_NOINST)
			break;
		json_decref(arr);
		arr = NULL;
		if (attempt < 2) {	/* it went away: look again */
			err_code = saved;
			if (!saved)
				err_msg[0] = 0;
		}
	}
	if (!arr)
		return rc;
	for (i = 0; i < nvfu; i++) {
		json_t *o;

		rc = vfu_instance(vfu_files[i], &o);
		if (rc)
			break;
		json_array_append_new(arr, o);
	}
	*out = arr;
	return rc;
}

/* Resolve -i: exact UUID or a unique prefix, case-insensitive. */
static json_t *find_instance(json_t *arr, const char *id)
{
	json_t *o, *hit = NULL;
	size_t i, n = strlen(id);
	int hits = 0;

	json_array_foreach(arr, i, o) {
		const char *u = json_string_value(json_object_get(o, "uuid"));

		if (!strcasecmp(u, id))
			return o;
		if (n >= 4 && !strncasecmp(u, id, n)) {
			hit = o;
			hits++;
		}
	}
	return hits == 1 ? hit : NULL;
}

/* ---- output ------------------------------------------------------------- */

static void print_json(json_t *o)
{
	json_object_set_new(o, "error", err_code ?
			    json_pack("{s:i,s:s}", "exit_code", err_code, "message", err_msg) :
			    json_null());
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
}

static json_t *envelope(const char *view)
{
	return json_pack("{s:s,s:s}", "schema", SMI_SCHEMA, "view", view);
}

/* Text of a scalar JSON value ("-" for null/absent). */
static const char *txt(json_t *j, char *buf, size_t n)
{
	if (!j || json_is_null(j))
		return "-";
	if (json_is_string(j))
		return json_string_value(j);
	if (json_is_integer(j))
		snprintf(buf, n, "%lld", (long long)json_integer_value(j));
	else if (json_is_real(j))
		snprintf(buf, n, "%.1f", json_real_value(j));
	else if (json_is_boolean(j))
		return json_is_true(j) ? "yes" : "no";
	else
		return "?";
	return buf;
}

/* A field of o as text; 16 rotating buffers so several fit in one printf. */
static const char *T(json_t *o, const char *k)
{
	static char b[16][128];
	static unsigned int bi;

	bi = (bi + 1) % 16;
	return txt(json_object_get(o, k), b[bi], sizeof(b[0]));
}

static void print_list_text(json_t *top)
{
	size_t i, j;
	json_t *g, *par, *t, *in, *m = json_object_get(top, "module");

	printf("Physical NVIDIA PCI functions (libpci)\n");
	if (!json_array_size(json_object_get(top, "gpus")))
		printf("  none\n");
	else
		printf("  %-13s %-9s %-5s %-12s %-4s %s\n", "BDF", "ID", "Class", "Driver", "NUMA", "Name");
	json_array_foreach(json_object_get(top, "gpus"), i, g) {
		char id[16];

		snprintf(id, sizeof(id), "%s:%s", json_string_value(json_object_get(g, "vendor_id")),
			 json_string_value(json_object_get(g, "device_id")));
		printf("  %-13s %-9s %-5s %-12s %-4s %s\n", T(g, "bdf"), id, T(g, "class"),
		       T(g, "driver"), T(g, "numa_node"), T(g, "name"));
	}
	printf("\nvgsp.ko: %s", json_is_true(json_object_get(m, "loaded")) ? "loaded" : "not loaded");
	if (json_is_true(json_object_get(m, "loaded")))
		printf(" (backend %s, phys_gpu %s, fb_budget_gib %s, max_instances %s)", T(m, "backend"),
		       T(m, "phys_gpu"), T(m, "fb_budget_gib"), T(m, "max_instances"));
	printf("\n\nmdev parents\n");
	if (!json_array_size(json_object_get(top, "parents")))
		printf("  none\n");
	json_array_foreach(json_object_get(top, "parents"), i, par) {
		printf("  %s%s", T(par, "name"), json_is_true(json_object_get(par, "vgsp")) ? " (vgsp)" : "");
		if (json_is_true(json_object_get(par, "vgsp")))
			printf("  backend %s  phys_gpu %s  FB used %s of %s GiB", T(par, "backend"),
			       T(par, "phys_gpu"), T(par, "fb_used_gib"), T(par, "fb_budget_gib"));
		printf("\n    %-16s %-16s %-6s %-4s %-6s %s\n", "Type", "Name", "FB GiB", "Max",
		       "Avail", "Instances");
		json_array_foreach(json_object_get(par, "types"), j, t)
			printf("    %-16s %-16s %-6s %-4s %-6s %s\n", T(t, "id"), T(t, "name"),
			       T(t, "fb_gib"), T(t, "max_instances"), T(t, "available_instances"),
			       T(t, "instances"));
	}
	printf("\nInstances\n");
	if (!json_array_size(json_object_get(top, "instances")))
		printf("  none\n");
	else
		printf("  %-36s %-8s %-9s %-4s %-6s %-24s %-12s %-7s %-9s %s\n", "UUID", "Frontend",
		       "Profile", "Open", "IRQ", "Holder", "Guest drv", "RPCs", "Doorbells", "Errors");
	json_array_foreach(json_object_get(top, "instances"), i, in) {
		char h[64] = "-";
		json_t *hl = json_array_get(json_object_get(in, "holders"), 0);

		if (hl)
			snprintf(h, sizeof(h), "%lld(%s)", (long long)json_integer_value(json_object_get(hl, "pid")),
				 json_string_value(json_object_get(hl, "comm")));
		printf("  %-36s %-8s %-9s %-4s %-6s %-24s %-12s %-7s %-9s %s\n", T(in, "uuid"),
		       T(in, "frontend"), T(in, "profile"), T(in, "open"), T(in, "irq_mode"), h,
		       T(in, "guest_driver"), T(in, "rpcs"), T(in, "doorbells"), T(in, "errors"));
	}
}

static void print_view_text(const char *name, json_t *v)
{
	char b[1][128];
	json_t *cols = json_object_get(v, "columns"), *rows = json_object_get(v, "rows"), *r, *c;
	const char *k;
	json_t *val;
	size_t i, j, w[64] = { 0 }, ncol;

	printf("  %s\n", name);
	if (rows && !cols) {	/* row shapes without a header: take the first row's keys */
		cols = json_array();
		json_object_foreach(json_array_get(rows, 0), k, val)
			json_array_append_new(cols, json_string(k));
	} else {
		json_incref(cols);
	}
	ncol = json_array_size(cols);
	if (ncol > 64)
		ncol = 64;
	if (ncol) {
		for (j = 0; j < ncol; j++)
			w[j] = strlen(json_string_value(json_array_get(cols, j)));
		json_array_foreach(rows, i, r)
			for (j = 0; j < ncol; j++) {
				size_t l = strlen(txt(json_object_get(r, json_string_value(json_array_get(cols, j))),
						      b[0], sizeof(b[0])));
				if (l > w[j])
					w[j] = l;
			}
		printf("    ");
		json_array_foreach(cols, j, c)
			if (j < ncol)
				printf("%-*s%s", j + 1 < ncol ? (int)w[j] : 0, json_string_value(c),
				       j + 1 < ncol ? "  " : "\n");
		json_array_foreach(rows, i, r) {
			printf("    ");
			for (j = 0; j < ncol; j++)
				printf("%-*s%s", j + 1 < ncol ? (int)w[j] : 0,
				       txt(json_object_get(r, json_string_value(json_array_get(cols, j))), b[0],
					   sizeof(b[0])), j + 1 < ncol ? "  " : "\n");
		}
	}
	json_decref(cols);
	json_object_foreach(json_object_get(v, "fields"), k, val)
		printf("    %-32s : %s\n", k, txt(val, b[0], sizeof(b[0])));
	json_array_foreach(json_object_get(v, "windows"), i, r)
		printf("    dma_window %-27s : iova %s size %s %s\n", "", T(r, "iova"), T(r, "size"),
		       T(r, "mode"));
}

static void print_query_text(json_t *arr)
{
	size_t i;
	json_t *in, *v;
	const char *k;

	json_array_foreach(arr, i, in) {
		printf("%s==== %s  (%s, %s, %s)\n", i ? "\n" : "", T(in, "uuid"), T(in, "frontend"),
		       T(in, "profile"), T(in, "source"));
		json_object_foreach(json_object_get(in, "views"), k, v)
			print_view_text(k, v);
	}
}

/* ---- modes -------------------------------------------------------------- */

static int mode_list(const char *id)
{
	json_t *top = envelope("list"), *insts = NULL, *summary = NULL;
	char p[PATH_MAX];
	char *stext;
	int rc;
	bool loaded = vgsp_loaded();

	stext = slurp(pathf(p, sizeof(p), "%s/vgsp/summary", debugfs_root));
	if (stext) {
		summary = json_pack("{s:o}", "summary", parse_view("summary", stext));
		free(stext);
	}
	json_object_set_new(top, "gpus", collect_gpus());
	json_object_set_new(top, "module", module_info());
	json_object_set_new(top, "parents", collect_parents(summary));
	json_decref(summary);
	rc = collect_instances(&insts, true);
	if (insts && id) {
		json_t *o = find_instance(insts, id), *one = json_array();

		if (o)
			json_array_append(one, o);
		else if (!rc)
			rc = not_found(id);
		json_decref(insts);
		insts = one;
	}
	json_object_set_new(top, "instances", insts ? insts : json_array());
	if (!rc && !loaded && !nvfu)
		rc = fail(EX_NOTLOADED, "vgsp is not loaded (no %s/module/vgsp)", sysfs_root);
	if (!rc && loaded && !exists(pathf(p, sizeof(p), "%s/vgsp/summary", debugfs_root)))
		rc = debugfs_problem(p);
	if (json_mode)
		print_json(top);
	else
		print_list_text(top);
	json_decref(top);
	return rc ? rc : err_code;
}

static int mode_query(const char *id)
{
	json_t *top = envelope("query"), *insts = NULL, *sel;
	int rc = collect_instances(&insts, true);

	if (!rc && !vgsp_loaded() && !nvfu)
		rc = fail(EX_NOTLOADED, "vgsp is not loaded (no %s/module/vgsp)", sysfs_root);
	if (!rc && id) {
		json_t *o = find_instance(insts, id);

		sel = json_array();
		if (o)
			json_array_append(sel, o);
		else
			rc = not_found(id);
		json_decref(insts);
		insts = sel;
	}
	if (rc) {
		json_decref(insts);
		insts = json_array();
	}
	json_object_set_new(top, "instances", insts ? insts : json_array());
	if (json_mode)
		print_json(top);
	else if (!rc)
		print_query_text(insts);
	json_decref(top);
	return rc;
}

/* dmon: the counters behind each column. */
struct metric {
	const char *key;	/* JSON: <key>_per_s, deltas.<key> */
	const char *hdr;
	const char *src[3];	/* "view.field" summed; "*.field" = any view */
};

static const struct metric metrics[] = {
	{ "rpcs", "rpc/s", { "gsp_state.msgs_rx" } },
	{ "doorbells", "db/s", { "gsp_state.doorbells" } },
	{ "bar0_accesses", "bar0/s", { "counters.bar0_reads", "counters.bar0_writes" } },
	{ "dma_accesses", "dma/s", { "counters.dma_reads", "counters.dma_writes" } },
	{ "irqs", "irq/s", { "counters.irqs_signalled" } },
	{ "ce_bytes", "ceB/s", { "*.ce_bytes" } },
	{ "launches", "launch/s", { "*.launches" } },
};
#define NMETRIC (sizeof(metrics) / sizeof(metrics[0]))

struct sample {
	long long v[NMETRIC + 1];	/* last: errors */
	bool have[NMETRIC + 1];
	double t;
};

static void take_sample(json_t *views, struct sample *s)
{
	struct timespec ts;
	unsigned int i, j;
	json_t *e;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->t = ts.tv_sec + ts.tv_nsec / 1e9;
	for (i = 0; i < NMETRIC; i++) {
		s->v[i] = 0;
		s->have[i] = false;
		for (j = 0; j < 3 && metrics[i].src[j]; j++) {
			char view[64], *dot;
			const char *k, *vn;
			json_t *f = NULL, *vv;

			snprintf(view, sizeof(view), "%s", metrics[i].src[j]);
			dot = strchr(view, '.');
			*dot = 0;
			if (strcmp(view, "*")) {
				f = vfield(views, view, dot + 1);
			} else {
				json_object_foreach(views, vn, vv) {
					(void)vn;
					f = json_object_get(json_object_get(vv, "fields"), dot + 1);
					if (f)
						break;
				}
			}
			(void)k;
			if (json_is_integer(f)) {
				s->v[i] += json_integer_value(f);
				s->have[i] = true;
			}
		}
	}
	e = error_sum(views);
	s->have[NMETRIC] = json_is_integer(e);
	s->v[NMETRIC] = json_integer_value(e);
	json_decref(e);
}

static volatile sig_atomic_t dmon_stop;
static void on_sigint(int sig)
{
	(void)sig;
	dmon_stop = 1;
}

static int read_views_of(json_t *in, json_t **views)
{
	const char *fe = json_string_value(json_object_get(in, "frontend"));
	const char *u = json_string_value(json_object_get(in, "uuid"));

	if (!strcmp(fe, fe_names[FE_VFU]))
		return read_vfu_views(json_string_value(json_object_get(in, "source")), views);
	if (!vgsp_loaded())
		return fail(EX_NOTLOADED, "vgsp was unloaded while %s was monitored", u);
	return read_kernel_views(u, views);
}

static int mode_dmon(const char *id, double interval, long count)
{
	json_t *insts = NULL, *in;
	struct sample *prev;
	size_t i, n;
	long line;
	int rc = collect_instances(&insts, false);
	struct sigaction sa = { .sa_handler = on_sigint };

	if (!rc && !vgsp_loaded() && !nvfu)
		rc = fail(EX_NOTLOADED, "vgsp is not loaded (no %s/module/vgsp)", sysfs_root);
	if (!rc && id) {
		json_t *o = find_instance(insts, id), *sel = json_array();

		if (o)
			json_array_append(sel, o);
		else
			rc = not_found(id);
		json_decref(insts);
		insts = sel;
	}
	if (!rc && !json_array_size(insts))
		rc = fail(EX_NOINST, "no instances to monitor");
	if (rc) {
		json_decref(insts);
		if (json_mode) {
			json_t *t = envelope("dmon");

			print_json(t);
			json_decref(t);
		}
		return rc;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	n = json_array_size(insts);
	prev = calloc(n, sizeof(*prev));
	json_array_foreach(insts, i, in) {
		json_t *v;

		rc = read_views_of(in, &v);
		if (rc)
			goto out;
		take_sample(v, &prev[i]);
		json_decref(v);
	}
	if (!json_mode) {
		unsigned int k;

		printf("# %-8s %-8s", "uuid", "frontend");
		for (k = 0; k < NMETRIC; k++)
			printf(" %9s", metrics[k].hdr);
		printf(" %6s\n", "err");
		fflush(stdout);
	}
	for (line = 0; !count || line < count; line++) {
		struct timespec ts = { (time_t)interval, (long)((interval - (time_t)interval) * 1e9) };

		while (nanosleep(&ts, &ts) && !dmon_stop)
			;
		if (dmon_stop)
			break;
		test_hook("sample", line);
		json_array_foreach(insts, i, in) {
			struct sample cur;
			json_t *v;
			double dt;
			unsigned int k;
			const char *u = json_string_value(json_object_get(in, "uuid"));

			rc = read_views_of(in, &v);
			if (rc)
				goto out;
			take_sample(v, &cur);
			json_decref(v);
			dt = cur.t - prev[i].t;
			if (dt <= 0)
				dt = 1e-9;
			if (json_mode) {
				json_t *o = envelope("dmon"), *d = json_object();

				json_object_set_new(o, "sample", json_integer(line + 1));
				json_object_set_new(o, "uuid", json_string(u));
				json_object_set(o, "frontend", json_object_get(in, "frontend"));
				json_object_set_new(o, "interval_s", json_real(dt));
				for (k = 0; k < NMETRIC; k++) {
					char key[64];
					bool ok = cur.have[k] && prev[i].have[k];

					snprintf(key, sizeof(key), "%s_per_s", metrics[k].key);
					json_object_set_new(o, key, ok ? json_real((cur.v[k] - prev[i].v[k]) / dt) :
							    json_null());
					json_object_set_new(d, metrics[k].key, ok ?
							    json_integer(cur.v[k] - prev[i].v[k]) : json_null());
				}
				json_object_set_new(o, "errors", cur.have[NMETRIC] && prev[i].have[NMETRIC] ?
						    json_integer(cur.v[NMETRIC] - prev[i].v[NMETRIC]) : json_null());
				json_object_set_new(o, "deltas", d);
				json_object_set_new(o, "error", json_null());
				json_dumpf(o, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
				fputc('\n', stdout);
				json_decref(o);
			} else {
				printf("  %-8.8s %-8s", u, json_string_value(json_object_get(in, "frontend")));
				for (k = 0; k < NMETRIC; k++) {
					if (cur.have[k] && prev[i].have[k])
						printf(" %9.1f", (cur.v[k] - prev[i].v[k]) / dt);
					else
						printf(" %9s", "-");
				}
				if (cur.have[NMETRIC] && prev[i].have[NMETRIC])
					printf(" %6lld\n", cur.v[NMETRIC] - prev[i].v[NMETRIC]);
				else
					printf(" %6s\n", "-");
			}
			prev[i] = cur;
		}
		fflush(stdout);
	}
out:
	free(prev);
	json_decref(insts);
	return rc;
}

/* ---- command line ------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vgsp-smi [--json] [-i UUID]              list GPUs, parents, types, instances\n"
		"       vgsp-smi -q [-i UUID] [--json]           every view of one or all instances\n"
		"       vgsp-smi dmon [-i UUID] [-d SECONDS] [-c COUNT] [--json]\n"
		"                                                a line per interval with rates\n"
		"options: --vfu-stats FILE (repeatable; a vgsp-vfu --stats file)\n"
		"         --sysfs DIR, --debugfs DIR, --proc DIR (or VGSP_SMI_SYSFS, VGSP_SMI_DEBUGFS,\n"
		"         VGSP_SMI_PROC; default /sys, /sys/kernel/debug, /proc)\n"
		"exit: 0 ok, 1 error, 2 usage, 3 vgsp not loaded, 4 no debugfs or permission denied,\n"
		"      5 instance not found or removed (docs/vgsp-smi.md)\n");
}

__attribute__((format(printf, 1, 2)))
static int usage_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vgsp-smi: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see vgsp-smi --help)\n");
	return EX_USAGE;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "query", no_argument, NULL, 'q' },
		{ "id", required_argument, NULL, 'i' },
		{ "delay", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'c' },
		{ "vfu-stats", required_argument, NULL, 'S' },
		{ "sysfs", required_argument, NULL, 'Y' },
		{ "debugfs", required_argument, NULL, 'D' },
		{ "proc", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	const char *id = NULL, *e;
	bool query = false, dmon = false, dset = false, cset = false;
	double interval = 1.0;
	long count = 0;
	char *end;
	int c, rc;

	if ((e = getenv("VGSP_SMI_SYSFS")) && *e)
		sysfs_root = e;
	if ((e = getenv("VGSP_SMI_DEBUGFS")) && *e)
		debugfs_root = e;
	if ((e = getenv("VGSP_SMI_PROC")) && *e)
		proc_root = e;
	if (argc > 1 && !strcmp(argv[1], "dmon")) {
		dmon = true;
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jqi:d:c:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json_mode = true; break;
		case 'q': query = true; break;
		case 'i': id = optarg; break;
		case 'd':
			interval = strtod(optarg, &end);
			if (*end || !(interval > 0) || interval > 3600)
				return usage_err("-d wants seconds, 0 < SECONDS <= 3600 (got '%s')", optarg);
			dset = true;
			break;
		case 'c':
			count = strtol(optarg, &end, 10);
			if (*end || count < 1)
				return usage_err("-c wants a count >= 1 (got '%s')", optarg);
			cset = true;
			break;
		case 'S':
			if (nvfu == MAX_VFU)
				return usage_err("at most %d --vfu-stats files", MAX_VFU);
			vfu_files[nvfu++] = optarg;
			break;
		case 'Y': sysfs_root = optarg; break;
		case 'D': debugfs_root = optarg; break;
		case 'P': proc_root = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("vgsp-smi %s (%s)\n", SMI_VERSION, SMI_SCHEMA); return 0;
		case ':': return usage_err("option '%s' needs an argument", argv[optind - 1]);
		default:
			return optopt ? usage_err("unknown option '-%c'", optopt) :
					usage_err("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_err("unexpected argument '%s'%s", argv[optind],
				 !strcmp(argv[optind], "dmon") ? " (dmon goes first)" : "");
	if (dmon && query)
		return usage_err("-q and dmon do not go together");
	if (!dmon && (dset || cset))
		return usage_err("-d and -c are dmon options");
	if (dmon)
		rc = mode_dmon(id, interval, count);
	else if (query)
		rc = mode_query(id);
	else
		rc = mode_list(id);
	if (err_code)
		fprintf(stderr, "vgsp-smi: %s\n", err_msg);
	return rc ? rc : err_code;
}
